/*  coordinator/metrics/metrics_collect.h: the live figures of the phase under
    way, read off its results, as one snapshot (metrics_figures.h).

    Counters come from the streams' samples (cumulative bytes), read at one
    instant for the whole fleet: the latest instant every stream still
    running has a sample at or after, each stream's bytes interpolated
    there. The snapshot carries that instant, so that a scraper stores
    every counter at the time it is true of, whenever it scraped: a rate
    over a window is then exact to the samples. A finished stream's curve
    ends at its last write with its final bytes (never below its last
    sample, so that no counter goes back: a ramp's bytes are left out of
    the reports, not of the counters). Requests are bytes / bs while a
    stream runs, its exact count once it finished (never less). Rates
    are each running stream's last sample interval, summed. Latency is
    folded in as streams finish: each stream's histogram once.

    The collector keeps what it folded per phase and starts again when the
    phase changes. A pass is one walk over the streams and the hosts.
*/
#ifndef IOFLEET_METRICS_COLLECT_H
#define IOFLEET_METRICS_COLLECT_H

#include "metrics_figures.h"
#include "../results/results.h"

#include <stdbool.h>

typedef struct _metrics_collector_t metrics_collector_t;

//  A new collector, or NULL if memory ran out.
metrics_collector_t *metrics_collector_new (void);

//  Destroy a collector; safe on NULL, NULLs the pointer.
void metrics_collector_destroy (metrics_collector_t **self_p);

//  The snapshot of result (the phase under way; over once it is
//  recorded). The caller frees it (metrics_snapshot_free). NULL if
//  memory ran out, or the phase has not started (no announced instant).
metrics_snapshot_t *metrics_collect (metrics_collector_t *self, const test_result_t *result,
                                     bool over);

#endif
