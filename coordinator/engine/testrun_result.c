/*  coordinator/engine/testrun_result.c: the result a phase of a test goes
    into: laid out before it runs, its streams failed and its hosts
    excused as agents are lost; see testrun_state.h. */
#include "testrun_state.h"
#include "../numbers/latency_timeline.h"
#include "../../proto/array.h"

#include <stdlib.h>
#include <string.h>

//  The result of the phase under way.
test_result_t *
testrun_result (testrun_t *tr)
{
    return &tr->config.run->tests [tr->result_index];
}

//  Streams of a job that report figures of the test: none for a fill
//  (it works at PREPARE) or a monitor (its series is its figure).
uint64_t
testrun_timed_streams (const jobspec_t *spec)
{
    return workload_desc (spec->workload)->stream_results? spec->streams: 0;
}

//  True if session is one the test began with, and ready: an agent lost
//  and found again during the test is a new session, whose word on this
//  test no longer counts.
bool
testrun_current (testrun_t *tr, session_t *session)
{
    uint32_t generation = tr->generation [session_index (session)];
    return generation != 0 && generation == session_generation (session)
        && session_state (session) == SESSION_READY;
}

//  The host entry of a session in the phase's result, or NULL.
host_result_t *
testrun_host (testrun_t *tr, session_t *session)
{
    size_t h = tr->host_index [session_index (session)];
    return h == SIZE_MAX? NULL: &testrun_result (tr)->hosts [h];
}

//  Mark every unfinished stream of a job (or of all jobs of a session,
//  job_id < 0) as failed with a reason; lost when its agent is.
void
testrun_fail_streams (testrun_t *tr, session_t *session, int32_t job_id, const char *reason)
{
    //  Lost: it was in the test and is gone; an agent absent from the
    //  start is not.
    bool lost = tr->generation [session_index (session)] != 0 && !testrun_current (tr, session);
    test_result_t *result = testrun_result (tr);
    for (size_t j = tr->first_job [session_index (session)]; j != SIZE_MAX; j = tr->next_job [j]) {
        if (job_id >= 0 && (size_t) job_id != j)
            continue;
        for (uint64_t k = 0; k < testrun_timed_streams (tr->job_options [j]); k++) {
            stream_result_t *stream = &result->streams [tr->first_stream [j] + k];
            if (stream->finished || stream->error)
                continue;
            stream_result_set_error (stream, reason [0]? reason: "failed");
            stream->lost = lost;
            tr->streams_reported++;
        }
    }
    tr->failed = true;
}

//  A host lost or absent owes the phase no figures: nobody waits for them.
void
testrun_excuse_host (testrun_t *tr, session_t *session)
{
    tr->excused [session_index (session)] = true;
    host_result_t *host = testrun_host (tr, session);
    if (host && !host->received && !host->excused) {
        host->excused = true;
        tr->hosts_excused++;
    }
}

//  The name of the row of phase: the test's, or TEST/PHASE.
static void
s_row_name (testrun_t *tr, uint32_t phase, test_result_t *result)
{
    const char *phase_name = tr->desc? workload_phase_name (tr->desc, phase): NULL;
    msg_strcpy (result->test, tr->test->name, sizeof result->test);
    msg_strcpy (result->phase, phase_name? phase_name: "", sizeof result->phase);
    if (phase_name)
        snprintf (result->name, sizeof result->name, "%s/%s", tr->test->name, phase_name);
    else
        msg_strcpy (result->name, tr->test->name, sizeof result->name);
}

