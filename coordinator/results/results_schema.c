/*  coordinator/results/results_schema.c: the tables of the results' fields;
    see results_schema.h (their flattening into columns is
    results_columns.c's).

    A row of a table reads as what it is: `{ .name = "bytes", .kind =
    FIELD_U64, RESULTS_AT (stream_result_t, bytes) }`. A figure that older
    results files lack is `.optional`; one the archive does not keep is
    `.not_archived`; one it gained later carries the schema version that
    added it in `.since` (ARCHIVE_SCHEMA_VERSION, archive.h, is the last).
*/
#include "results_schema.h"
#include "latency_json.h"
#include "stop_json.h"
#include "../numbers/aggregate.h"
#include "../numbers/latency.h"
#include "../../proto/clock.h"
#include "../../proto/workload.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define S_COUNT(rows) (sizeof (rows) / sizeof ((rows) [0]))
#define S_TABLE(table_name, rows) { .name = table_name, .fields = rows, .count = S_COUNT (rows) }


//  --------------------------------------------------------------------------
//  Custom fields

//  The run's units, in words: a constant of the file format.
static json_t *
s_units_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    (void) row;
    json_t *value = json_string ("MB/s = 10^6 bytes/s");
    *ok = value != NULL;
    return value;
}

//  The test a row belongs to: the row itself for a test without phases.
static json_t *
s_test_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    const test_result_t *test = (const test_result_t *) row;
    json_t *value = results_json_string (test->test [0]? test->test: test->name);
    *ok = value != NULL;
    return value;
}

//  Files from before phases lack it: a test is its row.
static void
s_test_read (jsonread_t *reader, json_t *object, void *row, const void *context)
{
    (void) context;
    test_result_t *test = (test_result_t *) row;
    if (json_object_get (object, "test"))
        jsonread_string (reader, object, "test", test->test, sizeof test->test);
    if (!test->test [0])
        msg_strcpy (test->test, test->name, sizeof test->test);
}

//  What a test's rate counts: bytes, operations (seeks) or requests.
static json_t *
s_rate_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    const test_result_t *test = (const test_result_t *) row;
    json_t *value = json_string (test->rate_requests? "requests": test->rate_ops? "ops": "bytes");
    *ok = value != NULL;
    return value;
}

static void
s_rate_read (jsonread_t *reader, json_t *object, void *row, const void *context)
{
    (void) context;
    test_result_t *test = (test_result_t *) row;
    if (!json_object_get (object, "rate"))
        return;                     //  files from before phases: bytes
    char rate [16];
    jsonread_string (reader, object, "rate", rate, sizeof rate);
    test->rate_requests = strcmp (rate, "requests") == 0;
    test->rate_ops = strcmp (rate, "ops") == 0 || test->rate_requests;
    if (!reader->failed && !test->rate_ops && strcmp (rate, "bytes"))
        jsonread_fail (reader, "rate", "\"%s\" is none of bytes, ops and requests", rate);
}

//  A stream that failed, was aborted or was lost: the figures are over
//  what the others did, and what it did until then.
static json_t *
s_partial_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    *ok = true;
    return json_boolean (((const test_summary_t *) row)->failed_streams > 0);
}

static json_t *
s_stop_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    return stop_summary_json (&((const test_summary_t *) row)->stop, ok);
}

static void
s_stop_read (jsonread_t *reader, json_t *object, void *row, const void *context)
{
    (void) context;
    stop_summary_read (reader, object, &((test_summary_t *) row)->stop);
}

static json_t *
s_latency_sets_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    return latency_sets_json (((const test_summary_t *) row)->latency, ok);
}

static void
s_latency_sets_read (jsonread_t *reader, json_t *object, void *row, const void *context)
{
    (void) context;
    latency_sets_read (reader, object, ((test_summary_t *) row)->latency);
}

static json_t *
s_stream_latency_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    return latency_stream_json ((const stream_result_t *) row, ok);
}

