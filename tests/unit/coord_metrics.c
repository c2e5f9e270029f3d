/*  tests/unit/coord_metrics.c: the live figures of --metrics, rendered:
    counters never go back (a stream's ramp-less final bytes below its
    samples included), a histogram's buckets are cumulative and end at
    its count, label values are escaped, and a scraper's Accept header
    picks the format. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../coordinator/metrics/metrics_collect.h"
#include "../../coordinator/metrics/metrics_render.h"
#include "../../coordinator/numbers/latency.h"
#include "../../proto/histogram.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000LL                //  ns

//  A run of one test: two hosts (one with a name to escape), three
//  streams, no samples yet.
static test_result_t *
s_make (run_result_t *run, const char *odd_host)
{
    memset (run, 0, sizeof (*run));
    run->tests = calloc (1, sizeof (test_result_t));
    assert_non_null (run->tests);
    run->test_count = run->test_capacity = 1;
    test_result_t *test = &run->tests [0];
    snprintf (test->name, sizeof test->name, "w\"1");
    snprintf (test->test, sizeof test->test, "w\"1");
    test->iteration = 1;
    test->announced_wall_ns = 1700000000000LL * MS;
    test->host_count = 2;
    test->hosts = calloc (2, sizeof (host_result_t));
    test->stream_count = 3;
    test->streams = calloc (3, sizeof (stream_result_t));
    assert_non_null (test->hosts);
    assert_non_null (test->streams);
    snprintf (test->hosts [0].agent, sizeof test->hosts [0].agent, "a1");
    snprintf (test->hosts [1].agent, sizeof test->hosts [1].agent, "%s", odd_host);
    for (int s = 0; s < 3; s++) {
        stream_result_t *stream = &test->streams [s];
        snprintf (stream->agent, sizeof stream->agent, "%s", s < 2? "a1": odd_host);
        stream->job_class = s == 2? CLASS_NETWORK: CLASS_DISK;
        stream->bs_bytes = 1 << 20;
    }
    return test;
}

//  The value of the series whose line starts with prefix (name and
//  labels up to the closing brace), or NAN if there is none.
static double
s_value (const char *text, const char *prefix)
{
    for (const char *line = text; line && *line; line = strchr (line, '\n')? strchr (line, '\n') + 1: NULL)
        if (strncmp (line, prefix, strlen (prefix)) == 0)
            return strtod (line + strlen (prefix), NULL);
    return NAN;
}

//  The rendering of a fresh snapshot of test in format, NUL-terminated.
static char *
s_scrape (metrics_collector_t *collector, const test_result_t *test, bool over,
          metrics_format_t format, int64_t *as_of_ms)
{
    metrics_snapshot_t *snap = metrics_collect (collector, test, over);
    assert_non_null (snap);
    if (as_of_ms)
        *as_of_ms = snap->as_of_ms;
    size_t size;
    char *text = metrics_render (snap, format, &size);
    assert_non_null (text);
    char *copy = malloc (size + 1);
    assert_non_null (copy);
    memcpy (copy, text, size);
    copy [size] = '\0';
    free (text);
    metrics_snapshot_free (snap);
    return copy;
}

#define FLEET_BYTES "iofleet_fleet_bytes_total{test=\"w\\\"1\",phase=\"\",iteration=\"1\"}"
#define FLEET_REQUESTS "iofleet_fleet_requests_total{test=\"w\\\"1\",phase=\"\",iteration=\"1\"}"

static void
test_counters_never_go_back (void **state)
{
    (void) state;
    run_result_t run;
    test_result_t *test = s_make (&run, "a2");
    metrics_collector_t *collector = metrics_collector_new ();
    assert_non_null (collector);
    double last_bytes = -1, last_requests = -1;
    int64_t last_ms = 0;
    for (int tick = 1; tick <= 12; tick++) {
        //  Every stream samples 10 MiB per 100 ms; stream 1 lags one
        //  sample behind; at tick 8 streams 0 and 2 finish, with final
        //  bytes below their samples (a ramp left out) and exact request
        //  counts below bytes / bs.
        for (int s = 0; s < 3; s++) {
            stream_result_t *stream = &test->streams [s];
            int n = s == 1? tick - 1: tick;
            if (stream->finished || n < 1)
                continue;
            assert_int_equal (stream_result_add_sample (stream, n * 100 * MS,
                                                        (uint64_t) n * 10 << 20), 0);
            if (tick == 8 && s != 1) {
                stream->finished = true;
                stream->start_ns = 0;
                stream->last_write_ns = n * 100 * MS + 5 * MS;
                stream->end_ns = stream->last_write_ns;
                stream->bytes = 50 << 20;
                stream->writes = 50;
            }
        }
        int64_t as_of_ms;
        char *text = s_scrape (collector, test, tick == 12, METRICS_PROMETHEUS, &as_of_ms);
        double bytes = s_value (text, FLEET_BYTES " ");
        double requests = s_value (text, FLEET_REQUESTS " ");
        assert_false (isnan (bytes));
        assert_true (bytes >= last_bytes);
        assert_true (requests >= last_requests);
        assert_true (as_of_ms >= last_ms);
        //  The counters are of the lagging stream's last sample instant,
        //  so every stream is counted at one instant: 3 x 10 MiB per tick
        //  behind the lag, while all three run.
        if (tick >= 2 && tick < 8) {
            assert_true (fabs (bytes - 3.0 * (tick - 1) * (10 << 20)) < 2);
            assert_true (as_of_ms == 1700000000000LL + (tick - 1) * 100);
        }
        last_bytes = bytes;
        last_requests = requests;
        last_ms = as_of_ms;
        free (text);
    }
    metrics_collector_destroy (&collector);
    assert_null (collector);
    run_result_clear (&run);
}

static void
test_histogram_buckets_are_cumulative (void **state)
{
    (void) state;
    run_result_t run;
    test_result_t *test = s_make (&run, "a2");
    histogram_t *h = histogram_new ();
    assert_non_null (h);
    //  Stream 0: 100 writes of 3 ms, stream 2: 10 reads of 150 us and one of 20 s.
    for (int i = 0; i < 100; i++)
        histogram_record (h, 3 * MS);
    assert_int_equal (latency_store (&test->streams [0].latency [MSG_LATENCY_WRITE], h), 0);
    histogram_init (h);
    for (int i = 0; i < 10; i++)
        histogram_record (h, 150000);
    histogram_record (h, 20000 * MS);
    assert_int_equal (latency_store (&test->streams [2].latency [MSG_LATENCY_READ], h), 0);
    histogram_destroy (&h);
    for (int s = 0; s < 3; s++) {
        test->streams [s].finished = true;
        test->streams [s].last_write_ns = test->streams [s].end_ns = 1000 * MS;
    }
    metrics_collector_t *collector = metrics_collector_new ();
    char *text = s_scrape (collector, test, true, METRICS_OPENMETRICS, NULL);
    //  Every scope's buckets, fleet first: never decreasing, and the
    //  +Inf bucket is the count.
    const char *scopes [] = {
        "iofleet_fleet_latency_seconds_bucket{test=\"w\\\"1\",phase=\"\",iteration=\"1\",le=\"",
        "iofleet_host_latency_seconds_bucket{test=\"w\\\"1\",phase=\"\",iteration=\"1\",host=\"a1\",le=\"",
        "iofleet_class_latency_seconds_bucket{test=\"w\\\"1\",phase=\"\",iteration=\"1\",class=\"network\",le=\""
    };
    const double counts [] = { 111, 100, 11 };
    for (size_t scope = 0; scope < 3; scope++) {
        double last = 0;
        for (size_t slot = 0; slot <= METRICS_BOUNDS; slot++) {
            char prefix [512];
            snprintf (prefix, sizeof prefix, "%s%s\"} ", scopes [scope],
                      slot < METRICS_BOUNDS? metrics_bounds [slot].le: "+Inf");
            double value = s_value (text, prefix);
            assert_false (isnan (value));
            assert_true (value >= last);
            last = value;
        }
        assert_true (last == counts [scope]);
    }
    //  3 ms is under 0.005, not under 0.002; 150 us under 0.0002; 20 s
    //  only under +Inf. The sum is exact.
    const char *fleet = scopes [0];
    char prefix [512];
    snprintf (prefix, sizeof prefix, "%s0.002\"} ", fleet);
    assert_true (s_value (text, prefix) == 10);
    snprintf (prefix, sizeof prefix, "%s0.005\"} ", fleet);
    assert_true (s_value (text, prefix) == 110);
    snprintf (prefix, sizeof prefix, "%s10\"} ", fleet);
    assert_true (s_value (text, prefix) == 110);
    double sum = s_value (text, "iofleet_fleet_latency_seconds_sum{test=\"w\\\"1\",phase=\"\",iteration=\"1\"} ");
    assert_true (fabs (sum - (0.3 + 0.0015 + 20)) < 1e-9);
    //  OpenMetrics: a counter family without _total, and the end marker.
    assert_non_null (strstr (text, "# TYPE iofleet_fleet_bytes counter\n"));
    assert_non_null (strstr (text, "# EOF\n"));
    free (text);
    metrics_collector_destroy (&collector);
    run_result_clear (&run);
}

static void
test_labels_are_escaped (void **state)
{
    (void) state;
    run_result_t run;
    test_result_t *test = s_make (&run, "b\\\"x\ny");
    metrics_collector_t *collector = metrics_collector_new ();
    char *text = s_scrape (collector, test, false, METRICS_PROMETHEUS, NULL);
    assert_non_null (strstr (text, "host=\"b\\\\\\\"x\\ny\"}"));
    assert_non_null (strstr (text, "test=\"w\\\"1\""));
    assert_non_null (strstr (text, "# TYPE iofleet_fleet_bytes_total counter\n"));
    assert_null (strstr (text, "# EOF"));
    //  No line is broken by a value: every line is a comment or a series.
    for (const char *line = text; *line; line = strchr (line, '\n') + 1)
        assert_true (line [0] == '#' || strncmp (line, "iofleet_", 8) == 0);
    free (text);
    metrics_collector_destroy (&collector);
    run_result_clear (&run);
}

static void
test_accept_picks_the_format (void **state)
{
    (void) state;
    //  What Prometheus 2.42 sends.
    assert_int_equal (metrics_format_for (
        "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
        "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"), METRICS_OPENMETRICS);
    assert_int_equal (metrics_format_for (NULL), METRICS_PROMETHEUS);
    assert_int_equal (metrics_format_for ("*/*"), METRICS_PROMETHEUS);
    assert_int_equal (metrics_format_for ("text/plain;version=0.0.4"), METRICS_PROMETHEUS);
    assert_int_equal (metrics_format_for ("application/openmetrics-text;q=0.2, text/plain"),
                      METRICS_PROMETHEUS);
    assert_int_equal (metrics_format_for ("application/openmetrics-text; version=1.0.0"),
                      METRICS_OPENMETRICS);
    assert_int_equal (metrics_format_for ("application/openmetrics-text;q=0"),
                      METRICS_PROMETHEUS);
    //  Nothing published yet: an empty exposition, valid in both.
    size_t size = 99;
    char *text = metrics_render (NULL, METRICS_OPENMETRICS, &size);
    assert_non_null (text);
    assert_int_equal (size, 6);
    assert_memory_equal (text, "# EOF\n", 6);
    free (text);
}

