/*  coordinator/report/csv.c: the CSV report (report.csv); see report.h.

    One row per test x iteration x stream, one per monitor job of the
    test, one per host of the test with neither (one that laid out a
    file set, or served NFS), and last one per agent that no row named,
    for spreadsheets and scripts: the columns a row's kind has not are
    empty. A row carries the run's fields (run_label, ...), the test's
    own fields, the stream's figures, its agent's (agent_kernel, ...),
    its host's in that test (host_...) and the host's part in the test's
    tail (host_tail_...), a monitor's figures (monitor_..., on a
    monitor's row), and, repeated on each row of the test, the test's
    summary (test_...), its tail (test_tail_...) and the statistics of
    its iterations (test_iterations_...), so that a single row is
    understood without the others: every figure of one value that
    results.json has, in its order and by its name (results_schema.h),
    and every figure the text report prints. Column names carry their
    unit. Fields follow RFC 4180: a field with a comma, a quote or a
    line break is quoted, its quotes doubled; lines end in CRLF. A rate
    that could not be computed is an empty field. A stream without a
    RESULT has its last sample's bytes, with bytes_from_sample true.
*/
#include "report.h"
#include "../results/results_schema.h"
#include "../results/timeline_json.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"
#include "../../proto/printable.h"

#include <assert.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  A text field, quoted when it must be (RFC 4180). Its control bytes are
//  written \xNN (proto/printable.h), line breaks too: a row stays a line.
void
csv_field (const char *text, FILE *out)
{
    bool quoted = strpbrk (text, ",\"") != NULL;
    if (quoted)
        fputc ('"', out);
    size_t left = strlen (text);
    while (left > 0) {
        char piece [PRINTABLE_GROWTH + 1];
        size_t taken = printable_char (text, left, piece);
        if (piece [0] == '"')
            fputc ('"', out);
        fputs (piece, out);
        text += taken;
        left -= taken;
    }
    if (quoted)
        fputc ('"', out);
}

//  A real with six decimals (a rate to the byte per second), empty when
//  unknown.
static void
s_real (double value, FILE *out)
{
    if (isfinite (value))
        fprintf (out, "%.6f", value);
}

//  A custom field's one value, as its JSON writer gives it.
static void
s_custom (const results_field_t *field, const void *holder, const void *context, FILE *out)
{
    bool ok;
    json_t *value = field->write (holder, context, &ok);
    if (json_is_string (value))
        csv_field (json_string_value (value), out);
    else
    if (json_is_boolean (value))
        fputs (json_is_true (value)? "true": "false", out);
    else
    if (json_is_integer (value))
        fprintf (out, "%" JSON_INTEGER_FORMAT, json_integer_value (value));
    else
    if (json_is_real (value))
        s_real (json_real_value (value), out);
    json_decref (value);
}

//  One field of a row.
static void
s_value (const results_column_t *column, const void *row, const void *context, FILE *out)
{
    const results_field_t *field = column->field;
    const void *at = results_schema_field (column, row);
    char utc [48];
    switch (field->kind) {
        case FIELD_TEXT: csv_field ((const char *) at, out); break;
        case FIELD_STRING: {
            const char *text = *(char *const *) at;
            csv_field (text? text: "", out);
            break;
        }
        case FIELD_I64: fprintf (out, "%" PRId64, *(const int64_t *) at); break;
        case FIELD_U64: fprintf (out, "%" PRIu64, *(const uint64_t *) at); break;
        case FIELD_U32: fprintf (out, "%" PRIu32, *(const uint32_t *) at); break;
        case FIELD_SIZE: fprintf (out, "%zu", *(const size_t *) at); break;
        case FIELD_BOOL: fputs (*(const bool *) at? "true": "false", out); break;
        case FIELD_RATE: case FIELD_PCT: s_real (*(const double *) at, out); break;
        case FIELD_CLASS: fputs (*(const int *) at == CLASS_NETWORK? "network": "disk", out); break;
        case FIELD_FSYNC: fputs (jobspec_fsync_name (*(const int *) at), out); break;
        case FIELD_UNITS: fputs (aggregate_units_name (*(const int *) at), out); break;
        case FIELD_UTC:
            results_schema_utc (*(const int64_t *) at, utc, sizeof utc);
            fputs (utc, out);
            break;
        case FIELD_SECONDS: s_real ((double) *(const int64_t *) at / NS_PER_SEC, out); break;
        case FIELD_DERIVED: s_real (field->derive (results_schema_holder (column, row)), out); break;
        case FIELD_CUSTOM:
            s_custom (field, results_schema_holder (column, row), context, out);
            break;
        case FIELD_LATENCY: case FIELD_OBJECT: break;   //  not CSV columns
    }
}

