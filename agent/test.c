/*  agent/test.c: the test an agent holds; see test.h. */
#include "test.h"

#include "hostwatch.h"
#include "job.h"
#include "ledger.h"
#include "log.h"
#include "procstat.h"

#include "../proto/clock.h"
#include "../proto/workload.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define S_TEST_STREAMS_MAX      1024        //  threads one test may ask of this agent
#define S_TEST_JOBS_MAX         256         //  jobs one test may hold on this agent

//  The page cache's drop (DROP), in a thread of its own: it writes every
//  dirty page back first, which can take long.
typedef struct {
    pthread_t thread;               //  the thread doing it
    bool launched;                  //  the thread was created
    bool answered;                  //  DROPPED or ERROR went out
    atomic_bool done;               //  the thread is done: rc and reason are final
    int rc;                         //  0, or -1 if the drop failed
    char reason [MSG_TEXT_MAX + 1]; //  why it failed
    int notify_fd;                  //  the eventfd to write when done
} s_drop_t;

//  A job of the test, its answer to PREPARE and its sample grid.
typedef struct {
    job_t *job;                     //  the accepted job
    bool answered;                  //  READY or ERROR went out for it
    bool ready;                     //  and it was READY
    int64_t next_sample_ns;         //  INT64_MAX when no sample is due
} s_slot_t;

struct _agent_test_t {
    agent_test_config_t config;     //  what it needs of its agent
    uint32_t test_id;               //  PREPARE's test_id
    char name [JOB_NAME_MAX + 1];   //  its name, as a log token
    ledger_t *ledger;               //  what its jobs claimed (memory, files, dirs)
    hostwatch_t *hostwatch;         //  the host's window over each phase
    s_slot_t *slots;                //  its jobs
    size_t slot_count;              //  how many
    size_t slot_capacity;           //  room in slots
    size_t stream_count;            //  streams of all its jobs
    uint32_t phase_count;           //  phases the test has (START says), 0 before
    uint32_t phases_started;        //  phases whose START came
    int64_t phase_start_ns;         //  the instant of the current phase
    size_t phase_results;           //  results of the current phase taken
    bool phase_over;                //  STOP came for the current phase
    bool host_begun;                //  the current phase's window opened
    bool host_ended;                //  and closed; HOST goes out when settled
    bool stopped;                   //  ABORT came (or the session ended)
    bool orphaned;                  //  the session ended: nothing goes out
    s_drop_t drop;                  //  the cache drop, if DROP came
    msg_t out;                      //  the message being sent
};

//  --------------------------------------------------------------------------
//  Small things

//  Log a line of this test's agent.
static void
s_log (agent_test_t *self, const char *format, ...) __attribute__ ((format (printf, 2, 3)));

static void
s_log (agent_test_t *self, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    agent_logv (self->config.agent_name, format, args);
    va_end (args);
}

//  Start building a message of type. Returns it.
static msg_t *
s_message (agent_test_t *self, msg_type_t type)
{
    memset (&self->out, 0, sizeof (self->out));
    self->out.type = type;
    return &self->out;
}

//  Send out, unless the test is orphaned.
static void
s_send (agent_test_t *self, msg_t *out)
{
    if (!self->orphaned)
        self->config.send (self->config.send_arg, out);
}

//  Send ERROR {test_id, job_id, code, text}.
static void
s_send_error (agent_test_t *self, int32_t job_id, const char *code, const char *format, ...)
    __attribute__ ((format (printf, 4, 5)));

static void
s_send_error (agent_test_t *self, int32_t job_id, const char *code, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    msg_make_error (&self->out, self->test_id, job_id, code, format, args);
    va_end (args);
    s_send (self, &self->out);
}

//  a + b without overflow, for deadlines built from wire values.
static int64_t
s_add_saturated (int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b)
        return INT64_MAX;
    return a + b;
}

