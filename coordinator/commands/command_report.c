/*  coordinator/commands/command_report.c: `iofleet report`, a finished
    run rendered again from its results file, without agents; see
    commands.h.
*/
#include "commands.h"
#include "../numbers/aggregate.h"
#include "../report/report.h"
#include "../results/results_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


//  The flags of `iofleet report`.
enum { REPORT_FLAG_FORMAT, REPORT_FLAG_UNITS };
static const cli_flag_t s_report_flags [] = {
    [REPORT_FLAG_FORMAT] = { "format", 'f', "text|json|csv|html|fio-json|bonnie-csv",
                             "what to write (default text); fio-json is fio's json+ output and "
                             "bonnie-csv bonnie++'s CSV, for their own tools" },
    [REPORT_FLAG_UNITS] = { "units", 0, "MB|MiB", "rates in MB/s or MiB/s (default: as the run was reported)" },
    { NULL }
};

static int s_run (int argc, char **argv);

const cli_command_t command_report = {
    .name = "report", .synopsis = "RESULT.json [flags]",
    .summary = "render a finished run again",
    .description =
        "Renders a finished run again from its results.json (and the samples.jsonl "
        "beside it, for the timelines of the html format), without agents.",
    .flags = s_report_flags, .run = s_run
};

//  iofleet report RESULT.json [--format text|json|csv|html|fio-json|bonnie-csv]
static int
s_run (int argc, char **argv)
{
    const report_format_t *format = &report_formats [REPORT_FORMAT_TEXT];
    int units = -1;                 //  as the run was reported
    cli_args_t args;
    cli_begin (&args, &command_report, argc, argv);
    int flag;
    while ((flag = cli_next (&args)) != CLI_END) {
        if (flag == REPORT_FLAG_FORMAT && (format = report_format_flag ("report", optarg)))
            continue;
        if (flag == REPORT_FLAG_FORMAT)
            return EXIT_STATUS_USAGE;
        if (flag == REPORT_FLAG_UNITS && (units = aggregate_units_parse (optarg)) >= 0)
            continue;
        if (flag == REPORT_FLAG_UNITS) {
            fprintf (stderr, "iofleet report: --units %s: expected MB or MiB\n", optarg);
            return EXIT_STATUS_USAGE;
        }
        return cli_status (flag);
    }
    if (optind != argc - 1) {
        fprintf (stderr, "iofleet report: expected one results file\n");
        return EXIT_STATUS_USAGE;
    }
    run_result_t run;
    memset (&run, 0, sizeof run);
    char err [1024];
    if (results_read (argv [optind], &run, err, sizeof err)) {
        cli_error (&command_report, err);
        return EXIT_STATUS_FAILED;
    }
    if (units >= 0)
        run.units = units;
    int rc = format->render (&run, stdout);
    run_result_clear (&run);
    if (rc || fflush (stdout) || ferror (stdout)) {
        fprintf (stderr, "iofleet report: could not write the report\n");
        return EXIT_STATUS_FAILED;
    }
    return EXIT_STATUS_OK;
}