static void
s_stream_latency_read (jsonread_t *reader, json_t *object, void *row, const void *context)
{
    (void) context;
    latency_stream_read (reader, object, (stream_result_t *) row);
    latency_stream_fill ((stream_result_t *) row);
}

//  A stream of requests (randrw) in a test of bytes (beside a write)
//  says so: its rate is requests/s where its test's is MB/s. Files from
//  before mixed tests have the test's kind only.
static json_t *
s_stream_rate_write (const void *row, const void *context, bool *ok)
{
    const stream_result_t *stream = (const stream_result_t *) row;
    const test_result_t *test = (const test_result_t *) context;
    *ok = true;
    return stream->ops_writes && test && !test->rate_requests? json_string ("requests"): NULL;
}

static void
s_stream_rate_read (jsonread_t *reader, json_t *object, void *row, const void *context)
{
    stream_result_t *stream = (stream_result_t *) row;
    const test_result_t *test = (const test_result_t *) context;
    char rate [16] = "";
    if (json_object_get (object, "rate"))
        jsonread_string (reader, object, "rate", rate, sizeof rate);
    if (!reader->failed && rate [0] && strcmp (rate, "requests"))
        jsonread_fail (reader, "rate", "\"%s\" is not requests", rate);
    stream->ops_writes = (test && test->rate_requests) || rate [0];
}

//  A monitor's series, every point with its counters.
static json_t *
s_points_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    const monitor_result_t *monitor = (const monitor_result_t *) row;
    json_t *points = json_array ();
    *ok = points != NULL;
    for (size_t nbr = 0; *ok && nbr < monitor->point_count; nbr++) {
        json_t *point = json_object ();
        if (!point || results_json_fields (&results_monitor_point_table, &monitor->points [nbr],
                                           NULL, point)
        ||  json_array_append_new (points, point) < 0)
            *ok = false;
    }
    if (!*ok) {
        json_decref (points);
        return NULL;
    }
    return points;
}

static void
s_points_read (jsonread_t *reader, json_t *object, void *row, const void *context)
{
    (void) context;
    monitor_result_t *monitor = (monitor_result_t *) row;
    size_t count;
    json_t *points = jsonread_array (reader, object, "points", &count);
    if (!points || reader->failed)
        return;
    char parent [sizeof reader->place];
    memcpy (parent, reader->place, sizeof parent);
    for (size_t nbr = 0; nbr < count && !reader->failed; nbr++) {
        jsonread_enter (reader, parent, "points", nbr);
        json_t *point_json = json_array_get (points, nbr);
        msg_monitor_t point = { .test_id = 0 };
        if (!json_is_object (point_json))
            jsonread_fail (reader, NULL, "expected an object");
        else
            results_read_fields (reader, &results_monitor_point_table, point_json, &point, NULL);
        if (!reader->failed && monitor_result_add_point (monitor, &point))
            jsonread_fail (reader, NULL, "no memory for it");
    }
    memcpy (reader->place, parent, sizeof parent);
}

//  A stream's rates and its system time per GB, as the reports compute them.
static double
s_stream_rate (const void *row)
{
    return aggregate_stream_rate_mbps ((const stream_result_t *) row);
}

static double
s_stream_write_rate (const void *row)
{
    return aggregate_stream_write_rate_mbps ((const stream_result_t *) row);
}

static double
s_stream_sys_per_gb (const void *row)
{
    return aggregate_stream_sys_s_per_gb ((const stream_result_t *) row);
}

//  A count of a stream's requests per second of its window; NAN without one.
static double
s_per_s (const void *row, uint64_t count)
{
    int64_t start_ns, end_ns;
    if (!aggregate_stream_window ((const stream_result_t *) row, &start_ns, &end_ns))
        return NAN;
    return (double) count / ((double) (end_ns - start_ns) / NS_PER_SEC);
}

