/*  coordinator/numbers/latency.h: request latency, merged exactly across streams,
    hosts, classes and the test.

    Every stream reports one histogram per kind of request (read, write,
    fsync) in its RESULT; results keep each in its packed wire form. The
    figures of a host, a class or a test come from merging the histograms
    of its streams bucket for bucket, which gives the histogram of all
    their requests together: a p99 across a fleet is the p99 of every
    request of the fleet, never an average of percentiles.
*/
#ifndef IOFLEET_LATENCY_H
#define IOFLEET_LATENCY_H

#include "../results/results.h"

//  Keep h in slot, packed (nothing for an empty h). Returns 0, or -1
//  when out of memory (slot left empty).
int latency_store (latency_packed_t *slot, const histogram_t *h);

//  Unpack slot into h (empty for an empty slot). Returns 0, or -1 with a
//  reason in err.
int latency_load (const latency_packed_t *slot, histogram_t *h, char *err, size_t errlen);

//  Free what slot holds; it is empty afterwards.
void latency_free (latency_packed_t *slot);

//  The figures of a merged histogram.
void latency_summarize (const histogram_t *h, latency_summary_t *summary);

//  "read", "write", "fsync", "requests".
const char *latency_set_name (int set);

//  Fill the latency figures of a test from its streams: the summary's
//  per set, each host's and each class's (requests). Returns 0, or -1
//  when out of memory or a stored histogram does not load (the figures
//  are then left empty).
int latency_fill (test_result_t *test);

//  A stream's latency_requests from its read and write histograms, when
//  it has any (latency_fill does it for every stream; the results reader
//  for a stream read back, which files from before the figure lack).
//  Returns 0, or -1 when they do not load (then it is left unmeasured).
int latency_stream_fill (stream_result_t *stream);

//  Merge the histograms of kind `set` (LATENCY_REQUESTS: reads and
//  writes) of streams[0..count) of job_class (-1: any) into merged,
//  using scratch. Returns 0, or -1 with a reason in err.
int latency_merge (const stream_result_t *const *streams, size_t count, int job_class, int set,
                   histogram_t *merged, histogram_t *scratch, char *err, size_t errlen);

//  The hosts of test whose requests were measured, as a report lists
//  them: all, in the test's order; or past fleet of them, the slowest of
//  the highest p99. *measured gets how many were measured, *shown how many
//  the array holds. The caller frees the array; NULL if out of memory.
const host_result_t **latency_hosts_listed (const test_result_t *test, size_t fleet,
                                            size_t slowest, size_t *shown, size_t *measured);

#endif
