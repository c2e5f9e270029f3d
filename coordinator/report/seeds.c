/*  coordinator/report/seeds.c: the seed tools' notations in the text
    report; see report.h.

    bonnie++ prints a line per machine with K/sec (1024 bytes) and %CP
    (the test's CPU time over its elapsed time) for each of its tests;
    iozone's threads quote ranges over runs ("654-738 MB/s write,
    1126-1154 MB/s rewrite"). Both are made from the phase rows, per host
    for bonnie, per test for iozone, of the tests whose workload's
    descriptor names the notation (proto/workload.h), with its phases.
*/
#include "report.h"
#include "../numbers/aggregate.h"
#include "../../proto/printable.h"
#include "../../proto/workload.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEEDS_BONNIE_PHASES 4       //  bonnie++'s columns: output, rewrite, input, seeks

//  One host's figures of one phase: bytes (or seeks) per second and %CP.
typedef struct {
    bool any;                       //  the host ran the phase
    double per_second;              //  KiB/s, or seeks/s for the seeks phase
    double cpu_pct;                 //  CPU time of its streams over the phase's window
} s_figure_t;

//  What a host's streams did in one phase of a test.
static s_figure_t
s_host_figure (const test_result_t *phase, const char *agent)
{
    s_figure_t figure = { .per_second = NAN, .cpu_pct = NAN };
    int64_t first_ns = 0, last_ns = 0;
    double count = 0, cpu_ns = 0;
    for (size_t nbr = 0; nbr < phase->stream_count; nbr++) {
        const stream_result_t *stream = &phase->streams [nbr];
        if (strcmp (stream->agent, agent) != 0 || !stream->finished || stream->error)
            continue;
        if (!figure.any || stream->start_ns < first_ns)
            first_ns = stream->start_ns;
        if (!figure.any || stream->end_ns > last_ns)
            last_ns = stream->end_ns;
        figure.any = true;
        count += phase->rate_ops? (double) stream->reads: (double) stream->bytes / 1024.0;
        cpu_ns += (double) stream->usr_ns + (double) stream->sys_ns;
    }
    if (figure.any && last_ns > first_ns) {
        double seconds = (double) (last_ns - first_ns) / 1e9;
        figure.per_second = count / seconds;
        figure.cpu_pct = 100.0 * cpu_ns / 1e9 / seconds;
    }
    return figure;
}

//  bonnie++'s size: "2G", "512M", "64k".
static void
s_bonnie_size (uint64_t bytes, char *buf, size_t buflen)
{
    if (bytes && bytes % (1ULL << 30) == 0)
        snprintf (buf, buflen, "%" PRIu64 "G", bytes >> 30);
    else
    if (bytes && bytes % (1ULL << 20) == 0)
        snprintf (buf, buflen, "%" PRIu64 "M", bytes >> 20);
    else
    if (bytes && bytes % 1024 == 0)
        snprintf (buf, buflen, "%" PRIu64 "k", bytes >> 10);
    else
        snprintf (buf, buflen, "%" PRIu64, bytes);
}

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

//  The bonnie++ lines of the phases of one run of one test, phases [0..4)
//  its rows output, rewrite, input and seeks (any may be NULL).
static void
s_print_bonnie_run (const test_result_t *const *phases, FILE *out)
{
    const test_result_t *first = NULL;
    for (int p = 0; p < SEEDS_BONNIE_PHASES && !first; p++)
        first = phases [p];
    //  One line per host, in the order its first stream appears.
    for (size_t nbr = 0; nbr < first->stream_count; nbr++) {
        const stream_result_t *stream = &first->streams [nbr];
        bool seen = false;
        for (size_t earlier = 0; earlier < nbr && !seen; earlier++)
            seen = strcmp (first->streams [earlier].agent, stream->agent) == 0;
        if (seen)
            continue;
        char size [32], chunk [32], machine [JOB_NAME_MAX * PRINTABLE_GROWTH + 1];
        s_bonnie_size (stream->bytes, size, sizeof size);
        s_bonnie_size (stream->bs_bytes, chunk, sizeof chunk);
        fprintf (out, "  %-12s %s:%s", printable (stream->agent, machine, sizeof machine),
                 size, chunk);
        for (int p = 0; p < SEEDS_BONNIE_PHASES; p++) {
            s_figure_t figure = phases [p]? s_host_figure (phases [p], stream->agent)
                                          : (s_figure_t) { .per_second = NAN, .cpu_pct = NAN };
            char rate [32], cpu [32];
            s_bonnie_cell (figure.per_second, p == 3? 1: 0, rate, sizeof rate);
            s_bonnie_cell (figure.cpu_pct, 0, cpu, sizeof cpu);
            fprintf (out, " %10s %3s", rate, cpu);
        }
        if (first->iteration > 1)
            fprintf (out, "  #%" PRIu32, first->iteration);
        fputc ('\n', out);
    }
}

//  Whether a row is the first phase of a test whose workload is printed
//  in notation, with as many phases as the notation has columns.
static bool
s_first_in (const test_result_t *test, workload_notation_t notation, uint32_t phases)
{
    const workload_desc_t *desc = workload_find (test->workload);
    return desc && desc->notation == notation && test->phase_index == 0
        && workload_phase_count (desc) == phases;
}

//  Every test in bonnie++'s notation: its phases gathered by test and
//  iteration.
static void
s_print_bonnie (const run_result_t *run, FILE *out)
{
    bool any = false;
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        if (!s_first_in (test, NOTATION_BONNIE, SEEDS_BONNIE_PHASES))
            continue;
        const test_result_t *phases [SEEDS_BONNIE_PHASES] = { test };
        for (size_t later = t + 1; later < run->test_count; later++) {
            const test_result_t *phase = &run->tests [later];
            if (phase->iteration == test->iteration && phase->phase_index < SEEDS_BONNIE_PHASES
            &&  strcmp (phase->test, test->test) == 0
            &&  strcmp (phase->workload, test->workload) == 0)
                phases [phase->phase_index] = phase;
        }
        if (!any)
            fprintf (out, "\nbonnie++ block tests (K/sec in 1024 bytes; %%CP: CPU time of the "
                    "streams over the phase)\n"
                    "  %-12s %-10s %10s %3s %10s %3s %10s %3s %10s %3s\n",
                    "Machine", "Size", "Output K/s", "%CP", "Rewrite", "%CP", "Input K/s",
                    "%CP", "Seeks /s", "%CP");
        any = true;
        char name [JOB_NAME_MAX * PRINTABLE_GROWTH + 1];
        fprintf (out, "  %s\n", printable (test->test, name, sizeof name));
        s_print_bonnie_run (phases, out);
    }
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

//  Every test in iozone's notation: its phases' ranges ("write, rewrite").
static void
s_print_iozone (const run_result_t *run, FILE *out)
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
    s_print_bonnie (run, out);
    s_print_iozone (run, out);
}
