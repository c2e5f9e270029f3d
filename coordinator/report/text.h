/*  coordinator/report/text.h: what the text report (text.c) and its
    fleet-sized parts (text_fleet.c) share. Private to coordinator/report/.

    A report of a handful of hosts lists every stream and host; past
    TEXT_FLEET_ROWS of them it summarizes (the agents by what they have in
    common, a test by its slowest hosts) and leaves the lists to
    results.json and report.csv, which keep every one.
*/
#ifndef IOFLEET_REPORT_TEXT_H
#define IOFLEET_REPORT_TEXT_H

#include "../results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TABLE_COLUMNS_MAX 12        //  the stream table is the widest
#define TABLE_CELL_MAX    320       //  fits a host name or kernel release (255)

//  Up to this many agents, streams or hosts the text report lists them.
#define TEXT_FLEET_ROWS         16
//  A fleet's test names this many of its slowest hosts.
#define TEXT_SLOWEST_HOSTS      8
//  A test with many failed streams lists this many of them.
#define TEXT_FAILURES_LISTED    8

//  The cells of one table row.
typedef struct {
    char cell [TABLE_COLUMNS_MAX][TABLE_CELL_MAX];
} table_row_t;

//  Fill the cells of one row: row 0 is the header, rows 1.. the data.
typedef void (table_fill_fn) (const void *data, size_t row, table_row_t *cells);

//  A table whose rows are produced on demand, once to measure the columns
//  and once to print them, so that printing needs no memory of its own.
typedef struct {
    size_t columns;                 //  at most TABLE_COLUMNS_MAX
    size_t rows;                    //  data rows, the header not counted
    table_fill_fn *fill;            //  produces a row's cells
    const void *data;               //  passed to fill
    const char *indent;             //  printed before every row
} table_t;

//  What a test's tables need: the test and the units of the run.
typedef struct {
    const test_result_t *test;
    int units;
} text_test_view_t;

//  The distinct names of repeated tests, in the order they first ran.
typedef struct {
    const run_result_t *run;
    const char *names [256];        //  borrowed from the run's tests
    size_t count;
} text_repeated_t;

//  The report's tables as models (text.c): one function makes a table's
//  rows and both the text (text_table_print) and the page
//  (html_table_print) print them, so that no figure is computed twice.
//  The agents, the tests, the iterations of repeated tests (false when
//  none was repeated; repeated holds the table's names), and a test's
//  streams, hosts and monitors.
void text_table_agents (const run_result_t *run, table_t *table);
void text_table_tests (const run_result_t *run, table_t *table);
bool text_table_iterations (const run_result_t *run, text_repeated_t *repeated, table_t *table);
void text_table_streams (const text_test_view_t *view, table_t *table);
void text_table_hosts (const text_test_view_t *view, table_t *table);
void text_table_monitors (const text_test_view_t *view, table_t *table);

//  The line above the iterations table.
void text_iterations_caption (int units, char *buf, size_t buflen);

//  A test's line of totals (streams, hosts, bytes, window) and how it
//  ended (stop_text_bound).
void text_test_head (const test_result_t *test, FILE *out);

//  One line per stream that failed or never reported.
void text_failures (const run_result_t *run, FILE *out);

//  A table of figures by test as rows, for the text and the page alike:
//  a row is the test's label (on its first row, else ""), where its
//  figures come from ("all", "@host", a set of requests), then either
//  its figures, as printed, or a note (a line of text below them).
#define TEXT_ROW_FIGURES 10
typedef struct {
    const char *name;
    const char *where;              //  NULL: the note starts in its column
    const char *note;               //  a line of text instead of figures, or NULL
    char cell [TEXT_ROW_FIGURES][32];
    char text [256];                //  holds the note
} text_row_t;
typedef void (text_row_fn) (void *sink, const text_row_t *row);

