/*  coordinator/results/depth_json.c: the depth streams reached, in the
    results file; see depth_json.h.
*/
#include "depth_json.h"

#include "../numbers/aggregate.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

//  Set key of object to value (stolen); false on failure.
static bool
s_set (json_t *object, const char *key, json_t *value)
{
    return value && json_object_set_new (object, key, value) == 0;
}

//  A mean as a number, null when it could not be computed.
static json_t *
s_mean (double mean)
{
    return isfinite (mean)? json_real (mean): json_null ();
}

//  The object, or NULL with *ok false if a member would not go in.
static json_t *
s_finish (json_t *object, bool set, bool *ok)
{
    *ok = set;
    if (set)
        return object;
    json_decref (object);
    return NULL;
}

json_t *
depth_stream_json (const stream_result_t *stream, bool *ok)
{
    *ok = true;
    if (!stream->depth_max)
        return NULL;
    json_t *object = json_object ();
    bool set = object
            && s_set (object, "busy_ns", json_integer ((json_int_t) stream->busy_ns))
            && s_set (object, "mean", s_mean (aggregate_stream_depth (stream)))
            && s_set (object, "max", json_integer (stream->depth_max))
            && s_set (object, "inflight_at_stop", json_integer (stream->inflight_at_stop));
    return s_finish (object, set, ok);
}

//  Enter member "depth" of object for reading, the place named; NULL
//  when it has none.
static json_t *
s_enter (jsonread_t *reader, json_t *object, char *saved, size_t savedlen)
{
    if (!json_object_get (object, "depth"))
        return NULL;
    json_t *depth = jsonread_object (reader, object, "depth");
    if (!depth)
        return NULL;
    snprintf (saved, savedlen, "%s", reader->place);
    snprintf (reader->place, sizeof reader->place, "%s%sdepth", saved, saved [0]? ".": "");
    return depth;
}

void
depth_stream_read (jsonread_t *reader, json_t *object, stream_result_t *stream)
{
    char saved [sizeof reader->place];
    json_t *depth = s_enter (reader, object, saved, sizeof saved);
    if (!depth)
        return;
    stream->busy_ns = (uint64_t) jsonread_integer (reader, depth, "busy_ns", 0, INT64_MAX);
    stream->depth_max = (uint32_t) jsonread_integer (reader, depth, "max", 1, UINT32_MAX);
    stream->inflight_at_stop = (uint32_t) jsonread_integer (reader, depth, "inflight_at_stop",
                                                            0, UINT32_MAX);
    snprintf (reader->place, sizeof reader->place, "%s", saved);
}

json_t *
depth_summary_json (const test_summary_t *summary, bool *ok)
{
    *ok = true;
    if (!summary->depth_max)
        return NULL;
    json_t *object = json_object ();
    bool set = object
            && s_set (object, "mean", s_mean (summary->depth_mean))
            && s_set (object, "max", json_integer (summary->depth_max))
            && s_set (object, "inflight_at_stop",
                      json_integer ((json_int_t) summary->inflight_at_stop));
    return s_finish (object, set, ok);
}

void
depth_summary_read (jsonread_t *reader, json_t *object, test_summary_t *summary)
{
    summary->depth_mean = NAN;
    char saved [sizeof reader->place];
    json_t *depth = s_enter (reader, object, saved, sizeof saved);
    if (!depth)
        return;
    summary->depth_mean = jsonread_number (reader, depth, "mean", 0, DBL_MAX);
    summary->depth_max = (uint32_t) jsonread_integer (reader, depth, "max", 1, UINT32_MAX);
    summary->inflight_at_stop = (uint64_t) jsonread_integer (reader, depth, "inflight_at_stop",
                                                             0, INT64_MAX);
    snprintf (reader->place, sizeof reader->place, "%s", saved);
}
