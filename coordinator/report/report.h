/*  coordinator/report/report.h: writers of a run's results, as text for a
    human and as JSON for programs (iofleet report, iofleet compare).

    The writers read a run_result_t (coordinator/results.h) and never change
    it. Every test's summary must have been filled by aggregate_test before:
    the writers print what the summary says, so that a report rendered
    again from a results file shows the same figures as the first one.

    Files are written atomically (report_write_atomic): a crash leaves
    either the old file or the new one, never half of one.
*/
#ifndef IOFLEET_REPORT_H
#define IOFLEET_REPORT_H

#include "../cli.h"
#include "../results.h"

#include <stddef.h>
#include <stdio.h>

//  The text report: a header, the agents, one row per test, a line per
//  failed stream, then one block per test with its streams. Columns are as
//  wide as their widest cell.
int report_text (const run_result_t *run, FILE *out);

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

//  Render run in format into PATH, atomically (report_write_atomic).
//  Returns 0, or -1 with "what(path): strerror" in err.
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

//  Compare result files: one row per test (and per class of a mixed
//  test), one column per file, changes against the first column in %.
//  labels may be NULL (kernel releases then), else holds count labels.
//  Returns 0, or -1 with "file: what is wrong" in err.
int report_compare (const char *const *paths, const char *const *labels, size_t count,
                    const report_format_t *format, FILE *out, char *err, size_t errlen);

//  `iofleet report RESULT.json [--format F]` and `iofleet compare A.json
//  B.json ... [--labels a,b,...] [--format F]`: argv [0] is the command's
//  name. Return the exit status: 0, 1 for a file that cannot be read,
//  2 for bad usage.
//  Their tables (coordinator/cli.h), for the list of commands in main.c.
int report_command_report (int argc, char **argv);
int report_command_compare (int argc, char **argv);
extern const cli_command_t report_report_command;
extern const cli_command_t report_compare_command;

#endif