//  What heads such a table: its caption, the header of its second column
//  and of its figures (as many as it names, up to TEXT_ROW_FIGURES), and
//  the widths the text gives them (the figures right-aligned).
typedef struct {
    const char *caption;
    const char *where;
    const char *figure [TEXT_ROW_FIGURES];
    int name_width, where_width;
    int width [TEXT_ROW_FIGURES];
} text_rows_head_t;

//  What makes the rows of such a table, passing each to fn.
typedef void (text_rows_fn) (const run_result_t *run, text_row_fn *fn, void *sink);

//  How many figures a row of such a table has: those head names.
int text_rows_figures (const text_rows_head_t *head);

//  Print the rows rows makes in the text's columns, the caption and
//  header first; nothing when it makes none (text_table.c). No line ends
//  in blanks (an empty last figure is not padded).
void text_rows_print (const text_rows_head_t *head, text_rows_fn *rows, const run_result_t *run,
                      FILE *out);

//  The latency table (latency_text.c): per test a row per set of requests
//  measured, every host merged, then of a test on several hosts a row
//  per host (of a fleet, its slowest by p99 and a note of the others).
extern const text_rows_head_t latency_head;
text_rows_fn latency_rows;

//  The tail attribution (tail_text.c): per test on several hosts the
//  hosts first in its tail, ranked, then a note of the others, the
//  percentiles and the cause.
extern const text_rows_head_t tail_head;
text_rows_fn tail_rows;

//  bonnie++'s table (seeds.c): per run of a bonnie test a row per host,
//  in bonnie++'s columns; and iozone's ranges, a line per test.
extern const text_rows_head_t seeds_bonnie_head;
text_rows_fn seeds_bonnie_rows;
void seeds_iozone_text (const run_result_t *run, FILE *out);

//  The random-I/O table (requests_text.c): per test the fleet ("all"),
//  each host ("@host") and each stream ("agent job.N"), or past
//  TEXT_FLEET_ROWS streams a note of their spread and the slowest.
extern const text_rows_head_t requests_head;
text_rows_fn requests_rows;

//  Print a table, every column as wide as its widest cell (text_table.c).
void text_table_print (const table_t *table, FILE *out);

//  Header names into the cells of row 0, "MB/s" in them in units.
void text_table_header (table_row_t *cells, const char *const *names, size_t count, int units);

//  Figures as the text reports write them (text_table.c): a share of CPU
//  time ("12.5", "-" when unknown); a time in ms with three decimals
//  ("0.012 ms", skews); an instant within a test in ms, four significant
//  figures ("0.003", "12.35", "4102"); memory ("23.4 GiB"); a wall-clock
//  instant ("2026-11-30 03:10:00 UTC").
void text_format_pct (double pct, char *buf, size_t buflen);
void text_format_ms_fixed (int64_t time_ns, char *buf, size_t buflen);
void text_format_ms_instant (int64_t time_ns, char *buf, size_t buflen);
void text_format_memory (uint64_t bytes, char *buf, size_t buflen);
void text_format_utc (int64_t wall_ns, char *buf, size_t buflen);

//  The warnings of every test, one line per test and kind, then the
//  notices apart (text_warnings.c).
void text_warnings (const run_result_t *run, FILE *out);

//  How a test ended (size-, request- or time-bound), below its totals
//  line; for a time-bound test how far apart its streams ended and how
//  late they stopped, and why; and with a queue, the requests in flight
//  its streams reached (stop_text.c).
void stop_text_bound (const test_result_t *test, FILE *out);

//  The run's agents in a few lines, when they are a fleet. Returns true
//  if it printed them, false when there are few enough for the table.
bool text_fleet_agents (const run_result_t *run, FILE *out);

//  A fleet's test below its totals line: the spread of its hosts and its
//  slowest ones. Returns true if it printed them, false when the test's
//  streams and hosts are few enough for their tables.
bool text_fleet_test (const test_result_t *test, int units, FILE *out);

#endif
