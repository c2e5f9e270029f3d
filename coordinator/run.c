/*  coordinator/run.c: the run engine; see run.h.

    One test, as the wire sees it:

        measure clocks      PING/PONG with every agent of the test
        prepare             PREPARE per job  ->  READY or ERROR per job
        start               START to each agent, carrying one instant T0
                            translated into that agent's clock
        collect             SAMPLE ... RESULT per stream, until every
                            stream has reported or its agent is lost
        record              aggregate, write results.json, report.txt and
                            samples.jsonl before the next test

    Every timestamp an agent sends is mapped onto the coordinator's clock
    with that agent's offset and stored relative to T0 (results.h).
*/
#include "run.h"
#include "aggregate.h"
#include "console.h"
#include "fleet.h"
#include "results.h"
#include "resultsdir.h"
#include "report/report.h"
#include "../proto/clock.h"
#include "../proto/printable.h"
#include "../proto/workload.h"
#include "../proto/version.h"

#include <math.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>

//  How often the console status is redrawn and the streams' progress is
//  looked at. Keepalives and the lease are the fleet's (fleet.h).
#define RUN_TICK_NS         (500 * NS_PER_MSEC)
//  An agent whose streams run but which sent no sample for this many
//  sample intervals (and at least a lease) is broken, even if it answers
//  keepalives: a test must end when nothing moves.
#define RUN_SILENT_INTERVALS 3
//  After an abort, how long the agents get to report what they did.
#define RUN_ABORT_GRACE_NS  (5 * NS_PER_SEC)
//  How long past its settle bound an agent's HOST figures are awaited.
#define RUN_HOST_GRACE_NS   (3 * NS_PER_SEC)

typedef struct {
    const scenario_t *scenario;     //  what to run
    const run_options_t *options;   //  how
    fleet_t *fleet;                 //  one session per agent used
    console_t *console;             //  live status line
    run_result_t result;            //  everything measured so far
    resultsdir_t *results;          //  the results directory
    uint32_t next_test_id;          //  test ids within the agents' sessions
    bool failed;                    //  a test failed or an agent was lost
    char coordinator [MSG_TEXT_MAX + 1];    //  how agents see us: "user@host pid=N"
    struct _test_run_t *current;    //  the test running, NULL between tests
} run_t;

typedef enum {
    TEST_PREPARING,                 //  PREPAREs sent, waiting for READY
    TEST_RUNNING,                   //  START sent, collecting
    TEST_ABORTING                   //  ABORT sent, collecting what is left
} test_phase_t;

//  One test being run.
typedef struct _test_run_t {
    run_t *run;                     //  the run it belongs to
    const scenario_test_t *test;    //  its jobs
    test_result_t *result;          //  where its figures go
    uint32_t test_id;               //  on the wire
    test_phase_t phase;
    size_t *first_stream;           //  per job: index of its stream 0 in result->streams
    session_t **job_session;        //  per job: the agent running it
    session_t **sessions;           //  the test's agents, each once
    size_t session_count;           //  how many
    uint32_t *generation;           //  per fleet session: the generation the test began
                                    //  with, 0 if not in the test (session_generation)
    int64_t *progress_ns;           //  per fleet session: when it last sent test figures
    bool *excused;                  //  per fleet session: lost or absent, owes no HOST
    size_t hosts_excused;           //  how many of the test's hosts are excused
    bool *job_answered;             //  per job: READY or ERROR received, or agent lost
    size_t jobs_answered;           //  how many of those
    size_t jobs_sent;               //  PREPAREs sent so far (fills go first)
    bool prepare_failed;            //  an agent could not prepare a job
    size_t streams_reported;        //  RESULT received or given up
    int64_t start_ns;               //  T0, coordinator clock
    uint64_t dropped;               //  messages that did not fit the test
    size_t hosts_reported;          //  HOST received, or given up
    bool stop_sent;                 //  monitors were told the test is over
    bool lost;                      //  an agent was lost during the test
    int64_t settle_ns;              //  longest settle period of the test's jobs
    int64_t hosts_deadline_ns;      //  when waiting for HOST stops, 0 before
} test_run_t;

//  True if session is one the test began with, and ready: an agent lost
//  and found again during the test is a new session, whose word on this
//  test no longer counts.
static bool
s_current (test_run_t *tr, session_t *session)
{
    uint32_t generation = tr->generation [session_index (session)];
    return generation != 0 && generation == session_generation (session)
        && session_state (session) == SESSION_READY;
}

//  A job's class as far as its options tell (jobspec_class: an nfs://
//  source is network); an agent's READY may correct it, e.g. for a source
//  path on an NFS mount.
static int
s_job_class (const jobspec_t *spec)
{
    return jobspec_class (spec);
}

//  Streams of a job whose RESULTs are figures of the test. A fill job
//  works during PREPARE and answers READY when its files are there; a
//  monitor watches its host until STOP and moves no bytes: none.
static uint64_t
s_timed_streams (const jobspec_t *spec)
{
    return spec->workload == WORKLOAD_FILL || spec->workload == WORKLOAD_MONITOR?
           0: spec->streams;
}

