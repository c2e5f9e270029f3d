/*  coordinator/numbers/latency.c: request latency, merged exactly; see latency.h.

    Merging needs the histograms whole (16 KiB each): a few are made for
    the duration of latency_fill, one per set being merged, and one to
    unpack each stream's histogram into in turn.
*/
#include "latency.h"
#include "aggregate.h"

#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

int
latency_store (latency_packed_t *slot, const histogram_t *h)
{
    latency_free (slot);
    if (histogram_count (h) == 0)
        return 0;
    msgpack_sbuffer buffer;
    msgpack_sbuffer_init (&buffer);
    msgpack_packer pk;
    msgpack_packer_init (&pk, &buffer, msgpack_sbuffer_write);
    histogram_pack (h, &pk);
    if (!buffer.data) {
        msgpack_sbuffer_destroy (&buffer);
        return -1;
    }
    //  The buffer grows from 8 KiB; a stream's histogram packs into a
    //  few hundred bytes, and a fleet's run keeps thousands of them.
    char *packed = (char *) realloc (buffer.data, buffer.size);
    if (!packed) {
        msgpack_sbuffer_destroy (&buffer);
        return -1;
    }
    slot->packed = packed;
    slot->size = buffer.size;
    return 0;
}

int
latency_load (const latency_packed_t *slot, histogram_t *h, char *err, size_t errlen)
{
    histogram_init (h);
    if (!slot->packed)
        return 0;
    msgpack_unpacked unpacked;
    msgpack_unpacked_init (&unpacked);
    size_t offset = 0;
    int rc = -1;
    if (msgpack_unpack_next (&unpacked, slot->packed, slot->size, &offset)
        != MSGPACK_UNPACK_SUCCESS)
        snprintf (err, errlen, "a stored histogram does not unpack");
    else
        rc = histogram_unpack (&unpacked.data, h, err, errlen);
    msgpack_unpacked_destroy (&unpacked);
    return rc;
}

void
latency_free (latency_packed_t *slot)
{
    free (slot->packed);
    slot->packed = NULL;
    slot->size = 0;
}

void
latency_summarize (const histogram_t *h, latency_summary_t *summary)
{
    memset (summary, 0, sizeof (*summary));
    summary->count = histogram_count (h);
    if (summary->count == 0)
        return;
    summary->min_ns = histogram_min (h);
    summary->mean_ns = histogram_mean (h);
    summary->p50_ns = histogram_percentile (h, 50);
    summary->p95_ns = histogram_percentile (h, 95);
    summary->p99_ns = histogram_percentile (h, 99);
    summary->p999_ns = histogram_percentile (h, 99.9);
    summary->max_ns = histogram_max (h);
}

const char *
latency_set_name (int set)
{
    static const char *const names [] = {
        [LATENCY_READ] = "read", [LATENCY_WRITE] = "write", [LATENCY_FSYNC] = "fsync",
        [LATENCY_REQUESTS] = "requests"
    };
    return set >= 0 && set < LATENCY_SETS? names [set]: "?";
}

int
latency_merge (const stream_result_t *const *streams, size_t count, int job_class, int set,
               histogram_t *merged, histogram_t *scratch, char *err, size_t errlen)
{
    histogram_init (merged);
    for (size_t s = 0; s < count; s++) {
        const stream_result_t *stream = streams [s];
        if (job_class >= 0 && stream->job_class != job_class)
            continue;
        for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++) {
            if (kind != set && !(set == LATENCY_REQUESTS && kind != LATENCY_FSYNC))
                continue;
            if (!stream->latency [kind].packed)
                continue;
            if (latency_load (&stream->latency [kind], scratch, err, errlen))
                return -1;
            if (histogram_merge (merged, scratch)) {
                snprintf (err, errlen, "more requests than a 64-bit count holds");
                return -1;
            }
        }
    }
    return 0;
}

int
latency_stream_fill (stream_result_t *stream)
{
    if (!stream->latency [LATENCY_READ].packed && !stream->latency [LATENCY_WRITE].packed)
        return 0;                   //  nothing measured: as it stands (or as read)
    memset (&stream->latency_requests, 0, sizeof (latency_summary_t));
    histogram_t *merged = histogram_new ();
    histogram_t *scratch = histogram_new ();
    char err [256];
    const stream_result_t *one = stream;
    int rc = -1;
    if (merged && scratch
    &&  latency_merge (&one, 1, -1, LATENCY_REQUESTS, merged, scratch, err, sizeof err) == 0) {
        latency_summarize (merged, &stream->latency_requests);
        rc = 0;
    }
    histogram_destroy (&merged);
    histogram_destroy (&scratch);
    return rc;
}

