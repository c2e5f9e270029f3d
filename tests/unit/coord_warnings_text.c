/*  tests/unit/coord_warnings_text.c: the text report's warnings, grouped
    (text_warnings.c), and the warning of a test of requests that
    completed none (warnings.c).

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

//  A randrw whose streams completed no request, fsyncing all along: one
//  warning, with the reason. With one request done, none.
static void
test_no_requests (void **state)
{
    (void) state;
    stream_result_t streams [2];
    memset (streams, 0, sizeof streams);
    for (size_t s = 0; s < 2; s++) {
        snprintf (streams [s].agent, sizeof streams [s].agent, "a1");
        streams [s].finished = true;
        streams [s].fsyncs = 3;
    }
    test_result_t test;
    memset (&test, 0, sizeof test);
    test.streams = streams;
    test.stream_count = 2;
    test.rate_ops = test.rate_requests = true;
    test.summary.streams = 2;
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

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_grouped),
        cmocka_unit_test (test_no_requests),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
