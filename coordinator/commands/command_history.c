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
#include "cli.h"
#include "../../proto/clock.h"

#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HISTORY_EXIT_OK     0
#define HISTORY_EXIT_FAILED 1       //  the archive could not be read
#define HISTORY_EXIT_USAGE  2

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

const cli_command_t report_history_command = {
    .name = "history", .synopsis = "[flags]",
    .summary = "the runs of the archive, and a figure across them",
    .description =
        "Lists the runs of the archive, oldest first, filtered by test, kernel, host, "
        "scenario, label and date; with --test, the test's figure in each run.",
    .flags = s_history_flags, .run = report_command_history
};

//  "2026-12-01 09:32:07".
void
history_utc (int64_t wall_ns, char *buf, size_t buflen)
{
    time_t seconds = (time_t) (wall_ns / NS_PER_SEC);
    struct tm utc;
    if (wall_ns < 0 || !gmtime_r (&seconds, &utc) || !strftime (buf, buflen, "%Y-%m-%d %H:%M:%S", &utc))
        snprintf (buf, buflen, "-");
}

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

//  The figure of test in one run.
history_point_t
history_point (const history_t *history, const history_run_t *run, const char *test)
{
    history_point_t point = { .first = NAN, .median = NAN, .min = NAN, .max = NAN,
                              .stddev = NAN };
    set_t set = { .run = &run->run, .origin = run->results_dir };
    row_t row = { test, history->metric, ROW_MAIN, false };
    for (size_t nbr = 0; nbr < run->run.test_count; nbr++)
        if (!strcmp (run->run.tests [nbr].name, test)) {
            point.iterations++;
            row.split |= run->run.tests [nbr].iteration > 1;
        }
    double *values = (double *) malloc ((run->run.test_count + 1) * sizeof (double));
    if (!values)
        return point;
    point.count = compare_values (&set, &row, values);
    aggregate_stats_t stats = aggregate_stats (values, point.count);
    if (point.count) {
        point.median = stats.median;
        point.min = stats.min;
        point.max = stats.max;
    }
    if (point.count > 1)
        point.stddev = stats.stddev;
    row.kind = ROW_FIRST;
    if (row.split && compare_values (&set, &row, values) == 1)
        point.first = values [0];
    free (values);
    return point;
}

//  A figure as the metric prints it, or "-".
static void
s_value (const metric_t *metric, double value, char *buf, size_t buflen)
{
    if (isfinite (value))
        metric->format (value, buf, buflen);
    else
        snprintf (buf, buflen, "-");
}

//  A run's tests: "dd1 x3, one x3", each name once, in the order it ran.
static void
s_tests (const run_result_t *run, char *buf, size_t buflen)
{
    size_t used = 0;
    buf [0] = 0;
    for (size_t nbr = 0; nbr < run->test_count && used < buflen; nbr++) {
        const char *name = run->tests [nbr].name;
        size_t times = 0;
        bool before = false;
        for (size_t other = 0; other < run->test_count; other++) {
            times += !strcmp (run->tests [other].name, name);
            before |= other < nbr && !strcmp (run->tests [other].name, name);
        }
        if (!before)
            used += (size_t) snprintf (buf + used, buflen - used, "%s%s x%zu",
                                       used? ", ": "", name, times);
    }
}

//  The runs as a text table: one line per run, or per run of each test.
static int
s_print_text (const history_t *history, FILE *out)
{
    static const char *const run_header [] = {
        "started (UTC)", "scenario", "label", "kernel", "hosts", "tests", "results"
    };
    static const char *const test_header [] = {
        "started (UTC)", "label", "kernel", "hosts", "iterations", "first", "median",
        "min..max", "stddev", "results"
    };
    bool by_test = history->test_count > 0;
    size_t columns = by_test? 10: 7;
    for (size_t block = 0; block < (by_test? history->test_count: 1); block++) {
        const char *test = by_test? history->tests [block]: NULL;
        char (*cells) [CELL_MAX] = calloc ((history->count + 1) * columns, CELL_MAX);
        if (!cells)
            return -1;
        for (size_t column = 0; column < columns; column++)
            snprintf (cells [column], CELL_MAX, "%s", by_test? test_header [column]: run_header [column]);
        size_t lines = 1;
        for (size_t nbr = 0; nbr < history->count; nbr++) {
            const history_run_t *run = &history->runs [nbr];
            char (*cell) [CELL_MAX] = cells + lines * columns;
            history_point_t point = { 0 };
            if (by_test && (point = history_point (history, run, test)).iterations == 0)
                continue;
            history_utc (run->run.started_wall_ns, cell [0], CELL_MAX);
            if (!by_test) {
                snprintf (cell [1], CELL_MAX, "%s", run->run.scenario_path);
                snprintf (cell [2], CELL_MAX, "%s", run->run.label [0]? run->run.label: "-");
                snprintf (cell [3], CELL_MAX, "%s", run->kernels);
                snprintf (cell [4], CELL_MAX, "%s", run->hosts);
                s_tests (&run->run, cell [5], CELL_MAX);
                snprintf (cell [6], CELL_MAX, "%s", run->results_dir);
                lines++;
                continue;
            }
            char min [64], max [64];
            snprintf (cell [1], CELL_MAX, "%s", run->run.label [0]? run->run.label: "-");
            snprintf (cell [2], CELL_MAX, "%s", run->kernels);
            snprintf (cell [3], CELL_MAX, "%s", run->hosts);
            snprintf (cell [4], CELL_MAX, "%zu", point.iterations);
            s_value (history->metric, point.first, cell [5], CELL_MAX);
            s_value (history->metric, point.median, cell [6], CELL_MAX);
            s_value (history->metric, point.min, min, sizeof min);
            s_value (history->metric, point.max, max, sizeof max);
            snprintf (cell [7], CELL_MAX, "%s..%s", min, max);
            s_value (history->metric, point.stddev, cell [8], CELL_MAX);
            snprintf (cell [9], CELL_MAX, "%s", run->results_dir);
            lines++;
        }
        if (by_test)
            fprintf (out, "%s%s, %s: first run, then iterations 2..N: median, min..max, stddev\n",
                     block? "\n": "", test, history->metric->name);
        int rc = compare_print_columns (cells, lines, columns, out);
        free (cells);
        if (rc)
            return -1;
    }
    return 0;
}