//  Jobs whose streams report the test's figures (not fills, not monitors).
static bool
s_reports (job_t *job)
{
    return job_workload (job)->stream_results;
}

//  Phases the test has: as START said, or before it those of its jobs
//  that report figures.
static uint32_t
s_phase_count (agent_test_t *self)
{
    if (self->phase_count)
        return self->phase_count;
    uint32_t phases = 1;
    for (size_t index = 0; index < self->slot_count; index++) {
        job_t *job = self->slots [index].job;
        if (s_reports (job) && workload_phase_count (job_workload (job)) > phases)
            phases = workload_phase_count (job_workload (job));
    }
    return phases;
}

//  --------------------------------------------------------------------------
//  Life

agent_test_t *
agent_test_new (const agent_test_config_t *config, uint32_t test_id, const char *name)
{
    agent_test_t *self = calloc (1, sizeof (agent_test_t));
    if (!self)
        return NULL;
    self->config = *config;
    self->test_id = test_id;
    agent_log_token (name, self->name, sizeof (self->name));
    self->ledger = ledger_new (config->memory_bound_bytes);
    self->hostwatch = hostwatch_new ("/proc", "/sys");
    if (!self->ledger || !self->hostwatch)
        agent_test_destroy (&self);
    return self;
}

void
agent_test_destroy (agent_test_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    agent_test_t *self = *self_p;
    if (self->drop.launched)
        pthread_join (self->drop.thread, NULL);
    //  Stop them all first, so that the threads end together.
    for (size_t index = 0; index < self->slot_count; index++)
        job_stop (self->slots [index].job, "test over");
    for (size_t index = 0; index < self->slot_count; index++)
        job_destroy (&self->slots [index].job);
    //  Its files are gone: now the directories it made can go too.
    if (self->ledger)
        ledger_clear (self->ledger);
    ledger_destroy (&self->ledger);
    hostwatch_destroy (&self->hostwatch);
    free (self->slots);
    free (self);
    *self_p = NULL;
}

uint32_t
agent_test_id (agent_test_t *self)
{
    return self->test_id;
}

const char *
agent_test_name (agent_test_t *self)
{
    return self->name;
}

bool
agent_test_started (agent_test_t *self)
{
    return self->phases_started > 0;
}

//  --------------------------------------------------------------------------
//  PREPARE

//  Remove job job_id from the test, if it holds it (a PREPARE repeated).
static void
s_remove_job (agent_test_t *self, uint32_t wanted_job_id)
{
    for (size_t index = 0; index < self->slot_count; index++) {
        if (job_id (self->slots [index].job) != wanted_job_id)
            continue;
        self->stream_count -= job_stream_count (self->slots [index].job);
        job_destroy (&self->slots [index].job);
        ledger_forget_job (self->ledger, wanted_job_id);
        memmove (self->slots + index, self->slots + index + 1,
                 (self->slot_count - index - 1) * sizeof (s_slot_t));
        self->slot_count--;
        return;
    }
}

