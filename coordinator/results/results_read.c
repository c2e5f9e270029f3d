/*  coordinator/results/results_read.c: a results file read back into a run
    result, for `iofleet report` to render a finished run again, and for
    `iofleet compare` and `iofleet db import`: one reader, so that a file
    one of them refuses none accepts; see report.h.

    Everything the writers print is taken from the file as written: the
    summaries are not computed again from the streams, so that a report
    rendered from the file says what the run said. Every value is checked
    for its type and its bounds, and the first one that is wrong is named
    with its place in the document ("results.json: tests[2].streams[0].bytes:
    expected an integer"), because a results file is input, not something
    this program vouches for.
*/
#include "results_file.h"
#include "../report/report.h"
#include "jsonread.h"
#include "latency_json.h"
#include "depth_json.h"
#include "stop_json.h"
#include "../../proto/workload.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"

#include <assert.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  --------------------------------------------------------------------------
//  Objects

//  One agent.
static void
s_read_agent (jsonread_t *self, json_t *object, agent_info_t *agent)
{
    jsonread_string (self, object, "name", agent->name, sizeof agent->name);
    jsonread_string (self, object, "endpoint", agent->endpoint, sizeof agent->endpoint);
    jsonread_string (self, object, "hostname", agent->hostname, sizeof agent->hostname);
    jsonread_string (self, object, "kernel", agent->kernel, sizeof agent->kernel);
    agent->cpus = (uint32_t) jsonread_integer (self, object, "cpus", 0, UINT32_MAX);
    agent->mem_bytes = (uint64_t) jsonread_integer (self, object, "mem_bytes", 0, INT64_MAX);
    jsonread_string (self, object, "version", agent->version, sizeof agent->version);
    agent->insecure = jsonread_boolean (self, object, "insecure");
    agent->clock_offset_ns = jsonread_integer (self, object, "clock_offset_ns", INT64_MIN, INT64_MAX);
    agent->clock_rtt_ns = jsonread_integer (self, object, "clock_rtt_ns", INT64_MIN, INT64_MAX);
    //  Files written before frames were counted per agent lack the key.
    if (json_object_get (object, "malformed_frames"))
        agent->malformed_frames = (uint64_t) jsonread_integer (self, object, "malformed_frames",
                                                        0, INT64_MAX);
}

//  One class's figures, under the summary's place.
static void
s_read_class (jsonread_t *self, json_t *summary, const char *key, class_summary_t *figures)
{
    json_t *object = jsonread_object (self, summary, key);
    if (!object)
        return;
    char saved [sizeof self->place];
    memcpy (saved, self->place, sizeof saved);
    snprintf (self->place, sizeof self->place, "%s.%s", saved, key);
    figures->streams = (uint32_t) jsonread_integer (self, object, "streams", 0, UINT32_MAX);
    figures->bytes = (uint64_t) jsonread_integer (self, object, "bytes", 0, INT64_MAX);
    figures->combined_mbps = jsonread_rate (self, object, "combined_mbps");
    jsonread_string (self, object, "notation", figures->notation, sizeof figures->notation);
    latency_summary_read (self, object, &figures->latency);
    memcpy (self->place, saved, sizeof saved);
}

