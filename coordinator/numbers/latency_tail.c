/*  coordinator/numbers/latency_tail.c: which hosts made a test's tail; see
    latency_tail.h.
*/
#include "latency_tail.h"
#include "latency.h"
#include "aggregate.h"

#include <stdlib.h>
#include <string.h>

void
latency_tail_clear (latency_tail_t *tail)
{
    free (tail->hosts);
    memset (tail, 0, sizeof (*tail));
}

//  Requests of h in buckets that lie wholly above value_ns.
static uint64_t
s_count_above (const histogram_t *h, int64_t value_ns)
{
    uint64_t count = 0;
    size_t cursor = histogram_index (value_ns) + 1;
    histogram_bucket_t bucket;
    while (cursor < HISTOGRAM_BUCKETS && histogram_next (h, &cursor, &bucket))
        count += bucket.count;
    return count;
}

//  Most of the p99 tail first, then of the p99.9 tail, then by name.
static int
s_by_tail (const void *left, const void *right)
{
    const tail_host_t *a = (const tail_host_t *) left;
    const tail_host_t *b = (const tail_host_t *) right;
    if (a->over_p99 != b->over_p99)
        return a->over_p99 < b->over_p99? 1: -1;
    if (a->over_p999 != b->over_p999)
        return a->over_p999 < b->over_p999? 1: -1;
    return strcmp (a->agent, b->agent);
}

//  A tail share far above the share of requests, over a handful.
static bool
s_cause (uint64_t over, double share, double requests_share)
{
    return over >= LATENCY_TAIL_CAUSE_MIN && share > LATENCY_TAIL_CAUSE_RATIO * requests_share;
}

//  Shares, causes and the ranking, once every host is counted.
static void
s_rank (latency_tail_t *tail)
{
    for (size_t h = 0; h < tail->host_count; h++) {
        tail_host_t *host = &tail->hosts [h];
        host->requests_share = (double) host->requests / (double) tail->requests;
        host->p99_share = tail->over_p99? (double) host->over_p99 / (double) tail->over_p99: 0;
        host->p999_share = tail->over_p999?
                           (double) host->over_p999 / (double) tail->over_p999: 0;
        host->cause = s_cause (host->over_p99, host->p99_share, host->requests_share)
                   || s_cause (host->over_p999, host->p999_share, host->requests_share);
    }
    qsort (tail->hosts, tail->host_count, sizeof (tail_host_t), s_by_tail);
}

int
latency_tail_fill (test_result_t *test)
{
    latency_tail_t *tail = &test->tail;
    latency_tail_clear (tail);
    const latency_summary_t *fleet = &test->summary.latency [LATENCY_REQUESTS];
    if (fleet->count == 0 || test->host_count == 0)
        return 0;
    const stream_result_t **streams = aggregate_streams_by_agent (test);
    histogram_t *merged = histogram_new ();
    histogram_t *scratch = histogram_new ();
    tail->hosts = calloc (test->host_count, sizeof (tail_host_t));
    int rc = -1;
    char err [256];
    if (!streams || !merged || !scratch || !tail->hosts)
        goto done;
    tail->p99_ns = fleet->p99_ns;
    tail->p999_ns = fleet->p999_ns;
    for (size_t h = 0; h < test->host_count; h++) {
        size_t length;
        size_t first = aggregate_agent_run (streams, test->stream_count, test->hosts [h].agent,
                                            &length);
        if (latency_merge (streams + first, length, -1, LATENCY_REQUESTS, merged, scratch,
                           err, sizeof err))
            goto done;
        if (histogram_count (merged) == 0)
            continue;
        tail_host_t *host = &tail->hosts [tail->host_count++];
        memcpy (host->agent, test->hosts [h].agent, sizeof (host->agent));
        host->requests = histogram_count (merged);
        host->over_p99 = s_count_above (merged, tail->p99_ns);
        host->over_p999 = s_count_above (merged, tail->p999_ns);
        tail->requests += host->requests;
        tail->over_p99 += host->over_p99;
        tail->over_p999 += host->over_p999;
    }
    if (tail->requests)
        s_rank (tail);
    tail->hosts_ranked = tail->host_count;
    rc = 0;
done:
    if (rc || tail->requests == 0)
        latency_tail_clear (tail);
    free (streams);
    histogram_destroy (&merged);
    histogram_destroy (&scratch);
    return rc;
}
