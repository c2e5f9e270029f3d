/*  coordinator/report/text.c: the text report (report.txt and the
    console); see report.h.

    Layout, top to bottom: a header with the scenario and the start time,
    the agents, one row per test, one line per failed stream, the
    warnings, the iterations of repeated tests, then a block per test with
    its streams, its hosts and its monitors. The tables and the figures'
    formats are text_table.c's.
*/
#include "report.h"
#include "text.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"
#include "../../proto/printable.h"
#include "../../proto/version.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  A test's name made printable, with " #N" after it.
#define TEST_LABEL_MAX    (JOB_NAME_MAX * PRINTABLE_GROWTH + 16)

//  --------------------------------------------------------------------------
//  Tables

//  A cell with text from the results: names, hosts and errors came from
//  a scenario, the wire or a file, and reach the terminal printable.
static void
s_cell_text (table_row_t *cells, size_t column, const char *text)
{
    printable (text, cells->cell [column], TABLE_CELL_MAX);
}

//  A rate (stored in MB/s) in the report's units.
static void
s_format_rate (double rate_mbps, int units, char *buf, size_t buflen)
{
    aggregate_format_rate (aggregate_in_units (rate_mbps, units), buf, buflen);
}


//  A test as the report names it: "dd1", then "dd1 #2" for its repeats.
static void
s_format_test_label (const test_result_t *test, char *buf, size_t buflen)
{
    char name [TEST_LABEL_MAX];
    printable (test->name, name, sizeof name);
    if (test->iteration > 1)
        snprintf (buf, buflen, "%s #%" PRIu32, name, test->iteration);
    else
        snprintf (buf, buflen, "%s", name);
}

//  --------------------------------------------------------------------------
//  The tables of the report

static const char *const s_agent_header [] = {
    "agent", "host", "kernel", "cpus", "memory", "clock offset", "rtt"
};
#define AGENT_COLUMNS (sizeof (s_agent_header) / sizeof (s_agent_header [0]))

//  A row of the agents table; data is the run.
static void
s_agent_row (const void *data, size_t row, table_row_t *cells)
{
    if (row == 0) {
        text_table_header (cells, s_agent_header, AGENT_COLUMNS, UNITS_MB);
        return;
    }
    const run_result_t *run = data;
    const agent_info_t *agent = &run->agents [row - 1];
    s_cell_text (cells, 0, agent->name);
    s_cell_text (cells, 1, agent->hostname [0]? agent->hostname: "-");
    s_cell_text (cells, 2, agent->kernel [0]? agent->kernel: "-");
    snprintf (cells->cell [3], TABLE_CELL_MAX, "%" PRIu32, agent->cpus);
    text_format_memory (agent->mem_bytes, cells->cell [4], TABLE_CELL_MAX);
    snprintf (cells->cell [5], TABLE_CELL_MAX, "%+.3f ms", (double) agent->clock_offset_ns / NS_PER_MSEC);
    text_format_ms_fixed (agent->clock_rtt_ns, cells->cell [6], TABLE_CELL_MAX);
}

static const char *const s_test_header [] = {
    "test", "streams", "per stream", "combined", "all-running", "%sys", "%iowait",
    "host skew", "stream skew", "clock ±"
};
#define TEST_COLUMNS (sizeof (s_test_header) / sizeof (s_test_header [0]))