//  A test's summary, every field as written.
static void
s_read_summary (jsonread_t *self, json_t *test, test_summary_t *summary)
{
    json_t *object = jsonread_object (self, test, "summary");
    if (!object)
        return;
    char saved [sizeof self->place];
    memcpy (saved, self->place, sizeof saved);
    snprintf (self->place, sizeof self->place, "%s.summary", saved);
    summary->streams = (uint32_t) jsonread_integer (self, object, "streams", 0, UINT32_MAX);
    summary->hosts = (uint32_t) jsonread_integer (self, object, "hosts", 0, UINT32_MAX);
    summary->failed_streams = (uint32_t) jsonread_integer (self, object, "failed_streams", 0, UINT32_MAX);
    summary->lost_streams = (uint32_t) jsonread_integer (self, object, "lost_streams", 0, UINT32_MAX);
    summary->bytes = (uint64_t) jsonread_integer (self, object, "bytes", 0, INT64_MAX);
    summary->first_start_ns = jsonread_integer (self, object, "first_start_ns", INT64_MIN, INT64_MAX);
    summary->last_end_ns = jsonread_integer (self, object, "last_end_ns", INT64_MIN, INT64_MAX);
    summary->combined_mbps = jsonread_rate (self, object, "combined_mbps");
    summary->combined_ops_per_s = json_object_get (object, "combined_ops_per_s")?
                                  jsonread_rate (self, object, "combined_ops_per_s"): NAN;
    summary->all_running_mbps = jsonread_rate (self, object, "all_running_mbps");
    summary->all_running_ns = jsonread_integer (self, object, "all_running_ns", INT64_MIN, INT64_MAX);
    summary->host_skew_ns = jsonread_integer (self, object, "host_skew_ns", INT64_MIN, INT64_MAX);
    summary->stream_skew_ns = jsonread_integer (self, object, "stream_skew_ns", INT64_MIN, INT64_MAX);
    summary->clock_uncertainty_ns = jsonread_integer (self, object, "clock_uncertainty_ns",
                                               INT64_MIN, INT64_MAX);
    s_read_class (self, object, "disk", &summary->disk);
    s_read_class (self, object, "network", &summary->network);
    summary->hosts_measured = (uint32_t) jsonread_integer (self, object, "hosts_measured", 0, UINT32_MAX);
    summary->usr_pct = jsonread_pct (self, object, "usr_pct");
    summary->sys_pct = jsonread_pct (self, object, "sys_pct");
    summary->iowait_pct = jsonread_pct (self, object, "iowait_pct");
    summary->latency_p99_ns = jsonread_optional (self, object, "latency_p99_ns", 0, DBL_MAX);
    if (json_object_get (object, "end_skew_ns"))
        summary->end_skew_ns = jsonread_integer (self, object, "end_skew_ns", INT64_MIN, INT64_MAX);
    stop_summary_read (self, object, &summary->stop);
    depth_summary_read (self, object, summary);
    latency_sets_read (self, object, summary->latency);
    memcpy (self->place, saved, sizeof saved);
}

//  A raw counter: an integer from 0 up.
static uint64_t
s_counter (jsonread_t *self, json_t *object, const char *key)
{
    return (uint64_t) jsonread_integer (self, object, key, 0, INT64_MAX);
}

//  One host over a test.
static void
s_read_host (jsonread_t *self, json_t *object, host_result_t *host)
{
    jsonread_string (self, object, "agent", host->agent, sizeof host->agent);
    host->received = jsonread_boolean (self, object, "received");
    host->window_start_ns = jsonread_integer (self, object, "window_start_ns", INT64_MIN, INT64_MAX);
    host->window_end_ns = jsonread_integer (self, object, "window_end_ns", INT64_MIN, INT64_MAX);
    host->settle_end_ns = jsonread_integer (self, object, "settle_end_ns", INT64_MIN, INT64_MAX);
    host->usr_pct = jsonread_pct (self, object, "usr_pct");
    host->sys_pct = jsonread_pct (self, object, "sys_pct");
    host->iowait_pct = jsonread_pct (self, object, "iowait_pct");
    host->idle_pct = jsonread_pct (self, object, "idle_pct");
    host->stream_bytes = s_counter (self, object, "stream_bytes");
#define S_READ_COUNTER(name) host->counters.name = s_counter (self, object, #name);
    MSG_HOST_COUNTERS (S_READ_COUNTER)
#undef S_READ_COUNTER
    latency_summary_read (self, object, &host->latency);
}

//  One warning.
static void
s_read_warning (jsonread_t *self, json_t *object, warning_t *warning)
{
    jsonread_string (self, object, "kind", warning->kind, sizeof warning->kind);
    jsonread_string (self, object, "agent", warning->agent, sizeof warning->agent);
    jsonread_string (self, object, "text", warning->text, sizeof warning->text);
}

//  One point of a monitor's series.
static void
s_read_monitor_point (jsonread_t *self, json_t *object, msg_monitor_t *point)
{
    point->t_ns = jsonread_integer (self, object, "t_ns", INT64_MIN, INT64_MAX);
#define S_READ_COUNTER(name) point->name = s_counter (self, object, #name);
    MSG_MONITOR_COUNTERS (S_READ_COUNTER)
#undef S_READ_COUNTER
}

