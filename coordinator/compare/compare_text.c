/*  coordinator/compare/compare_text.c: the comparison as an aligned text
    table and as a small HTML page; see compare.h.

    A cell reads "300 +50.0% [+45.0, +55.0]": the value, its change
    against the first column, and the interval of the change; "~" after
    the change says it is not real, "weak" that too few values were there
    for the test. A mixed test's disk and network rows are one
    "disk/network" row, "225/75 +50.0%/+50.0%", as the threads wrote them.
*/
#include "compare.h"
#include "../report/html_kit.h"
#include "../../proto/printable.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//  A table of text cells, row 0 the header.
typedef struct {
    char (*cells) [CELL_MAX];       //  lines x columns cells
    const char **classes;           //  per cell: its HTML class, or NULL
    size_t lines;                   //  lines filled
    size_t columns;                 //  test, figure, then a column per set
} s_table_t;

const char compare_legend [] =
    "values: the median of iterations 2..N of a test run more than once (its first run\n"
    "  has a row of its own), else of its one run\n"
    "change: against the first column; [low, high]: the change's 90% interval\n"
    "  (Mann-Whitney U, exact), when both sides have 3 values or more\n"
    "~: not a real change (p > 0.10, or the interval holds 0); weak: fewer than 3\n"
    "  values a side, judged by min..max alone (~: a median within the other's range)\n"
    "stddev: the run-to-run spread of the values; first runs and spreads get no verdict\n";

//  A cell's change as text: "+50.0% [+45.0, +55.0]", "+5.0%~ weak", or "".
static void
s_change_text (const cell_t *cell, char *buf, size_t buflen)
{
    buf [0] = 0;
    if (!cell->compared)
        return;
    if (!isfinite (cell->change_pct)) {
        snprintf (buf, buflen, "(from 0)");
        return;
    }
    if (!cell->judged) {
        snprintf (buf, buflen, "%+.1f%%", cell->change_pct);
        return;
    }
    const stats_verdict_t *verdict = &cell->verdict;
    char interval [64] = " weak";
    if (verdict->strong && isfinite (verdict->low_pct))
        snprintf (interval, sizeof interval, " [%+.1f, %+.1f]", verdict->low_pct,
                  verdict->high_pct);
    else
    if (verdict->strong)
        interval [0] = 0;
    snprintf (buf, buflen, "%+.1f%%%s%s", cell->change_pct, verdict->real? "": "~", interval);
}

//  The HTML class of a cell: a real change for the better or the worse.
static const char *
s_class (const row_t *row, const cell_t *cell)
{
    if (!cell->judged || !cell->verdict.real || !isfinite (cell->change_pct))
        return cell->judged? "noise": NULL;
    bool higher = cell->change_pct > 0;
    return higher == (row->metric->better == METRIC_HIGHER_BETTER)? "better": "worse";
}

//  One cell's value and change, "300 +50.0% [+45.0, +55.0]", into buf.
static void
s_cell_text (const row_t *row, const cell_t *cell, char *buf, size_t buflen)
{
    if (cell->missing) {
        snprintf (buf, buflen, "missing");
        return;
    }
    char value [64], change [96];
    row->metric->format (cell->median, value, sizeof value);
    s_change_text (cell, change, sizeof change);
    snprintf (buf, buflen, "%s%s%s", value, change [0]? " ": "", change);
}

//  A pair's cell: "225/75 +50.0%/+50.0%", "-" for a missing half.
static void
s_pair_text (const row_t *rows, const cell_t *first, const cell_t *second,
             char *buf, size_t buflen)
{
    if (first->missing && second->missing) {
        snprintf (buf, buflen, "missing");
        return;
    }
    char values [2] [64] = { "-", "-" }, changes [2] [96];
    const cell_t *halves [2] = { first, second };
    for (int half = 0; half < 2; half++) {
        if (!halves [half]->missing)
            rows [half].metric->format (halves [half]->median, values [half], sizeof values [half]);
        s_change_text (halves [half], changes [half], sizeof changes [half]);
    }
    if (!changes [0][0] && !changes [1][0])
        snprintf (buf, buflen, "%s/%s", values [0], values [1]);
    else
        snprintf (buf, buflen, "%s/%s %s/%s", values [0], values [1],
                  changes [0][0]? changes [0]: "-", changes [1][0]? changes [1]: "-");
}

//  Whether rows [nbr] and the next are one pair in text.
static bool
s_pair (const row_t *rows, size_t row_count, size_t nbr)
{
    return rows [nbr].metric->joined && nbr + 1 < row_count
        && rows [nbr + 1].metric == rows [nbr].metric + 1
        && rows [nbr + 1].kind == rows [nbr].kind
        && !strcmp (rows [nbr + 1].test, rows [nbr].test);
}