//  The cardinality the manual states is what a rendering has: every
//  figure known, two hosts.
static void
test_series_are_as_many_as_said (void **state)
{
    (void) state;
    metrics_snapshot_t *snap = calloc (1, sizeof (*snap));
    assert_non_null (snap);
    snap->hosts = calloc (2, sizeof (metrics_host_t));
    assert_non_null (snap->hosts);
    snap->host_count = 2;
    snprintf (snap->test, sizeof snap->test, "t");
    snprintf (snap->hosts [0].name, sizeof snap->hosts [0].name, "h1");
    snprintf (snap->hosts [1].name, sizeof snap->hosts [1].name, "h2");
    for (metrics_format_t format = METRICS_PROMETHEUS; format <= METRICS_OPENMETRICS; format++) {
        size_t size;
        char *text = metrics_render (snap, format, &size);
        assert_non_null (text);
        size_t series = 0;
        for (size_t i = 0; i < size; i++)
            if (text [i] == '\n' && i + 1 < size && text [i + 1] == 'i')
                series++;
        series += text [0] == 'i';
        assert_int_equal (series, 2 * METRICS_SERIES_PER_HOST + METRICS_SERIES_FIXED);
        free (text);
    }
    metrics_snapshot_free (snap);
}

//  Hosts by state: a lost stream makes its host lost, an error failed;
//  a host runs until every stream of it finished, then is done.
static void
test_hosts_by_state (void **state)
{
    (void) state;
    run_result_t run;
    test_result_t *test = s_make (&run, "a2");
    for (int s = 0; s < 3; s++)
        assert_int_equal (stream_result_add_sample (&test->streams [s], 100 * MS, 1 << 20), 0);
    metrics_collector_t *collector = metrics_collector_new ();
    metrics_snapshot_t *snap = metrics_collect (collector, test, false);
    assert_int_equal (snap->agents [METRICS_RUNNING], 2);
    metrics_snapshot_free (snap);
    test->streams [0].finished = true;          //  a1 still runs stream 1
    test->streams [2].lost = true;              //  a2 is lost
    snap = metrics_collect (collector, test, false);
    assert_int_equal (snap->agents [METRICS_RUNNING], 1);
    assert_int_equal (snap->agents [METRICS_LOST], 1);
    assert_int_equal (snap->hosts [1].state, METRICS_LOST);
    metrics_snapshot_free (snap);
    test->streams [1].finished = true;
    assert_int_equal (stream_result_set_error (&test->streams [1], "write: EIO"), 0);
    snap = metrics_collect (collector, test, true);
    assert_int_equal (snap->hosts [0].state, METRICS_FAILED);
    assert_int_equal (snap->agents [METRICS_DONE], 0);
    metrics_snapshot_free (snap);
    assert_int_equal (stream_result_set_error (&test->streams [1], NULL), 0);
    snap = metrics_collect (collector, test, true);
    assert_int_equal (snap->hosts [0].state, METRICS_DONE);
    metrics_snapshot_free (snap);
    //  Not started yet (no announced instant): nothing to publish.
    test->announced_wall_ns = 0;
    assert_null (metrics_collect (collector, test, false));
    metrics_collector_destroy (&collector);
    run_result_clear (&run);
}