void
agent_test_prepare (agent_test_t *self, const msg_prepare_t *prepare)
{
    const jobspec_t *spec = &prepare->spec;
    int32_t wire_job_id = (int32_t) prepare->job_id;
    if (self->phases_started > 0) {
        s_send_error (self, wire_job_id, "prepare", "test %" PRIu32 " has already started",
                      self->test_id);
        return;
    }
    s_remove_job (self, prepare->job_id);
    if (self->slot_count >= S_TEST_JOBS_MAX) {
        s_send_error (self, wire_job_id, "prepare",
                      "job %s: test %" PRIu32 " already holds %d jobs on agent %s, its limit",
                      spec->name, self->test_id, S_TEST_JOBS_MAX, self->config.agent_name);
        return;
    }
    if (spec->streams > S_TEST_STREAMS_MAX
    ||  self->stream_count + spec->streams > S_TEST_STREAMS_MAX) {
        s_send_error (self, wire_job_id, "prepare",
                      "job %s: %" PRIu64 " streams would exceed this agent's limit of %d per test",
                      spec->name, spec->streams, S_TEST_STREAMS_MAX);
        return;
    }
    if (self->slot_count == self->slot_capacity) {
        size_t capacity = self->slot_capacity? 2 * self->slot_capacity: 4;
        s_slot_t *slots = realloc (self->slots, capacity * sizeof (s_slot_t));
        if (!slots) {
            s_send_error (self, wire_job_id, "prepare", "job %s: %s", spec->name, strerror (ENOMEM));
            return;
        }
        self->slots = slots;
        self->slot_capacity = capacity;
    }
    char quoted [AGENT_QUOTED_MAX];
    char job_name [JOB_NAME_MAX + 1];
    s_log (self, "event=prepare test=%s job=%s test_id=%" PRIu32 " job_id=%" PRIu32
           " workload=%s streams=%" PRIu64 " path=%s", self->name,
           agent_log_token (spec->name, job_name, sizeof (job_name)),
           self->test_id, prepare->job_id, jobspec_workload_name (spec->workload),
           spec->streams, agent_log_quote (spec->path, quoted, sizeof (quoted)));
    char err [MSG_TEXT_MAX + 1] = "";
    job_t *job = job_new (self->test_id, prepare->job_id, spec, self->config.confine,
                          self->ledger, self->config.notify_fd, err, sizeof (err));
    if (!job) {
        s_log (self, "event=prepare-failed test_id=%" PRIu32 " job_id=%" PRIu32 " reason=%s",
               self->test_id, prepare->job_id, agent_log_quote (err, quoted, sizeof (quoted)));
        s_send_error (self, wire_job_id, "prepare", "%s", err);
        return;
    }
    self->slots [self->slot_count++] = (s_slot_t) { .job = job, .next_sample_ns = INT64_MAX };
    self->stream_count += job_stream_count (job);
    //  A fill works in its stream threads now; its READY (or ERROR)
    //  follows when it is done.
    if (!job_workload (job)->timed)
        s_log (self, "event=fill-started test_id=%" PRIu32 " job_id=%" PRIu32 " streams=%zu",
               self->test_id, prepare->job_id, job_stream_count (job));
}

//  A fill's work is done: its figures make its READY (or ERROR). A fill
//  stopped by an abort answers nothing: the coordinator gave up on it.
static void
s_answer_fill (agent_test_t *self, s_slot_t *slot)
{
    job_t *job = slot->job;
    uint64_t fill_bytes = 0;
    int64_t first_start_ns = INT64_MAX, last_end_ns = 0;
    char error [MSG_TEXT_MAX + 1] = "";
    bool aborted = false;
    msg_result_t result;
    while (job_take_result (job, &result)) {
        fill_bytes += result.bytes;
        if (result.start_ns && result.start_ns < first_start_ns)
            first_start_ns = result.start_ns;
        if (result.end_ns > last_end_ns)
            last_end_ns = result.end_ns;
        if (result.error [0] && !error [0]) {
            msg_strcpy (error, result.error, sizeof (error));
            aborted = result.err_no == ECANCELED;
        }
    }
    int64_t fill_ns = last_end_ns > first_start_ns? last_end_ns - first_start_ns: 0;
    char quoted [AGENT_QUOTED_MAX];
    s_log (self, "event=fill test_id=%" PRIu32 " job_id=%" PRIu32 " bytes=%" PRIu64
           " reused=%s fill_ms=%" PRId64 " error=%s", self->test_id, job_id (job), fill_bytes,
           fill_bytes? "no": "yes", (int64_t) (fill_ns / NS_PER_MSEC),
           agent_log_quote (error, quoted, sizeof (quoted)));
    if (aborted)
        return;
    if (error [0]) {
        s_send_error (self, (int32_t) job_id (job), "prepare", "%s", error);
        return;
    }
    msg_t *out = s_message (self, MSG_READY);
    out->u.ready.test_id = self->test_id;
    out->u.ready.job_id = job_id (job);
    out->u.ready.streams = 0;       //  no timed streams: no RESULTs will follow
    out->u.ready.job_class = (uint32_t) job_class (job);
    out->u.ready.fill_bytes = fill_bytes;
    out->u.ready.fill_ns = fill_ns;
    slot->ready = true;
    s_send (self, out);
}

