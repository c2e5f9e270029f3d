/*  coordinator/engine/status.c: the live status line; see status.h. */
#include "status.h"
#include "../../proto/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  What one pass over the streams says about one host.
typedef struct {
    double bytes;                   //  done so far by its streams
    int64_t latest_ns;              //  its latest sample, on the phase's timeline
    int64_t interval_ns;            //  the longest step between its streams' last samples
    bool running;                   //  a stream of it has not finished
} s_tally_t;

//  How a host stands.
typedef enum {
    S_DONE,                         //  every stream finished or failed
    S_RUNNING,                      //  streams running, samples coming
    S_SLOW,                         //  streams running, no sample for two intervals
    S_LOST                          //  its session is gone
} s_standing_t;

//  The standing of a host at elapsed_ns into the phase.
static s_standing_t
s_standing (const status_host_t *host, const s_tally_t *tally, int64_t elapsed_ns)
{
    if (host->lost)
        return S_LOST;
    if (!tally->running)
        return S_DONE;
    if (tally->interval_ns && elapsed_ns - tally->latest_ns > 2 * tally->interval_ns)
        return S_SLOW;
    return S_RUNNING;
}

//  A host's MB/s so far, 0 before its first sample.
static double
s_mbps (const s_tally_t *tally)
{
    return tally->latest_ns > 0? tally->bytes / ((double) tally->latest_ns / NS_PER_SEC) / 1e6: 0;
}

//  One pass over the streams: what each host has done.
static void
s_tally_streams (const test_result_t *result, const size_t *stream_host, size_t count,
                 s_tally_t *tallies)
{
    for (size_t s = 0; s < result->stream_count; s++) {
        const stream_result_t *stream = &result->streams [s];
        if (stream_host [s] >= count)
            continue;
        s_tally_t *tally = &tallies [stream_host [s]];
        tally->running |= !stream->finished && !stream->error;
        if (!stream->sample_count)
            continue;
        const sample_point_t *last = &stream->samples [stream->sample_count - 1];
        tally->bytes += (double) (stream->finished? stream->bytes: last->bytes);
        if (last->t_ns > tally->latest_ns)
            tally->latest_ns = last->t_ns;
        if (stream->sample_count > 1) {
            int64_t step_ns = last->t_ns - stream->samples [stream->sample_count - 2].t_ns;
            if (step_ns > tally->interval_ns)
                tally->interval_ns = step_ns;
        }
    }
}

//  Whether host a is worse than host b: lost before slow before the
//  rest, and among those that run, the slower one.
static bool
s_worse (s_standing_t a, double a_mbps, s_standing_t b, double b_mbps)
{
    int rank_a = a == S_LOST? 0: a == S_SLOW? 1: 2;
    int rank_b = b == S_LOST? 0: b == S_SLOW? 1: 2;
    return rank_a != rank_b? rank_a < rank_b: a_mbps < b_mbps;
}

//  The fleet's part of the line: counts, then the worst hosts by name.
static void
s_fleet_part (char *line, size_t linelen, const status_host_t *hosts, size_t count,
              const s_tally_t *tallies, int64_t elapsed_ns)
{
    size_t counts [S_LOST + 1] = { 0 };
    size_t worst [STATUS_WORST_NAMED];
    size_t named = 0;
    for (size_t h = 0; h < count; h++) {
        s_standing_t standing = s_standing (&hosts [h], &tallies [h], elapsed_ns);
        counts [standing]++;
        //  A host is named when it is lost or slow, or runs with a rate
        //  at all: before the first samples, nobody is slowest.
        double mbps = s_mbps (&tallies [h]);
        if (standing == S_DONE || (standing == S_RUNNING && mbps <= 0))
            continue;
        size_t at = named;
        while (at > 0) {
            size_t other = worst [at - 1];
            if (!s_worse (standing, mbps, s_standing (&hosts [other], &tallies [other], elapsed_ns),
                          s_mbps (&tallies [other])))
                break;
            if (at < STATUS_WORST_NAMED)
                worst [at] = other;
            at--;
        }
        if (at < STATUS_WORST_NAMED) {
            worst [at] = h;
            if (named < STATUS_WORST_NAMED)
                named++;
        }
    }
    size_t used = strlen (line);
    used += (size_t) snprintf (line + used, linelen - used,
                               "  hosts %zu: %zu running, %zu slow, %zu lost, %zu done", count,
                               counts [S_RUNNING], counts [S_SLOW], counts [S_LOST],
                               counts [S_DONE]);
    for (size_t n = 0; n < named && used < linelen; n++) {
        size_t h = worst [n];
        s_standing_t standing = s_standing (&hosts [h], &tallies [h], elapsed_ns);
        char what [32];
        if (standing == S_LOST || standing == S_SLOW)
            snprintf (what, sizeof what, "%s", standing == S_LOST? "LOST": "slow");
        else
            snprintf (what, sizeof what, "%.0f MB/s", s_mbps (&tallies [h]));
        used += (size_t) snprintf (line + used, linelen - used, "%s %s %s",
                                   n? ",": "; worst", hosts [h].name, what);
    }
}

int
status_line (char *line, size_t linelen, const test_result_t *result,
             const status_host_t *hosts, size_t count, const size_t *stream_host,
             int64_t start_ns, int64_t now_ns, double planned_bytes)
{
    int64_t elapsed_ns = now_ns - start_ns;
    s_tally_t *tallies = (s_tally_t *) calloc (count? count: 1, sizeof (s_tally_t));
    if (!tallies) {
        snprintf (line, linelen, "%s #%u  %.1f s", result->name, result->iteration,
                  (double) elapsed_ns / NS_PER_SEC);
        return -1;
    }
    s_tally_streams (result, stream_host, count, tallies);
    double total_mbps = 0, total_bytes = 0;
    for (size_t h = 0; h < count; h++) {
        total_mbps += s_mbps (&tallies [h]);
        total_bytes += tallies [h].bytes;
    }
    char expected [32] = "?";
    if (total_mbps > 0 && planned_bytes > 0 && total_bytes > 0)
        snprintf (expected, sizeof expected, "%.1f", planned_bytes / (total_mbps * 1e6));
    snprintf (line, linelen, "%s #%u  %.1f / %s s  total %.0f MB/s", result->name,
              result->iteration, (double) elapsed_ns / NS_PER_SEC, expected, total_mbps);
    if (count > STATUS_HOSTS_LISTED)
        s_fleet_part (line, linelen, hosts, count, tallies, elapsed_ns);
    else
        for (size_t h = 0; h < count; h++) {
            s_standing_t standing = s_standing (&hosts [h], &tallies [h], elapsed_ns);
            size_t used = strlen (line);
            snprintf (line + used, linelen - used, "  %s %.0f MB/s%s", hosts [h].name,
                      s_mbps (&tallies [h]),
                      standing == S_LOST? " LOST": standing == S_SLOW? " slow": "");
        }
    free (tallies);
    return 0;
}

void
status_show (console_t *console, const test_result_t *result,
             const status_host_t *hosts, size_t count, const size_t *stream_host,
             int64_t start_ns, double planned_bytes)
{
    char line [STATUS_LINE_MAX];
    status_line (line, sizeof line, result, hosts, count, stream_host, start_ns,
                 clock_now_ns (), planned_bytes);
    console_status (console, "%s", line);
}
