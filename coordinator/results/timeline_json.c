/*  coordinator/results/timeline_json.c: a test's latency over time and its
    tail in the results file; see timeline_json.h.
*/
#include "timeline_json.h"
#include "latency_json.h"
#include "results_schema.h"
#include "../numbers/latency.h"
#include "../numbers/latency_tail.h"
#include "../numbers/latency_timeline.h"

#include <stdlib.h>
#include <string.h>

//  The host's timeline in test, or NULL.
static const timeline_host_t *
s_host (const latency_timeline_t *timeline, const char *agent)
{
    for (size_t h = 0; h < timeline->host_count; h++)
        if (strcmp (timeline->hosts [h].agent, agent) == 0)
            return &timeline->hosts [h];
    return NULL;
}

//  One host's points, or NULL when out of memory.
static json_t *
s_host_json (const timeline_host_t *host)
{
    json_t *points = json_array ();
    json_t *object = json_pack ("{s:s, s:o}", "agent", host->agent, "points", points);
    for (size_t p = 0; object && p < host->point_count; p++) {
        const timeline_point_t *point = &host->points [p];
        if (json_array_append_new (points, json_pack ("[I, I, I, I, I]",
                                   (json_int_t) point->index, (json_int_t) point->count,
                                   (json_int_t) point->p50_ns, (json_int_t) point->p99_ns,
                                   (json_int_t) point->p999_ns))) {
            json_decref (object);
            return NULL;
        }
    }
    return object;
}

//  One interval of the fleet, or NULL when out of memory.
static json_t *
s_interval_json (const latency_timeline_t *timeline, const timeline_interval_t *interval,
                 histogram_t *scratch)
{
    char err [256];
    if (latency_load (&interval->histogram, scratch, err, sizeof err))
        histogram_init (scratch);   //  stored by this program: cannot happen
    return json_pack ("{s:I, s:I, s:o, s:o}",
                      "index", (json_int_t) interval->index,
                      "start_ns", (json_int_t) ((int64_t) interval->index * timeline->interval_ns),
                      "latency", latency_summary_json (&interval->latency),
                      "histogram", latency_histogram_json (scratch));
}

json_t *
timeline_json (const test_result_t *test, bool *ok)
{
    const latency_timeline_t *timeline = &test->timeline;
    *ok = true;
    if (timeline->interval_count == 0)
        return NULL;
    json_t *intervals = json_array ();
    json_t *hosts = json_array ();
    json_t *object = json_pack ("{s:s, s:I, s:o, s:o}", "set", "requests",
                                "interval_ns", (json_int_t) timeline->interval_ns,
                                "intervals", intervals, "hosts", hosts);
    histogram_t *scratch = histogram_new ();
    *ok = object && scratch;
    for (size_t k = 0; *ok && k < timeline->interval_count; k++)
        *ok = json_array_append_new (intervals, s_interval_json (timeline,
                                     &timeline->intervals [k], scratch)) == 0;
    //  The hosts first in the tail: the few worth a line of their own.
    size_t kept = 0;
    for (size_t t = 0; *ok && t < test->tail.host_count && kept < TIMELINE_HOSTS_KEPT; t++) {
        const timeline_host_t *host = s_host (timeline, test->tail.hosts [t].agent);
        if (!host || host->point_count == 0)
            continue;
        *ok = json_array_append_new (hosts, s_host_json (host)) == 0;
        kept++;
    }
    histogram_destroy (&scratch);
    if (!*ok) {
        json_decref (object);
        return NULL;
    }
    return object;
}