//  The most columns of a kind of row.
#define S_COLUMNS_MAX 160

//  The columns of a table, flattened, and how many.
typedef struct {
    results_column_t column [S_COLUMNS_MAX];
    size_t count;
} s_columns_t;

//  A table's columns with prefix before their names.
static void
s_columns (s_columns_t *columns, const results_table_t *table, const char *prefix)
{
    columns->count = results_schema_columns (table, prefix, 0, RESULTS_CSV, columns->column,
                                             S_COLUMNS_MAX);
    assert (columns->count <= S_COLUMNS_MAX);
}

//  Some columns of a row (context: its test, or NULL), each after a comma
//  but the very first of a line; empty fields for a row that is NULL.
static void
s_fields (const s_columns_t *columns, const void *row, const void *context, bool first,
          FILE *out)
{
    for (size_t nbr = 0; nbr < columns->count; nbr++) {
        if (!first || nbr)
            fputc (',', out);
        if (row)
            s_value (&columns->column [nbr], row, context, out);
    }
}

//  Of count items of size bytes, the one whose name (a char array at
//  name_offset in it) is name, or NULL. The search starts at *cursor,
//  the one found last, and leaves it there: a test's streams come agent
//  by agent, so a fleet's rows cost one comparison each, not one per
//  agent.
static const void *
s_named (const void *items, size_t count, size_t size, size_t name_offset, const char *name,
         size_t *cursor)
{
    for (size_t step = 0; step < count; step++) {
        size_t nbr = (*cursor + step) % count;
        const char *item = (const char *) items + nbr * size;
        if (!strcmp (item + name_offset, name)) {
            *cursor = nbr;
            return item;
        }
    }
    return NULL;
}

//  The agent a row is of, NULL when the run does not know it.
static const agent_info_t *
s_agent (const run_result_t *run, const char *name, size_t *cursor)
{
    return s_named (run->agents, run->agent_count, sizeof (agent_info_t),
                    offsetof (agent_info_t, name), name, cursor);
}

//  The host figures of agent in test, or NULL.
static const host_result_t *
s_host (const test_result_t *test, const char *agent, size_t *cursor)
{
    return s_named (test->hosts, test->host_count, sizeof (host_result_t),
                    offsetof (host_result_t, agent), agent, cursor);
}

//  The part of agent in the tail of test, or NULL: of the hosts first in
//  it, those results.json keeps, so that the CSV of a run and the one
//  rendered again from its file are the same (and a search is short).
static const tail_host_t *
s_tail_host (const test_result_t *test, const char *agent)
{
    for (size_t nbr = 0; nbr < test->tail.host_count && nbr < TAIL_HOSTS_KEPT; nbr++)
        if (!strcmp (test->tail.hosts [nbr].agent, agent))
            return &test->tail.hosts [nbr];
    return NULL;
}

//  Whether a host of a test has a row of its own: no stream and no
//  monitor of the test ran on it.
static bool
s_host_alone (const test_result_t *test, const host_result_t *host)
{
    if (host->streams)
        return false;
    for (size_t m = 0; m < test->monitor_count; m++)
        if (!strcmp (test->monitors [m].agent, host->agent))
            return false;
    return true;
}

//  Every kind of row a line of the CSV joins, in the order of its columns.
typedef struct {
    s_columns_t run, test, stream, agent, host, tail, monitor, summary, test_tail, iterations;
} s_layout_t;

static const s_layout_t *
s_layout (void)
{
    static s_layout_t layout;
    s_columns (&layout.run, &results_run_table, "run_");
    s_columns (&layout.test, &results_test_table, "");
    s_columns (&layout.stream, &results_stream_table, "");
    s_columns (&layout.agent, &results_agent_table, "agent_");
    s_columns (&layout.host, &results_host_table, "host_");
    s_columns (&layout.tail, &results_tail_host_table, "host_tail_");
    s_columns (&layout.monitor, &results_monitor_table, "monitor_");
    s_columns (&layout.summary, &results_summary_table, "test_");
    s_columns (&layout.test_tail, &results_tail_table, "test_tail_");
    s_columns (&layout.iterations, &results_iterations_table, "test_iterations_");
    return &layout;
}

