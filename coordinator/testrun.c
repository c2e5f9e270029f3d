/*  coordinator/testrun.c: one iteration of one test; see testrun.h. */
#include "testrun.h"
#include "aggregate.h"
#include "status.h"
#include "../proto/clock.h"
#include "../proto/printable.h"
#include "../proto/workload.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

//  How often the console status is redrawn and the streams' progress is
//  looked at. Keepalives and the lease are the fleet's (fleet.h).
#define TESTRUN_TICK_NS         (500 * NS_PER_MSEC)
//  An agent whose streams run but which sent no sample for this many
//  sample intervals (and at least a lease) is broken, even if it answers
//  keepalives: a test must end when nothing moves.
#define TESTRUN_SILENT_INTERVALS 3
//  After an abort, how long the agents get to report what they did.
#define TESTRUN_ABORT_GRACE_NS  (5 * NS_PER_SEC)
//  How long past its settle bound an agent's HOST figures are awaited.
#define TESTRUN_HOST_GRACE_NS   (3 * NS_PER_SEC)

//  Where the test stands.
typedef enum {
    STAGE_PREPARING,                //  PREPAREs sent, waiting for READY
    STAGE_DROPPING,                 //  DROPs sent, waiting for DROPPED
    STAGE_RUNNING,                  //  a phase's START sent, collecting
    STAGE_ABORTING                  //  ABORT sent, collecting what is left
} stage_t;

typedef struct {
    testrun_config_t config;        //  what to run and where results go
    const scenario_test_t *test;    //  its jobs
    stage_t stage;                  //  where it stands
    const workload_desc_t *desc;    //  the workload of its reporting jobs (phases), or NULL
    uint32_t phase_count;           //  its phases, at least 1
    uint32_t phase;                 //  the phase under way
    size_t result_index;            //  its result in config.run->tests
    //  Per job:
    const jobspec_t **job_spec;     //  its options
    session_t **job_session;        //  the agent running it
    size_t *first_stream;           //  index of its stream 0 in a phase result's streams
    int *job_class;                 //  its class, as its READY corrected it
    bool *job_answered;             //  READY or ERROR received, or agent lost
    size_t jobs_answered;           //  how many of those
    size_t jobs_sent;               //  PREPAREs sent so far (fills go first)
    bool prepare_failed;            //  an agent could not prepare a job, or drop its cache
    uint64_t laid_out_bytes;        //  what the jobs' READYs say they laid out
    int64_t laid_out_ns;            //  the longest time it took an agent
    //  Per session of the test, each once:
    session_t **sessions;           //  the test's agents
    size_t session_count;           //  how many
    //  Per fleet session (session_index):
    uint32_t *generation;           //  the generation the test began with, 0 if not in it
    int64_t *progress_ns;           //  when it last sent test figures
    bool *excused;                  //  lost or absent: owes no HOST
    bool *drop_pending;             //  DROP sent, no answer yet
    size_t drops_pending;           //  how many of those
    //  The phase under way:
    size_t streams_reported;        //  RESULT received or given up
    size_t hosts_reported;          //  HOST received
    size_t hosts_excused;           //  hosts that owe nothing
    int64_t start_ns;               //  T0, coordinator clock
    int64_t hosts_deadline_ns;      //  when waiting for HOST stops, 0 before
    bool stop_sent;                 //  STOP went out
    int64_t settle_ns;              //  longest settle period of the test's jobs
    double planned_bytes;           //  what its reporting streams are to move per phase
    uint64_t dropped;               //  messages that did not fit the test
    bool lost;                      //  an agent was lost or absent
    bool failed;                    //  a stream failed or an agent was lost
} testrun_t;

//  --------------------------------------------------------------------------
//  Small things

//  The result of the phase under way.
static test_result_t *
s_result (testrun_t *tr)
{
    return &tr->config.run->tests [tr->result_index];
}

