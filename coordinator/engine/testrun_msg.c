/*  coordinator/engine/testrun_msg.c: what agents say during a test, into
    the result of its phase (testrun_result.c); see testrun_state.h. */
#include "testrun_state.h"
#include "../numbers/latency.h"
#include "../numbers/latency_timeline.h"
#include "../../proto/clock.h"
#include "../../proto/printable.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

//  An agent whose streams run but which sent no sample for this many
//  sample intervals (and at least a lease) is broken, even if it answers
//  keepalives: a test must end when nothing moves.
#define TESTRUN_SILENT_INTERVALS 3

//  --------------------------------------------------------------------------
//  Small things

//  Agent time to the phase's timeline: coordinator clock, 0 = T0.
static int64_t
s_timeline (testrun_t *tr, session_t *session, int64_t agent_ns)
{
    if (agent_ns == 0)
        return 0;
    return clock_to_coordinator (agent_ns, session_offset_ns (session)) - tr->start_ns;
}

//  The job a message names, if it belongs to this test and comes from
//  the agent that runs it; its index, or -1.
static ssize_t
s_job (testrun_t *tr, session_t *session, uint32_t test_id, uint32_t job_id)
{
    if (test_id != tr->config.test_id || job_id >= tr->test->job_count
    ||  tr->job_session [job_id] != session)
        return -1;
    return (ssize_t) job_id;
}

//  The stream a SAMPLE or RESULT of phase names in the phase under way,
//  or NULL.
static stream_result_t *
s_stream (testrun_t *tr, session_t *session, uint32_t test_id, uint32_t job_id,
          uint32_t index, uint32_t phase)
{
    ssize_t j = s_job (tr, session, test_id, job_id);
    if (j < 0 || phase != tr->phase || index >= testrun_timed_streams (tr->job_options [j]))
        return NULL;
    return &testrun_result (tr)->streams [tr->first_stream [j] + index];
}

//  A job has its answer to PREPARE (or never will); count it once.
void
testrun_job_answered (testrun_t *tr, size_t job_id)
{
    if (!tr->job_answered [job_id]) {
        tr->job_answered [job_id] = true;
        tr->jobs_answered++;
    }
}

//  A DROP has its answer (or never will).
void
testrun_drop_answered (testrun_t *tr, session_t *session)
{
    size_t index = session_index (session);
    if (tr->drop_pending [index]) {
        tr->drop_pending [index] = false;
        tr->drops_pending--;
    }
}

//  --------------------------------------------------------------------------
//  What agents say

//  A host's latency over one interval of the phase: into its timeline.
static void
s_on_interval (testrun_t *tr, session_t *session, const msg_interval_t *interval)
{
    size_t h = tr->host_index [session_index (session)];
    char err [128];
    if (interval->test_id != tr->config.test_id || interval->phase != tr->phase
    ||  tr->stage < STAGE_RUNNING || h == SIZE_MAX
    ||  latency_timeline_builder_add (tr->timeline, h, interval->index, interval->length_ns,
                                      interval->latency, err, sizeof err))
        tr->dropped++;
}

//  A monitor's counters: one more point of its series.
static void
s_on_monitor (testrun_t *tr, session_t *session, const msg_monitor_t *sample)
{
    ssize_t j = s_job (tr, session, sample->test_id, sample->job_id);
    test_result_t *result = testrun_result (tr);
    monitor_result_t *monitor = j >= 0 && tr->job_monitor [j] != SIZE_MAX?
                                &result->monitors [tr->job_monitor [j]]: NULL;
    if (!monitor || tr->stage < STAGE_RUNNING) {
        tr->dropped++;
        return;
    }
    msg_monitor_t point = *sample;
    point.t_ns = s_timeline (tr, session, sample->t_ns);
    monitor_result_add_point (monitor, &point);
}