//  Past METRICS_HOSTS_MAX hosts, the others count in the fleet only.
static void
test_hosts_are_bounded (void **state)
{
    (void) state;
    const size_t hosts = METRICS_HOSTS_MAX + 904;
    run_result_t run = { 0 };
    run.tests = calloc (1, sizeof (test_result_t));
    assert_non_null (run.tests);
    run.test_count = run.test_capacity = 1;
    test_result_t *test = &run.tests [0];
    snprintf (test->name, sizeof test->name, "big");
    snprintf (test->test, sizeof test->test, "big");
    test->iteration = 1;
    test->announced_wall_ns = 1700000000000LL * MS;
    test->host_count = test->stream_count = hosts;
    test->hosts = calloc (hosts, sizeof (host_result_t));
    test->streams = calloc (hosts, sizeof (stream_result_t));
    assert_non_null (test->hosts);
    assert_non_null (test->streams);
    for (size_t h = 0; h < hosts; h++) {
        snprintf (test->hosts [h].agent, sizeof test->hosts [h].agent, "c%05zu", h);
        snprintf (test->streams [h].agent, sizeof test->streams [h].agent, "c%05zu", h);
        test->streams [h].job_class = CLASS_DISK;
        test->streams [h].bs_bytes = 4096;
        for (int n = 1; n <= 20; n++)
            assert_int_equal (stream_result_add_sample (&test->streams [h], n * 100 * MS,
                                                        (uint64_t) n * 4096), 0);
    }
    metrics_collector_t *collector = metrics_collector_new ();
    metrics_snapshot_t *snap = metrics_collect (collector, test, false);
    assert_non_null (snap);
    assert_int_equal (snap->host_count, METRICS_HOSTS_MAX);
    assert_int_equal (snap->hosts_omitted, 904);
    assert_int_equal (snap->agents [METRICS_RUNNING], hosts);
    assert_true (snap->fleet.bytes == 20.0 * 4096 * (double) hosts);
    assert_true (snap->fleet.requests == 20.0 * (double) hosts);
    assert_true (fabs (snap->fleet.bytes_per_s - 40960.0 * (double) hosts) < 1e-3 * (double) hosts);
    assert_string_equal (snap->hosts [METRICS_HOSTS_MAX - 1].name, "c04095");
    size_t size;
    char *text = metrics_render (snap, METRICS_PROMETHEUS, &size);
    assert_non_null (text);
    assert_non_null (strstr (text, "host=\"c04095\""));
    assert_null (strstr (text, "host=\"c04096\""));
    assert_non_null (strstr (text, "iofleet_hosts_omitted{test=\"big\",phase=\"\",iteration=\"1\"} 904\n"));
    free (text);
    metrics_snapshot_free (snap);
    metrics_collector_destroy (&collector);
    run_result_clear (&run);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_counters_never_go_back),
        cmocka_unit_test (test_histogram_buckets_are_cumulative),
        cmocka_unit_test (test_labels_are_escaped),
        cmocka_unit_test (test_accept_picks_the_format),
        cmocka_unit_test (test_series_are_as_many_as_said),
        cmocka_unit_test (test_hosts_are_bounded),
        cmocka_unit_test (test_hosts_by_state),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
