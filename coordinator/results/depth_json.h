/*  coordinator/results/depth_json.h: the queue depth streams reached (an
    engine's iodepth) in the results file, written and read back.

    A stream whose agent reports its depth holds

        "depth": { "busy_ns": 4180000000, "mean": 31.6, "max": 32,
                   "inflight_at_stop": 32 }

    (busy_ns: the time of its reads and writes summed; mean: that over
    its window of requests; inflight_at_stop: issued before its stop
    instant and ended after it), and the summary of its test

        "depth": { "mean": 31.6, "max": 32, "inflight_at_stop": 64 }

    (mean over the streams, most in any, requests in flight at the stop
    summed). Streams of workloads without an engine, and files from
    before, lack the key.
*/
#ifndef IOFLEET_DEPTH_JSON_H
#define IOFLEET_DEPTH_JSON_H

#include "jsonread.h"
#include "results.h"

#include <jansson.h>
#include <stdbool.h>

//  A stream's depth as an object, or NULL when it has none or memory
//  ran out: *ok says which.
json_t *depth_stream_json (const stream_result_t *stream, bool *ok);

//  Read back the member "depth" of a stream's object, if it has one.
void depth_stream_read (jsonread_t *reader, json_t *object, stream_result_t *stream);

//  A test's depth as an object, or NULL as above.
json_t *depth_summary_json (const test_summary_t *summary, bool *ok);

//  Read back the member "depth" of a summary (depth_mean NAN without).
void depth_summary_read (jsonread_t *reader, json_t *object, test_summary_t *summary);

#endif