//  A row of the tests table; data is the run.
static void
s_test_row (const void *data, size_t row, table_row_t *cells)
{
    if (row == 0) {
        text_table_header (cells, s_test_header, TEST_COLUMNS, UNITS_MB);
        return;
    }
    const run_result_t *run = data;
    const test_result_t *test = &run->tests [row - 1];
    const test_summary_t *summary = &test->summary;
    s_format_test_label (test, cells->cell [0], TABLE_CELL_MAX);
    snprintf (cells->cell [1], TABLE_CELL_MAX, "%" PRIu32, summary->streams);
    aggregate_per_stream (test, run->units, cells->cell [2], TABLE_CELL_MAX);
    aggregate_combined (test, run->units, cells->cell [3], TABLE_CELL_MAX);
    //  A test of operations (bonnie's seeks) counts them per second.
    if (test->rate_ops && strcmp (cells->cell [2], "-") != 0)
        strncat (cells->cell [2], "/s", TABLE_CELL_MAX - strlen (cells->cell [2]) - 1);
    //  A stream failed, was aborted or its host went away: the figure is
    //  over what the streams did until then, and says so rather than pass
    //  for the whole fleet's.
    if (summary->failed_streams && isfinite (summary->combined_mbps))
        strncat (cells->cell [3], " partial", TABLE_CELL_MAX - strlen (cells->cell [3]) - 1);
    s_format_rate (test->rate_ops? NAN: summary->all_running_mbps, run->units,
                   cells->cell [4], TABLE_CELL_MAX);
    text_format_pct (summary->sys_pct, cells->cell [5], TABLE_CELL_MAX);
    text_format_pct (summary->iowait_pct, cells->cell [6], TABLE_CELL_MAX);
    //  A skew needs two hosts or two streams to mean anything, and one
    //  host's clock needs no bound: those cells say "-", not "0.000 ms".
    if (summary->hosts > 1) {
        text_format_ms_fixed (summary->host_skew_ns, cells->cell [7], TABLE_CELL_MAX);
        text_format_ms_fixed (summary->clock_uncertainty_ns, cells->cell [9], TABLE_CELL_MAX);
    }
    else {
        snprintf (cells->cell [7], TABLE_CELL_MAX, "-");
        snprintf (cells->cell [9], TABLE_CELL_MAX, "-");
    }
    if (summary->streams > 1)
        text_format_ms_fixed (summary->stream_skew_ns, cells->cell [8], TABLE_CELL_MAX);
    else
        snprintf (cells->cell [8], TABLE_CELL_MAX, "-");
}

static const char *const s_stream_header [] = {
    "agent", "job", "stream", "bytes", "start ms", "last write ms", "end ms",
    "MB/s", "MB/s to last write", "usr s", "sys s", "sys s/GB"
};
#define STREAM_COLUMNS (sizeof (s_stream_header) / sizeof (s_stream_header [0]))

//  A row of a test's streams table; data is the test. A stream without a
//  RESULT has only its identity: its times and rates were never reported.
static void
s_stream_row (const void *data, size_t row, table_row_t *cells)
{
    if (row == 0) {
        text_table_header (cells, s_stream_header, STREAM_COLUMNS, ((const text_test_view_t *) data)->units);
        return;
    }
    const text_test_view_t *view = data;
    const test_result_t *test = view->test;
    const stream_result_t *stream = &test->streams [row - 1];
    s_cell_text (cells, 0, stream->agent);
    s_cell_text (cells, 1, stream->job);
    snprintf (cells->cell [2], TABLE_CELL_MAX, "%" PRIu32, stream->index);
    //  Without a RESULT, bytes are what its last sample said: at least.
    snprintf (cells->cell [3], TABLE_CELL_MAX, "%s%" PRIu64,
              stream->bytes_sampled? "≥ ": "", stream->bytes);
    if (!stream->finished) {
        for (size_t column = 4; column < STREAM_COLUMNS; column++)
            snprintf (cells->cell [column], TABLE_CELL_MAX, "-");
        return;
    }
    text_format_ms_instant (stream->start_ns, cells->cell [4], TABLE_CELL_MAX);
    text_format_ms_instant (stream->last_write_ns, cells->cell [5], TABLE_CELL_MAX);
    text_format_ms_instant (stream->end_ns, cells->cell [6], TABLE_CELL_MAX);
    s_format_rate (aggregate_stream_rate_mbps (stream), view->units, cells->cell [7], TABLE_CELL_MAX);
    s_format_rate (aggregate_stream_write_rate_mbps (stream), view->units, cells->cell [8],
                   TABLE_CELL_MAX);
    snprintf (cells->cell [9], TABLE_CELL_MAX, "%.2f", (double) stream->usr_ns / NS_PER_SEC);
    snprintf (cells->cell [10], TABLE_CELL_MAX, "%.2f", (double) stream->sys_ns / NS_PER_SEC);
    double per_gb = aggregate_stream_sys_s_per_gb (stream);
    if (isfinite (per_gb))
        snprintf (cells->cell [11], TABLE_CELL_MAX, "%.3f", per_gb);
    else
        snprintf (cells->cell [11], TABLE_CELL_MAX, "-");
}

