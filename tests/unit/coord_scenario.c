/*  tests/unit/coord_scenario.c: the scenario parser and its checks.

    Every test writes its scenario into a scratch directory made for this
    run, loads it, and compares what comes back: the structs for a good
    file, the exact "file:line: key:" of the message for a bad one.
*/
#include "../../coordinator/scenario/scenario.h"
#include "../../proto/clock.h"
#include "../../proto/workload.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

//  Big enough for any message the parser writes.
#define ERR_MAX 1024

//  The scratch directory, made by the group setup.
static char s_dir [256];

//  --------------------------------------------------------------------
//  Helpers

//  Write text into a file called name in the scratch directory and return
//  its path (a static buffer, valid until the next call).
static const char *
s_write (const char *name, const char *text)
{
    static char path [512];
    snprintf (path, sizeof (path), "%s/%s", s_dir, name);
    FILE *file = fopen (path, "w");
    assert_non_null (file);
    assert_int_equal (fputs (text, file) >= 0, 1);
    assert_int_equal (fclose (file), 0);
    return path;
}

//  Load text as a scenario that must parse, and return it.
static scenario_t *
s_load_ok (const char *text)
{
    char err [ERR_MAX] = "";
    scenario_t *scenario = scenario_load (s_write ("ok.ini", text), err, sizeof (err));
    if (!scenario)
        fail_msg ("expected a scenario, got: %s", err);
    return scenario;
}

//  Assert that err is "<path>:<line>: <key>: ..." and that the reason
//  contains reason_part.
static void
s_assert_message (const char *err, const char *path, int line, const char *key,
                  const char *reason_part)
{
    char prefix [ERR_MAX];
    if (line > 0)
        snprintf (prefix, sizeof (prefix), "%s:%d: %s: ", path, line, key);
    else
        snprintf (prefix, sizeof (prefix), "%s: ", path);
    if (strncmp (err, prefix, strlen (prefix)) != 0)
        fail_msg ("expected a message starting '%s', got '%s'", prefix, err);
    if (!strstr (err + strlen (prefix), reason_part))
        fail_msg ("expected '%s' in the reason, got '%s'", reason_part, err);
}

//  Load text, which must fail at line with key, the reason containing
//  reason_part.
static void
s_expect_load_error (const char *text, int line, const char *key, const char *reason_part)
{
    char err [ERR_MAX] = "";
    const char *path = s_write ("bad.ini", text);
    scenario_t *scenario = scenario_load (path, err, sizeof (err));
    if (scenario) {
        scenario_destroy (&scenario);
        fail_msg ("expected an error at line %d, key %s; the file loaded", line, key);
    }
    s_assert_message (err, path, line, key, reason_part);
}

//  Load text, which must parse, then check it, which must fail at line
//  with key.
static void
s_expect_check_error (const char *text, int line, const char *key, const char *reason_part)
{
    char err [ERR_MAX] = "";
    const char *path = s_write ("check.ini", text);
    scenario_t *scenario = scenario_load (path, err, sizeof (err));
    if (!scenario)
        fail_msg ("expected the file to load, got: %s", err);
    int rc = scenario_check (scenario, err, sizeof (err));
    scenario_destroy (&scenario);
    if (rc == 0)
        fail_msg ("expected a check error at line %d, key %s; the check passed", line, key);
    s_assert_message (err, path, line, key, reason_part);
}

//  Load and check text; both must pass.
static void
s_expect_check_ok (const char *text)
{
    char err [ERR_MAX] = "";
    scenario_t *scenario = s_load_ok (text);
    int rc = scenario_check (scenario, err, sizeof (err));
    scenario_destroy (&scenario);
    if (rc != 0)
        fail_msg ("expected the check to pass, got: %s", err);
}

//  An agent section and the start of a job on it, for tests about jobs.
#define AGENT_A "[agent a]\nendpoint = tcp://127.0.0.1:7654\n"

//  --------------------------------------------------------------------
//  A good scenario

static const char *s_full_scenario =
    "; a scenario with everything in it\n"                  //  1
    "# comments of both kinds\n"                            //  2
    "[job dd1]            ; the header may carry a comment\n" // 3
    "agent = client\n"                                      //  4
    "workload = write\n"                                    //  5
    "path = /data/iofleet/dd1\n"                            //  6
    "size = 5.2G                    ; per stream\n"         //  7
    "\n"                                                    //  8
    "[global]\n"                                            //  9
    "iterations = 3\n"                                      //  10
    "bs = 64K\n"                                            //  11
    "fsync = close\n"                                       //  12
    "lead = 250ms\n"                                        //  13
    "interval = 500ms\n"                                    //  14
    "\n"                                                    //  15
    "[agent client]\n"                                      //  16
    "endpoint = tcp://192.0.2.10:7654\n"                    //  17
    "[agent nfs1]\n"                                        //  18
    "endpoint: ipc://@iofleet-nfs1\n"                       //  19
    "\n"                                                    //  20
    "[job mix3-disk]\n"                                     //  21
    "  test = mix3\n"                                       //  22
    "  agent = client\n"                                    //  23
    "  path = /data/iofleet/mix3\n"                         //  24
    "  size = 1G\n"                                         //  25
    "  bs = 4K                      ; overrides [global]\n" //  26
    "  direct = yes\n"                                      //  27
    "\n"                                                    //  28
    "[job dd3]\n"                                           //  29
    "agent = client\n"                                      //  30
    "path = /data/iofleet/dd3\n"                            //  31
    "size = 100M\n"                                         //  32
    "streams = 3\n"                                         //  33
    "fsync = none\n"                                        //  34
    "\n"                                                    //  35
    "[job mix3-watch]\n"                                    //  36
    "test = mix3\n"                                         //  37
    "agent = nfs1\n"                                        //  38
    "workload = null\n"                                     //  39
    "size = 1M\n";                                          //  40

