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
//  late they stopped, and why (stop_text.c).
void stop_text_bound (const test_result_t *test, FILE *out);

//  The run's agents in a few lines, when they are a fleet. Returns true
//  if it printed them, false when there are few enough for the table.
bool text_fleet_agents (const run_result_t *run, FILE *out);

//  A fleet's test below its totals line: the spread of its hosts and its
//  slowest ones. Returns true if it printed them, false when the test's
//  streams and hosts are few enough for their tables.
bool text_fleet_test (const test_result_t *test, int units, FILE *out);

#endif
