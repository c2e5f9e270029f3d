/*  coordinator/engine/status_plan.c: a phase's plan and its tally; see status_plan.h. */
#include "status_plan.h"
#include "../../proto/clock.h"
#include "../../proto/workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int
status_plan_init (status_plan_t *plan, const jobspec_t *const *specs,
                  const size_t *first_stream, size_t job_count, uint32_t phase,
                  size_t host_count)
{
    memset (plan, 0, sizeof *plan);
    plan->jobs = (status_job_t *) calloc (job_count? job_count: 1, sizeof (status_job_t));
    plan->host_tally = (status_host_tally_t *) calloc (host_count? host_count: 1,
                                                       sizeof (status_host_tally_t));
    if (!plan->jobs || !plan->host_tally)
        return -1;
    plan->host_count = host_count;
    for (size_t j = 0; j < job_count; j++) {
        const jobspec_t *spec = specs [j];
        const workload_desc_t *desc = spec? workload_desc (spec->workload): NULL;
        if (!desc || !desc->stream_results || !spec->streams)
            continue;
        rate_kind_t rate = workload_phase_rate (desc, phase);
        status_job_t *job = &plan->jobs [plan->job_count++];
        job->first_stream = first_stream [j];
        job->streams = (size_t) spec->streams;
        job->runtime_ns = spec->runtime_ns;
        job->ramp_ns = spec->ramp_ns;
        job->bs_bytes = (double) spec->bs_bytes;
        job->counts_bytes = rate != RATE_OPS;
        job->counts_requests = rate != RATE_BYTES;
        plan->counts_bytes |= job->counts_bytes;
        plan->counts_requests |= job->counts_requests;
        job->planned_bytes = (double) workload_phase_bound_bytes (desc, phase, spec);
        if (spec->interval_ns > 0 && (!plan->interval_ns || spec->interval_ns < plan->interval_ns))
            plan->interval_ns = spec->interval_ns;
    }
    return 0;
}

void
status_plan_clear (status_plan_t *plan)
{
    free (plan->jobs);
    free (plan->host_tally);
    plan->jobs = NULL;
    plan->host_tally = NULL;
    plan->job_count = plan->host_count = 0;
}

const status_figures_t *
status_plan_figures (const status_plan_t *plan)
{
    return &plan->figures;
}

//  A stream's bytes per second over its last interval: between its last
//  two samples, or from T0 to its only one. What a stream does in its
//  ramp counts nowhere (its samples start from 0 at the ramp's end), so
//  an interval begins at the ramp's end at the earliest, and a stream
//  without a sample past it has no rate yet: -1.
static double
s_stream_rate (const stream_result_t *stream, int64_t ramp_ns)
{
    if (!stream->sample_count)
        return -1;
    const sample_point_t *last = &stream->samples [stream->sample_count - 1];
    sample_point_t before = { 0, 0 };
    if (stream->sample_count > 1)
        before = stream->samples [stream->sample_count - 2];
    if (before.t_ns < ramp_ns)
        before.t_ns = ramp_ns;
    if (last->t_ns <= before.t_ns || last->bytes < before.bytes)
        return -1;
    return (double) (last->bytes - before.bytes) / ((double) (last->t_ns - before.t_ns) / NS_PER_SEC);
}

//  What one job did: its bytes so far, its last interval's rate (known
//  once a stream of it has one), whether a stream of it still runs.
//  Its hosts' tallies take their share.
typedef struct {
    double bytes;
    double bytes_per_s;
    bool rate_known;
    bool open;
} s_job_tally_t;

static s_job_tally_t
s_tally_job (status_plan_t *plan, const status_job_t *job, const test_result_t *result,
             const size_t *stream_host)
{
    s_job_tally_t tally = { 0, 0, false, false };
    for (size_t s = job->first_stream; s < job->first_stream + job->streams
                                    && s < result->stream_count; s++) {
        const stream_result_t *stream = &result->streams [s];
        bool running = !stream->finished && !stream->error;
        status_host_tally_t *host = stream_host [s] < plan->host_count
                                  ? &plan->host_tally [stream_host [s]]: NULL;
        double done = 0;
        if (stream->sample_count)
            done = (double) stream->samples [stream->sample_count - 1].bytes;
        if (stream->finished && (double) stream->bytes > done)
            done = (double) stream->bytes;
        tally.bytes += done;
        if (host)
            host->running |= running;
        if (!running)
            continue;
        tally.open = true;
        double rate = s_stream_rate (stream, job->ramp_ns);
        if (rate < 0)
            continue;
        tally.bytes_per_s += rate;
        tally.rate_known = true;
        if (!host)
            continue;
        host->bytes_per_s += rate;
        const sample_point_t *last = &stream->samples [stream->sample_count - 1];
        if (last->t_ns > host->latest_ns)
            host->latest_ns = last->t_ns;
        if (stream->sample_count > 1 && last->t_ns - last [-1].t_ns > host->step_ns)
            host->step_ns = last->t_ns - last [-1].t_ns;
    }
    return tally;
}