//  True if session is one the test began with, and ready: an agent lost
//  and found again during the test is a new session, whose word on this
//  test no longer counts.
static bool
s_current (testrun_t *tr, session_t *session)
{
    uint32_t generation = tr->generation [session_index (session)];
    return generation != 0 && generation == session_generation (session)
        && session_state (session) == SESSION_READY;
}

//  Streams of a job that report figures of the test: none for a fill
//  (it works at PREPARE) or a monitor (its series is its figure).
static uint64_t
s_timed_streams (const jobspec_t *spec)
{
    return workload_desc (spec->workload)->stream_results? spec->streams: 0;
}

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
    if (j < 0 || phase != tr->phase || index >= s_timed_streams (tr->job_spec [j]))
        return NULL;
    return &s_result (tr)->streams [tr->first_stream [j] + index];
}

//  The host entry of a session in the phase's result, or NULL.
static host_result_t *
s_host (testrun_t *tr, session_t *session)
{
    test_result_t *result = s_result (tr);
    for (size_t h = 0; h < result->host_count; h++)
        if (streq (result->hosts [h].agent, session_name (session)))
            return &result->hosts [h];
    return NULL;
}

//  Mark every unfinished stream of a job (or of all jobs of a session,
//  job_id < 0) as failed with a reason; lost when its agent is.
static void
s_fail_streams (testrun_t *tr, session_t *session, int32_t job_id, const char *reason)
{
    //  Lost: it was in the test and is gone; an agent absent from the
    //  start is not.
    bool lost = tr->generation [session_index (session)] != 0 && !s_current (tr, session);
    test_result_t *result = s_result (tr);
    for (size_t j = 0; j < tr->test->job_count; j++) {
        if (tr->job_session [j] != session || (job_id >= 0 && (size_t) job_id != j))
            continue;
        for (uint64_t k = 0; k < s_timed_streams (tr->job_spec [j]); k++) {
            stream_result_t *stream = &result->streams [tr->first_stream [j] + k];
            if (stream->finished || stream->error [0])
                continue;
            msg_strcpy (stream->error, reason [0]? reason: "failed", sizeof stream->error);
            stream->lost = lost;
            tr->streams_reported++;
        }
    }
    tr->failed = true;
}

//  A host lost or absent owes the phase no figures: nobody waits for them.
static void
s_excuse_host (testrun_t *tr, session_t *session)
{
    tr->excused [session_index (session)] = true;
    host_result_t *host = s_host (tr, session);
    if (host && !host->received && !host->excused) {
        host->excused = true;
        tr->hosts_excused++;
    }
}

//  A job has its answer to PREPARE (or never will); count it once.
static void
s_job_answered (testrun_t *tr, size_t job_id)
{
    if (!tr->job_answered [job_id]) {
        tr->job_answered [job_id] = true;
        tr->jobs_answered++;
    }
}

//  A DROP has its answer (or never will).
static void
s_drop_answered (testrun_t *tr, session_t *session)
{
    size_t index = session_index (session);
    if (tr->drop_pending [index]) {
        tr->drop_pending [index] = false;
        tr->drops_pending--;
    }
}

