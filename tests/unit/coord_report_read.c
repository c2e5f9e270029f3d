/*  tests/unit/coord_report_read.c: the results file read back (results_read),
    and the CSV writer, on a run built by hand.

    A run is written with the writers, read back, and rendered again: the
    text and the JSON must come out the same, byte for byte, including a
    rate that could not be computed (null) and a failed stream. Bad files
    must fail with a message that names the file and the place.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../coordinator/results/results_file.h"
#include "../../coordinator/numbers/aggregate.h"
#include "../../coordinator/report/report.h"
#include "render.h"
#include "../../proto/clock.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MS (NS_PER_MSEC)

//  A scratch directory per test, removed at the end.
typedef struct {
    char dir [64];                  //  the directory
    char results [128];             //  dir/results.json
    char samples [128];             //  dir/samples.jsonl
    run_result_t run;               //  the run written there
} fixture_t;

//  Set one stream of the fixture's run.
static void
s_stream (stream_result_t *stream, const char *agent, const char *job, int job_class,
          uint32_t index, uint64_t bytes, int64_t start_ns, int64_t end_ns)
{
    memset (stream, 0, sizeof *stream);
    snprintf (stream->agent, sizeof stream->agent, "%s", agent);
    snprintf (stream->job, sizeof stream->job, "%s", job);
    char path [JOB_PATH_MAX + 1];
    snprintf (path, sizeof path, "/data/%s.%u", job, index);
    assert_int_equal (stream_result_set_path (stream, path), 0);
    stream->job_class = job_class;
    stream->index = index;
    stream->finished = true;
    stream->bytes = bytes;
    stream->start_ns = start_ns;
    stream->last_write_ns = end_ns - 3 * MS;
    stream->end_ns = end_ns;
    //  Not a whole number of ms: the text report rounds these, and a
    //  value carried only in seconds could round the other way.
    stream->usr_ns = 4999999;
    stream->sys_ns = 1234567891;
    stream->clock_uncertainty_ns = 61000;
    //  Samples every 100 ms at a steady 100 MB/s.
    for (int64_t t_ns = 100 * MS; t_ns < end_ns; t_ns += 100 * MS)
        assert_int_equal (stream_result_add_sample (stream, t_ns,
                                                    (uint64_t) (t_ns - start_ns) / 10), 0);
}

//  Two agents; a mixed test on both, and a test whose one stream failed.
static int
s_setup (void **state)
{
    fixture_t *fixture = calloc (1, sizeof *fixture);
    assert_non_null (fixture);
    snprintf (fixture->dir, sizeof fixture->dir, "%s/coord-read.XXXXXX",
              getenv ("TMPDIR")? getenv ("TMPDIR"): "/tmp");
    assert_non_null (mkdtemp (fixture->dir));
    snprintf (fixture->results, sizeof fixture->results, "%s/results.json", fixture->dir);
    snprintf (fixture->samples, sizeof fixture->samples, "%s/samples.jsonl", fixture->dir);

    run_result_t *run = &fixture->run;
    snprintf (run->scenario_path, sizeof run->scenario_path, "configs/mix.ini");
    run->started_wall_ns = 1796000000LL * NS_PER_SEC + 123 * MS;
    run->agents = calloc (2, sizeof (agent_info_t));
    run->tests = calloc (2, sizeof (test_result_t));
    assert_non_null (run->agents);
    assert_non_null (run->tests);
    run->agent_count = 2;
    run->test_count = run->test_capacity = 2;
    for (int nbr = 0; nbr < 2; nbr++) {
        agent_info_t *agent = &run->agents [nbr];
        snprintf (agent->name, sizeof agent->name, "nfs%d", nbr + 1);
        snprintf (agent->endpoint, sizeof agent->endpoint, "tcp://10.0.0.%d:7654", nbr + 1);
        snprintf (agent->hostname, sizeof agent->hostname, "host%d", nbr + 1);
        snprintf (agent->kernel, sizeof agent->kernel, "2.6.2%d", nbr + 2);
        snprintf (agent->version, sizeof agent->version, "0.1.0");
        agent->cpus = 2;
        agent->mem_bytes = 2ULL << 30;
        agent->clock_offset_ns = -1234567 * (nbr + 1);
        agent->clock_rtt_ns = 98765;
    }
    test_result_t *mix = &run->tests [0];
    snprintf (mix->name, sizeof mix->name, "mix3");
    mix->iteration = 1;
    mix->announced_wall_ns = run->started_wall_ns + 250 * MS;
    mix->streams = calloc (3, sizeof (stream_result_t));
    assert_non_null (mix->streams);
    mix->stream_count = 3;
    s_stream (&mix->streams [0], "nfs1", "local", CLASS_DISK, 0, 96000000, 10 * MS, 1010 * MS);
    s_stream (&mix->streams [1], "nfs2", "copy", CLASS_NETWORK, 0, 35000000, 20 * MS, 1020 * MS);
    s_stream (&mix->streams [2], "nfs2", "copy", CLASS_NETWORK, 1, 36000000, 30 * MS, 1030 * MS);
    //  A queue 31 deep on the mean over its 997 ms of requests, 5 of
    //  them in flight at a stop.
    mix->streams [0].busy_ns = 31 * 997 * MS;
    mix->streams [0].depth_max = 32;
    mix->streams [0].inflight_at_stop = 5;
    aggregate_test (mix);
    assert_true (mix->summary.depth_mean == 31.0);

    test_result_t *broken = &run->tests [1];
    snprintf (broken->name, sizeof broken->name, "dd1");
    broken->iteration = 2;
    broken->streams = calloc (1, sizeof (stream_result_t));
    assert_non_null (broken->streams);
    broken->stream_count = 1;
    s_stream (&broken->streams [0], "nfs1", "dd1", CLASS_DISK, 0, 0, 0, 0);
    broken->streams [0].finished = false;
    assert_int_equal (stream_result_set_error (&broken->streams [0],
                                               "agent lost: no word, \"for\" 5.0 s"), 0);
    aggregate_test (broken);
    //  Nothing ran: the rates are NAN and go to the file as null.
    assert_true (isnan (broken->summary.combined_mbps));

    char err [256];
    assert_int_equal (report_format_write (&report_formats [REPORT_FORMAT_JSON], run, fixture->results, err, sizeof err), 0);
    FILE *samples = fopen (fixture->samples, "w");
    assert_non_null (samples);
    for (size_t nbr = 0; nbr < run->test_count; nbr++)
        assert_int_equal (results_json_samples_append (&run->tests [nbr], samples), 0);
    assert_int_equal (fclose (samples), 0);
    *state = fixture;
    return 0;
}

static int
s_teardown (void **state)
{
    fixture_t *fixture = *state;
    unlink (fixture->results);
    unlink (fixture->samples);
    rmdir (fixture->dir);
    run_result_clear (&fixture->run);
    free (fixture);
    return 0;
}

//  Replace a file with text.
static void
s_write_file (const char *path, const char *text)
{
    FILE *file = fopen (path, "w");
    assert_non_null (file);
    fputs (text, file);
    assert_int_equal (fclose (file), 0);
}

//  Written, read back, rendered again: every format the same.
static void
test_round_trip (void **state)
{
    fixture_t *fixture = *state;
    run_result_t again;
    memset (&again, 0, sizeof again);
    char err [256] = "";
    assert_int_equal (results_read (fixture->results, &again, err, sizeof err), 0);
    assert_int_equal (again.test_count, 2);
    assert_int_equal (again.tests [0].streams [1].sample_count,
                      fixture->run.tests [0].streams [1].sample_count);
    assert_int_equal (again.tests [0].streams [1].samples [3].bytes,
                      fixture->run.tests [0].streams [1].samples [3].bytes);
    assert_int_equal (again.tests [0].streams [0].sys_ns, 1234567891);
    //  The depth, with the stream and in the summary.
    assert_int_equal (again.tests [0].streams [0].busy_ns, 31 * 997 * MS);
    assert_int_equal (again.tests [0].streams [0].depth_max, 32);
    assert_int_equal (again.tests [0].streams [0].inflight_at_stop, 5);
    assert_int_equal (again.tests [0].streams [1].depth_max, 0);
    assert_true (again.tests [0].summary.depth_mean == 31.0);
    assert_int_equal (again.tests [0].summary.depth_max, 32);
    assert_int_equal (again.tests [0].summary.inflight_at_stop, 5);
    assert_true (isnan (again.tests [1].summary.depth_mean));
    assert_true (isnan (again.tests [1].summary.combined_mbps));
    for (size_t nbr = 0; nbr < REPORT_FORMAT_COUNT; nbr++) {
        assert_int_equal (report_formats [nbr].id, nbr);
        char *first = render_report (&fixture->run, report_formats [nbr].id);
        char *second = render_report (&again, report_formats [nbr].id);
        assert_string_equal (first, second);
        free (first);
        free (second);
    }
    run_result_clear (&again);
}

//  A summary is taken as written, not computed again: a file whose
//  summary was changed renders the changed figure.
static void
test_summary_as_written (void **state)
{
    fixture_t *fixture = *state;
    fixture->run.tests [0].summary.combined_mbps = 12.5;
    char err [256];
    assert_int_equal (report_format_write (&report_formats [REPORT_FORMAT_JSON], &fixture->run, fixture->results, err, sizeof err), 0);
    run_result_t again;
    memset (&again, 0, sizeof again);
    assert_int_equal (results_read (fixture->results, &again, err, sizeof err), 0);
    assert_true (again.tests [0].summary.combined_mbps == 12.5);
    run_result_clear (&again);
}

//  text with the first occurrence of old replaced, for the caller to free.
static char *
s_replace (const char *text, const char *old, const char *new)
{
    const char *at = strstr (text, old);
    assert_non_null (at);
    char *result = NULL;
    assert_true (asprintf (&result, "%.*s%s%s", (int) (at - text), text, new,
                           at + strlen (old)) > 0);
    return result;
}

//  Read a file that must fail, and check the message's start.
static void
s_expect_failure (const char *path, const char *message)
{
    run_result_t run;
    memset (&run, 0, sizeof run);
    char err [512] = "";
    assert_int_equal (results_read (path, &run, err, sizeof err), -1);
    if (!strstr (err, message))
        fail_msg ("message \"%s\" lacks \"%s\"", err, message);
    //  Nothing is left allocated for the caller.
    assert_null (run.tests);
    assert_null (run.agents);
    assert_int_equal (run.test_count, 0);
}

static void
test_bad_files (void **state)
{
    fixture_t *fixture = *state;
    char path [192], message [256];
    snprintf (path, sizeof path, "%s/none.json", fixture->dir);
    snprintf (message, sizeof message, "%s: No such file or directory", path);
    s_expect_failure (path, message);

    //  A syntax error: file, line and column.
    char *good = results_json_text (&fixture->run);
    assert_non_null (good);
    s_write_file (fixture->results, "{\n \"tests\": [,]\n}\n");
    snprintf (message, sizeof message, "%s:2:", fixture->results);
    s_expect_failure (fixture->results, message);

    //  A value of the wrong type, deep down: the place is named.
    char *wrong = s_replace (good, "\"start_ns\": 10000000", "\"start_ns\": \"x\"");
    s_write_file (fixture->results, wrong);
    snprintf (message, sizeof message, "%s: tests[0].streams[0].start_ns: expected an integer",
              fixture->results);
    s_expect_failure (fixture->results, message);
    free (wrong);

    //  A missing key.
    char *missing = s_replace (good, "\"hosts\"", "\"hostz\"");
    s_write_file (fixture->results, missing);
    snprintf (message, sizeof message, "%s: tests[0].summary.hosts: missing", fixture->results);
    s_expect_failure (fixture->results, message);
    free (missing);

    //  A bad line in the samples file: that file and the line.
    s_write_file (fixture->results, good);
    s_write_file (fixture->samples, "{\"test\":\"mix3\",\"iteration\":1,\"agent\":\"nfs1\","
                                    "\"job\":\"local\",\"stream\":0,\"t_ns\":5,\"bytes\":7}\n"
                                    "{\"test\":\"mix3\",\"iteration\":1,\"agent\":\"nfs1\","
                                    "\"job\":\"local\",\"stream\":0,\"t_ns\":5,\"bytes\":-7}\n");
    snprintf (message, sizeof message, "%s: line 2.bytes: -7 is out of range", fixture->samples);
    s_expect_failure (fixture->results, message);
    free (good);
}

//  Write good with tests[0].summary.KEY set to value (taken), as a file.
static void
s_write_with_summary (const char *path, const char *good, const char *key, json_t *value)
{
    json_t *root = json_loads (good, 0, NULL);
    assert_non_null (root);
    json_t *summary = json_object_get (json_array_get (json_object_get (root, "tests"), 0),
                                       "summary");
    assert_int_equal (json_object_set_new (summary, key, value), 0);
    assert_int_equal (json_dump_file (root, path, JSON_INDENT (1)), 0);
    json_decref (root);
}

//  Figures out of their range, or numbers written as strings, are refused
//  by results_read and results_read_no_samples alike, with the same words.
static void
test_bad_numbers (void **state)
{
    fixture_t *fixture = *state;
    char *good = results_json_text (&fixture->run);
    assert_non_null (good);
    static const struct {
        const char *key;            //  summary key
        const char *json;           //  value written
        const char *message;        //  what the reader says
    } cases [] = {
        { "combined_mbps", "\"774\"", "tests[0].summary.combined_mbps: expected a number or null" },
        { "combined_mbps", "-1e308", "tests[0].summary.combined_mbps: -1e+308 is out of range (0 to 1e+12)" },
        { "combined_mbps", "1.797e308", "tests[0].summary.combined_mbps: 1.797e+308 is out of range (0 to 1e+12)" },
        { "sys_pct", "100.5", "tests[0].summary.sys_pct: 100.5 is out of range (0 to 100)" },
        { "sys_pct", "-0.1", "tests[0].summary.sys_pct: -0.1 is out of range (0 to 100)" },
        { "latency_p99_ns", "\"5\"", "tests[0].summary.latency_p99_ns: expected a number or null" },
    };
    for (size_t nbr = 0; nbr < sizeof cases / sizeof cases [0]; nbr++) {
        json_t *value = json_loads (cases [nbr].json, JSON_DECODE_ANY, NULL);
        assert_non_null (value);
        s_write_with_summary (fixture->results, good, cases [nbr].key, value);
        char message [512];
        snprintf (message, sizeof message, "%s: %s", fixture->results, cases [nbr].message);
        s_expect_failure (fixture->results, message);
        run_result_t run;
        memset (&run, 0, sizeof run);
        char err [512] = "";
        assert_int_equal (results_read_no_samples (fixture->results, &run, err, sizeof err), -1);
        assert_string_equal (err, message);
    }
    free (good);
}

//  A run names each agent and each run of a test once: a file that lists
//  one twice is refused, naming both places, before compare counts it
//  twice or the archive meets its constraint.
static void
test_twice (void **state)
{
    fixture_t *fixture = *state;
    char *good = results_json_text (&fixture->run);
    assert_non_null (good);
    static const struct {
        const char *array;          //  whose first element is appended again
        const char *message;        //  what the reader says
    } cases [] = {
        { "tests", "tests[2].name: test \"mix3\" iteration 1 is there twice (also tests[0])" },
        { "agents", "agents[2].name: agent \"nfs1\" is there twice (also agents[0])" },
    };
    for (size_t nbr = 0; nbr < sizeof cases / sizeof cases [0]; nbr++) {
        json_t *root = json_loads (good, 0, NULL);
        assert_non_null (root);
        json_t *array = json_object_get (root, cases [nbr].array);
        assert_int_equal (json_array_append (array, json_array_get (array, 0)), 0);
        assert_int_equal (json_dump_file (root, fixture->results, JSON_INDENT (1)), 0);
        json_decref (root);
        char message [512];
        snprintf (message, sizeof message, "%s: %s", fixture->results, cases [nbr].message);
        s_expect_failure (fixture->results, message);
    }
    free (good);
}

//  The label and a p99 latency go out and come back; files without them
//  read as unlabelled and unmeasured.
static void
test_optional_figures (void **state)
{
    fixture_t *fixture = *state;
    run_result_t again;
    memset (&again, 0, sizeof again);
    char err [256] = "";
    assert_int_equal (results_read_no_samples (fixture->results, &again, err, sizeof err), 0);
    assert_string_equal (again.label, "");
    assert_true (isnan (again.tests [0].summary.latency_p99_ns));
    assert_int_equal (again.tests [0].streams [1].sample_count, 0);
    run_result_clear (&again);

    snprintf (fixture->run.label, sizeof fixture->run.label, "patched");
    fixture->run.tests [0].summary.latency_p99_ns = 1.25e6;
    assert_int_equal (report_format_write (&report_formats [REPORT_FORMAT_JSON], &fixture->run,
                                           fixture->results, err, sizeof err), 0);
    memset (&again, 0, sizeof again);
    assert_int_equal (results_read_no_samples (fixture->results, &again, err, sizeof err), 0);
    assert_string_equal (again.label, "patched");
    assert_true (again.tests [0].summary.latency_p99_ns == 1.25e6);
    assert_true (isnan (again.tests [1].summary.latency_p99_ns));
    run_result_clear (&again);
}

//  CSV: a header, a row per stream, fields with commas and quotes quoted.
static void
test_csv (void **state)
{
    fixture_t *fixture = *state;
    char *text = render_report (&fixture->run, REPORT_FORMAT_CSV);
    size_t lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    assert_int_equal (lines, 1 + 3 + 1);
    //  The run's fields, the test's, the stream's, its agent's, its
    //  host's, then the test's summary.
    assert_non_null (strstr (text, "run_iofleet_version,run_scenario,run_label,"));
    assert_non_null (strstr (text, ",name,test,phase,phase_index,rate,"));
    assert_non_null (strstr (text, ",announced_wall_ns,warnings,agent,job,class,stream,path,"));
    assert_non_null (strstr (text, ",agent_malformed_frames,host_agent,host_boot_id,"));
    assert_non_null (strstr (text, ",monitor_samples,test_streams,test_hosts,"));
    assert_non_null (strstr (text, ",fsync,sys_s_per_gb,reads_per_s,writes_per_s,fsyncs_per_s,"));
    assert_non_null (strstr (text, ",agent_kernel,agent_boot_id,agent_cpus,"));
    assert_non_null (strstr (text, ",\"agent lost: no word, \"\"for\"\" 5.0 s\","));
    assert_non_null (strstr (text, ",mix3,mix3,"));
    free (text);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test_setup_teardown (test_round_trip, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_summary_as_written, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_bad_files, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_bad_numbers, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_twice, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_optional_figures, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_csv, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