json_t *
timeline_tail_json (const latency_tail_t *tail, bool *ok)
{
    *ok = true;
    if (tail->requests == 0)
        return NULL;
    json_t *hosts = json_array ();
    json_t *object = json_object ();
    *ok = object && hosts && results_json_fields (&results_tail_table, tail, NULL, object) == 0
       && json_object_set (object, "hosts", hosts) == 0;
    json_decref (hosts);
    for (size_t h = 0; *ok && h < tail->host_count && h < TAIL_HOSTS_KEPT; h++) {
        json_t *host = json_object ();
        *ok = host && results_json_fields (&results_tail_host_table, &tail->hosts [h], NULL,
                                           host) == 0;
        if (json_array_append_new (hosts, host))
            *ok = false;
    }
    if (!*ok) {
        json_decref (object);
        return NULL;
    }
    return object;
}

//  --------------------------------------------------------------------------
//  Reading back

//  The object member key of object, if it is one, with the reader's
//  place moved into it: parent gets the new place, saved the old one to
//  restore. NULL (the place unmoved) if it is not an object.
static json_t *
s_enter (jsonread_t *reader, json_t *object, const char *key,
         char parent [sizeof reader->place], char saved [sizeof reader->place])
{
    json_t *value = jsonread_object (reader, object, key);
    if (!value)
        return NULL;
    snprintf (parent, sizeof reader->place, "%s%s%s", reader->place,
              reader->place [0]? ".": "", key);
    memcpy (saved, reader->place, sizeof reader->place);
    memcpy (reader->place, parent, sizeof reader->place);
    return value;
}

//  One interval of the fleet from object.
static void
s_interval_read (jsonread_t *reader, json_t *object, timeline_interval_t *interval,
                 histogram_t *scratch)
{
    interval->index = (uint32_t) jsonread_integer (reader, object, "index", 0,
                                                   LATENCY_TIMELINE_INTERVALS_MAX - 1);
    latency_summary_read (reader, object, "latency", &interval->latency);
    json_t *histogram = jsonread_object (reader, object, "histogram");
    if (!histogram)
        return;
    latency_histogram_read (reader, histogram, scratch);
    if (!reader->failed && latency_store (&interval->histogram, scratch))
        jsonread_fail (reader, "histogram", "out of memory");
}

//  One host's points from object.
static void
s_host_read (jsonread_t *reader, json_t *object, timeline_host_t *host)
{
    jsonread_string (reader, object, "agent", host->agent, sizeof host->agent);
    size_t count;
    json_t *points = jsonread_array (reader, object, "points", &count);
    if (!points)
        return;
    host->points = calloc (count? count: 1, sizeof (timeline_point_t));
    if (!host->points) {
        jsonread_fail (reader, "points", "out of memory");
        return;
    }
    for (size_t p = 0; p < count; p++) {
        json_int_t index, n, p50, p99, p999;
        if (json_unpack (json_array_get (points, p), "[IIIII]", &index, &n, &p50, &p99, &p999)
        ||  index < 0 || index >= LATENCY_TIMELINE_INTERVALS_MAX || n <= 0
        ||  p50 < 0 || p50 > p99 || p99 > p999
        ||  (host->point_count && host->points [host->point_count - 1].index >= index)) {
            jsonread_fail (reader, "points", "entry %zu is not [index, count, p50, p99, p999]"
                           " in order", p);
            return;
        }
        host->points [host->point_count++] = (timeline_point_t) {
            .index = (uint32_t) index, .count = (uint64_t) n,
            .p50_ns = p50, .p99_ns = p99, .p999_ns = p999
        };
    }
}

