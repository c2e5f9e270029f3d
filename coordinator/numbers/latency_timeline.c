/*  coordinator/numbers/latency_timeline.c: a test's latency over time; see
    latency_timeline.h.
*/
#include "latency_timeline.h"
#include "latency.h"
#include "../../proto/array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  One host's points so far.
typedef struct {
    timeline_point_t *points;       //  in increasing index
    size_t count;
    size_t capacity;
} s_host_t;

struct _latency_timeline_builder_t {
    int64_t interval_ns;            //  the first message's length, 0 before
    histogram_t **intervals;        //  the fleet's, by index; NULL for none yet
    size_t interval_capacity;       //  room in intervals
    s_host_t *hosts;                //  by the test's host index
    size_t host_count;
    histogram_t *scratch;           //  one message's requests, merged
};

latency_timeline_builder_t *
latency_timeline_builder_new (size_t host_count)
{
    latency_timeline_builder_t *self = calloc (1, sizeof (latency_timeline_builder_t));
    if (!self)
        return NULL;
    self->hosts = calloc (host_count? host_count: 1, sizeof (s_host_t));
    self->host_count = host_count;
    self->scratch = histogram_new ();
    if (!self->hosts || !self->scratch)
        latency_timeline_builder_destroy (&self);
    return self;
}

//  Free the intervals and the points, keep the rest.
static void
s_empty (latency_timeline_builder_t *self)
{
    for (size_t k = 0; k < self->interval_capacity; k++)
        histogram_destroy (&self->intervals [k]);
    free (self->intervals);
    self->intervals = NULL;
    self->interval_capacity = 0;
    for (size_t h = 0; h < self->host_count; h++) {
        free (self->hosts [h].points);
        memset (&self->hosts [h], 0, sizeof (s_host_t));
    }
    self->interval_ns = 0;
}

void
latency_timeline_builder_destroy (latency_timeline_builder_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    latency_timeline_builder_t *self = *self_p;
    if (self->hosts)
        s_empty (self);
    free (self->hosts);
    histogram_destroy (&self->scratch);
    free (self);
    *self_p = NULL;
}

//  The fleet's histogram of interval index, made if need be; NULL when
//  out of memory.
static histogram_t *
s_interval (latency_timeline_builder_t *self, uint32_t index)
{
    if (index >= self->interval_capacity) {
        size_t capacity = self->interval_capacity? self->interval_capacity: 64;
        while (capacity <= index)
            capacity *= 2;
        histogram_t **grown = realloc (self->intervals, capacity * sizeof (histogram_t *));
        if (!grown)
            return NULL;
        memset (grown + self->interval_capacity, 0,
                (capacity - self->interval_capacity) * sizeof (histogram_t *));
        self->intervals = grown;
        self->interval_capacity = capacity;
    }
    if (!self->intervals [index])
        self->intervals [index] = histogram_new ();
    return self->intervals [index];
}

//  Room for one more point of host; -1 when out of memory.
static int
s_host_room (s_host_t *host)
{
    return array_grow (&host->points, &host->capacity, host->count, sizeof *host->points, 16);
}

int
latency_timeline_builder_add (latency_timeline_builder_t *self, size_t host, uint32_t index,
                              int64_t length_ns, const histogram_t latency [MSG_LATENCY_KINDS],
                              char *err, size_t errlen)
{
    if (host >= self->host_count) {
        snprintf (err, errlen, "host %zu of a test of %zu", host, self->host_count);
        return -1;
    }
    if (index >= LATENCY_TIMELINE_INTERVALS_MAX) {
        snprintf (err, errlen, "interval %u, more than %d", index,
                  LATENCY_TIMELINE_INTERVALS_MAX);
        return -1;
    }
    if (length_ns <= 0 || (self->interval_ns && length_ns != self->interval_ns)) {
        snprintf (err, errlen, "an interval of %lld ns in a timeline of %lld ns",
                  (long long) length_ns, (long long) self->interval_ns);
        return -1;
    }
    s_host_t *points = &self->hosts [host];
    if (points->count && points->points [points->count - 1].index >= index) {
        snprintf (err, errlen, "interval %u again, or after %u", index,
                  points->points [points->count - 1].index);
        return -1;
    }
    histogram_init (self->scratch);
    for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
        if (kind != MSG_LATENCY_FSYNC && histogram_merge (self->scratch, &latency [kind])) {
            snprintf (err, errlen, "more requests than a 64-bit count holds");
            return -1;
        }
    if (histogram_count (self->scratch) == 0)
        return 0;                   //  fsyncs alone: nothing to draw
    histogram_t *fleet = s_interval (self, index);
    if (!fleet || s_host_room (points)) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    if (histogram_merge (fleet, self->scratch)) {
        snprintf (err, errlen, "more requests than a 64-bit count holds");
        return -1;
    }
    self->interval_ns = length_ns;
    points->points [points->count++] = (timeline_point_t) {
        .index = index,
        .count = histogram_count (self->scratch),
        .p50_ns = histogram_percentile (self->scratch, 50),
        .p99_ns = histogram_percentile (self->scratch, 99),
        .p999_ns = histogram_percentile (self->scratch, 99.9),
    };
    return 0;
}

void
latency_timeline_clear (latency_timeline_t *timeline)
{
    for (size_t k = 0; k < timeline->interval_count; k++)
        latency_free (&timeline->intervals [k].histogram);
    free (timeline->intervals);
    for (size_t h = 0; h < timeline->host_count; h++)
        free (timeline->hosts [h].points);
    free (timeline->hosts);
    memset (timeline, 0, sizeof (*timeline));
}

int
latency_timeline_builder_store (latency_timeline_builder_t *self, test_result_t *test)
{
    latency_timeline_t *timeline = &test->timeline;
    latency_timeline_clear (timeline);
    size_t used = 0;
    for (size_t k = 0; k < self->interval_capacity; k++)
        used += self->intervals [k] && histogram_count (self->intervals [k]) > 0;
    if (used == 0) {
        s_empty (self);
        return 0;
    }
    timeline->interval_ns = self->interval_ns;
    timeline->intervals = calloc (used, sizeof (timeline_interval_t));
    timeline->hosts = calloc (self->host_count, sizeof (timeline_host_t));
    if (!timeline->intervals || !timeline->hosts)
        goto fail;
    for (size_t k = 0; k < self->interval_capacity; k++) {
        const histogram_t *fleet = self->intervals [k];
        if (!fleet || histogram_count (fleet) == 0)
            continue;
        timeline_interval_t *interval = &timeline->intervals [timeline->interval_count++];
        interval->index = (uint32_t) k;
        latency_summarize (fleet, &interval->latency);
        if (latency_store (&interval->histogram, fleet))
            goto fail;
    }
    for (size_t h = 0; h < self->host_count && h < test->host_count; h++) {
        timeline_host_t *host = &timeline->hosts [timeline->host_count++];
        memcpy (host->agent, test->hosts [h].agent, sizeof (host->agent));
        host->points = self->hosts [h].points;
        host->point_count = self->hosts [h].count;
        memset (&self->hosts [h], 0, sizeof (s_host_t));
    }
    s_empty (self);
    return 0;
fail:
    latency_timeline_clear (timeline);
    s_empty (self);
    return -1;
}
