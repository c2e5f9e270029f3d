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
    char *scenario = fio_job_translate (s_write ("job.fio", text), "fleet", NULL, s_errors,
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
    //  fio's buffers by default.
    s_assert_holds (scenario, "iomem = malloc");
    free (scenario);

    //  fio's buffers in huge pages, with or without their file; shm's
    //  pages of 4K; mem is iomem.
    static const struct { const char *fio; const char *ours; } buffers [] = {
        { "iomem=mmaphuge:/mnt/huge/buffers", "iomem = huge" },
        { "iomem=shmhuge", "iomem = huge" },
        { "mem=shm", "iomem = malloc" },
        { "mem=mmaphuge", "iomem = huge" },
    };
    for (size_t i = 0; i < sizeof buffers / sizeof buffers [0]; i++) {
        char text [256];
        snprintf (text, sizeof text, "[b]\nrw=read\nsize=1m\nioengine=io_uring\n%s\n",
                  buffers [i].fio);
        scenario = s_translate (text);
        s_assert_holds (scenario, buffers [i].ours);
        free (scenario);
    }
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
    //  fio's default: no flush at the end, of a random job either.
    assert_non_null (strstr (scenario, "fsync_end = no\n"));
    assert_true (strstr (scenario, "fsync_end = no\n") < b);
    //  fio runs its runtime after its ramp; here the ramp is within the runtime.
    s_assert_holds (scenario, "runtime = 6000ms");
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
                                           "number_ios=many\n"
                                           "iomem=cudamalloc\n");
    unsetenv ("IOFLEET_TEST_UNSET");
    assert_null (fio_job_translate (path, "fleet", NULL, s_errors, sizeof s_errors));
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
        ":11: iomem: iomem = cudamalloc is not supported here; use iomem = malloc or huge",
        NULL
    };
    for (size_t i = 0; parts [i]; i++) {
        snprintf (want, sizeof want, "%s%s", path, parts [i]);
        if (!strstr (s_errors, want))
            fail_msg ("expected '%s' in:\n%s", want, s_errors);
    }
    assert_non_null (strstr (s_errors, "other.fio: cannot open: No such file"));
    assert_null (fio_job_translate (s_write ("empty.fio", "; nothing\n[global]\nbs=4k\n"),
                                    "fleet", NULL, s_errors, sizeof s_errors));
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
                                    "fleet", NULL, s_errors, sizeof s_errors));
    char want [1100];
    snprintf (want, sizeof want, "%s:2: verify: not supported", path);
    if (!strstr (s_errors, want))
        fail_msg ("expected '%s' in:\n%s", want, s_errors);
    //  A file that includes itself stops at the bound.
    assert_null (fio_job_translate (s_write ("loop.fio", "include loop.fio\n[r]\nsize=1m\n"),
                                    "fleet", NULL, s_errors, sizeof s_errors));
    assert_non_null (strstr (s_errors, "include: more than"));
}