static void
test_full_scenario (void **state)
{
    (void) state;
    scenario_t *scenario = s_load_ok (s_full_scenario);
    char err [ERR_MAX] = "";
    if (scenario_check (scenario, err, sizeof (err)))
        fail_msg ("check: %s", err);

    //  Run options: given ones, defaults for the rest.
    assert_int_equal (scenario->options.iterations, 3);
    assert_int_equal (scenario->options.lead_ns, 250 * NS_PER_MSEC);
    assert_int_equal (scenario->options.lease_ns, 5 * NS_PER_SEC);
    assert_int_equal (scenario->options.on_lost, ON_LOST_CONTINUE);
    assert_int_equal (scenario->options.connect_timeout_ns, 5 * NS_PER_SEC);
    assert_int_equal (scenario->options.clock_pings, 9);

    //  Agents in file order.
    assert_int_equal (scenario->agent_count, 2);
    assert_string_equal (scenario->agents [0].name, "client");
    assert_string_equal (scenario->agents [0].endpoint, "tcp://192.0.2.10:7654");
    assert_int_equal (scenario->agents [0].line, 16);
    assert_string_equal (scenario->agents [1].name, "nfs1");
    assert_string_equal (scenario->agents [1].endpoint, "ipc://@iofleet-nfs1");
    assert_int_equal (scenario->agents [1].line, 18);
    assert_ptr_equal (scenario_agent (scenario, "nfs1"), &scenario->agents [1]);
    assert_null (scenario_agent (scenario, "nfs2"));

    //  Jobs in file order.
    assert_int_equal (scenario->job_count, 4);
    jobspec_t dd1, disk, dd3, watch;
    scenario_job_spec (&scenario->jobs [0], &dd1);
    scenario_job_spec (&scenario->jobs [1], &disk);
    scenario_job_spec (&scenario->jobs [2], &dd3);
    scenario_job_spec (&scenario->jobs [3], &watch);

    //  dd1 comes before [global] and still gets its defaults. 5.2G is
    //  5.2 * 2^30 = 5583457484.8 bytes, rounded to the nearest byte.
    assert_string_equal (dd1.name, "dd1");
    assert_string_equal (dd1.test, "dd1");
    assert_string_equal (dd1.agent, "client");
    assert_int_equal (scenario->jobs [0].template->line, 3);
    assert_int_equal (scenario_key_line (scenario->jobs [0].template, "agent"), 4);
    assert_int_equal (dd1.workload, WORKLOAD_WRITE);
    assert_string_equal (dd1.path, "/data/iofleet/dd1");
    assert_int_equal (dd1.size_bytes, (52ULL * 1073741824ULL + 5) / 10);
    assert_int_equal (dd1.size_bytes, 5583457485ULL);
    assert_int_equal (dd1.bs_bytes, 64 * 1024);
    assert_int_equal (dd1.fsync_mode, FSYNC_CLOSE);
    assert_int_equal (dd1.interval_ns, 500 * NS_PER_MSEC);
    assert_int_equal (dd1.streams, 1);
    assert_false (dd1.direct);
    assert_int_equal (dd1.pattern, PATTERN_ZERO);
    assert_false (dd1.keep);

    //  The job's own bs wins over [global]; indented keys are keys.
    assert_string_equal (disk.name, "mix3-disk");
    assert_string_equal (disk.test, "mix3");
    assert_int_equal (scenario->jobs [1].template->line, 21);
    assert_int_equal (scenario_key_line (scenario->jobs [1].template, "agent"), 23);
    assert_int_equal (disk.size_bytes, 1ULL << 30);
    assert_int_equal (disk.bs_bytes, 4096);
    assert_true (disk.direct);
    assert_int_equal (disk.fsync_mode, FSYNC_CLOSE);

    assert_string_equal (dd3.test, "dd3");
    assert_int_equal (dd3.streams, 3);
    assert_int_equal (dd3.fsync_mode, FSYNC_NONE);
    assert_int_equal (dd3.bs_bytes, 64 * 1024);
    assert_int_equal (dd3.size_bytes, 100ULL << 20);

    assert_string_equal (watch.agent, "nfs1");
    assert_int_equal (watch.workload, WORKLOAD_NULL);
    assert_int_equal (scenario_key_line (scenario->jobs [3].template, "agent"), 38);

    //  Tests in order of their first job: dd1, mix3, dd3.
    assert_int_equal (scenario->test_count, 3);
    assert_string_equal (scenario->tests [0].name, "dd1");
    assert_int_equal (scenario->tests [0].job_count, 1);
    assert_int_equal (scenario->tests [0].jobs [0], 0);
    assert_string_equal (scenario->tests [1].name, "mix3");
    assert_int_equal (scenario->tests [1].job_count, 2);
    assert_int_equal (scenario->tests [1].jobs [0], 1);
    assert_int_equal (scenario->tests [1].jobs [1], 3);
    assert_string_equal (scenario->tests [2].name, "dd3");
    assert_int_equal (scenario->tests [2].job_count, 1);
    assert_int_equal (scenario->tests [2].jobs [0], 2);

    scenario_destroy (&scenario);
    assert_null (scenario);
    scenario_destroy (&scenario);           //  safe on NULL
}

//  Defaults alone: a job that says only where to write and how much.
static void
test_defaults (void **state)
{
    (void) state;
    scenario_t *scenario = s_load_ok (AGENT_A "[job j]\nagent = a\npath = f\nsize = 1M\n");
    const jobspec_t *spec = &scenario->jobs [0].template->spec;
    jobspec_t defaults;
    jobspec_defaults (&defaults);
    assert_int_equal (spec->workload, defaults.workload);
    assert_int_equal (spec->bs_bytes, defaults.bs_bytes);
    assert_int_equal (spec->streams, defaults.streams);
    assert_int_equal (spec->fsync_mode, defaults.fsync_mode);
    assert_int_equal (spec->interval_ns, defaults.interval_ns);
    assert_int_equal (scenario->options.iterations, 1);
    assert_int_equal (scenario->options.lead_ns, 100 * NS_PER_MSEC);
    assert_int_equal (scenario_key_line (scenario->jobs [0].template, "agent"), 4);
    scenario_destroy (&scenario);
}

//  A UTF-8 byte order mark, CRLF line ends and a '#' comment line.
static void
test_bom_and_crlf (void **state)
{
    (void) state;
    scenario_t *scenario = s_load_ok ("\xEF\xBB\xBF[agent a]\r\nendpoint = tcp://h:1\r\n"
                                      "# note\r\n[job j]\r\nagent = a\r\nsize = 2K\r\n");
    assert_string_equal (scenario->agents [0].endpoint, "tcp://h:1");
    assert_int_equal (scenario->jobs [0].template->line, 4);
    assert_int_equal (scenario->jobs [0].template->spec.size_bytes, 2048);
    scenario_destroy (&scenario);
}

//  --------------------------------------------------------------------
//  Sections

static void
test_unknown_section (void **state)
{
    (void) state;
    s_expect_load_error (AGENT_A "[jobs x]\n", 3, "[jobs x]", "unknown section");
    s_expect_load_error ("[Global]\n", 1, "[Global]", "unknown section");
}

static void
test_job_without_name (void **state)
{
    (void) state;
    s_expect_load_error ("\n\n[job ]\nsize = 1M\n", 3, "[job ]", "a job needs a name");
    s_expect_load_error ("[job]\n", 1, "[job]", "a job needs a name");
    s_expect_load_error ("[agent]\n", 1, "[agent]", "an agent needs a name");
    s_expect_load_error ("[global x]\n", 1, "[global x]", "takes no name");
}

