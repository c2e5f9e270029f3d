/*  coordinator/report/bonnie.c: bonnie++'s figures of the bonnie tests of
    a run; see bonnie.h.
*/
#include "bonnie.h"
#include "../numbers/aggregate.h"
#include "../../proto/workload.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Whether a row is the first phase of a test whose workload is printed
//  in bonnie++'s notation, with as many phases as it has columns.
static bool
s_first_phase (const test_result_t *test)
{
    const workload_desc_t *desc = workload_find (test->workload);
    return desc && desc->notation == NOTATION_BONNIE && test->phase_index == 0
        && workload_phase_count (desc) == BONNIE_PHASES;
}

bool
bonnie_next_run (const run_result_t *run, size_t *cursor, bonnie_run_t *bonnie)
{
    assert (run && cursor && bonnie);
    for (; *cursor < run->test_count; (*cursor)++) {
        const test_result_t *test = &run->tests [*cursor];
        if (!s_first_phase (test))
            continue;
        memset (bonnie, 0, sizeof *bonnie);
        bonnie->phases [0] = bonnie->first = test;
        for (size_t later = *cursor + 1; later < run->test_count; later++) {
            const test_result_t *phase = &run->tests [later];
            if (phase->iteration == test->iteration && phase->phase_index < BONNIE_PHASES
            &&  strcmp (phase->test, test->test) == 0
            &&  strcmp (phase->workload, test->workload) == 0)
                bonnie->phases [phase->phase_index] = phase;
        }
        (*cursor)++;
        return true;
    }
    return false;
}

//  What a host's streams did in one phase of a test: its figures
//  (aggregate_host_figures), those of its entry in the phase's hosts, or
//  of its streams there when it has none.
static bonnie_figure_t
s_host_figure (const test_result_t *phase, const char *agent)
{
    bonnie_figure_t figure = { .per_second = NAN, .cpu_pct = NAN };
    if (!phase)
        return figure;
    const host_result_t *host = NULL;
    for (size_t nbr = 0; !host && nbr < phase->host_count; nbr++)
        if (strcmp (phase->hosts [nbr].agent, agent) == 0)
            host = &phase->hosts [nbr];
    host_result_t own;
    if (!host) {
        const stream_result_t **streams = calloc (phase->stream_count + 1, sizeof *streams);
        size_t count = 0;
        for (size_t nbr = 0; streams && nbr < phase->stream_count; nbr++)
            if (strcmp (phase->streams [nbr].agent, agent) == 0)
                streams [count++] = &phase->streams [nbr];
        memset (&own, 0, sizeof own);
        aggregate_streams_figures (streams, count, &own);
        free (streams);
        host = &own;
    }
    figure.any = host->streams > 0;
    figure.per_second = phase->rate_ops? host->ops_per_s: host->rate_mbps * 1e6 / 1024;
    figure.cpu_pct = host->streams_cpu_pct;
    if (figure.any && host->latency.count)
        figure.max_latency_ns = host->latency.max_ns;
    return figure;
}

bool
bonnie_next_host (const bonnie_run_t *bonnie, size_t *cursor, bonnie_host_t *host)
{
    assert (bonnie && cursor && host);
    const test_result_t *first = bonnie->first;
    for (; *cursor < first->stream_count; (*cursor)++) {
        const stream_result_t *stream = &first->streams [*cursor];
        bool seen = false;
        for (size_t earlier = 0; earlier < *cursor && !seen; earlier++)
            seen = strcmp (first->streams [earlier].agent, stream->agent) == 0;
        if (seen)
            continue;
        memset (host, 0, sizeof *host);
        host->agent = stream->agent;
        host->stream = stream;
        for (size_t nbr = *cursor; nbr < first->stream_count; nbr++)
            host->streams += strcmp (first->streams [nbr].agent, stream->agent) == 0;
        for (int p = 0; p < BONNIE_PHASES; p++)
            host->figures [p] = s_host_figure (bonnie->phases [p], stream->agent);
        (*cursor)++;
        return true;
    }
    return false;
}

void
bonnie_size (uint64_t bytes, char *buf, size_t buflen)
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