static double
s_stream_reads_per_s (const void *row)
{
    return s_per_s (row, ((const stream_result_t *) row)->reads);
}

static double
s_stream_writes_per_s (const void *row)
{
    return s_per_s (row, ((const stream_result_t *) row)->writes);
}

static double
s_stream_fsyncs_per_s (const void *row)
{
    return s_per_s (row, ((const stream_result_t *) row)->fsyncs);
}

//  The figures of a latency summary, as the flat outputs' columns (the
//  JSON writes the summary as one object).
static const results_field_t s_latency_summary_fields [] = {
    { .name = "count", .kind = FIELD_U64, RESULTS_AT (latency_summary_t, count) },
    { .name = "min_ns", .kind = FIELD_I64, RESULTS_AT (latency_summary_t, min_ns) },
    { .name = "mean_ns", .kind = FIELD_RATE, RESULTS_AT (latency_summary_t, mean_ns) },
    { .name = "p50_ns", .kind = FIELD_I64, RESULTS_AT (latency_summary_t, p50_ns) },
    { .name = "p95_ns", .kind = FIELD_I64, RESULTS_AT (latency_summary_t, p95_ns) },
    { .name = "p99_ns", .kind = FIELD_I64, RESULTS_AT (latency_summary_t, p99_ns) },
    { .name = "p999_ns", .kind = FIELD_I64, RESULTS_AT (latency_summary_t, p999_ns) },
    { .name = "max_ns", .kind = FIELD_I64, RESULTS_AT (latency_summary_t, max_ns) },
};
const results_table_t results_latency_summary_table =
    S_TABLE ("latency", s_latency_summary_fields);


//  --------------------------------------------------------------------------
//  The tables

static const results_field_t s_run_fields [] = {
    { .name = "scenario", .kind = FIELD_TEXT, RESULTS_AT (run_result_t, scenario_path) },
    { .name = "label", .kind = FIELD_TEXT, RESULTS_AT (run_result_t, label), .optional = true },
    { .name = "started_utc", .kind = FIELD_UTC, RESULTS_AT (run_result_t, started_wall_ns) },
    { .name = "started_wall_ns", .kind = FIELD_I64, RESULTS_AT (run_result_t, started_wall_ns) },
    { .name = "units", .kind = FIELD_CUSTOM, .write = s_units_write },
    { .name = "display_units", .kind = FIELD_UNITS, RESULTS_AT (run_result_t, units),
      .column = "units" },
    //  Written when true: results of a whole run say nothing of it.
    { .name = "cut_short", .kind = FIELD_BOOL, RESULTS_AT (run_result_t, cut_short),
      .optional = true, .omitted_unknown = true, .since = 3 },
};
const results_table_t results_run_table = S_TABLE ("run", s_run_fields);

static const results_field_t s_agent_fields [] = {
    { .name = "name", .kind = FIELD_TEXT, RESULTS_AT (agent_info_t, name) },
    { .name = "endpoint", .kind = FIELD_TEXT, RESULTS_AT (agent_info_t, endpoint) },
    { .name = "hostname", .kind = FIELD_TEXT, RESULTS_AT (agent_info_t, hostname) },
    { .name = "kernel", .kind = FIELD_TEXT, RESULTS_AT (agent_info_t, kernel) },
    { .name = "boot_id", .kind = FIELD_TEXT, RESULTS_AT (agent_info_t, boot_id),
      .optional = true, .not_archived = true },
    { .name = "cpus", .kind = FIELD_U32, RESULTS_AT (agent_info_t, cpus) },
    { .name = "mem_bytes", .kind = FIELD_U64, RESULTS_AT (agent_info_t, mem_bytes) },
    { .name = "version", .kind = FIELD_TEXT, RESULTS_AT (agent_info_t, version) },
    { .name = "insecure", .kind = FIELD_BOOL, RESULTS_AT (agent_info_t, insecure) },
    { .name = "clock_offset_ns", .kind = FIELD_I64, RESULTS_AT (agent_info_t, clock_offset_ns) },
    { .name = "clock_rtt_ns", .kind = FIELD_I64, RESULTS_AT (agent_info_t, clock_rtt_ns) },
    { .name = "malformed_frames", .kind = FIELD_U64, RESULTS_AT (agent_info_t, malformed_frames),
      .optional = true, .since = 3 },
};
const results_table_t results_agent_table = S_TABLE ("agent", s_agent_fields);

