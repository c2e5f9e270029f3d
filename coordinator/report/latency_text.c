/*  coordinator/report/latency_text.c: the latency section of the text
    report; see report.h.

    One line per test and set of requests that was measured (reads,
    writes, both together, fsyncs), with the exact count, min, mean and
    max and the percentiles of the merged histogram, in milliseconds to
    the microsecond; then, for a test on several hosts, one line per host
    for its requests, so that a slow host shows beside the fleet.
*/
#include "report.h"
#include "../latency.h"
#include "../../proto/printable.h"

#include <inttypes.h>
#include <stdio.h>
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

void
report_text_latency (const run_result_t *run, FILE *out)
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
        for (size_t h = 0; summary->hosts > 1 && h < test->host_count; h++) {
            if (test->hosts [h].latency.count == 0)
                continue;
            char agent [JOB_NAME_MAX * PRINTABLE_GROWTH + 2] = "@";
            printable (test->hosts [h].agent, agent + 1, sizeof agent - 1);
            s_line ("", agent, &test->hosts [h].latency, out);
        }
    }
}
