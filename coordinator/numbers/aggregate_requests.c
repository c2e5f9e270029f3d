/*  coordinator/numbers/aggregate_requests.c: what the streams of each
    host of a test did together, and sysbench's figures of a test's, a
    host's and a stream's requests; see aggregate.h.

    Both are figures over a set of streams: its counts over its span,
    from the first start to the last end of its streams that have a
    window (aggregate_stream_window). A host's streams are found in the
    streams sorted by agent, so that a fleet costs n log n, not a pass
    over the streams per host.
*/
#include "aggregate.h"
#include "../../proto/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

//  What a set of streams did, and over which span.
typedef struct {
    uint32_t streams;               //  streams added
    uint32_t failed;                //  of which failed or never reported
    uint64_t bytes;                 //  every one's
    double ops;                     //  operations of those with a window
    double cpu_ns;                  //  their threads' CPU time
    double slowest_mbps;            //  the slowest stream's rate, NAN for none
    uint32_t requests;              //  streams of requests, and the counts of those
    uint64_t reads, writes, fsyncs; //  with a window
    double read_bytes, written_bytes;
    bool any;                       //  a stream with a window was added
    int64_t first_start_ns;         //  the span of those
    int64_t last_end_ns;
    bool any_requests;              //  and of the streams of requests among them
    int64_t requests_start_ns;
    int64_t requests_end_ns;
} s_tally_t;

static void
s_widen (bool *any, int64_t *first_ns, int64_t *last_ns, int64_t start_ns, int64_t end_ns)
{
    if (!*any || start_ns < *first_ns)
        *first_ns = start_ns;
    if (!*any || end_ns > *last_ns)
        *last_ns = end_ns;
    *any = true;
}

//  Add one stream to a tally.
static void
s_add (s_tally_t *tally, const stream_result_t *stream)
{
    tally->streams++;
    tally->bytes += stream->bytes;
    if (stream->error || !stream->finished)
        tally->failed++;
    tally->requests += stream->ops_writes;
    double mbps = aggregate_stream_rate_mbps (stream);
    if (isfinite (mbps) && !(mbps >= tally->slowest_mbps))
        tally->slowest_mbps = mbps;
    int64_t start_ns, end_ns;
    if (!aggregate_stream_window (stream, &start_ns, &end_ns))
        return;
    s_widen (&tally->any, &tally->first_start_ns, &tally->last_end_ns, start_ns, end_ns);
    tally->ops += (double) aggregate_stream_ops (stream);
    tally->cpu_ns += (double) stream->usr_ns + (double) stream->sys_ns;
    if (!stream->ops_writes)
        return;
    tally->reads += stream->reads;
    tally->writes += stream->writes;
    tally->fsyncs += stream->fsyncs;
    tally->read_bytes += (double) stream->reads * (double) stream->bs_bytes;
    tally->written_bytes += (double) stream->writes * (double) stream->bs_bytes;
    s_widen (&tally->any_requests, &tally->requests_start_ns, &tally->requests_end_ns,
             start_ns, end_ns);
}

//  sysbench's figures of counts over a window of seconds (none: 0).
static void
s_requests (uint32_t streams, uint64_t reads, uint64_t writes, uint64_t fsyncs,
            double read_bytes, double written_bytes, double seconds,
            requests_summary_t *requests)
{
    requests->streams = streams;
    bool known = seconds > 0;
    requests->window_s = known? seconds: NAN;
    requests->reads_per_s = known? (double) reads / seconds: NAN;
    requests->writes_per_s = known? (double) writes / seconds: NAN;
    requests->fsyncs_per_s = known? (double) fsyncs / seconds: NAN;
    requests->read_mbps = known? read_bytes / 1e6 / seconds: NAN;
    requests->written_mbps = known? written_bytes / 1e6 / seconds: NAN;
    requests->ops_per_min = known? (double) (reads + writes) / seconds * 60: NAN;
}

//  A tally's requests figures.
static void
s_tally_requests (const s_tally_t *tally, requests_summary_t *requests)
{
    double seconds = tally->any_requests?
        (double) (tally->requests_end_ns - tally->requests_start_ns) / NS_PER_SEC: 0;
    s_requests (tally->requests, tally->reads, tally->writes, tally->fsyncs,
                tally->read_bytes, tally->written_bytes, seconds, requests);
}

void
aggregate_stream_requests (const stream_result_t *stream, requests_summary_t *requests)
{
    int64_t start_ns = 0, end_ns = 0;
    bool window = aggregate_stream_window (stream, &start_ns, &end_ns);
    s_requests (stream->ops_writes, stream->reads, stream->writes, stream->fsyncs,
                (double) stream->reads * (double) stream->bs_bytes,
                (double) stream->writes * (double) stream->bs_bytes,
                window? (double) (end_ns - start_ns) / NS_PER_SEC: 0, requests);
}

//  A host's figures from the tally of its streams.
static void
s_host_fill (host_result_t *host, const s_tally_t *tally)
{
    host->streams = tally->streams;
    host->failed_streams = tally->failed;
    host->slowest_stream_mbps = tally->slowest_mbps;
    host->rate_mbps = host->ops_per_s = host->streams_cpu_pct = NAN;
    if (tally->any && tally->last_end_ns > tally->first_start_ns) {
        double ns = (double) tally->last_end_ns - (double) tally->first_start_ns;
        host->rate_mbps = (double) tally->bytes * 1e3 / ns;
        host->ops_per_s = tally->ops / (ns / 1e9);
        host->streams_cpu_pct = 100.0 * tally->cpu_ns / ns;
    }
    s_tally_requests (tally, &host->requests);
}

void
aggregate_streams_figures (const stream_result_t *const *streams, size_t count,
                           host_result_t *host)
{
    s_tally_t tally = { .slowest_mbps = NAN };
    for (size_t k = 0; k < count; k++)
        s_add (&tally, streams [k]);
    s_host_fill (host, &tally);
}

void
aggregate_host_figures (test_result_t *test)
{
    s_tally_t all = { .slowest_mbps = NAN };
    for (size_t s = 0; s < test->stream_count; s++)
        s_add (&all, &test->streams [s]);
    s_tally_requests (&all, &test->summary.requests);
    //  Without the memory to sort, a host's figures are those of no
    //  stream: unknown rather than wrong.
    const stream_result_t **streams = aggregate_streams_by_agent (test);
    for (size_t h = 0; h < test->host_count; h++) {
        size_t length = 0, first = 0;
        if (streams)
            first = aggregate_agent_run (streams, test->stream_count, test->hosts [h].agent,
                                         &length);
        aggregate_streams_figures (streams? streams + first: NULL, length, &test->hosts [h]);
    }
    free (streams);
}

double
aggregate_host_dirty_end_bytes (const host_result_t *host)
{
    return (double) host->counters.dirty_end_bytes + (double) host->counters.writeback_end_bytes;
}

double
aggregate_host_settle_s (const host_result_t *host)
{
    return (double) aggregate_difference_ns (host->settle_end_ns, host->window_end_ns)
         / NS_PER_SEC;
}