//  One monitor with its series.
static void
s_read_monitor (jsonread_t *self, json_t *object, monitor_result_t *monitor)
{
    jsonread_string (self, object, "agent", monitor->agent, sizeof monitor->agent);
    jsonread_string (self, object, "job", monitor->job, sizeof monitor->job);
    monitor->usr_pct = jsonread_pct (self, object, "usr_pct");
    monitor->sys_pct = jsonread_pct (self, object, "sys_pct");
    monitor->iowait_pct = jsonread_pct (self, object, "iowait_pct");
    monitor->disk_read_mbps = jsonread_rate (self, object, "disk_read_mbps");
    monitor->disk_write_mbps = jsonread_rate (self, object, "disk_write_mbps");
    monitor->nfsd_read_mbps = jsonread_rate (self, object, "nfsd_read_mbps");
    monitor->nfsd_write_mbps = jsonread_rate (self, object, "nfsd_write_mbps");
    monitor->max_gap_ns = jsonread_integer (self, object, "max_gap_ns", INT64_MIN, INT64_MAX);
    size_t count;
    json_t *points = jsonread_array (self, object, "points", &count);
    if (!points || self->failed)
        return;
    char parent [sizeof self->place];
    memcpy (parent, self->place, sizeof parent);
    for (size_t nbr = 0; nbr < count && !self->failed; nbr++) {
        jsonread_enter (self, parent, "points", nbr);
        json_t *point_json = json_array_get (points, nbr);
        msg_monitor_t point = { .test_id = 0 };
        if (!json_is_object (point_json))
            jsonread_fail (self, NULL, "expected an object");
        else
            s_read_monitor_point (self, point_json, &point);
        if (!self->failed && monitor_result_add_point (monitor, &point))
            jsonread_fail (self, NULL, "%s", strerror (ENOMEM));
    }
    memcpy (self->place, parent, sizeof parent);
}

//  An array of objects under key into a new array of `size`-byte elements
//  read by `read`; *array and *count get them.
typedef void (s_element_fn) (jsonread_t *self, json_t *object, void *element);

static void
s_read_objects (jsonread_t *self, json_t *parent_object, const char *key, size_t size,
                s_element_fn *read, void **array, size_t *count)
{
    json_t *values = jsonread_array (self, parent_object, key, count);
    if (!values || self->failed)
        return;
    *array = calloc (*count? *count: 1, size);
    if (!*array) {
        jsonread_fail (self, key, "%s", strerror (ENOMEM));
        *count = 0;
        return;
    }
    char parent [sizeof self->place];
    memcpy (parent, self->place, sizeof parent);
    for (size_t nbr = 0; nbr < *count && !self->failed; nbr++) {
        jsonread_enter (self, parent, key, nbr);
        json_t *value = json_array_get (values, nbr);
        if (!json_is_object (value))
            jsonread_fail (self, NULL, "expected an object");
        else
            read (self, value, (char *) *array + nbr * size);
    }
    memcpy (self->place, parent, sizeof parent);
}

static void
s_host_element (jsonread_t *self, json_t *object, void *element)
{
    s_read_host (self, object, (host_result_t *) element);
}

static void
s_monitor_element (jsonread_t *self, json_t *object, void *element)
{
    s_read_monitor (self, object, (monitor_result_t *) element);
}

//  CPU seconds: the exact _ns key when the file has it, else the _s one
//  that files written before it carry.
static int64_t
s_cpu_ns (jsonread_t *self, json_t *object, const char *key_ns, const char *key_s)
{
    if (json_object_get (object, key_ns))
        return jsonread_integer (self, object, key_ns, INT64_MIN, INT64_MAX);
    json_t *value = jsonread_member (self, object, key_s);
    if (value && !json_is_number (value)) {
        jsonread_fail (self, key_s, "expected a number");
        return 0;
    }
    return value? (int64_t) llround (json_number_value (value) * NS_PER_SEC): 0;
}