void
timeline_read (jsonread_t *reader, json_t *object, test_result_t *test)
{
    latency_timeline_t *timeline = &test->timeline;
    latency_timeline_clear (timeline);
    if (!json_object_get (object, "latency_timeline"))
        return;
    char parent [sizeof reader->place], saved [sizeof reader->place];
    json_t *value = s_enter (reader, object, "latency_timeline", parent, saved);
    if (!value)
        return;
    timeline->interval_ns = jsonread_integer (reader, value, "interval_ns", 1, INT64_MAX / 
                                              LATENCY_TIMELINE_INTERVALS_MAX);
    size_t intervals, hosts;
    json_t *interval_array = jsonread_array (reader, value, "intervals", &intervals);
    json_t *host_array = jsonread_array (reader, value, "hosts", &hosts);
    histogram_t *scratch = histogram_new ();
    if (!reader->failed) {
        timeline->intervals = calloc (intervals? intervals: 1, sizeof (timeline_interval_t));
        timeline->hosts = calloc (hosts? hosts: 1, sizeof (timeline_host_t));
        if (!timeline->intervals || !timeline->hosts || !scratch)
            jsonread_fail (reader, NULL, "out of memory");
    }
    for (size_t k = 0; !reader->failed && k < intervals; k++) {
        jsonread_enter (reader, parent, "intervals", k);
        json_t *entry = json_array_get (interval_array, k);
        timeline_interval_t *interval = &timeline->intervals [timeline->interval_count++];
        if (!json_is_object (entry))
            jsonread_fail (reader, NULL, "expected an object");
        else
            s_interval_read (reader, entry, interval, scratch);
        if (!reader->failed && k > 0 && interval->index <= timeline->intervals [k - 1].index)
            jsonread_fail (reader, "index", "not after the interval before");
    }
    for (size_t h = 0; !reader->failed && h < hosts; h++) {
        jsonread_enter (reader, parent, "hosts", h);
        json_t *entry = json_array_get (host_array, h);
        timeline_host_t *host = &timeline->hosts [timeline->host_count++];
        if (!json_is_object (entry))
            jsonread_fail (reader, NULL, "expected an object");
        else
            s_host_read (reader, entry, host);
    }
    histogram_destroy (&scratch);
    if (reader->failed)
        latency_timeline_clear (timeline);
    memcpy (reader->place, saved, sizeof saved);
}

//  One host of a tail from object.
static void
s_tail_host_read (jsonread_t *reader, json_t *object, tail_host_t *host)
{
    results_read_fields (reader, &results_tail_host_table, object, host, NULL);
    if (!reader->failed && (host->over_p99 > host->requests || host->over_p999 > host->over_p99))
        jsonread_fail (reader, NULL, "more requests over p99.9 than over p99, or than requests");
}

void
timeline_tail_read (jsonread_t *reader, json_t *object, latency_tail_t *tail)
{
    latency_tail_clear (tail);
    if (!json_object_get (object, "latency_tail"))
        return;
    char parent [sizeof reader->place], saved [sizeof reader->place];
    json_t *value = s_enter (reader, object, "latency_tail", parent, saved);
    if (!value)
        return;
    results_read_fields (reader, &results_tail_table, value, tail, NULL);
    if (!reader->failed && tail->p999_ns < tail->p99_ns)
        jsonread_fail (reader, "p999_ns", "below p99_ns");
    size_t hosts;
    json_t *array = jsonread_array (reader, value, "hosts", &hosts);
    if (!reader->failed && hosts > TAIL_HOSTS_KEPT)
        jsonread_fail (reader, "hosts", "more than %d", TAIL_HOSTS_KEPT);
    if (!reader->failed && !(tail->hosts = calloc (hosts? hosts: 1, sizeof (tail_host_t))))
        jsonread_fail (reader, "hosts", "out of memory");
    for (size_t h = 0; !reader->failed && h < hosts; h++) {
        jsonread_enter (reader, parent, "hosts", h);
        json_t *entry = json_array_get (array, h);
        if (!json_is_object (entry))
            jsonread_fail (reader, NULL, "expected an object");
        else
            s_tail_host_read (reader, entry, &tail->hosts [tail->host_count++]);
    }
    //  Files from before the count of hosts ranked: those listed.
    if (tail->hosts_ranked < tail->host_count)
        tail->hosts_ranked = tail->host_count;
    if (reader->failed)
        latency_tail_clear (tail);
    memcpy (reader->place, saved, sizeof saved);
}
