/*  coordinator/results/results_json.c: the results file (results.json) and the
    samples file (JSON lines); see report.h.

    Keys carry their unit (_ns, _mbps, _bytes, _s). JSON has no NAN, and
    jansson refuses to make one: a rate that could not be computed is
    null. Strings come from the wire and the disk and need not be UTF-8,
    which jansson requires: a string that is not is written with its
    non-ASCII bytes as '?', rather than failing the whole file.
*/
#include "results_file.h"
#include "../report/report.h"
#include "json_stream.h"
#include "latency_json.h"
#include "depth_json.h"
#include "stop_json.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"
#include "../../proto/version.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define UNITS_TEXT "MB/s = 10^6 bytes/s"

//  An object under construction: set() calls record the first failure in
//  ok, so that a builder checks once at its end.
typedef struct {
    json_t *object;                 //  the object being filled
    bool ok;                        //  false once a value or a set failed
} builder_t;


//  --------------------------------------------------------------------------
//  Values

//  A JSON string of text; bytes that make it invalid UTF-8 become '?'.
static json_t *
s_json_text (const char *text)
{
    json_t *value = json_string (text);
    if (value)
        return value;
    char *ascii = strdup (text);
    if (!ascii)
        return NULL;
    for (char *byte = ascii; *byte; byte++)
        if ((unsigned char) *byte >= 0x80)
            *byte = '?';
    value = json_string (ascii);
    free (ascii);
    return value;
}

//  A rate, or null when it could not be computed (NAN, infinity).
static json_t *
s_json_rate (double rate_mbps)
{
    return isfinite (rate_mbps)? json_real (rate_mbps): json_null ();
}

//  An unsigned count; JSON integers here are 64-bit signed, and a count
//  beyond that range is clamped rather than wrapped to a negative one.
static json_t *
s_json_count (uint64_t count)
{
    return json_integer (count > INT64_MAX? INT64_MAX: (json_int_t) count);
}

//  An instant in ISO 8601 UTC with milliseconds: "2026-11-30T03:10:00.123Z".
static json_t *
s_json_utc (int64_t wall_ns)
{
    time_t seconds = (time_t) (wall_ns / NS_PER_SEC);
    int milliseconds = (int) ((wall_ns % NS_PER_SEC) / NS_PER_MSEC);
    struct tm utc;
    char text [64];
    char stamp [40];
    if (wall_ns < 0 || !gmtime_r (&seconds, &utc)
    ||  strftime (stamp, sizeof (stamp), "%Y-%m-%dT%H:%M:%S", &utc) == 0)
        return json_null ();
    snprintf (text, sizeof (text), "%s.%03dZ", stamp, milliseconds);
    return json_string (text);
}

//  Set key to value in the builder's object, taking the value's reference.
static void
s_set (builder_t *builder, const char *key, json_t *value)
{
    if (!value || json_object_set_new (builder->object, key, value) < 0)
        builder->ok = false;
}

//  Set key to an optional value: nothing when value is NULL and ok (not
//  measured), a failure when ok is false (memory).
static void
s_set_optional (builder_t *builder, const char *key, json_t *value, bool ok)
{
    if (!ok)
        builder->ok = false;
    else
    if (value && json_object_set_new (builder->object, key, value) < 0)
        builder->ok = false;
}

//  A set's latency under "latency", when it was measured.
static void
s_set_latency (builder_t *builder, const latency_summary_t *latency)
{
    if (latency->count)
        s_set (builder, "latency", latency_summary_json (latency));
}

//  Start a builder with a new empty object.
static builder_t
s_builder (void)
{
    builder_t builder = { json_object (), true };
    builder.ok = builder.object != NULL;
    return builder;
}

//  End a builder: its object, or NULL (and the object freed) on failure.
static json_t *
s_finish (builder_t *builder)
{
    if (builder->ok)
        return builder->object;
    json_decref (builder->object);
    return NULL;
}


//  --------------------------------------------------------------------------
//  Objects

