/*  coordinator/metrics/metrics_collect.c: a snapshot of the phase under way;
    see metrics_collect.h.
*/
#include "metrics_collect.h"
#include "../numbers/latency.h"
#include "../../proto/histogram.h"

#include <czmq.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct _metrics_collector_t {
    //  The phase the state below is of:
    char name [TEST_ROW_NAME_MAX + 1];  //  its row
    uint32_t iteration;             //  its iteration
    int64_t announced_wall_ns;      //  its announced start
    size_t stream_count;            //  its streams
    size_t host_count;              //  its hosts
    //  What is kept over the phase:
    size_t *stream_host;            //  per stream: its host's index, SIZE_MAX for none
    bool *folded;                   //  per stream: its latency is in the figures below
    metrics_latency_t *host_latency;    //  per host, of the streams folded
    metrics_latency_t class_latency [2];    //  per class
    metrics_flow_t *host_flow;      //  per host: room for a pass's figures
    int64_t as_of_ns;               //  the instant last published, on the phase's timeline
    int64_t as_of_ms;               //  and on the wall clock
    double last_bytes;              //  the fleet's bytes then
    double last_requests;           //  and requests
    histogram_t *histogram;         //  room to unpack a stream's latency
};

metrics_collector_t *
metrics_collector_new (void)
{
    metrics_collector_t *self = (metrics_collector_t *) calloc (1, sizeof (*self));
    if (self && !(self->histogram = histogram_new ()))
        free (self), self = NULL;
    return self;
}

//  Forget the phase.
static void
s_reset (metrics_collector_t *self)
{
    free (self->stream_host);
    free (self->folded);
    free (self->host_latency);
    free (self->host_flow);
    histogram_t *histogram = self->histogram;
    memset (self, 0, sizeof (*self));
    self->histogram = histogram;
}

void
metrics_collector_destroy (metrics_collector_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    s_reset (*self_p);
    histogram_destroy (&(*self_p)->histogram);
    free (*self_p);
    *self_p = NULL;
}

//  Take up result's phase, if it is not the one kept. Returns 0, or -1 if
//  memory ran out.
static int
s_follow (metrics_collector_t *self, const test_result_t *result)
{
    if (self->stream_host && streq (self->name, result->name)
    &&  self->iteration == result->iteration
    &&  self->announced_wall_ns == result->announced_wall_ns
    &&  self->stream_count == result->stream_count && self->host_count == result->host_count)
        return 0;
    s_reset (self);
    snprintf (self->name, sizeof self->name, "%s", result->name);
    self->iteration = result->iteration;
    self->announced_wall_ns = result->announced_wall_ns;
    self->stream_count = result->stream_count;
    self->host_count = result->host_count;
    self->stream_host = (size_t *) calloc (result->stream_count + 1, sizeof (size_t));
    self->folded = (bool *) calloc (result->stream_count + 1, sizeof (bool));
    self->host_latency = (metrics_latency_t *) calloc (result->host_count + 1,
                                                       sizeof (metrics_latency_t));
    self->host_flow = (metrics_flow_t *) calloc (result->host_count + 1, sizeof (metrics_flow_t));
    zhashx_t *hosts = zhashx_new ();
    if (!self->stream_host || !self->folded || !self->host_latency || !self->host_flow || !hosts) {
        zhashx_destroy (&hosts);
        s_reset (self);
        return -1;
    }
    //  Indexes are stored plus one: a hash's NULL is "none".
    for (size_t h = 0; h < result->host_count; h++)
        zhashx_insert (hosts, result->hosts [h].agent, (void *) (uintptr_t) (h + 1));
    for (size_t s = 0; s < result->stream_count; s++) {
        uintptr_t place = (uintptr_t) zhashx_lookup (hosts, result->streams [s].agent);
        self->stream_host [s] = place? place - 1: SIZE_MAX;
    }
    zhashx_destroy (&hosts);
    return 0;
}

//  A stream still sends samples: no RESULT, not lost, no error.
static bool
s_running (const stream_result_t *stream)
{
    return !stream->finished && !stream->lost && !stream->error;
}

//  The instant the stream's curve is known up to: its last sample, or
//  its last write once finished.
static int64_t
s_known_ns (const stream_result_t *stream)
{
    int64_t known_ns = stream->sample_count? stream->samples [stream->sample_count - 1].t_ns: 0;
    if (stream->finished && stream->last_write_ns > known_ns)
        known_ns = stream->last_write_ns;
    return known_ns;
}

