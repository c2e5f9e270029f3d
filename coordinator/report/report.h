/*  coordinator/report/report.h: writers of a run's results, as text for a
    human and as JSON for programs (iofleet report, iofleet compare).

    The writers read a run_result_t (coordinator/results/results.h) and never change
    it. Every test's summary must have been filled by aggregate_test before:
    the writers print what the summary says, so that a report rendered
    again from a results file shows the same figures as the first one.

    Files are written atomically (report_write_atomic): a crash leaves
    either the old file or the new one, never half of one.
*/
#ifndef IOFLEET_REPORT_H
#define IOFLEET_REPORT_H

#include "../commands/cli.h"
#include "../results/results.h"

#include <stddef.h>
#include <stdio.h>

//  The text report: a header, the agents, one row per test, a line per
//  failed stream, then one block per test with its streams. Columns are as
//  wide as their widest cell.
int report_text (const run_result_t *run, FILE *out);

//  The seed tools' own notations, for the tests that run their
//  workloads, so that a thread comparing them reads at a glance: one
//  bonnie++-style line per host and iteration of a bonnie test, and
//  iozone's range over iterations of a rewrite test (seeds.c).
void report_text_seeds (const run_result_t *run, FILE *out);

//  The latency of the tests that measured it, every host merged: a line
//  per test and set of requests, and one per host of a test on several
//  (latency_text.c).
void report_text_latency (const run_result_t *run, FILE *out);

//  sysbench's figures for the random I/O tests: reads, writes and fsyncs
//  per second, MB/s read and written, the time, operations per minute
//  and %sys, for the fleet, each host and each stream (requests_text.c).
void report_text_requests (const run_result_t *run, FILE *out);

//  The results document (results.json): every figure of the run, for
//  programs. Rates that could not be computed (NAN) are null.
int report_json (const run_result_t *run, FILE *out);

//  The same as text ending in a newline, for the caller to free; NULL
//  when memory ran out.
char *report_json_text (const run_result_t *run);

//  The CSV report (report.csv): a header, then one row per test x
//  iteration x stream with every figure of the stream and of its test.
//  Column names carry their unit (rate_mbps, bytes, start_ns).
int report_csv (const run_result_t *run, FILE *out);

//  Write one CSV field, quoted when it holds a comma, a quote or a line
//  break (RFC 4180), control bytes written as \xNN.
void report_csv_text (const char *text, FILE *out);

//  The HTML report (report.html): one self-contained page with the
//  summary table and, per test, an inline SVG timeline of the rate per
//  sample interval per stream and per host.
int report_html (const run_result_t *run, FILE *out);

//  Whether a test's warning nbr is folded away in a report a person reads:
//  a fleet's hosts often share one warning, so each kind shows its first
//  REPORT_WARNINGS_SHOWN and folds the rest into one line. Returns 0 to
//  show the warning, -1 to leave it out, or the number of warnings of its
//  kind folded, for the line that says so in its place.
#define REPORT_WARNINGS_SHOWN 2
long report_warning_fold (const test_result_t *test, size_t nbr);

//  Append the samples of one test to a JSON lines file, one object a line:
//  {"test","iteration","agent","job","stream","t_ns","bytes"}. Returns 0,
//  or -1 when writing to out failed or memory ran out.
int report_samples_append (const test_result_t *test, FILE *out);


//  --------------------------------------------------------------------------
//  Formats
//
//  Every format is one row of report_formats: `iofleet report --format`
//  finds its row by name and renders it to stdout; a run's results
//  directory writes every row into its file. The renderers above return
//  0, or -1 when memory ran out or writing to out failed.

typedef int (report_render_fn) (const run_result_t *run, FILE *out);

typedef enum {
    REPORT_FORMAT_TEXT,
    REPORT_FORMAT_JSON,
    REPORT_FORMAT_CSV,
    REPORT_FORMAT_HTML,
    REPORT_FORMAT_COUNT             //  rows in report_formats
} report_format_id_t;

//  One output format.
typedef struct {
    report_format_id_t id;          //  its row in report_formats
    const char *name;               //  as --format names it: "text"
    const char *file_name;          //  its file in a results directory: "report.txt"
    report_render_fn *render;       //  the run in this format
} report_format_t;

extern const report_format_t report_formats [REPORT_FORMAT_COUNT];

//  The format called name ("text", "json", "csv", "html"), or NULL.
const report_format_t *report_format_find (const char *name);

//  Render run in format straight into PATH.tmp (a fleet's report is never
//  held whole in memory), then put it in place as report_write_atomic
//  does; a rendering that fails leaves PATH as it was. Returns 0, or -1
//  with "what(path): strerror" in err.
int report_format_write (const report_format_t *format, const run_result_t *run,
                         const char *path, char *err, size_t errlen);

//  Write length bytes of data to PATH atomically: into PATH.tmp in the
//  same directory, every write checked, fsync, rename over PATH, fsync of
//  the directory. A failure leaves PATH as it was and no PATH.tmp behind.
//  Returns 0, or -1 with the failing call in err.
int report_write_atomic (const char *path, const char *data, size_t length,
                         char *err, size_t errlen);

//  Read a results file (results.json) back into run, and the samples of
//  the samples.jsonl beside it when there is one. Summaries are taken as
//  written, not computed again. run must be empty (zeroed); on failure it
//  is left empty and err says "file: what is wrong". Returns 0 or -1.
int report_read (const char *path, run_result_t *run, char *err, size_t errlen);

//  report_read without the samples: what compare and the archive need.
//  Every value is checked alike: types, integer bounds, rates 0 or more,
//  percentages 0 to 100, a number written as a string refused.
int report_read_results (const char *path, run_result_t *run, char *err, size_t errlen);

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
int report_compare_bound (const char *text, compare_bound_t *bound, char *err, size_t errlen);

//  Exit statuses of a gate (--fail-on), as `git bisect run` reads them.
#define COMPARE_GATE_PASS   0       //  no change past its bound is real
#define COMPARE_GATE_FAIL   1       //  a real change past a bound
#define COMPARE_GATE_SKIP   125     //  a set is partial, failed or lacks a test

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
int report_compare (const run_result_t *runs, const char *const *origins,
                    const char *const *labels, size_t count, const compare_options_t *options,
                    FILE *out, FILE *log, char *err, size_t errlen);

//  `iofleet report RESULT.json [--format F]` and `iofleet compare A.json
//  B.json ... [--labels a,b,...] [--format F] [--fail-on B ...]`: argv [0]
//  is the command's name. Return the exit status: 0, 1 for a file that
//  cannot be read, 2 for bad usage; with --fail-on, the gate's status
//  (a file that cannot be read is then 125: it cannot be judged).
int report_command_report (int argc, char **argv);
int report_command_compare (int argc, char **argv);

//  `iofleet db import FILE... [--db FILE]` (db_command.c) and `iofleet
//  history [--db FILE] [filters] [--format text|html]` (history.c), on
//  the archive (../archive/archive.h). Return 0, 1 when a file or the archive
//  could not be read or written, 2 for bad usage.
int report_command_db (int argc, char **argv);
int report_command_history (int argc, char **argv);

//  The four commands' tables (coordinator/commands/cli.h), for the list of
//  commands in main.c.
extern const cli_command_t report_report_command;
extern const cli_command_t report_compare_command;
extern const cli_command_t report_db_command;
extern const cli_command_t report_history_command;

#endif
