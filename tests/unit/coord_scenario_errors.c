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
    assert_non_null (scratch_write (s_dir, "bad.ini", text));
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

//  One error a test expects.
typedef struct {
    int line;                   //  its line
    const char *key;            //  its key
    const char *reason;         //  a part of its reason
} s_expected_t;

//  Assert that errors are exactly count lines, those of expected.
static void
s_assert_errors (const char *errors, const s_expected_t *expected, size_t count)
{
    if (s_lines (errors) != (int) count)
        fail_msg ("expected %zu errors, got '%s'", count, errors);
    for (size_t i = 0; i < count; i++)
        s_assert_line (errors, (int) i, expected [i].line, expected [i].key,
                       expected [i].reason);
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
    static const s_expected_t expected [] = {
        { 2, "iteratons", "unknown key" },
        { 3, "agent", "[job zero] needs agent = NAME" },
        { 9, "szie", "unknown key" },
        { 10, "[jbo two]", "unknown section" },
        { 14, "agent", "given twice (first at line 13)" }
    };
    s_assert_errors (errors, expected, sizeof expected / sizeof expected [0]);
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
    static const s_expected_t expected [] = {
        { 3, "[jbo one]", "unknown section" },
        { 7, "agent", "" },
        { 8, "[agent a]", "defined twice (first at line 1)" }
    };
    s_assert_errors (errors, expected, sizeof expected / sizeof expected [0]);
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

//  A mistyped key, value or section kind gets the nearest known one;
//  a word near nothing gets no suggestion.
static void
test_did_you_mean (void **state)
{
    (void) state;
    static char errors [ERRORS_MAX];
    s_load_fails ("[global]\n"
                  "iteratons = 2\n"                     //  2: a run option
                  "[agent a]\n"
                  "endpont = tcp://127.0.0.1:7654\n"    //  4: the agent's key
                  "[job one]\n"
                  "agent = a\n"
                  "szie = 1M\n"                         //  7
                  "workload = wirte\n"                  //  8: a value
                  "colour = blue\n"                     //  9: near nothing
                  "[jbo two]\n"                         //  10: a section kind
                  "[xyz three]\n",                      //  11: near nothing
                  errors, sizeof errors);
    static const s_expected_t expected [] = {
        { 2, "iteratons", "unknown key: did you mean iterations?" },
        { 4, "endpont", "unknown key: did you mean endpoint?" },
        { 7, "szie", "unknown key: did you mean size?" },
        { 8, "workload", ": did you mean write?" },
        { 9, "colour", "unknown key" },
        { 10, "[jbo two]", "unknown section: did you mean [job two]?" },
        { 11, "[xyz three]", "unknown section: use [global]" }
    };
    s_assert_errors (errors, expected, sizeof expected / sizeof expected [0]);
    s_assert_line (errors, 3, 8, "workload", "'wirte' is not one of ");
    assert_null (strstr (errors, "colour: unknown key: did"));
}

//  The checks after the file is read report every error too, and the
//  error of a job on a group once, not once per member.
static void
test_check_all (void **state)
{
    (void) state;
    static char errors [ERRORS_MAX];
    assert_non_null (scratch_write (s_dir, "bad.ini",
                                    "[agent a]\n"
                                    "endpoint = tcp://127.0.0.1:7654\n"
                                    "[agent b]\n"                      //  3: no endpoint
                                    "[group g]\n"
                                    "agents = c[1-3]\n"
                                    "endpoint = tcp://127.0.0.1:{n+7000}\n"
                                    "[job one]\n"                      //  7: no path
                                    "agent = a\n"
                                    "workload = write\n"
                                    "[job two]\n"
                                    "agent = nobody\n"                 //  11
                                    "path = x\n"
                                    "size = 1M\n"
                                    "[job three]\n"
                                    "agent = g\n"
                                    "path = y\n"
                                    "size = 1M\n"
                                    "src = z\n"));                     //  18, three members
    char err [4096];
    scenario_t *scenario = scenario_load (s_path, err, sizeof err);
    if (!scenario)
        fail_msg ("expected the file to load, got: %s", err);
    assert_int_equal (scenario_check (scenario, errors, sizeof errors), -1);
    scenario_destroy (&scenario);
    static const s_expected_t expected [] = {
        { 3, "endpoint", "[agent b] has no endpoint" },
        { 7, "path", "the write workload needs a path" },
        { 11, "agent", "no [agent nobody] or [group nobody] section" },
        { 18, "src", "the write workload does not use src" }
    };
    s_assert_errors (errors, expected, sizeof expected / sizeof expected [0]);
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
        cmocka_unit_test (test_did_you_mean),
        cmocka_unit_test (test_check_all),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
