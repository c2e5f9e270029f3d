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

//  Width of the first column: a test's row name, made printable.
#define S_NAME_WIDTH 24

//  One line of figures.
static void
s_line (const char *name, const char *set, const latency_summary_t *l, FILE *out)
{
    fprintf (out, "%-*s %-10s %10" PRIu64 " %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f\n",
             S_NAME_WIDTH, name, set, l->count, l->min_ns / 1e6, l->mean_ns / 1e6,
             l->p50_ns / 1e6, l->p95_ns / 1e6, l->p99_ns / 1e6, l->p999_ns / 1e6,
             l->max_ns / 1e6);
}

//  A line per host of the test that measured requests, in the order of
//  the test's hosts; of a fleet, its slowest by p99 and a count of the
//  others.
static void
s_host_lines (const test_result_t *test, FILE *out)
{
    size_t shown, measured;
    const host_result_t **hosts = latency_hosts_listed (test, TEXT_FLEET_ROWS,
                                                        TEXT_SLOWEST_HOSTS, &shown, &measured);
    if (!hosts)
        return;                 //  the section's summary lines stand alone
    for (size_t h = 0; h < shown; h++) {
        char agent [JOB_NAME_MAX * PRINTABLE_GROWTH + 2] = "@";
        printable (hosts [h]->agent, agent + 1, sizeof agent - 1);
        s_line ("", agent, &hosts [h]->latency, out);
    }
    if (shown < measured)
        fprintf (out, "%-*s %zu more hosts, by p99 below these (every host in "
                      "results.json)\n", S_NAME_WIDTH, "", measured - shown);
    free (hosts);
}

void
latency_text (const run_result_t *run, FILE *out)
{
    bool header = false;
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
            if (!header) {
                fprintf (out, "\nlatency in ms, every request of every host merged "
                              "(no average of percentiles):\n");
                fprintf (out, "%-*s %-10s %10s %9s %9s %9s %9s %9s %9s %9s\n", S_NAME_WIDTH,
                         "test", "requests", "count", "min", "mean", "p50", "p95", "p99",
                         "p99.9", "max");
                header = true;
            }
            s_line (name, latency_set_name (set), &summary->latency [set], out);
        }
        if (summary->hosts > 1)
            s_host_lines (test, out);
    }
}
