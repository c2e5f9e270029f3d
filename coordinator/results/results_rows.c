/*  coordinator/results/results_rows.c: the tables of a test's rows (its
    streams, hosts, monitors and the hosts of its tail), with the custom
    fields and the figures derived from a row that they hold; see
    results_schema.h. The run's, the test's and its summary's tables are
    results_schema.c's.

    A derived figure (FIELD_DERIVED) is computed from its row by the
    function the reports print it with, when written; a host's figures
    over its streams are computed from the streams when the file is read
    again (aggregate_host_figures), so that a report rendered from the
    file prints what the run printed.
*/
#include "results_schema.h"
#include "latency_json.h"
#include "../numbers/aggregate.h"
#include "../numbers/latency.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define S_COUNT(rows) (sizeof (rows) / sizeof ((rows) [0]))
#define S_TABLE(table_name, rows) { .name = table_name, .fields = rows, .count = S_COUNT (rows) }


//  --------------------------------------------------------------------------
//  Custom fields

//  A stream's latency histograms, each kind packed as it came.
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
//  A host's warnings, for the flat outputs; its test is the context.
static json_t *
s_host_warnings_write (const void *row, const void *context, bool *ok)
{
    *ok = true;
    if (!context)
        return NULL;
    return results_warnings_json ((const test_result_t *) context,
                                  ((const host_result_t *) row)->agent, ok);
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

//  --------------------------------------------------------------------------
//  Derived figures

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

//  sysbench's figures of a stream, each from aggregate_stream_requests.
static double
s_requests_figure (const void *row, size_t offset)
{
    requests_summary_t requests;
    aggregate_stream_requests ((const stream_result_t *) row, &requests);
    return *(const double *) ((const char *) &requests + offset);
}

#define S_REQUESTS_FIGURE(figure) \
    static double \
    s_stream_##figure (const void *row) \
    { \
        return s_requests_figure (row, offsetof (requests_summary_t, figure)); \
    }
S_REQUESTS_FIGURE (reads_per_s)
S_REQUESTS_FIGURE (writes_per_s)
S_REQUESTS_FIGURE (fsyncs_per_s)
S_REQUESTS_FIGURE (read_mbps)
S_REQUESTS_FIGURE (written_mbps)
S_REQUESTS_FIGURE (window_s)
S_REQUESTS_FIGURE (ops_per_min)
#undef S_REQUESTS_FIGURE

//  A host's pages still to write at the end, and its settle period.
static double
s_host_dirty_end (const void *row)
{
    return aggregate_host_dirty_end_bytes ((const host_result_t *) row);
}

static double
s_host_settle (const void *row)
{
    return aggregate_host_settle_s ((const host_result_t *) row);
}

//  A host's requests are written when it had streams of requests.
static bool
s_host_has_requests (const void *nested)
{
    return ((const requests_summary_t *) nested)->streams > 0;
}


//  --------------------------------------------------------------------------
//  The tables

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
    { .name = "read_mbps", .kind = FIELD_DERIVED, .derive = s_stream_read_mbps, .since = 4 },
    { .name = "written_mbps", .kind = FIELD_DERIVED, .derive = s_stream_written_mbps,
      .since = 4 },
    { .name = "window_s", .kind = FIELD_DERIVED, .derive = s_stream_window_s, .since = 4 },
    { .name = "ops_per_min", .kind = FIELD_DERIVED, .derive = s_stream_ops_per_min, .since = 4 },
    { .name = "requests_latency", .kind = FIELD_LATENCY,
      RESULTS_AT (stream_result_t, latency_requests), .optional = true },
    { .name = "latency", .kind = FIELD_CUSTOM, .write = s_stream_latency_write,
      .read = s_stream_latency_read },
};
const results_table_t results_stream_table = S_TABLE ("stream", s_stream_fields);

