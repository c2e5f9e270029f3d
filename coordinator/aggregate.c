/*  coordinator/aggregate.c: the arithmetic behind every number in a
    report; see aggregate.h.

    A stream's window is [start, end] on the coordinator's timeline, where
    end comes after the fsync or close when the scenario asks for one. A
    stream has a window only once its RESULT arrived and its end lies after
    its start; a stream that failed before it began reports zeros and has
    none. Rates are bytes per nanosecond times 1000, which is MB/s with
    MB = 10^6 bytes.
*/
#include "aggregate.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Two rates count as "the same" in the notation when each lies within
//  this share of their mean: then "3x28.5" says everything.
#define NOTATION_EQUAL_SHARE 0.05

//  Rates below 1 MB/s still get three significant figures, but no more
//  than this many decimals (0.000123 MB/s is a stalled stream, not data).
#define RATE_DECIMALS_MAX 6

//  Marks a figure that could not be computed, and a truncated list.
#define NOTATION_NONE "-"
#define NOTATION_MORE "..."

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

//  First start and last end over a set of streams.
typedef struct {
    bool any;                       //  some stream had a window
    int64_t first_start_ns;         //  earliest start among them
    int64_t last_end_ns;            //  latest end among them
} span_t;


//  --------------------------------------------------------------------------
//  Per stream

//  Times come from agents and are not trusted to be sane: differences
//  are taken in double for rates, and saturate for durations, so that
//  absurd values give absurd figures rather than an overflow.

//  later - earlier in ns, saturated to the int64_t range.
static int64_t
s_difference_ns (int64_t later_ns, int64_t earlier_ns)
{
    int64_t difference_ns;
    if (__builtin_sub_overflow (later_ns, earlier_ns, &difference_ns))
        return later_ns > earlier_ns? INT64_MAX: INT64_MIN;
    return difference_ns;
}

//  Bytes over a nanosecond interval, in MB/s; NAN for an empty interval.
static double
s_rate_mbps (double bytes, int64_t from_ns, int64_t to_ns)
{
    if (to_ns <= from_ns)
        return NAN;
    return bytes * 1e3 / ((double) to_ns - (double) from_ns);
}

//  The stream's window in *start_ns .. *end_ns; false if it has none.
//  When the end after fsync was never reached (the fsync failed) but
//  writes were made, the window closes at the last write: the stream did
//  run until then, and the test's span should say so.
static bool
s_stream_window (const stream_result_t *stream, int64_t *start_ns, int64_t *end_ns)
{
    if (!stream->finished)
        return false;
    int64_t end = stream->end_ns > stream->start_ns? stream->end_ns: stream->last_write_ns;
    if (end <= stream->start_ns)
        return false;
    *start_ns = stream->start_ns;
    *end_ns = end;
    return true;
}

//  The stream's rate over its whole window, fsync included.
double
aggregate_stream_rate_mbps (const stream_result_t *stream)
{
    assert (stream);
    if (!stream->finished)
        return NAN;
    return s_rate_mbps ((double) stream->bytes, stream->start_ns, stream->end_ns);
}

//  The stream's rate up to its last write.
double
aggregate_stream_write_rate_mbps (const stream_result_t *stream)
{
    assert (stream);
    if (!stream->finished)
        return NAN;
    return s_rate_mbps ((double) stream->bytes, stream->start_ns, stream->last_write_ns);
}

//  Value at t of the line through (t0, b0) and (t1, b1), with t0 < t1.
static double
s_interpolate (int64_t t0, double b0, int64_t t1, double b1, int64_t t)
{
    return b0 + (b1 - b0) * ((double) t - (double) t0) / ((double) t1 - (double) t0);
}

//  Bytes the stream had done at t_ns, read off its curve.
double
aggregate_bytes_at (const stream_result_t *stream, int64_t t_ns)
{
    assert (stream);
    const int64_t start_ns = stream->start_ns;
    const int64_t last_ns = stream->last_write_ns;
    const double total = (double) stream->bytes;
    if (t_ns <= start_ns)
        return 0;
    if (t_ns >= last_ns)
        return total;

    //  Walk the points (start, 0), samples..., (last write, bytes). Samples
    //  come from the wire and are not trusted to be ordered or to agree
    //  with the final figures: one that does not move strictly forward in
    //  time, goes backwards in bytes or lies outside the window is skipped,
    //  so the curve stays monotonic and ends at the stream's total.
    int64_t prev_ns = start_ns;
    double prev_bytes = 0;
    for (size_t nbr = 0; nbr < stream->sample_count; nbr++) {
        const sample_point_t *sample = &stream->samples [nbr];
        double sample_bytes = (double) sample->bytes;
        if (sample->t_ns <= prev_ns || sample->t_ns >= last_ns
        ||  sample_bytes < prev_bytes || sample_bytes > total)
            continue;
        if (t_ns <= sample->t_ns)
            return s_interpolate (prev_ns, prev_bytes, sample->t_ns, sample_bytes, t_ns);
        prev_ns = sample->t_ns;
        prev_bytes = sample_bytes;
    }
    return s_interpolate (prev_ns, prev_bytes, last_ns, total, t_ns);
}


