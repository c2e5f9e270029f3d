/*  coordinator/report/report.h: writers of a run's results, as text for a
    human and as JSON for programs (iofleet report, iofleet compare).

    The writers read a run_result_t (coordinator/results.h) and never change
    it. Every test's summary must have been filled by aggregate_test before:
    the writers print what the summary says, so that a report rendered
    again from a results file shows the same figures as the first one.

    Files are written atomically: the content goes to PATH.tmp in the same
    directory, is flushed to disk with fsync, and is renamed over PATH; a
    crash leaves either the old file or the new one, never half of one.
    Functions that write files return 0, or -1 with "what(path): strerror"
    in err.
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
void report_text (const run_result_t *run, FILE *out);

//  report_text into PATH (report.txt), atomically.
int report_text_write (const run_result_t *run, const char *path, char *err, size_t errlen);

//  The results JSON (results.json) as text ending in a newline, for the
//  caller to free; NULL when memory ran out. Rates that could not be
//  computed (NAN) are null.
char *report_json_text (const run_result_t *run);

//  report_json_text into PATH, atomically.
int report_json_write (const run_result_t *run, const char *path, char *err, size_t errlen);

//  Append the samples of one test to a JSON lines file, one object a line:
//  {"test","iteration","agent","job","stream","t_ns","bytes"}. Returns 0,
//  or -1 when writing to out failed or memory ran out.
int report_samples_append (const test_result_t *test, FILE *out);

//  The CSV report (report.csv): a header, then one row per test x
//  iteration x stream with every figure of the stream and of its test.
//  Column names carry their unit (rate_mbps, bytes, start_ns).
void report_csv (const run_result_t *run, FILE *out);

//  Write one CSV field, quoted when it holds a comma, a quote or a line
//  break (RFC 4180).
void report_csv_text (const char *text, FILE *out);

//  report_csv into PATH, atomically.
int report_csv_write (const run_result_t *run, const char *path, char *err, size_t errlen);

//  The HTML report (report.html): one self-contained page with the
//  summary table and, per test, an inline SVG timeline of MB/s per
//  sample interval per stream and per host.
void report_html (const run_result_t *run, FILE *out);

//  report_html into PATH, atomically.
int report_html_write (const run_result_t *run, const char *path, char *err, size_t errlen);

//  Read a results file (results.json) back into run, and the samples of
//  the samples.jsonl beside it when there is one. Summaries are taken as
//  written, not computed again. run must be empty (zeroed); on failure it
//  is left empty and err says "file: what is wrong". Returns 0 or -1.
int report_read (const char *path, run_result_t *run, char *err, size_t errlen);

//  Output formats of `iofleet report` and `iofleet compare`.
typedef enum {
    REPORT_FORMAT_TEXT,
    REPORT_FORMAT_JSON,
    REPORT_FORMAT_CSV,
    REPORT_FORMAT_HTML
} report_format_t;

//  "text", "json", "csv", "html" to a format; -1 for any other name.
int report_format_parse (const char *name);

//  Render run in a format to out. Returns 0, or -1 when memory ran out.
int report_render (const run_result_t *run, report_format_t format, FILE *out);

//  Compare result files: one row per test (and per class of a mixed
//  test), one column per file, changes against the first column in %.
//  labels may be NULL (kernel releases then), else holds count labels.
//  Returns 0, or -1 with "file: what is wrong" in err.
int report_compare (const char *const *paths, const char *const *labels, size_t count,
                    report_format_t format, FILE *out, char *err, size_t errlen);

//  `iofleet report RESULT.json [--format F]` and `iofleet compare A.json
//  B.json ... [--labels a,b,...] [--format F]`: argv [0] is the command's
//  name. Return the exit status: 0, 1 for a file that cannot be read,
//  2 for bad usage.
//  Their tables (coordinator/cli.h), for the list of commands in main.c.
int report_command_report (int argc, char **argv);
int report_command_compare (int argc, char **argv);
extern const cli_command_t report_report_command;
extern const cli_command_t report_compare_command;

//  Write length bytes of data to PATH atomically (PATH.tmp, fsync, rename,
//  fsync of the directory). Returns 0, or -1 with the failing call in err.
int report_write_atomic (const char *path, const char *data, size_t length,
                         char *err, size_t errlen);

#endif
