/*  coordinator/results/latency_json.c: request latency in the results
    file; see latency_json.h.  */
#include "latency_json.h"
#include "../numbers/latency.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

//  The keys of a set's figures, in the order they are written.
#define S_SUMMARY_FIELDS(X) \
    X (count) X (min_ns) X (p50_ns) X (p95_ns) X (p99_ns) X (p999_ns) X (max_ns)

json_t *
latency_summary_json (const latency_summary_t *summary)
{
    json_t *object = json_object ();
    bool ok = object != NULL;
#define S_SET(field) \
    ok = ok && json_object_set_new (object, #field, \
                  json_integer ((json_int_t) (summary->field > INT64_MAX? \
                                              INT64_MAX: summary->field))) == 0;
    S_SUMMARY_FIELDS (S_SET)
#undef S_SET
    ok = ok && json_object_set_new (object, "mean_ns", json_real (summary->mean_ns)) == 0;
    if (!ok) {
        json_decref (object);
        return NULL;
    }
    return object;
}

json_t *
latency_histogram_json (const histogram_t *h)
{
    histogram_sum_t sum = histogram_sum (h);
    json_t *buckets = json_array ();
    json_t *object = json_pack ("{s:i, s:I, s:I, s:I, s:[I, I], s:o}",
                                "layout", HISTOGRAM_LAYOUT,
                                "count", (json_int_t) histogram_count (h),
                                "min_ns", (json_int_t) histogram_min (h),
                                "max_ns", (json_int_t) histogram_max (h),
                                "sum_ns", (json_int_t) (uint64_t) (sum >> 64),
                                          (json_int_t) (uint64_t) sum,
                                "buckets", buckets);
    if (!object)
        return NULL;
    size_t cursor = 0;
    histogram_bucket_t bucket;
    while (histogram_next (h, &cursor, &bucket))
        if (json_array_append_new (buckets, json_pack ("[I, I]", (json_int_t) bucket.index,
                                                       (json_int_t) bucket.count))) {
            json_decref (object);
            return NULL;
        }
    return object;
}

json_t *
latency_stream_json (const stream_result_t *stream, bool *ok)
{
    *ok = true;
    json_t *object = NULL;
    histogram_t *h = NULL;
    for (int kind = 0; kind < MSG_LATENCY_KINDS && *ok; kind++) {
        if (!stream->latency [kind].packed)
            continue;
        char err [256];
        if (!h && !(h = histogram_new ()))
            *ok = false;
        else
        if (latency_load (&stream->latency [kind], h, err, sizeof err))
            continue;               //  stored by this program: cannot happen, skip it
        else {
            if (!object)
                object = json_object ();
            *ok = object && json_object_set_new (object, latency_set_name (kind),
                                                 latency_histogram_json (h)) == 0;
        }
    }
    histogram_destroy (&h);
    if (!*ok) {
        json_decref (object);
        return NULL;
    }
    return object;
}

//  --------------------------------------------------------------------------
//  Reading back

//  Enter "latency" (and key below it, if any) for messages; returns the
//  place to restore.
static void
s_enter (jsonread_t *reader, const char *key, char *saved, size_t savedlen)
{
    snprintf (saved, savedlen, "%s", reader->place);
    snprintf (reader->place, sizeof reader->place, "%s%slatency%s%s", saved, saved [0]? ".": "",
              key? ".": "", key? key: "");
}

//  One set's figures from object.
static void
s_summary_read (jsonread_t *reader, json_t *object, latency_summary_t *summary)
{
    memset (summary, 0, sizeof (*summary));
#define S_GET(field) summary->field = jsonread_integer (reader, object, #field, 0, INT64_MAX);
    S_SUMMARY_FIELDS (S_GET)
#undef S_GET
    summary->mean_ns = jsonread_number (reader, object, "mean_ns", 0, DBL_MAX);
    if (!reader->failed && summary->count
    &&  !(summary->min_ns <= summary->p50_ns && summary->p50_ns <= summary->p95_ns
          && summary->p95_ns <= summary->p99_ns && summary->p99_ns <= summary->p999_ns
          && summary->p999_ns <= summary->max_ns))
        jsonread_fail (reader, NULL, "the percentiles are not in order");
}