static const char *const s_host_header [] = {
    "host", "%usr", "%sys", "%iowait", "%idle", "MB its streams moved",
    "MB dirty at the end", "MB written after", "settle s"
};
#define HOST_COLUMNS (sizeof (s_host_header) / sizeof (s_host_header [0]))

//  A row of a test's hosts table: what the kernel of each host says
//  about the window, and what its disks still wrote after it.
static void
s_host_row (const void *data, size_t row, table_row_t *cells)
{
    if (row == 0) {
        text_table_header (cells, s_host_header, HOST_COLUMNS, UNITS_MB);
        return;
    }
    const test_result_t *test = ((const text_test_view_t *) data)->test;
    const host_result_t *host = &test->hosts [row - 1];
    s_cell_text (cells, 0, host->agent);
    if (!host->received) {
        for (size_t column = 1; column < HOST_COLUMNS; column++)
            snprintf (cells->cell [column], TABLE_CELL_MAX, "-");
        return;
    }
    const msg_host_t *c = &host->counters;
    text_format_pct (host->usr_pct, cells->cell [1], TABLE_CELL_MAX);
    text_format_pct (host->sys_pct, cells->cell [2], TABLE_CELL_MAX);
    text_format_pct (host->iowait_pct, cells->cell [3], TABLE_CELL_MAX);
    text_format_pct (host->idle_pct, cells->cell [4], TABLE_CELL_MAX);
    snprintf (cells->cell [5], TABLE_CELL_MAX, "%.1f", host->stream_bytes / 1e6);
    snprintf (cells->cell [6], TABLE_CELL_MAX, "%.1f", aggregate_host_dirty_end_bytes (host) / 1e6);
    snprintf (cells->cell [7], TABLE_CELL_MAX, "%.1f", c->settle_written_bytes / 1e6);
    snprintf (cells->cell [8], TABLE_CELL_MAX, "%.1f", aggregate_host_settle_s (host));
}

static const char *const s_monitor_header [] = {
    "monitor", "job", "%usr", "%sys", "%iowait", "disk read MB/s", "disk write MB/s",
    "nfsd read MB/s", "nfsd write MB/s", "samples"
};
#define MONITOR_COLUMNS (sizeof (s_monitor_header) / sizeof (s_monitor_header [0]))

//  A row of a test's monitors table: a watched host over the whole test.
static void
s_monitor_row (const void *data, size_t row, table_row_t *cells)
{
    if (row == 0) {
        text_table_header (cells, s_monitor_header, MONITOR_COLUMNS, ((const text_test_view_t *) data)->units);
        return;
    }
    const text_test_view_t *view = data;
    const monitor_result_t *monitor = &view->test->monitors [row - 1];
    s_cell_text (cells, 0, monitor->agent);
    s_cell_text (cells, 1, monitor->job);
    text_format_pct (monitor->usr_pct, cells->cell [2], TABLE_CELL_MAX);
    text_format_pct (monitor->sys_pct, cells->cell [3], TABLE_CELL_MAX);
    text_format_pct (monitor->iowait_pct, cells->cell [4], TABLE_CELL_MAX);
    s_format_rate (monitor->disk_read_mbps, view->units, cells->cell [5], TABLE_CELL_MAX);
    s_format_rate (monitor->disk_write_mbps, view->units, cells->cell [6], TABLE_CELL_MAX);
    s_format_rate (monitor->nfsd_read_mbps, view->units, cells->cell [7], TABLE_CELL_MAX);
    s_format_rate (monitor->nfsd_write_mbps, view->units, cells->cell [8], TABLE_CELL_MAX);
    snprintf (cells->cell [9], TABLE_CELL_MAX, "%zu", monitor->point_count);
}