//  One stream; its samples come later, from the samples file.
static void
s_read_stream (jsonread_t *self, json_t *object, stream_result_t *stream)
{
    jsonread_string (self, object, "agent", stream->agent, sizeof stream->agent);
    jsonread_string (self, object, "job", stream->job, sizeof stream->job);
    char job_class [16];
    jsonread_string (self, object, "class", job_class, sizeof job_class);
    if (!self->failed && strcmp (job_class, "disk") && strcmp (job_class, "network"))
        jsonread_fail (self, "class", "\"%s\" is neither disk nor network", job_class);
    stream->job_class = strcmp (job_class, "network") == 0? CLASS_NETWORK: CLASS_DISK;
    stream->index = (uint32_t) jsonread_integer (self, object, "index", 0, UINT32_MAX);
    char path [JOB_PATH_MAX + 1];
    jsonread_string (self, object, "path", path, sizeof path);
    if (stream_result_set_path (stream, path))
        jsonread_fail (self, "path", "no memory for it");
    stream->finished = jsonread_boolean (self, object, "finished");
    stream->lost = jsonread_boolean (self, object, "lost");
    stream->bytes = (uint64_t) jsonread_integer (self, object, "bytes", 0, INT64_MAX);
    if (json_object_get (object, "reads")) {
        stream->reads = (uint64_t) jsonread_integer (self, object, "reads", 0, INT64_MAX);
        stream->writes = (uint64_t) jsonread_integer (self, object, "writes", 0, INT64_MAX);
        stream->fsyncs = (uint64_t) jsonread_integer (self, object, "fsyncs", 0, INT64_MAX);
        stream->reads_data = jsonread_boolean (self, object, "reads_data");
        stream->cold = jsonread_boolean (self, object, "cold");
        stream->bs_bytes = (uint64_t) jsonread_integer (self, object, "bs_bytes", 0, INT64_MAX);
    }
    //  Files written before streams without a RESULT kept their last
    //  sample's bytes have neither key.
    if (json_object_get (object, "bytes_from_sample")) {
        stream->bytes_sampled = jsonread_boolean (self, object, "bytes_from_sample");
        stream->sampled_ns = jsonread_integer (self, object, "sampled_ns", INT64_MIN, INT64_MAX);
    }
    stream->start_ns = jsonread_integer (self, object, "start_ns", INT64_MIN, INT64_MAX);
    //  Files from before time-bound streams said when they stopped lack
    //  these two.
    if (json_object_get (object, "last_issue_ns")) {
        stream->stop_ns = jsonread_integer (self, object, "stop_ns", 0, INT64_MAX);
        stream->last_issue_ns = jsonread_integer (self, object, "last_issue_ns",
                                                  INT64_MIN, INT64_MAX);
    }
    stream->last_write_ns = jsonread_integer (self, object, "last_write_ns", INT64_MIN, INT64_MAX);
    stream->end_ns = jsonread_integer (self, object, "end_ns", INT64_MIN, INT64_MAX);
    depth_stream_read (self, object, stream);
    stream->usr_ns = s_cpu_ns (self, object, "usr_ns", "usr_s");
    stream->sys_ns = s_cpu_ns (self, object, "sys_ns", "sys_s");
    stream->clock_uncertainty_ns = jsonread_integer (self, object, "clock_uncertainty_ns",
                                              INT64_MIN, INT64_MAX);
    char error [MSG_TEXT_MAX + 1];
    jsonread_string (self, object, "error", error, sizeof error);
    if (stream_result_set_error (stream, error))
        jsonread_fail (self, "error", "no memory for it");
    stream->direct = jsonread_boolean (self, object, "direct");
    char fsync [16];
    jsonread_string (self, object, "fsync", fsync, sizeof fsync);
    stream->fsync_mode = -1;
    for (int mode = FSYNC_NONE; mode <= FSYNC_CLOSE; mode++)
        if (strcmp (fsync, jobspec_fsync_name (mode)) == 0)
            stream->fsync_mode = mode;
    if (!self->failed && stream->fsync_mode < 0)
        jsonread_fail (self, "fsync", "\"%s\" is not none, end or close", fsync);
    latency_stream_read (self, object, stream);
}