//  Answer every PREPARE whose job is done preparing.
static void
s_answer_prepares (agent_test_t *self)
{
    for (size_t index = 0; index < self->slot_count; index++) {
        s_slot_t *slot = &self->slots [index];
        if (slot->answered)
            continue;
        char err [MSG_TEXT_MAX + 1];
        int prepared = job_prepared (slot->job, err, sizeof (err));
        if (prepared == 0)
            continue;
        slot->answered = true;
        char quoted [AGENT_QUOTED_MAX];
        if (prepared == -1) {
            s_log (self, "event=prepare-failed test_id=%" PRIu32 " job_id=%" PRIu32 " reason=%s",
                   self->test_id, job_id (slot->job), agent_log_quote (err, quoted, sizeof (quoted)));
            if (!self->stopped)
                s_send_error (self, (int32_t) job_id (slot->job), "prepare", "%s", err);
            continue;
        }
        if (!job_workload (slot->job)->timed) {
            s_answer_fill (self, slot);
            continue;
        }
        msg_t *out = s_message (self, MSG_READY);
        out->u.ready.test_id = self->test_id;
        out->u.ready.job_id = job_id (slot->job);
        out->u.ready.streams = (uint32_t) job_stream_count (slot->job);
        out->u.ready.job_class = (uint32_t) job_class (slot->job);
        //  What a read laid out before it could be timed, shown apart.
        out->u.ready.fill_bytes = job_laid_out_bytes (slot->job);
        out->u.ready.fill_ns = out->u.ready.fill_bytes? job_prepare_ns (slot->job): 0;
        s_log (self, "event=ready test_id=%" PRIu32 " job_id=%" PRIu32 " streams=%" PRIu32
               " class=%s laid_out=%" PRIu64, self->test_id, out->u.ready.job_id,
               out->u.ready.streams, jobspec_class_name (job_class (slot->job)),
               out->u.ready.fill_bytes);
        slot->ready = true;
        s_send (self, out);
    }
}

//  --------------------------------------------------------------------------
//  DROP

//  The drop thread: write back, drop, tell the loop.
static void *
s_drop_thread (void *args)
{
    s_drop_t *drop = args;
    drop->rc = procstat_drop_caches ("/proc", drop->reason, sizeof (drop->reason));
    atomic_store_explicit (&drop->done, true, memory_order_release);
    uint64_t one = 1;
    ssize_t rc = write (drop->notify_fd, &one, sizeof (one));
    (void) rc;
    return NULL;
}

int
agent_test_drop_caches (agent_test_t *self, char *err, size_t errlen)
{
    for (size_t index = 0; index < self->slot_count; index++)
        if (!self->slots [index].ready) {
            snprintf (err, errlen, "test %" PRIu32 ": job %s is not ready", self->test_id,
                      job_spec (self->slots [index].job)->name);
            return -1;
        }
    if (self->drop.launched || self->phases_started > 0) {
        snprintf (err, errlen, "test %" PRIu32 ": the caches were dropped already", self->test_id);
        return -1;
    }
    self->drop.notify_fd = self->config.notify_fd;
    atomic_init (&self->drop.done, false);
    sigset_t all, previous;
    sigfillset (&all);
    pthread_sigmask (SIG_SETMASK, &all, &previous);
    int rc = pthread_create (&self->drop.thread, NULL, s_drop_thread, &self->drop);
    pthread_sigmask (SIG_SETMASK, &previous, NULL);
    if (rc != 0) {
        snprintf (err, errlen, "pthread_create(drop): %s", strerror (rc));
        return -1;
    }
    self->drop.launched = true;
    return 0;
}

