/*  coordinator/results/stop_json.c: how a time-bound test's streams
    stopped, in the results file; see stop_json.h.
*/
#include "stop_json.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

//  The figures besides the count of streams, every one a time in ns.
#define S_STOP_TIMES(X) X (instant_ns) X (late_ns) X (issue_late_ns) X (in_flight_ns) X (tail_ns)

json_t *
stop_summary_json (const stop_summary_t *stop, bool *ok)
{
    *ok = true;
    if (stop->streams == 0)
        return NULL;
    json_t *object = json_object ();
    *ok = object != NULL
       && json_object_set_new (object, "streams", json_integer (stop->streams)) == 0;
#define S_SET(field) \
    *ok = *ok && json_object_set_new (object, #field, json_integer (stop->field)) == 0;
    S_STOP_TIMES (S_SET)
#undef S_SET
    if (!*ok) {
        json_decref (object);
        return NULL;
    }
    return object;
}

void
stop_summary_read (jsonread_t *reader, json_t *summary, stop_summary_t *stop)
{
    memset (stop, 0, sizeof (*stop));
    if (!json_object_get (summary, "stop"))
        return;
    json_t *object = jsonread_object (reader, summary, "stop");
    if (!object)
        return;
    char saved [sizeof reader->place];
    snprintf (saved, sizeof saved, "%s", reader->place);
    snprintf (reader->place, sizeof reader->place, "%s%sstop", saved, saved [0]? ".": "");
    stop->streams = (uint32_t) jsonread_integer (reader, object, "streams", 1, UINT32_MAX);
#define S_GET(field) stop->field = jsonread_integer (reader, object, #field, INT64_MIN, INT64_MAX);
    S_STOP_TIMES (S_GET)
#undef S_GET
    snprintf (reader->place, sizeof reader->place, "%s", saved);
}