static void
test_bad_name (void **state)
{
    (void) state;
    s_expect_load_error ("[global]\n[job a/b]\n", 2, "[job a/b]", "'a/b' is not a valid name");
    s_expect_load_error ("[agent two words]\n", 1, "[agent two words]", "not a valid name");
    char text [256];
    char name [JOB_NAME_MAX + 2];
    memset (name, 'n', sizeof (name) - 1);
    name [sizeof (name) - 1] = 0;
    snprintf (text, sizeof (text), "[job %s]\n", name);
    char header [128];
    snprintf (header, sizeof (header), "[job %s]", name);
    s_expect_load_error (text, 1, header, "the name is 64 characters long, longer than 63");

    //  63 characters is fine, and every allowed character.
    name [JOB_NAME_MAX] = 0;
    snprintf (text, sizeof (text), "[job %s]\nagent = a\n[job A-z_0.9]\nagent = a\n", name);
    scenario_t *scenario = s_load_ok (text);
    assert_string_equal (scenario->jobs [0].name, name);
    assert_string_equal (scenario->jobs [1].name, "A-z_0.9");
    scenario_destroy (&scenario);
}

static void
test_bad_header_syntax (void **state)
{
    (void) state;
    s_expect_load_error ("[job a\n", 1, "[job a", "closing ']'");
    s_expect_load_error ("[job a] size = 1M\n", 1, "[job a]", "only a comment");
}

static void
test_duplicate_section (void **state)
{
    (void) state;
    s_expect_load_error (AGENT_A "[job a]\nagent = a\n[job b]\nagent = a\n[job a]\n",
                         7, "[job a]", "defined twice (first at line 3)");
    s_expect_load_error (AGENT_A "[agent a]\n", 3, "[agent a]", "defined twice (first at line 1)");
    //  A job and an agent may share a name, and [global] may come twice.
    scenario_t *scenario = s_load_ok (AGENT_A "[global]\nbs = 4K\n[job a]\nagent = a\n"
                                      "[global]\nstreams = 2\n");
    assert_int_equal (scenario->jobs [0].template->spec.bs_bytes, 4096);
    assert_int_equal (scenario->jobs [0].template->spec.streams, 2);
    scenario_destroy (&scenario);
}

//  --------------------------------------------------------------------
//  Keys

static void
test_duplicate_key (void **state)
{
    (void) state;
    s_expect_load_error (AGENT_A "[job a]\nagent = a\nbs = 4K\nsize = 1M\nbs = 8K\n",
                         7, "bs", "given twice (first at line 5)");
    s_expect_load_error ("[agent a]\nendpoint = tcp://h:1\nendpoint = tcp://h:2\n",
                         3, "endpoint", "given twice (first at line 2)");
    //  Across two [global] sections, for run options and job defaults.
    s_expect_load_error ("[global]\niterations = 2\n[global]\niterations = 3\n",
                         4, "iterations", "given twice (first at line 2)");
    s_expect_load_error ("[global]\nbs = 4K\n[global]\nbs = 4K\n",
                         4, "bs", "given twice (first at line 2)");
    //  The same key in different jobs is no repeat.
    s_expect_check_ok (AGENT_A "[job a]\nagent = a\nsize = 1M\npath = x\n"
                       "[job b]\nagent = a\nsize = 1M\npath = y\n");
}

static void
test_unknown_key (void **state)
{
    (void) state;
    s_expect_load_error ("[global]\ncolour = blue\n", 2, "colour", "unknown key");
    s_expect_load_error ("[agent a]\nendpoint = tcp://h:1\nport = 7654\n", 3, "port", "unknown key");
    //  One of fio's keys is told what it is here.
    s_expect_load_error (AGENT_A "[job a]\nagent = a\nblocksize = 4K\n", 5, "blocksize",
                         "blocksize is fio's; here: bs = 4K");
    //  Keys are case-sensitive.
    s_expect_load_error (AGENT_A "[job a]\nBS = 4K\n", 4, "BS", "unknown key");
}

//  A known key in a section where it does not belong.
static void
test_misplaced_key (void **state)
{
    (void) state;
    s_expect_load_error ("[global]\npath = /x\n", 2, "path", "set it in each [job NAME]");
    s_expect_load_error ("[global]\nagent = a\n", 2, "agent", "set it in each [job NAME]");
    s_expect_load_error (AGENT_A "[job a]\niterations = 2\n", 4, "iterations",
                         "it belongs in [global]");
    s_expect_load_error ("[global]\nendpoint = tcp://h:1\n", 2, "endpoint",
                         "[agent NAME] or [group NAME] section");
    s_expect_load_error ("[agent a]\nbs = 4K\n", 2, "bs", "takes only endpoint");
    s_expect_load_error (AGENT_A "[job a]\nname = b\n", 4, "name", "section header");
}

static void
test_key_before_section (void **state)
{
    (void) state;
    s_expect_load_error ("; iofleet\n\nbs = 1M\n[global]\n", 3, "bs", "before any section");
}

static void
test_bad_line (void **state)
{
    (void) state;
    s_expect_load_error ("[global]\nbs 1M\n", 2, "bs 1M", "expected KEY = VALUE");
    //  An inline comment hides the '=' behind it.
    s_expect_load_error ("[global]\nbs ; = 1M\n", 2, "bs ; = 1M", "expected KEY = VALUE");
    s_expect_load_error ("[global]\n= 1M\n", 2, "= 1M", "a key is missing");
    //  A line of 1000 characters (inih's default buffer holds 199) is one
    //  line, its value whole, and the line numbers after it stay right.
    char text [1200];
    char path [1000];
    memset (path, 'p', sizeof (path) - 1);
    path [sizeof (path) - 1] = 0;
    snprintf (text, sizeof (text), AGENT_A "[job a]\nagent = a\npath = /%s\nsize = 1M\n", path);
    scenario_t *scenario = s_load_ok (text);
    assert_int_equal (strlen (scenario->jobs [0].template->spec.path), sizeof (path));
    assert_string_equal (scenario->jobs [0].template->spec.path + 1, path);
    assert_int_equal (scenario->jobs [0].template->spec.size_bytes, 1 << 20);
    scenario_destroy (&scenario);
    snprintf (text, sizeof (text), AGENT_A "[job a]\npath = /%s\nbs = x\n", path);
    s_expect_load_error (text, 5, "bs", "");
}

//  Indentation does not continue a value: inih's multi-line values are
//  off, so an indented line is a key of its own or an error.
static void
test_no_multiline_values (void **state)
{
    (void) state;
    scenario_t *scenario = s_load_ok (AGENT_A "[job a]\nagent = a\npath = /x\n    size = 1M\n");
    assert_string_equal (scenario->jobs [0].template->spec.path, "/x");
    assert_int_equal (scenario->jobs [0].template->spec.size_bytes, 1 << 20);
    scenario_destroy (&scenario);
    s_expect_load_error (AGENT_A "[job a]\npath = /x\n    /y\n", 5, "/y", "expected KEY = VALUE");
}

