/*  tests/unit/coord_scenario_errors.c: a scenario file's errors all at
    once, in line order, bounded, without the ones that only follow from
    another.

    Every test writes its scenario into a scratch directory made for this
    program and removed at its end.
*/
#include "../../coordinator/scenario/scenario.h"
#include "scratch.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Room for every error a file reports.
#define ERRORS_MAX (SCENARIO_ERRORS_MAX * 2048)

//  The scratch directory, made by the group setup.
static char s_dir [256];

//  The path of the file the tests write.
static char s_path [512];

//  Write text as the scenario file and load it, which must fail; the
//  errors go into errors.
static void
s_load_fails (const char *text, char *errors, size_t errlen)
{
    FILE *file = fopen (s_path, "w");
    assert_non_null (file);
    assert_true (fputs (text, file) >= 0);
    assert_int_equal (fclose (file), 0);
    errors [0] = 0;
    scenario_t *scenario = scenario_load (s_path, errors, errlen);
    if (scenario) {
        scenario_destroy (&scenario);
        fail_msg ("expected errors; the file loaded");
    }
}

//  Assert that line n (from 0) of errors is "PATH:line: key: " and a
//  reason containing reason_part.
static void
s_assert_line (const char *errors, int n, int line, const char *key, const char *reason_part)
{
    const char *at = errors;
    for (int i = 0; i < n && at; i++) {
        at = strchr (at, '\n');
        at = at? at + 1: NULL;
    }
    if (!at)
        fail_msg ("expected an error line %d in '%s'", n, errors);
    size_t length = strcspn (at, "\n");
    char text [2048];
    snprintf (text, sizeof text, "%.*s", (int) length, at);
    char prefix [1024];
    snprintf (prefix, sizeof prefix, "%s:%d: %s: ", s_path, line, key);
    if (strncmp (text, prefix, strlen (prefix)) != 0)
        fail_msg ("error %d: expected '%s...', got '%s'", n, prefix, text);
    if (!strstr (text + strlen (prefix), reason_part))
        fail_msg ("error %d: expected '%s' in '%s'", n, reason_part, text);
}

//  The number of lines in errors.
static int
s_lines (const char *errors)
{
    int lines = *errors? 1: 0;
    for (const char *at = errors; (at = strchr (at, '\n')); at++)
        lines++;
    return lines;
}

//  --------------------------------------------------------------------
//  Tests

//  Five mistakes of different kinds, one found only after the last line
//  (a job without an agent): all five, in the order of their lines.
static void
test_five_mistakes (void **state)
{
    (void) state;
    static char errors [ERRORS_MAX];
    s_load_fails ("[global]\n"
                  "iteratons = 2\n"                     //  2
                  "[job zero]\n"                        //  3: no agent
                  "workload = read\n"
                  "[agent a]\n"
                  "endpoint = tcp://127.0.0.1:7654\n"
                  "[job one]\n"
                  "agent = a\n"
                  "szie = 1M\n"                         //  9
                  "[jbo two]\n"                         //  10
                  "agent = a\n"
                  "[job three]\n"
                  "agent = a\n"
                  "agent = a\n",                        //  14
                  errors, sizeof errors);
    assert_int_equal (s_lines (errors), 5);
    s_assert_line (errors, 0, 2, "iteratons", "unknown key");
    s_assert_line (errors, 1, 3, "agent", "[job zero] needs agent = NAME");
    s_assert_line (errors, 2, 9, "szie", "unknown key");
    s_assert_line (errors, 3, 10, "[jbo two]", "unknown section");
    s_assert_line (errors, 4, 14, "agent", "given twice (first at line 13)");
}

//  Past SCENARIO_ERRORS_MAX the errors are counted, not listed.
static void
test_bounded (void **state)
{
    (void) state;
    static char text [8192];
    static char errors [ERRORS_MAX];
    int used = snprintf (text, sizeof text, "[global]\n");
    int extra = 7;
    for (int i = 0; i < SCENARIO_ERRORS_MAX + extra; i++)
        used += snprintf (text + used, sizeof text - (size_t) used, "nokey%d = 1\n", i);
    s_load_fails (text, errors, sizeof errors);
    assert_int_equal (s_lines (errors), SCENARIO_ERRORS_MAX + 1);
    s_assert_line (errors, 0, 2, "nokey0", "unknown key");
    s_assert_line (errors, SCENARIO_ERRORS_MAX - 1, SCENARIO_ERRORS_MAX + 1, "nokey24",
                   "unknown key");
    char last [1024];
    snprintf (last, sizeof last, "\n%s: ... and %d more errors", s_path, extra);
    const char *tail = errors + strlen (errors) - strlen (last);
    assert_string_equal (tail, last);
}

//  The keys of a refused header are not read, and a job whose line was
//  refused is not told what it lacks (the refused line may be it).
static void
test_consequences_left_out (void **state)
{
    (void) state;
    static char errors [ERRORS_MAX];
    s_load_fails ("[agent a]\n"
                  "endpoint = tcp://127.0.0.1:7654\n"
                  "[jbo one]\n"                         //  3
                  "agent = a\n"
                  "szie = 1M\n"
                  "[job two]\n"
                  "agent = no/such\n"                   //  7: no "needs agent"
                  "[agent a]\n"                         //  8: twice
                  "endpoint = tcp://127.0.0.1:1\n",
                  errors, sizeof errors);
    assert_int_equal (s_lines (errors), 3);
    s_assert_line (errors, 0, 3, "[jbo one]", "unknown section");
    s_assert_line (errors, 1, 7, "agent", "");
    s_assert_line (errors, 2, 8, "[agent a]", "defined twice (first at line 1)");
}

//  A line the reader cannot split stops it there: its error comes last,
//  after those before it, and nothing after it is read.
static void
test_reader_stops (void **state)
{
    (void) state;
    static char errors [ERRORS_MAX];
    s_load_fails ("[global]\n"
                  "nokey = 1\n"
                  "no equals sign\n"
                  "other = 1\n",
                  errors, sizeof errors);
    assert_int_equal (s_lines (errors), 2);
    s_assert_line (errors, 0, 2, "nokey", "unknown key");
    assert_non_null (strstr (errors, ":3: "));
}

//  --------------------------------------------------------------------

static int
s_setup (void **state)
{
    (void) state;
    if (scratch_make (s_dir, sizeof s_dir, "coord_scenario_errors"))
        return -1;
    snprintf (s_path, sizeof s_path, "%s/bad.ini", s_dir);
    return 0;
}

static int
s_teardown (void **state)
{
    (void) state;
    return scratch_remove (s_dir);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_five_mistakes),
        cmocka_unit_test (test_bounded),
        cmocka_unit_test (test_consequences_left_out),
        cmocka_unit_test (test_reader_stops),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
