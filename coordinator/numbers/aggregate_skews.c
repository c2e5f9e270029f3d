/*  coordinator/numbers/aggregate_skews.c: how together a test's streams started
    and ended, and how late each of a time-bound test stopped; see
    aggregate.h.

    The skews are spreads of instants on the coordinator's timeline: the
    host skew of the hosts' first starts, the stream skew of every
    stream's start, the end skew of every stream's end. A stream's end
    comes after its flush and close, so for a time-bound test the end
    skew mixes three things, which the stop figures tell apart, each
    stream against its own stop instant (the announced start plus its
    runtime, on every host): how late its last request was issued (never
    after the instant, the clocks aside: an agent issues none from
    then), how long that request was in flight, and how long its flush
    and close took after it. With a queue (an engine's iodepth) several
    requests are in flight at the instant: they are counted, and the
    depth the streams reached is kept beside (Little's law: the time of
    every request summed over the window is the mean in flight).
*/
#include "aggregate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

//  Host figures gathered over the streams of one agent.
typedef struct {
    bool started;                   //  at least one stream has a window
    int64_t earliest_start_ns;      //  earliest start among those
    int64_t uncertainty_ns;         //  the agent's clock uncertainty
} host_figures_t;

//  Tally of host figures over all hosts of a test.
typedef struct {
    uint32_t hosts;                 //  distinct agents
    uint32_t hosts_started;         //  of which have a started stream
    int64_t earliest_min_ns;        //  min over hosts of their first start
    int64_t earliest_max_ns;        //  max over hosts of their first start
    int64_t uncertainty_top_ns [2]; //  the two largest uncertainties, largest first
} host_tally_t;


//  --------------------------------------------------------------------------
//  Hosts

//  Fold one stream into the figures of its host.
static void
s_host_add_stream (host_figures_t *host, const stream_result_t *stream)
{
    int64_t start_ns, end_ns;
    if (aggregate_stream_window (stream, &start_ns, &end_ns)
    &&  (!host->started || start_ns < host->earliest_start_ns)) {
        host->earliest_start_ns = start_ns;
        host->started = true;
    }
    if (stream->clock_uncertainty_ns > host->uncertainty_ns)
        host->uncertainty_ns = stream->clock_uncertainty_ns;
}

//  Fold one host into the tally.
static void
s_tally_add_host (host_tally_t *tally, const host_figures_t *host)
{
    tally->hosts++;
    if (host->started) {
        if (tally->hosts_started == 0 || host->earliest_start_ns < tally->earliest_min_ns)
            tally->earliest_min_ns = host->earliest_start_ns;
        if (tally->hosts_started == 0 || host->earliest_start_ns > tally->earliest_max_ns)
            tally->earliest_max_ns = host->earliest_start_ns;
        tally->hosts_started++;
    }
    if (host->uncertainty_ns > tally->uncertainty_top_ns [0]) {
        tally->uncertainty_top_ns [1] = tally->uncertainty_top_ns [0];
        tally->uncertainty_top_ns [0] = host->uncertainty_ns;
    }
    else
    if (host->uncertainty_ns > tally->uncertainty_top_ns [1])
        tally->uncertainty_top_ns [1] = host->uncertainty_ns;
}

//  qsort order of stream pointers by agent name.
static int
s_compare_agent (const void *left, const void *right)
{
    const stream_result_t *const *left_stream = left;
    const stream_result_t *const *right_stream = right;
    return strcmp ((*left_stream)->agent, (*right_stream)->agent);
}

//  Tally the hosts of a test. Streams are grouped by agent through a
//  sorted array of pointers, so that a fleet of hundreds of agents costs
//  n log n; should that array not fit in memory, each stream's host is
//  looked up among the streams before it instead, which is slower but
//  gives the same figures.
static void
s_tally_hosts (const test_result_t *test, host_tally_t *tally)
{
    const size_t count = test->stream_count;
    const stream_result_t **sorted = count? calloc (count, sizeof (*sorted)): NULL;
    if (sorted) {
        for (size_t nbr = 0; nbr < count; nbr++)
            sorted [nbr] = &test->streams [nbr];
        qsort (sorted, count, sizeof (*sorted), s_compare_agent);
        size_t group_start = 0;
        while (group_start < count) {
            host_figures_t host = { 0 };
            size_t nbr = group_start;
            while (nbr < count && strcmp (sorted [nbr]->agent, sorted [group_start]->agent) == 0)
                s_host_add_stream (&host, sorted [nbr++]);
            s_tally_add_host (tally, &host);
            group_start = nbr;
        }
        free (sorted);
        return;
    }
    for (size_t first = 0; first < count; first++) {
        const char *agent = test->streams [first].agent;
        bool seen = false;
        for (size_t before = 0; before < first && !seen; before++)
            seen = strcmp (test->streams [before].agent, agent) == 0;
        if (seen)
            continue;
        host_figures_t host = { 0 };
        for (size_t nbr = first; nbr < count; nbr++)
            if (strcmp (test->streams [nbr].agent, agent) == 0)
                s_host_add_stream (&host, &test->streams [nbr]);
        s_tally_add_host (tally, &host);
    }
}