//  A new result for phase, appended to the run, with one stream entry per
//  stream of every reporting job, one series per monitor and one host
//  entry per agent that owes figures, named and classed before anything
//  happens, so that a phase that fails early still says what it would
//  have run. Returns 0, or -1 if memory ran out.
int
testrun_new_phase_result (testrun_t *tr, uint32_t phase)
{
    run_result_t *run = tr->config.run;
    if (array_grow (&run->tests, &run->test_capacity, run->test_count, sizeof *run->tests, 8))
        return -1;
    tr->result_index = run->test_count;
    tr->phase = phase;
    test_result_t *result = &run->tests [run->test_count];
    memset (result, 0, sizeof *result);
    s_row_name (tr, phase, result);
    result->phase_index = phase;
    result->iteration = tr->config.iteration;
    rate_kind_t rate = tr->desc? workload_phase_rate (tr->desc, phase): RATE_BYTES;
    //  Streams of another kind beside them (a write beside a randrw)
    //  make a mixed test: its rate is MB/s, and its streams of requests
    //  are counted in requests/s apart, never added to the bytes'.
    for (size_t j = 0; j < tr->test->job_count; j++) {
        const workload_desc_t *desc = workload_desc (tr->job_options [j]->workload);
        if (testrun_timed_streams (tr->job_options [j]) && desc->stream_results
        &&  workload_phase_rate (desc, phase) != rate)
            rate = RATE_BYTES;
    }
    result->rate_ops = rate != RATE_BYTES;
    result->rate_requests = rate == RATE_REQUESTS;
    msg_strcpy (result->workload, tr->desc? tr->desc->name: "", sizeof result->workload);
    bool reads = tr->desc && workload_phase_reads (tr->desc, phase);
    size_t jobs = tr->test->job_count;
    size_t streams = 0, monitors = 0;
    for (size_t j = 0; j < jobs; j++) {
        streams += testrun_timed_streams (tr->job_options [j]);
        monitors += workload_desc (tr->job_options [j]->workload)->samples_host;
    }
    result->streams = (stream_result_t *) calloc (streams? streams: 1, sizeof (stream_result_t));
    result->monitors = (monitor_result_t *) calloc (monitors? monitors: 1, sizeof (monitor_result_t));
    result->hosts = (host_result_t *) calloc (jobs, sizeof (host_result_t));
    run->test_count++;              //  from here run_result_clear frees what it holds
    if (!result->streams || !result->monitors || !result->hosts)
        return -1;
    result->stream_count = streams;

    size_t next = 0;
    for (size_t i = 0; i < tr->session_count; i++)
        tr->host_index [session_index (tr->sessions [i])] = SIZE_MAX;
    for (size_t j = 0; j < jobs; j++) {
        //  Whole, one job at a time: a stream's path may be its job's own.
        jobspec_t whole;
        scenario_job_spec (tr->job [j], &whole);
        const jobspec_t *spec = &whole;
        const workload_desc_t *desc = workload_desc (spec->workload);
        size_t index = session_index (tr->job_session [j]);
        tr->first_stream [j] = next;
        for (uint64_t k = 0; k < testrun_timed_streams (spec); k++, next++) {
            stream_result_t *stream = &result->streams [next];
            tr->stream_host [next] = tr->place [index];
            msg_strcpy (stream->agent, spec->agent, sizeof stream->agent);
            msg_strcpy (stream->job, spec->name, sizeof stream->job);
            stream->job_class = tr->job_class [j];
            stream->index = (uint32_t) k;
            stream->direct = spec->direct;
            stream->bs_bytes = spec->bs_bytes;
            stream->stop_ns = spec->runtime_ns;    //  0 on the timeline is the start
            stream->fsync_mode = spec->fsync_mode;
            stream->paced = spec->rate_bytes || spec->rate_iops;
            stream->reads_data = reads;
            stream->cold = spec->drop_caches;
            stream->ops_writes = desc->stream_results
                              && workload_phase_rate (desc, phase) == RATE_REQUESTS;
            if (k == 0 && desc->files [0].option && desc->files [0].naming == FILES_SET)
                stream->set_bytes = spec->size_bytes;
            if (desc->stream_results && !result->bound [0])
                msg_strcpy (result->bound, workload_bound_name (workload_bound (spec)),
                            sizeof result->bound);
            char path [JOB_PATH_MAX + 1] = "";
            if (desc->files [0].option
            &&  workload_file_path (spec, desc->files [0].naming == FILES_SHARED
                                          && desc->files [1].option? 1: 0,
                                    k, path, sizeof path) == 0
            &&  stream_result_set_path (stream, path))
                return -1;
        }
        if (desc->samples_host) {
            tr->job_monitor [j] = result->monitor_count;
            monitor_result_t *monitor = &result->monitors [result->monitor_count++];
            msg_strcpy (monitor->agent, spec->agent, sizeof monitor->agent);
            msg_strcpy (monitor->job, spec->name, sizeof monitor->job);
        }
        if (desc->host_figures && tr->host_index [index] == SIZE_MAX) {
            tr->host_index [index] = result->host_count;
            host_result_t *host = &result->hosts [result->host_count++];
            msg_strcpy (host->agent, spec->agent, sizeof host->agent);
            msg_strcpy (host->boot_id, session_info (tr->job_session [j])->boot_id,
                        sizeof host->boot_id);
        }
    }
    latency_timeline_builder_destroy (&tr->timeline);
    tr->timeline = latency_timeline_builder_new (result->host_count);
    if (!tr->timeline)
        return -1;
    if (phase == 0) {
        result->laid_out_bytes = tr->laid_out_bytes;
        result->laid_out_ns = tr->laid_out_ns;
    }
    //  A new phase starts counting again; an agent lost or absent
    //  before it has no part in it.
    tr->streams_reported = tr->hosts_reported = tr->hosts_excused = 0;
    tr->hosts_deadline_ns = 0;
    tr->stop_sent = false;
    for (size_t i = 0; phase > 0 && i < tr->session_count; i++)
        if (!testrun_current (tr, tr->sessions [i])) {
            const char *reason = session_reason (tr->sessions [i]);
            testrun_fail_streams (tr, tr->sessions [i], -1, reason [0]? reason: "agent lost");
            testrun_excuse_host (tr, tr->sessions [i]);
        }
    return 0;
}
