/*  coordinator/report/compare_text.c: the comparison as an aligned text
    table and as a small HTML page; see compare.h.
*/
#include "compare.h"
#include "../aggregate.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const compare_figure_names [FIGURES] = {
    "MB/s", "disk MB/s", "network MB/s", "%sys"
};

//  A figure's value as text: a rate as the reports write rates, %sys
//  with one decimal.
void
compare_value_text (figure_t figure, double value, char *buf, size_t buflen)
{
    if (figure == FIGURE_SYS)
        snprintf (buf, buflen, "%.1f", value);
    else
        aggregate_format_rate (value, buf, buflen);
}

//  A change as text: "+2.1%", with "~" when within spread.
static void
s_change_text (const cell_t *cell, char *buf, size_t buflen)
{
    if (isfinite (cell->change_pct))
        snprintf (buf, buflen, "%+.1f%%%s", cell->change_pct, cell->within_spread? "~": "");
    else
        buf [0] = 0;
}

//  A text cell of a row in set nbr: "97.1 +0.9%~", or "missing".
static void
s_cell_text (const set_t *sets, size_t nbr, const row_t *row, char *buf, size_t buflen)
{
    cell_t cell = compare_cell (sets, nbr, row);
    if (cell.missing) {
        snprintf (buf, buflen, "missing");
        return;
    }
    char value [64], change [64];
    compare_value_text (row->figure, compare_mean (&cell.spread), value, sizeof value);
    s_change_text (&cell, change, sizeof change);
    snprintf (buf, buflen, "%s%s%s", value, change [0]? " ": "", change);
}

//  The text cells of a whole table, row 0 the header; in text the disk
//  and network rows of a test merge into one "disk/network" row. Returns
//  the number of rows filled.
size_t
compare_text_table (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
              char (*cells) [CELL_MAX], size_t columns)
{
    snprintf (cells [0], CELL_MAX, "test");
    snprintf (cells [1], CELL_MAX, "figure");
    for (size_t nbr = 0; nbr < count; nbr++)
        snprintf (cells [2 + nbr], CELL_MAX, "%s", sets [nbr].label);
    size_t line = 1;
    for (size_t row = 0; row < row_count; row++) {
        char (*out) [CELL_MAX] = cells + line * columns;
        bool pair = rows [row].figure == FIGURE_DISK && row + 1 < row_count
                 && rows [row + 1].figure == FIGURE_NETWORK
                 && !strcmp (rows [row + 1].test, rows [row].test);
        snprintf (out [0], CELL_MAX, "%s", rows [row].test);
        snprintf (out [1], CELL_MAX, "%s", pair? "disk/network": compare_figure_names [rows [row].figure]);
        for (size_t nbr = 0; nbr < count; nbr++) {
            if (!pair) {
                s_cell_text (sets, nbr, &rows [row], out [2 + nbr], CELL_MAX);
                continue;
            }
            //  "98/33 +2.1%~/-5.7%", as the threads wrote mixed tests.
            cell_t disk = compare_cell (sets, nbr, &rows [row]);
            cell_t network = compare_cell (sets, nbr, &rows [row + 1]);
            if (disk.missing && network.missing) {
                snprintf (out [2 + nbr], CELL_MAX, "missing");
                continue;
            }
            char disk_value [64] = "-", network_value [64] = "-";
            char disk_change [64], network_change [64];
            if (!disk.missing)
                compare_value_text (FIGURE_DISK, compare_mean (&disk.spread), disk_value, sizeof disk_value);
            if (!network.missing)
                compare_value_text (FIGURE_NETWORK, compare_mean (&network.spread),
                              network_value, sizeof network_value);
            s_change_text (&disk, disk_change, sizeof disk_change);
            s_change_text (&network, network_change, sizeof network_change);
            if (nbr == 0 || (!disk_change [0] && !network_change [0]))
                snprintf (out [2 + nbr], CELL_MAX, "%s/%s", disk_value, network_value);
            else
                snprintf (out [2 + nbr], CELL_MAX, "%s/%s %s/%s", disk_value, network_value,
                          disk_change [0]? disk_change: "-",
                          network_change [0]? network_change: "-");
        }
        if (pair)
            row++;
        line++;
    }
    return line;
}

//  The note under a table that says how to read it.
static const char s_note [] =
    "values: mean of the iterations; change: against the first column; "
    "~: within the run-to-run spread (min..max of the iterations) of either side";

//  The table as aligned text columns.
void
compare_print_text (char (*cells) [CELL_MAX], size_t lines, size_t columns, FILE *out)
{
    size_t widths [columns];
    memset (widths, 0, sizeof widths);
    for (size_t line = 0; line < lines; line++)
        for (size_t column = 0; column < columns; column++) {
            size_t width = strlen (cells [line * columns + column]);
            widths [column] = width > widths [column]? width: widths [column];
        }
    for (size_t line = 0; line < lines; line++) {
        for (size_t column = 0; column < columns; column++) {
            const char *cell = cells [line * columns + column];
            if (column + 1 < columns)
                fprintf (out, "%-*s  ", (int) widths [column], cell);
            else
                fprintf (out, "%s\n", cell);
        }
    }
    fprintf (out, "\n%s\n", s_note);
}

//  The table as a small self-contained HTML page.
void
compare_print_html (char (*cells) [CELL_MAX], size_t lines, size_t columns, FILE *out)
{
    fputs ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<title>iofleet compare</title>\n<style>body{font:14px/1.45 system-ui,"
           "'DejaVu Sans',sans-serif;margin:1.5em}table{border-collapse:collapse}"
           "th,td{padding:.2em .8em;border-bottom:1px solid #ddd;text-align:left;"
           "white-space:nowrap}th{background:#f3f3f3}.note{color:#555}</style>\n"
           "</head>\n<body>\n<h1>iofleet compare</h1>\n<table>\n", out);
    for (size_t line = 0; line < lines; line++) {
        fputs ("<tr>", out);
        for (size_t column = 0; column < columns; column++) {
            fputs (line? "<td>": "<th>", out);
            for (const char *c = cells [line * columns + column]; *c; c++)
                switch (*c) {
                    case '&': fputs ("&amp;", out); break;
                    case '<': fputs ("&lt;", out); break;
                    case '>': fputs ("&gt;", out); break;
                    default: fputc (*c, out);
                }
            fputs (line? "</td>": "</th>", out);
        }
        fputs ("</tr>\n", out);
    }
    fprintf (out, "</table>\n<p class=\"note\">%s</p>\n</body>\n</html>\n", s_note);
}