//  One agent as the run met it.
static json_t *
s_agent_json (const agent_info_t *agent)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "name", s_json_text (agent->name));
    s_set (&builder, "endpoint", s_json_text (agent->endpoint));
    s_set (&builder, "hostname", s_json_text (agent->hostname));
    s_set (&builder, "kernel", s_json_text (agent->kernel));
    s_set (&builder, "cpus", json_integer (agent->cpus));
    s_set (&builder, "mem_bytes", s_json_count (agent->mem_bytes));
    s_set (&builder, "version", s_json_text (agent->version));
    s_set (&builder, "insecure", json_boolean (agent->insecure));
    s_set (&builder, "clock_offset_ns", json_integer (agent->clock_offset_ns));
    s_set (&builder, "clock_rtt_ns", json_integer (agent->clock_rtt_ns));
    s_set (&builder, "malformed_frames", s_json_count (agent->malformed_frames));
    return s_finish (&builder);
}

//  One class's figures within a test.
static json_t *
s_class_json (const class_summary_t *class_summary)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "streams", json_integer (class_summary->streams));
    s_set (&builder, "bytes", s_json_count (class_summary->bytes));
    s_set (&builder, "combined_mbps", s_json_rate (class_summary->combined_mbps));
    s_set (&builder, "notation", s_json_text (class_summary->notation));
    s_set_latency (&builder, &class_summary->latency);
    return s_finish (&builder);
}

//  A test's summary, every field of test_summary_t.
static json_t *
s_summary_json (const test_summary_t *summary)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "streams", json_integer (summary->streams));
    s_set (&builder, "hosts", json_integer (summary->hosts));
    s_set (&builder, "failed_streams", json_integer (summary->failed_streams));
    s_set (&builder, "lost_streams", json_integer (summary->lost_streams));
    //  A stream that failed, was aborted or was lost: the figures are
    //  over what the others did, and what it did until then.
    s_set (&builder, "partial", json_boolean (summary->failed_streams > 0));
    s_set (&builder, "bytes", s_json_count (summary->bytes));
    s_set (&builder, "first_start_ns", json_integer (summary->first_start_ns));
    s_set (&builder, "last_end_ns", json_integer (summary->last_end_ns));
    s_set (&builder, "combined_mbps", s_json_rate (summary->combined_mbps));
    s_set (&builder, "combined_ops_per_s", s_json_rate (summary->combined_ops_per_s));
    s_set (&builder, "all_running_mbps", s_json_rate (summary->all_running_mbps));
    s_set (&builder, "all_running_ns", json_integer (summary->all_running_ns));
    s_set (&builder, "host_skew_ns", json_integer (summary->host_skew_ns));
    s_set (&builder, "stream_skew_ns", json_integer (summary->stream_skew_ns));
    s_set (&builder, "clock_uncertainty_ns", json_integer (summary->clock_uncertainty_ns));
    s_set (&builder, "disk", s_class_json (&summary->disk));
    s_set (&builder, "network", s_class_json (&summary->network));
    s_set (&builder, "hosts_measured", json_integer (summary->hosts_measured));
    s_set (&builder, "usr_pct", s_json_rate (summary->usr_pct));
    s_set (&builder, "sys_pct", s_json_rate (summary->sys_pct));
    s_set (&builder, "iowait_pct", s_json_rate (summary->iowait_pct));
    //  Only when measured: the key is new, and results without it stay
    //  as they were.
    if (isfinite (summary->latency_p99_ns))
        s_set (&builder, "latency_p99_ns", json_real (summary->latency_p99_ns));
    s_set (&builder, "end_skew_ns", json_integer (summary->end_skew_ns));
    bool ok;
    json_t *stop = stop_summary_json (&summary->stop, &ok);
    s_set_optional (&builder, "stop", stop, ok);
    json_t *depth = depth_summary_json (summary, &ok);
    s_set_optional (&builder, "depth", depth, ok);
    json_t *latency = latency_sets_json (summary->latency, &ok);
    s_set_optional (&builder, "latency", latency, ok);
    return s_finish (&builder);
}