//  A HOST message: the agent's counters over the phase's window and the
//  settle period, its times mapped onto the phase's timeline.
static void
s_on_host (testrun_t *tr, session_t *session, const msg_host_t *counters)
{
    host_result_t *host = testrun_host (tr, session);
    if (counters->test_id != tr->config.test_id || counters->phase != tr->phase
    ||  !host || host->received || tr->stage < STAGE_RUNNING) {
        tr->dropped++;
        return;
    }
    host->received = true;
    host->counters = *counters;
    host->window_start_ns = s_timeline (tr, session, counters->window_start_ns);
    host->window_end_ns = s_timeline (tr, session, counters->window_end_ns);
    host->settle_end_ns = s_timeline (tr, session, counters->settle_end_ns);
    if (host->excused) {
        host->excused = false;
        tr->hosts_excused--;
    }
    tr->hosts_reported++;
}

//  A stream's figures of the phase.
static void
s_on_result (testrun_t *tr, session_t *session, const msg_result_t *result)
{
    ssize_t j = s_job (tr, session, result->test_id, result->job_id);
    //  A monitor's stream carries nothing: its series is its figure.
    if (j >= 0 && workload_desc (tr->job_options [j]->workload)->samples_host)
        return;
    stream_result_t *stream = s_stream (tr, session, result->test_id, result->job_id,
                                        result->stream, result->phase);
    if (!stream || stream->finished || tr->stage < STAGE_RUNNING) {
        tr->dropped++;
        return;
    }
    if (!stream->error)
        tr->streams_reported++;     //  not yet counted as failed
    stream->finished = true;
    stream->bytes = result->bytes;
    stream->reads = result->reads;
    stream->writes = result->writes;
    stream->fsyncs = result->fsyncs;
    stream->start_ns = s_timeline (tr, session, result->start_ns);
    stream->last_issue_ns = s_timeline (tr, session, result->last_issue_ns);
    stream->last_write_ns = s_timeline (tr, session, result->last_write_ns);
    stream->end_ns = s_timeline (tr, session, result->end_ns);
    stream->busy_ns = result->busy_ns;
    stream->depth_max = result->depth_max;
    stream->inflight_at_stop = result->inflight_at_stop;
    stream->usr_ns = result->usr_ns;
    stream->sys_ns = result->sys_ns;
    stream->clock_uncertainty_ns = session_uncertainty_ns (session);
    stream_result_set_error (stream, result->error);
    //  Out of memory for a few hundred bytes leaves the stream's latency
    //  unmeasured; its other figures stand.
    for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
        latency_store (&stream->latency [kind], &result->latency [kind]);
    //  Without memory for it, the path the plan gave stays.
    if (result->path [0])
        stream_result_set_path (stream, result->path);
    if (stream->error)
        tr->failed = true;
}

//  A job is READY: take the class its agent found (a source path on an
//  NFS mount is network, which only the agent can see), and show what a
//  fill or a read's layout did apart from the test's figures, since it
//  is not timed.
static void
s_on_ready (testrun_t *tr, session_t *session, const msg_ready_t *ready)
{
    const jobspec_t *spec = tr->job_options [ready->job_id];
    const char *name = tr->job [ready->job_id]->name;
    test_result_t *result = testrun_result (tr);
    if (spec->job_class == CLASS_AUTO
    &&  (ready->job_class == CLASS_DISK || ready->job_class == CLASS_NETWORK)) {
        tr->job_class [ready->job_id] = (int) ready->job_class;
        for (uint64_t k = 0; k < testrun_timed_streams (spec); k++)
            result->streams [tr->first_stream [ready->job_id] + k].job_class =
                (int) ready->job_class;
    }
    if (!workload_desc (spec->workload)->timed)
        fprintf (stderr, "iofleet: agent=%s test=%s job=%s event=fill bytes=%" PRIu64
                 " seconds=%.2f%s\n", session_name (session), tr->test->name, name,
                 ready->fill_bytes, (double) ready->fill_ns / NS_PER_SEC,
                 ready->fill_bytes? "": " reused=yes");
    else
    if (ready->fill_bytes) {
        fprintf (stderr, "iofleet: agent=%s test=%s job=%s event=layout bytes=%" PRIu64
                 " seconds=%.2f\n", session_name (session), tr->test->name, name,
                 ready->fill_bytes, (double) ready->fill_ns / NS_PER_SEC);
        tr->laid_out_bytes += ready->fill_bytes;
        if (ready->fill_ns > tr->laid_out_ns)
            tr->laid_out_ns = ready->fill_ns;
        result->laid_out_bytes = tr->laid_out_bytes;
        result->laid_out_ns = tr->laid_out_ns;
    }
}