//  Inline comments need a blank before the ';'; '#' after a value is
//  part of the value.
static void
test_inline_comments (void **state)
{
    (void) state;
    scenario_t *scenario = s_load_ok (AGENT_A "[job a]\nagent = a ; the only one\n"
                                      "path = /x;y\n");
    assert_string_equal (scenario->jobs [0].agent, "a");
    assert_string_equal (scenario->jobs [0].template->spec.path, "/x;y");
    scenario_destroy (&scenario);
    s_expect_load_error (AGENT_A "[job a]\nsize = 1M # per stream\n", 4, "size", "is not a size");
}

//  --------------------------------------------------------------------
//  Values

static void
test_bad_size (void **state)
{
    (void) state;
    s_expect_load_error (AGENT_A "[job a]\nsize = 12Q\n", 4, "size", "'12Q' is not a size");
    s_expect_load_error (AGENT_A "[job a]\nagent = a\nbs = 0\n", 5, "bs",
                         "'0' is below the minimum 512");
    s_expect_load_error ("[global]\nbs = 1T\n", 2, "bs", "above the maximum");
    s_expect_load_error (AGENT_A "[job a]\nsize =\n", 4, "size", "empty value");
}

static void
test_bad_bool (void **state)
{
    (void) state;
    s_expect_load_error (AGENT_A "[job a]\ndirect = maybe\n", 4, "direct",
                         "'maybe' is not yes or no");
    s_expect_load_error ("[global]\nkeep = 2\n", 2, "keep", "is not yes or no");
}

static void
test_bad_enum (void **state)
{
    (void) state;
    s_expect_load_error (AGENT_A "[job a]\nfsync = sometimes\n", 4, "fsync",
                         "'sometimes' is not one of none, end, close");
    s_expect_load_error (AGENT_A "[job a]\nworkload = dd\n", 4, "workload", "is not one of");
}

static void
test_bad_duration (void **state)
{
    (void) state;
    s_expect_load_error (AGENT_A "[job a]\ninterval = 5x\n", 4, "interval", "is not a duration");
    s_expect_load_error ("[global]\nlead = 0ms\n", 2, "lead", "below the minimum 1ms");
    s_expect_load_error ("[global]\nlease = 2h\n", 2, "lease", "above the maximum");
    s_expect_load_error ("[global]\nconnect_timeout = 10ms\n", 2, "connect_timeout",
                         "below the minimum 100ms");
}

static void
test_count_bounds (void **state)
{
    (void) state;
    s_expect_load_error ("[global]\niterations = 0\n", 2, "iterations", "below the minimum 1");
    s_expect_load_error ("[global]\nclock_pings = 1001\n", 2, "clock_pings",
                         "above the maximum 1000");
    s_expect_load_error ("[global]\niterations = 2.5\n", 2, "iterations", "not a whole number");
    s_expect_load_error (AGENT_A "[job a]\nstreams = 1025\n", 4, "streams", "above the maximum 1024");
    //  The bounds themselves are fine.
    scenario_t *scenario = s_load_ok ("[global]\niterations = 1000\nclock_pings = 1\n"
                                      "lead = 60s\nlease = 1s\nconnect_timeout = 5m\n");
    assert_int_equal (scenario->options.iterations, 1000);
    assert_int_equal (scenario->options.clock_pings, 1);
    assert_int_equal (scenario->options.lead_ns, 60 * NS_PER_SEC);
    assert_int_equal (scenario->options.lease_ns, NS_PER_SEC);
    assert_int_equal (scenario->options.connect_timeout_ns, 300 * NS_PER_SEC);
    scenario_destroy (&scenario);
}

static void
test_bad_test_or_agent_name (void **state)
{
    (void) state;
    s_expect_load_error (AGENT_A "[job a]\ntest = two words\n", 4, "test", "not a valid name");
    s_expect_load_error (AGENT_A "[job a]\nagent = a:b\n", 4, "agent", "not a valid name");
}

//  --------------------------------------------------------------------
//  Agents

static void
test_missing_agent (void **state)
{
    (void) state;
    s_expect_load_error (AGENT_A "[job a]\npath = /x\nsize = 1M\n[job b]\nagent = a\n",
                         3, "agent", "[job a] needs agent = NAME");
}

static void
test_bad_endpoint (void **state)
{
    (void) state;
    s_expect_load_error ("[agent a]\nendpoint = http://h:1\n", 2, "endpoint", "not an endpoint");
    s_expect_load_error ("[agent a]\nendpoint = tcp://\n", 2, "endpoint", "needs a host and a port");
    s_expect_load_error ("[agent a]\nendpoint = tcp://h\n", 2, "endpoint", "needs a host and a port");
    s_expect_load_error ("[agent a]\nendpoint = tcp://h:99999\n", 2, "endpoint", "the port");
    s_expect_load_error ("[agent a]\nendpoint = ipc://\n", 2, "endpoint", "needs a path");
    s_expect_load_error ("[agent a]\nendpoint =\n", 2, "endpoint", "may not be empty");
    scenario_t *scenario = s_load_ok ("[agent a]\nendpoint = tcp://[::1]:7654\n");
    assert_string_equal (scenario->agents [0].endpoint, "tcp://[::1]:7654");
    scenario_destroy (&scenario);
}

//  An [agent] without endpoint loads (--agent may give it) but does not
//  pass the check.
static void
test_agent_without_endpoint (void **state)
{
    (void) state;
    const char *text = "[agent a]\n[agent b]\nendpoint = tcp://h:1\n"
                       "[job j]\nagent = a\npath = /x\nsize = 1M\n";
    s_expect_check_error (text, 1, "endpoint", "[agent a] has no endpoint");

    char err [ERR_MAX] = "";
    scenario_t *scenario = s_load_ok (text);
    assert_int_equal (scenario_set_agent (scenario, "a=tcp://192.0.2.1:7654", err, sizeof (err)), 0);
    if (scenario_check (scenario, err, sizeof (err)))
        fail_msg ("check after --agent: %s", err);
    scenario_destroy (&scenario);
}

static void
test_unknown_agent (void **state)
{
    (void) state;
    s_expect_check_error (AGENT_A "[job j]\npath = /x\nsize = 1M\n\nagent = nfs2\n",
                          7, "agent", "no [agent nfs2] or [group nfs2] section, "
                          "and no --agent nfs2=ENDPOINT");
}