//  A host's shares of CPU time, every raw counter of its HOST message,
//  and what its streams did together.
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
    { .name = "dirty_writeback_end_bytes", .kind = FIELD_DERIVED, .derive = s_host_dirty_end,
      .since = 4 },
    { .name = "settle_s", .kind = FIELD_DERIVED, .derive = s_host_settle, .since = 4 },
    //  Computed from the streams again when read (aggregate_host_figures).
    { .name = "streams", .kind = FIELD_U32, RESULTS_AT (host_result_t, streams),
      .written_only = true, .since = 4 },
    { .name = "failed_streams", .kind = FIELD_U32, RESULTS_AT (host_result_t, failed_streams),
      .written_only = true, .since = 4 },
    { .name = "rate_mbps", .kind = FIELD_RATE, RESULTS_AT (host_result_t, rate_mbps),
      .written_only = true, .since = 4 },
    { .name = "ops_per_s", .kind = FIELD_RATE, RESULTS_AT (host_result_t, ops_per_s),
      .written_only = true, .since = 4 },
    { .name = "slowest_stream_mbps", .kind = FIELD_RATE,
      RESULTS_AT (host_result_t, slowest_stream_mbps), .written_only = true, .since = 4 },
    { .name = "streams_cpu_pct", .kind = FIELD_RATE, RESULTS_AT (host_result_t, streams_cpu_pct),
      .written_only = true, .since = 4 },
    { .name = "requests", .kind = FIELD_OBJECT, RESULTS_AT (host_result_t, requests),
      .table = &results_requests_table, .present = s_host_has_requests, .written_only = true },
    { .name = "warnings", .kind = FIELD_CUSTOM, .write = s_host_warnings_write, .scalar = true,
      .flat_only = true },
};
const results_table_t results_host_table = S_TABLE ("host", s_host_fields);

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
    { .name = "samples", .kind = FIELD_SIZE, RESULTS_AT (monitor_result_t, point_count),
      .written_only = true },
    { .name = "points", .kind = FIELD_CUSTOM, .write = s_points_write, .read = s_points_read },
};
const results_table_t results_monitor_table = S_TABLE ("monitor", s_monitor_fields);

//  A test's tail (latency_tail_t): the fleet's percentiles of requests,
//  its requests and those over them, and how many hosts it ranked.
static const results_field_t s_tail_fields [] = {
    { .name = "p99_ns", .kind = FIELD_I64, RESULTS_AT (latency_tail_t, p99_ns),
      .maximum = INT64_MAX },
    { .name = "p999_ns", .kind = FIELD_I64, RESULTS_AT (latency_tail_t, p999_ns),
      .maximum = INT64_MAX },
    { .name = "requests", .kind = FIELD_U64, RESULTS_AT (latency_tail_t, requests), .minimum = 1,
      .maximum = INT64_MAX },
    { .name = "over_p99", .kind = FIELD_U64, RESULTS_AT (latency_tail_t, over_p99) },
    { .name = "over_p999", .kind = FIELD_U64, RESULTS_AT (latency_tail_t, over_p999) },
    { .name = "hosts_ranked", .kind = FIELD_U64, RESULTS_AT (latency_tail_t, hosts_ranked),
      .optional = true },
};
const results_table_t results_tail_table = S_TABLE ("tail", s_tail_fields);

//  One host of a test's tail (latency_tail_t), ranked; its shares are
//  fractions of the fleet's requests and tails.
static const results_field_t s_tail_host_fields [] = {
    { .name = "agent", .kind = FIELD_TEXT, RESULTS_AT (tail_host_t, agent) },
    { .name = "requests", .kind = FIELD_U64, RESULTS_AT (tail_host_t, requests), .minimum = 1,
      .maximum = INT64_MAX },
    { .name = "requests_share", .kind = FIELD_RATE, RESULTS_AT (tail_host_t, requests_share),
      .maximum = 1 },
    { .name = "over_p99", .kind = FIELD_U64, RESULTS_AT (tail_host_t, over_p99) },
    { .name = "p99_share", .kind = FIELD_RATE, RESULTS_AT (tail_host_t, p99_share),
      .maximum = 1 },
    { .name = "over_p999", .kind = FIELD_U64, RESULTS_AT (tail_host_t, over_p999) },
    { .name = "p999_share", .kind = FIELD_RATE, RESULTS_AT (tail_host_t, p999_share),
      .maximum = 1 },
    { .name = "cause", .kind = FIELD_BOOL, RESULTS_AT (tail_host_t, cause) },
};
const results_table_t results_tail_host_table = S_TABLE ("tail host", s_tail_host_fields);