//  "user@host pid=N": how a busy agent names us to a second coordinator.
static void
s_coordinator_name (char *buf, size_t buflen)
{
    char host [256] = "?";
    gethostname (host, sizeof host - 1);
    struct passwd *pw = getpwuid (getuid ());
    snprintf (buf, buflen, "%s@%s pid=%d", pw? pw->pw_name: "?", host, (int) getpid ());
}

//  Record the agents as the run met them.
static int
s_record_agents (run_t *self)
{
    size_t count = fleet_size (self->fleet);
    self->result.agents = (agent_info_t *) calloc (count? count: 1, sizeof (agent_info_t));
    if (!self->result.agents)
        return -1;
    self->result.agent_count = count;
    for (size_t i = 0; i < count; i++)
        self->result.agents [i] = *session_info (fleet_session (self->fleet, i));
    return 0;
}

//  Refresh the recorded clock figures after a measurement.
static void
s_update_agents (run_t *self)
{
    for (size_t i = 0; i < self->result.agent_count; i++)
        self->result.agents [i] = *session_info (fleet_session (self->fleet, i));
}

//  A new test result in the run, with one stream entry per stream of
//  every job, named and classed before anything happens, so that a test
//  that fails early still says what it would have run.
static test_result_t *
s_new_test_result (run_t *self, test_run_t *tr, uint32_t iteration)
{
    run_result_t *run = &self->result;
    if (run->test_count == run->test_capacity) {
        size_t capacity = run->test_capacity? run->test_capacity * 2: 8;
        test_result_t *tests = realloc (run->tests, capacity * sizeof *tests);
        if (!tests)
            return NULL;
        run->tests = tests;
        run->test_capacity = capacity;
    }
    test_result_t *result = &run->tests [run->test_count];
    memset (result, 0, sizeof *result);
    msg_strcpy (result->name, tr->test->name, sizeof result->name);
    result->iteration = iteration;

    size_t streams = 0;
    for (size_t j = 0; j < tr->test->job_count; j++)
        streams += s_timed_streams (&self->scenario->jobs [tr->test->jobs [j]].spec);
    result->streams = (stream_result_t *) calloc (streams? streams: 1, sizeof (stream_result_t));
    if (!result->streams)
        return NULL;
    result->stream_count = streams;
    run->test_count++;

    size_t next = 0;
    for (size_t j = 0; j < tr->test->job_count; j++) {
        const jobspec_t *spec = &self->scenario->jobs [tr->test->jobs [j]].spec;
        tr->first_stream [j] = next;
        tr->job_session [j] = fleet_find (self->fleet, spec->agent);
        for (uint64_t k = 0; k < s_timed_streams (spec); k++, next++) {
            stream_result_t *stream = &result->streams [next];
            msg_strcpy (stream->agent, spec->agent, sizeof stream->agent);
            msg_strcpy (stream->job, spec->name, sizeof stream->job);
            stream->job_class = s_job_class (spec);
            stream->index = (uint32_t) k;
            stream->direct = spec->direct;
            stream->fsync_mode = spec->fsync_mode;
            jobspec_stream_path (spec->path, spec->streams, k, stream->path, sizeof stream->path);
        }
    }
    //  One series per monitor job.
    result->monitors = (monitor_result_t *) calloc (tr->test->job_count, sizeof (monitor_result_t));
    if (!result->monitors)
        return NULL;
    for (size_t j = 0; j < tr->test->job_count; j++) {
        const jobspec_t *spec = &self->scenario->jobs [tr->test->jobs [j]].spec;
        if (spec->workload != WORKLOAD_MONITOR)
            continue;
        monitor_result_t *monitor = &result->monitors [result->monitor_count++];
        msg_strcpy (monitor->agent, spec->agent, sizeof monitor->agent);
        msg_strcpy (monitor->job, spec->name, sizeof monitor->job);
    }

    //  One host entry per agent of the test, for its HOST figures.
    result->hosts = (host_result_t *) calloc (tr->test->job_count, sizeof (host_result_t));
    if (!result->hosts)
        return NULL;
    for (size_t j = 0; j < tr->test->job_count; j++) {
        const jobspec_t *spec = &self->scenario->jobs [tr->test->jobs [j]].spec;
        if (spec->settle_ns > tr->settle_ns)
            tr->settle_ns = spec->settle_ns;
        size_t h = 0;
        while (h < result->host_count && !streq (result->hosts [h].agent, spec->agent))
            h++;
        if (h == result->host_count)
            msg_strcpy (result->hosts [result->host_count++].agent, spec->agent,
                        sizeof result->hosts [h].agent);
    }
    return result;
}

//  Agent time to the test's timeline: coordinator clock, 0 = T0.
static int64_t
s_timeline (test_run_t *tr, session_t *session, int64_t agent_ns)
{
    if (agent_ns == 0)
        return 0;
    return clock_to_coordinator (agent_ns, session_offset_ns (session)) - tr->start_ns;
}