//  One host over a test: its shares of CPU time, and every raw counter
//  of its HOST message.
static json_t *
s_host_json (const host_result_t *host)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "agent", s_json_text (host->agent));
    s_set (&builder, "received", json_boolean (host->received));
    s_set (&builder, "window_start_ns", json_integer (host->window_start_ns));
    s_set (&builder, "window_end_ns", json_integer (host->window_end_ns));
    s_set (&builder, "settle_end_ns", json_integer (host->settle_end_ns));
    s_set (&builder, "usr_pct", s_json_rate (host->usr_pct));
    s_set (&builder, "sys_pct", s_json_rate (host->sys_pct));
    s_set (&builder, "iowait_pct", s_json_rate (host->iowait_pct));
    s_set (&builder, "idle_pct", s_json_rate (host->idle_pct));
    s_set (&builder, "stream_bytes", s_json_count (host->stream_bytes));
#define S_SET_COUNTER(name) s_set (&builder, #name, s_json_count (host->counters.name));
    MSG_HOST_COUNTERS (S_SET_COUNTER)
#undef S_SET_COUNTER
    s_set_latency (&builder, &host->latency);
    return s_finish (&builder);
}

//  One warning.
static json_t *
s_warning_json (const warning_t *warning)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "kind", s_json_text (warning->kind));
    s_set (&builder, "agent", s_json_text (warning->agent));
    s_set (&builder, "text", s_json_text (warning->text));
    return s_finish (&builder);
}

//  One point of a monitor's series: the counters as the agent read them.
static json_t *
s_monitor_point_json (const msg_monitor_t *point)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "t_ns", json_integer (point->t_ns));
#define S_SET_COUNTER(name) s_set (&builder, #name, s_json_count (point->name));
    MSG_MONITOR_COUNTERS (S_SET_COUNTER)
#undef S_SET_COUNTER
    return s_finish (&builder);
}

//  One monitor: its figures over the test and its whole series.
static json_t *
s_monitor_json (const monitor_result_t *monitor)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "agent", s_json_text (monitor->agent));
    s_set (&builder, "job", s_json_text (monitor->job));
    s_set (&builder, "usr_pct", s_json_rate (monitor->usr_pct));
    s_set (&builder, "sys_pct", s_json_rate (monitor->sys_pct));
    s_set (&builder, "iowait_pct", s_json_rate (monitor->iowait_pct));
    s_set (&builder, "disk_read_mbps", s_json_rate (monitor->disk_read_mbps));
    s_set (&builder, "disk_write_mbps", s_json_rate (monitor->disk_write_mbps));
    s_set (&builder, "nfsd_read_mbps", s_json_rate (monitor->nfsd_read_mbps));
    s_set (&builder, "nfsd_write_mbps", s_json_rate (monitor->nfsd_write_mbps));
    s_set (&builder, "max_gap_ns", json_integer (monitor->max_gap_ns));
    json_t *points = json_array ();
    for (size_t nbr = 0; points && nbr < monitor->point_count; nbr++)
        if (json_array_append_new (points, s_monitor_point_json (&monitor->points [nbr])) < 0)
            builder.ok = false;
    s_set (&builder, "points", points);
    return s_finish (&builder);
}

//  Statistics of one figure over iterations.
static json_t *
s_stats_json (const aggregate_stats_t *stats)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "count", json_integer ((json_int_t) stats->count));
    s_set (&builder, "min", s_json_rate (stats->min));
    s_set (&builder, "median", s_json_rate (stats->median));
    s_set (&builder, "max", s_json_rate (stats->max));
    s_set (&builder, "mean", s_json_rate (stats->mean));
    s_set (&builder, "stddev", s_json_rate (stats->stddev));
    return s_finish (&builder);
}