//  --------------------------------------------------------------------------
//  Formatting

//  Drop trailing zeros after a decimal point, then the point itself.
static void
s_strip_zeros (char *text)
{
    if (!strchr (text, '.'))
        return;
    size_t length = strlen (text);
    while (length > 0 && text [length - 1] == '0')
        text [--length] = 0;
    if (length > 0 && text [length - 1] == '.')
        text [--length] = 0;
}

//  Digits of a formatted number, leading zeros not counted.
static int
s_significant_digits (const char *text)
{
    int digits = 0;
    for (; *text; text++)
        if (*text >= '1' && *text <= '9')
            digits++;
        else
        if (*text == '0' && digits > 0)
            digits++;
    return digits;
}

//  Format a rate with three significant figures and no decimals from 100
//  on; strip_zeros drops zeros that only pad the figures ("96.0" -> "96").
static void
s_format_rate (double rate_mbps, bool strip_zeros, char *buf, size_t buflen)
{
    if (buflen == 0)
        return;
    if (!isfinite (rate_mbps)) {
        snprintf (buf, buflen, "%s", NOTATION_NONE);
        return;
    }
    double magnitude = fabs (rate_mbps);
    int decimals = 0;
    if (magnitude > 0 && magnitude < 100) {
        decimals = 2 - (int) floor (log10 (magnitude));
        if (decimals > RATE_DECIMALS_MAX)
            decimals = RATE_DECIMALS_MAX;
        if (decimals < 0)
            decimals = 0;
    }
    snprintf (buf, buflen, "%.*f", decimals, rate_mbps);
    //  Rounding may carry into the next power of ten (9.996 -> "10.00",
    //  99.96 -> "100.0"), and log10 may land a hair off at an exact power:
    //  then one decimal fewer brings the figure back to three digits.
    while (decimals > 0 && s_significant_digits (buf) > 3)
        snprintf (buf, buflen, "%.*f", --decimals, rate_mbps);
    if (strip_zeros)
        s_strip_zeros (buf);
}

//  One rate, three significant figures, padding zeros dropped.
void
aggregate_format_rate (double rate_mbps, char *buf, size_t buflen)
{
    assert (buf);
    s_format_rate (rate_mbps, true, buf, buflen);
}

//  True when every rate is finite and within NOTATION_EQUAL_SHARE of
//  their mean, which goes to *mean_mbps.
static bool
s_rates_equal (const double *rates_mbps, size_t count, double *mean_mbps)
{
    double sum = 0;
    for (size_t nbr = 0; nbr < count; nbr++) {
        if (!isfinite (rates_mbps [nbr]))
            return false;
        sum += rates_mbps [nbr];
    }
    double mean = sum / (double) count;
    for (size_t nbr = 0; nbr < count; nbr++)
        if (fabs (rates_mbps [nbr] - mean) > NOTATION_EQUAL_SHARE * fabs (mean))
            return false;
    *mean_mbps = mean;
    return true;
}

//  Rates of several streams as engineers write them.
void
aggregate_notation (const double *rates_mbps, size_t count, char *buf, size_t buflen)
{
    assert (buf);
    assert (rates_mbps || count == 0);
    if (buflen == 0)
        return;
    double mean_mbps;
    char rate [32];
    if (count == 0)
        snprintf (buf, buflen, "%s", NOTATION_NONE);
    else
    if (count == 1)
        s_format_rate (rates_mbps [0], true, buf, buflen);
    else
    if (s_rates_equal (rates_mbps, count, &mean_mbps)) {
        s_format_rate (mean_mbps, true, rate, sizeof (rate));
        snprintf (buf, buflen, "%zux%s", count, rate);
    }
    else {
        //  A list keeps its padding zeros ("30.1+27.0+28.4") so that its
        //  members read at one precision. A list too long for the buffer
        //  ends in "..." rather than in half a number.
        size_t used = 0;
        buf [0] = 0;
        for (size_t nbr = 0; nbr < count; nbr++) {
            const char *plus = nbr > 0? "+": "";
            s_format_rate (rates_mbps [nbr], false, rate, sizeof (rate));
            size_t need = strlen (plus) + strlen (rate);
            size_t reserve = nbr + 1 < count? strlen ("+" NOTATION_MORE): 0;
            if (used + need + reserve >= buflen) {
                snprintf (buf + used, buflen - used, "%s%s", plus, NOTATION_MORE);
                break;
            }
            used += (size_t) snprintf (buf + used, buflen - used, "%s%s", plus, rate);
        }
    }
}