//  Bytes a stream had done at t_ns: its samples, then (once finished)
//  its final bytes at its last write, interpolated, flat outside. The
//  last sample at or before t is found from the end, where t is.
static double
s_bytes_at (const stream_result_t *stream, int64_t t_ns)
{
    size_t count = stream->sample_count;
    size_t i = count;
    while (i > 0 && stream->samples [i - 1].t_ns > t_ns)
        i--;
    int64_t before_ns = i? stream->samples [i - 1].t_ns: 0;
    double before = i? (double) stream->samples [i - 1].bytes: 0;
    int64_t after_ns;
    double after;
    double last = count? (double) stream->samples [count - 1].bytes: 0;
    if (i < count) {
        after_ns = stream->samples [i].t_ns;
        after = (double) stream->samples [i].bytes;
    }
    else if (stream->finished && stream->last_write_ns > before_ns) {
        after_ns = stream->last_write_ns;
        after = fmax ((double) stream->bytes, last);
    }
    else if (stream->finished)
        return fmax (fmax ((double) stream->bytes, last), before);
    else
        return before;
    if (after <= before || after_ns <= before_ns)
        return before;              //  a sample out of order adds nothing
    return before + (after - before) * (double) (t_ns - before_ns)
                                     / (double) (after_ns - before_ns);
}

//  A stream's figures at t_ns into flow (its latency aside).
static void
s_stream_flow (const stream_result_t *stream, int64_t t_ns, metrics_flow_t *flow)
{
    double bs = stream->bs_bytes? (double) stream->bs_bytes: 1;
    double bytes = s_bytes_at (stream, t_ns);
    double requests = floor (bytes / bs);
    if (stream->finished && t_ns >= s_known_ns (stream))
        requests = fmax (requests, (double) (stream->reads + stream->writes));
    flow->bytes += floor (bytes);
    flow->requests += requests;
    size_t n = stream->sample_count;
    if (s_running (stream) && n >= 1) {
        const sample_point_t *last = &stream->samples [n - 1];
        int64_t prev_ns = n >= 2? stream->samples [n - 2].t_ns: 0;
        uint64_t prev_bytes = n >= 2? stream->samples [n - 2].bytes: 0;
        if (last->t_ns > prev_ns && last->bytes >= prev_bytes) {
            double rate = (double) (last->bytes - prev_bytes) * 1e9 / (double) (last->t_ns - prev_ns);
            flow->bytes_per_s += rate;
            flow->requests_per_s += rate / bs;
        }
    }
}

//  Fold a finished stream's latency (reads and writes) into its host's,
//  its class's, once.
static void
s_fold (metrics_collector_t *self, const test_result_t *result, size_t s)
{
    const stream_result_t *stream = &result->streams [s];
    if (self->folded [s] || !stream->finished)
        return;
    self->folded [s] = true;
    size_t host = self->stream_host [s];
    metrics_latency_t *into [2] = {
        &self->class_latency [stream->job_class == CLASS_NETWORK],
        host != SIZE_MAX? &self->host_latency [host]: NULL
    };
    int kinds [] = { MSG_LATENCY_READ, MSG_LATENCY_WRITE };
    for (size_t k = 0; k < 2; k++) {
        char err [256];
        if (!stream->latency [kinds [k]].packed
        ||  latency_load (&stream->latency [kinds [k]], self->histogram, err, sizeof err))
            continue;
        double sum_s = (double) histogram_sum (self->histogram) / 1e9;
        for (size_t i = 0; i < 2 && into [i]; i++) {
            size_t cursor = 0;
            histogram_bucket_t bucket;
            while (histogram_next (self->histogram, &cursor, &bucket))
                metrics_latency_add_bucket (into [i], bucket.low_ns, bucket.high_ns, bucket.count);
            into [i]->sum_s += sum_s;
        }
    }
}

//  The instant every stream still running is known up to (the latest
//  such), or once none runs the last any is known up to; never before
//  the one published last.
static int64_t
s_as_of_ns (const metrics_collector_t *self, const test_result_t *result)
{
    int64_t running_ns = INT64_MAX, known_ns = 0;
    for (size_t s = 0; s < result->stream_count; s++) {
        const stream_result_t *stream = &result->streams [s];
        int64_t t_ns = s_known_ns (stream);
        if (s_running (stream) && t_ns < running_ns)
            running_ns = t_ns;
        if (t_ns > known_ns)
            known_ns = t_ns;
    }
    int64_t as_of_ns = running_ns != INT64_MAX? running_ns: known_ns;
    return as_of_ns > self->as_of_ns? as_of_ns: self->as_of_ns;
}

