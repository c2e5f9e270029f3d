/*  tests/unit/coord_pictures.c: the page's pictures chosen by the data
    (coordinator/report/barchart.c, timeline.c), on a run built by hand:

    - seq, three iterations of one stream of 100 MB/s, 10 intervals of
      100 ms and a last one of 20 ms that moves 10 MB (500 MB/s);
    - seeks, two iterations counted in operations;
    - short, one stream of two intervals;
    - idle, the null workload;
    - rr, a test of requests (randrw) of 4 KiB blocks, 1000 a second over
      six intervals of 100 ms.

    The bar chart has a bar for seq and short (MB/s) and one for seeks
    (requests/s, apart from rr's), none for idle; seq's timeline is scaled by its whole
    intervals and marks the 500 MB/s one as clipped; short has no chart.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../coordinator/numbers/aggregate.h"
#include "../../coordinator/report/report.h"
#include "../../proto/clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS (NS_PER_MSEC)
#define MB 1000000ULL

static test_result_t *
s_test (run_result_t *run, const char *name, const char *workload, uint32_t iteration)
{
    test_result_t *test = &run->tests [run->test_count++];
    memset (test, 0, sizeof (*test));
    snprintf (test->name, sizeof test->name, "%s", name);
    snprintf (test->test, sizeof test->test, "%s", name);
    snprintf (test->workload, sizeof test->workload, "%s", workload);
    snprintf (test->bound, sizeof test->bound, "size");
    test->iteration = iteration;
    test->streams = calloc (1, sizeof (stream_result_t));
    assert_non_null (test->streams);
    test->stream_count = 1;
    return test;
}

//  One finished stream on a1 whose samples are at the given times (ms),
//  each interval moving step bytes.
static void
s_stream (test_result_t *test, const int64_t *times_ms, size_t count, uint64_t step)
{
    stream_result_t *stream = &test->streams [0];
    snprintf (stream->agent, sizeof stream->agent, "a1");
    snprintf (stream->job, sizeof stream->job, "%s", test->name);
    assert_int_equal (stream_result_set_path (stream, "/x/f"), 0);
    stream->finished = true;
    stream->start_ns = 0;
    for (size_t k = 0; k < count; k++)
        assert_int_equal (stream_result_add_sample (stream, times_ms [k] * MS, (k + 1) * step), 0);
    stream->bytes = count * step;
    stream->last_write_ns = stream->end_ns = times_ms [count - 1] * MS;
    test->rate_ops = false;
}

static void
s_run (run_result_t *run)
{
    memset (run, 0, sizeof (*run));
    run->tests = calloc (8, sizeof (test_result_t));
    assert_non_null (run->tests);
    run->test_capacity = 8;
    const int64_t seq_ms [] = { 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1020 };
    for (uint32_t i = 1; i <= 3; i++)
        s_stream (s_test (run, "seq", "write", i), seq_ms, 11, 10 * MB);
    const int64_t short_ms [] = { 100, 150 };
    s_stream (s_test (run, "short", "write", 1), short_ms, 2, 5 * MB);
    for (uint32_t i = 1; i <= 2; i++) {
        test_result_t *seeks = s_test (run, "seeks", "bonnie", i);
        s_stream (seeks, short_ms, 2, 8192);
        seeks->streams [0].reads = 1000 * i;
        seeks->rate_ops = true;
    }
    const int64_t idle_ms [] = { 1, 2 };
    s_stream (s_test (run, "idle", "null", 1), idle_ms, 2, 400 * MB);
    const int64_t rr_ms [] = { 100, 200, 300, 400, 500, 600 };
    test_result_t *rr = s_test (run, "rr", "randrw", 1);
    s_stream (rr, rr_ms, 6, 100 * 4096);
    rr->rate_ops = rr->rate_requests = true;
    rr->streams [0].bs_bytes = 4096;
    rr->streams [0].reads = 600;
    for (size_t t = 0; t < run->test_count; t++)
        aggregate_test (&run->tests [t]);
}

static char *
s_page (const run_result_t *run)
{
    char *page = NULL;
    size_t size = 0;
    FILE *out = open_memstream (&page, &size);
    assert_non_null (out);
    assert_int_equal (html_report (run, out), 0);
    fclose (out);
    return page;
}

static size_t
s_count (const char *text, const char *needle)
{
    size_t count = 0;
    for (const char *at = strstr (text, needle); at; at = strstr (at + 1, needle))
        count++;
    return count;
}

//  The double of attribute name in the first element at or after from.
static double
s_attribute (const char *from, const char *name)
{
    char key [64];
    snprintf (key, sizeof key, " %s=\"", name);
    const char *at = strstr (from, key);
    assert_non_null (at);
    return strtod (at + strlen (key), NULL);
}

static void
test_bar_chart (void **state)
{
    (void) state;
    run_result_t run;
    s_run (&run);
    char *page = s_page (&run);
    //  Three charts: MB/s (seq, short), requests/s of seeks (seeks) and
    //  requests/s of reads and writes (rr); idle has no bar.
    assert_int_equal (s_count (page, "<svg class=\"bars\""), 3);
    assert_non_null (strstr (page, "<svg class=\"bars\" xmlns=\"http://www.w3.org/2000/svg\" "
                                   "viewBox=\"0 0 960 76\" role=\"img\" data-units=\"requests/s\""));
    assert_non_null (strstr (page, ">requests/s of seeks (a read each), the median"));
    assert_non_null (strstr (page, ">requests/s of reads and writes, the median"));
    assert_int_equal (s_count (page, "<g class=\"bar-row\""), 4);
    assert_null (strstr (page, "<g class=\"bar-row\" data-test=\"idle\""));
    const char *seq = strstr (page, "<g class=\"bar-row\" data-test=\"seq\"");
    assert_non_null (seq);
    //  Three dots, the first hollow; the bar at the median of the three.
    const char *end = strstr (seq, "</g>");
    size_t dots = 0;
    for (const char *at = strstr (seq, "<circle"); at && at < end; at = strstr (at + 1, "<circle"))
        dots++;
    assert_int_equal (dots, 3);
    assert_true (strstr (seq, "class=\"iteration first\"") < end);
    double median = s_attribute (seq, "data-value");
    assert_true (fabs (median - run.tests [1].summary.combined_mbps) < 1e-3);
    const char *seeks = strstr (page, "<g class=\"bar-row\" data-test=\"seeks\"");
    assert_non_null (seeks);
    double least = s_attribute (seeks, "data-least"), most = s_attribute (seeks, "data-most");
    assert_true (least < most);
    assert_true (fabs (most / least - 2) < 1e-6);
    free (page);
    run_result_clear (&run);
}

static void
test_timelines_chosen_by_the_data (void **state)
{
    (void) state;
    run_result_t run;
    s_run (&run);
    char *page = s_page (&run);
    //  Only seq and rr have enough intervals for a chart of their own.
    assert_int_equal (s_count (page, "<svg class=\"timeline\""), 2);
    const char *seq = strstr (page, "<svg class=\"timeline\"");
    assert_non_null (strstr (seq, "data-test=\"seq\""));
    //  The axis is set by the whole intervals (100 MB/s), not the last 20 ms.
    double origin = s_attribute (seq, "data-y-origin-px");
    double per_mbps = s_attribute (seq, "data-px-per-mbps");
    double top_mbps = (origin - 14) / per_mbps;     //  CHART_TOP
    assert_true (top_mbps >= 100 && top_mbps < 200);
    //  The 500 MB/s interval is marked, once per iteration.
    assert_int_equal (s_count (page, "class=\"clipped\""), 3);
    double clipped = s_attribute (strstr (page, "class=\"clipped\""), "data-rate-mbps");
    assert_true (fabs (clipped - 500) < 1e-6);
    //  rr is drawn in requests/s: its 1000 a second under an axis of
    //  1000 to 2000, each point a rate of 1000.
    const char *rr = strstr (page, "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" "
                                   "viewBox=\"0 0 960 340\" role=\"img\" data-test=\"rr\"");
    assert_non_null (rr);
    assert_non_null (strstr (rr, "data-units=\"requests/s\" data-bytes-per-request=\"4096\""));
    double rr_origin = s_attribute (rr, "data-y-origin-px");
    double rr_per_mbps = s_attribute (rr, "data-px-per-mbps");
    double top_per_s = (rr_origin - 14) / rr_per_mbps * 1e6 / 4096;
    assert_true (top_per_s >= 1000 && top_per_s < 2000);
    assert_non_null (strstr (rr, ">requests/s per interval</text>"));
    const char *points = strstr (strstr (rr, "data-kind=\"stream\""), "points=\"");
    assert_non_null (points);
    double y = strtod (strchr (points + 8, ',') + 1, NULL);
    assert_true (fabs ((rr_origin - y) / rr_per_mbps * 1e6 / 4096 - 1000) < 10);
    free (page);
    run_result_clear (&run);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_bar_chart),
        cmocka_unit_test (test_timelines_chosen_by_the_data),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
