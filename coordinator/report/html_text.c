/*  coordinator/report/html_text.c: the parts of the text report the page
    carries as the text has them; see html.h.

    The tables are the text's models (text.h) printed as HTML tables; the
    lines (failures, grouped warnings and notices,
    how a test stopped, iozone's ranges) are the text's own lines,
    preformatted. Nothing here computes a figure.
*/
#include "html.h"
#include "report.h"
#include "../numbers/aggregate.h"

#include <inttypes.h>
#include <stdio.h>

//  What fn prints of the run, under heading (NULL for none).
static void
s_lines (const char *heading, const char *kind,
         void (*fn) (const run_result_t *run, FILE *out), const run_result_t *run, FILE *out)
{
    html_capture_t capture;
    FILE *mem = html_capture_begin (&capture);
    if (mem)
        fn (run, mem);
    html_capture_end (&capture, heading, kind, out);
}

//  Where the rows of a table of figures go on the page.
typedef struct {
    FILE *out;
    const char *heading;            //  the table's <h2>
    const text_rows_head_t *head;
    size_t rows;                    //  printed so far
} s_rows_t;

//  A row of a table of figures, its heading and header before the first.
static void
s_row (void *sink, const text_row_t *row)
{
    s_rows_t *page = sink;
    FILE *out = page->out;
    if (page->rows++ == 0) {
        fprintf (out, "<h2>%s</h2>\n<p class=\"meta\">", page->heading);
        html_escaped (page->head->caption, out);
        fputs ("</p>\n<table>\n<tr><th>test</th><th>", out);
        html_escaped (page->head->where, out);
        fputs ("</th>", out);
        for (int f = 0; f < text_rows_figures (page->head); f++) {
            fputs ("<th>", out);
            html_escaped (page->head->figure [f], out);
            fputs ("</th>", out);
        }
        fputs ("</tr>\n", out);
    }
    fputs ("<tr><td>", out);
    html_escaped (row->name, out);
    fputs ("</td>", out);
    if (row->where) {
        fputs ("<td>", out);
        html_escaped (row->where, out);
        fputs ("</td>", out);
    }
    if (row->note) {
        fprintf (out, "<td colspan=\"%d\">", text_rows_figures (page->head) + !row->where);
        html_escaped (row->note, out);
        fputs ("</td>", out);
    }
    else
        for (int f = 0; f < text_rows_figures (page->head); f++) {
            fputs ("<td class=\"n\">", out);
            html_escaped (row->cell [f], out);
            fputs ("</td>", out);
        }
    fputs ("</tr>\n", out);
}

void
html_rows_table (const char *heading, const text_rows_head_t *head, text_rows_fn *rows,
                 const run_result_t *run, FILE *out)
{
    s_rows_t page = { .out = out, .heading = heading, .head = head };
    rows (run, s_row, &page);
    if (page.rows)
        fputs ("</table>\n", out);
}

void
html_text_sections (const run_result_t *run, FILE *out)
{
    s_lines (NULL, "lines wrap failed", text_failures, run, out);
    s_lines (NULL, "lines wrap", text_warnings, run, out);
    text_repeated_t repeated;
    table_t table;
    if (text_table_iterations (run, &repeated, &table)) {
        char caption [128];
        text_iterations_caption (run->units, caption, sizeof caption);
        fputs ("<h2>Iterations</h2>\n<p class=\"meta\">", out);
        html_escaped (caption, out);
        fputs ("</p>\n", out);
        html_table_print (&table, NULL, out);
    }
    html_rows_table ("bonnie++", &seeds_bonnie_head, seeds_bonnie_rows, run, out);
    s_lines ("iozone", "lines", seeds_iozone_text, run, out);
    html_rows_table ("Random I/O", &requests_head, requests_rows, run, out);
}

void
html_test_details (const run_result_t *run, FILE *out)
{
    fputs ("<h2>Tests in detail</h2>\n", out);
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        fputs ("<section class=\"detail\"><h3>", out);
        html_escaped (test->name, out);
        if (test->iteration > 1)
            fprintf (out, " #%" PRIu32, test->iteration);
        fputs ("</h3>\n", out);
        //  A fleet's test shows its slowest hosts, not every stream.
        html_capture_t capture;
        FILE *mem = html_capture_begin (&capture);
        bool fleet = false;
        if (mem) {
            text_test_head (test, mem);
            fleet = text_fleet_test (test, run->units, mem);
        }
        html_capture_end (&capture, NULL, "lines wrap", out);
        latency_percentiles_draw (test, out);
        text_test_view_t view = { .test = test, .units = run->units };
        table_t table;
        if (!fleet) {
            text_table_streams (&view, &table);
            html_table_print (&table, "streams", out);
            if (test->host_count) {
                text_table_hosts (&view, &table);
                html_table_print (&table, "hosts", out);
            }
        }
        if (test->monitor_count) {
            text_table_monitors (&view, &table);
            html_table_print (&table, "monitors", out);
        }
        fputs ("</section>\n", out);
    }
}