static void
test_set_agent (void **state)
{
    (void) state;
    char err [ERR_MAX] = "";
    scenario_t *scenario = s_load_ok (AGENT_A "[job j]\nagent = b\npath = /x\nsize = 1M\n");
    assert_int_equal (scenario_check (scenario, err, sizeof (err)), -1);

    //  Replaces: same agent, new endpoint, the section's line kept.
    assert_int_equal (scenario_set_agent (scenario, "a=ipc://@a", err, sizeof (err)), 0);
    assert_int_equal (scenario->agent_count, 1);
    assert_string_equal (scenario->agents [0].endpoint, "ipc://@a");
    assert_int_equal (scenario->agents [0].line, 1);

    //  Adds: a new agent at line 0, and then the job's agent exists.
    assert_int_equal (scenario_set_agent (scenario, "b=tcp://192.0.2.2:7654", err, sizeof (err)), 0);
    assert_int_equal (scenario->agent_count, 2);
    const scenario_agent_t *b = scenario_agent (scenario, "b");
    assert_non_null (b);
    assert_string_equal (b->endpoint, "tcp://192.0.2.2:7654");
    assert_int_equal (b->line, 0);
    if (scenario_check (scenario, err, sizeof (err)))
        fail_msg ("check after --agent: %s", err);

    //  And again replaces the added one.
    assert_int_equal (scenario_set_agent (scenario, "b=tcp://192.0.2.3:7654", err, sizeof (err)), 0);
    assert_int_equal (scenario->agent_count, 2);
    assert_string_equal (scenario_agent (scenario, "b")->endpoint, "tcp://192.0.2.3:7654");
    scenario_destroy (&scenario);
}

static void
test_set_agent_malformed (void **state)
{
    (void) state;
    char err [ERR_MAX] = "";
    scenario_t *scenario = s_load_ok (AGENT_A);
    static const struct {
        const char *assignment;
        const char *reason_part;
    } cases [] = {
        { "a", "expected NAME=ENDPOINT" },
        { "=tcp://h:1", "may not be empty" },
        { "a b=tcp://h:1", "not a valid name" },
        { "a=", "may not be empty" },
        { "a=h:1", "not an endpoint" },
        { "a=tcp://h:port", "the port" },
    };
    for (size_t i = 0; i < sizeof (cases) / sizeof (cases [0]); i++) {
        err [0] = 0;
        assert_int_equal (scenario_set_agent (scenario, cases [i].assignment, err, sizeof (err)), -1);
        char prefix [128];
        snprintf (prefix, sizeof (prefix), "--agent %s: ", cases [i].assignment);
        if (strncmp (err, prefix, strlen (prefix)) != 0 || !strstr (err, cases [i].reason_part))
            fail_msg ("'%s': expected '%s...%s', got '%s'", cases [i].assignment, prefix,
                      cases [i].reason_part, err);
    }
    //  Nothing changed.
    assert_int_equal (scenario->agent_count, 1);
    assert_string_equal (scenario->agents [0].endpoint, "tcp://127.0.0.1:7654");
    scenario_destroy (&scenario);
}

//  --------------------------------------------------------------------
//  The workload's needs

static void
test_write_needs_size_and_path (void **state)
{
    (void) state;
    s_expect_check_error (AGENT_A "[job j]\nagent = a\npath = /x\n", 3, "size",
                          "the write workload needs a size");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nsize = 1M\n", 3, "path",
                          "the write workload needs a path");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = null\n", 3, "size",
                          "the null workload needs a size");
    s_expect_check_ok (AGENT_A "[job j]\nagent = a\nworkload = null\nsize = 1\n");
    //  A size from [global] is enough.
    s_expect_check_ok (AGENT_A "[job j]\nagent = a\npath = /x\n[global]\nsize = 1G\n");
}

//  A size of 0 written out is no "size missing": it is a size that cannot
//  be meant, said at its own line, also when it comes from [global].
static void
test_size_zero (void **state)
{
    (void) state;
    s_expect_check_error (AGENT_A "[job j]\nagent = a\npath = /x\nsize = 0\n", 6, "size",
                          "must be more than 0");
    s_expect_check_error ("[global]\nsize = 0K\n" AGENT_A "[job j]\nagent = a\npath = /x\n",
                          2, "size", "must be more than 0");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = copy\nsrc = s\ndst = d\n"
                          "size = 0\n", 8, "size", "leave size out for the whole file");
}

//  Every check of a job's option points at the line the option is on, or
//  at its [global] default, and at the [job] header only when it is
//  missing.
static void
test_errors_at_the_key (void **state)
{
    (void) state;
    s_expect_check_error (AGENT_A "[job j]\n\n\nagent = nobody\npath = /x\nsize = 1M\n",
                          6, "agent", "no [agent nobody] or [group nobody] section");
    s_expect_check_error ("[global]\nsize = 1000\n" AGENT_A "[job j]\nagent = a\npath = /x\n"
                          "direct = yes\n", 2, "size", "a multiple of 512");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = monitor\n\nstreams = 3\n",
                          7, "streams", "runs one stream: streams must be 1");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = copy\ndst = d\n\n"
                          "src = ftp://x/y\n", 8, "src", "neither a path nor an nfs:// URL");
    //  Missing: the header.
    s_expect_check_error (AGENT_A "\n[job j]\nagent = a\nworkload = copy\nsrc = s\n",
                          4, "dst", "needs a dst");
}

static void
test_copy_and_fill_needs (void **state)
{
    (void) state;
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = copy\ndst = d\n", 3, "src",
                          "the copy workload needs a src");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = copy\nsrc = s\n", 3, "dst",
                          "the copy workload needs a dst");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = copy\nsrc = smb://h/x\n"
                          "dst = d\n", 6, "src", "neither a path nor an nfs:// URL");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = copy\nsrc = nfs://h\n"
                          "dst = d\n", 6, "src", "is not nfs://server/export/file");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = copy\nsrc = nfs:///e/f\n"
                          "dst = d\n", 6, "src", "is not nfs://server/export/file");
    //  Without a size a copy takes the whole source.
    s_expect_check_ok (AGENT_A "[job j]\nagent = a\nworkload = copy\nsrc = data/s\ndst = d\n");
    s_expect_check_ok (AGENT_A "[job j]\nagent = a\nworkload = copy\n"
                       "src = nfs://10.0.0.1/export/s?version=4\ndst = d\nsize = 1M\n");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = fill\nsize = 1M\n", 3, "path",
                          "the fill workload needs a path");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = fill\npath = s\n", 3, "size",
                          "the fill workload needs a size");
    s_expect_check_ok (AGENT_A "[job j]\nagent = a\nworkload = fill\npath = s\nsize = 1M\n"
                       "refill = yes\n");
    //  A monitor needs nothing but its agent, and watches once.
    s_expect_check_ok (AGENT_A "[job j]\nagent = a\nworkload = monitor\n");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = monitor\nstreams = 2\n", 6,
                          "streams", "the monitor workload runs one stream");
}

