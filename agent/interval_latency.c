/*  agent/interval_latency.c: a host's request latency per interval; see
    interval_latency.h.
*/
#include "interval_latency.h"

#include <stdlib.h>

interval_latency_t *
interval_latency_new (void)
{
    interval_latency_t *self = calloc (1, sizeof (interval_latency_t));
    if (!self)
        return NULL;
    for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
        for (size_t index = 0; index < HISTOGRAM_BUCKETS; index++)
            atomic_init (&self->counts [kind][index], 0);
    return self;
}

void
interval_latency_destroy (interval_latency_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    free (*self_p);
    *self_p = NULL;
}

//  Take one kind's buckets into h; returns its count.
static uint64_t
s_take_kind (_Atomic uint64_t *counts, histogram_t *h)
{
    histogram_init (h);
    uint64_t count = 0;
    histogram_sum_t sum_ns = 0;
    int64_t min_ns = 0, max_ns = 0;
    for (size_t index = 0; index < HISTOGRAM_BUCKETS; index++) {
        //  A plain load first: most buckets are empty, and an exchange
        //  would take every cache line from the streams for nothing.
        if (atomic_load_explicit (&counts [index], memory_order_relaxed) == 0)
            continue;
        uint64_t taken = atomic_exchange_explicit (&counts [index], 0, memory_order_relaxed);
        if (taken == 0)
            continue;
        int64_t low_ns = histogram_bucket_low (index);
        if (count == 0)
            min_ns = low_ns;
        max_ns = low_ns;
        count += taken;
        histogram_set_bucket (h, index, taken);
        sum_ns += (histogram_sum_t) taken * (uint64_t) low_ns;
    }
    histogram_set_summary (h, count, min_ns, max_ns, sum_ns);
    return count;
}

uint64_t
interval_latency_take (interval_latency_t *self, histogram_t latency [MSG_LATENCY_KINDS])
{
    uint64_t count = 0;
    for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
        count += s_take_kind (self->counts [kind], &latency [kind]);
    return count;
}