static const char *const s_iteration_header [] = {
    "test", "first", "rest", "min", "median", "max", "stddev", "%sys median"
};
#define ITERATION_COLUMNS (sizeof (s_iteration_header) / sizeof (s_iteration_header [0]))

//  A row of the iterations table: the first run apart, then the rest.
static void
s_iteration_row (const void *data, size_t row, table_row_t *cells)
{
    if (row == 0) {
        text_table_header (cells, s_iteration_header, ITERATION_COLUMNS, UNITS_MB);
        return;
    }
    const text_repeated_t *repeated = data;
    const char *name = repeated->names [row - 1];
    int units = repeated->run->units;
    aggregate_iterations_t it = aggregate_iterations (repeated->run, name);
    s_cell_text (cells, 0, name);
    s_format_rate (it.first_mbps, units, cells->cell [1], TABLE_CELL_MAX);
    snprintf (cells->cell [2], TABLE_CELL_MAX, "%zu", it.rest.count);
    s_format_rate (it.rest.min, units, cells->cell [3], TABLE_CELL_MAX);
    s_format_rate (it.rest.median, units, cells->cell [4], TABLE_CELL_MAX);
    s_format_rate (it.rest.max, units, cells->cell [5], TABLE_CELL_MAX);
    s_format_rate (it.rest.stddev, units, cells->cell [6], TABLE_CELL_MAX);
    text_format_pct (it.rest_sys_pct.median, cells->cell [7], TABLE_CELL_MAX);
    //  Operations per second are no MB/s, whatever the units.
    if (it.rate_ops) {
        const double figures [] = { it.first_mbps, NAN, it.rest.min, it.rest.median,
                                    it.rest.max, it.rest.stddev };
        for (int column = 1; column <= 6; column++) {
            if (column == 2)
                continue;
            aggregate_format_rate (figures [column - 1], cells->cell [column], TABLE_CELL_MAX);
            if (strcmp (cells->cell [column], "-") != 0)
                strncat (cells->cell [column], "/s",
                         TABLE_CELL_MAX - strlen (cells->cell [column]) - 1);
        }
    }
}


//  --------------------------------------------------------------------------
//  Failed streams

//  One line per stream that failed or never reported, under the tests table.
void
text_failures (const run_result_t *run, FILE *out)
{
    for (size_t test_nbr = 0; test_nbr < run->test_count; test_nbr++) {
        const test_result_t *test = &run->tests [test_nbr];
        char label [TEST_LABEL_MAX];
        s_format_test_label (test, label, sizeof (label));
        //  A fleet's failures are listed up to a few, then counted.
        uint32_t failed = test->summary.failed_streams, listed = 0;
        bool many = failed > TEXT_FLEET_ROWS;
        for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
            const stream_result_t *stream = &test->streams [nbr];
            if (stream->finished && !stream->error)
                continue;
            if (many && listed++ == TEXT_FAILURES_LISTED) {
                fprintf (out, "FAILED  test %s: %" PRIu32 " streams more (results.json and "
                         "report.csv list every one)\n", label, failed - TEXT_FAILURES_LISTED);
                break;
            }
            char agent [JOB_NAME_MAX * PRINTABLE_GROWTH + 1], job [sizeof agent];
            char error [MSG_TEXT_MAX * PRINTABLE_GROWTH + 1];
            fprintf (out, "FAILED  test %s agent %s job %s stream %" PRIu32 ": %s ",
                     label, printable (stream->agent, agent, sizeof agent),
                     printable (stream->job, job, sizeof job), stream->index,
                     printable (stream->error? stream->error: "no result from the agent",
                                error, sizeof error));
            //  A stream without a RESULT: its last word is its last sample.
            if (stream->bytes_sampled)
                fprintf (out, "(last sample %" PRIu64 " bytes at %.3f s)\n",
                         stream->bytes, (double) stream->sampled_ns / NS_PER_SEC);
            else
                fprintf (out, "(bytes %" PRIu64 ")\n", stream->bytes);
        }
    }
}

