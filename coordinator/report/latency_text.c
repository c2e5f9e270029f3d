/*  coordinator/report/latency_text.c: the latency section of the text
    report; see report.h.

    One line per test and set of requests that was measured (reads,
    writes, both together, fsyncs), with the exact count, min, mean and
    max and the percentiles of the merged histogram, in milliseconds to
    the microsecond; then, for a test on several hosts, one line per host
    for its requests, so that a slow host shows beside the fleet. A fleet
    (more than TEXT_FLEET_ROWS hosts) shows its TEXT_SLOWEST_HOSTS hosts of
    the highest p99; results.json keeps every host's.
*/
#include "report.h"
#include "text.h"
#include "../numbers/latency.h"
#include "../../proto/printable.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  What latency_rows passes each row to.
typedef struct {
    text_row_fn *fn;
    void *sink;
} s_rows_t;

//  One row of figures.
static void
s_line (const char *name, const char *set, const latency_summary_t *l, const s_rows_t *rows)
{
    text_row_t row = { .name = name, .where = set };
    snprintf (row.cell [0], sizeof row.cell [0], "%" PRIu64, l->count);
    const double figures [] = { l->min_ns, l->mean_ns, l->p50_ns, l->p95_ns, l->p99_ns,
                                l->p999_ns, l->max_ns };
    for (int f = 0; f < 7; f++)
        snprintf (row.cell [f + 1], sizeof row.cell [f + 1], "%.3f", figures [f] / 1e6);
    rows->fn (rows->sink, &row);
}

//  A row per host of the test that measured requests, in the order of
//  the test's hosts; of a fleet, its slowest by p99 and a count of the
//  others.
static void
s_host_lines (const test_result_t *test, const s_rows_t *rows)
{
    size_t shown, measured;
    const host_result_t **hosts = latency_hosts_listed (test, TEXT_FLEET_ROWS,
                                                        TEXT_SLOWEST_HOSTS, &shown, &measured);
    if (!hosts)
        return;                 //  the section's summary lines stand alone
    for (size_t h = 0; h < shown; h++) {
        char agent [JOB_NAME_MAX * PRINTABLE_GROWTH + 2] = "@";
        printable (hosts [h]->agent, agent + 1, sizeof agent - 1);
        s_line ("", agent, &hosts [h]->latency, rows);
    }
    if (shown < measured) {
        text_row_t row = { .name = "", .note = row.text };
        snprintf (row.text, sizeof row.text, "%zu more hosts, by p99 below these (every host in "
                  "results.json)", measured - shown);
        rows->fn (rows->sink, &row);
    }
    free (hosts);
}

const text_rows_head_t latency_head = {
    .caption = "latency in ms, every request of every host merged (no average of percentiles)",
    .where = "requests",
    .figure = { "count", "min", "mean", "p50", "p95", "p99", "p99.9", "max" },
    .name_width = 24, .where_width = 10,
    .width = { 10, 9, 9, 9, 9, 9, 9, 9 }
};

void
latency_rows (const run_result_t *run, text_row_fn *fn, void *sink)
{
    const s_rows_t rows = { .fn = fn, .sink = sink };
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        const test_summary_t *summary = &test->summary;
        char name [TEST_ROW_NAME_MAX * PRINTABLE_GROWTH + 16];
        printable (test->name, name, sizeof name);
        if (run->test_count > 1 && test->iteration > 1) {
            size_t len = strlen (name);
            snprintf (name + len, sizeof name - len, " #%" PRIu32, test->iteration);
        }
        for (int set = 0; set < LATENCY_SETS; set++) {
            //  Requests repeat reads or writes when only one of them ran.
            if (summary->latency [set].count == 0
            ||  (set == LATENCY_REQUESTS
                 && (summary->latency [LATENCY_READ].count == 0
                     || summary->latency [LATENCY_WRITE].count == 0)))
                continue;
            s_line (name, latency_set_name (set), &summary->latency [set], &rows);
        }
        if (summary->hosts > 1)
            s_host_lines (test, &rows);
    }
}

void
latency_text (const run_result_t *run, FILE *out)
{
    text_rows_print (&latency_head, latency_rows, run, out);
}
