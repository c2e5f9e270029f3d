/*  coordinator/results/stop_json.h: how the streams of a time-bound test
    stopped (stop_summary_t, results.h) in the results file, written and
    read back.

    The summary of a test whose streams ran to their stop instant holds,
    on the test's timeline,

        "stop": { "streams": 8, "instant_ns": 2000000000, "late_ns": 87000,
                  "issue_late_ns": -3100, "in_flight_ns": 120000,
                  "tail_ns": 2421000 }

    and each stream its "stop_ns" and "last_issue_ns" beside its other
    times. Other tests, and files from before, lack the key.
*/
#ifndef IOFLEET_STOP_JSON_H
#define IOFLEET_STOP_JSON_H

#include "jsonread.h"
#include "results.h"

#include <jansson.h>
#include <stdbool.h>

//  The figures as an object, or NULL when no stream ran to its stop
//  instant or memory ran out: *ok says which.
json_t *stop_summary_json (const stop_summary_t *stop, bool *ok);

//  Read back what stop_summary_json wrote, from the member "stop" of a
//  summary if it has one (left empty otherwise).
void stop_summary_read (jsonread_t *reader, json_t *summary, stop_summary_t *stop);

#endif