//  The job a message names, if it belongs to this test and comes from
//  the agent that runs it; NULL otherwise.
static const jobspec_t *
s_job (test_run_t *tr, session_t *session, uint32_t test_id, uint32_t job_id)
{
    if (test_id != tr->test_id || job_id >= tr->test->job_count
    ||  tr->job_session [job_id] != session)
        return NULL;
    return &tr->run->scenario->jobs [tr->test->jobs [job_id]].spec;
}

//  A monitor's counters: one more point of its series.
static void
s_on_monitor (test_run_t *tr, session_t *session, const msg_monitor_t *sample)
{
    const jobspec_t *spec = s_job (tr, session, sample->test_id, sample->job_id);
    monitor_result_t *monitor = NULL;
    for (size_t m = 0; spec && m < tr->result->monitor_count; m++)
        if (streq (tr->result->monitors [m].job, spec->name))
            monitor = &tr->result->monitors [m];
    if (!monitor) {
        tr->dropped++;
        return;
    }
    msg_monitor_t point = *sample;
    point.t_ns = s_timeline (tr, session, sample->t_ns);
    monitor_result_add_point (monitor, &point);
}

//  Once every timed stream has reported, monitors have watched the whole
//  test: tell their agents to stop them.
static void
s_stop_monitors (test_run_t *tr)
{
    if (tr->stop_sent || tr->phase != TEST_RUNNING || tr->result->monitor_count == 0
    ||  tr->streams_reported < tr->result->stream_count)
        return;
    msg_t stop = { .type = MSG_STOP };
    stop.u.stop.test_id = tr->test_id;
    for (size_t j = 0; j < tr->test->job_count; j++) {
        const jobspec_t *spec = &tr->run->scenario->jobs [tr->test->jobs [j]].spec;
        if (spec->workload == WORKLOAD_MONITOR && s_current (tr, tr->job_session [j]))
            session_send (tr->job_session [j], &stop);
    }
    tr->stop_sent = true;
}

//  The stream a SAMPLE or RESULT names, if it belongs to this test and
//  comes from the agent that runs that job; NULL otherwise.
static stream_result_t *
s_stream (test_run_t *tr, session_t *session, uint32_t test_id, uint32_t job_id, uint32_t index)
{
    if (test_id != tr->test_id || job_id >= tr->test->job_count
    ||  tr->job_session [job_id] != session)
        return NULL;
    const jobspec_t *spec = &tr->run->scenario->jobs [tr->test->jobs [job_id]].spec;
    if (index >= s_timed_streams (spec))
        return NULL;
    return &tr->result->streams [tr->first_stream [job_id] + index];
}

//  Mark every unfinished stream of a job (or of all jobs of a session,
//  job_id < 0) as failed with a reason; lost when its agent is.
static void
s_fail_streams (test_run_t *tr, session_t *session, int32_t job_id, const char *reason)
{
    bool lost = session_state (session) == SESSION_LOST;
    for (size_t j = 0; j < tr->test->job_count; j++) {
        if (tr->job_session [j] != session || (job_id >= 0 && (size_t) job_id != j))
            continue;
        const jobspec_t *spec = &tr->run->scenario->jobs [tr->test->jobs [j]].spec;
        for (uint64_t k = 0; k < s_timed_streams (spec); k++) {
            stream_result_t *stream = &tr->result->streams [tr->first_stream [j] + k];
            if (stream->finished || stream->error [0])
                continue;
            msg_strcpy (stream->error, reason, sizeof stream->error);
            stream->lost = lost;
            tr->streams_reported++;
        }
    }
}


//  The host entry of a session in the test, or NULL.
static host_result_t *
s_host (test_run_t *tr, session_t *session)
{
    for (size_t h = 0; h < tr->result->host_count; h++)
        if (streq (tr->result->hosts [h].agent, session_name (session)))
            return &tr->result->hosts [h];
    return NULL;
}

//  A HOST message: the agent's counters over the window and the settle
//  period, its times mapped onto the test's timeline.
static void
s_on_host (test_run_t *tr, session_t *session, const msg_host_t *counters)
{
    host_result_t *host = s_host (tr, session);
    if (counters->test_id != tr->test_id || !host || host->received) {
        tr->dropped++;
        return;
    }
    host->received = true;
    host->counters = *counters;
    host->window_start_ns = s_timeline (tr, session, counters->window_start_ns);
    host->window_end_ns = s_timeline (tr, session, counters->window_end_ns);
    host->settle_end_ns = s_timeline (tr, session, counters->settle_end_ns);
    tr->hosts_reported++;
}

static void
s_on_result (test_run_t *tr, session_t *session, const msg_result_t *result)
{
    //  A monitor's stream carries nothing: its series is its figure.
    const jobspec_t *spec = s_job (tr, session, result->test_id, result->job_id);
    if (spec && spec->workload == WORKLOAD_MONITOR)
        return;
    stream_result_t *stream = s_stream (tr, session, result->test_id, result->job_id, result->stream);
    if (!stream || stream->finished) {
        tr->dropped++;
        return;
    }
    if (!stream->error [0])
        tr->streams_reported++;     //  not yet counted as failed
    stream->finished = true;
    stream->bytes = result->bytes;
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
        tr->run->failed = true;
}

