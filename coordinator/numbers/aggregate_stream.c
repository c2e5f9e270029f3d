/*  coordinator/numbers/aggregate_stream.c: the figures of one stream (its
    window, rates, bytes at an instant, CPU per GB) and whether a test
    mixes streams of requests with streams of bytes; see aggregate_stream.h.
*/
#include "aggregate_stream.h"
#include "../../proto/clock.h"

#include <math.h>

//  Times come from agents and are not trusted to be sane: differences
//  are taken in double for rates, and saturate for durations, so that
//  absurd values give absurd figures rather than an overflow.

//  later - earlier in ns, saturated to the int64_t range.
int64_t
aggregate_difference_ns (int64_t later_ns, int64_t earlier_ns)
{
    int64_t difference_ns;
    if (__builtin_sub_overflow (later_ns, earlier_ns, &difference_ns))
        return later_ns > earlier_ns? INT64_MAX: INT64_MIN;
    return difference_ns;
}

double
aggregate_rate_mbps (double bytes, int64_t from_ns, int64_t to_ns)
{
    if (to_ns <= from_ns)
        return NAN;
    return bytes * 1e3 / ((double) to_ns - (double) from_ns);
}

//  The stream's window in *start_ns .. *end_ns; false if it has none.
//  When the end after fsync was never reached (the fsync failed) but
//  writes were made, the window closes at the last write: the stream did
//  run until then, and the test's span should say so.
bool
aggregate_stream_window (const stream_result_t *stream, int64_t *start_ns, int64_t *end_ns)
{
    if (!stream->finished)
        return false;
    int64_t end = stream->end_ns > stream->start_ns? stream->end_ns: stream->last_write_ns;
    if (end <= stream->start_ns)
        return false;
    *start_ns = stream->start_ns;
    *end_ns = end;
    return true;
}

//  The stream's rate over its whole window, fsync included.
double
aggregate_stream_rate_mbps (const stream_result_t *stream)
{
    assert (stream);
    if (!stream->finished)
        return NAN;
    return aggregate_rate_mbps ((double) stream->bytes, stream->start_ns, stream->end_ns);
}

//  The stream's operations per second, over its window.
double
aggregate_stream_ops_per_s (const stream_result_t *stream)
{
    int64_t start_ns, end_ns;
    if (!aggregate_stream_window (stream, &start_ns, &end_ns) || end_ns <= start_ns)
        return NAN;
    return (double) aggregate_stream_ops (stream) / ((double) (end_ns - start_ns) / 1e9);
}

double
aggregate_stream_write_rate_mbps (const stream_result_t *stream)
{
    assert (stream);
    if (!stream->finished)
        return NAN;
    return aggregate_rate_mbps ((double) stream->bytes, stream->start_ns, stream->last_write_ns);
}

//  Value at t of the line through (t0, b0) and (t1, b1), with t0 < t1.
static double
s_interpolate (int64_t t0, double b0, int64_t t1, double b1, int64_t t)
{
    return b0 + (b1 - b0) * ((double) t - (double) t0) / ((double) t1 - (double) t0);
}

//  Bytes the stream had done at t_ns, read off its curve.
double
aggregate_bytes_at (const stream_result_t *stream, int64_t t_ns)
{
    assert (stream);
    const int64_t start_ns = stream->start_ns;
    const int64_t last_ns = stream->last_write_ns;
    const double total = (double) stream->bytes;
    if (t_ns <= start_ns)
        return 0;
    if (t_ns >= last_ns)
        return total;

    //  Walk the points (start, 0), samples..., (last write, bytes). Samples
    //  come from the wire and are not trusted to be ordered or to agree
    //  with the final figures: one that does not move strictly forward in
    //  time, goes backwards in bytes or lies outside the window is skipped,
    //  so the curve stays monotonic and ends at the stream's total.
    int64_t prev_ns = start_ns;
    double prev_bytes = 0;
    for (size_t nbr = 0; nbr < stream->sample_count; nbr++) {
        const sample_point_t *sample = &stream->samples [nbr];
        double sample_bytes = (double) sample->bytes;
        if (sample->t_ns <= prev_ns || sample->t_ns >= last_ns
        ||  sample_bytes < prev_bytes || sample_bytes > total)
            continue;
        if (t_ns <= sample->t_ns)
            return s_interpolate (prev_ns, prev_bytes, sample->t_ns, sample_bytes, t_ns);
        prev_ns = sample->t_ns;
        prev_bytes = sample_bytes;
    }
    return s_interpolate (prev_ns, prev_bytes, last_ns, total, t_ns);
}

double
aggregate_stream_sys_s_per_gb (const stream_result_t *stream)
{
    if (stream->bytes == 0)
        return NAN;
    return ((double) stream->sys_ns / NS_PER_SEC) / ((double) stream->bytes / 1e9);
}

bool
aggregate_test_mixed (const test_result_t *test)
{
    for (size_t nbr = 0; !test->rate_ops && nbr < test->stream_count; nbr++)
        if (test->streams [nbr].ops_writes)
            return true;
    return false;
}
