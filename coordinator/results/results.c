/*  coordinator/results/results.c: the few helpers that own memory in a run result;
    see results.h for the data model.
*/
#include "results.h"
#include "../numbers/latency.h"
#include "../numbers/latency_tail.h"
#include "../numbers/latency_timeline.h"
#include "../../proto/array.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

//  First capacity of a stream's sample array; it doubles from there, so a
//  long test costs a logarithmic number of reallocations, and a short one
//  on each of a thousand hosts no more than its few samples.
#define SAMPLES_FIRST_CAPACITY 8

//  Append one sample to a stream, doubling its array when full.
int
stream_result_add_sample (stream_result_t *stream, int64_t t_ns, uint64_t bytes)
{
    assert (stream);
    if (stream->sample_count == stream->sample_capacity) {
        size_t capacity = stream->sample_capacity? stream->sample_capacity * 2
                                                 : SAMPLES_FIRST_CAPACITY;
        if (capacity < stream->sample_capacity
        ||  capacity > SIZE_MAX / sizeof (sample_point_t))
            return -1;
        sample_point_t *grown = realloc (stream->samples, capacity * sizeof (sample_point_t));
        if (!grown)
            return -1;
        stream->samples = grown;
        stream->sample_capacity = capacity;
    }
    stream->samples [stream->sample_count].t_ns = t_ns;
    stream->samples [stream->sample_count].bytes = bytes;
    stream->sample_count++;
    return 0;
}

//  An error whose text found no memory.
static char s_error_no_memory [] = "failed (no memory for its reason)";

//  Replace *field with a copy of text, or NULL for none; on no memory,
//  with fallback (not freed).
static int
s_set_text (char **field, const char *text, char *fallback)
{
    if (*field != s_error_no_memory)
        free (*field);
    *field = NULL;
    if (!text || !text [0])
        return 0;
    *field = strdup (text);
    if (*field)
        return 0;
    *field = fallback;
    return -1;
}

int
stream_result_set_path (stream_result_t *stream, const char *text)
{
    assert (stream);
    return s_set_text (&stream->path, text, NULL);
}

int
stream_result_set_error (stream_result_t *stream, const char *text)
{
    assert (stream);
    return s_set_text (&stream->error, text, s_error_no_memory);
}

//  Free what a run result holds and leave it empty.
void
run_result_clear (run_result_t *run)
{
    if (!run)
        return;
    for (size_t test_nbr = 0; test_nbr < run->test_count; test_nbr++) {
        test_result_t *test = &run->tests [test_nbr];
        for (size_t stream_nbr = 0; stream_nbr < test->stream_count; stream_nbr++) {
            stream_result_t *stream = &test->streams [stream_nbr];
            free (stream->samples);
            stream_result_set_path (stream, NULL);
            stream_result_set_error (stream, NULL);
            for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
                latency_free (&stream->latency [kind]);
        }
        free (test->streams);
        free (test->hosts);
        for (size_t m = 0; m < test->monitor_count; m++)
            free (test->monitors [m].points);
        free (test->monitors);
        latency_timeline_clear (&test->timeline);
        latency_tail_clear (&test->tail);
    }
    free (run->tests);
    free (run->agents);
    memset (run, 0, sizeof (*run));
}

int
monitor_result_add_point (monitor_result_t *monitor, const msg_monitor_t *point)
{
    if (array_grow (&monitor->points, &monitor->point_capacity, monitor->point_count,
                    sizeof *monitor->points, 64))
        return -1;
    monitor->points [monitor->point_count++] = *point;
    return 0;
}
