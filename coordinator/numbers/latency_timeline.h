/*  coordinator/numbers/latency_timeline.h: a test's latency over time, put
    together from the agents' INTERVAL messages while it runs.

    Every agent sends, for every interval of a phase, the histograms of
    its host's requests that ended in it (proto/msg.h). Interval k of
    every host covers the same span of the test's timeline, so the
    fleet's interval k is the merge of every host's, bucket for bucket:
    the histogram of every request of the fleet in that span, whose p99
    is a true p99. Requests are reads and writes (fsyncs stay apart, as
    in the test's figures).

    While the test runs, each interval of the fleet is one histogram
    (16 KiB), so the console holds 16 KiB per interval of the test plus
    32 bytes per host and interval (its p50, p99, p99.9 and count); at
    the end they are packed into the test's result (a few hundred bytes
    per interval) and the histograms freed.
*/
#ifndef IOFLEET_LATENCY_TIMELINE_H
#define IOFLEET_LATENCY_TIMELINE_H

#include "../results/results.h"

//  The most intervals a test's timeline holds: a day of 1 s intervals.
//  An INTERVAL past it is refused.
#define LATENCY_TIMELINE_INTERVALS_MAX 86400

typedef struct _latency_timeline_builder_t latency_timeline_builder_t;

//  A timeline for a test of host_count hosts (the test's hosts array),
//  or NULL when out of memory; its destructor, safe on NULL, NULLs the
//  caller's pointer.
latency_timeline_builder_t *latency_timeline_builder_new (size_t host_count);
void latency_timeline_builder_destroy (latency_timeline_builder_t **self_p);

//  Add host's interval index, of length_ns, with its histograms per
//  kind. Refused with a reason (nothing added): a host out of range, an
//  index past the bound or not after the host's last one, a length other
//  than the first message's, a count that would overflow.
int latency_timeline_builder_add (latency_timeline_builder_t *self, size_t host, uint32_t index,
                                  int64_t length_ns, const histogram_t latency [MSG_LATENCY_KINDS],
                                  char *err, size_t errlen);

//  Move the timeline into test->timeline (emptied first; the hosts named
//  as test->hosts names them) and empty the builder. Returns 0, or -1
//  when out of memory (test->timeline is then empty).
int latency_timeline_builder_store (latency_timeline_builder_t *self, test_result_t *test);

//  Free what a timeline holds; it is empty afterwards.
void latency_timeline_clear (latency_timeline_t *timeline);

#endif
