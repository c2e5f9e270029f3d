/*  coordinator/commands/command_history.c: `iofleet history`, the runs of the
    archive, oldest first; see report.h and history.h.

    Without --test, a line per run: when, what, on which kernels and
    hosts, its tests, where its results are. With --test, a line per run
    of each test of that name (or its phases) with one figure: the first
    run apart, then the median of iterations 2..N, their range and
    stddev, counted as compare counts them. Everything printed comes from
    the results files as imported, so that an archive rebuilt from the
    results directories prints the same history, byte for byte.
*/
#include "../archive/history.h"
#include "../numbers/aggregate.h"
#include "../archive/archive.h"
#include "commands.h"
#include "../exit_status.h"
#include "../../proto/clock.h"

#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

//  The flags of `iofleet history`.
enum {
    HISTORY_DB, HISTORY_TEST, HISTORY_FIGURE, HISTORY_KERNEL, HISTORY_HOST, HISTORY_SCENARIO,
    HISTORY_LABEL, HISTORY_SINCE, HISTORY_UNTIL, HISTORY_FORMAT
};
static const cli_flag_t s_history_flags [] = {
    [HISTORY_DB] = { "db", 0, "FILE", "the archive (default " ARCHIVE_DEFAULT_PATH ")" },
    [HISTORY_TEST] = { "test", 0, "NAME", "runs with this test (or its phases), and its figure "
        "per run: first run, median of iterations 2..N, min..max, stddev" },
    [HISTORY_FIGURE] = { "figure", 0, "F", "the figure, as compare names it (default MB/s)" },
    [HISTORY_KERNEL] = { "kernel", 0, "K", "runs with an agent on kernel release K" },
    [HISTORY_HOST] = { "host", 0, "H", "runs with an agent on host H (or named H)" },
    [HISTORY_SCENARIO] = { "scenario", 0, "S", "runs of scenario S (its path, or its file name)" },
    [HISTORY_LABEL] = { "label", 0, "L", "runs labelled L (iofleet run --label)" },
    [HISTORY_SINCE] = { "since", 0, "DATE",
        "runs started at or after DATE (UTC: 2026-12-01 or 2026-12-01T09:30[:00])" },
    [HISTORY_UNTIL] = { "until", 0, "DATE", "runs started before DATE" },
    [HISTORY_FORMAT] = { "format", 0, "text|html", "text, or html: a self-contained page with "
        "the figure across runs, grouped by kernel, each run's spread drawn" },
    { NULL }
};

static int s_run (int argc, char **argv);

const cli_command_t command_history = {
    .name = "history", .synopsis = "[flags]",
    .summary = "the runs of the archive, and a figure across them",
    .description =
        "Lists the runs of the archive, oldest first, filtered by test, kernel, host, "
        "scenario, label and date; with --test, the test's figure in each run.",
    .flags = s_history_flags, .run = s_run
};

//  A date as UTC nanoseconds: "2026-12-01", "2026-12-01T09:30", with
//  seconds or not, T or a space; -1 for anything else, or for a date
//  before 1970 or after 2262.
static int64_t
s_date (const char *text)
{
    static const char *const formats [] = {
        "%Y-%m-%d", "%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"
    };
    for (size_t nbr = 0; nbr < sizeof formats / sizeof formats [0]; nbr++) {
        struct tm tm;
        memset (&tm, 0, sizeof tm);
        const char *end = strptime (text, formats [nbr], &tm);
        time_t seconds = end && !*end? timegm (&tm): -1;
        //  Instants are nanoseconds in 64 bits: up to the year 2262.
        if (seconds >= 0 && seconds < INT64_MAX / NS_PER_SEC)
            return (int64_t) seconds * NS_PER_SEC;
    }
    return -1;
}

//  iofleet history [--db FILE] [filters] [--test NAME] [--figure F] [--format F]
static int
s_run (int argc, char **argv)
{
    const char *db_path = ARCHIVE_DEFAULT_PATH;
    archive_filter_t filter = { 0 };
    history_t history = { .metric = compare_metric ("MB/s") };
    int format = REPORT_FORMAT_TEXT;
    cli_args_t args;
    cli_begin (&args, &command_history, argc, argv);
    int c;
    while ((c = cli_next (&args)) != CLI_END) {
        int64_t *instant = c == HISTORY_SINCE? &filter.since_wall_ns: &filter.until_wall_ns;
        switch (c) {
            case HISTORY_DB: db_path = optarg; break;
            case HISTORY_TEST: filter.test = optarg; break;
            case HISTORY_KERNEL: filter.kernel = optarg; break;
            case HISTORY_HOST: filter.host = optarg; break;
            case HISTORY_SCENARIO: filter.scenario = optarg; break;
            case HISTORY_LABEL: filter.label = optarg; break;
            case HISTORY_FIGURE:
                if (!(history.metric = compare_metric (optarg))) {
                    fprintf (stderr, "iofleet history: --figure %s: not a figure compare knows\n",
                             optarg);
                    return EXIT_STATUS_USAGE;
                }
                break;
            case HISTORY_SINCE:
            case HISTORY_UNTIL:
                if ((*instant = s_date (optarg)) < 0) {
                    fprintf (stderr, "iofleet history: --%s %s: expected a UTC date, "
                             "2026-12-01 or 2026-12-01T09:30\n",
                             c == HISTORY_SINCE? "since": "until", optarg);
                    return EXIT_STATUS_USAGE;
                }
                break;
            case HISTORY_FORMAT: {
                const report_format_t *found = report_format_find (optarg);
                format = found? (int) found->id: -1;
                if (format != REPORT_FORMAT_TEXT && format != REPORT_FORMAT_HTML) {
                    fprintf (stderr, "iofleet history: --format %s: expected text or html\n", optarg);
                    return EXIT_STATUS_USAGE;
                }
                break;
            }
            default:
                return cli_status (c);
        }
    }
    if (optind != argc) {
        fprintf (stderr, "iofleet history: unexpected argument %s\n", argv [optind]);
        return EXIT_STATUS_USAGE;
    }
    if (format == REPORT_FORMAT_HTML && !filter.test) {
        fprintf (stderr, "iofleet history: --format html draws one test: give --test NAME\n");
        return EXIT_STATUS_USAGE;
    }
    char err [1024];
    int status = EXIT_STATUS_FAILED;
    archive_t *archive = archive_new_reader (db_path, err, sizeof err);
    if (!archive || history_load (archive, &filter, filter.test, &history, err, sizeof err))
        cli_error (&command_history, err);
    else
    if ((format == REPORT_FORMAT_HTML? history_print_html (&history, stdout)
                                     : history_print_text (&history, stdout))
    ||  fflush (stdout) || ferror (stdout))
        fprintf (stderr, "iofleet history: could not write the history\n");
    else
        status = EXIT_STATUS_OK;
    archive_destroy (&archive);
    history_clear (&history);
    return status;
}