//  An ERROR from an agent: its job (or its drop) failed; the test is
//  aborted if it had not started, else the streams concerned fail.
static void
s_on_error (testrun_t *tr, session_t *session, const msg_error_t *error)
{
    char reason [MSG_TEXT_MAX + 1];
    snprintf (reason, sizeof reason, "%s: %s", error->code, error->text);
    char shown [sizeof reason * PRINTABLE_GROWTH];
    fprintf (stderr, "iofleet: agent=%s test=%s error=\"%s\"\n", session_name (session),
             tr->test->name, printable (reason, shown, sizeof shown));
    if (error->test_id != tr->config.test_id)
        return;
    if (tr->stage == STAGE_PREPARING && error->job_id >= 0
    &&  s_job (tr, session, error->test_id, (uint32_t) error->job_id) >= 0) {
        testrun_job_answered (tr, (size_t) error->job_id);
        tr->prepare_failed = true;
    }
    if (tr->stage == STAGE_DROPPING && error->job_id < 0) {
        testrun_drop_answered (tr, session);
        tr->prepare_failed = true;
    }
    testrun_fail_streams (tr, session, error->job_id, reason);
}

//  Once every stream of the phase has reported, the phase is over
//  everywhere: every agent of the test hears it (one without streams of
//  its own closes its window; after the last phase, monitors end).
void
testrun_stop_phase (testrun_t *tr)
{
    if (tr->stop_sent || tr->stage != STAGE_RUNNING
    ||  tr->streams_reported < testrun_result (tr)->stream_count)
        return;
    msg_t stop = { .type = MSG_STOP };
    stop.u.stop.test_id = tr->config.test_id;
    stop.u.stop.phase = tr->phase;
    for (size_t i = 0; i < tr->session_count; i++)
        if (testrun_current (tr, tr->sessions [i]))
            session_send (tr->sessions [i], &stop);
    tr->stop_sent = true;
}

//  Everything an agent says during a test.
int
testrun_on_message (session_t *session, const msg_t *msg, int64_t received_ns, void *arg)
{
    testrun_t *tr = (testrun_t *) arg;
    //  A lost agent's streams are reported lost; what it says if it comes
    //  back to life within the test must not make them look whole again.
    if (!testrun_current (tr, session)) {
        tr->dropped++;
        return 0;
    }
    if (msg->type != MSG_ERROR)
        tr->progress_ns [session_index (session)] = received_ns;
    switch (msg->type) {
        case MSG_READY:
            if (tr->stage == STAGE_PREPARING
            &&  s_job (tr, session, msg->u.ready.test_id, msg->u.ready.job_id) >= 0) {
                s_on_ready (tr, session, &msg->u.ready);
                testrun_job_answered (tr, msg->u.ready.job_id);
            }
            break;
        case MSG_DROPPED:
            if (tr->stage == STAGE_DROPPING && msg->u.dropped.test_id == tr->config.test_id)
                testrun_drop_answered (tr, session);
            break;
        case MSG_ERROR:
            s_on_error (tr, session, &msg->u.error);
            break;
        case MSG_SAMPLE: {
            const msg_sample_t *sample = &msg->u.sample;
            stream_result_t *stream = s_stream (tr, session, sample->test_id, sample->job_id,
                                                sample->stream, sample->phase);
            if (stream && tr->stage >= STAGE_RUNNING)
                stream_result_add_sample (stream, s_timeline (tr, session, sample->t_ns),
                                          sample->bytes);
            else
                tr->dropped++;
            break;
        }
        case MSG_RESULT:
            s_on_result (tr, session, &msg->u.result);
            break;
        case MSG_HOST:
            s_on_host (tr, session, &msg->u.host);
            break;
        case MSG_MONITOR:
            s_on_monitor (tr, session, &msg->u.monitor);
            break;
        case MSG_INTERVAL:
            s_on_interval (tr, session, &msg->u.interval);
            break;
        default:
            break;                  //  late welcomes and the like
    }
    testrun_stop_phase (tr);
    return 0;
}