//  --------------------------------------------------------------------------
//  The results of a phase

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
static int
s_new_phase_result (testrun_t *tr, uint32_t phase)
{
    run_result_t *run = tr->config.run;
    if (run->test_count == run->test_capacity) {
        size_t capacity = run->test_capacity? run->test_capacity * 2: 8;
        test_result_t *tests = realloc (run->tests, capacity * sizeof *tests);
        if (!tests)
            return -1;
        run->tests = tests;
        run->test_capacity = capacity;
    }
    tr->result_index = run->test_count;
    tr->phase = phase;
    test_result_t *result = &run->tests [run->test_count];
    memset (result, 0, sizeof *result);
    s_row_name (tr, phase, result);
    result->phase_index = phase;
    result->iteration = tr->config.iteration;
    result->rate_ops = tr->desc && workload_phase_rate (tr->desc, phase) == RATE_OPS;
    bool reads = tr->desc && workload_phase_reads (tr->desc, phase);
    size_t jobs = tr->test->job_count;
    size_t streams = 0;
    for (size_t j = 0; j < jobs; j++)
        streams += s_timed_streams (tr->job_spec [j]);
    result->streams = (stream_result_t *) calloc (streams? streams: 1, sizeof (stream_result_t));
    result->monitors = (monitor_result_t *) calloc (jobs, sizeof (monitor_result_t));
    result->hosts = (host_result_t *) calloc (jobs, sizeof (host_result_t));
    run->test_count++;              //  from here run_result_clear frees what it holds
    if (!result->streams || !result->monitors || !result->hosts)
        return -1;
    result->stream_count = streams;

    size_t next = 0;
    for (size_t j = 0; j < jobs; j++) {
        const jobspec_t *spec = tr->job_spec [j];
        const workload_desc_t *desc = workload_desc (spec->workload);
        tr->first_stream [j] = next;
        for (uint64_t k = 0; k < s_timed_streams (spec); k++, next++) {
            stream_result_t *stream = &result->streams [next];
            msg_strcpy (stream->agent, spec->agent, sizeof stream->agent);
            msg_strcpy (stream->job, spec->name, sizeof stream->job);
            stream->job_class = tr->job_class [j];
            stream->index = (uint32_t) k;
            stream->direct = spec->direct;
            stream->fsync_mode = spec->fsync_mode;
            stream->reads_data = reads;
            if (desc->files [0].option)
                workload_file_path (spec, desc->files [0].naming == FILES_SHARED
                                          && desc->files [1].option? 1: 0,
                                    k, stream->path, sizeof stream->path);
        }
        if (desc->samples_host) {
            monitor_result_t *monitor = &result->monitors [result->monitor_count++];
            msg_strcpy (monitor->agent, spec->agent, sizeof monitor->agent);
            msg_strcpy (monitor->job, spec->name, sizeof monitor->job);
        }
        if (desc->host_figures) {
            size_t h = 0;
            while (h < result->host_count && !streq (result->hosts [h].agent, spec->agent))
                h++;
            if (h == result->host_count)
                msg_strcpy (result->hosts [result->host_count++].agent, spec->agent,
                            sizeof result->hosts [h].agent);
        }
    }
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
        if (!s_current (tr, tr->sessions [i])) {
            const char *reason = session_reason (tr->sessions [i]);
            s_fail_streams (tr, tr->sessions [i], -1, reason [0]? reason: "agent lost");
            s_excuse_host (tr, tr->sessions [i]);
        }
    return 0;
}

//  --------------------------------------------------------------------------
//  What agents say

//  A monitor's counters: one more point of its series.
static void
s_on_monitor (testrun_t *tr, session_t *session, const msg_monitor_t *sample)
{
    ssize_t j = s_job (tr, session, sample->test_id, sample->job_id);
    test_result_t *result = s_result (tr);
    monitor_result_t *monitor = NULL;
    for (size_t m = 0; j >= 0 && m < result->monitor_count; m++)
        if (streq (result->monitors [m].job, tr->job_spec [j]->name))
            monitor = &result->monitors [m];
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
    host_result_t *host = s_host (tr, session);
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
    if (j >= 0 && workload_desc (tr->job_spec [j]->workload)->samples_host)
        return;
    stream_result_t *stream = s_stream (tr, session, result->test_id, result->job_id,
                                        result->stream, result->phase);
    if (!stream || stream->finished || tr->stage < STAGE_RUNNING) {
        tr->dropped++;
        return;
    }
    if (!stream->error [0])
        tr->streams_reported++;     //  not yet counted as failed
    stream->finished = true;
    stream->bytes = result->bytes;
    stream->reads = result->reads;
    stream->writes = result->writes;
    stream->fsyncs = result->fsyncs;
    stream->start_ns = s_timeline (tr, session, result->start_ns);
    stream->last_write_ns = s_timeline (tr, session, result->last_write_ns);
    stream->end_ns = s_timeline (tr, session, result->end_ns);
    stream->usr_ns = result->usr_ns;
    stream->sys_ns = result->sys_ns;
    stream->clock_uncertainty_ns = session_uncertainty_ns (session);
    msg_strcpy (stream->error, result->error, sizeof stream->error);
    if (result->path [0])
        msg_strcpy (stream->path, result->path, sizeof stream->path);
    if (stream->error [0])
        tr->failed = true;
}