//  The iterations of every test name, first run apart, in the order the
//  tests first ran. Derived from the tests' summaries, for programs.
static json_t *
s_iterations_json (const run_result_t *run)
{
    json_t *array = json_array ();
    for (size_t t = 0; array && t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        if (test->iteration != 1)
            continue;
        aggregate_iterations_t it = aggregate_iterations (run, test->name);
        builder_t builder = s_builder ();
        if (!builder.ok)
            break;
        s_set (&builder, "test", s_json_text (test->name));
        //  A test of operations counts them per second, and says so.
        s_set (&builder, it.rate_ops? "first_ops_per_s": "first_mbps", s_json_rate (it.first_mbps));
        s_set (&builder, "rest", s_stats_json (&it.rest));
        s_set (&builder, "rest_sys_pct", s_stats_json (&it.rest_sys_pct));
        if (json_array_append_new (array, s_finish (&builder)) < 0) {
            json_decref (array);
            return NULL;
        }
    }
    return array;
}

//  One stream: identity, figures, rates and the number of its samples
//  (the samples themselves go to the JSON lines file).
static json_t *
s_stream_json (const stream_result_t *stream)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "agent", s_json_text (stream->agent));
    s_set (&builder, "job", s_json_text (stream->job));
    s_set (&builder, "class", json_string (stream->job_class == CLASS_NETWORK? "network": "disk"));
    s_set (&builder, "index", json_integer (stream->index));
    s_set (&builder, "path", s_json_text (stream->path? stream->path: ""));
    s_set (&builder, "finished", json_boolean (stream->finished));
    s_set (&builder, "lost", json_boolean (stream->lost));
    s_set (&builder, "bytes", s_json_count (stream->bytes));
    s_set (&builder, "reads", s_json_count (stream->reads));
    s_set (&builder, "writes", s_json_count (stream->writes));
    s_set (&builder, "fsyncs", s_json_count (stream->fsyncs));
    s_set (&builder, "reads_data", json_boolean (stream->reads_data));
    s_set (&builder, "cold", json_boolean (stream->cold));
    s_set (&builder, "bs_bytes", s_json_count (stream->bs_bytes));
    //  No RESULT: bytes are its last sample's, a lower bound, taken then.
    s_set (&builder, "bytes_from_sample", json_boolean (stream->bytes_sampled));
    s_set (&builder, "sampled_ns", json_integer (stream->sampled_ns));
    s_set (&builder, "start_ns", json_integer (stream->start_ns));
    s_set (&builder, "stop_ns", json_integer (stream->stop_ns));
    s_set (&builder, "last_issue_ns", json_integer (stream->last_issue_ns));
    s_set (&builder, "last_write_ns", json_integer (stream->last_write_ns));
    s_set (&builder, "end_ns", json_integer (stream->end_ns));
    bool ok;
    json_t *depth = depth_stream_json (stream, &ok);
    s_set_optional (&builder, "depth", depth, ok);
    s_set (&builder, "rate_mbps", s_json_rate (aggregate_stream_rate_mbps (stream)));
    s_set (&builder, "write_rate_mbps", s_json_rate (aggregate_stream_write_rate_mbps (stream)));
    s_set (&builder, "usr_s", json_real ((double) stream->usr_ns / NS_PER_SEC));
    s_set (&builder, "sys_s", json_real ((double) stream->sys_ns / NS_PER_SEC));
    //  The exact figures too, so that a report rendered again from this
    //  file rounds the same numbers as the first one did.
    s_set (&builder, "usr_ns", json_integer (stream->usr_ns));
    s_set (&builder, "sys_ns", json_integer (stream->sys_ns));
    s_set (&builder, "clock_uncertainty_ns", json_integer (stream->clock_uncertainty_ns));
    s_set (&builder, "error", s_json_text (stream->error? stream->error: ""));
    s_set (&builder, "samples", s_json_count (stream->sample_count));
    s_set (&builder, "direct", json_boolean (stream->direct));
    s_set (&builder, "fsync", json_string (jobspec_fsync_name (stream->fsync_mode)));
    s_set (&builder, "sys_s_per_gb", s_json_rate (aggregate_stream_sys_s_per_gb (stream)));
    json_t *latency = latency_stream_json (stream, &ok);
    s_set_optional (&builder, "latency", latency, ok);
    return s_finish (&builder);
}

