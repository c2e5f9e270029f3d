/*  coordinator/report/report.h: the renderers of a run's results, as
    text, CSV and HTML for a human, and as fio's json+ and bonnie++'s CSV
    for those tools' own readers, and the table of formats every results
    directory and `iofleet report` write (the JSON format is the results
    file itself, results/results_file.h).

    The writers read a run_result_t (coordinator/results/results.h) and never change
    it. Every test's summary must have been filled by aggregate_test before:
    the writers print what the summary says, so that a report rendered
    again from a results file shows the same figures as the first one.

    Files are written atomically (report_write_atomic): a crash leaves
    either the old file or the new one, never half of one.
*/
#ifndef IOFLEET_REPORT_H
#define IOFLEET_REPORT_H

#include "../results/results.h"

#include <stddef.h>
#include <stdio.h>

//  The text report: a header, the agents, one row per test, a line per
//  failed stream, then one block per test with its streams. Columns are as
//  wide as their widest cell.
int text_report (const run_result_t *run, FILE *out);

//  The seed tools' own notations, for the tests that run their
//  workloads, so that a thread comparing them reads at a glance: one
//  bonnie++-style table, a row per host and iteration of a bonnie test, and
//  iozone's range over iterations of a rewrite test (seeds.c).
void seeds_text (const run_result_t *run, FILE *out);

//  The latency of the tests that measured it, every host merged: a line
//  per test and set of requests, and one per host of a test on several
//  (latency_text.c).
void latency_text (const run_result_t *run, FILE *out);

//  Which hosts sent each test's requests slower than the fleet's p99 and
//  p99.9, ranked, and which of them is the cause (tail_text.c).
void tail_text (const run_result_t *run, FILE *out);

//  sysbench's figures for the random I/O tests: reads, writes and fsyncs
//  per second, MB/s read and written, the time, operations per minute
//  and %sys, for the fleet, each host and each stream (requests_text.c).
void requests_text (const run_result_t *run, FILE *out);

//  The CSV report (report.csv): a header, then one row per test x
//  iteration x stream with every figure of the stream and of its test.
//  Column names carry their unit (rate_mbps, bytes, start_ns).
int csv_report (const run_result_t *run, FILE *out);

//  Write one CSV field, quoted when it holds a comma, a quote or a line
//  break (RFC 4180), control bytes written as \xNN.
void csv_field (const char *text, FILE *out);

//  The names of report.csv's columns, in their order, separator between
//  two (its header line, and the list in iofleet(1)).
void csv_column_names (const char *separator, FILE *out);

//  The HTML report (report.html): one self-contained page with the
//  summary table and, per test, an inline SVG timeline of the rate per
//  sample interval per stream and per host.
int html_report (const run_result_t *run, FILE *out);

//  bonnie++'s CSV: a line per host and run of each bonnie test, as
//  bonnie++ 2.00 writes them, for bon_csv2txt and bon_csv2html
//  (bonnie_csv.c).
int bonnie_csv_report (const run_result_t *run, FILE *out);

//  fio's json+ output: a job per host and stream of every test, and
//  fio --client's "All clients" per test, for fio's tools such as
//  fio_jsonplus_clat2csv (fio_json.c).
int fio_json_report (const run_result_t *run, FILE *out);

//  --------------------------------------------------------------------------
//  Formats
//
//  Every format is one row of report_formats: `iofleet report --format`
//  finds its row by name and renders it to stdout; a run's results
//  directory writes every row before REPORT_FORMAT_FILES into its file.
//  The rows after it are exports in other tools' own formats, rendered
//  only when asked for, and have no file. The renderers above return
//  0, or -1 when memory ran out or writing to out failed.

typedef int (report_render_fn) (const run_result_t *run, FILE *out);

typedef enum {
    REPORT_FORMAT_TEXT,
    REPORT_FORMAT_JSON,
    REPORT_FORMAT_CSV,
    REPORT_FORMAT_HTML,
    REPORT_FORMAT_FILES,            //  rows a results directory writes: those before this
    REPORT_FORMAT_FIO_JSON = REPORT_FORMAT_FILES,
    REPORT_FORMAT_BONNIE_CSV,
    REPORT_FORMAT_COUNT             //  rows in report_formats
} report_format_id_t;

//  One output format.
typedef struct {
    report_format_id_t id;          //  its row in report_formats
    const char *name;               //  as --format names it: "text"
    const char *file_name;          //  its file in a results directory: "report.txt";
                                    //  NULL for an export (REPORT_FORMAT_FILES on)
    report_render_fn *render;       //  the run in this format
} report_format_t;

extern const report_format_t report_formats [REPORT_FORMAT_COUNT];

//  The format called name ("text", "json", "csv", "html", "fio-json",
//  "bonnie-csv"), or NULL.
const report_format_t *report_format_find (const char *name);

//  The same for `iofleet COMMAND --format NAME`: NULL when there is no
//  such format, the problem then printed on stderr.
const report_format_t *report_format_flag (const char *command, const char *name);

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

#endif
