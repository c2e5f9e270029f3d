/*  coordinator/numbers/aggregate.c: the arithmetic behind every number in a
    report; see aggregate.h.

    A stream's window is [start, end] on the coordinator's timeline, where
    end comes after the fsync or close when the scenario asks for one. A
    stream has a window only once its RESULT arrived and its end lies after
    its start; a stream that failed before it began reports zeros and has
    none. Rates are bytes per nanosecond times 1000, which is MB/s with
    MB = 10^6 bytes. A stream's own figures are aggregate_stream.c's,
    how together the streams started and ended aggregate_skews.c's.
*/
#include "aggregate.h"
#include "latency.h"
#include "latency_tail.h"
#include "warnings.h"
#include "../../proto/clock.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  First start and last end over a set of streams.
typedef struct {
    bool any;                       //  some stream had a window
    int64_t first_start_ns;         //  earliest start among them
    int64_t last_end_ns;            //  latest end among them
} span_t;


//  --------------------------------------------------------------------------
//  Per test

//  Widen a span by one stream's window, if it has one. A stream without
//  a RESULT whose samples say how far it got counts from the instant it
//  was told to start (0) to its last sample: its bytes, a lower bound,
//  were moved within that, and the combined figure over the span stays
//  a lower bound of what the fleet did in it (and is marked partial).
static void
s_span_add (span_t *span, const stream_result_t *stream)
{
    int64_t start_ns, end_ns;
    if (!stream->finished && stream->bytes_sampled && stream->sampled_ns > 0) {
        start_ns = 0;
        end_ns = stream->sampled_ns;
    }
    else
    if (!aggregate_stream_window (stream, &start_ns, &end_ns))
        return;
    if (!span->any || start_ns < span->first_start_ns)
        span->first_start_ns = start_ns;
    if (!span->any || end_ns > span->last_end_ns)
        span->last_end_ns = end_ns;
    span->any = true;
}

//  Streams, bytes, failures and the combined rate of the whole test.
static void
s_fill_totals (const test_result_t *test, test_summary_t *summary)
{
    span_t span = { 0 };
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        const stream_result_t *stream = &test->streams [nbr];
        summary->bytes += stream->bytes;
        if (stream->error || !stream->finished)
            summary->failed_streams++;
        if (stream->lost)
            summary->lost_streams++;
        s_span_add (&span, stream);
    }
    summary->streams = (uint32_t) test->stream_count;
    summary->combined_mbps = NAN;
    summary->combined_ops_per_s = NAN;
    if (span.any) {
        summary->first_start_ns = span.first_start_ns;
        summary->last_end_ns = span.last_end_ns;
        summary->combined_mbps = aggregate_rate_mbps ((double) summary->bytes,
                                              span.first_start_ns, span.last_end_ns);
    }
    //  Operations per second: of every stream in a test of operations;
    //  in a mixed test, of its streams of requests alone, over their own
    //  window (a 1 MiB write is no request beside 4 KiB ones).
    span_t ops_span = { 0 };
    uint64_t ops = 0;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        const stream_result_t *stream = &test->streams [nbr];
        if (!test->rate_ops && !stream->ops_writes)
            continue;
        ops += aggregate_stream_ops (stream);
        s_span_add (&ops_span, stream);
    }
    if (ops_span.any && ops_span.last_end_ns > ops_span.first_start_ns)
        summary->combined_ops_per_s = (double) ops
            / ((double) (ops_span.last_end_ns - ops_span.first_start_ns) / 1e9);
}

//  The rate while every stream was running: the window from the latest
//  start to the earliest end, and the bytes each stream moved inside it,
//  read off its curve. A stream without a window (it never ran, or its
//  agent was lost) means the streams never all ran together.
static void
s_fill_all_running (const test_result_t *test, test_summary_t *summary)
{
    summary->all_running_mbps = NAN;
    summary->all_running_ns = 0;
    int64_t latest_start_ns = 0, earliest_end_ns = 0;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        int64_t start_ns, end_ns;
        if (!aggregate_stream_window (&test->streams [nbr], &start_ns, &end_ns))
            return;
        if (nbr == 0 || start_ns > latest_start_ns)
            latest_start_ns = start_ns;
        if (nbr == 0 || end_ns < earliest_end_ns)
            earliest_end_ns = end_ns;
    }
    if (test->stream_count == 0 || earliest_end_ns <= latest_start_ns)
        return;

    double bytes = 0;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        const stream_result_t *stream = &test->streams [nbr];
        bytes += aggregate_bytes_at (stream, earliest_end_ns)
               - aggregate_bytes_at (stream, latest_start_ns);
    }
    summary->all_running_ns = aggregate_difference_ns (earliest_end_ns, latest_start_ns);
    summary->all_running_mbps = aggregate_rate_mbps (bytes, latest_start_ns, earliest_end_ns);
}

