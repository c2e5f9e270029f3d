/*  coordinator/report/requests_text.c: the requests section of the text
    report, for tests that count operations (random I/O); see report.h.

    sysbench's figures, for the whole fleet, each host and each stream:
    reads, writes and fsyncs per second, MB/s read and written, the time
    the test took (sysbench's "Time spent for test" of a request-bound
    run: first start to last end), and beside them operations per minute
    and %sys, as AIM7's jobs per minute are read beside system time. The
    figures are the summary's and the hosts' (aggregate_requests.c), and
    each stream's from the same arithmetic, as results.json and report.csv
    hold them.
*/
#include "report.h"
#include "text.h"
#include "../../proto/printable.h"
#include "../numbers/aggregate.h"

#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  A test of more than TEXT_FLEET_ROWS streams lists this many, the slowest.
#define REQUESTS_SLOWEST_STREAMS 3

//  What requests_rows passes each row to.
typedef struct {
    text_row_fn *fn;
    void *sink;
} s_rows_t;

//  A row of figures: name, where, then sysbench's figures of a set of
//  streams (aggregate_requests.c); none for a set without a window.
static void
s_line (const char *name, const char *where, const requests_summary_t *requests, double sys_pct,
        const s_rows_t *rows)
{
    if (!isfinite (requests->window_s))
        return;
    text_row_t row = { .name = name, .where = where };
    snprintf (row.cell [0], sizeof row.cell [0], "%.1f", requests->reads_per_s);
    snprintf (row.cell [1], sizeof row.cell [1], "%.1f", requests->writes_per_s);
    snprintf (row.cell [2], sizeof row.cell [2], "%.1f", requests->fsyncs_per_s);
    snprintf (row.cell [3], sizeof row.cell [3], "%.2f", requests->read_mbps);
    snprintf (row.cell [4], sizeof row.cell [4], "%.2f", requests->written_mbps);
    snprintf (row.cell [5], sizeof row.cell [5], "%.3f", requests->window_s);
    snprintf (row.cell [6], sizeof row.cell [6], "%.0f", requests->ops_per_min);
    text_format_pct (sys_pct, row.cell [7], sizeof row.cell [7]);
    rows->fn (rows->sink, &row);
}

//  A row of one line of text below a test's figures.
static void
s_note (const s_rows_t *rows, const char *format, ...)
{
    text_row_t row = { .name = "", .where = "", .note = row.text };
    va_list args;
    va_start (args, format);
    vsnprintf (row.text, sizeof row.text, format, args);
    va_end (args);
    rows->fn (rows->sink, &row);
}

//  One stream's line. A stream is named by its agent, job and index:
//  two jobs on one agent each have a stream 0.
static void
s_stream_line (const stream_result_t *stream, const s_rows_t *out)
{
    requests_summary_t one;
    aggregate_stream_requests (stream, &one);
    char agent [JOB_NAME_MAX * PRINTABLE_GROWTH + 1], job [sizeof agent];
    char where [2 * sizeof agent + 16];
    snprintf (where, sizeof where, "%s %s.%" PRIu32,
              printable (stream->agent, agent, sizeof agent),
              printable (stream->job, job, sizeof job), stream->index);
    s_line ("", where, &one, NAN, out);
}

//  A stream's requests per second, and its place in the test.
typedef struct {
    double per_s;
    size_t index;
} s_rate_t;

static int
s_rate_order (const void *a, const void *b)
{
    double x = ((const s_rate_t *) a)->per_s, y = ((const s_rate_t *) b)->per_s;
    return x < y? -1: x > y;
}

//  Past TEXT_FLEET_ROWS streams of requests, their spread in one line
//  (as the tests table gives it) and the slowest few in full.
static void
s_streams_summary (const test_result_t *test, size_t request_streams, const s_rows_t *out)
{
    s_rate_t *rates = (s_rate_t *) malloc (request_streams * sizeof (s_rate_t));
    if (!rates) {
        s_note (out, "(%zu streams: no memory to list them)", request_streams);
        return;
    }
    size_t count = 0;
    for (size_t s = 0; s < test->stream_count; s++) {
        const stream_result_t *stream = &test->streams [s];
        requests_summary_t one;
        aggregate_stream_requests (stream, &one);
        if (!stream->ops_writes || !isfinite (one.window_s))
            continue;
        rates [count].per_s = one.ops_per_min / 60;
        rates [count++].index = s;
    }
    if (count) {
        qsort (rates, count, sizeof *rates, s_rate_order);
        double median = count % 2? rates [count / 2].per_s
                                 : (rates [count / 2 - 1].per_s + rates [count / 2].per_s) / 2;
        size_t shown = count < REQUESTS_SLOWEST_STREAMS? count: REQUESTS_SLOWEST_STREAMS;
        s_note (out, "%zu streams: %.0f..%.0f, median %.0f requests/s each; the %zu slowest:",
                request_streams, rates [0].per_s, rates [count - 1].per_s, median, shown);
        for (size_t k = 0; k < shown; k++)
            s_stream_line (&test->streams [rates [k].index], out);
    }
    free (rates);
}

void
requests_rows (const run_result_t *run, text_row_fn *fn, void *sink)
{
    const s_rows_t rows = { .fn = fn, .sink = sink }, *out = &rows;
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        //  A test of requests, or a mixed one's streams of requests: a
        //  write's 1 MiB calls are no requests beside them.
        if (!test->rate_requests && !aggregate_test_mixed (test))
            continue;
        char name [TEST_ROW_NAME_MAX * PRINTABLE_GROWTH + 16];
        printable (test->name, name, sizeof name);
        if (test->iteration > 1) {
            size_t len = strlen (name);
            snprintf (name + len, sizeof name - len, " #%" PRIu32, test->iteration);
        }
        size_t request_streams = test->summary.requests.streams;
        s_line (name, "all", &test->summary.requests, test->summary.sys_pct, out);
        for (size_t h = 0; test->summary.hosts > 1 && h < test->host_count; h++) {
            char where [JOB_NAME_MAX * PRINTABLE_GROWTH + 2] = "@";
            printable (test->hosts [h].agent, where + 1, sizeof where - 1);
            s_line ("", where, &test->hosts [h].requests, test->hosts [h].sys_pct, out);
        }
        if (request_streams > TEXT_FLEET_ROWS)
            s_streams_summary (test, request_streams, out);
        else
            for (size_t s = 0; request_streams > 1 && s < test->stream_count; s++)
                if (test->streams [s].ops_writes)
                    s_stream_line (&test->streams [s], out);
    }
}

const text_rows_head_t requests_head = {
    .caption = "random I/O (per second over each one's window; time: first start to last end; "
               "ops/min: reads and writes per minute)",
    .where = "",
    .figure = { "reads/s", "writes/s", "fsyncs/s", "read MB/s", "written MB/s", "time s",
                "ops/min", "%sys" },
    .name_width = 20, .where_width = 12,
    .width = { 10, 10, 10, 10, 10, 9, 12, 6 }
};

void
requests_text (const run_result_t *run, FILE *out)
{
    text_rows_print (&requests_head, requests_rows, run, out);
}