//  --------------------------------------------------------------------------
//  How together the streams started and ended

//  Hosts, the skews and the bound on their error.
static void
s_fill_skews (const test_result_t *test, test_summary_t *summary)
{
    host_tally_t tally = { 0 };
    s_tally_hosts (test, &tally);
    summary->hosts = tally.hosts;
    if (tally.hosts_started > 1)
        summary->host_skew_ns = aggregate_difference_ns (tally.earliest_max_ns, tally.earliest_min_ns);

    //  A difference of two hosts' times is off by at most the sum of their
    //  two offsets' errors; the two largest bound every pair. One host
    //  reads one clock, and its streams' differences carry no such error.
    if (tally.hosts > 1
    &&  __builtin_add_overflow (tally.uncertainty_top_ns [0], tally.uncertainty_top_ns [1],
                                &summary->clock_uncertainty_ns))
        summary->clock_uncertainty_ns = INT64_MAX;

    bool any = false;
    int64_t min_start_ns = 0, max_start_ns = 0, min_end_ns = 0, max_end_ns = 0;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        int64_t start_ns, end_ns;
        if (!aggregate_stream_window (&test->streams [nbr], &start_ns, &end_ns))
            continue;
        if (!any || start_ns < min_start_ns)
            min_start_ns = start_ns;
        if (!any || start_ns > max_start_ns)
            max_start_ns = start_ns;
        if (!any || end_ns < min_end_ns)
            min_end_ns = end_ns;
        if (!any || end_ns > max_end_ns)
            max_end_ns = end_ns;
        any = true;
    }
    summary->stream_skew_ns = aggregate_difference_ns (max_start_ns, min_start_ns);
    //  Streams that stop at one instant (a runtime) end within this of
    //  each other; the figure means little for streams that end when
    //  their bytes are done.
    summary->end_skew_ns = aggregate_difference_ns (max_end_ns, min_end_ns);
}

//  Fold one stream's stop into the figures: the first sets them, later
//  ones widen them.
static void
s_stop_add (stop_summary_t *stop, const stream_result_t *stream)
{
    int64_t late_ns = aggregate_difference_ns (stream->last_write_ns, stream->stop_ns);
    int64_t issue_late_ns = aggregate_difference_ns (stream->last_issue_ns, stream->stop_ns);
    int64_t in_flight_ns = aggregate_difference_ns (stream->last_write_ns, stream->last_issue_ns);
    int64_t tail_ns = aggregate_difference_ns (stream->end_ns, stream->last_write_ns);
    bool first = stop->streams++ == 0;
    if (first || stream->stop_ns > stop->instant_ns)
        stop->instant_ns = stream->stop_ns;
    if (first || late_ns > stop->late_ns)
        stop->late_ns = late_ns;
    if (first || issue_late_ns > stop->issue_late_ns)
        stop->issue_late_ns = issue_late_ns;
    //  A last request that ended before the instant was not in flight
    //  then (an fsync round may have crossed it).
    if (late_ns >= 0 && in_flight_ns > stop->in_flight_ns)
        stop->in_flight_ns = in_flight_ns;
    if (first || tail_ns > stop->tail_ns)
        stop->tail_ns = tail_ns;
}

//  The stop figures of the streams that ran to their stop instant: a
//  time-bound job's, finished without an error (an aborted or failed
//  stream stopped for another reason), with a request issued.
static void
s_fill_stop (const test_result_t *test, stop_summary_t *stop)
{
    memset (stop, 0, sizeof (*stop));
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        const stream_result_t *stream = &test->streams [nbr];
        if (stream->stop_ns && stream->finished && !stream->error && stream->last_issue_ns)
            s_stop_add (stop, stream);
    }
}

double
aggregate_stream_depth (const stream_result_t *stream)
{
    //  Times come from the wire and from files: absurd ones must not
    //  overflow.
    int64_t window_ns;
    if (!stream->depth_max
    ||  __builtin_sub_overflow (stream->last_write_ns, stream->start_ns, &window_ns)
    ||  window_ns <= 0)
        return NAN;
    return (double) stream->busy_ns / (double) window_ns;
}

//  The depth the streams reached, and what was in flight at the stop.
static void
s_fill_depth (const test_result_t *test, test_summary_t *summary)
{
    double sum = 0;
    uint32_t count = 0;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        const stream_result_t *stream = &test->streams [nbr];
        double depth = aggregate_stream_depth (stream);
        if (isfinite (depth)) {
            sum += depth;
            count++;
        }
        if (stream->depth_max > summary->depth_max)
            summary->depth_max = stream->depth_max;
        summary->inflight_at_stop += stream->inflight_at_stop;
    }
    summary->depth_mean = count? sum / count: NAN;
}

//  The hosts and the skews, then the stop figures and the depth.
void
aggregate_skews (const test_result_t *test, test_summary_t *summary)
{
    s_fill_skews (test, summary);
    s_fill_stop (test, &summary->stop);
    s_fill_depth (test, summary);
}