//  Figures of one class: its streams, bytes, combined rate over its own
//  span, and its stream rates in the engineers' notation.
static void
s_fill_class (const test_result_t *test, int job_class, class_summary_t *class_summary)
{
    span_t span = { 0 };
    class_summary->combined_mbps = NAN;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        const stream_result_t *stream = &test->streams [nbr];
        bool network = stream->job_class == CLASS_NETWORK;
        if (network != (job_class == CLASS_NETWORK))
            continue;
        class_summary->streams++;
        class_summary->bytes += stream->bytes;
        s_span_add (&span, stream);
    }
    if (span.any)
        class_summary->combined_mbps = aggregate_rate_mbps ((double) class_summary->bytes,
                                                    span.first_start_ns, span.last_end_ns);
    aggregate_class_notation (test, job_class, UNITS_MB, class_summary->notation,
                              sizeof (class_summary->notation));
}

//  Percent of part in whole, NAN for an empty whole.
static double
s_pct (uint64_t part, uint64_t whole)
{
    return whole? 100.0 * (double) part / (double) whole: NAN;
}

//  Per host: CPU shares and the bytes its streams moved; for the test:
//  the CPU shares of all measured hosts together.
static void
s_fill_hosts (test_result_t *test, test_summary_t *summary, const aggregate_host_sums_t *sums)
{
    uint64_t total = 0, user = 0, system = 0, iowait = 0;
    for (size_t h = 0; h < test->host_count; h++) {
        host_result_t *host = &test->hosts [h];
        host->stream_bytes = sums? sums [h].bytes: 0;
        for (size_t s = 0; !sums && s < test->stream_count; s++)
            if (strcmp (test->streams [s].agent, host->agent) == 0)
                host->stream_bytes += test->streams [s].bytes;
        if (!host->received) {
            host->usr_pct = host->sys_pct = host->iowait_pct = host->idle_pct = NAN;
            continue;
        }
        const msg_host_t *c = &host->counters;
        host->usr_pct = s_pct (c->cpu_user_ticks, c->cpu_total_ticks);
        host->sys_pct = s_pct (c->cpu_system_ticks, c->cpu_total_ticks);
        host->iowait_pct = s_pct (c->cpu_iowait_ticks, c->cpu_total_ticks);
        host->idle_pct = s_pct (c->cpu_idle_ticks, c->cpu_total_ticks);
        summary->hosts_measured++;
        total += c->cpu_total_ticks;
        user += c->cpu_user_ticks;
        system += c->cpu_system_ticks;
        iowait += c->cpu_iowait_ticks;
    }
    summary->usr_pct = s_pct (user, total);
    summary->sys_pct = s_pct (system, total);
    summary->iowait_pct = s_pct (iowait, total);
}

//  Rate in MB/s of a counter that grew from a to b over ns nanoseconds.
static double
s_counter_mbps (uint64_t a, uint64_t b, int64_t ns)
{
    return ns > 0? (double) (b >= a? b - a: 0) / ((double) ns / 1e9) / 1e6: NAN;
}