//  A job's share done and time left, from whichever bound it has; NAN
//  for what is unknown.
static void
s_job_progress (const status_job_t *job, const s_job_tally_t *tally, int64_t elapsed_ns,
                double *share, double *eta_s)
{
    *share = *eta_s = NAN;
    if (job->runtime_ns > 0) {
        *share = (double) elapsed_ns / (double) job->runtime_ns;
        *eta_s = (double) (job->runtime_ns - elapsed_ns) / NS_PER_SEC;
    }
    if (job->planned_bytes > 0) {
        double by_volume = tally->bytes / job->planned_bytes;
        if (isnan (*share) || by_volume > *share)
            *share = by_volume;
        if (tally->bytes_per_s > 0) {
            double left_s = (job->planned_bytes - tally->bytes) / tally->bytes_per_s;
            if (isnan (*eta_s) || left_s < *eta_s)
                *eta_s = left_s;
        }
    }
    if (!isnan (*share))
        *share = *share < 0? 0: *share > 1? 1: *share;
    if (!isnan (*eta_s) && *eta_s < 0)
        *eta_s = 0;
}

//  The standing of a host at elapsed_ns into the phase.
static status_standing_t
s_standing (const status_host_t *host, const status_host_tally_t *tally, int64_t elapsed_ns)
{
    if (host->lost)
        return STATUS_LOST;
    if (!tally->running)
        return STATUS_DONE;
    if (tally->step_ns && elapsed_ns - tally->latest_ns > 2 * tally->step_ns)
        return STATUS_SLOW;
    return STATUS_RUNNING;
}

//  Whether host a is worse than host b: lost before slow before the
//  rest, and among those that run, the slower one.
static bool
s_worse (const status_host_tally_t *a, const status_host_tally_t *b)
{
    int rank_a = a->standing == STATUS_LOST? 0: a->standing == STATUS_SLOW? 1: 2;
    int rank_b = b->standing == STATUS_LOST? 0: b->standing == STATUS_SLOW? 1: 2;
    return rank_a != rank_b? rank_a < rank_b: a->bytes_per_s < b->bytes_per_s;
}

//  The hosts' standings, their counts, and the worst few by name.
static void
s_tally_hosts (status_plan_t *plan, const status_host_t *hosts)
{
    status_figures_t *figures = &plan->figures;
    figures->hosts = plan->host_count;
    plan->worst_named = 0;
    for (size_t h = 0; h < plan->host_count; h++) {
        status_host_tally_t *tally = &plan->host_tally [h];
        tally->standing = s_standing (&hosts [h], tally, figures->elapsed_ns);
        switch (tally->standing) {
            case STATUS_DONE:    figures->finished++; break;
            case STATUS_RUNNING: figures->running++; break;
            case STATUS_SLOW:    figures->slow++; break;
            case STATUS_LOST:    figures->lost++; break;
        }
        //  A host is named when it is lost or slow, or runs with a rate
        //  at all: before the first samples, nobody is slowest.
        if (tally->standing == STATUS_DONE
        || (tally->standing == STATUS_RUNNING && tally->bytes_per_s <= 0))
            continue;
        size_t at = plan->worst_named;
        while (at > 0 && s_worse (tally, &plan->host_tally [plan->worst [at - 1]])) {
            if (at < STATUS_WORST_NAMED)
                plan->worst [at] = plan->worst [at - 1];
            at--;
        }
        if (at < STATUS_WORST_NAMED) {
            plan->worst [at] = h;
            if (plan->worst_named < STATUS_WORST_NAMED)
                plan->worst_named++;
        }
    }
}

void
status_plan_tally (status_plan_t *plan, const test_result_t *result,
                   const status_host_t *hosts, const size_t *stream_host, int64_t elapsed_ns)
{
    status_figures_t *figures = &plan->figures;
    memset (figures, 0, sizeof *figures);
    for (size_t h = 0; h < plan->host_count; h++)
        memset (&plan->host_tally [h], 0, sizeof plan->host_tally [h]);
    figures->elapsed_ns = elapsed_ns > 0? elapsed_ns: 0;
    figures->done = true;
    figures->pct = 100;
    figures->eta_s = 0;
    //  Whether a job of each kind has a rate yet.
    bool bytes_known = false, requests_known = false;
    double bytes_per_s = 0, requests_per_s = 0;
    for (size_t j = 0; j < plan->job_count; j++) {
        const status_job_t *job = &plan->jobs [j];
        s_job_tally_t tally = s_tally_job (plan, job, result, stream_host);
        if (job->counts_bytes && tally.rate_known) {
            bytes_per_s += tally.bytes_per_s;
            bytes_known = true;
        }
        if (job->counts_requests && job->bs_bytes > 0 && tally.rate_known) {
            requests_per_s += tally.bytes_per_s / job->bs_bytes;
            requests_known = true;
        }
        if (!tally.open)
            continue;
        figures->done = false;
        figures->ramp |= figures->elapsed_ns < job->ramp_ns;
        double share, eta_s;
        s_job_progress (job, &tally, figures->elapsed_ns, &share, &eta_s);
        if (isnan (share) || isnan (figures->pct) || 100 * share < figures->pct)
            figures->pct = isnan (share) || isnan (figures->pct)? NAN: 100 * share;
        if (isnan (eta_s) || isnan (figures->eta_s) || eta_s > figures->eta_s)
            figures->eta_s = isnan (eta_s) || isnan (figures->eta_s)? NAN: eta_s;
    }
    figures->mbps = plan->counts_bytes && (bytes_known || figures->done)? bytes_per_s / 1e6: NAN;
    figures->rps = plan->counts_requests && (requests_known || figures->done)? requests_per_s: NAN;
    s_tally_hosts (plan, hosts);
}