//  Files from before phases have none of the fields from "test" to
//  "laid_out_ns".
static const results_field_t s_test_fields [] = {
    { .name = "name", .kind = FIELD_TEXT, RESULTS_AT (test_result_t, name) },
    { .name = "test", .kind = FIELD_CUSTOM, .write = s_test_write, .read = s_test_read,
      .scalar = true },
    //  The archive's phases table holds these two.
    { .name = "phase", .kind = FIELD_TEXT, RESULTS_AT (test_result_t, phase), .optional = true,
      .not_archived = true },
    { .name = "phase_index", .kind = FIELD_U32, RESULTS_AT (test_result_t, phase_index),
      .maximum = PHASES_MAX - 1, .optional = true, .not_archived = true },
    { .name = "rate", .kind = FIELD_CUSTOM, .write = s_rate_write, .read = s_rate_read,
      .scalar = true },
    { .name = "workload", .kind = FIELD_TEXT, RESULTS_AT (test_result_t, workload),
      .optional = true, .since = 3 },
    { .name = "bound", .kind = FIELD_TEXT, RESULTS_AT (test_result_t, bound), .optional = true,
      .since = 3 },
    { .name = "laid_out_bytes", .kind = FIELD_U64, RESULTS_AT (test_result_t, laid_out_bytes),
      .optional = true, .since = 3 },
    { .name = "laid_out_ns", .kind = FIELD_I64, RESULTS_AT (test_result_t, laid_out_ns),
      .maximum = INT64_MAX, .optional = true, .since = 3 },
    { .name = "iteration", .kind = FIELD_U32, RESULTS_AT (test_result_t, iteration),
      .minimum = 1, .maximum = UINT32_MAX },
    { .name = "announced_utc", .kind = FIELD_UTC, RESULTS_AT (test_result_t, announced_wall_ns) },
    { .name = "announced_wall_ns", .kind = FIELD_I64,
      RESULTS_AT (test_result_t, announced_wall_ns) },
};
const results_table_t results_test_table = S_TABLE ("test", s_test_fields);

static const results_field_t s_class_fields [] = {
    { .name = "streams", .kind = FIELD_U32, RESULTS_AT (class_summary_t, streams) },
    { .name = "bytes", .kind = FIELD_U64, RESULTS_AT (class_summary_t, bytes) },
    { .name = "combined_mbps", .kind = FIELD_RATE, RESULTS_AT (class_summary_t, combined_mbps),
      .column = "mbps" },
    { .name = "notation", .kind = FIELD_TEXT, RESULTS_AT (class_summary_t, notation) },
    { .name = "latency", .kind = FIELD_LATENCY, RESULTS_AT (class_summary_t, latency) },
};
const results_table_t results_class_table = S_TABLE ("class", s_class_fields);

//  The depth over a test's streams: mean over the streams with an engine,
//  most in any, requests in flight at the stop summed.
static bool
s_summary_has_depth (const void *row)
{
    return ((const test_summary_t *) row)->depth_max > 0;
}

static const results_field_t s_summary_depth_fields [] = {
    { .name = "mean", .kind = FIELD_RATE, RESULTS_AT (test_summary_t, depth_mean), .since = 3 },
    { .name = "max", .kind = FIELD_U32, RESULTS_AT (test_summary_t, depth_max), .minimum = 1,
      .maximum = UINT32_MAX, .since = 3 },
    { .name = "inflight_at_stop", .kind = FIELD_U64,
      RESULTS_AT (test_summary_t, inflight_at_stop), .since = 3 },
};
static const results_table_t s_summary_depth_table = S_TABLE ("depth", s_summary_depth_fields);

