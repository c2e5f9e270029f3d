/*  coordinator/compare/compare.h: the parts of `iofleet compare`, shared
    by its files and by `iofleet history`, and its entry, compare_run.

        compare_metrics.c   the figures compared: one table, a row each
        compare_sets.c      runs as sets: labels, tests, rows, values
        compare_verdict.c   each cell against the first set (stats.h)
        compare_text.c      the table as aligned text and as HTML
        compare_data.c      every number as CSV and as JSON
        compare_gate.c      --fail-on: bounds, and the exit status
        compare.c           the entry: sets, rows, cells, print, gate
*/
#ifndef IOFLEET_COMPARE_H
#define IOFLEET_COMPARE_H

#include "../exit_status.h"
#include "../numbers/stats.h"
#include "../report/report.h"

#include <stdbool.h>
#include <stdio.h>

#define LABEL_MAX   200             //  a column's label
#define CELL_MAX    256             //  a text cell


//  --------------------------------------------------------------------------
//  The entry

//  A bound of the gate, `--fail-on 'MB/s<-5%'`: the figure, which way,
//  and how far its change may go.
typedef struct {
    char metric [32];               //  a figure's name, as compare rows name it
    char op;                        //  '<': fails below pct; '>': above it
    double pct;                     //  change in % of the first column
    char text [64];                 //  as given, for messages
} compare_bound_t;

//  Parse "NAME<PCT%" or "NAME>PCT%" (PCT signed: "-5", "+10"). Returns 0,
//  or -1 with what is wrong in err.
int compare_bound_parse (const char *text, compare_bound_t *bound, char *err, size_t errlen);

//  What to compare and how to judge it.
typedef struct {
    const char *const *tests;       //  only these tests (and their phases), or NULL
    size_t test_count;
    const compare_bound_t *bounds;  //  the gate's bounds, or NULL
    size_t bound_count;
    report_format_id_t format;      //  of the table
} compare_options_t;

//  Compare runs: one row per test and figure (first runs apart, spread
//  rows), one column per run, changes against the first column in %,
//  each judged noise or real. origins name the runs (their files) and
//  labels the columns (NULL: kernel releases). The table goes to out,
//  the gate's findings to log. Returns the gate's status (PASS without
//  bounds), or -1 with what went wrong in err.
int compare_run (const run_result_t *runs, const char *const *origins,
                    const char *const *labels, size_t count, const compare_options_t *options,
                    FILE *out, FILE *log, char *err, size_t errlen);


//  --------------------------------------------------------------------------
//  Metrics

//  Which way a figure is better.
typedef enum {
    METRIC_HIGHER_BETTER,           //  throughput
    METRIC_LOWER_BETTER             //  CPU, latency
} metric_better_t;

//  One figure that compare shows and --fail-on names. Every figure is a
//  row of compare_metrics; a test whose results lack it (get gives NAN
//  for every run) has no row for it.
typedef struct {
    const char *name;               //  as rows and --fail-on name it: "MB/s"
    const char *source;             //  where results.json keeps it, for the legend
    metric_better_t better;         //  which way is an improvement
    const char *unit;               //  of the values as printed
    double (*get) (const test_result_t *test);  //  the figure of one run; NAN if none
    void (*format) (double value, char *buf, size_t buflen);  //  a value as printed
    const char *joined;             //  text shows this row and the next as one, so
                                    //  named ("disk/network"); NULL for most
    bool always;                    //  listed even when no set has it
} metric_t;

extern const metric_t compare_metrics [];
extern const size_t compare_metric_count;

//  The metric named name, or NULL.
const metric_t *compare_metric (const char *name);


//  --------------------------------------------------------------------------
//  Sets and rows

//  One column: a run, as read from a file or from the archive.
typedef struct {
    const run_result_t *run;        //  borrowed
    const char *origin;             //  its file (or directory), for messages
    char label [LABEL_MAX];         //  column heading
    char kernels [LABEL_MAX];       //  agents' kernel releases, joined with '+'
} set_t;

//  What a row's values are.
typedef enum {
    ROW_MAIN,                       //  iterations 2..N, or the only one
    ROW_SPREAD,                     //  the stddev of the main row's values
    ROW_FIRST                       //  iteration 1 of a test run more than once
} row_kind_t;

//  A row of the table: a figure of a test.
typedef struct {
    const char *test;               //  test name (borrowed)
    const metric_t *metric;         //  the figure
    row_kind_t kind;                //  which values
    bool split;                     //  some set ran the test twice or more:
                                    //  the first run is apart
} row_t;

//  Distinct kernel releases (or host names) of a run's agents, joined with
//  '+' in the order the agents are listed: "6.1.0-18-amd64".
void compare_join_agents (const run_result_t *run, bool hosts, char *buf, size_t buflen);

//  Sets over count runs: labelled by labels (NULL: the kernels, else the
//  origins' file names), a label seen before numbered " #2".
void compare_sets (set_t *sets, const run_result_t *runs, const char *const *origins,
                   const char *const *labels, size_t count);

//  The rows: every test (only those named in tests when test_count > 0,
//  a name also taking its phases "name/..."), in the order of the sets;
//  per test its main rows and their spread, then its first-run rows.
//  NULL when memory ran out.
row_t *compare_rows (const set_t *sets, size_t count, const char *const *tests,
                     size_t test_count, size_t *row_count);

//  The values of a row in one set into values (room for the set's test
//  count); returns how many.
size_t compare_values (const set_t *set, const row_t *row, double *values);

//  Whether a test name is selected by the names given (all when none).
bool compare_selected (const char *name, const char *const *tests, size_t test_count);


//  --------------------------------------------------------------------------
//  Cells

//  A row's figure in one set, against the same row in the first set.
typedef struct {
    bool missing;                   //  the set has no value for it
    size_t count;                   //  values
    double median;                  //  of the values (the stddev, in a spread row)
    double min, max;                //  their range
    double stddev;                  //  sample standard deviation; 0 for one value
    bool compared;                  //  a change against the first set exists
    double change_pct;              //  median against the first set's, %; NAN if none
    bool judged;                    //  a verdict exists (main rows only)
    stats_verdict_t verdict;        //  noise or real, strong or weak, interval
} cell_t;

//  The cell of a row in set nbr. Returns -1 when memory ran out.
int compare_cell (const set_t *sets, size_t nbr, const row_t *row, cell_t *cell);

//  The heading of a row: "dd1 first run", "MB/s stddev".
void compare_row_test (const row_t *row, char *buf, size_t buflen);
void compare_row_figure (const row_t *row, char *buf, size_t buflen);


//  --------------------------------------------------------------------------
//  Formats

//  The table as aligned text, or as a small HTML page. Returns -1 when
//  memory ran out.
int compare_print_text (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                        FILE *out);
int compare_print_html (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                        FILE *out);

//  Every number as CSV, or as JSON. Return 0, or -1 when memory ran out.
int compare_print_csv (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                       FILE *out);
int compare_print_json (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                        FILE *out);

//  Cells (lines x columns, row 0 the header) as aligned text columns.
//  Returns -1 when memory ran out.
int compare_print_columns (char (*cells) [CELL_MAX], size_t lines, size_t columns, FILE *out);


//  The legend under a table: what the values, marks and intervals mean.
extern const char compare_legend [];


//  --------------------------------------------------------------------------
//  The gate

//  Check the bounds over the table: problems on log, one line each.
//  Returns EXIT_STATUS_OK, _FAIL or _SKIP (report.h), or -1 when
//  memory ran out.
int compare_gate (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                  const compare_bound_t *bounds, size_t bound_count, FILE *log);

#endif