//  A job is READY: take the class its agent found (a source path on an
//  NFS mount is network, which only the agent can see), and show what a
//  fill did apart from the test's figures, since it is not timed.
static void
s_on_ready (test_run_t *tr, session_t *session, const msg_ready_t *ready)
{
    const jobspec_t *spec = &tr->run->scenario->jobs [tr->test->jobs [ready->job_id]].spec;
    if (spec->job_class == CLASS_AUTO
    &&  (ready->job_class == CLASS_DISK || ready->job_class == CLASS_NETWORK))
        for (uint64_t k = 0; k < s_timed_streams (spec); k++)
            tr->result->streams [tr->first_stream [ready->job_id] + k].job_class =
                (int) ready->job_class;
    if (spec->workload == WORKLOAD_FILL)
        fprintf (stderr, "iofleet: agent=%s test=%s job=%s event=fill bytes=%" PRIu64
                 " seconds=%.2f%s\n", session_name (session), tr->test->name, spec->name,
                 ready->fill_bytes, (double) ready->fill_ns / NS_PER_SEC,
                 ready->fill_bytes? "": " reused=yes");
}

//  A job has its answer to PREPARE (or never will); count it once.
static void
s_job_answered (test_run_t *tr, size_t job_id)
{
    if (!tr->job_answered [job_id]) {
        tr->job_answered [job_id] = true;
        tr->jobs_answered++;
    }
}

