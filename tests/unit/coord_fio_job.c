/*  tests/unit/coord_fio_job.c: fio job files made scenarios: what each
    key becomes, tests from stonewalls, the request counts of size-bound
    random jobs, and refusals at file:line. Every translation is then
    loaded and checked as a scenario, so that it is one.
*/
#include "../../coordinator/scenario/fio_job.h"
#include "../../coordinator/scenario/scenario.h"
#include "scratch.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  The scratch directory, made by the group setup.
static char s_dir [256];

//  Room for every error of a file.
static char s_errors [SCENARIO_ERRORS_MAX * 2048];

//  Write text into the scratch file name; returns its path (static).
static const char *
s_write (const char *name, const char *text)
{
    const char *path = scratch_write (s_dir, name, text);
    assert_non_null (path);
    return path;
}

//  Translate text, which must succeed; load the translation with an
//  agent fleet and check it, which must pass. Returns the translation.
static char *
s_translate (const char *text)
{
    char *scenario = fio_job_translate (s_write ("job.fio", text), "fleet", s_errors,
                                        sizeof s_errors);
    if (!scenario)
        fail_msg ("expected a translation, got: %s", s_errors);
    char *whole = NULL;
    assert_true (asprintf (&whole, "[agent fleet]\nendpoint = tcp://127.0.0.1:7654\n%s",
                           scenario) > 0);
    char err [4096];
    scenario_t *loaded = scenario_load (s_write ("job.ini", whole), err, sizeof err);
    free (whole);
    if (!loaded)
        fail_msg ("the translation does not load: %s\n%s", err, scenario);
    if (scenario_check (loaded, err, sizeof err))
        fail_msg ("the translation does not check: %s\n%s", err, scenario);
    scenario_destroy (&loaded);
    return scenario;
}

//  Assert that the translation holds line (a whole line).
static void
s_assert_holds (const char *scenario, const char *line)
{
    char wanted [256];
    snprintf (wanted, sizeof wanted, "\n%s\n", line);
    if (!strstr (scenario, wanted))
        fail_msg ("expected the line '%s' in:\n%s", line, scenario);
}

//  --------------------------------------------------------------------
//  Tests

//  [global] for the jobs after it, fio's names and values made ours,
//  comments, ${VAR} and bare flags.
static void
test_keys (void **state)
{
    (void) state;
    setenv ("IOFLEET_TEST_SIZE", "16m", 1);
    char *scenario = s_translate ("; comment\n"
                                  "[global]\n"
                                  "ioengine=psync\n"
                                  "bs=8k\n"
                                  "size=${IOFLEET_TEST_SIZE}\n"
                                  "# another\n"
                                  "[r1]\n"
                                  "rw=randread\n"
                                  "filename=data1\n"
                                  "numjobs=2\n"
                                  "rwmixread=70\n"             //  not a mix: left out
                                  "[m1]\n"
                                  "rw=randrw\n"
                                  "rwmixwrite=30\n"
                                  "[w1]\n"
                                  "rw=write\n"
                                  "directory=d\n"
                                  "end_fsync=1\n"
                                  "buffered=0\n");
    s_assert_holds (scenario, "[job r1]");
    s_assert_holds (scenario, "workload = randrw");
    s_assert_holds (scenario, "mode = rndrd");
    s_assert_holds (scenario, "engine = psync");
    s_assert_holds (scenario, "path = data1");
    s_assert_holds (scenario, "size = 16m");
    s_assert_holds (scenario, "streams = 2");
    s_assert_holds (scenario, "read_pct = 70");
    assert_true (strstr (scenario, "read_pct") > strstr (scenario, "[job m1]"));
    //  fio's size-bound random job: size / bs requests per stream.
    s_assert_holds (scenario, "requests = 4096");
    s_assert_holds (scenario, "[job w1]");
    s_assert_holds (scenario, "path = d/w1");
    s_assert_holds (scenario, "fsync = end");
    s_assert_holds (scenario, "direct = yes");
    free (scenario);
}

