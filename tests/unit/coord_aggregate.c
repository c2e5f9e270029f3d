/*  tests/unit/coord_aggregate.c: the report's arithmetic against cases
    computed by hand. Every expected figure is worked out in the comment
    beside it; times are given in ms or s and converted to ns.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../coordinator/numbers/aggregate.h"
#include "../../proto/clock.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS (NS_PER_MSEC)
#define SEC (NS_PER_SEC)

//  Rates are compared to a thousandth of a MB/s.
#define RATE_EPSILON 1e-3

//  A finished stream with the given figures and no samples.
static stream_result_t
s_stream (const char *agent, int job_class, uint32_t index, uint64_t bytes,
          int64_t start_ns, int64_t last_write_ns, int64_t end_ns)
{
    stream_result_t stream;
    memset (&stream, 0, sizeof (stream));
    snprintf (stream.agent, sizeof (stream.agent), "%s", agent);
    snprintf (stream.job, sizeof (stream.job), "job-%s", agent);
    stream.job_class = job_class;
    stream.index = index;
    stream.finished = true;
    stream.bytes = bytes;
    stream.start_ns = start_ns;
    stream.last_write_ns = last_write_ns;
    stream.end_ns = end_ns;
    return stream;
}

//  A test over an array of streams the caller owns.
static test_result_t
s_test (stream_result_t *streams, size_t count)
{
    test_result_t test;
    memset (&test, 0, sizeof (test));
    snprintf (test.name, sizeof (test.name), "t");
    test.iteration = 1;
    test.streams = streams;
    test.stream_count = count;
    return test;
}

//  Free the samples of an array of streams.
static void
s_free_samples (stream_result_t *streams, size_t count)
{
    for (size_t nbr = 0; nbr < count; nbr++)
        free (streams [nbr].samples);
}

//  aggregate_format_rate on one value, into a static buffer.
static const char *
s_format (double rate_mbps)
{
    static char buf [64];
    aggregate_format_rate (rate_mbps, buf, sizeof (buf));
    return buf;
}

//  aggregate_notation on a list, into a static buffer.
static const char *
s_notation (const double *rates_mbps, size_t count)
{
    static char buf [128];
    aggregate_notation (rates_mbps, count, buf, sizeof (buf));
    return buf;
}


//  --------------------------------------------------------------------------

static void
test_stream_rates (void **state)
{
    (void) state;
    //  1e9 bytes from 1 ms to 1001 ms of writes: 1e9 B / 1 s = 1000 MB/s;
    //  the fsync ends at 1251 ms: 1e9 B / 1.25 s = 800 MB/s.
    stream_result_t stream = s_stream ("a1", CLASS_DISK, 0, 1000000000,
                                       1 * MS, 1001 * MS, 1251 * MS);
    assert_float_equal (aggregate_stream_write_rate_mbps (&stream), 1000, RATE_EPSILON);
    assert_float_equal (aggregate_stream_rate_mbps (&stream), 800, RATE_EPSILON);

    //  No RESULT: no window, no rate.
    stream.finished = false;
    assert_true (isnan (aggregate_stream_rate_mbps (&stream)));
    assert_true (isnan (aggregate_stream_write_rate_mbps (&stream)));

    //  An end not after the start (never reached: 0) has no rate either.
    stream.finished = true;
    stream.end_ns = 0;
    assert_true (isnan (aggregate_stream_rate_mbps (&stream)));
    stream.end_ns = stream.start_ns;
    assert_true (isnan (aggregate_stream_rate_mbps (&stream)));
}

static void
test_bytes_at_interpolates (void **state)
{
    (void) state;
    //  Start 1 s, last write 3 s, 300 bytes; samples (1.5 s, 100) and
    //  (2.5 s, 200). The curve runs (1,0) (1.5,100) (2.5,200) (3,300).
    stream_result_t stream = s_stream ("a1", CLASS_DISK, 0, 300, 1 * SEC, 3 * SEC, 3 * SEC);
    assert_int_equal (stream_result_add_sample (&stream, 1500 * MS, 100), 0);
    assert_int_equal (stream_result_add_sample (&stream, 2500 * MS, 200), 0);

    //  1.25 s: halfway from (1,0) to (1.5,100) = 50.
    assert_float_equal (aggregate_bytes_at (&stream, 1250 * MS), 50, 1e-9);
    //  At a sample: its value.
    assert_float_equal (aggregate_bytes_at (&stream, 1500 * MS), 100, 1e-9);
    //  2.0 s: halfway from 100 to 200 = 150.
    assert_float_equal (aggregate_bytes_at (&stream, 2 * SEC), 150, 1e-9);
    //  2.75 s: halfway from (2.5,200) to (3,300) = 250.
    assert_float_equal (aggregate_bytes_at (&stream, 2750 * MS), 250, 1e-9);
    //  2.6 s: a fifth of the way from 200 to 300 = 220.
    assert_float_equal (aggregate_bytes_at (&stream, 2600 * MS), 220, 1e-9);
    s_free_samples (&stream, 1);
}

static void
test_bytes_at_before_and_after (void **state)
{
    (void) state;
    stream_result_t stream = s_stream ("a1", CLASS_DISK, 0, 300, 1 * SEC, 3 * SEC, 4 * SEC);
    assert_int_equal (stream_result_add_sample (&stream, 2 * SEC, 120), 0);
    //  Before the start and at it: nothing written yet.
    assert_float_equal (aggregate_bytes_at (&stream, -5 * SEC), 0, 1e-9);
    assert_float_equal (aggregate_bytes_at (&stream, 500 * MS), 0, 1e-9);
    assert_float_equal (aggregate_bytes_at (&stream, 1 * SEC), 0, 1e-9);
    //  At the last write and after it (during the fsync): all bytes.
    assert_float_equal (aggregate_bytes_at (&stream, 3 * SEC), 300, 1e-9);
    assert_float_equal (aggregate_bytes_at (&stream, 3500 * MS), 300, 1e-9);
    assert_float_equal (aggregate_bytes_at (&stream, 100 * SEC), 300, 1e-9);
    s_free_samples (&stream, 1);

    //  Without samples the curve is the straight line: 1000 bytes over
    //  0..1 s has 250 at 0.25 s.
    stream_result_t plain = s_stream ("a1", CLASS_DISK, 0, 1000, 0, 1 * SEC, 1 * SEC);
    assert_float_equal (aggregate_bytes_at (&plain, 250 * MS), 250, 1e-9);
}

static void
test_bytes_at_ignores_bad_samples (void **state)
{
    (void) state;
    //  The good points are (1,0) (1.5,100) (2.5,200) (3,300) as above;
    //  around them come samples a broken or hostile agent might send.
    stream_result_t stream = s_stream ("a1", CLASS_DISK, 0, 300, 1 * SEC, 3 * SEC, 3 * SEC);
    assert_int_equal (stream_result_add_sample (&stream, 500 * MS, 40), 0);      //  before the start
    assert_int_equal (stream_result_add_sample (&stream, 1500 * MS, 100), 0);
    assert_int_equal (stream_result_add_sample (&stream, 1200 * MS, 150), 0);    //  back in time
    assert_int_equal (stream_result_add_sample (&stream, 2 * SEC, 50), 0);       //  fewer bytes
    assert_int_equal (stream_result_add_sample (&stream, 2200 * MS, 900), 0);    //  beyond the total
    assert_int_equal (stream_result_add_sample (&stream, 2500 * MS, 200), 0);
    assert_int_equal (stream_result_add_sample (&stream, 3500 * MS, 280), 0);    //  after the last write
    assert_float_equal (aggregate_bytes_at (&stream, 1250 * MS), 50, 1e-9);
    assert_float_equal (aggregate_bytes_at (&stream, 2 * SEC), 150, 1e-9);
    assert_float_equal (aggregate_bytes_at (&stream, 2750 * MS), 250, 1e-9);
    s_free_samples (&stream, 1);
}

static void
test_overlapping_streams (void **state)
{
    (void) state;
    //  A: 0 .. 2 s, 200 MB, samples (0.5 s, 40 MB) (1 s, 100 MB) (1.5 s, 150 MB)
    //  B: 0.5 .. 2.5 s, 100 MB, samples (1 s, 20 MB) (2 s, 80 MB)
    //  Both on one agent, whose clock bound does not apply to itself.
    stream_result_t streams [2] = {
        s_stream ("a1", CLASS_DISK, 0, 200000000, 0, 2 * SEC, 2 * SEC),
        s_stream ("a1", CLASS_DISK, 1, 100000000, 500 * MS, 2500 * MS, 2500 * MS)
    };
    streams [0].clock_uncertainty_ns = streams [1].clock_uncertainty_ns = 30000;
    assert_int_equal (stream_result_add_sample (&streams [0], 500 * MS, 40000000), 0);
    assert_int_equal (stream_result_add_sample (&streams [0], 1 * SEC, 100000000), 0);
    assert_int_equal (stream_result_add_sample (&streams [0], 1500 * MS, 150000000), 0);
    assert_int_equal (stream_result_add_sample (&streams [1], 1 * SEC, 20000000), 0);
    assert_int_equal (stream_result_add_sample (&streams [1], 2 * SEC, 80000000), 0);
    test_result_t test = s_test (streams, 2);
    aggregate_test (&test);
    const test_summary_t *summary = &test.summary;

    assert_int_equal (summary->streams, 2);
    assert_int_equal (summary->hosts, 1);
    assert_int_equal (summary->failed_streams, 0);
    assert_int_equal (summary->bytes, 300000000);
    assert_int_equal (summary->first_start_ns, 0);
    assert_int_equal (summary->last_end_ns, 2500 * MS);
    //  combined: 300 MB over 0 .. 2.5 s = 120 MB/s.
    assert_float_equal (summary->combined_mbps, 120, RATE_EPSILON);
    //  all-running: [latest start 0.5 s, earliest end 2 s] = 1.5 s.
    //  A moved 200 - 40 = 160 MB in it (its sample at 0.5 s), B moved
    //  80 - 0 = 80 MB (its sample at 2 s): 240 MB / 1.5 s = 160 MB/s.
    assert_int_equal (summary->all_running_ns, 1500 * MS);
    assert_float_equal (summary->all_running_mbps, 160, RATE_EPSILON);
    //  One host: no host skew, no clock bound; streams 0.5 s apart.
    assert_int_equal (summary->host_skew_ns, 0);
    assert_int_equal (summary->stream_skew_ns, 500 * MS);
    assert_int_equal (summary->clock_uncertainty_ns, 0);
    //  Rates 200/2 = 100 and 100/2 = 50: a spread, in stream order.
    assert_int_equal (summary->disk.streams, 2);
    assert_int_equal (summary->disk.bytes, 300000000);
    assert_float_equal (summary->disk.combined_mbps, 120, RATE_EPSILON);
    assert_string_equal (summary->disk.notation, "100+50.0");
    assert_int_equal (summary->network.streams, 0);
    assert_true (isnan (summary->network.combined_mbps));
    assert_string_equal (summary->network.notation, "-");
    s_free_samples (streams, 2);
}

static void
test_single_stream (void **state)
{
    (void) state;
    //  dd1: 1309 MB in 1 s, fsync included. All three figures agree.
    stream_result_t stream = s_stream ("a1", CLASS_DISK, 0, 1309000000, 3000, 900 * MS, 1 * SEC + 3000);
    test_result_t test = s_test (&stream, 1);
    aggregate_test (&test);
    assert_float_equal (test.summary.combined_mbps, 1309, RATE_EPSILON);
    assert_float_equal (test.summary.all_running_mbps, 1309, RATE_EPSILON);
    assert_int_equal (test.summary.all_running_ns, 1 * SEC);
    assert_int_equal (test.summary.stream_skew_ns, 0);
    assert_int_equal (test.summary.host_skew_ns, 0);
    assert_string_equal (test.summary.disk.notation, "1309");
}

static void
test_non_overlapping_streams (void **state)
{
    (void) state;
    //  a1: 0 .. 1 s, 100 MB; a2: 2 .. 3 s, 50 MB. They never ran together.
    stream_result_t streams [2] = {
        s_stream ("a1", CLASS_DISK, 0, 100000000, 0, 1 * SEC, 1 * SEC),
        s_stream ("a2", CLASS_DISK, 0, 50000000, 2 * SEC, 3 * SEC, 3 * SEC)
    };
    streams [0].clock_uncertainty_ns = 20000;
    streams [1].clock_uncertainty_ns = 50000;
    test_result_t test = s_test (streams, 2);
    aggregate_test (&test);
    //  combined: 150 MB over 0 .. 3 s = 50 MB/s.
    assert_float_equal (test.summary.combined_mbps, 50, RATE_EPSILON);
    assert_true (isnan (test.summary.all_running_mbps));
    assert_int_equal (test.summary.all_running_ns, 0);
    assert_int_equal (test.summary.hosts, 2);
    //  Each host's first start: 0 and 2 s.
    assert_int_equal (test.summary.host_skew_ns, 2 * SEC);
    assert_int_equal (test.summary.stream_skew_ns, 2 * SEC);
    //  Two hosts: 20 + 50 us.
    assert_int_equal (test.summary.clock_uncertainty_ns, 70000);
    //  Rates 100 and 50.
    assert_string_equal (test.summary.disk.notation, "100+50.0");
}

static void
test_skews_and_uncertainty (void **state)
{
    (void) state;
    //  Three hosts, streams interleaved in the array (starts in ns):
    //    h2: 3000, 2500     first start 2500, uncertainty 40 us
    //    h1: 1000, 5000     first start 1000, uncertainty 10 us
    //    h3: 4000           first start 4000, uncertainty 25 us
    //  host skew = 4000 - 1000 = 3000; stream skew = 5000 - 1000 = 4000;
    //  bound = the two largest, 40 + 25 us = 65 us.
    stream_result_t streams [5] = {
        s_stream ("h2", CLASS_DISK, 0, 1000, 3000, 1 * SEC, 1 * SEC),
        s_stream ("h1", CLASS_DISK, 0, 1000, 1000, 1 * SEC, 1 * SEC),
        s_stream ("h3", CLASS_DISK, 0, 1000, 4000, 1 * SEC, 1 * SEC),
        s_stream ("h1", CLASS_DISK, 1, 1000, 5000, 1 * SEC, 1 * SEC),
        s_stream ("h2", CLASS_DISK, 1, 1000, 2500, 1 * SEC, 1 * SEC)
    };
    int64_t uncertainty_ns [5] = { 40000, 10000, 25000, 10000, 40000 };
    for (size_t nbr = 0; nbr < 5; nbr++)
        streams [nbr].clock_uncertainty_ns = uncertainty_ns [nbr];
    test_result_t test = s_test (streams, 5);
    aggregate_test (&test);
    assert_int_equal (test.summary.hosts, 3);
    assert_int_equal (test.summary.host_skew_ns, 3000);
    assert_int_equal (test.summary.stream_skew_ns, 4000);
    assert_int_equal (test.summary.clock_uncertainty_ns, 65000);
    assert_int_equal (test.summary.first_start_ns, 1000);
    //  1000 bytes each over about 1 s: five equal rates of 0.00100 MB/s,
    //  printed without the padding zeros.
    assert_string_equal (test.summary.disk.notation, "5x0.001");
}

static void
test_failed_streams (void **state)
{
    (void) state;
    //  ok:       a1, 100 MB over 0 .. 1 s = 100 MB/s
    //  failed:   a1, 1048576 bytes over 0 .. 0.2 s = 5.24288 MB/s, error
    //  lost:     a2, no RESULT (its agent vanished), nothing counted
    stream_result_t streams [3] = {
        s_stream ("a1", CLASS_DISK, 0, 100000000, 0, 1 * SEC, 1 * SEC),
        s_stream ("a1", CLASS_DISK, 1, 1048576, 0, 200 * MS, 200 * MS),
        s_stream ("a2", CLASS_DISK, 0, 0, 0, 0, 0)
    };
    assert_int_equal (stream_result_set_error (&streams [1],
                                               "write(/x/dd2.2): No space left on device"), 0);
    streams [2].finished = false;
    test_result_t test = s_test (streams, 3);
    aggregate_test (&test);
    assert_int_equal (test.summary.streams, 3);
    assert_int_equal (test.summary.failed_streams, 2);
    assert_int_equal (test.summary.hosts, 2);
    //  The failed stream's partial bytes count.
    assert_int_equal (test.summary.bytes, 100000000 + 1048576);
    //  combined: 101048576 B over 0 .. 1 s.
    assert_float_equal (test.summary.combined_mbps, 101.048576, RATE_EPSILON);
    //  The lost stream never ran with the others.
    assert_true (isnan (test.summary.all_running_mbps));
    //  Only a1 started: no second host to be skewed against.
    assert_int_equal (test.summary.host_skew_ns, 0);
    assert_string_equal (test.summary.disk.notation, "100+5.24+-");
    stream_result_set_error (&streams [1], NULL);
}

//  A stream lost before its RESULT, with samples: its bytes are its last
//  sample's, marked, and count in the partial combined figure over the
//  span from 0 (when it was told to start) to that sample.
static void
test_lost_stream_counts_its_last_sample (void **state)
{
    (void) state;
    //  ok:   a1, 100 MB over 0.001 .. 1 s
    //  lost: a2, samples 20 MB at 0.5 s and 30 MB at 1.5 s (out of order
    //        on the wire: the furthest counts), then nothing
    //  combined: 130e6 B over 0 .. 1.5 s = 86.667 MB/s
    stream_result_t streams [2] = {
        s_stream ("a1", CLASS_DISK, 0, 100000000, 1 * MS, 1 * SEC, 1 * SEC),
        s_stream ("a2", CLASS_DISK, 0, 0, 0, 0, 0)
    };
    streams [1].finished = false;
    streams [1].lost = true;
    assert_int_equal (stream_result_add_sample (&streams [1], 1500 * MS, 30000000), 0);
    assert_int_equal (stream_result_add_sample (&streams [1], 500 * MS, 20000000), 0);
    test_result_t test = s_test (streams, 2);
    aggregate_test (&test);
    assert_true (streams [1].bytes_sampled);
    assert_int_equal (streams [1].bytes, 30000000);
    assert_int_equal (streams [1].sampled_ns, 1500 * MS);
    assert_false (streams [0].bytes_sampled);
    assert_int_equal (test.summary.bytes, 130000000);
    assert_int_equal (test.summary.failed_streams, 1);
    assert_int_equal (test.summary.lost_streams, 1);
    assert_int_equal (test.summary.first_start_ns, 0);
    assert_int_equal (test.summary.last_end_ns, 1500 * MS);
    assert_float_equal (test.summary.combined_mbps, 130.0 / 1.5, RATE_EPSILON);
    assert_float_equal (test.summary.disk.combined_mbps, 130.0 / 1.5, RATE_EPSILON);
    //  Its rate is unknown, and so is the rate while all ran; the skews
    //  are those of the streams that reported a start.
    assert_true (isnan (aggregate_stream_rate_mbps (&streams [1])));
    assert_true (isnan (test.summary.all_running_mbps));
    assert_int_equal (test.summary.stream_skew_ns, 0);
    assert_string_equal (test.summary.disk.notation, "100+-");
    //  Once more gives the same figures.
    aggregate_test (&test);
    assert_int_equal (test.summary.bytes, 130000000);

    //  Every stream lost: the combined figure is still what the samples
    //  say, 30 MB over 0 .. 1.5 s, and the notation has nothing to say.
    test = s_test (&streams [1], 1);
    aggregate_test (&test);
    assert_float_equal (test.summary.combined_mbps, 20, RATE_EPSILON);
    assert_string_equal (test.summary.disk.notation, "-");
    s_free_samples (streams, 2);
}

static void
test_failed_fsync_window (void **state)
{
    (void) state;
    //  Writes from 0.1 s to 0.5 s, then the fsync failed: end never
    //  reached (0). No rate, but the stream did run until its last write.
    stream_result_t stream = s_stream ("a1", CLASS_DISK, 0, 4000000, 100 * MS, 500 * MS, 0);
    assert_int_equal (stream_result_set_error (&stream, "fsync(/x/f): Input/output error"), 0);
    test_result_t test = s_test (&stream, 1);
    aggregate_test (&test);
    assert_true (isnan (aggregate_stream_rate_mbps (&stream)));
    //  Up to the last write: 4 MB / 0.4 s = 10 MB/s.
    assert_float_equal (aggregate_stream_write_rate_mbps (&stream), 10, RATE_EPSILON);
    assert_int_equal (test.summary.first_start_ns, 100 * MS);
    assert_int_equal (test.summary.last_end_ns, 500 * MS);
    assert_float_equal (test.summary.combined_mbps, 10, RATE_EPSILON);
    assert_int_equal (test.summary.failed_streams, 1);
    stream_result_set_error (&stream, NULL);
}

static void
test_classes (void **state)
{
    (void) state;
    //  mix3: disk 96 MB over 0 .. 1 s; network 35 MB each over
    //  0.1 .. 2.1 s and 0.2 .. 2.2 s (17.5 MB/s each).
    stream_result_t streams [3] = {
        s_stream ("a1", CLASS_DISK, 0, 96000000, 0, 1 * SEC, 1 * SEC),
        s_stream ("a1", CLASS_NETWORK, 0, 35000000, 100 * MS, 2100 * MS, 2100 * MS),
        s_stream ("a1", CLASS_NETWORK, 1, 35000000, 200 * MS, 2200 * MS, 2200 * MS)
    };
    test_result_t test = s_test (streams, 3);
    aggregate_test (&test);
    const test_summary_t *summary = &test.summary;
    assert_int_equal (summary->disk.streams, 1);
    assert_int_equal (summary->disk.bytes, 96000000);
    assert_float_equal (summary->disk.combined_mbps, 96, RATE_EPSILON);
    assert_string_equal (summary->disk.notation, "96");
    assert_int_equal (summary->network.streams, 2);
    assert_int_equal (summary->network.bytes, 70000000);
    //  network over its own span 0.1 .. 2.2 s: 70 MB / 2.1 s.
    assert_float_equal (summary->network.combined_mbps, 70.0 / 2.1, RATE_EPSILON);
    assert_string_equal (summary->network.notation, "2x17.5");
    //  all: 166 MB over 0 .. 2.2 s.
    assert_float_equal (summary->combined_mbps, 166.0 / 2.2, RATE_EPSILON);
    //  all-running [0.2 s, 1 s] = 0.8 s, straight lines:
    //    disk 96 MB/s * 0.8 s = 76.8 MB
    //    net0 17.5 MB/s * (0.9 - 0.1) s = 14 MB
    //    net1 17.5 MB/s * (0.8 - 0) s = 14 MB
    //  104.8 MB / 0.8 s = 131 MB/s.
    assert_int_equal (summary->all_running_ns, 800 * MS);
    assert_float_equal (summary->all_running_mbps, 131, RATE_EPSILON);
}

static void
test_empty_test (void **state)
{
    (void) state;
    test_result_t test = s_test (NULL, 0);
    aggregate_test (&test);
    assert_int_equal (test.summary.streams, 0);
    assert_int_equal (test.summary.hosts, 0);
    assert_true (isnan (test.summary.combined_mbps));
    assert_true (isnan (test.summary.all_running_mbps));
    assert_string_equal (test.summary.disk.notation, "-");
}

static void
test_absurd_times (void **state)
{
    (void) state;
    //  Times from a broken agent at the ends of the int64_t range: the
    //  figures saturate instead of overflowing (UBSan would abort).
    stream_result_t streams [2] = {
        s_stream ("a1", CLASS_DISK, 0, UINT64_MAX, INT64_MIN, INT64_MAX, INT64_MAX),
        s_stream ("a2", CLASS_NETWORK, 0, 1000, INT64_MAX - 10, INT64_MAX, INT64_MAX)
    };
    streams [0].clock_uncertainty_ns = INT64_MAX;
    streams [1].clock_uncertainty_ns = INT64_MAX;
    assert_int_equal (stream_result_add_sample (&streams [0], 0, 1000), 0);
    test_result_t test = s_test (streams, 2);
    aggregate_test (&test);
    assert_int_equal (test.summary.stream_skew_ns, INT64_MAX);
    assert_int_equal (test.summary.host_skew_ns, INT64_MAX);
    assert_int_equal (test.summary.clock_uncertainty_ns, INT64_MAX);
    assert_int_equal (test.summary.all_running_ns, 10);
    assert_true (isfinite (test.summary.combined_mbps));
    assert_true (isfinite (aggregate_bytes_at (&streams [0], -1)));
    s_free_samples (streams, 2);
}

static void
test_format_rate (void **state)
{
    (void) state;
    assert_string_equal (s_format (1309.4), "1309");
    assert_string_equal (s_format (123.6), "124");
    assert_string_equal (s_format (96.0), "96");
    assert_string_equal (s_format (44.5), "44.5");
    assert_string_equal (s_format (3.27), "3.27");
    assert_string_equal (s_format (0.512), "0.512");
    assert_string_equal (s_format (0.0001234), "0.000123");
    assert_string_equal (s_format (0), "0");
    //  Rounding into the next power of ten keeps three figures.
    assert_string_equal (s_format (99.96), "100");
    assert_string_equal (s_format (9.996), "10");
    assert_string_equal (s_format (9.9949), "9.99");
    assert_string_equal (s_format (NAN), "-");
    assert_string_equal (s_format (INFINITY), "-");
}

static void
test_notation (void **state)
{
    (void) state;
    //  One rate: itself.
    double single [] = { 96.0 };
    assert_string_equal (s_notation (single, 1), "96");
    //  Equal.
    double equal [] = { 44.5, 44.5 };
    assert_string_equal (s_notation (equal, 2), "2x44.5");
    //  Within 5%: mean 30.1667, farthest 0.833 away < 1.508.
    double close [] = { 30.0, 31.0, 29.5 };
    assert_string_equal (s_notation (close, 3), "3x30.2");
    //  Spread: mean 28.5, 30.1 is 1.6 away > 1.425.
    double spread [] = { 30.1, 27.0, 28.4 };
    assert_string_equal (s_notation (spread, 3), "30.1+27.0+28.4");
    //  The 5% edge: 100 and 110 (mean 105, 5 <= 5.25) are equal;
    //  100 and 112 (mean 106, 6 > 5.3) are not.
    double edge_in [] = { 100, 110 };
    assert_string_equal (s_notation (edge_in, 2), "2x105");
    double edge_out [] = { 100, 112 };
    assert_string_equal (s_notation (edge_out, 2), "100+112");
    //  NAN: "-" alone, and it breaks an equality.
    double none [] = { NAN };
    assert_string_equal (s_notation (none, 1), "-");
    double partial [] = { 44.5, NAN };
    assert_string_equal (s_notation (partial, 2), "44.5+-");
    assert_string_equal (s_notation (NULL, 0), "-");
    //  Streams that all failed have no rates: "-", not "-+-+-".
    double all_failed [] = { NAN, NAN, NAN };
    assert_string_equal (s_notation (all_failed, 3), "-");
}

static void
test_notation_truncates (void **state)
{
    (void) state;
    //  Eight different rates do not fit in 16 bytes: the list ends in "+..."
    //  after whole numbers only.
    double rates [8];
    for (size_t nbr = 0; nbr < 8; nbr++)
        rates [nbr] = 10.0 + 10.0 * (double) nbr;
    char buf [16];
    aggregate_notation (rates, 8, buf, sizeof (buf));
    assert_string_equal (buf, "10.0+20.0+...");
    assert_true (strlen (buf) < sizeof (buf));
}

static void
test_notation_of_a_fleet (void **state)
{
    (void) state;
    //  Nine and more streams that differ: count, range and median.
    double rates [256];
    for (size_t nbr = 0; nbr < 256; nbr++)
        rates [nbr] = nbr % 2? 3.73: 133;
    rates [7] = 44.5;
    assert_string_equal (s_notation (rates, 9), "9: 3.73..133, median 133");
    assert_string_equal (s_notation (rates, 256), "256: 3.73..133, median 88.8");
    rates [0] = rates [1] = NAN;
    assert_string_equal (s_notation (rates, 10), "10: 3.73..133, median 88.8, 2 without");
    //  Alike, however many: "64x44.5".
    for (size_t nbr = 0; nbr < 64; nbr++)
        rates [nbr] = 44.5 + (nbr % 3) * 0.1;
    assert_string_equal (s_notation (rates, 64), "64x44.6");
    //  Eight are still listed.
    for (size_t nbr = 0; nbr < 8; nbr++)
        rates [nbr] = 10.0 * (double) (nbr + 1);
    assert_string_equal (s_notation (rates, 8), "10.0+20.0+30.0+40.0+50.0+60.0+70.0+80.0");
}

static void
test_add_sample_grows (void **state)
{
    (void) state;
    stream_result_t stream;
    memset (&stream, 0, sizeof (stream));
    for (int64_t nbr = 0; nbr < 1000; nbr++)
        assert_int_equal (stream_result_add_sample (&stream, nbr * MS, (uint64_t) nbr * 10), 0);
    assert_int_equal (stream.sample_count, 1000);
    assert_true (stream.sample_capacity >= 1000);
    assert_int_equal (stream.samples [999].t_ns, 999 * MS);
    assert_int_equal (stream.samples [999].bytes, 9990);

    //  run_result_clear frees it all and leaves an empty run.
    run_result_t run;
    memset (&run, 0, sizeof (run));
    run.tests = calloc (1, sizeof (test_result_t));
    assert_non_null (run.tests);
    run.test_count = run.test_capacity = 1;
    run.tests [0].streams = calloc (1, sizeof (stream_result_t));
    assert_non_null (run.tests [0].streams);
    run.tests [0].streams [0] = stream;
    run.tests [0].stream_count = 1;
    run.agents = calloc (2, sizeof (agent_info_t));
    run.agent_count = 2;
    run_result_clear (&run);
    assert_null (run.tests);
    assert_null (run.agents);
    assert_int_equal (run.test_count, 0);
    run_result_clear (&run);
}

//  A host entry with CPU ticks and memory figures.
static host_result_t
s_host (const char *agent, uint64_t total, uint64_t user, uint64_t system, uint64_t iowait)
{
    host_result_t host;
    memset (&host, 0, sizeof (host));
    snprintf (host.agent, sizeof (host.agent), "%s", agent);
    host.received = true;
    host.counters.cpu_total_ticks = total;
    host.counters.cpu_user_ticks = user;
    host.counters.cpu_system_ticks = system;
    host.counters.cpu_iowait_ticks = iowait;
    host.counters.cpu_idle_ticks = total - user - system - iowait;
    host.counters.mem_total_bytes = 24ULL * 1000 * 1000 * 1000;
    return host;
}

//  The warning of a kind about an agent, or NULL.
static const warning_t *
s_warning (const test_result_t *test, const char *kind, const char *agent)
{
    for (size_t i = 0; i < test->warning_count; i++)
        if (strcmp (test->warnings [i].kind, kind) == 0 && strcmp (test->warnings [i].agent, agent) == 0)
            return &test->warnings [i];
    return NULL;
}

static void
test_host_cpu_shares (void **state)
{
    (void) state;
    stream_result_t streams [2] = {
        s_stream ("a1", CLASS_DISK, 0, 100 * 1000 * 1000, 0, 1 * SEC, 1 * SEC),
        s_stream ("a2", CLASS_DISK, 0, 300 * 1000 * 1000, 0, 1 * SEC, 1 * SEC),
    };
    streams [0].fsync_mode = streams [1].fsync_mode = FSYNC_END;
    host_result_t hosts [3] = {
        s_host ("a1", 200, 20, 50, 30),     //  a1: 10% usr, 25% sys, 15% iowait
        s_host ("a2", 800, 40, 100, 0),     //  a2: 5% usr, 12.5% sys
        s_host ("a3", 0, 0, 0, 0),          //  never reported
    };
    hosts [2].received = false;
    test_result_t test = s_test (streams, 2);
    test.hosts = hosts;
    test.host_count = 3;
    aggregate_test (&test);
    assert_true (fabs (hosts [0].sys_pct - 25.0) < 1e-9);
    assert_true (fabs (hosts [0].iowait_pct - 15.0) < 1e-9);
    assert_true (fabs (hosts [1].usr_pct - 5.0) < 1e-9);
    assert_true (isnan (hosts [2].sys_pct));
    assert_int_equal (hosts [0].stream_bytes, 100 * 1000 * 1000);
    assert_int_equal (hosts [1].stream_bytes, 300 * 1000 * 1000);
    //  The test's shares are sums of ticks over the measured hosts:
    //  sys (50 + 100) / 1000 = 15%, not the mean of 25% and 12.5%.
    assert_int_equal (test.summary.hosts_measured, 2);
    assert_true (fabs (test.summary.sys_pct - 15.0) < 1e-9);
    assert_true (fabs (test.summary.usr_pct - 6.0) < 1e-9);
    assert_true (fabs (test.summary.iowait_pct - 3.0) < 1e-9);
    //  fsync on, figures clean: no warnings.
    assert_int_equal (test.warning_count, 0);
}

static void
test_warnings (void **state)
{
    (void) state;
    //  a1 wrote 400 MB without fsync or O_DIRECT; 300 MB of it was still
    //  dirty at the window's end, 350 MB reached the disk afterwards.
    stream_result_t streams [2] = {
        s_stream ("a1", CLASS_DISK, 0, 400 * 1000 * 1000, 0, 1 * SEC, 1 * SEC),
        s_stream ("a2", CLASS_DISK, 0, 400 * 1000 * 1000, 50 * MS, 1 * SEC, 1 * SEC),
    };
    streams [0].fsync_mode = FSYNC_NONE;
    streams [1].fsync_mode = FSYNC_END;
    streams [1].direct = true;
    host_result_t hosts [2] = {
        s_host ("a1", 100, 10, 10, 10),
        s_host ("a2", 100, 10, 10, 10),
    };
    hosts [0].counters.dirty_start_bytes = 10 * 1000 * 1000;
    hosts [0].counters.dirty_end_bytes = 310 * 1000 * 1000;
    hosts [0].counters.settle_written_bytes = 350 * 1000 * 1000;
    hosts [0].settle_end_ns = 4 * SEC;
    hosts [0].window_end_ns = 1 * SEC;
    //  a2: 20 MB settle writes are 5% of 400 MB, under the 10% line; a
    //  dirty rise of 10 MB is under the 16 MB floor.
    hosts [1].counters.settle_written_bytes = 20 * 1000 * 1000;
    hosts [1].counters.dirty_end_bytes = 10 * 1000 * 1000;
    test_result_t test = s_test (streams, 2);
    test.hosts = hosts;
    test.host_count = 2;
    aggregate_test (&test);

    const warning_t *dirty = s_warning (&test, "dirty", "a1");
    assert_non_null (dirty);
    assert_non_null (strstr (dirty->text, "300.0 MB still dirty"));
    const warning_t *writeback = s_warning (&test, "writeback", "a1");
    assert_non_null (writeback);
    assert_non_null (strstr (writeback->text, "350.0 MB written to disk in the 3.0 s"));
    //  400 MB < 2 x 24 GB, neither direct nor fsync.
    assert_non_null (s_warning (&test, "cache", "a1"));
    assert_null (s_warning (&test, "dirty", "a2"));
    assert_null (s_warning (&test, "writeback", "a2"));
    assert_null (s_warning (&test, "cache", "a2"));
    //  Streams 50 ms apart in a 1 s test: 5% > 1%.
    const warning_t *skew = s_warning (&test, "skew", "");
    assert_non_null (skew);
    assert_non_null (strstr (skew->text, "50.000 ms apart"));
    assert_int_equal (test.warning_count, 4);
}

//  Two agents on one machine (one boot id) are one host to the warnings:
//  each wrote 67.1 MB, the machine's counters say 94.7 MB still dirty and
//  134.9 MB written after the window. Against one agent's bytes that was
//  141% and 201%; against the machine's, 71% and a little more than its
//  134.2 MB, once, named as the machine with both its agents. A share is
//  never above 100%: more than the streams wrote is said in words, with
//  the likely reason (other writers, data dirtied before the window),
//  since a percentage above 100 reads as a measuring error. A third agent
//  elsewhere keeps its own figures: 94.7 MB dirty against its 67.1 MB.
static void
test_warnings_per_machine (void **state)
{
    (void) state;
    stream_result_t streams [3] = {
        s_stream ("a1", CLASS_DISK, 0, 67100000, 0, 1 * SEC, 1 * SEC),
        s_stream ("a2", CLASS_DISK, 0, 67100000, 0, 1 * SEC, 1 * SEC),
        s_stream ("a3", CLASS_DISK, 0, 67100000, 0, 1 * SEC, 1 * SEC),
    };
    for (int s = 0; s < 3; s++)
        streams [s].fsync_mode = FSYNC_NONE;
    host_result_t hosts [3] = {
        s_host ("a1", 100, 10, 10, 10), s_host ("a2", 100, 10, 10, 10),
        s_host ("a3", 100, 10, 10, 10),
    };
    for (int h = 0; h < 3; h++) {
        snprintf (hosts [h].boot_id, sizeof hosts [h].boot_id, "%s",
                  h < 2? "0b6e1e9c-8c5f-4c1a-9a3e-5d2f7a1c0e11": "7d3a1f00-2b4c-4e5d-8f6a-9b0c1d2e3f40");
        hosts [h].counters.dirty_end_bytes = 94700000;
        hosts [h].counters.settle_written_bytes = 134900000;
        hosts [h].window_end_ns = 1 * SEC;
        hosts [h].settle_end_ns = 3 * SEC;
    }
    test_result_t test = s_test (streams, 3);
    test.hosts = hosts;
    test.host_count = 3;
    aggregate_test (&test);
    const warning_t *dirty = s_warning (&test, "dirty", "a1");
    assert_non_null (dirty);
    assert_non_null (strstr (dirty->text, "a1 and a2 (one machine): 94.7 MB still "
                                          "dirty or under writeback when the window closed "
                                          "(71% of the 134.2 MB its streams wrote)"));
    assert_null (s_warning (&test, "dirty", "a2"));
    const warning_t *writeback = s_warning (&test, "writeback", "a1");
    assert_non_null (writeback);
    assert_non_null (strstr (writeback->text, "a1 and a2 (one machine): 134.9 MB written to "
                                              "disk in the 2.0 s after the window (more than "
                                              "the 134.2 MB its streams wrote: other writers "
                                              "on the machine, or data dirtied before the "
                                              "window)"));
    assert_null (s_warning (&test, "writeback", "a2"));
    //  a3, alone on its machine: more than its own 67.1 MB.
    dirty = s_warning (&test, "dirty", "a3");
    assert_non_null (dirty);
    assert_non_null (strstr (dirty->text, "a3: 94.7 MB still dirty or under writeback when the "
                                          "window closed (more than the 67.1 MB its streams "
                                          "wrote: other writers on the machine)"));
    //  No share anywhere is above 100%.
    for (size_t w = 0; w < test.warning_count; w++) {
        const char *pct = strchr (test.warnings [w].text, '%');
        for (; pct; pct = strchr (pct + 1, '%')) {
            const char *digits = pct;
            while (digits > test.warnings [w].text && isdigit ((unsigned char) digits [-1]))
                digits--;
            assert_true (atoi (digits) <= 100);
        }
    }
}

//  A randrw file set that fits in memory twice over is warned of, once
//  for the job however many streams share it, whatever the fsyncs; with
//  O_DIRECT it is not.
static void
test_warning_file_set (void **state)
{
    (void) state;
    stream_result_t streams [3] = {
        s_stream ("a1", CLASS_DISK, 0, 40 * 1000 * 1000, 0, 1 * SEC, 1 * SEC),
        s_stream ("a1", CLASS_DISK, 1, 40 * 1000 * 1000, 0, 1 * SEC, 1 * SEC),
        s_stream ("a2", CLASS_DISK, 0, 40 * 1000 * 1000, 0, 1 * SEC, 1 * SEC),
    };
    for (int s = 0; s < 3; s++)
        streams [s].fsync_mode = FSYNC_END;
    streams [0].set_bytes = 2000ULL * 1000 * 1000;     //  the job's first stream
    streams [2].set_bytes = 2000ULL * 1000 * 1000;
    streams [2].direct = true;
    host_result_t hosts [2] = {
        s_host ("a1", 100, 10, 10, 10),
        s_host ("a2", 100, 10, 10, 10),
    };
    test_result_t test = s_test (streams, 3);
    test.hosts = hosts;
    test.host_count = 2;
    aggregate_test (&test);
    const warning_t *cache = s_warning (&test, "cache", "a1");
    assert_non_null (cache);
    assert_non_null (strstr (cache->text, "a file set of 2000.0 MB"));
    assert_null (s_warning (&test, "cache", "a2"));
    assert_int_equal (test.warning_count, 1);
}

//  A test of operations counts bonnie's seeks as its reads (a seek's
//  write-back is part of it) and randrw's requests as reads and writes.
static void
test_operations (void **state)
{
    (void) state;
    stream_result_t streams [2] = {
        s_stream ("a1", CLASS_DISK, 0, 1000, 0, 1 * SEC, 1 * SEC),
        s_stream ("a1", CLASS_DISK, 1, 1000, 0, 1 * SEC, 2 * SEC),
    };
    for (int s = 0; s < 2; s++) {
        streams [s].reads = 600;
        streams [s].writes = 400;
    }
    test_result_t test = s_test (streams, 2);
    test.rate_ops = true;
    aggregate_test (&test);
    assert_true (fabs (test.summary.combined_ops_per_s - 1200.0 / 2) < 1e-9);
    assert_true (fabs (aggregate_stream_ops_per_s (&streams [1]) - 300.0) < 1e-9);

    test.rate_requests = true;
    for (int s = 0; s < 2; s++)
        streams [s].ops_writes = true;
    aggregate_test (&test);
    assert_true (fabs (test.summary.combined_ops_per_s - 2000.0 / 2) < 1e-9);
    assert_true (fabs (aggregate_stream_ops_per_s (&streams [0]) - 1000.0) < 1e-9);
}

static void
test_stats (void **state)
{
    (void) state;
    double values [] = { 4, NAN, 1, 3, 2 };
    aggregate_stats_t stats = aggregate_stats (values, 5);
    //  1 2 3 4: median 2.5, mean 2.5, sample variance (2.25+0.25+0.25+2.25)/3
    assert_int_equal (stats.count, 4);
    assert_true (stats.min == 1 && stats.max == 4);
    assert_true (fabs (stats.median - 2.5) < 1e-12);
    assert_true (fabs (stats.stddev - sqrt (5.0 / 3)) < 1e-12);
    stats = aggregate_stats (values, 1);
    assert_true (stats.count == 1 && stats.median == 4 && stats.stddev == 0);
    stats = aggregate_stats (values, 0);
    assert_true (stats.count == 0 && isnan (stats.median));
}

static void
test_iterations_first_apart (void **state)
{
    (void) state;
    //  dd1 ran four times (the first slow), dd2 once, interleaved.
    test_result_t tests [5];
    double rates [] = { 100, 400, 390, 410, 55 };
    const char *names [] = { "dd1", "dd1", "dd1", "dd1", "dd2" };
    for (int i = 0; i < 5; i++) {
        memset (&tests [i], 0, sizeof tests [i]);
        snprintf (tests [i].name, sizeof tests [i].name, "%s", names [i]);
        tests [i].iteration = i < 4? (uint32_t) i + 1: 1;
        tests [i].summary.combined_mbps = rates [i];
        tests [i].summary.sys_pct = 10 + i;
    }
    run_result_t run = { .tests = tests, .test_count = 5 };
    aggregate_iterations_t dd1 = aggregate_iterations (&run, "dd1");
    assert_true (dd1.first_mbps == 100);
    assert_int_equal (dd1.rest.count, 3);
    assert_true (dd1.rest.min == 390 && dd1.rest.median == 400 && dd1.rest.max == 410);
    assert_true (fabs (dd1.rest.stddev - 10.0) < 1e-12);
    assert_true (dd1.rest_sys_pct.median == 12);
    aggregate_iterations_t dd2 = aggregate_iterations (&run, "dd2");
    assert_true (dd2.first_mbps == 55);
    assert_int_equal (dd2.rest.count, 0);
    aggregate_iterations_t none = aggregate_iterations (&run, "dd3");
    assert_true (isnan (none.first_mbps));
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_stream_rates),
        cmocka_unit_test (test_bytes_at_interpolates),
        cmocka_unit_test (test_bytes_at_before_and_after),
        cmocka_unit_test (test_bytes_at_ignores_bad_samples),
        cmocka_unit_test (test_overlapping_streams),
        cmocka_unit_test (test_single_stream),
        cmocka_unit_test (test_non_overlapping_streams),
        cmocka_unit_test (test_skews_and_uncertainty),
        cmocka_unit_test (test_failed_streams),
        cmocka_unit_test (test_lost_stream_counts_its_last_sample),
        cmocka_unit_test (test_failed_fsync_window),
        cmocka_unit_test (test_classes),
        cmocka_unit_test (test_empty_test),
        cmocka_unit_test (test_absurd_times),
        cmocka_unit_test (test_format_rate),
        cmocka_unit_test (test_notation),
        cmocka_unit_test (test_notation_truncates),
        cmocka_unit_test (test_notation_of_a_fleet),
        cmocka_unit_test (test_add_sample_grows),
        cmocka_unit_test (test_host_cpu_shares),
        cmocka_unit_test (test_warnings),
        cmocka_unit_test (test_warnings_per_machine),
        cmocka_unit_test (test_warning_file_set),
        cmocka_unit_test (test_operations),
        cmocka_unit_test (test_stats),
        cmocka_unit_test (test_iterations_first_apart),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