//  Fill the table's cells from the rows.
static int
s_table (const set_t *sets, size_t count, const row_t *rows, size_t row_count, s_table_t *table)
{
    table->columns = count + 2;
    table->cells = calloc ((row_count + 1) * table->columns, CELL_MAX);
    table->classes = (const char **) calloc ((row_count + 1) * table->columns, sizeof (char *));
    if (!table->cells || !table->classes)
        return -1;
    snprintf (table->cells [0], CELL_MAX, "test");
    snprintf (table->cells [1], CELL_MAX, "figure");
    for (size_t nbr = 0; nbr < count; nbr++)
        snprintf (table->cells [2 + nbr], CELL_MAX, "%s", sets [nbr].label);
    table->lines = 1;
    for (size_t row = 0; row < row_count; row++) {
        size_t at = table->lines * table->columns;
        char (*out) [CELL_MAX] = table->cells + at;
        bool pair = s_pair (rows, row_count, row);
        compare_row_test (&rows [row], out [0], CELL_MAX);
        if (pair)
            snprintf (out [1], CELL_MAX, "%s%s", rows [row].metric->joined,
                      rows [row].kind == ROW_SPREAD? " stddev": "");
        else
            compare_row_figure (&rows [row], out [1], CELL_MAX);
        for (size_t nbr = 0; nbr < count; nbr++) {
            cell_t cell, second;
            if (compare_cell (sets, nbr, &rows [row], &cell)
            ||  (pair && compare_cell (sets, nbr, &rows [row + 1], &second)))
                return -1;
            if (pair)
                s_pair_text (&rows [row], &cell, &second, out [2 + nbr], CELL_MAX);
            else
                s_cell_text (&rows [row], &cell, out [2 + nbr], CELL_MAX);
            table->classes [at + 2 + nbr] = s_class (&rows [row], &cell);
        }
        row += pair;
        table->lines++;
    }
    return 0;
}

//  Free what s_table allocated.
static void
s_table_free (s_table_t *table)
{
    free (table->cells);
    free (table->classes);
}

//  Cells as aligned columns, each as wide as its widest cell. Every
//  cell is made printable first (in place): test names, kernels, hosts,
//  labels and paths come from results files and the archive.
int
compare_print_columns (char (*cells) [CELL_MAX], size_t lines, size_t columns, FILE *out)
{
    size_t *widths = (size_t *) calloc (columns, sizeof (size_t));
    if (!widths)
        return -1;
    for (size_t line = 0; line < lines; line++)
        for (size_t column = 0; column < columns; column++) {
            char shown [CELL_MAX];
            printable (cells [line * columns + column], shown, sizeof shown);
            memcpy (cells [line * columns + column], shown, sizeof shown);
            size_t width = strlen (cells [line * columns + column]);
            widths [column] = width > widths [column]? width: widths [column];
        }
    for (size_t line = 0; line < lines; line++)
        for (size_t column = 0; column < columns; column++) {
            const char *cell = cells [line * columns + column];
            if (column + 1 < columns)
                fprintf (out, "%-*s  ", (int) widths [column], cell);
            else
                fprintf (out, "%s\n", cell);
        }
    free (widths);
    return 0;
}

//  The table as aligned text columns, and the legend.
int
compare_print_text (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                    FILE *out)
{
    s_table_t table = { NULL, NULL, 0, 0 };
    int rc = s_table (sets, count, rows, row_count, &table);
    if (rc == 0)
        rc = compare_print_columns (table.cells, table.lines, table.columns, out);
    if (rc == 0)
        fprintf (out, "\n%s", compare_legend);
    s_table_free (&table);
    return rc;
}
//  The table as a small self-contained HTML page: real changes for the
//  worse in red, for the better in green.
int
compare_print_html (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                    FILE *out)
{
    s_table_t table = { NULL, NULL, 0, 0 };
    if (s_table (sets, count, rows, row_count, &table)) {
        s_table_free (&table);
        return -1;
    }
    const html_page_t page = {
        .title = "iofleet compare",
        .css = "body{font:14px/1.45 system-ui,'DejaVu Sans',sans-serif;margin:1.5em}"
               "table{border-collapse:collapse}th,td{padding:.2em .8em;border-bottom:1px solid #ddd;"
               "text-align:left;white-space:nowrap}th{background:#f3f3f3}"
               ".worse{background:#fde2e1}.better{background:#e0f3e2}"
               ".note{color:#555;white-space:pre-wrap}"
    };
    html_page_begin (&page, out);
    fputs ("<h1>iofleet compare</h1>\n<table>\n", out);
    for (size_t line = 0; line < table.lines; line++) {
        fputs ("<tr>", out);
        for (size_t column = 0; column < table.columns; column++) {
            const char *class = table.classes [line * table.columns + column];
            if (line == 0)
                fputs ("<th>", out);
            else
            if (class)
                fprintf (out, "<td class=\"%s\">", class);
            else
                fputs ("<td>", out);
            html_escaped (table.cells [line * table.columns + column], out);
            fputs (line? "</td>": "</th>", out);
        }
        fputs ("</tr>\n", out);
    }
    fputs ("</table>\n<p class=\"note\">", out);
    html_escaped_lines (compare_legend, out);
    fputs ("</p>\n", out);
    html_page_end (out);
    s_table_free (&table);
    return 0;
}