//  A monitor's figures over its whole series, and the longest gap in it.
static void
s_fill_monitor (monitor_result_t *monitor)
{
    monitor->usr_pct = monitor->sys_pct = monitor->iowait_pct = NAN;
    monitor->disk_read_mbps = monitor->disk_write_mbps = NAN;
    monitor->nfsd_read_mbps = monitor->nfsd_write_mbps = NAN;
    monitor->max_gap_ns = 0;
    if (monitor->point_count < 2)
        return;
    for (size_t i = 1; i < monitor->point_count; i++) {
        int64_t gap_ns = monitor->points [i].t_ns - monitor->points [i - 1].t_ns;
        if (gap_ns > monitor->max_gap_ns)
            monitor->max_gap_ns = gap_ns;
    }
    const msg_monitor_t *a = &monitor->points [0];
    const msg_monitor_t *b = &monitor->points [monitor->point_count - 1];
    uint64_t total = b->cpu_total_ticks - a->cpu_total_ticks;
    if (b->cpu_total_ticks >= a->cpu_total_ticks && total > 0) {
        monitor->usr_pct = s_pct (b->cpu_user_ticks - a->cpu_user_ticks, total);
        monitor->sys_pct = s_pct (b->cpu_system_ticks - a->cpu_system_ticks, total);
        monitor->iowait_pct = s_pct (b->cpu_iowait_ticks - a->cpu_iowait_ticks, total);
    }
    int64_t ns = b->t_ns - a->t_ns;
    monitor->disk_read_mbps = s_counter_mbps (a->disk_read_bytes, b->disk_read_bytes, ns);
    monitor->disk_write_mbps = s_counter_mbps (a->disk_written_bytes, b->disk_written_bytes, ns);
    monitor->nfsd_read_mbps = s_counter_mbps (a->nfsd_read_bytes, b->nfsd_read_bytes, ns);
    monitor->nfsd_write_mbps = s_counter_mbps (a->nfsd_written_bytes, b->nfsd_written_bytes, ns);
}

aggregate_iterations_t
aggregate_iterations (const run_result_t *run, const char *name)
{
    aggregate_iterations_t iterations = { .first_mbps = NAN };
    double *rates = (double *) calloc (run->test_count + 1, sizeof (double));
    double *sys = (double *) calloc (run->test_count + 1, sizeof (double));
    size_t rest = 0;
    for (size_t t = 0; rates && sys && t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        if (strcmp (test->name, name) != 0)
            continue;
        iterations.rate_ops = test->rate_ops;
        double rate = test->rate_ops? test->summary.combined_ops_per_s: test->summary.combined_mbps;
        if (test->iteration == 1)
            iterations.first_mbps = rate;
        else {
            rates [rest] = rate;
            sys [rest++] = test->summary.sys_pct;
        }
    }
    if (rates && sys) {
        iterations.rest = aggregate_stats (rates, rest);
        iterations.rest_sys_pct = aggregate_stats (sys, rest);
    }
    free (rates);
    free (sys);
    return iterations;
}

//  A stream without a RESULT (its agent was lost, or failed the job) is
//  not a stream that moved nothing: its last sample says how far it got
//  at the least, and that is what its bytes become, marked as such.
static void
s_fill_unfinished (test_result_t *test)
{
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        stream_result_t *stream = &test->streams [nbr];
        if (stream->finished || stream->sample_count == 0)
            continue;
        //  The furthest sample, should the wire have brought them out of
        //  order.
        const sample_point_t *last = &stream->samples [0];
        for (size_t k = 1; k < stream->sample_count; k++)
            if (stream->samples [k].bytes >= last->bytes)
                last = &stream->samples [k];
        stream->bytes = last->bytes;
        stream->sampled_ns = last->t_ns;
        stream->bytes_sampled = true;
    }
}

//  Fill test->summary from the test's streams.
void
aggregate_test (test_result_t *test)
{
    assert (test);
    assert (test->streams || test->stream_count == 0);
    test_summary_t *summary = &test->summary;
    memset (summary, 0, sizeof (*summary));
    s_fill_unfinished (test);
    s_fill_totals (test, summary);
    s_fill_all_running (test, summary);
    aggregate_skews (test, summary);
    s_fill_class (test, CLASS_DISK, &summary->disk);
    s_fill_class (test, CLASS_NETWORK, &summary->network);
    aggregate_host_sums_t *sums = aggregate_host_sums (test);
    s_fill_hosts (test, summary, sums);
    aggregate_host_figures (test);
    //  Latency merges what the streams measured; memory short of a few
    //  histograms leaves it unmeasured rather than wrong.
    latency_fill (test);
    latency_tail_fill (test);
    summary->latency_p99_ns = summary->latency [LATENCY_REQUESTS].count?
                              (double) summary->latency [LATENCY_REQUESTS].p99_ns: NAN;
    warnings_fill (test, sums);
    free (sums);
    for (size_t m = 0; m < test->monitor_count; m++)
        s_fill_monitor (&test->monitors [m]);
}