//  The jobs run at once until a stonewall; number_ios counts per stream
//  in fio, per job here; a runtime with time_based ends the job.
static void
test_tests_and_ends (void **state)
{
    (void) state;
    char *scenario = s_translate ("[a]\nrw=randwrite\nsize=1m\nnumjobs=3\nnumber_ios=100\n"
                                  "[b]\nrw=write\nsize=1m\n"
                                  "[c]\nstonewall\nrw=read\nsize=1m\nruntime=5\n"
                                  "time_based\nramp_time=1\n");
    const char *b = strstr (scenario, "[job b]");
    const char *c = strstr (scenario, "[job c]");
    assert_non_null (b);
    assert_non_null (c);
    assert_non_null (strstr (b, "test = a\n"));
    assert_non_null (strstr (c, "test = c\n"));
    s_assert_holds (scenario, "requests = 300");
    s_assert_holds (scenario, "fsync = none");
    s_assert_holds (scenario, "runtime = 5");
    s_assert_holds (scenario, "ramp = 1");
    free (scenario);
}

//  Anything else is refused at its line with what to use; every error
//  of the file in one go.
static void
test_refused (void **state)
{
    (void) state;
    const char *path = s_write ("bad.fio", "[j]\n"
                                           "rw=trim\n"
                                           "verify=md5\n"
                                           "stonewall=1\n"
                                           "time_based\n"
                                           "size=${IOFLEET_TEST_UNSET}\n"
                                           "include other.fio\n"
                                           "bs=4Q\n"
                                           "numjobs=0\n"
                                           "number_ios=many\n");
    unsetenv ("IOFLEET_TEST_UNSET");
    assert_null (fio_job_translate (path, "fleet", s_errors, sizeof s_errors));
    char want [1024];
    static const char *const parts [] = {
        ":3: verify: not supported in a fio job file here",
        ":6: size: ${IOFLEET_TEST_UNSET} is not set in the environment",
        ":7: include: ",
        ":8: bs: '4Q'",
        ":9: numjobs: ",
        ":10: number_ios: 'many'",
        ":2: rw: rw = trim is not supported here; use workload = read, write or randrw",
        ":5: time_based: needs a runtime",
        NULL
    };
    for (size_t i = 0; parts [i]; i++) {
        snprintf (want, sizeof want, "%s%s", path, parts [i]);
        if (!strstr (s_errors, want))
            fail_msg ("expected '%s' in:\n%s", want, s_errors);
    }
    assert_non_null (strstr (s_errors, "other.fio: cannot open: No such file"));
    assert_null (fio_job_translate (s_write ("empty.fio", "; nothing\n[global]\nbs=4k\n"),
                                    "fleet", s_errors, sizeof s_errors));
    assert_non_null (strstr (s_errors, "holds no job section"));
}

//  An include reads the file it names, relative to the including file,
//  as if its lines stood there; its errors are at its own lines.
static void
test_include (void **state)
{
    (void) state;
    s_write ("common.fio", "; shared\n[global]\nbs=8k\nsize=1m\n");
    char *scenario = s_translate ("include common.fio\n[r]\nrw=randread\n");
    s_assert_holds (scenario, "bs = 8k");
    s_assert_holds (scenario, "requests = 128");
    free (scenario);
    const char *common = s_write ("wrong.fio", "[global]\nverify=md5\n");
    char path [1024];
    snprintf (path, sizeof path, "%s", common);
    assert_null (fio_job_translate (s_write ("main.fio", "include wrong.fio\n[r]\nsize=1m\n"),
                                    "fleet", s_errors, sizeof s_errors));
    char want [1100];
    snprintf (want, sizeof want, "%s:2: verify: not supported", path);
    if (!strstr (s_errors, want))
        fail_msg ("expected '%s' in:\n%s", want, s_errors);
    //  A file that includes itself stops at the bound.
    assert_null (fio_job_translate (s_write ("loop.fio", "include loop.fio\n[r]\nsize=1m\n"),
                                    "fleet", s_errors, sizeof s_errors));
    assert_non_null (strstr (s_errors, "include: more than"));
}

//  Which files are fio job files.
static void
test_is_fio (void **state)
{
    (void) state;
    assert_true (fio_job_is_fio ("a.fio"));
    assert_true (fio_job_is_fio ("dir/seq.fio"));
    assert_false (fio_job_is_fio (".fio"));
    assert_false (fio_job_is_fio ("a.ini"));
    assert_false (fio_job_is_fio ("a.fio.ini"));
}

//  --------------------------------------------------------------------

static int
s_setup (void **state)
{
    (void) state;
    return scratch_make (s_dir, sizeof s_dir, "coord_fio_job");
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
        cmocka_unit_test (test_keys),
        cmocka_unit_test (test_tests_and_ends),
        cmocka_unit_test (test_refused),
        cmocka_unit_test (test_include),
        cmocka_unit_test (test_is_fio),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