//  One test with its streams; place is set to "tests[N]".
static void
s_read_test (jsonread_t *self, json_t *object, test_result_t *test)
{
    jsonread_string (self, object, "name", test->name, sizeof test->name);
    //  Files from before phases have neither of these: a test is its row.
    if (json_object_get (object, "phase")) {
        jsonread_string (self, object, "test", test->test, sizeof test->test);
        jsonread_string (self, object, "phase", test->phase, sizeof test->phase);
        test->phase_index = (uint32_t) jsonread_integer (self, object, "phase_index", 0,
                                                  WORKLOAD_PHASES_MAX - 1);
        char rate [16];
        jsonread_string (self, object, "rate", rate, sizeof rate);
        test->rate_requests = strcmp (rate, "requests") == 0;
        test->rate_ops = strcmp (rate, "ops") == 0 || test->rate_requests;
        if (!self->failed && !test->rate_ops && strcmp (rate, "bytes"))
            jsonread_fail (self, "rate", "\"%s\" is none of bytes, ops and requests", rate);
        jsonread_string (self, object, "workload", test->workload, sizeof test->workload);
        if (json_object_get (object, "bound"))
            jsonread_string (self, object, "bound", test->bound, sizeof test->bound);
        test->laid_out_bytes = (uint64_t) jsonread_integer (self, object, "laid_out_bytes", 0, INT64_MAX);
        test->laid_out_ns = jsonread_integer (self, object, "laid_out_ns", 0, INT64_MAX);
    }
    else
        msg_strcpy (test->test, test->name, sizeof test->test);
    test->iteration = (uint32_t) jsonread_integer (self, object, "iteration", 1, UINT32_MAX);
    test->announced_wall_ns = jsonread_integer (self, object, "announced_wall_ns", INT64_MIN, INT64_MAX);
    s_read_summary (self, object, &test->summary);
    size_t count;
    json_t *streams = jsonread_array (self, object, "streams", &count);
    if (!streams || self->failed)
        return;
    test->streams = (stream_result_t *) calloc (count? count: 1, sizeof (stream_result_t));
    if (!test->streams) {
        jsonread_fail (self, "streams", "%s", strerror (ENOMEM));
        return;
    }
    test->stream_count = count;
    char parent [sizeof self->place];
    memcpy (parent, self->place, sizeof parent);
    for (size_t nbr = 0; nbr < count && !self->failed; nbr++) {
        jsonread_enter (self, parent, "streams", nbr);
        json_t *stream = json_array_get (streams, nbr);
        if (!json_is_object (stream))
            jsonread_fail (self, NULL, "expected an object");
        else
            s_read_stream (self, stream, &test->streams [nbr]);
        test->streams [nbr].ops_writes = test->rate_requests;
    }
    memcpy (self->place, parent, sizeof parent);
    if (self->failed)
        return;
    s_read_objects (self, object, "hosts", sizeof (host_result_t), s_host_element,
                    (void **) &test->hosts, &test->host_count);
    s_read_objects (self, object, "monitors", sizeof (monitor_result_t), s_monitor_element,
                    (void **) &test->monitors, &test->monitor_count);
    size_t warning_count;
    json_t *warnings = jsonread_array (self, object, "warnings", &warning_count);
    for (size_t nbr = 0; warnings && nbr < warning_count && !self->failed; nbr++) {
        if (test->warning_count == TEST_WARNINGS_MAX) {
            jsonread_fail (self, "warnings", "more than %d", TEST_WARNINGS_MAX);
            break;
        }
        jsonread_enter (self, parent, "warnings", nbr);
        json_t *warning = json_array_get (warnings, nbr);
        if (!json_is_object (warning))
            jsonread_fail (self, NULL, "expected an object");
        else
            s_read_warning (self, warning, &test->warnings [test->warning_count++]);
    }
    memcpy (self->place, parent, sizeof parent);
}