static void
test_direct_alignment (void **state)
{
    (void) state;
    s_expect_check_error (AGENT_A "[job j]\nagent = a\npath = /x\nsize = 1M\n"
                          "direct = yes\nbs = 1000\n",
                          8, "bs", "direct = yes needs a bs that is a multiple of 512 bytes, "
                          "and 1000 is not");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\npath = /x\nsize = 1000\ndirect = yes\n",
                          6, "size", "needs a size that is a multiple of 512 bytes");
    //  A block size left at its default is wrong because of the direct.
    s_expect_check_error (AGENT_A "[job j]\nagent = a\npath = /x\nsize = 1M\ndirect = yes\n"
                          "[global]\nbs = 1000\n", 9, "bs", "a multiple of 512");
    //  The same without direct is fine, and so is direct from [global].
    s_expect_check_ok (AGENT_A "[job j]\nagent = a\npath = /x\nsize = 1000\nbs = 1000\n");
    s_expect_check_error ("[global]\ndirect = yes\n" AGENT_A
                          "[job j]\nagent = a\npath = /x\nsize = 1M\nbs = 520\n",
                          9, "bs", "direct = yes");
}

static void
test_same_path_in_one_test (void **state)
{
    (void) state;
    const char *two_agents = AGENT_A "[agent b]\nendpoint = tcp://h:2\n";
    char text [1024];

    snprintf (text, sizeof (text), "%s[job x]\nagent = a\npath = /d/f\nsize = 1M\ntest = t\n"
              "[job y]\nagent = a\npath = /d/f\nsize = 2M\ntest = t\n", two_agents);
    s_expect_check_error (text, 12, "path", "[job y] and [job x] (line 5)");

    //  A single stream's path against stream 2 of three.
    snprintf (text, sizeof (text), "%s[job x]\nagent = a\npath = /d/f\nsize = 1M\ntest = t\n"
              "streams = 3\n[job y]\nagent = a\npath = /d/f.2\nsize = 2M\ntest = t\n", two_agents);
    s_expect_check_error (text, 13, "path", "both use /d/f.2 on agent a in test t, and one of them writes it");

    //  Not a conflict: other agent, other test, path.4 of three streams,
    //  or the bare path beside its streams.
    snprintf (text, sizeof (text), "%s[job x]\nagent = a\npath = /d/f\nsize = 1M\ntest = t\n"
              "[job y]\nagent = b\npath = /d/f\nsize = 1M\ntest = t\n"
              "[job z]\nagent = a\npath = /d/f\nsize = 1M\n", two_agents);
    s_expect_check_ok (text);
    snprintf (text, sizeof (text), "%s[job x]\nagent = a\npath = /d/f\nsize = 1M\nstreams = 3\n"
              "test = t\n[job y]\nagent = a\npath = /d/f.4\nsize = 1M\ntest = t\n"
              "[job z]\nagent = a\npath = /d/f\nsize = 1M\ntest = t\n", two_agents);
    s_expect_check_ok (text);
}

static void
test_no_jobs (void **state)
{
    (void) state;
    char err [ERR_MAX] = "";
    const char *path = s_write ("empty.ini", "; nothing\n" AGENT_A);
    scenario_t *scenario = scenario_load (path, err, sizeof (err));
    assert_non_null (scenario);
    assert_int_equal (scenario->job_count, 0);
    assert_int_equal (scenario->test_count, 0);
    assert_int_equal (scenario_check (scenario, err, sizeof (err)), -1);
    char expected [600];
    snprintf (expected, sizeof (expected), "%s: no [job] sections", path);
    assert_string_equal (err, expected);
    scenario_destroy (&scenario);
}

static void
test_unreadable_file (void **state)
{
    (void) state;
    char err [ERR_MAX] = "";
    char path [512];
    snprintf (path, sizeof (path), "%s/missing.ini", s_dir);
    assert_null (scenario_load (path, err, sizeof (err)));
    char expected [600];
    snprintf (expected, sizeof (expected), "%s: cannot open: No such file or directory", path);
    assert_string_equal (err, expected);

    //  A directory opens, and is refused before any read.
    assert_null (scenario_load (s_dir, err, sizeof (err)));
    snprintf (expected, sizeof (expected), "%s: is a directory, not a scenario file", s_dir);
    assert_string_equal (err, expected);
}

//  Write len bytes of data into a file of the scratch directory; its path.
static const char *
s_write_bytes (const char *name, const char *data, size_t len)
{
    static char path [512];
    snprintf (path, sizeof (path), "%s/%s", s_dir, name);
    FILE *file = fopen (path, "w");
    assert_non_null (file);
    assert_int_equal (fwrite (data, 1, len, file), len);
    assert_int_equal (fclose (file), 0);
    return path;
}

//  A file that is no scenario is refused before it can fill memory:
//  devices at once, a file beyond the bound by its size, a line beyond
//  its bound where it begins.
static void
test_file_bounds (void **state)
{
    (void) state;
    char err [ERR_MAX] = "";
    assert_null (scenario_load ("/dev/zero", err, sizeof (err)));
    assert_string_equal (err, "/dev/zero: is a character device, not a scenario file");

    //  One byte past the bound, in comments; the bound itself is fine.
    size_t size = SCENARIO_FILE_MAX + 1;
    char *text = malloc (size + 64);
    assert_non_null (text);
    for (size_t at = 0; at < size; at += 64) {
        memset (text + at, ' ', 64);
        text [at] = ';';
        text [at + 63] = '\n';
    }
    const char *path = s_write_bytes ("large.ini", text, size);
    assert_null (scenario_load (path, err, sizeof (err)));
    s_assert_message (err, path, 0, NULL, "holds more than the 1048576 bytes (1 MiB)");
    scenario_t *scenario = scenario_load (s_write_bytes ("bound.ini", text, size - 1),
                                          err, sizeof (err));
    assert_non_null (scenario);
    scenario_destroy (&scenario);

    //  A line past its bound, without a newline: said at its line.
    memcpy (text, "[global]\n; fine\n", 16);
    memset (text + 16, 'x', SCENARIO_LINE_MAX + 1);
    path = s_write_bytes ("line.ini", text, 16 + SCENARIO_LINE_MAX + 1);
    assert_null (scenario_load (path, err, sizeof (err)));
    char expected [ERR_MAX];
    snprintf (expected, sizeof (expected), "%s:3: the line is %d bytes long, more than the %d",
              path, SCENARIO_LINE_MAX + 1, SCENARIO_LINE_MAX);
    assert_int_equal (strncmp (err, expected, strlen (expected)), 0);
    //  A comment as long as the bound is still a comment.
    text [16] = ';';
    text [16 + SCENARIO_LINE_MAX] = '\n';
    scenario = scenario_load (s_write_bytes ("comment.ini", text, 16 + SCENARIO_LINE_MAX + 1),
                              err, sizeof (err));
    if (!scenario)
        fail_msg ("a long comment: %s", err);
    scenario_destroy (&scenario);
    free (text);
}

//  Load and check text, one of which must fail at line with key.
static void
s_expect_refused (const char *text, int line, const char *key, const char *reason_part)
{
    char err [ERR_MAX] = "";
    const char *path = s_write ("refused.ini", text);
    scenario_t *scenario = scenario_load (path, err, sizeof (err));
    int rc = scenario? scenario_check (scenario, err, sizeof (err)): -1;
    scenario_destroy (&scenario);
    if (rc == 0)
        fail_msg ("expected an error at line %d, key %s; the file passed", line, key);
    s_assert_message (err, path, line, key, reason_part);
}