static const results_field_t s_summary_fields [] = {
    { .name = "streams", .kind = FIELD_U32, RESULTS_AT (test_summary_t, streams) },
    { .name = "hosts", .kind = FIELD_U32, RESULTS_AT (test_summary_t, hosts) },
    { .name = "failed_streams", .kind = FIELD_U32, RESULTS_AT (test_summary_t, failed_streams) },
    { .name = "lost_streams", .kind = FIELD_U32, RESULTS_AT (test_summary_t, lost_streams) },
    { .name = "partial", .kind = FIELD_CUSTOM, .write = s_partial_write, .scalar = true },
    { .name = "bytes", .kind = FIELD_U64, RESULTS_AT (test_summary_t, bytes) },
    { .name = "first_start_ns", .kind = FIELD_I64, RESULTS_AT (test_summary_t, first_start_ns) },
    { .name = "last_end_ns", .kind = FIELD_I64, RESULTS_AT (test_summary_t, last_end_ns) },
    { .name = "combined_mbps", .kind = FIELD_RATE, RESULTS_AT (test_summary_t, combined_mbps) },
    { .name = "combined_ops_per_s", .kind = FIELD_RATE,
      RESULTS_AT (test_summary_t, combined_ops_per_s), .optional = true, .since = 3 },
    { .name = "all_running_mbps", .kind = FIELD_RATE,
      RESULTS_AT (test_summary_t, all_running_mbps) },
    { .name = "all_running_ns", .kind = FIELD_I64, RESULTS_AT (test_summary_t, all_running_ns) },
    { .name = "host_skew_ns", .kind = FIELD_I64, RESULTS_AT (test_summary_t, host_skew_ns) },
    { .name = "stream_skew_ns", .kind = FIELD_I64, RESULTS_AT (test_summary_t, stream_skew_ns) },
    { .name = "clock_uncertainty_ns", .kind = FIELD_I64,
      RESULTS_AT (test_summary_t, clock_uncertainty_ns) },
    { .name = "disk", .kind = FIELD_OBJECT, RESULTS_AT (test_summary_t, disk),
      .table = &results_class_table },
    { .name = "network", .kind = FIELD_OBJECT, RESULTS_AT (test_summary_t, network),
      .table = &results_class_table },
    { .name = "hosts_measured", .kind = FIELD_U32, RESULTS_AT (test_summary_t, hosts_measured) },
    { .name = "usr_pct", .kind = FIELD_PCT, RESULTS_AT (test_summary_t, usr_pct) },
    { .name = "sys_pct", .kind = FIELD_PCT, RESULTS_AT (test_summary_t, sys_pct) },
    { .name = "iowait_pct", .kind = FIELD_PCT, RESULTS_AT (test_summary_t, iowait_pct) },
    { .name = "latency_p99_ns", .kind = FIELD_RATE, RESULTS_AT (test_summary_t, latency_p99_ns),
      .maximum = INT64_MAX, .optional = true, .omitted_unknown = true },
    { .name = "end_skew_ns", .kind = FIELD_I64, RESULTS_AT (test_summary_t, end_skew_ns),
      .optional = true, .since = 3 },
    { .name = "stop", .kind = FIELD_CUSTOM, .write = s_stop_write, .read = s_stop_read },
    { .name = "depth", .kind = FIELD_OBJECT, .table = &s_summary_depth_table,
      .present = s_summary_has_depth },
    { .name = "latency", .kind = FIELD_CUSTOM, .write = s_latency_sets_write,
      .read = s_latency_sets_read },
};
const results_table_t results_summary_table = S_TABLE ("summary", s_summary_fields);

