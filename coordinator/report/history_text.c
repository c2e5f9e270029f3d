/*  coordinator/report/history_text.c: `iofleet history` as text, a line
    per run, or per run of each test with its figure; see
    ../archive/history.h.
*/
#include "../archive/history.h"
#include "../../proto/printable.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
int
history_print_text (const history_t *history, FILE *out)
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
        bool marked = false;        //  a figure is over a partial or failed run
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
                if (run->run.cut_short) {
                    size_t used = strlen (cell [5]);
                    snprintf (cell [5] + used, CELL_MAX - used, ", cut short");
                }
                snprintf (cell [6], CELL_MAX, "%s", run->results_dir);
                lines++;
                continue;
            }
            char min [64], max [64];
            snprintf (cell [1], CELL_MAX, "%s", run->run.label [0]? run->run.label: "-");
            snprintf (cell [2], CELL_MAX, "%s", run->kernels);
            snprintf (cell [3], CELL_MAX, "%s", run->hosts);
            history_iterations (&point, cell [4], CELL_MAX);
            history_value (history, &point, point.first, cell [5], CELL_MAX);
            history_value (history, &point, point.median, cell [6], CELL_MAX);
            history_value (history, &point, point.min, min, sizeof min);
            history_value (history, &point, point.max, max, sizeof max);
            snprintf (cell [7], CELL_MAX, "%s..%s", min, max);
            history_value (history, &point, point.stddev, cell [8], CELL_MAX);
            marked |= point.partial || point.failed || point.cut_short;
            snprintf (cell [9], CELL_MAX, "%s", run->results_dir);
            lines++;
        }
        char shown [CELL_MAX];
        if (by_test)
            fprintf (out, "%s%s, %s: first run, then iterations 2..N: median, min..max, stddev\n",
                     block? "\n": "", printable (test, shown, sizeof shown),
                     history->metric->name);
        int rc = compare_print_columns (cells, lines, columns, out);
        free (cells);
        if (rc)
            return -1;
        if (marked)
            fprintf (out, "%s\n", HISTORY_PARTIAL_NOTE);
    }
    return 0;
}