//  A host's CPU, Dirty and Writeback: its HOST figures once the phase is
//  recorded, else the last two points of a monitor of it, if any.
static void
s_host_gauges (const test_result_t *result, const host_result_t *host, bool over,
               metrics_host_t *out)
{
    out->user_ratio = out->system_ratio = out->iowait_ratio = NAN;
    out->dirty_bytes = out->writeback_bytes = NAN;
    if (over && host->received) {
        out->user_ratio = host->usr_pct / 100;
        out->system_ratio = host->sys_pct / 100;
        out->iowait_ratio = host->iowait_pct / 100;
        out->dirty_bytes = (double) host->counters.dirty_end_bytes;
        out->writeback_bytes = (double) host->counters.writeback_end_bytes;
        return;
    }
    for (size_t m = 0; m < result->monitor_count; m++) {
        const monitor_result_t *monitor = &result->monitors [m];
        if (!streq (monitor->agent, host->agent) || monitor->point_count < 1)
            continue;
        const msg_monitor_t *last = &monitor->points [monitor->point_count - 1];
        out->dirty_bytes = (double) last->dirty_bytes;
        out->writeback_bytes = (double) last->writeback_bytes;
        if (monitor->point_count < 2)
            return;
        const msg_monitor_t *prev = &monitor->points [monitor->point_count - 2];
        if (last->cpu_total_ticks <= prev->cpu_total_ticks)
            return;
        double total = (double) (last->cpu_total_ticks - prev->cpu_total_ticks);
        out->user_ratio = (double) (last->cpu_user_ticks - prev->cpu_user_ticks) / total;
        out->system_ratio = (double) (last->cpu_system_ticks - prev->cpu_system_ticks) / total;
        out->iowait_ratio = (double) (last->cpu_iowait_ticks - prev->cpu_iowait_ticks) / total;
        return;
    }
}

//  How a host stands, from its streams' states (counted in states).
static metrics_state_t
s_host_state (const host_result_t *host, const uint32_t states [METRICS_STATES], bool over)
{
    if (host->excused || states [METRICS_LOST])
        return METRICS_LOST;
    if (states [METRICS_FAILED])
        return METRICS_FAILED;
    if (states [METRICS_RUNNING] || (!over && !states [METRICS_DONE]))
        return METRICS_RUNNING;
    return METRICS_DONE;
}

metrics_snapshot_t *
metrics_collect (metrics_collector_t *self, const test_result_t *result, bool over)
{
    if (!result->announced_wall_ns || s_follow (self, result))
        return NULL;
    metrics_snapshot_t *snap = (metrics_snapshot_t *) calloc (1, sizeof (*snap));
    size_t shown = result->host_count < METRICS_HOSTS_MAX? result->host_count: METRICS_HOSTS_MAX;
    uint32_t (*states) [METRICS_STATES] = calloc (result->host_count + 1, sizeof (*states));
    if (!snap || !states || !(snap->hosts = (metrics_host_t *) calloc (shown + 1,
                                                                       sizeof (metrics_host_t)))) {
        free (states);
        metrics_snapshot_free (snap);
        return NULL;
    }
    snprintf (snap->test, sizeof snap->test, "%s", result->test);
    snprintf (snap->phase, sizeof snap->phase, "%s", result->phase);
    snap->iteration = result->iteration;
    int64_t as_of_ns = s_as_of_ns (self, result);

    memset (self->host_flow, 0, (result->host_count + 1) * sizeof (metrics_flow_t));
    for (size_t s = 0; s < result->stream_count; s++) {
        const stream_result_t *stream = &result->streams [s];
        s_fold (self, result, s);
        metrics_flow_t flow = { 0 };
        s_stream_flow (stream, as_of_ns, &flow);
        metrics_flow_add (&snap->classes [stream->job_class == CLASS_NETWORK], &flow);
        size_t host = self->stream_host [s];
        if (host == SIZE_MAX)
            continue;
        metrics_flow_add (&self->host_flow [host], &flow);
        metrics_state_t state = stream->lost? METRICS_LOST: stream->error? METRICS_FAILED:
                                stream->finished? METRICS_DONE: METRICS_RUNNING;
        states [host][state]++;
    }
    for (size_t c = 0; c < 2; c++) {
        snap->classes [c].latency = self->class_latency [c];
        metrics_flow_add (&snap->fleet, &snap->classes [c]);
    }
    for (size_t h = 0; h < result->host_count; h++) {
        metrics_state_t state = s_host_state (&result->hosts [h], states [h], over);
        snap->agents [state]++;
        if (h >= shown)
            continue;
        metrics_host_t *host = &snap->hosts [h];
        snprintf (host->name, sizeof host->name, "%s", result->hosts [h].agent);
        host->state = state;
        host->flow = self->host_flow [h];
        host->flow.latency = self->host_latency [h];
        s_host_gauges (result, &result->hosts [h], over, host);
    }
    snap->host_count = shown;
    snap->hosts_omitted = result->host_count - shown;
    free (states);

    //  A scraper keeps one value per series and instant: figures that
    //  moved at an instant already published go out a millisecond on.
    if (result->stream_count) {
        int64_t as_of_ms = (result->announced_wall_ns + as_of_ns) / 1000000;
        if (as_of_ms <= self->as_of_ms && (snap->fleet.bytes != self->last_bytes
                                       ||  snap->fleet.requests != self->last_requests))
            as_of_ms = self->as_of_ms + 1;
        snap->as_of_ms = as_of_ms > self->as_of_ms? as_of_ms: self->as_of_ms;
        self->as_of_ms = snap->as_of_ms;
        self->as_of_ns = as_of_ns;
        self->last_bytes = snap->fleet.bytes;
        self->last_requests = snap->fleet.requests;
    }
    return snap;
}