//  The fleet gave a session up (silent past the lease, restarted, its
//  session gone, or no progress): if the test holds it, its streams are
//  lost, the others go on. Should it wake up, ABORT stops it instead of
//  letting it write on.
void
testrun_on_lost (session_t *session, const char *reason, void *arg)
{
    testrun_t *tr = (testrun_t *) arg;
    fprintf (stderr, "iofleet: agent=%s event=lost test=%s reason=\"%s\"\n",
             session_name (session), tr->test->name, reason);
    uint32_t generation = tr->generation [session_index (session)];
    if (generation == 0 || generation != session_generation (session))
        return;                     //  not in the test: its next test says hello again
    msg_t abort = { .type = MSG_ABORT };
    abort.u.abort.test_id = tr->config.test_id;
    msg_strcpy (abort.u.abort.reason, "the coordinator gave this agent up as lost",
                sizeof abort.u.abort.reason);
    session_send (session, &abort);
    if (tr->stage == STAGE_PREPARING) {
        for (size_t j = tr->first_job [session_index (session)]; j != SIZE_MAX; j = tr->next_job [j])
            testrun_job_answered (tr, j);
        tr->prepare_failed = true;
    }
    if (tr->stage == STAGE_DROPPING) {
        testrun_drop_answered (tr, session);
        tr->prepare_failed = true;
    }
    testrun_fail_streams (tr, session, -1, reason);
    testrun_excuse_host (tr, session);
    tr->lost = true;
    testrun_stop_phase (tr);
}

//  While the streams run, every agent sends a sample of each running
//  stream every interval. One whose streams are unfinished, which still
//  answers keepalives, and which sent nothing for a lease and
//  TESTRUN_SILENT_INTERVALS of its longest interval does not run the
//  test: it is lost, so that no test waits for ever. (One that fell
//  silent altogether is the fleet's to lose, when its lease runs out.)
void
testrun_watch_progress (testrun_t *tr, int64_t now_ns)
{
    //  Time the console did not listen is no agent's silence.
    int64_t away_ns = fleet_away_ns (tr->config.fleet);
    if (away_ns > tr->away_ns) {
        for (size_t i = 0; i < fleet_size (tr->config.fleet); i++)
            if (tr->progress_ns [i])
                tr->progress_ns [i] += away_ns - tr->away_ns;
        tr->away_ns = away_ns;
    }
    if (tr->stage != STAGE_RUNNING || now_ns < tr->start_ns)
        return;
    int64_t lease_ns = tr->config.scenario->options.lease_ns;
    test_result_t *result = testrun_result (tr);
    for (size_t j = 0; j < tr->test->job_count; j++) {
        session_t *session = tr->job_session [j];
        const jobspec_t *spec = tr->job_options [j];
        bool open = false;
        for (uint64_t k = 0; k < testrun_timed_streams (spec) && !open; k++) {
            stream_result_t *stream = &result->streams [tr->first_stream [j] + k];
            open = !stream->finished && !stream->error;
        }
        if (!open)
            continue;
        if (!testrun_current (tr, session)) {
            //  Gone without a word to the lost handler: its streams
            //  will never report.
            const char *reason = session_reason (session);
            testrun_fail_streams (tr, session, (int32_t) j,
                            reason [0]? reason: "agent lost: its session ended");
            testrun_excuse_host (tr, session);
            tr->lost = true;
            continue;
        }
        if (now_ns - session_last_heard_ns (session) > lease_ns / 2)
            continue;
        int64_t silent_ns = lease_ns + TESTRUN_SILENT_INTERVALS * spec->interval_ns;
        int64_t last_ns = tr->progress_ns [session_index (session)];
        if (last_ns < tr->start_ns)
            last_ns = tr->start_ns;
        if (now_ns - last_ns <= silent_ns)
            continue;
        char reason [MSG_TEXT_MAX + 1];
        snprintf (reason, sizeof reason, "agent lost: %s answers keepalives, but its "
                  "streams sent no sample for %.1f s", session_endpoint (session),
                  (double) (now_ns - last_ns) / NS_PER_SEC);
        fleet_declare_lost (tr->config.fleet, session, reason);
    }
}
