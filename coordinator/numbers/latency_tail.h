/*  coordinator/numbers/latency_tail.h: which hosts made a test's tail.

    The fleet's p99 and p99.9 of requests (reads and writes, merged
    exactly across every stream) set two thresholds; each host's
    requests slower than them are counted from its own merged histogram:
    the requests of the buckets that lie wholly above the threshold (the
    bucket that holds it is the threshold's own and counts for no one),
    so a count is exact to the layout's buckets. A host's share of a
    tail is its count over the fleet's; set beside its share of all the
    requests, it tells a host that is slow from one that is only busy.

    A host is named the cause of a tail when its share of it is more than
    LATENCY_TAIL_CAUSE_RATIO times its share of the requests and it sent
    at least LATENCY_TAIL_CAUSE_MIN of the tail's requests: a handful, so
    that one slow request of a quiet host names no one.
*/
#ifndef IOFLEET_LATENCY_TAIL_H
#define IOFLEET_LATENCY_TAIL_H

#include "../results/results.h"

#define LATENCY_TAIL_CAUSE_RATIO 3.0
#define LATENCY_TAIL_CAUSE_MIN   5

//  Fill test->tail from the streams' histograms: every host with
//  requests, ranked by its count over p99, then over p99.9 (the p99
//  tail holds ten times the requests: a stall of a host or two moves it
//  less), then by name. Returns 0, or -1 when out of memory or a histogram does not
//  load (the tail is then empty).
int latency_tail_fill (test_result_t *test);

//  Free what tail holds; it is empty afterwards.
void latency_tail_clear (latency_tail_t *tail);

#endif