//  The drop is over: say so.
static void
s_answer_drop (agent_test_t *self)
{
    s_drop_t *drop = &self->drop;
    if (!drop->launched || drop->answered
    ||  !atomic_load_explicit (&drop->done, memory_order_acquire))
        return;
    drop->answered = true;
    if (drop->rc) {
        s_send_error (self, -1, "prepare", "drop_caches = yes needs root on agent %s: %s",
                      self->config.agent_name, drop->reason);
        return;
    }
    s_log (self, "event=caches-dropped test_id=%" PRIu32, self->test_id);
    msg_t *out = s_message (self, MSG_DROPPED);
    out->u.dropped.test_id = self->test_id;
    s_send (self, out);
}

//  --------------------------------------------------------------------------
//  START, ABORT, STOP

int
agent_test_start (agent_test_t *self, uint32_t phase, uint32_t phase_count, int64_t start_ns,
                  char *err, size_t errlen)
{
    //  Figures of the phase before must be out before the next begins.
    agent_test_poll (self, clock_now_ns ());
    uint32_t phases = s_phase_count (self);
    if (phase_count < phases || phase_count > WORKLOAD_PHASES_MAX
    ||  (self->phase_count && phase_count != self->phase_count)) {
        snprintf (err, errlen, "test %" PRIu32 ": %" PRIu32 " phases, but its jobs have %" PRIu32,
                  self->test_id, phase_count, phases);
        return -1;
    }
    phases = phase_count;
    if (phase != self->phases_started || phase >= phases) {
        snprintf (err, errlen, "phase %" PRIu32 " of test %" PRIu32 ": expected phase %" PRIu32
                  " of %" PRIu32, phase, self->test_id, self->phases_started, phases);
        return -1;
    }
    for (size_t index = 0; index < self->slot_count; index++)
        if (!self->slots [index].ready) {
            snprintf (err, errlen, "test %" PRIu32 ": job %s is not ready", self->test_id,
                      job_spec (self->slots [index].job)->name);
            return -1;
        }
    if (self->drop.launched && !self->drop.answered) {
        snprintf (err, errlen, "test %" PRIu32 ": the caches are still being dropped",
                  self->test_id);
        return -1;
    }
    self->phase_count = phase_count;
    self->phases_started = phase + 1;
    self->phase_start_ns = start_ns;
    self->phase_results = 0;
    self->phase_over = false;
    self->host_begun = false;
    self->host_ended = false;
    for (size_t index = 0; index < self->slot_count; index++) {
        s_slot_t *slot = &self->slots [index];
        const workload_desc_t *desc = job_workload (slot->job);
        int64_t interval_ns = job_spec (slot->job)->interval_ns;
        if (desc->samples_host && phase == 0) {
            //  A monitor's series starts at the start instant itself: its
            //  first counters are the base of every difference after.
            job_start (slot->job, 0, start_ns);
            slot->next_sample_ns = start_ns;
        }
        else
        if (s_reports (slot->job)) {
            job_start (slot->job, phase, start_ns);
            slot->next_sample_ns = s_add_saturated (start_ns, interval_ns);
        }
    }
    return 0;
}

void
agent_test_abort (agent_test_t *self, const char *reason)
{
    self->stopped = true;
    for (size_t index = 0; index < self->slot_count; index++)
        job_stop (self->slots [index].job, reason);
}

//  A monitor's sample: the host's counters now.
static void
s_send_sample (agent_test_t *self, job_t *job, stream_t *stream)
{
    msg_t *out = s_message (self, MSG_SAMPLE);
    stream_sample (stream, out);
    if (out->type == MSG_MONITOR) {
        out->u.monitor.test_id = self->test_id;
        out->u.monitor.job_id = job_id (job);
    }
    else {
        out->u.sample.test_id = self->test_id;
        out->u.sample.job_id = job_id (job);
        if (self->config.verbose)
            s_log (self, "event=sample test_id=%" PRIu32 " job_id=%" PRIu32 " stream=%" PRIu32
                   " bytes=%" PRIu64, self->test_id, job_id (job), stream_index (stream),
                   out->u.sample.bytes);
    }
    s_send (self, out);
}