//  One run of one test with its summary and its streams; unless whole,
//  its streams and hosts are left empty for the writer to fill.
static json_t *
s_test_json (const test_result_t *test, bool whole)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "name", s_json_text (test->name));
    s_set (&builder, "test", s_json_text (test->test [0]? test->test: test->name));
    s_set (&builder, "phase", s_json_text (test->phase));
    s_set (&builder, "phase_index", json_integer (test->phase_index));
    s_set (&builder, "rate", s_json_text (test->rate_requests? "requests":
                                          test->rate_ops? "ops": "bytes"));
    s_set (&builder, "workload", s_json_text (test->workload));
    s_set (&builder, "bound", s_json_text (test->bound));
    s_set (&builder, "laid_out_bytes", s_json_count (test->laid_out_bytes));
    s_set (&builder, "laid_out_ns", json_integer (test->laid_out_ns));
    s_set (&builder, "iteration", json_integer (test->iteration));
    s_set (&builder, "announced_utc", s_json_utc (test->announced_wall_ns));
    s_set (&builder, "announced_wall_ns", json_integer (test->announced_wall_ns));
    s_set (&builder, "summary", s_summary_json (&test->summary));
    json_t *streams = json_array ();
    for (size_t nbr = 0; whole && streams && nbr < test->stream_count; nbr++)
        if (json_array_append_new (streams, s_stream_json (&test->streams [nbr])) < 0)
            builder.ok = false;
    s_set (&builder, "streams", streams);
    json_t *hosts = json_array ();
    for (size_t nbr = 0; whole && hosts && nbr < test->host_count; nbr++)
        if (json_array_append_new (hosts, s_host_json (&test->hosts [nbr])) < 0)
            builder.ok = false;
    s_set (&builder, "hosts", hosts);
    json_t *warnings = json_array ();
    for (size_t nbr = 0; warnings && nbr < test->warning_count; nbr++)
        if (json_array_append_new (warnings, s_warning_json (&test->warnings [nbr])) < 0)
            builder.ok = false;
    s_set (&builder, "warnings", warnings);
    json_t *monitors = json_array ();
    for (size_t nbr = 0; monitors && nbr < test->monitor_count; nbr++)
        if (json_array_append_new (monitors, s_monitor_json (&test->monitors [nbr])) < 0)
            builder.ok = false;
    s_set (&builder, "monitors", monitors);
    return s_finish (&builder);
}

//  The whole results document.
static json_t *
s_run_json (const run_result_t *run)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "iofleet_version", json_string (IOFLEET_VERSION));
    s_set (&builder, "protocol_version", json_integer (IOFLEET_PROTOCOL_VERSION));
    s_set (&builder, "scenario", s_json_text (run->scenario_path));
    s_set (&builder, "label", s_json_text (run->label));
    s_set (&builder, "started_utc", s_json_utc (run->started_wall_ns));
    s_set (&builder, "started_wall_ns", json_integer (run->started_wall_ns));
    s_set (&builder, "units", json_string (UNITS_TEXT));
    s_set (&builder, "display_units", json_string (aggregate_units_name (run->units)));
    json_t *agents = json_array ();
    for (size_t nbr = 0; agents && nbr < run->agent_count; nbr++)
        if (json_array_append_new (agents, s_agent_json (&run->agents [nbr])) < 0)
            builder.ok = false;
    s_set (&builder, "agents", agents);
    json_t *tests = json_array ();
    for (size_t nbr = 0; tests && nbr < run->test_count; nbr++)
        if (json_array_append_new (tests, s_test_json (&run->tests [nbr], true)) < 0)
            builder.ok = false;
    s_set (&builder, "tests", tests);
    s_set (&builder, "iterations", s_iterations_json (run));
    return s_finish (&builder);
}


