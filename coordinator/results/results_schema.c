/*  coordinator/results/results_schema.c: the tables of the results' fields
    of a run, its agents, its tests and their summaries; see
    results_schema.h. Those of a test's rows (streams, hosts, monitors)
    are results_rows.c's, their flattening into columns results_columns.c's.

    A row of a table reads as what it is: `{ .name = "bytes", .kind =
    FIELD_U64, RESULTS_AT (stream_result_t, bytes) }`. A figure that older
    results files lack is `.optional`; one the archive does not keep is
    `.not_archived`; one it gained later carries the schema version that
    added it in `.since` (ARCHIVE_SCHEMA_VERSION, archive.h, is the last).
*/
#include "results_schema.h"
#include "latency_json.h"
#include "../numbers/aggregate.h"
#include "../numbers/latency.h"
#include "../../proto/clock.h"
#include "../../proto/version.h"
#include "../../proto/workload.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define S_COUNT(rows) (sizeof (rows) / sizeof ((rows) [0]))
#define S_TABLE(table_name, rows) { .name = table_name, .fields = rows, .count = S_COUNT (rows) }


//  --------------------------------------------------------------------------
//  Custom fields

//  A constant of the file, as a custom field's value.
static json_t *
s_constant (json_t *value, bool *ok)
{
    *ok = value != NULL;
    return value;
}

//  The program that wrote the file, and the protocol it spoke.
static json_t *
s_version_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    (void) row;
    return s_constant (json_string (IOFLEET_VERSION), ok);
}

static json_t *
s_protocol_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    (void) row;
    return s_constant (json_integer (IOFLEET_PROTOCOL_VERSION), ok);
}

//  The run's units, in words: a constant of the file format.
static json_t *
s_units_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    (void) row;
    return s_constant (json_string ("MB/s = 10^6 bytes/s"), ok);
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

json_t *
results_warnings_json (const test_result_t *test, const char *agent, bool *ok)
{
    //  Each warning's text is at most MSG_TEXT_MAX, its kind short.
    char text [TEST_WARNINGS_MAX * (MSG_TEXT_MAX + 32) + 1];
    size_t used = 0;
    text [0] = '\0';
    for (size_t w = 0; w < test->warning_count && used < sizeof text; w++) {
        const warning_t *warning = &test->warnings [w];
        if (strcmp (warning->agent, agent) == 0)
            used += (size_t) snprintf (text + used, sizeof text - used, "%s%s: %s",
                                       used? " | ": "", warning->kind, warning->text);
    }
    json_t *value = results_json_string (text);
    *ok = value != NULL;
    return value;
}

//  The warnings about the whole test (a skew), for the flat outputs; a
//  host's are its row's (results_rows.c).
static json_t *
s_warnings_write (const void *row, const void *context, bool *ok)
{
    (void) context;
    return results_warnings_json ((const test_result_t *) row, "", ok);
}

//  A test's latency, every host merged, per set of requests that it
//  measured; a set that counted none is left out, and the whole when
//  none counted any.
static bool
s_summary_has_latency (const void *nested)
{
    const latency_summary_t *sets = (const latency_summary_t *) nested;
    for (int set = 0; set < LATENCY_SETS; set++)
        if (sets [set].count)
            return true;
    return false;
}

#define S_SET(set, set_name) \
    { .name = set_name, .kind = FIELD_LATENCY, .offset = (set) * sizeof (latency_summary_t), \
      .size = sizeof (latency_summary_t) }
static const results_field_t s_latency_sets_fields [] = {
    S_SET (LATENCY_READ, "read"), S_SET (LATENCY_WRITE, "write"), S_SET (LATENCY_FSYNC, "fsync"),
    S_SET (LATENCY_REQUESTS, "requests"),
};
#undef S_SET
static const results_table_t s_latency_sets_table = S_TABLE ("latency", s_latency_sets_fields);

//  How a time-bound test's streams stopped (stop_summary_t), written
//  when some stream ran to its stop instant.
static bool
s_summary_has_stop (const void *nested)
{
    return ((const stop_summary_t *) nested)->streams > 0;
}

static const results_field_t s_stop_fields [] = {
    { .name = "streams", .kind = FIELD_U32, RESULTS_AT (stop_summary_t, streams), .minimum = 1,
      .maximum = UINT32_MAX, .since = 4 },
    { .name = "instant_ns", .kind = FIELD_I64, RESULTS_AT (stop_summary_t, instant_ns),
      .since = 4 },
    { .name = "late_ns", .kind = FIELD_I64, RESULTS_AT (stop_summary_t, late_ns), .since = 4 },
    { .name = "issue_late_ns", .kind = FIELD_I64, RESULTS_AT (stop_summary_t, issue_late_ns),
      .since = 4 },
    { .name = "in_flight_ns", .kind = FIELD_I64, RESULTS_AT (stop_summary_t, in_flight_ns),
      .since = 4 },
    { .name = "tail_ns", .kind = FIELD_I64, RESULTS_AT (stop_summary_t, tail_ns), .since = 4 },
};
static const results_table_t s_stop_table = S_TABLE ("stop", s_stop_fields);