int
latency_fill (test_result_t *test)
{
    test_summary_t *summary = &test->summary;
    memset (summary->latency, 0, sizeof (summary->latency));
    memset (&summary->disk.latency, 0, sizeof (summary->disk.latency));
    memset (&summary->network.latency, 0, sizeof (summary->network.latency));
    for (size_t h = 0; h < test->host_count; h++)
        memset (&test->hosts [h].latency, 0, sizeof (test->hosts [h].latency));
    for (size_t s = 0; s < test->stream_count; s++)
        memset (&test->streams [s].latency_requests, 0, sizeof (latency_summary_t));

    bool any = false;
    for (size_t s = 0; s < test->stream_count && !any; s++)
        for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
            any |= test->streams [s].latency [kind].packed != NULL;
    if (!any)
        return 0;                   //  nothing measured: nothing to merge

    //  The streams in agent order: each host's are a run found by a
    //  binary search, not a pass over all of them per host.
    const stream_result_t **streams = aggregate_streams_by_agent (test);
    histogram_t *merged = histogram_new ();
    histogram_t *scratch = histogram_new ();
    size_t count = test->stream_count;
    char err [256];
    int rc = -1;
    if (!streams || !merged || !scratch)
        goto done;
    for (int set = 0; set < LATENCY_SETS; set++) {
        if (latency_merge (streams, count, -1, set, merged, scratch, err, sizeof err))
            goto done;
        latency_summarize (merged, &summary->latency [set]);
    }
    if (latency_merge (streams, count, CLASS_DISK, LATENCY_REQUESTS, merged, scratch,
                       err, sizeof err))
        goto done;
    latency_summarize (merged, &summary->disk.latency);
    if (latency_merge (streams, count, CLASS_NETWORK, LATENCY_REQUESTS, merged, scratch,
                 err, sizeof err))
        goto done;
    latency_summarize (merged, &summary->network.latency);
    for (size_t h = 0; h < test->host_count; h++) {
        size_t length;
        size_t first = aggregate_agent_run (streams, count, test->hosts [h].agent, &length);
        if (latency_merge (streams + first, length, -1, LATENCY_REQUESTS, merged, scratch,
                     err, sizeof err))
            goto done;
        latency_summarize (merged, &test->hosts [h].latency);
    }
    for (size_t s = 0; s < test->stream_count; s++)
        if (latency_stream_fill (&test->streams [s]))
            goto done;
    rc = 0;
done:
    if (rc) {
        memset (summary->latency, 0, sizeof (summary->latency));
        for (size_t h = 0; h < test->host_count; h++)
            memset (&test->hosts [h].latency, 0, sizeof (test->hosts [h].latency));
        for (size_t s = 0; s < test->stream_count; s++)
            memset (&test->streams [s].latency_requests, 0, sizeof (latency_summary_t));
    }
    free (streams);
    histogram_destroy (&merged);
    histogram_destroy (&scratch);
    return rc;
}

//  Orders hosts by p99, highest first.
static int
s_by_p99 (const void *left, const void *right)
{
    int64_t a = (*(const host_result_t *const *) left)->latency.p99_ns;
    int64_t b = (*(const host_result_t *const *) right)->latency.p99_ns;
    return a < b? 1: a > b? -1: 0;
}

const host_result_t **
latency_hosts_listed (const test_result_t *test, size_t fleet, size_t slowest,
                      size_t *shown, size_t *measured)
{
    const host_result_t **hosts = calloc (test->host_count? test->host_count: 1,
                                          sizeof (host_result_t *));
    if (!hosts)
        return NULL;
    size_t count = 0;
    for (size_t h = 0; h < test->host_count; h++)
        if (test->hosts [h].latency.count > 0)
            hosts [count++] = &test->hosts [h];
    *measured = *shown = count;
    if (count > fleet) {
        qsort (hosts, count, sizeof hosts [0], s_by_p99);
        *shown = slowest < count? slowest: count;
    }
    return hosts;
}