void
csv_column_names (const char *separator, FILE *out)
{
    const s_layout_t *layout = s_layout ();
    const s_columns_t *parts [] = {
        &layout->run, &layout->test, &layout->stream, &layout->agent, &layout->host,
        &layout->tail, &layout->monitor, &layout->summary, &layout->test_tail,
        &layout->iterations
    };
    bool first = true;
    for (size_t part = 0; part < sizeof parts / sizeof parts [0]; part++)
        for (size_t nbr = 0; nbr < parts [part]->count; nbr++) {
            fprintf (out, "%s%s", first? "": separator, parts [part]->column [nbr].name);
            first = false;
        }
}

//  What a line of the CSV joins; NULL for a part its kind of row has not.
typedef struct {
    const test_result_t *test;
    const aggregate_iterations_t *iterations;
    const stream_result_t *stream;
    const agent_info_t *agent;
    const host_result_t *host;
    const monitor_result_t *monitor;
} s_row_t;

//  One line of the CSV.
static void
s_line (const s_layout_t *layout, const run_result_t *run, const s_row_t *row, FILE *out)
{
    const test_result_t *test = row->test;
    const char *agent = row->agent? row->agent->name: NULL;
    s_fields (&layout->run, run, NULL, true, out);
    s_fields (&layout->test, test, NULL, false, out);
    s_fields (&layout->stream, row->stream, test, false, out);
    s_fields (&layout->agent, row->agent, NULL, false, out);
    s_fields (&layout->host, row->host, test, false, out);
    s_fields (&layout->tail, test && agent? s_tail_host (test, agent): NULL, test, false, out);
    s_fields (&layout->monitor, row->monitor, test, false, out);
    s_fields (&layout->summary, test? &test->summary: NULL, test, false, out);
    s_fields (&layout->test_tail, test && test->tail.requests? &test->tail: NULL, test, false,
              out);
    s_fields (&layout->iterations, row->iterations, test, false, out);
    fputs ("\r\n", out);
}

//  Print the CSV report of a run: a test's streams, monitors and lone
//  hosts, test after test, then the agents no test row named (one that
//  only laid files out before a test, or had no job), so that the text's
//  agents table is in it too.
int
csv_report (const run_result_t *run, FILE *out)
{
    assert (run);
    assert (out);
    const s_layout_t *layout = s_layout ();
    csv_column_names (",", out);
    fputs ("\r\n", out);
    bool *named = calloc (run->agent_count + 1, sizeof *named);
    if (!named)
        return -1;
    size_t cursor = 0, host_cursor = 0;
    for (size_t test_nbr = 0; test_nbr < run->test_count; test_nbr++) {
        const test_result_t *test = &run->tests [test_nbr];
        //  The iterations of the test's name, the same on each of its rows.
        aggregate_iterations_t iterations = aggregate_iterations (run, test->name);
        size_t rows = test->stream_count + test->monitor_count + test->host_count;
        for (size_t nbr = 0; nbr < rows; nbr++) {
            size_t monitor = nbr - test->stream_count, host = monitor - test->monitor_count;
            s_row_t row = { .test = test, .iterations = &iterations };
            row.stream = nbr < test->stream_count? &test->streams [nbr]: NULL;
            row.monitor = !row.stream && monitor < test->monitor_count?
                          &test->monitors [monitor]: NULL;
            if (!row.stream && !row.monitor && !s_host_alone (test, &test->hosts [host]))
                continue;
            const char *agent = row.stream? row.stream->agent: row.monitor? row.monitor->agent
                                                                          : test->hosts [host].agent;
            row.agent = s_agent (run, agent, &cursor);
            row.host = s_host (test, agent, &host_cursor);
            if (row.agent)
                named [row.agent - run->agents] = true;
            s_line (layout, run, &row, out);
        }
    }
    for (size_t nbr = 0; nbr < run->agent_count; nbr++)
        if (!named [nbr])
            s_line (layout, run, &(s_row_t) { .agent = &run->agents [nbr] }, out);
    free (named);
    return ferror (out)? -1: 0;
}