//  --------------------------------------------------------------------------
//  The tables as models, for the text and the page alike

void
text_table_agents (const run_result_t *run, table_t *table)
{
    *table = (table_t) {
        .columns = AGENT_COLUMNS, .rows = run->agent_count,
        .fill = s_agent_row, .data = run, .indent = ""
    };
}

void
text_table_tests (const run_result_t *run, table_t *table)
{
    *table = (table_t) {
        .columns = TEST_COLUMNS, .rows = run->test_count,
        .fill = s_test_row, .data = run, .indent = ""
    };
}

bool
text_table_iterations (const run_result_t *run, text_repeated_t *repeated, table_t *table)
{
    *repeated = (text_repeated_t) { .run = run };
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        if (test->iteration != 2
        ||  repeated->count == sizeof repeated->names / sizeof repeated->names [0])
            continue;
        repeated->names [repeated->count++] = test->name;
    }
    *table = (table_t) {
        .columns = ITERATION_COLUMNS, .rows = repeated->count,
        .fill = s_iteration_row, .data = repeated, .indent = ""
    };
    return repeated->count > 0;
}

void
text_table_streams (const text_test_view_t *view, table_t *table)
{
    *table = (table_t) {
        .columns = STREAM_COLUMNS, .rows = view->test->stream_count,
        .fill = s_stream_row, .data = view, .indent = "  "
    };
}

void
text_table_hosts (const text_test_view_t *view, table_t *table)
{
    *table = (table_t) {
        .columns = HOST_COLUMNS, .rows = view->test->host_count,
        .fill = s_host_row, .data = view, .indent = "  "
    };
}

void
text_table_monitors (const text_test_view_t *view, table_t *table)
{
    *table = (table_t) {
        .columns = MONITOR_COLUMNS, .rows = view->test->monitor_count,
        .fill = s_monitor_row, .data = view, .indent = "  "
    };
}

//  --------------------------------------------------------------------------
//  The report

//  The repeated tests: the first run apart from the rest, whose spread
//  says how far one figure can be trusted.
static void
s_print_iterations (const run_result_t *run, FILE *out)
{
    text_repeated_t repeated;
    table_t table;
    if (!text_table_iterations (run, &repeated, &table))
        return;
    char caption [128];
    text_iterations_caption (run->units, caption, sizeof caption);
    fprintf (out, "\n%s\n", caption);
    text_table_print (&table, out);
}

void
text_iterations_caption (int units, char *buf, size_t buflen)
{
    snprintf (buf, buflen, "iterations: the first run apart; the rest as min / median / max "
              "and stddev, %s", aggregate_units_name (units));
}

//  A test's block: its head line, then its streams and hosts, or of a
//  fleet its slowest hosts, then its monitors.
static void
s_print_test_detail (const test_result_t *test, int units, FILE *out)
{
    text_test_view_t view = { .test = test, .units = units };
    text_test_head (test, out);
    table_t table;
    //  A fleet's test shows its slowest hosts, not every stream.
    if (!text_fleet_test (test, units, out)) {
        text_table_streams (&view, &table);
        text_table_print (&table, out);
        if (test->host_count) {
            text_table_hosts (&view, &table);
            text_table_print (&table, out);
        }
    }
    if (test->monitor_count) {
        text_table_monitors (&view, &table);
        text_table_print (&table, out);
    }
}

