/*  coordinator/report/csv.c: the CSV report (report.csv); see report.h.

    One row per test x iteration x stream, for spreadsheets and scripts.
    A row carries the run's fields (run_label, ...), the test's own
    fields, the stream's figures, its agent's (agent_kernel, ...) and,
    repeated on each row of the test, the test's summary (columns
    test_...), so that a single row is understood without the others:
    every figure of one value that results.json has, in its order and by
    its name (results_schema.h). Column names carry their unit.
    Fields follow RFC 4180: a field with a comma, a quote or a line break
    is quoted, its quotes doubled; lines end in CRLF. A rate that could
    not be computed is an empty field. A stream without a RESULT has its
    last sample's bytes, with bytes_from_sample true.
*/
#include "report.h"
#include "../results/results_schema.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"
#include "../../proto/printable.h"

#include <assert.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
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

//  The agent a stream ran on, NULL when the run does not know it. The
//  search starts at *cursor, the agent found last, and leaves it there:
//  a test's streams come agent by agent, so a fleet's rows cost one
//  comparison each, not one per agent.
static const agent_info_t *
s_agent (const run_result_t *run, const char *name, size_t *cursor)
{
    for (size_t step = 0; step < run->agent_count; step++) {
        size_t nbr = (*cursor + step) % run->agent_count;
        if (!strcmp (run->agents [nbr].name, name)) {
            *cursor = nbr;
            return &run->agents [nbr];
        }
    }
    return NULL;
}

//  Every kind of row a line of the CSV joins, in the order of its columns.
typedef struct {
    s_columns_t run, test, stream, agent, summary;
} s_layout_t;

static const s_layout_t *
s_layout (void)
{
    static s_layout_t layout;
    s_columns (&layout.run, &results_run_table, "run_");
    s_columns (&layout.test, &results_test_table, "");
    s_columns (&layout.stream, &results_stream_table, "");
    s_columns (&layout.agent, &results_agent_table, "agent_");
    s_columns (&layout.summary, &results_summary_table, "test_");
    return &layout;
}

void
csv_column_names (const char *separator, FILE *out)
{
    const s_layout_t *layout = s_layout ();
    const s_columns_t *parts [] = {
        &layout->run, &layout->test, &layout->stream, &layout->agent, &layout->summary
    };
    bool first = true;
    for (size_t part = 0; part < sizeof parts / sizeof parts [0]; part++)
        for (size_t nbr = 0; nbr < parts [part]->count; nbr++) {
            fprintf (out, "%s%s", first? "": separator, parts [part]->column [nbr].name);
            first = false;
        }
}

//  Print the CSV report of a run.
int
csv_report (const run_result_t *run, FILE *out)
{
    assert (run);
    assert (out);
    const s_layout_t *layout = s_layout ();
    csv_column_names (",", out);
    fputs ("\r\n", out);
    size_t cursor = 0;
    for (size_t test_nbr = 0; test_nbr < run->test_count; test_nbr++) {
        const test_result_t *test = &run->tests [test_nbr];
        for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
            const stream_result_t *stream = &test->streams [nbr];
            s_fields (&layout->run, run, NULL, true, out);
            s_fields (&layout->test, test, NULL, false, out);
            s_fields (&layout->stream, stream, test, false, out);
            s_fields (&layout->agent, s_agent (run, stream->agent, &cursor), NULL, false, out);
            s_fields (&layout->summary, &test->summary, test, false, out);
            fputs ("\r\n", out);
        }
    }
    return ferror (out)? -1: 0;
}
