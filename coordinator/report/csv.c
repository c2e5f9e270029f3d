/*  coordinator/report/csv.c: the CSV report (report.csv); see report.h.

    One row per test x iteration x stream, for spreadsheets and scripts.
    A row carries the test's own fields, the stream's figures and,
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
//  but the very first of a line.
static void
s_fields (const s_columns_t *columns, const void *row, const void *context, bool first,
          FILE *out)
{
    for (size_t nbr = 0; nbr < columns->count; nbr++) {
        if (!first || nbr)
            fputc (',', out);
        s_value (&columns->column [nbr], row, context, out);
    }
}

//  Their names.
static void
s_names (const s_columns_t *columns, bool first, FILE *out)
{
    for (size_t nbr = 0; nbr < columns->count; nbr++)
        fprintf (out, "%s%s", !first || nbr? ",": "", columns->column [nbr].name);
}

//  Print the CSV report of a run.
int
csv_report (const run_result_t *run, FILE *out)
{
    assert (run);
    assert (out);
    static s_columns_t tests, streams, summaries;
    s_columns (&tests, &results_test_table, "");
    s_columns (&streams, &results_stream_table, "");
    s_columns (&summaries, &results_summary_table, "test_");
    s_names (&tests, true, out);
    s_names (&streams, false, out);
    s_names (&summaries, false, out);
    fputs ("\r\n", out);
    for (size_t test_nbr = 0; test_nbr < run->test_count; test_nbr++) {
        const test_result_t *test = &run->tests [test_nbr];
        for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
            s_fields (&tests, test, NULL, true, out);
            s_fields (&streams, &test->streams [nbr], test, false, out);
            s_fields (&summaries, &test->summary, test, false, out);
            fputs ("\r\n", out);
        }
    }
    return ferror (out)? -1: 0;
}
