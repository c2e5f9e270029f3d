/*  coordinator/results/latency_json.h: request latency in the results file,
    written and read back.

    A set's figures are an object {"count", "min_ns", "mean_ns", "p50_ns",
    "p95_ns", "p99_ns", "p999_ns", "max_ns"}; a summary, a class and a
    host hold them under "latency" (the summary one per set that was
    measured: "read", "write", "fsync", "requests"). Every stream keeps
    its histograms themselves, so that anyone can merge them again,
    exactly, across hosts or files:

        "latency": { "write": { "layout": 1, "count": N, "min_ns": ...,
                                "max_ns": ..., "sum_ns": [high, low],
                                "buckets": [[index, count], ...] } }

    with the bucket indexes of histogram.h's layout, non-empty buckets
    only. Files without latency (older ones, workloads that measure none)
    simply lack the keys.
*/
#ifndef IOFLEET_LATENCY_JSON_H
#define IOFLEET_LATENCY_JSON_H

#include "jsonread.h"
#include "results.h"

#include <jansson.h>

//  One set's figures as an object, or NULL when out of memory.
json_t *latency_summary_json (const latency_summary_t *summary);

//  A stream's histograms as an object, or NULL when it has none or memory
//  ran out (*ok says which).
json_t *latency_stream_json (const stream_result_t *stream, bool *ok);

//  One histogram with its non-empty buckets, as a stream keeps one, or
//  NULL when out of memory; and read back from object into h, checked
//  as histogram_check does.
json_t *latency_histogram_json (const histogram_t *h);
void latency_histogram_read (jsonread_t *reader, json_t *object, histogram_t *h);

//  Read back what the writers above wrote, from the member "latency" of
//  object if it has one (a summary: the member key) and left empty
//  otherwise. Every value is checked; a stream's histograms are checked
//  as histogram_check does. (A test's sets are a table of summaries,
//  results_schema.c's.)
void latency_summary_read (jsonread_t *reader, json_t *object, const char *key,
                           latency_summary_t *summary);
void latency_stream_read (jsonread_t *reader, json_t *object, stream_result_t *stream);

#endif
