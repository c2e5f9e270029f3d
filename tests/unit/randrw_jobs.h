/*  tests/unit/randrw_jobs.h: randrw jobs as the agent runs them, a job
    at a time (job_new: the job's streams share one file set), for the
    unit tests of the workload and of its engines.

    Included by one translation unit each: static, as streams.h.
*/
#ifndef IOFLEET_TEST_RANDRW_JOBS_H
#define IOFLEET_TEST_RANDRW_JOBS_H

#include "streams.h"

#include "../../agent/job.h"
#include "../../agent/ledger.h"

//  One job's run.
typedef struct {
    msg_result_t results [16];      //  by stream index
    size_t count;                   //  results taken
    int64_t start_at_ns;            //  the instant it was given
} jobs_run_t;

//  The scratch directory as the agent's one root.
static inline confine_t *
jobs_confine (const fixture_t *fx)
{
    confine_t *confine = confine_new ();
    assert_non_null (confine);
    char err [512];
    if (confine_add_root (confine, fx->dir, err, sizeof (err)))
        fail_msg ("root: %s", err);
    return confine;
}

//  A randrw job over `files` files totalling size_bytes, bs_bytes at a
//  time, set/f in the scratch root, with `streams` streams and requests
//  in all; sysbench's other defaults.
static inline jobspec_t
jobs_spec (uint64_t files, uint64_t size_bytes, uint64_t bs_bytes, uint64_t streams,
        uint64_t requests)
{
    jobspec_t spec = streams_spec (WORKLOAD_RANDRW, size_bytes, bs_bytes);
    strcpy (spec.name, "rr");
    strcpy (spec.path, "set/f");
    spec.files = files;
    spec.streams = streams;
    spec.requests = requests;
    return spec;
}

//  Accept the job and wait for its prepare; returns it, with the outcome
//  (1 ready, -1 failed) and the reason in err.
static inline job_t *
jobs_job (jobspec_t *spec, confine_t *confine, ledger_t *ledger, int *prepared,
       char *err, size_t errlen)
{
    job_t *job = job_new (1, 0, spec, confine, ledger, -1, err, errlen);
    if (!job)
        fail_msg ("job_new: %s", err);
    while ((*prepared = job_prepared (job, err, errlen)) == 0)
        usleep (1000);
    return job;
}

//  Accept a job that must prepare.
static inline job_t *
jobs_ready (jobspec_t *spec, confine_t *confine, ledger_t *ledger)
{
    char err [MSG_TEXT_MAX + 1];
    int prepared;
    job_t *job = jobs_job (spec, confine, ledger, &prepared, err, sizeof (err));
    if (prepared != 1)
        fail_msg ("prepare: %s", err);
    return job;
}

//  The test is over: the job goes, and the ledger forgets its claims.
static inline void
jobs_end (job_t **job_p, ledger_t *ledger)
{
    job_destroy (job_p);
    ledger_clear (ledger);
}

//  Start the job's one phase at start_at_ns and take every stream's
//  figures; fail the case on a stream's error.
static inline void
jobs_run (job_t *job, int64_t start_at_ns, jobs_run_t *run)
{
    memset (run, 0, sizeof (*run));
    run->start_at_ns = start_at_ns;
    job_start (job, 0, start_at_ns);
    int64_t deadline_ns = clock_now_ns () + 60 * NS_PER_SEC;
    msg_result_t *result = calloc (1, sizeof (msg_result_t));
    assert_non_null (result);
    while (run->count < job_stream_count (job)) {
        assert_true (clock_now_ns () < deadline_ns);
        if (!job_take_result (job, result)) {
            usleep (1000);
            continue;
        }
        if (result->error [0])
            fail_msg ("stream %u: %s", result->stream, result->error);
        assert_true (result->stream < 16);
        run->results [result->stream] = *result;
        run->count++;
    }
    free (result);
}

//  round (n r / (1 + r)) for r in millionths, halves up.
static inline uint64_t
jobs_reads_of (uint64_t requests, uint64_t ratio)
{
    uint64_t period = OPT_DECIMAL_ONE + ratio;
    return (uint64_t) (((unsigned __int128) requests * ratio + period / 2) / period);
}

//  Every figure of a stream's result agrees with the others: its bytes
//  are bs a request, and its histograms count what its counters count.
static inline void
jobs_check_counts (const msg_result_t *result, uint64_t bs_bytes)
{
    assert_int_equal (result->bytes, (result->reads + result->writes) * bs_bytes);
    assert_int_equal (histogram_count (&result->latency [MSG_LATENCY_READ]), result->reads);
    assert_int_equal (histogram_count (&result->latency [MSG_LATENCY_WRITE]), result->writes);
    assert_int_equal (histogram_count (&result->latency [MSG_LATENCY_FSYNC]), result->fsyncs);
    assert_true (result->end_ns >= result->last_write_ns);
    assert_true (result->last_write_ns >= result->start_ns);
}

//  Requests split exactly, reads in the ratio to the request, fsync
//  rounds of every file after every fsync_every requests of a stream and
//  a last one of every file the stream wrote, a latency for every
//  request: whatever the engine and its depth. 1000 requests over 3
//  streams (334, 333, 333), 4 files of 64K, fsync_every 50.
static inline void
jobs_requests_exact (const fixture_t *fx, int engine, uint32_t depth, bool direct)
{
    confine_t *confine = jobs_confine (fx);
    ledger_t *ledger = ledger_new (UINT64_MAX);
    jobspec_t spec = jobs_spec (4, 256 * KIB, 4 * KIB, 3, 1000);
    spec.fsync_every = 50;
    spec.engine = engine;
    spec.iodepth = depth;
    spec.direct = direct;
    job_t *job = jobs_ready (&spec, confine, ledger);
    assert_int_equal (job_laid_out_bytes (job), 256 * KIB);
    jobs_run_t run;
    jobs_run (job, clock_now_ns (), &run);
    uint64_t total = 0;
    for (uint32_t index = 0; index < 3; index++) {
        const msg_result_t *result = &run.results [index];
        uint64_t requests = result->reads + result->writes;
        assert_int_equal (requests, index == 0? 334: 333);
        assert_int_equal (result->reads, jobs_reads_of (requests, 1500000));
        //  Some 130 writes over 4 files: every file is written, so the
        //  last round is a whole one too.
        assert_int_equal (result->fsyncs, 4 * ((requests - 1) / 50) + 4);
        jobs_check_counts (result, 4 * KIB);
        //  Rounds of 50 requests fill any queue of up to 50.
        assert_int_equal (result->depth_max, depth);
        assert_true (result->busy_ns > 0);
        assert_int_equal (result->inflight_at_stop, 0);
        total += requests;
    }
    assert_int_equal (total, 1000);
    jobs_end (&job, ledger);
    ledger_destroy (&ledger);
    confine_destroy (&confine);
}

#endif