//  fio's values per direction: a job that reads takes the reads', one
//  that writes the writes'; a mixed job has one block size, and one cap
//  that keeps its mix within both of fio's.
static void
test_per_direction (void **state)
{
    (void) state;
    char *scenario = s_translate ("[global]\nsize=1m\nbs=4k,8k\nrate=1m,2m\n"
                                  "rate_iops=100,200\n"
                                  "[w]\nrw=write\n"
                                  "[r]\nrw=randread\n"
                                  "[m]\nrw=randrw\nrwmixread=70\nbs=16k,16k\n"
                                  "rate_iops=140,60\nrate=7m,3m\n");
    const char *w = strstr (scenario, "[job w]"), *r = strstr (scenario, "[job r]");
    const char *m = strstr (scenario, "[job m]");
    assert_non_null (w && r && m);
    assert_true (strstr (w, "\nbs = 8k\n") < r && strstr (w, "\nrate = 2m\n") < r);
    assert_true (strstr (w, "\nrate_iops = 200\n") < r);
    assert_true (strstr (r, "\nbs = 4k\n") < m && strstr (r, "\nrate = 1m\n") < m);
    assert_true (strstr (r, "\nrate_iops = 100\n") < m);
    //  fio's caps in the mix: 140 reads and 60 writes a second are 200 here.
    assert_non_null (strstr (m, "\nbs = 16k\n"));
    assert_non_null (strstr (m, "\nrate_iops = 200\n"));
    char want [256];
    snprintf (want, sizeof want, "\nrate = %d\n", 10 * 1048576);
    assert_non_null (strstr (m, want));
    free (scenario);
    //  fio's default mix is half and half: one cap for both is in it.
    scenario = s_translate ("[m]\nrw=randrw\nsize=1m\nrate_iops=100\n");
    s_assert_holds (scenario, "read_pct = 50");
    s_assert_holds (scenario, "rate_iops = 200");
    free (scenario);
    //  Caps out of the mix: fio would give up the mix, refused with caps that keep it.
    const char *out = s_write ("out.fio", "[m]\nrw=randrw\nrwmixread=70\nsize=1m\n"
                                          "rate_iops=100\n");
    assert_null (fio_job_translate (out, "fleet", NULL, s_errors, sizeof s_errors));
    snprintf (want, sizeof want, "%s:5: rate_iops: 100: fio paces a mixed job's reads and "
              "writes each to its own cap", out);
    if (!strstr (s_errors, want) || !strstr (s_errors, "(rate_iops=100,43)"))
        fail_msg ("expected '%s' and caps in the mix in:\n%s", want, s_errors);
    //  Caps rounded to whole numbers are in the mix within one, and the
    //  caps a refusal gives are taken, whatever the mix and the caps.
    static const char *const caps [] = { "100", ",40", "1", "7,1", "1,7", "5000,1", "1m" };
    for (int pct = 1; pct < 100; pct += 7)
        for (size_t c = 0; c < sizeof caps / sizeof caps [0]; c++) {
            const char *key = strchr (caps [c], 'm')? "rate": "rate_iops";
            char text [256];
            snprintf (text, sizeof text, "[m]\nrw=randrw\nrwmixread=%d\nsize=1m\n%s=%s\n",
                      pct, key, caps [c]);
            char *scenario_in_mix = fio_job_translate (s_write ("cap.fio", text), "fleet", NULL,
                                                       s_errors, sizeof s_errors);
            if (scenario_in_mix) {
                free (scenario_in_mix);
                continue;
            }
            char given [64];
            snprintf (given, sizeof given, "(%s=", key);
            const char *hint = strstr (s_errors, given);
            if (!hint)
                fail_msg ("no caps in the mix for %d%% reads, %s=%s:\n%s", pct, key, caps [c],
                          s_errors);
            snprintf (text, sizeof text, "[m]\nrw=randrw\nrwmixread=%d\nsize=1m\n%.*s\n",
                      pct, (int) strcspn (hint + 1, ")"), hint + 1);
            free (s_translate (text));
        }
    free (s_translate ("[m]\nrw=randrw\nrwmixread=60\nsize=1m\nrate_iops=100,66\n"));
    //  Two block sizes of one mixed job, and four values: refused at their lines.
    const char *path = s_write ("two.fio", "[m]\nrw=randrw\nsize=1m\nbs=4k,8k\n"
                                           "[n]\nrw=read\nsize=1m\nrate=1,2,3,4\n");
    assert_null (fio_job_translate (path, "fleet", NULL, s_errors, sizeof s_errors));
    snprintf (want, sizeof want, "%s:4: bs: 4k,8k: a mixed job here", path);
    if (!strstr (s_errors, want))
        fail_msg ("expected '%s' in:\n%s", want, s_errors);
    snprintf (want, sizeof want, "%s:8: rate: takes one value", path);
    if (!strstr (s_errors, want))
        fail_msg ("expected '%s' in:\n%s", want, s_errors);
    //  Files are never preallocated here: fallocate=none is taken, the rest refused.
    free (s_translate ("[f]\nrw=write\nsize=1m\nfallocate=none\n"));
    path = s_write ("falloc.fio", "[f]\nrw=write\nsize=1m\nfallocate=posix\n");
    assert_null (fio_job_translate (path, "fleet", NULL, s_errors, sizeof s_errors));
    snprintf (want, sizeof want, "%s:4: fallocate: posix: files are not preallocated", path);
    if (!strstr (s_errors, want))
        fail_msg ("expected '%s' in:\n%s", want, s_errors);
}

//  Load text, a scenario of agent_lines lines and then the translation of
//  fio, and check it; the errors, rewritten by the map, must hold want.
static void
s_assert_mapped (const char *fio, const char *agent, const char *agent_lines,
                 const char *want)
{
    const char *path = s_write ("mapped.fio", fio);
    fio_job_map_t *map = fio_job_map_new ();
    assert_non_null (map);
    char *scenario = fio_job_translate (path, agent, map, s_errors, sizeof s_errors);
    if (!scenario)
        fail_msg ("expected a translation, got: %s", s_errors);
    char *whole = NULL;
    assert_true (asprintf (&whole, "%s%s", agent_lines, scenario) > 0);
    int offset = 0;
    for (const char *at = agent_lines; *at; at++)
        offset += *at == '\n';
    free (scenario);
    scenario_t *loaded = scenario_load_text (path, whole, s_errors, sizeof s_errors);
    if (loaded && scenario_check (loaded, s_errors, sizeof s_errors) == 0)
        fail_msg ("expected an error of the checks");
    fio_job_map_errors (map, path, offset, s_errors, sizeof s_errors);
    char wanted [1024];
    snprintf (wanted, sizeof wanted, "%s%s", path, want);
    if (!strstr (s_errors, wanted))
        fail_msg ("expected '%s' in:\n%s", wanted, s_errors);
    scenario_destroy (&loaded);
    fio_job_map_destroy (&map);
}

//  An error of the checks after the translation is told at the fio
//  file's line and key, or at the job's header for what the translation
//  adds; one of the caller's own lines has no line.
static void
test_mapped_errors (void **state)
{
    (void) state;
    static const char agent [] = "[agent fleet]\nendpoint = tcp://127.0.0.1:7654\n";
    //  A block larger than the file: bs's line, in fio's name.
    s_assert_mapped ("; a comment\n[global]\nsize=2k\n\n[a]\nrw=randread\nblocksize=8k\n",
                     "fleet", agent, ":7: blocksize: a file of the set holds 2048 bytes");
    //  fio's default block size, larger than the file: the job's header.
    s_assert_mapped ("[global]\nsize=2k\n[a]\nrw=randread\n[b]\nrw=randwrite\nsize=1k\n",
                     "fleet", agent, ":5: bs: a file of the set holds 1024 bytes");
    //  An agent nobody names: the job's header, under our key.
    s_assert_mapped ("[global]\nsize=1m\n\n[a]\nrw=read\n", "nowhere", "",
                     ":4: agent: no [agent nowhere]");
    //  The caller's lines have none of the file's.
    s_assert_mapped ("[a]\nrw=read\nsize=1m\n", "fleet",
                     "[agent fleet]\nendpoint = udp://x\n", ": endpoint: ");
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
        cmocka_unit_test (test_per_direction),
        cmocka_unit_test (test_mapped_errors),
        cmocka_unit_test (test_is_fio),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