void
latency_summary_read (jsonread_t *reader, json_t *object, const char *key,
                      latency_summary_t *summary)
{
    memset (summary, 0, sizeof (*summary));
    if (!json_object_get (object, key))
        return;
    json_t *value = jsonread_object (reader, object, key);
    if (!value)
        return;
    char saved [sizeof reader->place];
    snprintf (saved, sizeof saved, "%s", reader->place);
    snprintf (reader->place, sizeof reader->place, "%s%s%s", saved, saved [0]? ".": "", key);
    s_summary_read (reader, value, summary);
    snprintf (reader->place, sizeof reader->place, "%s", saved);
}

void
latency_histogram_read (jsonread_t *reader, json_t *object, histogram_t *h)
{
    histogram_init (h);
    if (jsonread_integer (reader, object, "layout", 0, INT64_MAX) != HISTOGRAM_LAYOUT
    &&  !reader->failed) {
        jsonread_fail (reader, "layout", "not bucket layout %d", HISTOGRAM_LAYOUT);
        return;
    }
    uint64_t count = (uint64_t) jsonread_integer (reader, object, "count", 0, INT64_MAX);
    int64_t min_ns = jsonread_integer (reader, object, "min_ns", 0, INT64_MAX);
    int64_t max_ns = jsonread_integer (reader, object, "max_ns", 0, INT64_MAX);
    json_t *sum = jsonread_member (reader, object, "sum_ns");
    json_int_t high, low;
    if (sum && json_unpack (sum, "[II]", &high, &low)) {
        jsonread_fail (reader, "sum_ns", "expected [high, low]");
        return;
    }
    size_t count_buckets;
    json_t *buckets = jsonread_array (reader, object, "buckets", &count_buckets);
    if (reader->failed)
        return;
    for (size_t i = 0; i < count_buckets; i++) {
        json_int_t index, n;
        if (json_unpack (json_array_get (buckets, i), "[II]", &index, &n)
        ||  index < 0 || n < 0
        ||  histogram_set_bucket (h, (size_t) index, (uint64_t) n)) {
            jsonread_fail (reader, "buckets", "entry %zu is not [index, count] of the layout", i);
            return;
        }
    }
    histogram_sum_t sum_ns = ((histogram_sum_t) (uint64_t) high << 64) | (uint64_t) low;
    histogram_set_summary (h, count, min_ns, max_ns, sum_ns);
    char err [256];
    if (histogram_check (h, err, sizeof err))
        jsonread_fail (reader, NULL, "%s", err);
}

void
latency_stream_read (jsonread_t *reader, json_t *object, stream_result_t *stream)
{
    if (!json_object_get (object, "latency"))
        return;
    json_t *value = jsonread_object (reader, object, "latency");
    histogram_t *h = NULL;
    for (int kind = 0; value && kind < MSG_LATENCY_KINDS && !reader->failed; kind++) {
        json_t *histogram = json_object_get (value, latency_set_name (kind));
        if (!histogram)
            continue;
        char saved [sizeof reader->place];
        s_enter (reader, latency_set_name (kind), saved, sizeof saved);
        if (!json_is_object (histogram))
            jsonread_fail (reader, NULL, "expected an object");
        else
        if (!h && !(h = histogram_new ()))
            jsonread_fail (reader, NULL, "out of memory");
        else {
            latency_histogram_read (reader, histogram, h);
            if (!reader->failed && latency_store (&stream->latency [kind], h))
                jsonread_fail (reader, NULL, "out of memory");
        }
        snprintf (reader->place, sizeof reader->place, "%s", saved);
    }
    histogram_destroy (&h);
}
