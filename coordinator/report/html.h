/*  coordinator/report/html.h: what the report's page (html.c) draws its
    tests with: timelines (timeline.c) and heat maps (heatmap.c). Private
    to coordinator/report/; the pieces of every page are html_kit.h.
*/
#ifndef IOFLEET_REPORT_HTML_H
#define IOFLEET_REPORT_HTML_H

#include "html_kit.h"
#include "text.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

//  A test draws one line per stream up to this many streams and hosts;
//  past either, a heat map (heatmap.c).
#define HTML_LINES_STREAMS_MAX  32
#define HTML_LINES_HOSTS_MAX    16

//  A test gets a chart of its own (timeline or heat map) when one of its
//  streams has at least this many intervals; a shorter one is a bar of
//  the bar chart only.
#define HTML_CHART_INTERVALS_MIN 5

//  A table of more rows than this is folded (<details>), its summary
//  saying how many.
#define HTML_TABLE_UNFOLDED     TEXT_FLEET_ROWS

//  A table of the text report's model (text.h) as an HTML table, each
//  cell escaped, figures right-aligned; folded past HTML_TABLE_UNFOLDED
//  rows, the summary saying "N what"; never folded when what is NULL
//  (html_table.c).
void html_table_print (const table_t *table, const char *what, FILE *out);

//  What a function of the text report prints, taken as it prints it: open
//  a stream with html_capture_begin (NULL when out of memory), print into
//  it, and html_capture_end sets the lines on the page preformatted in
//  class kind, under <h2>heading</h2> unless heading is NULL, and returns
//  whether there were any.
typedef struct {
    FILE *mem;
    char *text;
    size_t length;
} html_capture_t;
FILE *html_capture_begin (html_capture_t *capture);
bool html_capture_end (html_capture_t *capture, const char *heading, const char *kind, FILE *out);

//  A table of figures by test (text.h's text_row_t) under <h2>heading</h2>
//  and its caption, the rows as rows makes them for the text; nothing when
//  it makes none (html_text.c).
void html_rows_table (const char *heading, const text_rows_head_t *head, text_rows_fn *rows,
                      const run_result_t *run, FILE *out);

//  The parts of the text report the page carries below its tests table:
//  failures, warnings and notices, iterations, the seeds' tables, the
//  random-I/O table (html_text.c).
void html_text_sections (const run_result_t *run, FILE *out);

//  Each test as the text details it: its totals and how it stopped, its
//  streams and hosts (of a fleet, its slowest hosts) and its monitors.
void html_test_details (const run_result_t *run, FILE *out);

//  The bar chart at the top of the page: a bar per test and phase, its
//  iterations as dots (barchart.c).
void barchart_draw (const run_result_t *run, FILE *out);

//  Each test's latency over time (the fleet's p50, p99 and p99.9 per
//  interval, and the p99 of the hosts first in its tail), for a test of
//  intervals enough for a line (latency_html.c).
void latency_timeline_html (const run_result_t *run, FILE *out);

//  A test's latency by percentile (x: percentile, log scale, to 99.99;
//  y: ms, log scale): a line per class of its streams from their merged
//  histograms, and its hosts of the highest p99 beside them; nothing for
//  a test that measured no request (latency_plot.c).
void latency_percentiles_draw (const test_result_t *test, FILE *out);

//  Whether the count iterations at tests are drawn as heat maps.
bool heatmap_chosen (const test_result_t *tests, size_t count);

//  One test's section as heat maps, one per iteration: rows of hosts (or
//  of streams, with few hosts), columns of time, rates in units.
void heatmap_draw (size_t section, const test_result_t *tests, size_t count, int units,
                   FILE *out);

//  One test's section of the page: a chart of the count iterations at
//  tests (which share the test's name), rates in units (units_t), its
//  legend and, for several iterations, the buttons that pick one.
void timeline_draw (size_t section, const test_result_t *tests, size_t count, int units,
                    FILE *out);

#endif