//  A test's line of totals and how it ended.
void
text_test_head (const test_result_t *test, FILE *out)
{
    const test_summary_t *summary = &test->summary;
    char label [TEST_LABEL_MAX];
    s_format_test_label (test, label, sizeof (label));
    fprintf (out, "%s: %" PRIu32 " stream%s on %" PRIu32 " host%s",
             label, summary->streams, summary->streams == 1? "": "s",
             summary->hosts, summary->hosts == 1? "": "s");
    if (summary->failed_streams)
        fprintf (out, " (%" PRIu32 " failed)", summary->failed_streams);
    //  Streams without a RESULT count what their last sample said.
    bool at_least = false;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++)
        at_least |= test->streams [nbr].bytes_sampled;
    fprintf (out, ", %s%" PRIu64 " bytes, window ", at_least? "≥ ": "", summary->bytes);
    if (summary->last_end_ns > summary->first_start_ns) {
        char first [32], last [32];
        text_format_ms_instant (summary->first_start_ns, first, sizeof (first));
        text_format_ms_instant (summary->last_end_ns, last, sizeof (last));
        fprintf (out, "%s .. %s ms\n", first, last);
    }
    else
        fprintf (out, "-\n");
    stop_text_bound (test, out);
}

//  The footer: frames each agent sent that did not decode and were
//  dropped, when there were any (a peer that speaks something else, or
//  a network that mangles).
static void
s_print_malformed (const run_result_t *run, FILE *out)
{
    const char *separator = "\nmalformed frames dropped: ";
    for (size_t nbr = 0; nbr < run->agent_count; nbr++) {
        const agent_info_t *agent = &run->agents [nbr];
        if (agent->malformed_frames == 0)
            continue;
        char name [JOB_NAME_MAX * PRINTABLE_GROWTH + 1];
        fprintf (out, "%s%s %" PRIu64, separator, printable (agent->name, name, sizeof name),
                 agent->malformed_frames);
        separator = ", ";
    }
    if (separator [0] == ',')
        fputc ('\n', out);
}

//  Print the text report of a run.
int
text_report (const run_result_t *run, FILE *out)
{
    assert (run);
    assert (out);
    char started [64];
    text_format_utc (run->started_wall_ns, started, sizeof (started));
    char scenario [JOB_PATH_MAX * PRINTABLE_GROWTH + 1];
    fprintf (out, "iofleet %s  scenario %s  started %s\n", IOFLEET_VERSION,
             printable (run->scenario_path [0]? run->scenario_path: "-", scenario, sizeof scenario),
             started);
    fprintf (out, "rates in %s; a stream's window ends after its fsync when fsync is on\n\n",
             run->units == UNITS_MIB? "MiB/s (2^20 bytes/s)": "MB/s (10^6 bytes/s)");

    //  A fleet's agents are said by what they have in common.
    if (!run->agent_count)
        fprintf (out, "no agents\n");
    else
    if (!text_fleet_agents (run, out)) {
        table_t agents;
        text_table_agents (run, &agents);
        text_table_print (&agents, out);
    }
    fputc ('\n', out);

    if (run->test_count == 0) {
        fprintf (out, "no test ran\n");
        s_print_malformed (run, out);
        return ferror (out)? -1: 0;
    }
    table_t tests;
    text_table_tests (run, &tests);
    text_table_print (&tests, out);
    text_failures (run, out);
    text_warnings (run, out);
    s_print_iterations (run, out);
    seeds_text (run, out);
    requests_text (run, out);
    latency_text (run, out);
    tail_text (run, out);

    for (size_t test_nbr = 0; test_nbr < run->test_count; test_nbr++) {
        fputc ('\n', out);
        s_print_test_detail (&run->tests [test_nbr], run->units, out);
    }
    s_print_malformed (run, out);
    return ferror (out)? -1: 0;
}
