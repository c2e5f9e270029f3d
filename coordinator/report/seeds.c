/*  coordinator/report/seeds.c: the seed tools' notations in the text
    report and the page; see report.h and text.h.

    bonnie++ prints a line per machine with K/sec (1024 bytes) and %CP
    (the test's CPU time over its elapsed time) for each of its tests
    (the figures are bonnie.c's, shared with bonnie++'s CSV); iozone's
    threads quote ranges over runs ("654-738 MB/s write, 1126-1154 MB/s
    rewrite"). Both are made from the phase rows, per host
    for bonnie, per test for iozone, of the tests whose workload's
    descriptor names the notation (proto/workload.h), with its phases.
    bonnie++'s is a table of text.h's rows, the text's and the page's
    alike; iozone's ranges are a line per test.
*/
#include "report.h"
#include "text.h"
#include "bonnie.h"
#include "../numbers/aggregate.h"
#include "../../proto/printable.h"
#include "../../proto/workload.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  A figure with bonnie++'s precision: whole K/sec, seeks with one
//  decimal, %CP whole; "-" when the phase did not run.
static void
s_bonnie_cell (double value, int decimals, char *buf, size_t buflen)
{
    if (isfinite (value))
        snprintf (buf, buflen, "%.*f", decimals, value);
    else
        snprintf (buf, buflen, "-");
}

const text_rows_head_t seeds_bonnie_head = {
    .caption = "bonnie++ block tests (K/sec in 1024 bytes; %CP: CPU time of the streams over "
               "the phase)",
    .where = "Machine",
    .figure = { "Size", "Output K/s", "%CP", "Rewrite K/s", "%CP", "Input K/s", "%CP",
                "Seeks /s", "%CP" },
    .name_width = 20, .where_width = 12,
    .width = { 10, 11, 4, 11, 4, 11, 4, 10, 4 }
};

//  The rows of one run of one test: one per host, the test named on the
//  first (with its iteration after the first).
static void
s_bonnie_run_rows (const bonnie_run_t *bonnie, text_row_fn *fn, void *sink)
{
    char name [JOB_NAME_MAX * PRINTABLE_GROWTH + 16];
    printable (bonnie->first->test, name, sizeof name);
    if (bonnie->first->iteration > 1) {
        size_t len = strlen (name);
        snprintf (name + len, sizeof name - len, " #%" PRIu32, bonnie->first->iteration);
    }
    size_t cursor = 0;
    bonnie_host_t host;
    bool first = true;
    while (bonnie_next_host (bonnie, &cursor, &host)) {
        char machine [JOB_NAME_MAX * PRINTABLE_GROWTH + 1], size [16], chunk [16];
        text_row_t row = { .name = first? name: "",
                           .where = printable (host.agent, machine, sizeof machine) };
        bonnie_size (host.stream->bytes, size, sizeof size);
        bonnie_size (host.stream->bs_bytes, chunk, sizeof chunk);
        snprintf (row.cell [0], sizeof row.cell [0], "%s:%s", size, chunk);
        for (int p = 0; p < BONNIE_PHASES; p++) {
            s_bonnie_cell (host.figures [p].per_second, p == BONNIE_SEEKS? 1: 0,
                           row.cell [1 + 2 * p], sizeof row.cell [0]);
            s_bonnie_cell (host.figures [p].cpu_pct, 0, row.cell [2 + 2 * p], sizeof row.cell [0]);
        }
        fn (sink, &row);
        first = false;
    }
}

void
seeds_bonnie_rows (const run_result_t *run, text_row_fn *fn, void *sink)
{
    size_t cursor = 0;
    bonnie_run_t bonnie;
    while (bonnie_next_run (run, &cursor, &bonnie))
        s_bonnie_run_rows (&bonnie, fn, sink);
}

//  The range of a phase's combined rate over the runs of a test: those
//  after the first when there are several (the first is often slowest),
//  else the one. Returns false if the phase has no figure.
static bool
s_range (const run_result_t *run, const char *test_name, const char *phase,
         double *low_mbps, double *high_mbps)
{
    size_t later_runs = 0;
    for (size_t t = 0; t < run->test_count; t++)
        if (strcmp (run->tests [t].test, test_name) == 0 && strcmp (run->tests [t].phase, phase) == 0)
            later_runs += run->tests [t].iteration > 1;
    bool any = false;
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        double rate = test->summary.combined_mbps;
        if (strcmp (test->test, test_name) != 0 || strcmp (test->phase, phase) != 0
        ||  (later_runs && test->iteration == 1) || !isfinite (rate))
            continue;
        if (!any || rate < *low_mbps)
            *low_mbps = rate;
        if (!any || rate > *high_mbps)
            *high_mbps = rate;
        any = true;
    }
    return any;
}

void
seeds_iozone_text (const run_result_t *run, FILE *out)
{
    bool any = false;
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        const workload_desc_t *desc = workload_find (test->workload);
        if (!desc || desc->notation != NOTATION_IOZONE || test->phase_index != 0
        ||  test->iteration != 1)
            continue;
        if (!any)
            fprintf (out, "\niozone -i 0 (min-max over the runs after the first, or of the "
                          "one run, %s)\n",
                     aggregate_units_name (run->units));
        any = true;
        char name [JOB_NAME_MAX * PRINTABLE_GROWTH + 1];
        fprintf (out, "  %s:", printable (test->test, name, sizeof name));
        for (uint32_t p = 0; p < workload_phase_count (desc); p++) {
            const char *phase = workload_phase_name (desc, p);
            double low = NAN, high = NAN;
            char low_text [32] = "-", high_text [32] = "-";
            if (phase && s_range (run, test->test, phase, &low, &high)) {
                aggregate_format_rate (aggregate_in_units (low, run->units), low_text,
                                       sizeof low_text);
                aggregate_format_rate (aggregate_in_units (high, run->units), high_text,
                                       sizeof high_text);
            }
            fprintf (out, "%s %s-%s %s %s", p? ",": "", low_text, high_text,
                     aggregate_units_name (run->units), phase? phase: "");
        }
        fputc ('\n', out);
    }
}

void
seeds_text (const run_result_t *run, FILE *out)
{
    text_rows_print (&seeds_bonnie_head, seeds_bonnie_rows, run, out);
    seeds_iozone_text (run, out);
}