//  Everything an agent says during a test.
static int
s_on_test_message (session_t *session, const msg_t *msg, int64_t received_ns, void *arg)
{
    test_run_t *tr = (test_run_t *) arg;
    //  A lost agent's streams are reported lost; what it says if it comes
    //  back to life within the test must not make them look whole again.
    if (!s_current (tr, session)) {
        tr->dropped++;
        return 0;
    }
    if (msg->type == MSG_SAMPLE || msg->type == MSG_RESULT || msg->type == MSG_MONITOR
    ||  msg->type == MSG_HOST || msg->type == MSG_READY)
        tr->progress_ns [session_index (session)] = received_ns;
    switch (msg->type) {
        case MSG_READY:
            if (msg->u.ready.test_id == tr->test_id && tr->phase == TEST_PREPARING
            &&  msg->u.ready.job_id < tr->test->job_count
            &&  tr->job_session [msg->u.ready.job_id] == session) {
                s_on_ready (tr, session, &msg->u.ready);
                s_job_answered (tr, msg->u.ready.job_id);
            }
            break;
        case MSG_ERROR: {
            const msg_error_t *error = &msg->u.error;
            char reason [MSG_TEXT_MAX + 1];
            snprintf (reason, sizeof reason, "%s: %s", error->code, error->text);
            char shown [sizeof reason * PRINTABLE_GROWTH];
            fprintf (stderr, "iofleet: agent=%s test=%s error=\"%s\"\n",
                     session_name (session), tr->test->name,
                     printable (reason, shown, sizeof shown));
            if (error->test_id != tr->test_id)
                break;
            if (tr->phase == TEST_PREPARING && error->job_id >= 0
            &&  (size_t) error->job_id < tr->test->job_count
            &&  tr->job_session [error->job_id] == session) {
                s_job_answered (tr, (size_t) error->job_id);
                tr->prepare_failed = true;
            }
            s_fail_streams (tr, session, error->job_id, reason);
            tr->run->failed = true;
            break;
        }
        case MSG_SAMPLE: {
            const msg_sample_t *sample = &msg->u.sample;
            stream_result_t *stream = s_stream (tr, session, sample->test_id,
                                                sample->job_id, sample->stream);
            if (stream)
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
            break;                  //  pongs of keepalives, late welcomes
    }
    s_stop_monitors (tr);
    return 0;
}

//  Agents that take part in the test, each once.
static size_t
s_test_sessions (test_run_t *tr, session_t **sessions)
{
    size_t count = 0;
    for (size_t j = 0; j < tr->test->job_count; j++) {
        size_t i;
        for (i = 0; i < count; i++)
            if (sessions [i] == tr->job_session [j])
                break;
        if (i == count)
            sessions [count++] = tr->job_session [j];
    }
    return count;
}

//  A host lost or absent owes the test no figures: nobody waits for them.
static void
s_excuse_host (test_run_t *tr, session_t *session)
{
    size_t index = session_index (session);
    host_result_t *host = s_host (tr, session);
    if (tr->excused [index] || !host || host->received)
        return;
    tr->excused [index] = true;
    tr->hosts_excused++;
}

//  The fleet gave a session up (silent past the lease, restarted, its
//  session gone, or no progress): if the test holds it, its streams are
//  lost, the others go on. Should it wake up, ABORT stops it instead of
//  letting it write on.
static void
s_on_lost (session_t *session, const char *reason, void *arg)
{
    run_t *self = (run_t *) arg;
    test_run_t *tr = self->current;
    fprintf (stderr, "iofleet: agent=%s event=lost test=%s reason=\"%s\"\n",
             session_name (session), tr? tr->test->name: "-", reason);
    uint32_t generation = tr? tr->generation [session_index (session)]: 0;
    if (generation == 0 || generation != session_generation (session))
        return;                     //  not in the test: its next test says hello again
    msg_t abort = { .type = MSG_ABORT };
    abort.u.abort.test_id = tr->test_id;
    msg_strcpy (abort.u.abort.reason, "the coordinator gave this agent up as lost",
                sizeof abort.u.abort.reason);
    session_send (session, &abort);
    if (tr->phase == TEST_PREPARING) {
        for (size_t j = 0; j < tr->test->job_count; j++)
            if (tr->job_session [j] == session)
                s_job_answered (tr, j);
        tr->prepare_failed = true;
    }
    s_fail_streams (tr, session, -1, reason);
    s_excuse_host (tr, session);
    self->failed = true;
    tr->lost = true;
    s_stop_monitors (tr);
}

//  While the streams run, every agent sends a sample of each running
//  stream every interval. One whose streams are unfinished, which still
//  answers keepalives, and which sent nothing for a lease and
//  RUN_SILENT_INTERVALS of its longest interval does not run the test:
//  it is lost, so that no test waits for ever. (One that fell silent
//  altogether is the fleet's to lose, when its lease runs out.)
static void
s_watch_progress (test_run_t *tr, int64_t now_ns)
{
    if (tr->phase != TEST_RUNNING || now_ns < tr->start_ns)
        return;
    int64_t lease_ns = tr->run->scenario->options.lease_ns;
    for (size_t j = 0; j < tr->test->job_count; j++) {
        session_t *session = tr->job_session [j];
        const jobspec_t *spec = &tr->run->scenario->jobs [tr->test->jobs [j]].spec;
        uint64_t timed = s_timed_streams (spec);
        bool open = false;
        for (uint64_t k = 0; k < timed && !open; k++) {
            stream_result_t *stream = &tr->result->streams [tr->first_stream [j] + k];
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
            tr->run->failed = true;
            continue;
        }
        if (now_ns - session_last_heard_ns (session) > lease_ns / 2)
            continue;
        int64_t silent_ns = lease_ns + RUN_SILENT_INTERVALS * spec->interval_ns;
        int64_t last_ns = tr->progress_ns [session_index (session)];
        if (last_ns < tr->start_ns)
            last_ns = tr->start_ns;
        if (now_ns - last_ns <= silent_ns)
            continue;
        char reason [MSG_TEXT_MAX + 1];
        snprintf (reason, sizeof reason, "agent lost: %s answers keepalives, but its "
                  "streams sent no sample for %.1f s", session_endpoint (session),
                  (double) (now_ns - last_ns) / NS_PER_SEC);
        fleet_declare_lost (tr->run->fleet, session, reason);
    }
}

//  The live status: test, elapsed / expected time, MB/s so far per agent
//  and in all; an agent lost, or silent for more than two sample
//  intervals while its streams run, is flagged. Expected is the test's
//  planned bytes at the rate so far, unknown before any progress (and
//  for jobs whose size is not known ahead, such as a whole-file copy).
static void
s_show_status (test_run_t *tr, session_t **sessions, size_t count)
{
    char line [1024];
    int64_t elapsed_ns = clock_now_ns () - tr->start_ns;
    double planned_bytes = 0;
    int64_t interval_ns = 0;
    for (size_t j = 0; j < tr->test->job_count; j++) {
        const jobspec_t *spec = &tr->run->scenario->jobs [tr->test->jobs [j]].spec;
        planned_bytes += (double) spec->size_bytes * (double) spec->streams;
        if (spec->interval_ns > interval_ns)
            interval_ns = spec->interval_ns;
    }
    int used = 0;
    double total_mbps = 0, total_bytes = 0;
    for (size_t i = 0; i < count && used < (int) sizeof line - 96; i++) {
        double bytes = 0;
        int64_t latest_ns = 0;
        bool running = false;
        for (size_t s = 0; s < tr->result->stream_count; s++) {
            stream_result_t *stream = &tr->result->streams [s];
            if (!streq (stream->agent, session_name (sessions [i])))
                continue;
            running |= !stream->finished && !stream->error [0];
            if (!stream->sample_count)
                continue;
            sample_point_t *last = &stream->samples [stream->sample_count - 1];
            bytes += (double) (stream->finished? stream->bytes: last->bytes);
            if (last->t_ns > latest_ns)
                latest_ns = last->t_ns;
        }
        double mbps = latest_ns > 0? bytes / ((double) latest_ns / NS_PER_SEC) / 1e6: 0;
        total_mbps += mbps;
        total_bytes += bytes;
        const char *flag = "";
        if (!s_current (tr, sessions [i]))
            flag = " LOST";
        else
        if (running && elapsed_ns - latest_ns > 2 * interval_ns && elapsed_ns > 2 * interval_ns)
            flag = " slow";
        used += snprintf (line + used, sizeof line - used, "  %s %.0f MB/s%s",
                          session_name (sessions [i]), mbps, flag);
    }
    char expected [32] = "?";
    if (total_mbps > 0 && planned_bytes > 0 && total_bytes > 0)
        snprintf (expected, sizeof expected, "%.1f",
                  planned_bytes / (total_mbps * 1e6));
    console_status (tr->run->console, "%s #%u  %.1f / %s s %s  total %.0f MB/s",
                    tr->test->name, tr->result->iteration, (double) elapsed_ns / NS_PER_SEC,
                    expected, line, total_mbps);
}

//  Poll until done() says so, the deadline passes or the run is
//  interrupted, keeping the status fresh and the streams watched. The
//  fleet keeps every agent's lease alive meanwhile, the test's and the
//  others'.
static int
s_collect (test_run_t *tr, session_t **sessions, size_t count,
           bool (*done) (test_run_t *), int64_t deadline_ns)
{
    int64_t next_tick_ns = clock_now_ns () + RUN_TICK_NS;
    while (!done (tr)) {
        int64_t now_ns = clock_now_ns ();
        if (deadline_ns && now_ns >= deadline_ns)
            return -1;
        if (now_ns >= next_tick_ns) {
            s_watch_progress (tr, now_ns);
            if (tr->phase == TEST_RUNNING)
                s_show_status (tr, sessions, count);
            next_tick_ns = now_ns + RUN_TICK_NS;
        }
        int64_t wake_ns = next_tick_ns;
        if (deadline_ns && deadline_ns < wake_ns)
            wake_ns = deadline_ns;
        if (fleet_poll (tr->run->fleet, wake_ns, s_on_test_message, tr))
            return -1;              //  interrupted
    }
    return 0;
}

static bool
s_all_answered (test_run_t *tr)
{
    return tr->jobs_answered >= tr->jobs_sent;
}

//  Every stream has reported, and every host has sent its figures or will
//  not in time: an agent whose settle period outlasts its bound by a few
//  seconds, or that could not read /proc, leaves its host unmeasured
//  rather than holding the run.
static bool
s_all_reported (test_run_t *tr)
{
    if (tr->lost && tr->phase == TEST_RUNNING
    &&  tr->run->scenario->options.on_lost == ON_LOST_ABORT)
        return true;
    if (tr->streams_reported < tr->result->stream_count)
        return false;
    if (tr->phase != TEST_RUNNING
    ||  tr->hosts_reported + tr->hosts_excused >= tr->result->host_count)
        return true;
    int64_t now_ns = clock_now_ns ();
    if (!tr->hosts_deadline_ns)
        tr->hosts_deadline_ns = now_ns + tr->settle_ns + RUN_HOST_GRACE_NS;
    return now_ns >= tr->hosts_deadline_ns;
}

//  Stop the test on every agent and give them a moment to report.
static void
s_abort (test_run_t *tr, session_t **sessions, size_t count, const char *reason)
{
    msg_t abort = { .type = MSG_ABORT };
    abort.u.abort.test_id = tr->test_id;
    msg_strcpy (abort.u.abort.reason, reason, sizeof abort.u.abort.reason);
    for (size_t i = 0; i < count; i++)
        if (s_current (tr, sessions [i]))
            session_send (sessions [i], &abort);
    if (tr->phase != TEST_RUNNING)
        return;                     //  nothing started: nothing to report
    tr->phase = TEST_ABORTING;
    fleet_set_draining (tr->run->fleet, true);
    s_collect (tr, sessions, count, s_all_reported, clock_now_ns () + RUN_ABORT_GRACE_NS);
    fleet_set_draining (tr->run->fleet, false);
    for (size_t i = 0; i < count; i++)
        s_fail_streams (tr, sessions [i], -1, reason);
}

//  Run one iteration of one test. Returns 0, or -1 if the run must stop
//  (interrupted, out of memory).
static int
s_run_test (run_t *self, const scenario_test_t *test, uint32_t iteration)
{
    int rc = -1;
    test_run_t tr = {
        .run = self,
        .test = test,
        .test_id = ++self->next_test_id,
        .first_stream = (size_t *) calloc (test->job_count, sizeof (size_t)),
        .job_session = (session_t **) calloc (test->job_count, sizeof (session_t *)),
        .job_answered = (bool *) calloc (test->job_count, sizeof (bool))
    };
    session_t **sessions = (session_t **) calloc (test->job_count, sizeof (session_t *));
    size_t fleet_count = fleet_size (self->fleet);
    tr.generation = (uint32_t *) calloc (fleet_count, sizeof (uint32_t));
    tr.progress_ns = (int64_t *) calloc (fleet_count, sizeof (int64_t));
    tr.excused = (bool *) calloc (fleet_count, sizeof (bool));
    if (!tr.first_stream || !tr.job_session || !tr.job_answered || !sessions
    ||  !tr.generation || !tr.progress_ns || !tr.excused)
        goto done;
    tr.result = s_new_test_result (self, &tr, iteration);
    if (!tr.result)
        goto done;
    size_t count = s_test_sessions (&tr, sessions);
    tr.sessions = sessions;
    tr.session_count = count;

    //  Agents lost earlier get another hello (the fleet sent one when it
    //  lost them; this waits for its answer, or sends one if that failed):
    //  one restarted, or woken up, takes part again. Those that still do
    //  not answer are absent: the test runs without them and is partial,
    //  or with on_lost = abort, the run ends here. Every other session is
    //  kept alive meanwhile.
    fleet_hello (self->fleet, sessions, count, false, self->scenario->options.connect_timeout_ns,
                 NULL, NULL);
    if (fleet_interrupted ())
        goto interrupted;
    for (size_t i = 0; i < count; i++)
        if (session_state (sessions [i]) == SESSION_READY)
            tr.generation [session_index (sessions [i])] = session_generation (sessions [i]);
    self->current = &tr;
    for (size_t i = 0; i < count; i++)
        if (session_state (sessions [i]) != SESSION_READY) {
            fprintf (stderr, "iofleet: agent=%s test=%s event=absent reason=\"%s\"\n",
                     session_name (sessions [i]), test->name, session_reason (sessions [i]));
            s_fail_streams (&tr, sessions [i], -1, session_reason (sessions [i]));
            s_excuse_host (&tr, sessions [i]);
            self->failed = true;
            tr.lost = true;
        }
    if (tr.lost && self->scenario->options.on_lost == ON_LOST_ABORT) {
        fprintf (stderr, "iofleet: test=%s event=abort reason=\"an agent is absent, "
                 "on_lost = abort\"\n", test->name);
        goto record;                //  rc stays -1: the run ends here
    }

    //  Prepare in two waves. Fills first: a copy measures its source when
    //  it prepares, so the sources must be complete by then. Then every
    //  other job at once; agents prepare in parallel.
    tr.phase = TEST_PREPARING;
    for (int wave = 0; wave < 2 && !tr.prepare_failed; wave++) {
        for (size_t j = 0; j < test->job_count; j++) {
            msg_t prepare = { .type = MSG_PREPARE };
            prepare.u.prepare.test_id = tr.test_id;
            prepare.u.prepare.job_id = (uint32_t) j;
            prepare.u.prepare.spec = self->scenario->jobs [test->jobs [j]].spec;
            if ((prepare.u.prepare.spec.workload == WORKLOAD_FILL) != (wave == 0))
                continue;
            tr.jobs_sent++;
            if (s_current (&tr, tr.job_session [j]))
                session_send (tr.job_session [j], &prepare);
            else
                s_job_answered (&tr, j);
        }
        if (s_collect (&tr, sessions, count, s_all_answered, 0))
            goto interrupted;
    }
    if (tr.prepare_failed) {
        s_abort (&tr, sessions, count, "another job of the test failed to prepare");
        rc = 0;
        goto record;
    }

    //  Measure clocks just before the start, so that the offsets are as
    //  fresh as they can be; then pick T0 far enough ahead that START
    //  reaches the slowest agent in time.
    fleet_sync_clocks (self->fleet, self->scenario->options.clock_pings,
                       self->scenario->options.connect_timeout_ns, s_on_test_message, &tr);
    if (fleet_interrupted ())
        goto interrupted;
    s_update_agents (self);
    int64_t lead_ns = self->scenario->options.lead_ns;
    for (size_t i = 0; i < count; i++)
        if (4 * session_info (sessions [i])->clock_rtt_ns > lead_ns)
            lead_ns = 4 * session_info (sessions [i])->clock_rtt_ns;
    tr.start_ns = clock_now_ns () + lead_ns;
    tr.result->announced_wall_ns = clock_wall_ns () + lead_ns;
    for (size_t i = 0; i < count; i++) {
        if (!s_current (&tr, sessions [i]))
            continue;
        msg_t start = { .type = MSG_START };
        start.u.start.test_id = tr.test_id;
        start.u.start.start_ns = clock_to_agent (tr.start_ns, session_offset_ns (sessions [i]));
        session_send (sessions [i], &start);
    }
    tr.phase = TEST_RUNNING;
    if (s_collect (&tr, sessions, count, s_all_reported, 0))
        goto interrupted;
    if (tr.lost && self->scenario->options.on_lost == ON_LOST_ABORT) {
        //  rc stays -1: the run ends after this test is recorded.
        fprintf (stderr, "iofleet: test=%s event=abort reason=\"an agent was lost, on_lost = abort\"\n",
                 test->name);
        s_abort (&tr, sessions, count, "an agent was lost (on_lost = abort)");
        goto record;
    }
    rc = 0;
    goto record;

interrupted:
    console_clear (self->console);
    fprintf (stderr, "iofleet: test=%s event=interrupted\n", test->name);
    s_abort (&tr, sessions, count, "interrupted on the console");
    self->failed = true;

record:
    console_clear (self->console);
    if (tr.dropped)
        fprintf (stderr, "iofleet: test=%s event=dropped messages=%" PRIu64 "\n",
                 test->name, tr.dropped);
    aggregate_test (tr.result);
    s_update_agents (self);         //  frames dropped during the test
    resultsdir_append_samples (self->results, tr.result);
    resultsdir_write_reports (self->results, &self->result);

done:
    self->current = NULL;
    free (tr.first_stream);
    free (tr.job_session);
    free (tr.job_answered);
    free (tr.generation);
    free (tr.progress_ns);
    free (tr.excused);
    free (sessions);
    return rc;
}

//  Connect to every agent that a job names and say hello.
static int
s_connect (run_t *self)
{
    char err [512];
    const char *keys_dir = self->scenario->options.keys_dir;
    if (keys_dir [0] && fleet_set_keys (self->fleet, keys_dir, err, sizeof err)) {
        fprintf (stderr, "iofleet: %s\n", err);
        return -1;
    }
    for (size_t j = 0; j < self->scenario->job_count; j++) {
        const char *name = self->scenario->jobs [j].spec.agent;
        if (fleet_find (self->fleet, name))
            continue;
        const scenario_agent_t *agent = scenario_agent (self->scenario, name);
        if (!agent || !fleet_add (self->fleet, name, agent->endpoint, err, sizeof err)) {
            fprintf (stderr, "iofleet: %s\n", agent? err: "job names an unknown agent");
            return -1;
        }
    }
    s_coordinator_name (self->coordinator, sizeof self->coordinator);
    fleet_set_lease (self->fleet, self->coordinator, self->scenario->options.lease_ns,
                     self->scenario->options.connect_timeout_ns);
    fleet_set_lost_handler (self->fleet, s_on_lost, self);
    size_t ready = fleet_hello (self->fleet, NULL, 0, false,
                                self->scenario->options.connect_timeout_ns, NULL, NULL);
    if (ready == fleet_size (self->fleet))
        return 0;
    for (size_t i = 0; i < fleet_size (self->fleet); i++) {
        session_t *session = fleet_session (self->fleet, i);
        if (session_state (session) != SESSION_READY)
            fprintf (stderr, "iofleet: %s\n", session_reason (session));
    }
    return -1;
}

int
run_scenario (const scenario_t *scenario, const run_options_t *options)
{
    run_t self = {
        .scenario = scenario,
        .options = options,
        .fleet = fleet_new (),
        .console = console_new (stdout, options->quiet)
    };
    if (options->progress_lines)
        console_set_lines (self.console, stderr);
    char err [1024];
    int status = RUN_EXIT_FAILED;
    msg_strcpy (self.result.scenario_path, scenario->path, sizeof self.result.scenario_path);
    self.result.started_wall_ns = clock_wall_ns ();
    self.result.units = options->units;
    if (!self.fleet || !self.console)
        goto done;
    //  An -o that would mix two runs is bad usage: said before any agent
    //  hears of this run.
    if (resultsdir_check (options->results_dir, err, sizeof err)) {
        fprintf (stderr, "iofleet: %s\n", err);
        status = RUN_EXIT_USAGE;
        goto done;
    }

    //  Nothing is started unless every agent answers: a fleet run with a
    //  host missing would measure a different fleet.
    if (s_connect (&self))
        goto bye;
    if (s_record_agents (&self))
        goto bye;
    self.results = resultsdir_new (options->results_dir, scenario->path, options->json_path,
                                   err, sizeof err);
    if (!self.results) {
        fprintf (stderr, "iofleet: %s\n", err);
        goto bye;
    }
    resultsdir_save_scenario (self.results, scenario);
    uint64_t iterations = options->iterations? options->iterations: scenario->options.iterations;
    for (size_t t = 0; t < scenario->test_count; t++)
        for (uint64_t n = 1; n <= iterations; n++)
            if (s_run_test (&self, &scenario->tests [t], (uint32_t) n) || fleet_interrupted ())
                goto report;

report:
    console_clear (self.console);
    report_text (&self.result, stdout);
    fflush (stdout);
    if (fleet_malformed (self.fleet))
        fprintf (stderr, "iofleet: event=malformed frames=%" PRIu64 " scope=run\n",
                 fleet_malformed (self.fleet));
    //  Results that could not be written fail the run, however well the
    //  tests went: what is not on disk was not recorded.
    resultsdir_print_problems (self.results, stderr);
    fprintf (stderr, "iofleet: results in %s\n", resultsdir_path (self.results));
    status = self.failed || fleet_interrupted () || resultsdir_failed (self.results)?
             RUN_EXIT_FAILED: RUN_EXIT_OK;

bye:;
    msg_t bye = { .type = MSG_BYE };
    msg_strcpy (bye.u.bye.reason, "run over", sizeof bye.u.bye.reason);
    fleet_broadcast (self.fleet, &bye);

done:
    resultsdir_destroy (&self.results);
    run_result_clear (&self.result);
    console_destroy (&self.console);
    fleet_destroy (&self.fleet);
    return status;
}