//  sysbench's figures of a set of streams of requests (a test's, a
//  host's), computed from the streams again when a file is read.
static const results_field_t s_requests_fields [] = {
    { .name = "streams", .kind = FIELD_U32, RESULTS_AT (requests_summary_t, streams),
      .since = 4 },
    { .name = "reads_per_s", .kind = FIELD_RATE, RESULTS_AT (requests_summary_t, reads_per_s),
      .since = 4 },
    { .name = "writes_per_s", .kind = FIELD_RATE, RESULTS_AT (requests_summary_t, writes_per_s),
      .since = 4 },
    { .name = "fsyncs_per_s", .kind = FIELD_RATE, RESULTS_AT (requests_summary_t, fsyncs_per_s),
      .since = 4 },
    { .name = "read_mbps", .kind = FIELD_RATE, RESULTS_AT (requests_summary_t, read_mbps),
      .since = 4 },
    { .name = "written_mbps", .kind = FIELD_RATE, RESULTS_AT (requests_summary_t, written_mbps),
      .since = 4 },
    { .name = "window_s", .kind = FIELD_RATE, RESULTS_AT (requests_summary_t, window_s),
      .since = 4 },
    { .name = "ops_per_min", .kind = FIELD_RATE, RESULTS_AT (requests_summary_t, ops_per_min),
      .since = 4 },
};
const results_table_t results_requests_table = S_TABLE ("requests", s_requests_fields);

static bool
s_summary_has_requests (const void *nested)
{
    return ((const requests_summary_t *) nested)->streams > 0;
}

//  The iterations of a test, for the flat outputs: its first run apart,
//  the rest's statistics, each in the unit of the test's rate (one of
//  MB/s and operations per second, the other's columns empty).
#define S_REST(stat) \
    static double \
    s_rest_##stat##_mbps (const void *row) \
    { \
        const aggregate_iterations_t *it = (const aggregate_iterations_t *) row; \
        return it->rate_ops? NAN: it->rest.stat; \
    } \
    static double \
    s_rest_##stat##_ops (const void *row) \
    { \
        const aggregate_iterations_t *it = (const aggregate_iterations_t *) row; \
        return it->rate_ops? it->rest.stat: NAN; \
    }
S_REST (min)
S_REST (median)
S_REST (max)
S_REST (mean)
S_REST (stddev)
#undef S_REST

static double
s_first_mbps (const void *row)
{
    const aggregate_iterations_t *it = (const aggregate_iterations_t *) row;
    return it->rate_ops? NAN: it->first_mbps;
}

static double
s_first_ops (const void *row)
{
    const aggregate_iterations_t *it = (const aggregate_iterations_t *) row;
    return it->rate_ops? it->first_mbps: NAN;
}

#define S_REST_FIELDS(stat) \
    { .name = "rest_" #stat "_mbps", .kind = FIELD_DERIVED, .derive = s_rest_##stat##_mbps }, \
    { .name = "rest_" #stat "_ops_per_s", .kind = FIELD_DERIVED, .derive = s_rest_##stat##_ops },
static const results_field_t s_iterations_fields [] = {
    { .name = "first_mbps", .kind = FIELD_DERIVED, .derive = s_first_mbps },
    { .name = "first_ops_per_s", .kind = FIELD_DERIVED, .derive = s_first_ops },
    { .name = "rest_count", .kind = FIELD_SIZE, RESULTS_AT (aggregate_iterations_t, rest.count) },
    S_REST_FIELDS (min) S_REST_FIELDS (median) S_REST_FIELDS (max) S_REST_FIELDS (mean)
    S_REST_FIELDS (stddev)
    { .name = "rest_sys_min_pct", .kind = FIELD_PCT,
      RESULTS_AT (aggregate_iterations_t, rest_sys_pct.min) },
    { .name = "rest_sys_median_pct", .kind = FIELD_PCT,
      RESULTS_AT (aggregate_iterations_t, rest_sys_pct.median) },
    { .name = "rest_sys_max_pct", .kind = FIELD_PCT,
      RESULTS_AT (aggregate_iterations_t, rest_sys_pct.max) },
};
#undef S_REST_FIELDS
const results_table_t results_iterations_table = S_TABLE ("iterations", s_iterations_fields);

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
    { .name = "iofleet_version", .kind = FIELD_CUSTOM, .write = s_version_write, .scalar = true },
    { .name = "protocol_version", .kind = FIELD_CUSTOM, .write = s_protocol_write },
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
    { .name = "warnings", .kind = FIELD_CUSTOM, .write = s_warnings_write, .scalar = true,
      .flat_only = true },
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
    { .name = "stop", .kind = FIELD_OBJECT, RESULTS_AT (test_summary_t, stop),
      .table = &s_stop_table, .present = s_summary_has_stop },
    { .name = "depth", .kind = FIELD_OBJECT, .table = &s_summary_depth_table,
      .present = s_summary_has_depth },
    { .name = "latency", .kind = FIELD_OBJECT, RESULTS_AT (test_summary_t, latency),
      .table = &s_latency_sets_table, .present = s_summary_has_latency },
    //  Computed from the streams again when read (aggregate_host_figures).
    { .name = "requests", .kind = FIELD_OBJECT, RESULTS_AT (test_summary_t, requests),
      .table = &results_requests_table, .present = s_summary_has_requests,
      .written_only = true },
};
const results_table_t results_summary_table = S_TABLE ("summary", s_summary_fields);

static const results_field_t s_warning_fields [] = {
    { .name = "kind", .kind = FIELD_TEXT, RESULTS_AT (warning_t, kind) },
    { .name = "agent", .kind = FIELD_TEXT, RESULTS_AT (warning_t, agent) },
    { .name = "text", .kind = FIELD_TEXT, RESULTS_AT (warning_t, text) },
};
const results_table_t results_warning_table = S_TABLE ("warning", s_warning_fields);
