/*  coordinator/report/command.c: the commands that work on finished
    results, without agents: `iofleet report` and `iofleet compare`; see
    report.h.
*/
#include "report.h"
#include "../aggregate.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMMAND_EXIT_OK     0
#define COMMAND_EXIT_FAILED 1       //  a file could not be read
#define COMMAND_EXIT_USAGE  2

//  Parse --format; prints the problem and returns NULL for an unknown one.
static const report_format_t *
s_format (const char *command, const char *name)
{
    const report_format_t *format = report_format_find (name);
    if (!format)
        fprintf (stderr, "iofleet %s: --format %s: expected text, json, csv or html\n",
                 command, name);
    return format;
}

//  iofleet report RESULT.json [--format text|json|csv|html]
int
report_command_report (int argc, char **argv)
{
    static const struct option long_options [] = {
        { "format", required_argument, NULL, 'f' },
        { "units", required_argument, NULL, 'u' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    const report_format_t *format = &report_formats [REPORT_FORMAT_TEXT];
    int units = -1;                 //  as the run was reported
    int c;
    while ((c = getopt_long (argc, argv, "f:h", long_options, NULL)) != -1) {
        if (c == 'f' && (format = s_format ("report", optarg)))
            continue;
        if (c == 'f')
            return COMMAND_EXIT_USAGE;
        if (c == 'u' && (units = aggregate_units_parse (optarg)) >= 0)
            continue;
        if (c == 'u') {
            fprintf (stderr, "iofleet report: --units %s: expected MB or MiB\n", optarg);
            return COMMAND_EXIT_USAGE;
        }
        fprintf (c == 'h'? stdout: stderr,
                 "usage: iofleet report RESULT.json [--format text|json|csv|html] [--units MB|MiB]\n"
                 "renders a finished run again from its results.json (and the\n"
                 "samples.jsonl beside it, for the timelines of the html format)\n");
        return c == 'h'? COMMAND_EXIT_OK: COMMAND_EXIT_USAGE;
    }
    if (optind != argc - 1) {
        fprintf (stderr, "iofleet report: expected one results file\n");
        return COMMAND_EXIT_USAGE;
    }
    run_result_t run;
    memset (&run, 0, sizeof run);
    char err [1024];
    if (report_read (argv [optind], &run, err, sizeof err)) {
        fprintf (stderr, "iofleet report: %s\n", err);
        return COMMAND_EXIT_FAILED;
    }
    if (units >= 0)
        run.units = units;
    int rc = format->render (&run, stdout);
    run_result_clear (&run);
    if (rc || fflush (stdout) || ferror (stdout)) {
        fprintf (stderr, "iofleet report: could not write the report\n");
        return COMMAND_EXIT_FAILED;
    }
    return COMMAND_EXIT_OK;
}

//  Split "a,b,c" into count labels in place; returns 0, or -1 if the
//  count differs from expected.
static int
s_split_labels (char *text, const char **labels, size_t expected)
{
    size_t count = 0;
    for (char *label = text; ; count++) {
        char *comma = strchr (label, ',');
        if (count < expected)
            labels [count] = label;
        if (!comma) {
            count++;
            break;
        }
        *comma = 0;
        label = comma + 1;
    }
    return count == expected? 0: -1;
}

//  iofleet compare A.json B.json ... [--labels a,b,...] [--format F]
int
report_command_compare (int argc, char **argv)
{
    static const struct option long_options [] = {
        { "labels", required_argument, NULL, 'l' },
        { "format", required_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    const report_format_t *format = &report_formats [REPORT_FORMAT_TEXT];
    char *labels_text = NULL;
    int c;
    while ((c = getopt_long (argc, argv, "l:f:h", long_options, NULL)) != -1) {
        if (c == 'l') {
            labels_text = optarg;
            continue;
        }
        if (c == 'f' && (format = s_format ("compare", optarg)))
            continue;
        if (c == 'f')
            return COMMAND_EXIT_USAGE;
        fprintf (c == 'h'? stdout: stderr,
                 "usage: iofleet compare A.json B.json [C.json ...] [--labels a,b,c]\n"
                 "                       [--format text|json|csv|html]\n"
                 "one row per test, one column per results file (labelled by --labels,\n"
                 "else by the agents' kernel releases), changes against the first column\n");
        return c == 'h'? COMMAND_EXIT_OK: COMMAND_EXIT_USAGE;
    }
    size_t count = (size_t) (argc - optind);
    if (count < 1) {
        fprintf (stderr, "iofleet compare: name at least one results file\n");
        return COMMAND_EXIT_USAGE;
    }
    const char **labels = NULL;
    if (labels_text) {
        labels = (const char **) calloc (count, sizeof (char *));
        if (!labels)
            return COMMAND_EXIT_FAILED;
        if (s_split_labels (labels_text, labels, count)) {
            fprintf (stderr, "iofleet compare: --labels: give one label per file (%zu)\n", count);
            free (labels);
            return COMMAND_EXIT_USAGE;
        }
    }
    char err [1024];
    int rc = report_compare ((const char *const *) argv + optind, labels, count,
                             format, stdout, err, sizeof err);
    free (labels);
    if (rc) {
        fprintf (stderr, "iofleet compare: %s\n", err);
        return COMMAND_EXIT_FAILED;
    }
    return COMMAND_EXIT_OK;
}