//  The depth a stream's engine reached (its agent reports it): busy_ns,
//  the time of its reads and writes summed; mean, that over its window of
//  requests (Little's law); inflight_at_stop, issued before its stop
//  instant and ended after it.
static bool
s_stream_has_depth (const void *row)
{
    return ((const stream_result_t *) row)->depth_max > 0;
}

static double
s_stream_depth (const void *row)
{
    return aggregate_stream_depth ((const stream_result_t *) row);
}

static const results_field_t s_stream_depth_fields [] = {
    { .name = "busy_ns", .kind = FIELD_U64, RESULTS_AT (stream_result_t, busy_ns), .since = 3 },
    { .name = "mean", .kind = FIELD_DERIVED, .derive = s_stream_depth, .since = 3 },
    { .name = "max", .kind = FIELD_U32, RESULTS_AT (stream_result_t, depth_max), .minimum = 1,
      .maximum = UINT32_MAX, .since = 3 },
    { .name = "inflight_at_stop", .kind = FIELD_U32,
      RESULTS_AT (stream_result_t, inflight_at_stop), .since = 3 },
};
static const results_table_t s_stream_depth_table = S_TABLE ("depth", s_stream_depth_fields);

//  Files from before streams counted requests lack "reads" to "bs_bytes";
//  from before streams without a RESULT kept their last sample's bytes,
//  "bytes_from_sample" and "sampled_ns"; from before time-bound streams
//  said when they stopped, "stop_ns" and "last_issue_ns".
static const results_field_t s_stream_fields [] = {
    { .name = "agent", .kind = FIELD_TEXT, RESULTS_AT (stream_result_t, agent) },
    { .name = "job", .kind = FIELD_TEXT, RESULTS_AT (stream_result_t, job) },
    { .name = "class", .kind = FIELD_CLASS, RESULTS_AT (stream_result_t, job_class) },
    { .name = "index", .kind = FIELD_U32, RESULTS_AT (stream_result_t, index),
      .column = "stream" },
    { .name = "path", .kind = FIELD_STRING, .offset = offsetof (stream_result_t, path),
      .size = JOB_PATH_MAX + 1 },
    { .name = "finished", .kind = FIELD_BOOL, RESULTS_AT (stream_result_t, finished) },
    { .name = "lost", .kind = FIELD_BOOL, RESULTS_AT (stream_result_t, lost) },
    { .name = "bytes", .kind = FIELD_U64, RESULTS_AT (stream_result_t, bytes) },
    { .name = "reads", .kind = FIELD_U64, RESULTS_AT (stream_result_t, reads),
      .optional = true, .since = 3 },
    { .name = "writes", .kind = FIELD_U64, RESULTS_AT (stream_result_t, writes),
      .optional = true, .since = 3 },
    { .name = "fsyncs", .kind = FIELD_U64, RESULTS_AT (stream_result_t, fsyncs),
      .optional = true, .since = 3 },
    { .name = "reads_data", .kind = FIELD_BOOL, RESULTS_AT (stream_result_t, reads_data),
      .optional = true, .since = 3 },
    { .name = "cold", .kind = FIELD_BOOL, RESULTS_AT (stream_result_t, cold),
      .optional = true, .since = 3 },
    { .name = "bs_bytes", .kind = FIELD_U64, RESULTS_AT (stream_result_t, bs_bytes),
      .optional = true, .since = 3 },
    { .name = "rate", .kind = FIELD_CUSTOM, .write = s_stream_rate_write,
      .read = s_stream_rate_read, .scalar = true, .column = "stream_rate" },
    { .name = "bytes_from_sample", .kind = FIELD_BOOL, RESULTS_AT (stream_result_t, bytes_sampled),
      .optional = true, .since = 3 },
    { .name = "sampled_ns", .kind = FIELD_I64, RESULTS_AT (stream_result_t, sampled_ns),
      .optional = true, .since = 3 },
    { .name = "start_ns", .kind = FIELD_I64, RESULTS_AT (stream_result_t, start_ns) },
    { .name = "stop_ns", .kind = FIELD_I64, RESULTS_AT (stream_result_t, stop_ns),
      .maximum = INT64_MAX, .optional = true, .since = 2 },
    { .name = "last_issue_ns", .kind = FIELD_I64, RESULTS_AT (stream_result_t, last_issue_ns),
      .optional = true, .since = 2 },
    { .name = "last_write_ns", .kind = FIELD_I64, RESULTS_AT (stream_result_t, last_write_ns) },
    { .name = "end_ns", .kind = FIELD_I64, RESULTS_AT (stream_result_t, end_ns) },
    { .name = "depth", .kind = FIELD_OBJECT, .table = &s_stream_depth_table,
      .present = s_stream_has_depth },
    { .name = "rate_mbps", .kind = FIELD_DERIVED, .derive = s_stream_rate },
    { .name = "write_rate_mbps", .kind = FIELD_DERIVED, .derive = s_stream_write_rate },
    //  The archive keeps the exact figures below only.
    { .name = "usr_s", .kind = FIELD_SECONDS, RESULTS_AT (stream_result_t, usr_ns),
      .not_archived = true },
    { .name = "sys_s", .kind = FIELD_SECONDS, RESULTS_AT (stream_result_t, sys_ns),
      .not_archived = true },
    //  The exact figures too, so that a report rendered again from the
    //  file rounds the same numbers as the first one did.
    { .name = "usr_ns", .kind = FIELD_I64, RESULTS_AT (stream_result_t, usr_ns),
      .seconds_key = "usr_s" },
    { .name = "sys_ns", .kind = FIELD_I64, RESULTS_AT (stream_result_t, sys_ns),
      .seconds_key = "sys_s" },
    { .name = "clock_uncertainty_ns", .kind = FIELD_I64,
      RESULTS_AT (stream_result_t, clock_uncertainty_ns) },
    { .name = "error", .kind = FIELD_STRING, .offset = offsetof (stream_result_t, error),
      .size = MSG_TEXT_MAX + 1 },
    { .name = "samples", .kind = FIELD_SIZE, RESULTS_AT (stream_result_t, sample_count),
      .written_only = true },
    { .name = "direct", .kind = FIELD_BOOL, RESULTS_AT (stream_result_t, direct) },
    { .name = "fsync", .kind = FIELD_FSYNC, RESULTS_AT (stream_result_t, fsync_mode) },
    { .name = "sys_s_per_gb", .kind = FIELD_DERIVED, .derive = s_stream_sys_per_gb,
      .since = 3 },
    { .name = "reads_per_s", .kind = FIELD_DERIVED, .derive = s_stream_reads_per_s },
    { .name = "writes_per_s", .kind = FIELD_DERIVED, .derive = s_stream_writes_per_s },
    { .name = "fsyncs_per_s", .kind = FIELD_DERIVED, .derive = s_stream_fsyncs_per_s },
    { .name = "requests_latency", .kind = FIELD_LATENCY,
      RESULTS_AT (stream_result_t, latency_requests), .optional = true },
    { .name = "latency", .kind = FIELD_CUSTOM, .write = s_stream_latency_write,
      .read = s_stream_latency_read },
};
const results_table_t results_stream_table = S_TABLE ("stream", s_stream_fields);

