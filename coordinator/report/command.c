/*  coordinator/report/command.c: the commands that work on finished
    results, without agents: `iofleet report` and `iofleet compare`; see
    report.h.
*/
#include "report.h"
#include "../aggregate.h"
#include "../cli.h"

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

//  The flags of `iofleet report`.
enum { REPORT_FLAG_FORMAT, REPORT_FLAG_UNITS };
static const cli_flag_t s_report_flags [] = {
    [REPORT_FLAG_FORMAT] = { "format", 'f', "text|json|csv|html", "what to write (default text)" },
    [REPORT_FLAG_UNITS] = { "units", 0, "MB|MiB", "rates in MB/s or MiB/s (default: as the run was reported)" },
    { NULL }
};

const cli_command_t report_report_command = {
    .name = "report", .synopsis = "RESULT.json [flags]",
    .summary = "render a finished run again",
    .description =
        "Renders a finished run again from its results.json (and the samples.jsonl "
        "beside it, for the timelines of the html format), without agents.",
    .flags = s_report_flags, .run = report_command_report
};

//  iofleet report RESULT.json [--format text|json|csv|html]
int
report_command_report (int argc, char **argv)
{
    const report_format_t *format = &report_formats [REPORT_FORMAT_TEXT];
    int units = -1;                 //  as the run was reported
    cli_args_t args;
    cli_begin (&args, &report_report_command, argc, argv);
    int flag;
    while ((flag = cli_next (&args)) != CLI_END) {
        if (flag == REPORT_FLAG_FORMAT && (format = s_format ("report", optarg)))
            continue;
        if (flag == REPORT_FLAG_FORMAT)
            return COMMAND_EXIT_USAGE;
        if (flag == REPORT_FLAG_UNITS && (units = aggregate_units_parse (optarg)) >= 0)
            continue;
        if (flag == REPORT_FLAG_UNITS) {
            fprintf (stderr, "iofleet report: --units %s: expected MB or MiB\n", optarg);
            return COMMAND_EXIT_USAGE;
        }
        return cli_status (flag);
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

//  The flags of `iofleet compare`.
enum { COMPARE_LABELS, COMPARE_FORMAT };
static const cli_flag_t s_compare_flags [] = {
    [COMPARE_LABELS] = { "labels", 'l', "a,b,c",
        "name the columns, one label per file (default: the agents' kernel releases)" },
    [COMPARE_FORMAT] = { "format", 'f', "text|json|csv|html", "what to write (default text)" },
    { NULL }
};

const cli_command_t report_compare_command = {
    .name = "compare", .synopsis = "A.json B.json [C.json ...] [flags]",
    .summary = "one table across result sets, changes in %",
    .description =
        "One row per test, one column per results file, and the change of each column "
        "against the first in %, marked when it is inside the run-to-run spread.",
    .flags = s_compare_flags, .run = report_command_compare
};

//  iofleet compare A.json B.json ... [--labels a,b,...] [--format F]
int
report_command_compare (int argc, char **argv)
{
    const report_format_t *format = &report_formats [REPORT_FORMAT_TEXT];
    char *labels_text = NULL;
    cli_args_t args;
    cli_begin (&args, &report_compare_command, argc, argv);
    int flag;
    while ((flag = cli_next (&args)) != CLI_END) {
        if (flag == COMPARE_LABELS) {
            labels_text = optarg;
            continue;
        }
        if (flag == COMPARE_FORMAT && (format = s_format ("compare", optarg)))
            continue;
        if (flag == COMPARE_FORMAT)
            return COMMAND_EXIT_USAGE;
        return cli_status (flag);
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