void
agent_test_stop_phase (agent_test_t *self, uint32_t phase)
{
    if (phase + 1 != self->phases_started)
        return;                     //  not the phase under way
    bool last = phase + 1 == s_phase_count (self);
    //  A last sample, so that a monitor's series ends with the test; sent
    //  before the window closes, since the HOST that closes it may be the
    //  last word the coordinator waits for.
    for (size_t index = 0; last && index < self->slot_count; index++) {
        job_t *job = self->slots [index].job;
        if (job_workload (job)->samples_host)
            for (size_t stream = 0; stream < job_stream_count (job); stream++)
                if (stream_running (job_stream (job, stream)))
                    s_send_sample (self, job, job_stream (job, stream));
    }
    //  A host without streams of its own in the phase (an NFS server's
    //  monitor) closes its window now.
    self->phase_over = true;
    agent_test_poll (self, clock_now_ns ());
    for (size_t index = 0; last && index < self->slot_count; index++)
        if (job_workload (self->slots [index].job)->samples_host)
            job_stop (self->slots [index].job, "test over");
}

void
agent_test_orphan (agent_test_t *self, const char *reason)
{
    agent_test_abort (self, reason);
    self->orphaned = true;
}

//  --------------------------------------------------------------------------
//  Results, samples, the host's window

//  Take every stream result that is ready: log it and send it.
static void
s_send_results (agent_test_t *self)
{
    for (size_t index = 0; index < self->slot_count; index++) {
        job_t *job = self->slots [index].job;
        if (!job_workload (job)->timed || !self->slots [index].ready)
            continue;
        while (true) {
            msg_t *out = s_message (self, MSG_RESULT);
            msg_result_t *result = &out->u.result;
            if (!job_take_result (job, result))
                break;
            char quoted [AGENT_QUOTED_MAX];
            s_log (self, "event=result test_id=%" PRIu32 " job_id=%" PRIu32 " stream=%" PRIu32
                   " phase=%" PRIu32 " bytes=%" PRIu64 " start_ns=%" PRId64 " end_ns=%" PRId64
                   " error=%s%s", result->test_id, result->job_id, result->stream, result->phase,
                   result->bytes, result->start_ns, result->end_ns,
                   agent_log_quote (result->error, quoted, sizeof (quoted)),
                   self->orphaned? " delivered=no": "");
            if (s_reports (job) && result->phase + 1 == self->phases_started)
                self->phase_results++;
            s_send (self, out);
        }
    }
}

//  Streams of the current phase that report figures.
static size_t
s_phase_streams (agent_test_t *self)
{
    size_t streams = 0;
    for (size_t index = 0; index < self->slot_count; index++) {
        job_t *job = self->slots [index].job;
        if (s_reports (job) && self->phases_started <= workload_phase_count (job_workload (job)))
            streams += job_stream_count (job);
    }
    return streams;
}

//  True if some job of the test owes the host's figures.
static bool
s_host_wanted (agent_test_t *self)
{
    for (size_t index = 0; index < self->slot_count; index++)
        if (job_workload (self->slots [index].job)->host_figures)
            return true;
    return false;
}

