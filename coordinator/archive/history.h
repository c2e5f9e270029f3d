/*  coordinator/archive/history.h: the runs of the archive as `iofleet
    history` sees them (history.c: loaded, and a test's figure in each),
    and their two renderings (../report/history_text.c, the table;
    ../report/history_html.c, the figure across runs). The command is
    ../commands/command_history.c.
*/
#ifndef IOFLEET_HISTORY_H
#define IOFLEET_HISTORY_H

#include "archive.h"
#include "../compare/compare.h"

#include <stdio.h>

//  One run of the archive, read back.
typedef struct {
    run_result_t run;               //  the run, its agents, its tests' summaries
    char *results_dir;              //  where its results directory is
    char kernels [LABEL_MAX];       //  its agents' kernels, joined with '+'
    char hosts [LABEL_MAX];         //  its agents' host names, joined
} history_run_t;

//  The runs listed, oldest first, and the figure shown.
typedef struct {
    history_run_t *runs;            //  in the order they started
    size_t count;
    const metric_t *metric;         //  the figure drawn and tabled
    const char **tests;             //  the test names shown, in the order first run
    size_t test_count;
} history_t;

//  One run's figure of one test: the first run apart from iterations
//  2..N when the test ran more than once, as compare counts them.
typedef struct {
    size_t iterations;              //  runs of the test
    size_t count;                   //  values in the spread (2..N, or the one)
    double first;                   //  iteration 1 of a test run more than once, else NAN
    double median, min, max;        //  of the values; NAN for none
    double stddev;                  //  their sample standard deviation; NAN below two
    size_t partial;                 //  runs of the test with a stream whose agent was lost:
                                    //  their figures are lower bounds
    size_t failed;                  //  runs with a stream that failed (none lost)
    bool cut_short;                 //  the run stopped early, or the archive holds only part
} history_point_t;

//  What marks a figure over a partial or failed run, and what it means.
#define HISTORY_PARTIAL_MARK "*"
#define HISTORY_PARTIAL_NOTE "*: over a partial run (an agent lost: a lower bound), a failed " \
                             "one, or one cut short; compare cannot judge it"

//  The figure of test in one run of the history.
history_point_t history_point (const history_t *history, const history_run_t *run,
                               const char *test);

//  A figure of a point as its metric prints it, marked when the point
//  holds a partial or failed run; "-" when there is none.
void history_value (const history_t *history, const history_point_t *point, double value,
                    char *buf, size_t buflen);

//  A point's runs: "3", "3, 1 partial", "3, 1 failed", "1, run cut short".
void history_iterations (const history_point_t *point, char *buf, size_t buflen);

//  "2026-12-01 09:32:07" of a wall clock instant, UTC.
void history_utc (int64_t wall_ns, char *buf, size_t buflen);

//  Load the runs of archive that filter matches into history (empty),
//  oldest first, and with test (or NULL), the names of the tests it
//  selects, itself or its phases. Returns 0, or -1 with err.
int history_load (archive_t *archive, const archive_filter_t *filter, const char *test,
                  history_t *history, char *err, size_t errlen);

//  Free what history_load made; history is empty after.
void history_clear (history_t *history);

//  The runs as a text table: one line per run, or with tests, per run of
//  each test. Returns -1 when writing failed.
int history_print_text (const history_t *history, FILE *out);

//  The page: per test a figure of every run (median, min..max, first
//  run), grouped by kernel, and its table. Returns -1 when memory ran out.
int history_print_html (const history_t *history, FILE *out);

#endif
