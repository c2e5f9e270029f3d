/*  tests/unit/coord_warnings_text.c: the text report's warnings, grouped
    (text_warnings.c), and the warnings of a test of requests that
    completed none or whose streams spent most of their windows outside
    their requests (warnings.c).

    A warning repeated per host and iteration is one line naming them,
    its first occurrence's text first; a warning alone keeps its line
    and its iteration; notices stand apart after the warnings.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../coordinator/numbers/warnings.h"
#include "../../coordinator/report/text.h"
#include "../../proto/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Add a warning to test by hand.
static void
s_warn (test_result_t *test, const char *kind, const char *agent, const char *text)
{
    warning_t *warning = &test->warnings [test->warning_count++];
    snprintf (warning->kind, sizeof warning->kind, "%s", kind);
    snprintf (warning->agent, sizeof warning->agent, "%s", agent);
    snprintf (warning->text, sizeof warning->text, "%s", text);
}

//  text_warnings of run, as a string (to free).
static char *
s_render (const run_result_t *run)
{
    char *text = NULL;
    size_t size = 0;
    FILE *memory = open_memstream (&text, &size);
    assert_non_null (memory);
    text_warnings (run, memory);
    assert_int_equal (fclose (memory), 0);
    return text;
}

static void
test_grouped (void **state)
{
    (void) state;
    test_result_t tests [4];
    memset (tests, 0, sizeof tests);
    for (uint32_t i = 0; i < 3; i++) {
        snprintf (tests [i].name, sizeof tests [i].name, "w");
        tests [i].iteration = i + 1;
        s_warn (&tests [i], "layout", "", "8.4 MB laid out at prepare");
        s_warn (&tests [i], "cache", "a1", "a1: 8.4 MB fits");
        if (i != 1)
            s_warn (&tests [i], "cache", "a2", "a2: 8.4 MB fits");
    }
    s_warn (&tests [1], "skew", "", "streams started 2 ms apart");
    snprintf (tests [3].name, sizeof tests [3].name, "r");
    tests [3].iteration = 1;
    s_warn (&tests [3], "cache", "a2", "a2: 4.2 MB fits");
    run_result_t run;
    memset (&run, 0, sizeof run);
    run.tests = tests;
    run.test_count = 4;
    char *text = s_render (&run);
    assert_string_equal (text,
        "\nwarnings\n"
        "  w: a1: 8.4 MB fits (5 cache warnings alike: on a1, a2, in iterations 1-3)\n"
        "  w #2: streams started 2 ms apart\n"
        "  r: a2: 4.2 MB fits\n"
        "\nnotices\n"
        "  w: 8.4 MB laid out at prepare (3 layout notices alike: in iterations 1-3)\n");
    free (text);

    //  Iterations 1 and 3 only: not a range.
    tests [1].warning_count = 0;
    tests [2].warning_count = 1;
    run.test_count = 3;
    text = s_render (&run);
    assert_non_null (strstr (text, "  w: 8.4 MB laid out at prepare (2 layout notices alike: "
                                   "in iterations 1, 3)\n"));
    assert_non_null (strstr (text, "  w: a1: 8.4 MB fits (2 cache warnings alike: on a1, a2)\n"));
    free (text);
}

//  A randrw test of two finished streams on a1, each of fsyncs fsyncs.
static void
s_randrw (test_result_t *test, stream_result_t streams [2], uint64_t fsyncs)
{
    memset (streams, 0, 2 * sizeof (stream_result_t));
    for (size_t s = 0; s < 2; s++) {
        snprintf (streams [s].agent, sizeof streams [s].agent, "a1");
        streams [s].finished = true;
        streams [s].fsyncs = fsyncs;
    }
    memset (test, 0, sizeof *test);
    test->streams = streams;
    test->stream_count = 2;
    test->rate_ops = test->rate_requests = true;
    test->summary.streams = 2;
}

//  A randrw whose streams completed no request, fsyncing all along: one
//  warning, with the reason. With one request done, none.
static void
test_no_requests (void **state)
{
    (void) state;
    stream_result_t streams [2];
    test_result_t test;
    s_randrw (&test, streams, 3);
    warnings_fill (&test, NULL);
    assert_int_equal (test.warning_count, 1);
    assert_string_equal (test.warnings [0].kind, "no-requests");
    assert_non_null (strstr (test.warnings [0].text, "(2 streams, 6 fsyncs)"));
    assert_non_null (strstr (test.warnings [0].text, "spent the window in their fsyncs"));
    assert_false (warnings_is_notice (&test.warnings [0]));
    streams [1].writes = 1;
    warnings_fill (&test, NULL);
    assert_int_equal (test.warning_count, 0);
    //  A test of bytes is another matter.
    streams [1].writes = 0;
    test.rate_ops = test.rate_requests = false;
    warnings_fill (&test, NULL);
    assert_int_equal (test.warning_count, 0);
}

//  A randrw of two streams of a second each, 100 ms of it in their
//  requests each: 10%, and their fsyncs 1.6 s of the 2 s, the reason.
//  Without the fsyncs the time went elsewhere and says so; in requests
//  most of the time, paced, or of an agent that did not say its busy
//  time: no warning. With several requests in flight the busy time
//  passes the window and counts as all of it.
static void
test_outside_requests (void **state)
{
    (void) state;
    stream_result_t streams [2];
    test_result_t test;
    s_randrw (&test, streams, 100);
    for (size_t s = 0; s < 2; s++) {
        streams [s].reads = 60;
        streams [s].writes = 40;
        streams [s].start_ns = 5 * NS_PER_MSEC;
        streams [s].end_ns = streams [s].start_ns + NS_PER_SEC;
        streams [s].busy_ns = 100 * NS_PER_MSEC;
    }
    test.summary.latency [LATENCY_FSYNC].count = 200;
    test.summary.latency [LATENCY_FSYNC].mean_ns = 8e6;
    warnings_fill (&test, NULL);
    assert_int_equal (test.warning_count, 1);
    assert_string_equal (test.warnings [0].kind, "outside");
    assert_string_equal (test.warnings [0].agent, "");
    assert_non_null (strstr (test.warnings [0].text, "its streams spent 10% of their windows in "
                                                     "their requests and 80% in their fsyncs "
                                                     "(2 streams)"));
    assert_false (warnings_is_notice (&test.warnings [0]));
    //  No fsyncs: the time went between the requests.
    test.summary.latency [LATENCY_FSYNC].count = 0;
    warnings_fill (&test, NULL);
    assert_int_equal (test.warning_count, 1);
    assert_non_null (strstr (test.warnings [0].text, "spent 10% of their windows in their "
                                                     "requests (2 streams; 0% in fsyncs): the "
                                                     "rest went between requests"));
    //  One stream paced: the other alone is judged.
    streams [0].paced = true;
    warnings_fill (&test, NULL);
    assert_int_equal (test.warning_count, 1);
    assert_non_null (strstr (test.warnings [0].text, "(1 streams;"));
    streams [0].paced = false;
    //  Half the time in requests or more: nothing to say.
    streams [0].busy_ns = streams [1].busy_ns = 500 * NS_PER_MSEC;
    warnings_fill (&test, NULL);
    assert_int_equal (test.warning_count, 0);
    //  32 in flight: 3 s of latency in a 1 s window is the whole window.
    streams [0].busy_ns = 3 * NS_PER_SEC;
    streams [1].busy_ns = 10 * NS_PER_MSEC;
    warnings_fill (&test, NULL);
    assert_int_equal (test.warning_count, 0);
    //  Busy time unknown (an agent of before it was sent): nothing.
    streams [0].busy_ns = streams [1].busy_ns = 0;
    warnings_fill (&test, NULL);
    assert_int_equal (test.warning_count, 0);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_grouped),
        cmocka_unit_test (test_no_requests),
        cmocka_unit_test (test_outside_requests),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