//  randrw's numbers that cannot make a run are refused at their line,
//  before any agent is asked for anything.
static void
test_randrw_refusals (void **state)
{
    (void) state;
    #define RANDRW AGENT_A "[job j]\nagent = a\nworkload = randrw\npath = set/f\nsize = 64M\n"
    s_expect_refused (RANDRW "files = 0\n", 8, "files", "below the minimum 1");
    s_expect_refused (RANDRW "rwratio = -1\n", 8, "rwratio", "not a decimal number");
    s_expect_refused (RANDRW "files = 16\nbs = 32M\n", 9, "bs", "less than one block");
    s_expect_refused (RANDRW "read_pct = 120\n", 8, "read_pct", "above the maximum 100");
    s_expect_refused (RANDRW "rwratio = 2\nread_pct = 50\n", 9, "read_pct", "");
    s_expect_refused (RANDRW "mode = rnd\n", 8, "mode", "not one of rndrw, rndrd, rndwr");
    //  rwratio means nothing without reads and writes: refused, not ignored.
    s_expect_refused (RANDRW "mode = rndrd\nrwratio = 3\n", 9, "rwratio",
                      "mode rndrd reads only: leave rwratio out");
    s_expect_refused (RANDRW "rwratio = 3\nmode = rndwr\n", 8, "rwratio", "mode rndwr writes only");
    s_expect_check_ok (RANDRW "mode = rndrw\nrwratio = 3\n");
    s_expect_refused (RANDRW "requests = 0\n", 8, "requests", "give one of them");
    s_expect_refused (RANDRW "runtime = 2s\nramp = 5s\n", 9, "ramp", "leaves nothing");
    //  A ramp without a runtime would leave a request-bound job empty.
    s_expect_refused (RANDRW "ramp = 5s\n", 8, "ramp", "has none (it ends at its size or requests)");
    s_expect_refused (AGENT_A "[job j]\nagent = a\npath = wr\nsize = 4M\nramp = 10s\n", 7, "ramp",
                      "a ramp leaves out the first 10.000 s of a runtime, and this job has none");
    s_expect_check_ok (RANDRW "files = 16\nbs = 4M\nruntime = 2s\nramp = 1s\n");
    #undef RANDRW
}

//  What an agent would refuse at prepare (jobs and streams one test may
//  hold on it) is refused by the check, at the job that passes the limit.
static void
test_agent_limits (void **state)
{
    (void) state;
    size_t size = 300 * 64 + 256;
    char *text = malloc (size);
    assert_non_null (text);
    int used = snprintf (text, size, AGENT_A);
    for (int job = 1; job <= 300; job++)
        used += snprintf (text + used, size - (size_t) used,
                          "[job j%d]\nagent = a\ntest = t\npath = p%d\nsize = 1M\n", job, job);
    //  Job 257's agent line: two lines of [agent a], five a job.
    s_expect_refused (text, 2 + 256 * 5 + 2, "agent", "test t holds more than 256 jobs on agent a");
    //  256 of them are fine.
    char *end = strstr (text, "[job j257]");
    *end = 0;
    s_expect_check_ok (text);
    free (text);
    s_expect_refused (AGENT_A "[job a]\nagent = a\ntest = t\npath = x\nsize = 1M\nstreams = 600\n"
                      "[job b]\nagent = a\ntest = t\npath = y\nsize = 1M\nstreams = 600\n", 14,
                      "streams", "test t asks agent a for 1200 streams with this job, more than the 1024");
    //  One test each: no agent holds more than its limit at once.
    s_expect_check_ok (AGENT_A "[job a]\nagent = a\npath = x\nsize = 1M\nstreams = 600\n"
                       "[job b]\nagent = a\npath = y\nsize = 1M\nstreams = 600\n");
}

//  The text is kept as read, for the results directory; a pipe is read
//  like a file (iofleet run <(generate)).
static void
test_text_kept_and_pipes (void **state)
{
    (void) state;
    const char *text = AGENT_A "[job j]\nagent = a\npath = /x\nsize = 1M\n";
    scenario_t *scenario = s_load_ok (text);
    assert_int_equal (scenario->text_length, strlen (text));
    assert_string_equal (scenario->text, text);
    scenario_destroy (&scenario);

    char path [512];
    snprintf (path, sizeof (path), "%s/pipe", s_dir);
    assert_int_equal (mkfifo (path, 0600), 0);
    //  A reader held open keeps the written text in the pipe after its
    //  writer closed, so the load below reads the text and then the end
    //  of file, with no race between a writer and the loader.
    int held = open (path, O_RDONLY | O_NONBLOCK);
    assert_true (held >= 0);
    int writer = open (path, O_WRONLY);
    assert_true (writer >= 0);
    assert_int_equal (write (writer, text, strlen (text)), (ssize_t) strlen (text));
    close (writer);
    char err [ERR_MAX] = "";
    scenario = scenario_load (path, err, sizeof (err));
    close (held);
    if (!scenario)
        fail_msg ("a pipe: %s", err);
    assert_int_equal (scenario->job_count, 1);
    assert_string_equal (scenario->text, text);
    scenario_destroy (&scenario);
    unlink (path);
}

//  Out of memory is said as such (not as "no [job] sections"): with the
//  address space bounded, in a child. ASan reserves the address space it
//  needs at start and cannot run under a bound, so this runs in the plain
//  build only.
static void
test_out_of_memory (void **state)
{
    (void) state;
#if defined (__SANITIZE_ADDRESS__)
    skip ();
#else
    const char *path = s_write ("memory.ini", AGENT_A "[job j]\nagent = a\npath = /x\nsize = 1M\n");
    int pipes [2];
    assert_int_equal (pipe (pipes), 0);
    pid_t child = fork ();
    assert_true (child >= 0);
    if (child == 0) {
        //  What the process maps now, and half the file bound more; large
        //  blocks from new mappings, not from what the heap has free.
        mallopt (M_MMAP_THRESHOLD, 64 * 1024);
        malloc_trim (0);
        FILE *statm = fopen ("/proc/self/statm", "r");
        unsigned long pages = 0;
        if (!statm || fscanf (statm, "%lu", &pages) != 1)
            _exit (2);
        fclose (statm);
        struct rlimit limit;
        limit.rlim_cur = limit.rlim_max = pages * (rlim_t) sysconf (_SC_PAGESIZE)
                                        + SCENARIO_FILE_MAX / 2;
        if (setrlimit (RLIMIT_AS, &limit))
            _exit (2);
        char err [ERR_MAX] = "";
        scenario_t *scenario = scenario_load (path, err, sizeof (err));
        if (write (pipes [1], err, strlen (err)) < 0)
            _exit (2);
        _exit (scenario? 1: 0);
    }
    close (pipes [1]);
    char err [ERR_MAX] = "";
    ssize_t got = read (pipes [0], err, sizeof (err) - 1);
    close (pipes [0]);
    int status;
    assert_int_equal (waitpid (child, &status, 0), child);
    assert_true (WIFEXITED (status));
    assert_int_equal (WEXITSTATUS (status), 0);
    assert_true (got > 0);
    err [got] = 0;
    s_assert_message (err, path, 0, NULL, "out of memory");
#endif
}