//  The distinct test names of the runs that --test selects, in the order
//  they first ran: the test itself, or its phases.
static int
s_test_names (history_t *history, const char *test)
{
    size_t capacity = 0;
    for (size_t nbr = 0; nbr < history->count; nbr++)
        capacity += history->runs [nbr].run.test_count;
    history->tests = (const char **) calloc (capacity + 1, sizeof (char *));
    if (!history->tests)
        return -1;
    for (size_t nbr = 0; nbr < history->count; nbr++) {
        const run_result_t *run = &history->runs [nbr].run;
        for (size_t t = 0; t < run->test_count; t++) {
            const char *name = run->tests [t].name;
            bool seen = !compare_selected (name, &test, 1);
            for (size_t before = 0; before < history->test_count && !seen; before++)
                seen = !strcmp (history->tests [before], name);
            if (!seen)
                history->tests [history->test_count++] = name;
        }
    }
    return 0;
}

//  Load the runs of the archive that match filter.
static int
s_load (archive_t *archive, const archive_filter_t *filter, history_t *history,
        char *err, size_t errlen)
{
    int64_t *ids;
    if (archive_find (archive, filter, &ids, &history->count, err, errlen))
        return -1;
    history->runs = (history_run_t *) calloc (history->count + 1, sizeof (history_run_t));
    if (!history->runs) {
        snprintf (err, errlen, "history: out of memory");
        free (ids);
        history->count = 0;
        return -1;
    }
    for (size_t nbr = 0; nbr < history->count; nbr++) {
        history_run_t *run = &history->runs [nbr];
        if (archive_load (archive, ids [nbr], &run->run, &run->results_dir, err, errlen)) {
            history->count = nbr;
            free (ids);
            return -1;
        }
        compare_join_agents (&run->run, false, run->kernels, sizeof run->kernels);
        compare_join_agents (&run->run, true, run->hosts, sizeof run->hosts);
    }
    free (ids);
    return 0;
}

//  iofleet history [--db FILE] [filters] [--test NAME] [--figure F] [--format F]
int
report_command_history (int argc, char **argv)
{
    const char *db_path = ARCHIVE_DEFAULT_PATH;
    archive_filter_t filter = { 0 };
    history_t history = { .metric = compare_metric ("MB/s") };
    int format = REPORT_FORMAT_TEXT;
    cli_args_t args;
    cli_begin (&args, &report_history_command, argc, argv);
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
                    return HISTORY_EXIT_USAGE;
                }
                break;
            case HISTORY_SINCE:
            case HISTORY_UNTIL:
                if ((*instant = s_date (optarg)) < 0) {
                    fprintf (stderr, "iofleet history: --%s %s: expected a UTC date, "
                             "2026-12-01 or 2026-12-01T09:30\n",
                             c == HISTORY_SINCE? "since": "until", optarg);
                    return HISTORY_EXIT_USAGE;
                }
                break;
            case HISTORY_FORMAT: {
                const report_format_t *found = report_format_find (optarg);
                format = found? (int) found->id: -1;
                if (format != REPORT_FORMAT_TEXT && format != REPORT_FORMAT_HTML) {
                    fprintf (stderr, "iofleet history: --format %s: expected text or html\n", optarg);
                    return HISTORY_EXIT_USAGE;
                }
                break;
            }
            default:
                return cli_status (c);
        }
    }
    if (optind != argc) {
        fprintf (stderr, "iofleet history: unexpected argument %s\n", argv [optind]);
        return HISTORY_EXIT_USAGE;
    }
    if (format == REPORT_FORMAT_HTML && !filter.test) {
        fprintf (stderr, "iofleet history: --format html draws one test: give --test NAME\n");
        return HISTORY_EXIT_USAGE;
    }
    char err [1024];
    int status = HISTORY_EXIT_FAILED;
    archive_t *archive = archive_new_reader (db_path, err, sizeof err);
    if (!archive || s_load (archive, &filter, &history, err, sizeof err))
        fprintf (stderr, "iofleet history: %s\n", err);
    else
    if ((filter.test && s_test_names (&history, filter.test))
    ||  (format == REPORT_FORMAT_HTML? history_print_html (&history, stdout)
                                     : s_print_text (&history, stdout))
    ||  fflush (stdout) || ferror (stdout))
        fprintf (stderr, "iofleet history: could not write the history\n");
    else
        status = HISTORY_EXIT_OK;
    archive_destroy (&archive);
    for (size_t nbr = 0; nbr < history.count; nbr++) {
        run_result_clear (&history.runs [nbr].run);
        free (history.runs [nbr].results_dir);
    }
    free (history.runs);
    free (history.tests);
    return status;
}