//  A job is READY: take the class its agent found (a source path on an
//  NFS mount is network, which only the agent can see), and show what a
//  fill or a read's layout did apart from the test's figures, since it
//  is not timed.
static void
s_on_ready (testrun_t *tr, session_t *session, const msg_ready_t *ready)
{
    const jobspec_t *spec = tr->job_spec [ready->job_id];
    test_result_t *result = s_result (tr);
    if (spec->job_class == CLASS_AUTO
    &&  (ready->job_class == CLASS_DISK || ready->job_class == CLASS_NETWORK)) {
        tr->job_class [ready->job_id] = (int) ready->job_class;
        for (uint64_t k = 0; k < s_timed_streams (spec); k++)
            result->streams [tr->first_stream [ready->job_id] + k].job_class =
                (int) ready->job_class;
    }
    if (!workload_desc (spec->workload)->timed)
        fprintf (stderr, "iofleet: agent=%s test=%s job=%s event=fill bytes=%" PRIu64
                 " seconds=%.2f%s\n", session_name (session), tr->test->name, spec->name,
                 ready->fill_bytes, (double) ready->fill_ns / NS_PER_SEC,
                 ready->fill_bytes? "": " reused=yes");
    else
    if (ready->fill_bytes) {
        fprintf (stderr, "iofleet: agent=%s test=%s job=%s event=layout bytes=%" PRIu64
                 " seconds=%.2f\n", session_name (session), tr->test->name, spec->name,
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
        s_job_answered (tr, (size_t) error->job_id);
        tr->prepare_failed = true;
    }
    if (tr->stage == STAGE_DROPPING && error->job_id < 0) {
        s_drop_answered (tr, session);
        tr->prepare_failed = true;
    }
    s_fail_streams (tr, session, error->job_id, reason);
}

//  Once every stream of the phase has reported, the phase is over
//  everywhere: every agent of the test hears it (one without streams of
//  its own closes its window; after the last phase, monitors end).
static void
s_stop_phase (testrun_t *tr)
{
    if (tr->stop_sent || tr->stage != STAGE_RUNNING
    ||  tr->streams_reported < s_result (tr)->stream_count)
        return;
    msg_t stop = { .type = MSG_STOP };
    stop.u.stop.test_id = tr->config.test_id;
    stop.u.stop.phase = tr->phase;
    for (size_t i = 0; i < tr->session_count; i++)
        if (s_current (tr, tr->sessions [i]))
            session_send (tr->sessions [i], &stop);
    tr->stop_sent = true;
}

//  Everything an agent says during a test.
static int
s_on_message (session_t *session, const msg_t *msg, int64_t received_ns, void *arg)
{
    testrun_t *tr = (testrun_t *) arg;
    //  A lost agent's streams are reported lost; what it says if it comes
    //  back to life within the test must not make them look whole again.
    if (!s_current (tr, session)) {
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
                s_job_answered (tr, msg->u.ready.job_id);
            }
            break;
        case MSG_DROPPED:
            if (tr->stage == STAGE_DROPPING && msg->u.dropped.test_id == tr->config.test_id)
                s_drop_answered (tr, session);
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
        default:
            break;                  //  late welcomes and the like
    }
    s_stop_phase (tr);
    return 0;
}

//  The fleet gave a session up (silent past the lease, restarted, its
//  session gone, or no progress): if the test holds it, its streams are
//  lost, the others go on. Should it wake up, ABORT stops it instead of
//  letting it write on.
static void
s_on_lost (session_t *session, const char *reason, void *arg)
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
        for (size_t j = 0; j < tr->test->job_count; j++)
            if (tr->job_session [j] == session)
                s_job_answered (tr, j);
        tr->prepare_failed = true;
    }
    if (tr->stage == STAGE_DROPPING) {
        s_drop_answered (tr, session);
        tr->prepare_failed = true;
    }
    s_fail_streams (tr, session, -1, reason);
    s_excuse_host (tr, session);
    tr->lost = true;
    s_stop_phase (tr);
}

