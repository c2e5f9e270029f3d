/*  coordinator/aggregate_hosts.c: what the streams of each host of a test
    add up to, without a pass over the streams per host; see aggregate.h.
*/
#include "aggregate.h"

#include <stdlib.h>
#include <string.h>

//  qsort order of host pointers by agent name.
static int
s_compare_host (const void *left, const void *right)
{
    return strcmp ((*(const host_result_t *const *) left)->agent,
                   (*(const host_result_t *const *) right)->agent);
}

//  qsort order of stream pointers by agent name.
static int
s_compare_stream (const void *left, const void *right)
{
    return strcmp ((*(const stream_result_t *const *) left)->agent,
                   (*(const stream_result_t *const *) right)->agent);
}

void
aggregate_host_add (aggregate_host_sums_t *sum, const stream_result_t *stream)
{
    sum->bytes += stream->bytes;
    if (!stream->reads_data) {
        sum->written_bytes += stream->bytes;
        if (!stream->direct && stream->fsync_mode == FSYNC_NONE)
            sum->cached_bytes += stream->bytes;
    }
    else
    if (!stream->direct && !stream->cold && stream->job_class == CLASS_DISK)
        sum->cached_read_bytes += stream->bytes;
}

aggregate_host_sums_t *
aggregate_host_sums (const test_result_t *test)
{
    aggregate_host_sums_t *sums = calloc (test->host_count + 1, sizeof (*sums));
    const host_result_t **hosts = calloc (test->host_count + 1, sizeof (*hosts));
    const stream_result_t **streams = calloc (test->stream_count + 1, sizeof (*streams));
    if (!sums || !hosts || !streams) {
        free (sums);
        sums = NULL;
        goto done;
    }
    for (size_t h = 0; h < test->host_count; h++)
        hosts [h] = &test->hosts [h];
    for (size_t s = 0; s < test->stream_count; s++)
        streams [s] = &test->streams [s];
    qsort (hosts, test->host_count, sizeof (*hosts), s_compare_host);
    qsort (streams, test->stream_count, sizeof (*streams), s_compare_stream);
    //  Both in agent order: each host's streams are the run that follows
    //  those of the hosts before it.
    size_t s = 0;
    for (size_t h = 0; h < test->host_count; h++) {
        while (s < test->stream_count && strcmp (streams [s]->agent, hosts [h]->agent) < 0)
            s++;
        aggregate_host_sums_t *sum = &sums [hosts [h] - test->hosts];
        for (size_t k = s; k < test->stream_count
                        && strcmp (streams [k]->agent, hosts [h]->agent) == 0; k++)
            aggregate_host_add (sum, streams [k]);
    }
done:
    free (hosts);
    free (streams);
    return sums;
}
