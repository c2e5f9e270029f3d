/*  coordinator/report/series.c: the figures a chart of the page draws,
    from a test's results: a stream's rate per sample interval, a
    monitor's disk rate and %sys, a host's total on a regular grid from
    its streams' progress. See series.h; the drawing is timeline.c's.
*/
#include "series.h"
#include "../numbers/aggregate.h"

#include <math.h>
#include <string.h>

//  A host total is computed on a grid this many times finer than the
//  hosts' sample interval would give, and never finer than this.
#define HOST_GRID_POINTS_MAX 2000


//  The point before sample nbr of a stream: the sample before it, or for
//  the first sample the stream's start with nothing done yet, so that the
//  first interval is drawn too (a short test may have no other). False
//  when there is none.
static bool
s_point_before (const stream_result_t *stream, size_t nbr, sample_point_t *before)
{
    if (nbr > 0) {
        *before = stream->samples [nbr - 1];
        return true;
    }
    if (!stream->finished || stream->start_ns >= stream->samples [0].t_ns)
        return false;
    before->t_ns = stream->start_ns;
    before->bytes = 0;
    return true;
}

//  Rate of a stream over the interval that ends at its sample nbr; NAN
//  when there is no point before it or time does not go forward.
double
series_interval_mbps (const stream_result_t *stream, size_t nbr)
{
    sample_point_t start;
    if (!s_point_before (stream, nbr, &start))
        return NAN;
    const sample_point_t *before = &start;
    const sample_point_t *after = &stream->samples [nbr];
    if (after->t_ns <= before->t_ns)
        return NAN;
    //  bytes per ns times 1000 is MB/s; bytes can only grow, but a
    //  misbehaving agent is drawn as a drop to zero, not as a wrap.
    double bytes = after->bytes >= before->bytes? (double) (after->bytes - before->bytes): 0;
    return bytes * 1e3 / (double) (after->t_ns - before->t_ns);
}

//  Whether the interval that ends at sample nbr of a stream is a whole
//  one: at least half as long as the stream's longest. The last interval
//  of a stream (its end) and the first (its start) are often short, and a
//  few bytes over a few milliseconds make a rate that says nothing.
bool
series_interval_full (const stream_result_t *stream, size_t nbr)
{
    int64_t longest_ns = 0, length_ns = 0;
    for (size_t k = 0; k < stream->sample_count; k++) {
        sample_point_t before;
        if (!s_point_before (stream, k, &before))
            continue;
        int64_t gap_ns = stream->samples [k].t_ns - before.t_ns;
        if (gap_ns > longest_ns)
            longest_ns = gap_ns;
        if (k == nbr)
            length_ns = gap_ns;
    }
    return length_ns > 0 && 2 * length_ns >= longest_ns;
}

//  The same for a monitor's interval that ends at point k (k >= 1).
bool
series_monitor_full (const monitor_result_t *monitor, size_t k)
{
    int64_t longest_ns = 0;
    for (size_t j = 1; j < monitor->point_count; j++) {
        int64_t gap_ns = monitor->points [j].t_ns - monitor->points [j - 1].t_ns;
        if (gap_ns > longest_ns)
            longest_ns = gap_ns;
    }
    int64_t length_ns = monitor->points [k].t_ns - monitor->points [k - 1].t_ns;
    return length_ns > 0 && 2 * length_ns >= longest_ns;
}

//  The intervals with a rate of a stream: the points its line would have.
size_t
series_stream_points (const stream_result_t *stream)
{
    size_t points = 0;
    for (size_t k = 0; k < stream->sample_count; k++)
        points += isfinite (series_interval_mbps (stream, k));
    return points;
}

//  The same for a monitor's disk writes (sys false) or its %sys.
size_t
series_monitor_points (const monitor_result_t *monitor, bool sys)
{
    size_t points = 0;
    for (size_t k = 1; k < monitor->point_count; k++)
        points += isfinite (sys? series_monitor_sys_pct (monitor, k): series_monitor_mbps (monitor, k));
    return points;
}

