/*  coordinator/numbers/aggregate_hosts.c: what the streams of each host of a test
    add up to, without a pass over the streams per host; see aggregate.h.
*/
#include "aggregate.h"

#include <stdlib.h>
#include <string.h>

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
    if (!stream->direct)
        sum->set_bytes += stream->set_bytes;
    if (!stream->reads_data) {
        sum->written_bytes += stream->bytes;
        if (!stream->direct && stream->fsync_mode == FSYNC_NONE)
            sum->cached_bytes += stream->bytes;
    }
    else
    if (!stream->direct && !stream->cold && stream->job_class == CLASS_DISK)
        sum->cached_read_bytes += stream->bytes;
}

const stream_result_t **
aggregate_streams_by_agent (const test_result_t *test)
{
    const stream_result_t **streams = calloc (test->stream_count + 1, sizeof (*streams));
    if (!streams)
        return NULL;
    for (size_t s = 0; s < test->stream_count; s++)
        streams [s] = &test->streams [s];
    qsort (streams, test->stream_count, sizeof (*streams), s_compare_stream);
    return streams;
}

size_t
aggregate_agent_run (const stream_result_t *const *streams, size_t count, const char *agent,
                     size_t *length)
{
    //  The first stream whose agent is not before agent, then its run.
    size_t low = 0, high = count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (strcmp (streams [middle]->agent, agent) < 0)
            low = middle + 1;
        else
            high = middle;
    }
    size_t end = low;
    while (end < count && strcmp (streams [end]->agent, agent) == 0)
        end++;
    *length = end - low;
    return low;
}

aggregate_host_sums_t *
aggregate_host_sums (const test_result_t *test)
{
    aggregate_host_sums_t *sums = calloc (test->host_count + 1, sizeof (*sums));
    const stream_result_t **streams = aggregate_streams_by_agent (test);
    if (!sums || !streams) {
        free (sums);
        free (streams);
        return NULL;
    }
    for (size_t h = 0; h < test->host_count; h++) {
        size_t length;
        size_t first = aggregate_agent_run (streams, test->stream_count,
                                            test->hosts [h].agent, &length);
        for (size_t k = first; k < first + length; k++)
            aggregate_host_add (&sums [h], streams [k]);
    }
    free (streams);
    return sums;
}
