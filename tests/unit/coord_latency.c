/*  tests/unit/coord_latency.c: latency merged across streams and hosts
    is the latency of all their requests together, and survives the
    results file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../coordinator/results/results_file.h"
#include "../../coordinator/numbers/aggregate.h"
#include "../../coordinator/numbers/latency.h"
#include "../../coordinator/report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//  A deterministic spread of latencies: stream s's value i.
static int64_t
s_value (int stream, int i)
{
    //  Stream 2 is the slow host's: ten times slower, so that the fleet's
    //  p99 is its, and an average of per-stream p99s would be far off.
    uint64_t x = (uint64_t) (i + 1) * 2654435761u % 100000;
    return (int64_t) (x + 1000) * (stream == 2? 10: 1);
}

//  A test of three streams (a1: two, a2: one), each with `per_stream`
//  write latencies and reads on stream 0 only.
static void
s_make_test (test_result_t *test, int per_stream)
{
    memset (test, 0, sizeof (*test));
    snprintf (test->name, sizeof test->name, "rr");
    test->iteration = 1;
    test->stream_count = 3;
    test->streams = calloc (3, sizeof (stream_result_t));
    test->host_count = 2;
    test->hosts = calloc (2, sizeof (host_result_t));
    assert_non_null (test->streams);
    assert_non_null (test->hosts);
    snprintf (test->hosts [0].agent, sizeof test->hosts [0].agent, "a1");
    snprintf (test->hosts [1].agent, sizeof test->hosts [1].agent, "a2");
    histogram_t *h = histogram_new ();
    for (int s = 0; s < 3; s++) {
        stream_result_t *stream = &test->streams [s];
        snprintf (stream->agent, sizeof stream->agent, "%s", s < 2? "a1": "a2");
        stream->job_class = CLASS_DISK;
        stream->finished = true;
        stream->start_ns = 1000;
        stream->end_ns = 2000000000 + s;
        stream->last_write_ns = stream->end_ns;
        stream->bytes = 1 << 20;
        histogram_init (h);
        for (int i = 0; i < per_stream; i++)
            histogram_record (h, s_value (s, i));
        assert_int_equal (latency_store (&stream->latency [MSG_LATENCY_WRITE], h), 0);
        if (s == 0) {
            histogram_init (h);
            for (int i = 0; i < per_stream / 2; i++)
                histogram_record (h, 5 * s_value (s, i));
            assert_int_equal (latency_store (&stream->latency [MSG_LATENCY_READ], h), 0);
        }
    }
    histogram_destroy (&h);
}

//  The exact value of rank ceil (p% of n) of sorted values.
static int
s_compare (const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return (x > y) - (x < y);
}

static int64_t
s_exact_percentile (int64_t *values, size_t n, double p)
{
    qsort (values, n, sizeof (values [0]), s_compare);
    size_t rank = (size_t) ceil (p / 100 * (double) n - 1e-9);
    return values [rank? rank - 1: 0];
}

//  Within the histogram's bound of the exact value.
static void
s_assert_close (int64_t have, int64_t exact)
{
    if (llabs (have - exact) > exact / 128 + 1)
        fail_msg ("%lld is not within 1/128 of %lld", (long long) have, (long long) exact);
}

static void
test_fleet_percentiles_are_of_all_requests (void **state)
{
    (void) state;
    enum { N = 4000 };
    static test_result_t test;
    s_make_test (&test, N);
    aggregate_test (&test);
    const test_summary_t *summary = &test.summary;

    //  Writes: all 3 x N values together.
    static int64_t all [3 * N];
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < N; i++)
            all [s * N + i] = s_value (s, i);
    assert_int_equal (summary->latency [LATENCY_WRITE].count, 3 * N);
    s_assert_close (summary->latency [LATENCY_WRITE].p50_ns, s_exact_percentile (all, 3 * N, 50));
    s_assert_close (summary->latency [LATENCY_WRITE].p99_ns, s_exact_percentile (all, 3 * N, 99));
    s_assert_close (summary->latency [LATENCY_WRITE].p999_ns,
                    s_exact_percentile (all, 3 * N, 99.9));
    assert_int_equal (summary->latency [LATENCY_WRITE].max_ns, all [3 * N - 1]);
    assert_int_equal (summary->latency [LATENCY_WRITE].min_ns, all [0]);

    //  Requests: the writes and stream 0's reads together.
    static int64_t requests [3 * N + N / 2];
    memcpy (requests, all, sizeof (all));
    for (int i = 0; i < N / 2; i++)
        requests [3 * N + i] = 5 * s_value (0, i);
    size_t count = 3 * N + N / 2;
    assert_int_equal (summary->latency [LATENCY_REQUESTS].count, count);
    s_assert_close (summary->latency [LATENCY_REQUESTS].p99_ns,
                    s_exact_percentile (requests, count, 99));
    assert_true (fabs (summary->latency_p99_ns - (double) summary->latency [LATENCY_REQUESTS].p99_ns)
                 < 1);
    assert_int_equal (summary->latency [LATENCY_FSYNC].count, 0);

    //  Host a2 alone: its one stream.
    static int64_t slow [N];
    for (int i = 0; i < N; i++)
        slow [i] = s_value (2, i);
    assert_int_equal (test.hosts [1].latency.count, N);
    s_assert_close (test.hosts [1].latency.p99_ns, s_exact_percentile (slow, N, 99));
    assert_int_equal (test.hosts [0].latency.count, 2 * N + N / 2);
    assert_int_equal (summary->disk.latency.count, count);
    assert_int_equal (summary->network.latency.count, 0);

    //  Streams ended 2 ns apart.
    assert_int_equal (summary->end_skew_ns, 2);

    for (size_t s = 0; s < test.stream_count; s++)
        for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
            latency_free (&test.streams [s].latency [kind]);
    free (test.streams);
    free (test.hosts);
}

//  Written to results.json and read back: the same figures, and every
//  stream's histograms bucket for bucket.
static void
test_results_file_keeps_latency (void **state)
{
    (void) state;
    run_result_t run;
    memset (&run, 0, sizeof (run));
    run.tests = calloc (1, sizeof (test_result_t));
    run.test_count = run.test_capacity = 1;
    s_make_test (&run.tests [0], 500);
    snprintf (run.tests [0].bound, sizeof run.tests [0].bound, "requests");
    aggregate_test (&run.tests [0]);

    char path [] = "/tmp/coord_latency.XXXXXX";
    int fd = mkstemp (path);
    assert_true (fd >= 0);
    FILE *file = fdopen (fd, "w");
    assert_int_equal (results_json_write (&run, file), 0);
    fclose (file);

    run_result_t back;
    memset (&back, 0, sizeof back);
    char err [512] = "";
    if (results_read_no_samples (path, &back, err, sizeof err))
        fail_msg ("read back: %s", err);
    unlink (path);
    const test_result_t *a = &run.tests [0], *b = &back.tests [0];
    assert_memory_equal (&a->summary.latency, &b->summary.latency, sizeof (a->summary.latency));
    assert_memory_equal (&a->hosts [1].latency, &b->hosts [1].latency, sizeof (latency_summary_t));
    assert_memory_equal (&a->summary.disk.latency, &b->summary.disk.latency,
                         sizeof (latency_summary_t));
    assert_int_equal (b->summary.end_skew_ns, a->summary.end_skew_ns);
    assert_string_equal (b->bound, "requests");
    histogram_t *ha = histogram_new (), *hb = histogram_new ();
    for (size_t s = 0; s < a->stream_count; s++)
        for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++) {
            assert_int_equal (latency_load (&a->streams [s].latency [kind], ha, err, sizeof err), 0);
            assert_int_equal (latency_load (&b->streams [s].latency [kind], hb, err, sizeof err), 0);
            assert_true (histogram_equal (ha, hb));
        }
    histogram_destroy (&ha);
    histogram_destroy (&hb);
    run_result_clear (&run);
    run_result_clear (&back);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_fleet_percentiles_are_of_all_requests),
        cmocka_unit_test (test_results_file_keeps_latency),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