//  While the streams run, every agent sends a sample of each running
//  stream every interval. One whose streams are unfinished, which still
//  answers keepalives, and which sent nothing for a lease and
//  TESTRUN_SILENT_INTERVALS of its longest interval does not run the
//  test: it is lost, so that no test waits for ever. (One that fell
//  silent altogether is the fleet's to lose, when its lease runs out.)
static void
s_watch_progress (testrun_t *tr, int64_t now_ns)
{
    if (tr->stage != STAGE_RUNNING || now_ns < tr->start_ns)
        return;
    int64_t lease_ns = tr->config.scenario->options.lease_ns;
    test_result_t *result = s_result (tr);
    for (size_t j = 0; j < tr->test->job_count; j++) {
        session_t *session = tr->job_session [j];
        const jobspec_t *spec = tr->job_spec [j];
        bool open = false;
        for (uint64_t k = 0; k < s_timed_streams (spec) && !open; k++) {
            stream_result_t *stream = &result->streams [tr->first_stream [j] + k];
            open = !stream->finished && !stream->error [0];
        }
        if (!open)
            continue;
        if (!s_current (tr, session)) {
            //  Gone without a word to the lost handler: its streams
            //  will never report.
            const char *reason = session_reason (session);
            s_fail_streams (tr, session, (int32_t) j,
                            reason [0]? reason: "agent lost: its session ended");
            s_excuse_host (tr, session);
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

//  --------------------------------------------------------------------------
//  Waiting

//  Poll until done() says so, the deadline passes or the run is
//  interrupted, keeping the status fresh and the streams watched. The
//  fleet keeps every agent's lease alive meanwhile, the test's and the
//  others'. Returns 0, or -1 past the deadline or when interrupted.
static int
s_collect (testrun_t *tr, bool (*done) (testrun_t *), int64_t deadline_ns)
{
    int64_t next_tick_ns = clock_now_ns () + TESTRUN_TICK_NS;
    while (!done (tr)) {
        int64_t now_ns = clock_now_ns ();
        if (deadline_ns && now_ns >= deadline_ns)
            return -1;
        if (now_ns >= next_tick_ns) {
            s_watch_progress (tr, now_ns);
            if (tr->stage == STAGE_RUNNING)
                status_show (tr->config.console, s_result (tr), tr->sessions, tr->session_count,
                             tr->generation, tr->start_ns, tr->planned_bytes);
            next_tick_ns = now_ns + TESTRUN_TICK_NS;
        }
        int64_t wake_ns = next_tick_ns;
        if (deadline_ns && deadline_ns < wake_ns)
            wake_ns = deadline_ns;
        if (fleet_poll (tr->config.fleet, wake_ns, s_on_message, tr))
            return -1;              //  interrupted
    }
    return 0;
}

static bool
s_all_answered (testrun_t *tr)
{
    return tr->jobs_answered >= tr->jobs_sent;
}

static bool
s_all_dropped (testrun_t *tr)
{
    return tr->drops_pending == 0;
}

//  Every stream of the phase has reported, and every host has sent its
//  figures or will not in time: an agent whose settle period outlasts
//  its bound by a few seconds, or that could not read /proc, leaves its
//  host unmeasured rather than holding the run.
static bool
s_all_reported (testrun_t *tr)
{
    if (tr->lost && tr->stage == STAGE_RUNNING
    &&  tr->config.scenario->options.on_lost == ON_LOST_ABORT)
        return true;
    test_result_t *result = s_result (tr);
    if (tr->streams_reported < result->stream_count)
        return false;
    if (tr->stage != STAGE_RUNNING
    ||  tr->hosts_reported + tr->hosts_excused >= result->host_count)
        return true;
    int64_t now_ns = clock_now_ns ();
    if (!tr->hosts_deadline_ns)
        tr->hosts_deadline_ns = now_ns + tr->settle_ns + TESTRUN_HOST_GRACE_NS;
    return now_ns >= tr->hosts_deadline_ns;
}

//  Stop the test on every agent and give them a moment to report.
static void
s_abort (testrun_t *tr, const char *reason)
{
    msg_t abort = { .type = MSG_ABORT };
    abort.u.abort.test_id = tr->config.test_id;
    msg_strcpy (abort.u.abort.reason, reason, sizeof abort.u.abort.reason);
    for (size_t i = 0; i < tr->session_count; i++)
        if (s_current (tr, tr->sessions [i]))
            session_send (tr->sessions [i], &abort);
    if (tr->stage != STAGE_RUNNING)
        return;                     //  nothing started: nothing to report
    tr->stage = STAGE_ABORTING;
    fleet_set_draining (tr->config.fleet, true);
    s_collect (tr, s_all_reported, clock_now_ns () + TESTRUN_ABORT_GRACE_NS);
    fleet_set_draining (tr->config.fleet, false);
    for (size_t i = 0; i < tr->session_count; i++)
        s_fail_streams (tr, tr->sessions [i], -1, reason);
}

//  Aggregate the phase's result and hand it to the run.
static void
s_record (testrun_t *tr)
{
    console_clear (tr->config.console);
    test_result_t *result = s_result (tr);
    if (tr->dropped)
        fprintf (stderr, "iofleet: test=%s event=dropped messages=%" PRIu64 "\n",
                 result->name, tr->dropped);
    tr->dropped = 0;
    aggregate_test (result);
    tr->config.recorded (tr->config.recorded_arg, result);
}

//  --------------------------------------------------------------------------
//  The stages

//  Agents lost earlier get another hello (the fleet sent one when it lost
//  them; this waits for its answer, or sends one if that failed): one
//  restarted, or woken up, takes part again. Those that still do not
//  answer are absent: the test runs without them and is partial. Every
//  other session is kept alive meanwhile.
static void
s_hello (testrun_t *tr)
{
    fleet_hello (tr->config.fleet, tr->sessions, tr->session_count, false,
                 tr->config.scenario->options.connect_timeout_ns, NULL, NULL);
    for (size_t i = 0; i < tr->session_count; i++) {
        session_t *session = tr->sessions [i];
        if (session_state (session) == SESSION_READY) {
            tr->generation [session_index (session)] = session_generation (session);
            continue;
        }
        fprintf (stderr, "iofleet: agent=%s test=%s event=absent reason=\"%s\"\n",
                 session_name (session), tr->test->name, session_reason (session));
        s_fail_streams (tr, session, -1, session_reason (session));
        s_excuse_host (tr, session);
        tr->lost = true;
    }
}

//  Prepare in two waves. Fills first: a copy measures its source when it
//  prepares, so the sources must be complete by then. Then every other
//  job at once; agents prepare in parallel. Returns 0, or -1 if
//  interrupted.
static int
s_prepare (testrun_t *tr)
{
    tr->stage = STAGE_PREPARING;
    for (int wave = 0; wave < 2 && !tr->prepare_failed; wave++) {
        for (size_t j = 0; j < tr->test->job_count; j++) {
            bool untimed = !workload_desc (tr->job_spec [j]->workload)->timed;
            if (untimed != (wave == 0))
                continue;
            msg_t prepare = { .type = MSG_PREPARE };
            prepare.u.prepare.test_id = tr->config.test_id;
            prepare.u.prepare.job_id = (uint32_t) j;
            prepare.u.prepare.spec = *tr->job_spec [j];
            tr->jobs_sent++;
            if (s_current (tr, tr->job_session [j]))
                session_send (tr->job_session [j], &prepare);
            else
                s_job_answered (tr, j);
        }
        if (s_collect (tr, s_all_answered, 0))
            return -1;
    }
    return 0;
}

//  Every agent with a job that asks for cold caches writes its page
//  cache back and drops it, once every job of the test is prepared (its
//  files laid out). Returns 0, or -1 if interrupted.
static int
s_drop_caches (testrun_t *tr)
{
    tr->stage = STAGE_DROPPING;
    msg_t drop = { .type = MSG_DROP };
    drop.u.drop.test_id = tr->config.test_id;
    for (size_t j = 0; j < tr->test->job_count; j++) {
        session_t *session = tr->job_session [j];
        size_t index = session_index (session);
        if (!tr->job_spec [j]->drop_caches || tr->drop_pending [index] || !s_current (tr, session))
            continue;
        tr->drop_pending [index] = true;
        tr->drops_pending++;
        session_send (session, &drop);
    }
    return s_collect (tr, s_all_dropped, 0);
}

//  Run one phase: measure clocks, START every agent at one instant,
//  collect until every stream and host reported. Returns 0, or -1 if
//  interrupted.
static int
s_run_phase (testrun_t *tr, uint32_t phase)
{
    //  Measure clocks just before the start, so that the offsets are as
    //  fresh as they can be; then pick T0 far enough ahead that START
    //  reaches the slowest agent in time.
    const scenario_options_t *options = &tr->config.scenario->options;
    fleet_sync_clocks (tr->config.fleet, options->clock_pings, options->connect_timeout_ns,
                       s_on_message, tr);
    if (fleet_interrupted ())
        return -1;
    for (size_t i = 0; i < tr->config.run->agent_count; i++)
        tr->config.run->agents [i] = *session_info (fleet_session (tr->config.fleet, i));
    int64_t lead_ns = options->lead_ns;
    for (size_t i = 0; i < tr->session_count; i++)
        if (4 * session_info (tr->sessions [i])->clock_rtt_ns > lead_ns)
            lead_ns = 4 * session_info (tr->sessions [i])->clock_rtt_ns;
    tr->start_ns = clock_now_ns () + lead_ns;
    s_result (tr)->announced_wall_ns = clock_wall_ns () + lead_ns;
    for (size_t i = 0; i < tr->session_count; i++) {
        if (!s_current (tr, tr->sessions [i]))
            continue;
        msg_t start = { .type = MSG_START };
        start.u.start.test_id = tr->config.test_id;
        start.u.start.phase = phase;
        start.u.start.phase_count = tr->phase_count;
        start.u.start.start_ns = clock_to_agent (tr->start_ns,
                                                 session_offset_ns (tr->sessions [i]));
        session_send (tr->sessions [i], &start);
    }
    tr->stage = STAGE_RUNNING;
    s_stop_phase (tr);              //  a phase without streams is over at once
    return s_collect (tr, s_all_reported, 0);
}

//  The test's agents, each once, and what the test needs per job and per
//  session. Returns 0, or -1 if memory ran out.
static int
s_setup (testrun_t *tr)
{
    size_t jobs = tr->test->job_count;
    size_t fleet_count = fleet_size (tr->config.fleet);
    tr->job_spec = (const jobspec_t **) calloc (jobs, sizeof (jobspec_t *));
    tr->job_session = (session_t **) calloc (jobs, sizeof (session_t *));
    tr->first_stream = (size_t *) calloc (jobs, sizeof (size_t));
    tr->job_class = (int *) calloc (jobs, sizeof (int));
    tr->job_answered = (bool *) calloc (jobs, sizeof (bool));
    tr->sessions = (session_t **) calloc (jobs, sizeof (session_t *));
    tr->generation = (uint32_t *) calloc (fleet_count, sizeof (uint32_t));
    tr->progress_ns = (int64_t *) calloc (fleet_count, sizeof (int64_t));
    tr->excused = (bool *) calloc (fleet_count, sizeof (bool));
    tr->drop_pending = (bool *) calloc (fleet_count, sizeof (bool));
    if (!tr->job_spec || !tr->job_session || !tr->first_stream || !tr->job_class
    ||  !tr->job_answered || !tr->sessions || !tr->generation || !tr->progress_ns
    ||  !tr->excused || !tr->drop_pending)
        return -1;
    tr->phase_count = 1;
    for (size_t j = 0; j < jobs; j++) {
        const jobspec_t *spec = &tr->config.scenario->jobs [tr->test->jobs [j]].spec;
        const workload_desc_t *desc = workload_desc (spec->workload);
        tr->job_spec [j] = spec;
        tr->job_session [j] = fleet_find (tr->config.fleet, spec->agent);
        tr->job_class [j] = jobspec_class (spec);
        if (spec->settle_ns > tr->settle_ns)
            tr->settle_ns = spec->settle_ns;
        tr->planned_bytes += (double) spec->size_bytes * (double) s_timed_streams (spec);
        //  The scenario check makes every reporting job of a test run
        //  the same phases.
        if (desc->stream_results && workload_phase_count (desc) >= tr->phase_count) {
            tr->desc = desc;
            tr->phase_count = workload_phase_count (desc);
        }
        size_t i = 0;
        while (i < tr->session_count && tr->sessions [i] != tr->job_session [j])
            i++;
        if (i == tr->session_count)
            tr->sessions [tr->session_count++] = tr->job_session [j];
    }
    return 0;
}

//  Free what the test run holds (its results stay in the run).
static void
s_teardown (testrun_t *tr)
{
    free (tr->job_spec);
    free (tr->job_session);
    free (tr->first_stream);
    free (tr->job_class);
    free (tr->job_answered);
    free (tr->sessions);
    free (tr->generation);
    free (tr->progress_ns);
    free (tr->excused);
    free (tr->drop_pending);
}

int
testrun_run (const testrun_config_t *config, bool *failed)
{
    testrun_t tr = { .config = *config, .test = config->test };
    int rc = -1;
    if (s_setup (&tr) || s_new_phase_result (&tr, 0))
        goto done;
    fleet_set_lost_handler (config->fleet, s_on_lost, &tr);
    const scenario_options_t *options = &config->scenario->options;

    s_hello (&tr);
    if (fleet_interrupted ())
        goto interrupted;
    if (tr.lost && options->on_lost == ON_LOST_ABORT) {
        fprintf (stderr, "iofleet: test=%s event=abort reason=\"an agent is absent, "
                 "on_lost = abort\"\n", tr.test->name);
        s_record (&tr);
        goto done;                  //  rc stays -1: the run ends here
    }
    if (s_prepare (&tr))
        goto interrupted;
    if (!tr.prepare_failed && s_drop_caches (&tr))
        goto interrupted;
    if (tr.prepare_failed) {
        s_abort (&tr, "another job of the test failed to prepare");
        s_record (&tr);
        rc = 0;
        goto done;
    }
    for (uint32_t phase = 0; phase < tr.phase_count; phase++) {
        if (phase > 0 && s_new_phase_result (&tr, phase))
            goto done;
        if (s_run_phase (&tr, phase))
            goto interrupted;
        if (tr.lost && options->on_lost == ON_LOST_ABORT) {
            fprintf (stderr, "iofleet: test=%s event=abort reason=\"an agent was lost, "
                     "on_lost = abort\"\n", s_result (&tr)->name);
            s_abort (&tr, "an agent was lost (on_lost = abort)");
            s_record (&tr);
            goto done;              //  rc stays -1: the run ends after this test
        }
        s_record (&tr);
    }
    rc = 0;
    goto done;

interrupted:
    console_clear (config->console);
    fprintf (stderr, "iofleet: test=%s event=interrupted\n", s_result (&tr)->name);
    s_abort (&tr, "interrupted on the console");
    tr.failed = true;
    s_record (&tr);

done:
    fleet_set_lost_handler (config->fleet, config->idle_lost, config->idle_lost_arg);
    *failed = tr.failed || tr.lost;
    s_teardown (&tr);
    return rc;
}