//  The whole document into run.
static void
s_read_run (jsonread_t *self, json_t *root, run_result_t *run)
{
    if (!json_is_object (root)) {
        jsonread_fail (self, NULL, "expected a JSON object at the top");
        return;
    }
    char units [16];
    jsonread_string (self, root, "display_units", units, sizeof units);
    run->units = strcmp (units, aggregate_units_name (UNITS_MIB)) == 0? UNITS_MIB: UNITS_MB;
    if (!self->failed && run->units == UNITS_MB && strcmp (units, aggregate_units_name (UNITS_MB)))
        jsonread_fail (self, "display_units", "\"%s\" is neither MB/s nor MiB/s", units);
    jsonread_string (self, root, "scenario", run->scenario_path, sizeof run->scenario_path);
    if (json_object_get (root, "label"))
        jsonread_string (self, root, "label", run->label, sizeof run->label);
    run->started_wall_ns = jsonread_integer (self, root, "started_wall_ns", INT64_MIN, INT64_MAX);
    size_t agent_count, test_count;
    json_t *agents = jsonread_array (self, root, "agents", &agent_count);
    json_t *tests = jsonread_array (self, root, "tests", &test_count);
    if (self->failed)
        return;
    run->agents = (agent_info_t *) calloc (agent_count? agent_count: 1, sizeof (agent_info_t));
    run->tests = (test_result_t *) calloc (test_count? test_count: 1, sizeof (test_result_t));
    if (!run->agents || !run->tests) {
        jsonread_fail (self, NULL, "%s", strerror (ENOMEM));
        return;
    }
    run->test_capacity = test_count? test_count: 1;
    for (size_t nbr = 0; nbr < agent_count && !self->failed; nbr++) {
        jsonread_enter (self, "", "agents", nbr);
        json_t *agent = json_array_get (agents, nbr);
        if (!json_is_object (agent))
            jsonread_fail (self, NULL, "expected an object");
        else
            s_read_agent (self, agent, &run->agents [nbr]);
        run->agent_count = nbr + 1;
    }
    for (size_t nbr = 0; nbr < test_count && !self->failed; nbr++) {
        jsonread_enter (self, "", "tests", nbr);
        json_t *test = json_array_get (tests, nbr);
        //  Counted before it is read, so that clearing the run on a
        //  failure halfway through frees what this test allocated.
        run->test_count = nbr + 1;
        if (!json_is_object (test))
            jsonread_fail (self, NULL, "expected an object");
        else
            s_read_test (self, test, &run->tests [nbr]);
    }
    self->place [0] = 0;
}


//  --------------------------------------------------------------------------
//  Samples

//  Where the last sample line went: lines of one stream come together,
//  so most lines find their stream here without a search.
typedef struct {
    test_result_t *test;            //  test of the last line, or NULL
    stream_result_t *stream;        //  its stream, or NULL
} sample_cache_t;

//  Whether a stream of a test is the one a line names.
static bool
s_is_stream (const test_result_t *test, const stream_result_t *stream, const char *test_name,
             uint32_t iteration, const char *agent, const char *job, uint32_t index)
{
    return test->iteration == iteration && stream->index == index
        && !strcmp (test->name, test_name) && !strcmp (stream->agent, agent)
        && !strcmp (stream->job, job);
}

//  The stream a sample line names, or NULL if the results do not hold it
//  (a test whose results were not written before the run stopped).
static stream_result_t *
s_find_stream (run_result_t *run, sample_cache_t *cache, const char *test_name,
               uint32_t iteration, const char *agent, const char *job, uint32_t index)
{
    if (cache->stream
    &&  s_is_stream (cache->test, cache->stream, test_name, iteration, agent, job, index))
        return cache->stream;
    for (size_t test_nbr = 0; test_nbr < run->test_count; test_nbr++) {
        test_result_t *test = &run->tests [test_nbr];
        for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
            stream_result_t *stream = &test->streams [nbr];
            if (s_is_stream (test, stream, test_name, iteration, agent, job, index)) {
                cache->test = test;
                cache->stream = stream;
                return stream;
            }
        }
    }
    return NULL;
}