//  What the file holds is quoted printably in every message: no control
//  byte of it reaches the terminal.
static void
test_garbage_quoted (void **state)
{
    (void) state;
    s_expect_load_error ("[jo\x1B[2Jb x]\n", 1, "[jo\\x1B[2Jb x]", "unknown section");
    s_expect_load_error ("[global]\nke\x07y = 1\n", 2, "ke\\x07y", "unknown key");
    s_expect_load_error (AGENT_A "[job a]\ntest = x\x01y\n", 4, "test",
                         "'x\\x01y' is not a valid name");
    s_expect_load_error ("[agent a]\nendpoint = tcp://h\x1B:1\n", 2, "endpoint",
                         "'tcp://h\\x1B:1' contains a space or control character");
    s_expect_load_error ("[agent a\xC3]\n", 1, "[agent a\\xC3]", "'a\\xC3' is not a valid name");
    s_expect_check_error (AGENT_A "[job j]\nagent = a\nworkload = copy\ndst = d\n"
                          "src = x\x7F://y\n", 7, "src", "'x\\x7F://y' is neither");
    scenario_t *scenario = s_load_ok (AGENT_A);
    char err [ERR_MAX];
    assert_int_equal (scenario_set_agent (scenario, "b\x1B=tcp://h:1", err, sizeof (err)), -1);
    assert_string_equal (err, "--agent b\\x1B=tcp://h:1: 'b\\x1B' is not a valid name: "
                              "use letters, digits, '.', '_' and '-'");
    scenario_destroy (&scenario);
}

//  A large file: many agents and jobs grow the arrays several times.
static void
test_many_jobs (void **state)
{
    (void) state;
    size_t capacity = 1 << 20;
    char *text = malloc (capacity);
    assert_non_null (text);
    size_t used = 0;
    for (int i = 0; i < 300; i++)
        used += (size_t) snprintf (text + used, capacity - used,
                                   "[agent h%d]\nendpoint = tcp://h%d.example:7654\n"
                                   "[job j%d]\nagent = h%d\ntest = t%d\npath = /d/f\nsize = 1M\n",
                                   i, i, i, i, i % 7);
    scenario_t *scenario = s_load_ok (text);
    free (text);
    char err [ERR_MAX] = "";
    if (scenario_check (scenario, err, sizeof (err)))
        fail_msg ("check: %s", err);
    assert_int_equal (scenario->agent_count, 300);
    assert_int_equal (scenario->job_count, 300);
    assert_int_equal (scenario->test_count, 7);
    size_t total = 0;
    for (size_t t = 0; t < scenario->test_count; t++) {
        char name [32];
        snprintf (name, sizeof (name), "t%zu", t);
        assert_string_equal (scenario->tests [t].name, name);
        for (size_t k = 0; k < scenario->tests [t].job_count; k++)
            assert_int_equal (scenario->tests [t].jobs [k], t + 7 * k);
        total += scenario->tests [t].job_count;
    }
    assert_int_equal (total, 300);
    assert_int_equal (scenario->jobs [299].template->line, 299 * 7 + 3);
    scenario_destroy (&scenario);
}

//  --------------------------------------------------------------------

static int
s_setup (void **state)
{
    (void) state;
    const char *tmp = getenv ("TMPDIR");
    snprintf (s_dir, sizeof (s_dir), "%s/coord_scenario.XXXXXX", tmp && *tmp? tmp: "/tmp");
    return mkdtemp (s_dir)? 0: -1;
}

//  Remove the scratch directory and whatever the tests left in it.
static int
s_teardown (void **state)
{
    (void) state;
    DIR *dir = opendir (s_dir);
    if (dir) {
        struct dirent *entry;
        while ((entry = readdir (dir))) {
            if (strcmp (entry->d_name, ".") == 0 || strcmp (entry->d_name, "..") == 0)
                continue;
            char path [512];
            snprintf (path, sizeof (path), "%s/%s", s_dir, entry->d_name);
            unlink (path);
        }
        closedir (dir);
    }
    return rmdir (s_dir);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        //  First, while the heap holds no large free block from the others.
        cmocka_unit_test (test_out_of_memory),
        cmocka_unit_test (test_full_scenario),
        cmocka_unit_test (test_defaults),
        cmocka_unit_test (test_bom_and_crlf),
        cmocka_unit_test (test_unknown_section),
        cmocka_unit_test (test_job_without_name),
        cmocka_unit_test (test_bad_name),
        cmocka_unit_test (test_bad_header_syntax),
        cmocka_unit_test (test_duplicate_section),
        cmocka_unit_test (test_duplicate_key),
        cmocka_unit_test (test_unknown_key),
        cmocka_unit_test (test_misplaced_key),
        cmocka_unit_test (test_key_before_section),
        cmocka_unit_test (test_bad_line),
        cmocka_unit_test (test_no_multiline_values),
        cmocka_unit_test (test_inline_comments),
        cmocka_unit_test (test_bad_size),
        cmocka_unit_test (test_bad_bool),
        cmocka_unit_test (test_bad_enum),
        cmocka_unit_test (test_bad_duration),
        cmocka_unit_test (test_count_bounds),
        cmocka_unit_test (test_bad_test_or_agent_name),
        cmocka_unit_test (test_missing_agent),
        cmocka_unit_test (test_bad_endpoint),
        cmocka_unit_test (test_agent_without_endpoint),
        cmocka_unit_test (test_unknown_agent),
        cmocka_unit_test (test_set_agent),
        cmocka_unit_test (test_set_agent_malformed),
        cmocka_unit_test (test_write_needs_size_and_path),
        cmocka_unit_test (test_size_zero),
        cmocka_unit_test (test_errors_at_the_key),
        cmocka_unit_test (test_copy_and_fill_needs),
        cmocka_unit_test (test_direct_alignment),
        cmocka_unit_test (test_same_path_in_one_test),
        cmocka_unit_test (test_no_jobs),
        cmocka_unit_test (test_unreadable_file),
        cmocka_unit_test (test_file_bounds),
        cmocka_unit_test (test_text_kept_and_pipes),
        cmocka_unit_test (test_garbage_quoted),
        cmocka_unit_test (test_randrw_refusals),
        cmocka_unit_test (test_agent_limits),
        cmocka_unit_test (test_many_jobs),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
