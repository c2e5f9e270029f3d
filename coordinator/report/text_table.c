/*  coordinator/report/text_table.c: tables and figures as the text
    reports write them; see text.h.

    Tables are left-aligned columns two spaces apart, each as wide as its
    widest cell, so that a long kernel release or test name widens its
    column instead of breaking the row.
*/
#include "text.h"
#include "../numbers/aggregate.h"
#include "../../proto/append.h"
#include "../../proto/clock.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define TABLE_GAP         2         //  spaces between columns

//  Width of a cell on a terminal: UTF-8 characters, not bytes ("±").
static size_t
s_display_width (const char *text)
{
    size_t width = 0;
    for (; *text; text++)
        if (((unsigned char) *text & 0xC0) != 0x80)
            width++;
    return width;
}

//  Print a table: measure every column, then print the rows padded to it.
//  The last column is not padded, so that no line ends in blanks.
void
text_table_print (const table_t *table, FILE *out)
{
    assert (table->columns > 0 && table->columns <= TABLE_COLUMNS_MAX);
    size_t widths [TABLE_COLUMNS_MAX] = { 0 };
    table_row_t row;
    for (size_t row_nbr = 0; row_nbr <= table->rows; row_nbr++) {
        memset (&row, 0, sizeof (row));
        table->fill (table->data, row_nbr, &row);
        for (size_t column = 0; column < table->columns; column++) {
            size_t width = s_display_width (row.cell [column]);
            if (width > widths [column])
                widths [column] = width;
        }
    }
    for (size_t row_nbr = 0; row_nbr <= table->rows; row_nbr++) {
        memset (&row, 0, sizeof (row));
        table->fill (table->data, row_nbr, &row);
        fputs (table->indent, out);
        for (size_t column = 0; column < table->columns; column++) {
            fputs (row.cell [column], out);
            if (column + 1 < table->columns) {
                size_t pad = widths [column] - s_display_width (row.cell [column]) + TABLE_GAP;
                fprintf (out, "%*s", (int) pad, "");
            }
        }
        fputc ('\n', out);
    }
}

//  Copy header names into the cells of row 0, "MB/s" in them said in the
//  report's units.
void
text_table_header (table_row_t *cells, const char *const *names, size_t count, int units)
{
    for (size_t column = 0; column < count; column++) {
        const char *rate = strstr (names [column], "MB/s");
        if (rate)
            snprintf (cells->cell [column], TABLE_CELL_MAX, "%.*s%s%s",
                      (int) (rate - names [column]), names [column],
                      aggregate_units_name (units), rate + 4);
        else
            snprintf (cells->cell [column], TABLE_CELL_MAX, "%s", names [column]);
    }
}

//  A share of CPU time with one decimal ("12.5"), "-" when unknown.
void
text_format_pct (double pct, char *buf, size_t buflen)
{
    if (isfinite (pct))
        snprintf (buf, buflen, "%.1f", pct);
    else
        snprintf (buf, buflen, "-");
}

//  A time in ms with three decimals ("0.012 ms"): skews and their bound.
void
text_format_ms_fixed (int64_t time_ns, char *buf, size_t buflen)
{
    snprintf (buf, buflen, "%.3f ms", (double) time_ns / NS_PER_MSEC);
}

//  A time in ms with four significant figures and at most three decimals
//  ("0.003", "12.35", "398.0", "4102"): instants within a test, where a
//  microsecond matters at the start and not after seconds.
void
text_format_ms_instant (int64_t time_ns, char *buf, size_t buflen)
{
    double time_ms = (double) time_ns / NS_PER_MSEC;
    double magnitude = fabs (time_ms);
    int decimals = 3;
    if (magnitude >= 10)
        decimals = 3 - (int) floor (log10 (magnitude));
    if (decimals < 0)
        decimals = 0;
    snprintf (buf, buflen, "%.*f", decimals, time_ms);
}

//  Memory as a person reads it: "23.4 GiB", "512.0 MiB".
void
text_format_memory (uint64_t bytes, char *buf, size_t buflen)
{
    const double gib = 1024.0 * 1024 * 1024;
    if ((double) bytes >= gib)
        snprintf (buf, buflen, "%.1f GiB", (double) bytes / gib);
    else
        snprintf (buf, buflen, "%.1f MiB", (double) bytes / (1024.0 * 1024));
}

//  A wall-clock instant in UTC: "2026-11-30 03:10:00 UTC".
void
text_format_utc (int64_t wall_ns, char *buf, size_t buflen)
{
    time_t seconds = (time_t) (wall_ns / NS_PER_SEC);
    struct tm utc;
    if (!gmtime_r (&seconds, &utc) || strftime (buf, buflen, "%Y-%m-%d %H:%M:%S UTC", &utc) == 0)
        snprintf (buf, buflen, "-");
}

int
text_rows_figures (const text_rows_head_t *head)
{
    int figures = 0;
    while (figures < TEXT_ROW_FIGURES && head->figure [figures])
        figures++;
    return figures;
}

//  Where text_rows_print's rows go.
typedef struct {
    const text_rows_head_t *head;
    FILE *out;
    bool header;                    //  the caption and header are out
} s_rows_t;

//  A line of the table: the name and where padded to their columns, then
//  the figures right-aligned in theirs, or the note; without the blanks
//  an empty last figure would leave.
static void
s_line_print (const text_rows_head_t *head, const char *name, const char *where,
              const char *note, const char *const *figure, FILE *out)
{
    char line [2048];
    size_t used = 0;
    append_printf (line, sizeof line, &used, "%-*s", head->name_width, name);
    if (where)
        append_printf (line, sizeof line, &used, " %-*s", head->where_width, where);
    if (note)
        append_printf (line, sizeof line, &used, " %s", note);
    else
        for (int f = 0; f < text_rows_figures (head); f++)
            append_printf (line, sizeof line, &used, " %*s", head->width [f], figure [f]);
    while (used > 0 && line [used - 1] == ' ')
        used--;
    fprintf (out, "%.*s\n", (int) used, line);
}

//  A row in the text's columns, the caption and header before the first.
static void
s_row_print (void *sink, const text_row_t *row)
{
    s_rows_t *rows = sink;
    const text_rows_head_t *head = rows->head;
    FILE *out = rows->out;
    if (!rows->header) {
        fprintf (out, "\n%s:\n", head->caption);
        s_line_print (head, "test", head->where, NULL, head->figure, out);
        rows->header = true;
    }
    const char *figure [TEXT_ROW_FIGURES];
    for (int f = 0; f < TEXT_ROW_FIGURES; f++)
        figure [f] = row->cell [f];
    s_line_print (head, row->name, row->where, row->note, figure, out);
}

void
text_rows_print (const text_rows_head_t *head, text_rows_fn *rows, const run_result_t *run,
                 FILE *out)
{
    s_rows_t sink = { .head = head, .out = out };
    rows (run, s_row_print, &sink);
}