//  --------------------------------------------------------------------------
//  Per test

//  Widen a span by one stream's window, if it has one.
static void
s_span_add (span_t *span, const stream_result_t *stream)
{
    int64_t start_ns, end_ns;
    if (!s_stream_window (stream, &start_ns, &end_ns))
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
        if (stream->error [0] || !stream->finished)
            summary->failed_streams++;
        s_span_add (&span, stream);
    }
    summary->streams = (uint32_t) test->stream_count;
    summary->combined_mbps = NAN;
    if (span.any) {
        summary->first_start_ns = span.first_start_ns;
        summary->last_end_ns = span.last_end_ns;
        summary->combined_mbps = s_rate_mbps ((double) summary->bytes,
                                              span.first_start_ns, span.last_end_ns);
    }
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
        if (!s_stream_window (&test->streams [nbr], &start_ns, &end_ns))
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
    summary->all_running_ns = s_difference_ns (earliest_end_ns, latest_start_ns);
    summary->all_running_mbps = s_rate_mbps (bytes, latest_start_ns, earliest_end_ns);
}

//  Fold one stream into the figures of its host.
static void
s_host_add_stream (host_figures_t *host, const stream_result_t *stream)
{
    int64_t start_ns, end_ns;
    if (s_stream_window (stream, &start_ns, &end_ns)
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

//  Hosts, the two skews and the bound on their error.
static void
s_fill_skews (const test_result_t *test, test_summary_t *summary)
{
    host_tally_t tally = { 0 };
    s_tally_hosts (test, &tally);
    summary->hosts = tally.hosts;
    if (tally.hosts_started > 1)
        summary->host_skew_ns = s_difference_ns (tally.earliest_max_ns, tally.earliest_min_ns);

    //  A difference of two hosts' times is off by at most the sum of their
    //  two offsets' errors; the two largest bound every pair. One host
    //  reads one clock, and its streams' differences carry no such error.
    if (tally.hosts > 1
    &&  __builtin_add_overflow (tally.uncertainty_top_ns [0], tally.uncertainty_top_ns [1],
                                &summary->clock_uncertainty_ns))
        summary->clock_uncertainty_ns = INT64_MAX;

    bool any = false;
    int64_t min_start_ns = 0, max_start_ns = 0;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        int64_t start_ns, end_ns;
        if (!s_stream_window (&test->streams [nbr], &start_ns, &end_ns))
            continue;
        if (!any || start_ns < min_start_ns)
            min_start_ns = start_ns;
        if (!any || start_ns > max_start_ns)
            max_start_ns = start_ns;
        any = true;
    }
    summary->stream_skew_ns = s_difference_ns (max_start_ns, min_start_ns);
}

//  Figures of one class: its streams, bytes, combined rate over its own
//  span, and its stream rates in the engineers' notation.
static void
s_fill_class (const test_result_t *test, int job_class, class_summary_t *class_summary)
{
    span_t span = { 0 };
    class_summary->combined_mbps = NAN;
    double *rates_mbps = test->stream_count? calloc (test->stream_count, sizeof (double)): NULL;
    size_t rate_count = 0;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        const stream_result_t *stream = &test->streams [nbr];
        bool network = stream->job_class == CLASS_NETWORK;
        if (network != (job_class == CLASS_NETWORK))
            continue;
        class_summary->streams++;
        class_summary->bytes += stream->bytes;
        s_span_add (&span, stream);
        if (rates_mbps)
            rates_mbps [rate_count++] = aggregate_stream_rate_mbps (stream);
    }
    if (span.any)
        class_summary->combined_mbps = s_rate_mbps ((double) class_summary->bytes,
                                                    span.first_start_ns, span.last_end_ns);
    //  Without memory for the rates the notation says nothing rather than
    //  something partial.
    if (rates_mbps || class_summary->streams == 0)
        aggregate_notation (rates_mbps, rate_count, class_summary->notation,
                            sizeof (class_summary->notation));
    else
        snprintf (class_summary->notation, sizeof (class_summary->notation), "%s", NOTATION_NONE);
    free (rates_mbps);
}

//  Fill test->summary from the test's streams.
void
aggregate_test (test_result_t *test)
{
    assert (test);
    assert (test->streams || test->stream_count == 0);
    test_summary_t *summary = &test->summary;
    memset (summary, 0, sizeof (*summary));
    s_fill_totals (test, summary);
    s_fill_all_running (test, summary);
    s_fill_skews (test, summary);
    s_fill_class (test, CLASS_DISK, &summary->disk);
    s_fill_class (test, CLASS_NETWORK, &summary->network);
}
