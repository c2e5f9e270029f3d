/*  tests/unit/coord_latency_timeline.c: the fleet's latency per interval,
    merged from every host's INTERVAL, is the histogram of all the
    requests of the interval; the tail attribution names the slow host;
    both survive the results file.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../coordinator/results/results_file.h"
#include "../../coordinator/results/timeline_json.h"
#include "../../coordinator/numbers/aggregate.h"
#include "../../coordinator/numbers/latency.h"
#include "../../coordinator/numbers/latency_tail.h"
#include "../../coordinator/numbers/latency_timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S_HOSTS     4
#define S_INTERVALS 6
#define S_PER       300             //  requests per host, interval and kind

//  A spread of latencies; host 3 is slow in interval 4 only, a hundred
//  times: the fleet's spike, and the host that made it.
static int64_t
s_value (int host, int interval, int i)
{
    uint64_t x = (uint64_t) (i + 1 + 7 * host + 131 * interval) * 2654435761u % 100000;
    int64_t value_ns = (int64_t) x + 20000;
    return host == 3 && interval == 4? value_ns * 100: value_ns;
}

//  A test result of S_HOSTS hosts, one stream each, with the histograms
//  of every request of the test; and the builder fed with the same
//  requests interval by interval. expected[k] gets all of interval k.
static void
s_make (test_result_t *test, latency_timeline_builder_t *builder, histogram_t *expected)
{
    memset (test, 0, sizeof (*test));
    snprintf (test->name, sizeof test->name, "tl");
    test->iteration = 1;
    test->stream_count = test->host_count = S_HOSTS;
    test->streams = calloc (S_HOSTS, sizeof (stream_result_t));
    test->hosts = calloc (S_HOSTS, sizeof (host_result_t));
    assert_non_null (test->streams);
    assert_non_null (test->hosts);
    histogram_t *message = calloc (MSG_LATENCY_KINDS, sizeof (histogram_t));
    histogram_t *whole = calloc (MSG_LATENCY_KINDS, sizeof (histogram_t));
    assert_non_null (message);
    assert_non_null (whole);
    for (int h = 0; h < S_HOSTS; h++) {
        stream_result_t *stream = &test->streams [h];
        snprintf (test->hosts [h].agent, sizeof test->hosts [h].agent, "h%d", h);
        snprintf (stream->agent, sizeof stream->agent, "h%d", h);
        stream->job_class = CLASS_DISK;
        stream->finished = true;
        stream->start_ns = 1000;
        stream->end_ns = stream->last_write_ns = S_INTERVALS * 1000000000LL;
        stream->bytes = 1 << 20;
        for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
            histogram_init (&whole [kind]);
        for (int k = 0; k < S_INTERVALS; k++) {
            for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
                histogram_init (&message [kind]);
            for (int i = 0; i < S_PER; i++) {
                int64_t value_ns = s_value (h, k, i);
                histogram_record (&message [MSG_LATENCY_WRITE], value_ns);
                histogram_record (&message [MSG_LATENCY_READ], value_ns / 2);
                histogram_record (&expected [k], value_ns);
                histogram_record (&expected [k], value_ns / 2);
            }
            //  An fsync is no request: the timeline leaves it out.
            histogram_record (&message [MSG_LATENCY_FSYNC], 5000000000LL);
            char err [128];
            if (latency_timeline_builder_add (builder, (size_t) h, (uint32_t) k, 1000000000, message,
                                      err, sizeof err))
                fail_msg ("host %d interval %d: %s", h, k, err);
            for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
                assert_int_equal (histogram_merge (&whole [kind], &message [kind]), 0);
        }
        for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
            assert_int_equal (latency_store (&stream->latency [kind], &whole [kind]), 0);
    }
    free (message);
    free (whole);
}

static void
test_merge_is_the_histogram_of_all_requests (void **state)
{
    (void) state;
    latency_timeline_builder_t *builder = latency_timeline_builder_new (S_HOSTS);
    assert_non_null (builder);
    histogram_t *expected = calloc (S_INTERVALS, sizeof (histogram_t));
    assert_non_null (expected);
    static test_result_t test;
    s_make (&test, builder, expected);
    assert_int_equal (latency_timeline_builder_store (builder, &test), 0);
    aggregate_test (&test);

    const latency_timeline_t *timeline = &test.timeline;
    assert_int_equal (timeline->interval_ns, 1000000000);
    assert_int_equal (timeline->interval_count, S_INTERVALS);
    histogram_t *h = histogram_new ();
    histogram_t *all = histogram_new ();
    char err [256];
    for (int k = 0; k < S_INTERVALS; k++) {
        const timeline_interval_t *interval = &timeline->intervals [k];
        assert_int_equal (interval->index, k);
        assert_int_equal (latency_load (&interval->histogram, h, err, sizeof err), 0);
        assert_true (histogram_equal (h, &expected [k]));
        assert_int_equal (interval->latency.p99_ns, histogram_percentile (&expected [k], 99));
        assert_int_equal (interval->latency.count, 2 * S_HOSTS * S_PER);
        assert_int_equal (histogram_merge (all, h), 0);
    }
    //  The intervals add up to the test's requests, bucket for bucket.
    assert_int_equal (histogram_count (all), test.summary.latency [LATENCY_REQUESTS].count);
    assert_int_equal (histogram_percentile (all, 99), test.summary.latency [LATENCY_REQUESTS].p99_ns);
    //  The spike is in interval 4, and in host 3's points there only.
    for (int k = 0; k < S_INTERVALS; k++)
        if (k != 4)
            assert_true (timeline->intervals [4].latency.p999_ns
                         > 10 * timeline->intervals [k].latency.p999_ns);
    assert_int_equal (timeline->host_count, S_HOSTS);
    const timeline_host_t *slow = &timeline->hosts [3];
    assert_string_equal (slow->agent, "h3");
    assert_int_equal (slow->point_count, S_INTERVALS);
    assert_true (slow->points [4].p50_ns > 50 * slow->points [3].p50_ns);

    //  The tail: h3 first, named, with every request over p99.9.
    const latency_tail_t *tail = &test.tail;
    assert_int_equal (tail->host_count, S_HOSTS);
    assert_string_equal (tail->hosts [0].agent, "h3");
    assert_true (tail->hosts [0].cause);
    assert_int_equal (tail->hosts [0].over_p999, tail->over_p999);
    assert_true (tail->hosts [0].p99_share > 0.99);
    for (size_t t = 1; t < tail->host_count; t++)
        assert_false (tail->hosts [t].cause);
    histogram_destroy (&h);
    histogram_destroy (&all);
    free (expected);
    latency_timeline_builder_destroy (&builder);
    assert_null (builder);
    latency_timeline_clear (&test.timeline);
    latency_tail_clear (&test.tail);
    for (size_t s = 0; s < test.stream_count; s++)
        for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
            latency_free (&test.streams [s].latency [kind]);
    free (test.streams);
    free (test.hosts);
}

static void
test_bad_intervals_are_refused (void **state)
{
    (void) state;
    latency_timeline_builder_t *builder = latency_timeline_builder_new (2);
    histogram_t *latency = calloc (MSG_LATENCY_KINDS, sizeof (histogram_t));
    assert_non_null (latency);
    histogram_record (&latency [MSG_LATENCY_WRITE], 1000);
    char err [128];
    assert_int_equal (latency_timeline_builder_add (builder, 0, 3, 1000000, latency, err, sizeof err), 0);
    //  Again, before, another length, past the bound, a host not there.
    assert_int_equal (latency_timeline_builder_add (builder, 0, 3, 1000000, latency, err, sizeof err), -1);
    assert_non_null (strstr (err, "again"));
    assert_int_equal (latency_timeline_builder_add (builder, 0, 2, 1000000, latency, err, sizeof err), -1);
    assert_int_equal (latency_timeline_builder_add (builder, 1, 3, 2000000, latency, err, sizeof err), -1);
    assert_int_equal (latency_timeline_builder_add (builder, 1, 3, 0, latency, err, sizeof err), -1);
    assert_int_equal (latency_timeline_builder_add (builder, 1, UINT32_MAX, 1000000, latency,
                                            err, sizeof err), -1);
    assert_int_equal (latency_timeline_builder_add (builder, 2, 3, 1000000, latency, err, sizeof err), -1);
    assert_int_equal (latency_timeline_builder_add (builder, 1, 3, 1000000, latency, err, sizeof err), 0);
    static test_result_t test;
    test.host_count = 2;
    test.hosts = calloc (2, sizeof (host_result_t));
    assert_int_equal (latency_timeline_builder_store (builder, &test), 0);
    assert_int_equal (test.timeline.interval_count, 1);
    assert_int_equal (test.timeline.intervals [0].latency.count, 2);
    latency_timeline_clear (&test.timeline);
    free (test.hosts);
    free (latency);
    latency_timeline_builder_destroy (&builder);
}

//  Written to results.json and read back: the same intervals, the same
//  points for the hosts kept, the same tail.
static void
test_results_file_keeps_the_timeline (void **state)
{
    (void) state;
    latency_timeline_builder_t *builder = latency_timeline_builder_new (S_HOSTS);
    histogram_t *expected = calloc (S_INTERVALS, sizeof (histogram_t));
    run_result_t run;
    memset (&run, 0, sizeof run);
    run.tests = calloc (1, sizeof (test_result_t));
    run.test_count = run.test_capacity = 1;
    s_make (&run.tests [0], builder, expected);
    assert_int_equal (latency_timeline_builder_store (builder, &run.tests [0]), 0);
    aggregate_test (&run.tests [0]);

    char path [] = "/tmp/coord_latency_timeline.XXXXXX";
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
    assert_int_equal (b->timeline.interval_ns, a->timeline.interval_ns);
    assert_int_equal (b->timeline.interval_count, a->timeline.interval_count);
    histogram_t *ha = histogram_new (), *hb = histogram_new ();
    for (size_t k = 0; k < a->timeline.interval_count; k++) {
        assert_memory_equal (&a->timeline.intervals [k].latency, &b->timeline.intervals [k].latency,
                             sizeof (latency_summary_t));
        assert_int_equal (latency_load (&a->timeline.intervals [k].histogram, ha, err, sizeof err), 0);
        assert_int_equal (latency_load (&b->timeline.intervals [k].histogram, hb, err, sizeof err), 0);
        assert_true (histogram_equal (ha, hb));
    }
    //  The hosts kept: first in the tail, h3 first.
    assert_int_equal (b->timeline.host_count, TIMELINE_HOSTS_KEPT);
    assert_string_equal (b->timeline.hosts [0].agent, "h3");
    assert_int_equal (b->timeline.hosts [0].point_count, S_INTERVALS);
    for (size_t p = 0; p < S_INTERVALS; p++) {
        const timeline_point_t *x = &a->timeline.hosts [3].points [p];
        const timeline_point_t *y = &b->timeline.hosts [0].points [p];
        assert_int_equal (x->index, y->index);
        assert_int_equal (x->count, y->count);
        assert_int_equal (x->p50_ns, y->p50_ns);
        assert_int_equal (x->p99_ns, y->p99_ns);
        assert_int_equal (x->p999_ns, y->p999_ns);
    }
    assert_int_equal (b->tail.host_count, a->tail.host_count);
    assert_int_equal (b->tail.hosts_ranked, S_HOSTS);
    for (size_t t = 0; t < a->tail.host_count; t++) {
        const tail_host_t *x = &a->tail.hosts [t], *y = &b->tail.hosts [t];
        assert_string_equal (x->agent, y->agent);
        assert_int_equal (x->requests, y->requests);
        assert_int_equal (x->over_p99, y->over_p99);
        assert_int_equal (x->over_p999, y->over_p999);
        assert_int_equal (x->cause, y->cause);
    }
    histogram_destroy (&ha);
    histogram_destroy (&hb);
    free (expected);
    latency_timeline_builder_destroy (&builder);
    run_result_clear (&run);
    run_result_clear (&back);
}

//  A tail of more hosts than a results file lists: the file says how
//  many were ranked, so that a report rendered from it counts those not
//  listed; a file from before that count has the hosts it lists.
static void
test_tail_counts_every_host (void **state)
{
    (void) state;
    enum { HOSTS = TAIL_HOSTS_KEPT + 4 };
    latency_tail_t tail = { .p99_ns = 1000, .p999_ns = 2000, .requests = HOSTS,
                            .hosts_ranked = HOSTS, .host_count = HOSTS };
    tail.hosts = calloc (HOSTS, sizeof (tail_host_t));
    assert_non_null (tail.hosts);
    for (size_t h = 0; h < HOSTS; h++) {
        snprintf (tail.hosts [h].agent, sizeof tail.hosts [h].agent, "h%02zu", h);
        tail.hosts [h].requests = 1;
        tail.hosts [h].requests_share = 1.0 / HOSTS;
    }
    bool ok;
    json_t *object = json_object ();
    json_object_set_new (object, "latency_tail", timeline_tail_json (&tail, &ok));
    assert_true (ok);
    char err [256] = "";
    for (int old = 0; old < 2; old++) {
        if (old)
            json_object_del (json_object_get (object, "latency_tail"), "hosts_ranked");
        jsonread_t reader = { .file = "t.json", .err = err, .errlen = sizeof err };
        latency_tail_t back = { .requests = 0 };
        timeline_tail_read (&reader, object, &back);
        if (reader.failed)
            fail_msg ("%s", err);
        assert_int_equal (back.host_count, TAIL_HOSTS_KEPT);
        assert_int_equal (back.hosts_ranked, old? TAIL_HOSTS_KEPT: HOSTS);
        assert_string_equal (back.hosts [TAIL_HOSTS_KEPT - 1].agent, "h15");
        latency_tail_clear (&back);
    }
    json_decref (object);
    latency_tail_clear (&tail);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_merge_is_the_histogram_of_all_requests),
        cmocka_unit_test (test_bad_intervals_are_refused),
        cmocka_unit_test (test_results_file_keeps_the_timeline),
        cmocka_unit_test (test_tail_counts_every_host),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