//  The host's window of a phase opens at its instant (the loop wakes for
//  it after the streams, which spin for it, have started), closes when
//  the phase's last stream has reported, and its figures go out once the
//  settle period after it is over.
static void
s_watch_host (agent_test_t *self, int64_t now_ns)
{
    if (self->phases_started == 0 || self->orphaned || !s_host_wanted (self))
        return;
    char err [256];
    if (!self->host_begun && now_ns >= self->phase_start_ns) {
        if (hostwatch_begin (self->hostwatch, self->test_id, err, sizeof (err)))
            s_log (self, "event=host-figures test_id=%" PRIu32 " error=\"%s\"", self->test_id, err);
        self->host_begun = true;
    }
    bool phase_over = self->phase_over || self->stopped
                   || (s_phase_streams (self) > 0 && self->phase_results >= s_phase_streams (self));
    if (self->host_begun && !self->host_ended && phase_over) {
        int64_t settle_ns = 0;
        for (size_t index = 0; index < self->slot_count; index++)
            if (job_spec (self->slots [index].job)->settle_ns > settle_ns)
                settle_ns = job_spec (self->slots [index].job)->settle_ns;
        if (hostwatch_end (self->hostwatch, settle_ns, err, sizeof (err)))
            s_log (self, "event=host-figures test_id=%" PRIu32 " error=\"%s\"", self->test_id, err);
        self->host_ended = true;
    }
    msg_t *out = s_message (self, MSG_HOST);
    if (self->host_ended && hostwatch_settled (self->hostwatch, &out->u.host)) {
        out->u.host.phase = self->phases_started - 1;
        s_send (self, out);
    }
}

//  A sample of every running stream of every job whose sample is due,
//  and its next one on the grid start + k * interval (skipping instants
//  the loop missed rather than bursting).
static void
s_send_samples (agent_test_t *self, int64_t now_ns)
{
    if (self->phases_started == 0 || self->orphaned)
        return;
    for (size_t index = 0; index < self->slot_count; index++) {
        s_slot_t *slot = &self->slots [index];
        if (now_ns < slot->next_sample_ns)
            continue;
        job_t *job = slot->job;
        for (size_t stream = 0; stream < job_stream_count (job); stream++)
            if (stream_running (job_stream (job, stream)))
                s_send_sample (self, job, job_stream (job, stream));
        //  START keeps its instant within an hour of now, so this cannot
        //  overflow. A monitor's grid stays on the first phase's instant.
        int64_t interval_ns = job_spec (job)->interval_ns;
        int64_t anchor_ns = slot->next_sample_ns;
        int64_t periods = (now_ns - anchor_ns) / interval_ns + 1;
        slot->next_sample_ns = s_add_saturated (anchor_ns, periods * interval_ns);
    }
}

void
agent_test_poll (agent_test_t *self, int64_t now_ns)
{
    s_answer_prepares (self);
    s_answer_drop (self);
    s_send_results (self);
    s_send_samples (self, now_ns);
    s_watch_host (self, now_ns);
}

int64_t
agent_test_next_ns (agent_test_t *self)
{
    int64_t next_ns = INT64_MAX;
    if (self->phases_started > 0 && !self->host_begun && s_host_wanted (self))
        next_ns = self->phase_start_ns;
    int64_t settle_ns = hostwatch_next_ns (self->hostwatch);
    if (self->host_ended && settle_ns && settle_ns < next_ns)
        next_ns = settle_ns;
    if (self->phases_started > 0 && !self->orphaned)
        for (size_t index = 0; index < self->slot_count; index++)
            if (self->slots [index].next_sample_ns < next_ns)
                next_ns = self->slots [index].next_sample_ns;
    return next_ns;
}

bool
agent_test_over (agent_test_t *self)
{
    if (self->drop.launched && !atomic_load_explicit (&self->drop.done, memory_order_acquire))
        return false;
    for (size_t index = 0; index < self->slot_count; index++)
        if (!job_over (self->slots [index].job))
            return false;
    //  The host's figures of the last window are owed until they settled.
    if (self->host_ended && !self->orphaned && hostwatch_next_ns (self->hostwatch))
        return false;
    //  A test not stopped may still see its later phases started: its
    //  streams report them as not run, so it stays until its last phase.
    if (!self->stopped && !self->orphaned && self->phases_started < s_phase_count (self))
        return false;
    return true;
}
