/*  coordinator/results/timeline_json.h: a test's latency over time and the
    hosts that made its tail, in the results file.

    A test whose agents sent intervals holds

        "latency_timeline": {
            "set": "requests", "interval_ns": 1000000000,
            "intervals": [ { "index": 0, "start_ns": 0,
                             "latency": { "count": .., "p50_ns": .., "p99_ns": .., ... },
                             "histogram": { "layout": 1, "count": .., "buckets": [..] } },
                           ... ],
            "hosts": [ { "agent": "c07", "points": [[index, count, p50_ns, p99_ns,
                                                     p999_ns], ...] }, ... ] }

    with the fleet's merged histogram of every interval that had requests
    (interval k spans [start_ns, start_ns + interval_ns) of the test's
    timeline), and the points of the hosts first in the tail attribution
    (TIMELINE_HOSTS_KEPT). A test with requests holds

        "latency_tail": { "p99_ns": .., "p999_ns": .., "requests": ..,
                          "over_p99": .., "over_p999": ..,
                          "hosts": [ { "agent": "c07", "requests": ..,
                                       "requests_share": 0.25, "over_p99": ..,
                                       "p99_share": 0.9, "over_p999": ..,
                                       "p999_share": 1, "cause": true }, ... ] }

    ranked (latency_tail.h), its first TAIL_HOSTS_KEPT hosts. Files from
    before lack both keys, and are written again without them.
*/
#ifndef IOFLEET_TIMELINE_JSON_H
#define IOFLEET_TIMELINE_JSON_H

#include "jsonread.h"
#include "results.h"

#include <jansson.h>
#include <stdbool.h>

//  How many hosts of a tail the file lists, ranked.
#define TAIL_HOSTS_KEPT 16

//  The timeline and the tail as objects, or NULL when the test has none
//  or memory ran out: *ok says which.
json_t *timeline_json (const test_result_t *test, bool *ok);
json_t *timeline_tail_json (const latency_tail_t *tail, bool *ok);

//  Read back the member "latency_timeline" of a test object, if any,
//  into test->timeline, every value checked.
void timeline_read (jsonread_t *reader, json_t *object, test_result_t *test);

//  Read back the member "latency_tail" of a test object, if any, into
//  tail, every value checked.
void timeline_tail_read (jsonread_t *reader, json_t *object, latency_tail_t *tail);

#endif