//  One line of the samples file into its stream.
static void
s_read_sample (jsonread_t *self, json_t *line, run_result_t *run, sample_cache_t *cache)
{
    if (!json_is_object (line)) {
        jsonread_fail (self, NULL, "expected an object");
        return;
    }
    char test [JOB_NAME_MAX + 1], agent [JOB_NAME_MAX + 1], job [JOB_NAME_MAX + 1];
    jsonread_string (self, line, "test", test, sizeof test);
    uint32_t iteration = (uint32_t) jsonread_integer (self, line, "iteration", 1, UINT32_MAX);
    jsonread_string (self, line, "agent", agent, sizeof agent);
    jsonread_string (self, line, "job", job, sizeof job);
    uint32_t index = (uint32_t) jsonread_integer (self, line, "stream", 0, UINT32_MAX);
    int64_t t_ns = jsonread_integer (self, line, "t_ns", INT64_MIN, INT64_MAX);
    uint64_t bytes = (uint64_t) jsonread_integer (self, line, "bytes", 0, INT64_MAX);
    if (self->failed)
        return;
    stream_result_t *stream = s_find_stream (run, cache, test, iteration, agent, job, index);
    if (stream && stream_result_add_sample (stream, t_ns, bytes))
        jsonread_fail (self, NULL, "%s", strerror (ENOMEM));
}

//  The samples file beside the results file, if there is one.
static void
s_read_samples (jsonread_t *self, const char *results_path, run_result_t *run)
{
    const char *slash = strrchr (results_path, '/');
    char *path = NULL;
    if (asprintf (&path, "%.*ssamples.jsonl",
                  slash? (int) (slash - results_path + 1): 0, results_path) < 0) {
        jsonread_fail (self, NULL, "%s", strerror (ENOMEM));
        return;
    }
    FILE *in = fopen (path, "r");
    if (!in) {
        //  A results file copied away on its own (--json) has no samples:
        //  every report but the timelines can still be rendered.
        if (errno != ENOENT)
            jsonread_fail (self, NULL, "fopen(%s): %s", path, strerror (errno));
        free (path);
        return;
    }
    jsonread_t lines = { .file = path, .err = self->err, .errlen = self->errlen };
    char *text = NULL;
    size_t capacity = 0;
    size_t line_nbr = 0;
    sample_cache_t cache = { NULL, NULL };
    while (!lines.failed && getline (&text, &capacity, in) >= 0) {
        line_nbr++;
        if (strspn (text, " \t\r\n") == strlen (text))
            continue;
        snprintf (lines.place, sizeof lines.place, "line %zu", line_nbr);
        json_error_t error;
        json_t *line = json_loads (text, 0, &error);
        if (!line)
            jsonread_fail (&lines, NULL, "%s", error.text);
        else
            s_read_sample (&lines, line, run, &cache);
        json_decref (line);
    }
    if (!lines.failed && ferror (in))
        jsonread_fail (&lines, NULL, "read: %s", strerror (errno));
    self->failed = lines.failed;
    free (text);
    fclose (in);
    free (path);
}


//  --------------------------------------------------------------------------
//  Entry

//  Read results.json into run, without its samples.
int
results_read_no_samples (const char *path, run_result_t *run, char *err, size_t errlen)
{
    assert (path);
    assert (run);
    jsonread_t self = { .file = path, .err = err, .errlen = errlen };
    json_error_t error;
    json_t *root = json_load_file (path, 0, &error);
    if (!root) {
        if (err && errlen) {
            //  jansson says "unable to open" for a missing file; errno is
            //  clearer, and a syntax error gets its line and column.
            if (error.line < 0 && errno)
                snprintf (err, errlen, "%s: %s", path, strerror (errno));
            else
                snprintf (err, errlen, "%s:%d:%d: %s", path, error.line, error.column, error.text);
        }
        return -1;
    }
    s_read_run (&self, root, run);
    json_decref (root);
    if (self.failed) {
        run_result_clear (run);
        return -1;
    }
    return 0;
}

//  Read results.json and its samples into run.
int
results_read (const char *path, run_result_t *run, char *err, size_t errlen)
{
    if (results_read_no_samples (path, run, err, errlen))
        return -1;
    jsonread_t self = { .file = path, .err = err, .errlen = errlen };
    s_read_samples (&self, path, run);
    if (self.failed) {
        run_result_clear (run);
        return -1;
    }
    return 0;
}