//  A host's shares of CPU time, and every raw counter of its HOST message.
static const results_field_t s_host_fields [] = {
    { .name = "agent", .kind = FIELD_TEXT, RESULTS_AT (host_result_t, agent) },
    { .name = "boot_id", .kind = FIELD_TEXT, RESULTS_AT (host_result_t, boot_id),
      .optional = true, .not_archived = true },
    { .name = "received", .kind = FIELD_BOOL, RESULTS_AT (host_result_t, received) },
    { .name = "window_start_ns", .kind = FIELD_I64, RESULTS_AT (host_result_t, window_start_ns) },
    { .name = "window_end_ns", .kind = FIELD_I64, RESULTS_AT (host_result_t, window_end_ns) },
    { .name = "settle_end_ns", .kind = FIELD_I64, RESULTS_AT (host_result_t, settle_end_ns) },
    { .name = "usr_pct", .kind = FIELD_PCT, RESULTS_AT (host_result_t, usr_pct) },
    { .name = "sys_pct", .kind = FIELD_PCT, RESULTS_AT (host_result_t, sys_pct) },
    { .name = "iowait_pct", .kind = FIELD_PCT, RESULTS_AT (host_result_t, iowait_pct) },
    { .name = "idle_pct", .kind = FIELD_PCT, RESULTS_AT (host_result_t, idle_pct) },
    { .name = "stream_bytes", .kind = FIELD_U64, RESULTS_AT (host_result_t, stream_bytes) },
#define S_COUNTER(counter) \
    { .name = #counter, .kind = FIELD_U64, RESULTS_AT (host_result_t, counters.counter) },
    MSG_HOST_COUNTERS (S_COUNTER)
#undef S_COUNTER
    { .name = "latency", .kind = FIELD_LATENCY, RESULTS_AT (host_result_t, latency) },
};
const results_table_t results_host_table = S_TABLE ("host", s_host_fields);

static const results_field_t s_warning_fields [] = {
    { .name = "kind", .kind = FIELD_TEXT, RESULTS_AT (warning_t, kind) },
    { .name = "agent", .kind = FIELD_TEXT, RESULTS_AT (warning_t, agent) },
    { .name = "text", .kind = FIELD_TEXT, RESULTS_AT (warning_t, text) },
};
const results_table_t results_warning_table = S_TABLE ("warning", s_warning_fields);

static const results_field_t s_monitor_point_fields [] = {
    { .name = "t_ns", .kind = FIELD_I64, RESULTS_AT (msg_monitor_t, t_ns) },
#define S_COUNTER(counter) \
    { .name = #counter, .kind = FIELD_U64, RESULTS_AT (msg_monitor_t, counter) },
    MSG_MONITOR_COUNTERS (S_COUNTER)
#undef S_COUNTER
};
const results_table_t results_monitor_point_table = S_TABLE ("point", s_monitor_point_fields);

static const results_field_t s_monitor_fields [] = {
    { .name = "agent", .kind = FIELD_TEXT, RESULTS_AT (monitor_result_t, agent) },
    { .name = "job", .kind = FIELD_TEXT, RESULTS_AT (monitor_result_t, job) },
    { .name = "usr_pct", .kind = FIELD_PCT, RESULTS_AT (monitor_result_t, usr_pct) },
    { .name = "sys_pct", .kind = FIELD_PCT, RESULTS_AT (monitor_result_t, sys_pct) },
    { .name = "iowait_pct", .kind = FIELD_PCT, RESULTS_AT (monitor_result_t, iowait_pct) },
    { .name = "disk_read_mbps", .kind = FIELD_RATE, RESULTS_AT (monitor_result_t, disk_read_mbps) },
    { .name = "disk_write_mbps", .kind = FIELD_RATE,
      RESULTS_AT (monitor_result_t, disk_write_mbps) },
    { .name = "nfsd_read_mbps", .kind = FIELD_RATE, RESULTS_AT (monitor_result_t, nfsd_read_mbps) },
    { .name = "nfsd_write_mbps", .kind = FIELD_RATE,
      RESULTS_AT (monitor_result_t, nfsd_write_mbps) },
    { .name = "max_gap_ns", .kind = FIELD_I64, RESULTS_AT (monitor_result_t, max_gap_ns) },
    { .name = "points", .kind = FIELD_CUSTOM, .write = s_points_write, .read = s_points_read },
};
const results_table_t results_monitor_table = S_TABLE ("monitor", s_monitor_fields);