//  --------------------------------------------------------------------------
//  Writers

//  The results document as indented JSON text.
char *
results_json_text (const run_result_t *run)
{
    assert (run);
    json_t *root = s_run_json (run);
    if (!root)
        return NULL;
    char *body = json_dumps (root, JSON_INDENT (2));
    json_decref (root);
    if (!body)
        return NULL;
    //  A text file ends in a newline; jansson's text does not.
    char *text = NULL;
    if (asprintf (&text, "%s\n", body) < 0)
        text = NULL;
    free (body);
    return text;
}

//  Writers of one element of the arrays a document streams.
static int
s_write_stream (FILE *out, int depth, const void *items, size_t nbr)
{
    return json_stream_value (out, depth, s_stream_json (&((const stream_result_t *) items) [nbr]));
}

static int
s_write_host (FILE *out, int depth, const void *items, size_t nbr)
{
    return json_stream_value (out, depth, s_host_json (&((const host_result_t *) items) [nbr]));
}

static int
s_write_test (FILE *out, int depth, const void *items, size_t nbr)
{
    const test_result_t *test = &((const test_result_t *) items) [nbr];
    const json_stream_array_t arrays [] = {
        { "streams", test->stream_count, s_write_stream, test->streams },
        { "hosts", test->host_count, s_write_host, test->hosts }
    };
    return json_stream_object (out, depth, s_test_json (test, false), arrays, 2);
}

//  Print the results document, the same text as results_json_text, one
//  stream or host at a time: a fleet's run holds thousands of streams
//  per test, and the tree of a test would be many times its text.
int
results_json_write (const run_result_t *run, FILE *out)
{
    assert (run);
    assert (out);
    run_result_t header = *run;
    header.test_count = 0;
    json_t *root = s_run_json (&header);
    //  The iterations are the whole run's, not the header's.
    if (root && json_object_set_new (root, "iterations", s_iterations_json (run)) < 0) {
        json_decref (root);
        root = NULL;
    }
    const json_stream_array_t tests = { "tests", run->test_count, s_write_test, run->tests };
    if (json_stream_object (out, 0, root, &tests, 1) || fputc ('\n', out) == EOF)
        return -1;
    return ferror (out)? -1: 0;
}

//  A string as a JSON literal with its quotes, for the caller to free.
static char *
s_json_literal (const char *text)
{
    json_t *value = s_json_text (text);
    if (!value)
        return NULL;
    char *literal = json_dumps (value, JSON_ENCODE_ANY);
    json_decref (value);
    return literal;
}

//  Append a test's samples as JSON lines.
int
results_json_samples_append (const test_result_t *test, FILE *out)
{
    assert (test);
    assert (out);
    //  The names are encoded once per stream, and each sample prints two
    //  numbers after them: a long test with many samples stays cheap.
    char *test_name = s_json_literal (test->name);
    if (!test_name)
        return -1;
    int rc = 0;
    for (size_t nbr = 0; nbr < test->stream_count && rc == 0; nbr++) {
        const stream_result_t *stream = &test->streams [nbr];
        char *agent = s_json_literal (stream->agent);
        char *job = s_json_literal (stream->job);
        if (!agent || !job)
            rc = -1;
        for (size_t sample_nbr = 0; rc == 0 && sample_nbr < stream->sample_count; sample_nbr++) {
            const sample_point_t *sample = &stream->samples [sample_nbr];
            if (fprintf (out, "{\"test\":%s,\"iteration\":%" PRIu32 ",\"agent\":%s,\"job\":%s,"
                              "\"stream\":%" PRIu32 ",\"t_ns\":%" PRId64 ",\"bytes\":%" PRIu64 "}\n",
                         test_name, test->iteration, agent, job,
                         stream->index, sample->t_ns, sample->bytes) < 0)
                rc = -1;
        }
        free (agent);
        free (job);
    }
    free (test_name);
    if (ferror (out))
        rc = -1;
    return rc;
}
