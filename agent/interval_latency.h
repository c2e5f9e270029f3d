/*  agent/interval_latency.h: the latency of a host's requests over one
    interval, recorded by every stream of a test at once and taken by
    the agent's loop at the end of every interval (an INTERVAL message).

    One set of buckets per test and kind, histogram.h's layout, shared by
    the test's streams: a stream adds one to a bucket with an atomic
    add (relaxed, no lock, no system call), and the loop takes the
    interval by exchanging every non-empty bucket with zero. A request
    recorded while the loop takes is in this interval or the next, never
    in neither nor in both, so the intervals of a phase add up to its
    requests exactly. Merging on the agent is what makes one message per
    host and interval, whatever the number of streams.

    Only the buckets are shared: the interval's count is the sum of its
    buckets, and its min, max and sum are those of its requests each
    taken at the low edge of its bucket (exact below 128 ns, at most
    1/64 under above), so that the histogram taken always passes
    histogram_check. Its percentiles are those of the buckets, as exact
    as the layout but for the top one, which is clamped to that max.
*/
#ifndef IOFLEET_AGENT_INTERVAL_LATENCY_H
#define IOFLEET_AGENT_INTERVAL_LATENCY_H

#include "../proto/histogram.h"
#include "../proto/msg.h"

#include <stdatomic.h>
#include <stdint.h>

typedef struct {
    _Atomic uint64_t counts [MSG_LATENCY_KINDS][HISTOGRAM_BUCKETS];   //  requests per bucket
                                            //  since the last take, by kind and layout index
} interval_latency_t;

//  A new empty recorder, or NULL when out of memory; and its destructor,
//  safe on NULL, which NULLs the caller's pointer.
interval_latency_t *interval_latency_new (void);
void interval_latency_destroy (interval_latency_t **self_p);

//  Count one request of kind that took value_ns: from any thread.
static inline void
interval_latency_record (interval_latency_t *self, msg_latency_kind_t kind, int64_t value_ns)
{
    atomic_fetch_add_explicit (&self->counts [kind][histogram_index (value_ns)], 1,
                               memory_order_relaxed);
}

//  Move what was recorded since the last take into latency (one
//  histogram per kind, emptied first) and start again from nothing.
//  Returns the number of requests taken, 0 for an empty interval.
uint64_t interval_latency_take (interval_latency_t *self,
                                histogram_t latency [MSG_LATENCY_KINDS]);

#endif