//  The most intervals with a rate of any stream or monitor of the count
//  iterations at tests: what a line of their chart would have to show.
size_t
series_interval_count (const test_result_t *tests, size_t count)
{
    size_t most = 0;
    for (size_t t = 0; t < count; t++) {
        for (size_t nbr = 0; nbr < tests [t].stream_count; nbr++) {
            size_t points = series_stream_points (&tests [t].streams [nbr]);
            most = points > most? points: most;
        }
        for (size_t m = 0; m < tests [t].monitor_count; m++) {
            size_t points = series_monitor_points (&tests [t].monitors [m], false);
            most = points > most? points: most;
        }
    }
    return most;
}

//  A monitor's disk write MB/s over the interval that ends at point k
//  (k >= 1), and its %sys there; NAN when nothing can be said.
double
series_monitor_mbps (const monitor_result_t *monitor, size_t k)
{
    const msg_monitor_t *a = &monitor->points [k - 1], *b = &monitor->points [k];
    if (b->t_ns <= a->t_ns || b->disk_written_bytes < a->disk_written_bytes)
        return NAN;
    return (double) (b->disk_written_bytes - a->disk_written_bytes) * 1e3 / (double) (b->t_ns - a->t_ns);
}

double
series_monitor_sys_pct (const monitor_result_t *monitor, size_t k)
{
    const msg_monitor_t *a = &monitor->points [k - 1], *b = &monitor->points [k];
    if (b->cpu_total_ticks <= a->cpu_total_ticks || b->cpu_system_ticks < a->cpu_system_ticks)
        return NAN;
    return 100.0 * (double) (b->cpu_system_ticks - a->cpu_system_ticks)
                 / (double) (b->cpu_total_ticks - a->cpu_total_ticks);
}

//  Whether agent runs more than one stream in the test: then it gets a
//  line for its total.
bool
series_host_has_several (const test_result_t *test, const char *agent)
{
    size_t count = 0;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++)
        if (!strcmp (test->streams [nbr].agent, agent))
            count++;
    return count > 1;
}

//  Whether stream nbr is the first of its agent in the test.
bool
series_first_of_host (const test_result_t *test, size_t nbr)
{
    for (size_t before = 0; before < nbr; before++)
        if (!strcmp (test->streams [before].agent, test->streams [nbr].agent))
            return false;
    return true;
}

//  The grid of a host's total: from its streams' first start (its first
//  sample for a stream that did not finish: then its curve is not known
//  before) to its last sample, with the smallest sample interval of its
//  streams as step. Returns false when the host has too few samples for
//  a rate.
bool
series_host_grid (const test_result_t *test, const char *agent,
             int64_t *from_ns, int64_t *to_ns, int64_t *step_ns)
{
    bool any = false;
    int64_t step = INT64_MAX;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        const stream_result_t *stream = &test->streams [nbr];
        if (strcmp (stream->agent, agent) || stream->sample_count < 2)
            continue;
        int64_t first_ns = stream->samples [0].t_ns;
        if (stream->finished && stream->start_ns < first_ns)
            first_ns = stream->start_ns;
        if (!any || first_ns < *from_ns)
            *from_ns = first_ns;
        if (!any || stream->samples [stream->sample_count - 1].t_ns > *to_ns)
            *to_ns = stream->samples [stream->sample_count - 1].t_ns;
        any = true;
        for (size_t k = 1; k < stream->sample_count; k++) {
            int64_t gap_ns = stream->samples [k].t_ns - stream->samples [k - 1].t_ns;
            if (gap_ns > 0 && gap_ns < step)
                step = gap_ns;
        }
    }
    if (!any || step == INT64_MAX || *to_ns <= *from_ns)
        return false;
    if ((*to_ns - *from_ns) / step > HOST_GRID_POINTS_MAX)
        step = (*to_ns - *from_ns) / HOST_GRID_POINTS_MAX;
    *step_ns = step;
    return true;
}

//  Bytes a host had done at an instant: its streams' progress summed.
double
series_host_bytes_at (const test_result_t *test, const char *agent, int64_t t_ns)
{
    double bytes = 0;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++)
        if (!strcmp (test->streams [nbr].agent, agent) && test->streams [nbr].sample_count)
            bytes += aggregate_bytes_at (&test->streams [nbr], t_ns);
    return bytes;
}
