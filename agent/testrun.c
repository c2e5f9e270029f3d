/*  agent/testrun.c: the test an agent holds; see testrun.h. Its life, its
    phases' START, STOP and ABORT, its samples and results; PREPARE and
    DROP are testrun_prepare.c's.
*/
#include "testrun_state.h"

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
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  --------------------------------------------------------------------------
//  Small things (testrun_state.h says what the shared ones do)

void
testrun_log (agent_testrun_t *self, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    agent_logv (self->config.agent_name, format, args);
    va_end (args);
}

msg_t *
testrun_message (agent_testrun_t *self, msg_type_t type)
{
    memset (&self->out, 0, sizeof (self->out));
    self->out.type = type;
    return &self->out;
}

void
testrun_send (agent_testrun_t *self, msg_t *out)
{
    if (!self->orphaned)
        self->config.send (self->config.send_arg, out);
}

void
testrun_send_error (agent_testrun_t *self, int32_t job_id, const char *code,
                    const char *format, ...)
{
    va_list args;
    va_start (args, format);
    msg_make_error (&self->out, self->test_id, job_id, code, format, args);
    va_end (args);
    testrun_send (self, &self->out);
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
s_phase_count (agent_testrun_t *self)
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

agent_testrun_t *
agent_testrun_new (const agent_testrun_config_t *config, uint32_t test_id, const char *name)
{
    agent_testrun_t *self = calloc (1, sizeof (agent_testrun_t));
    if (!self)
        return NULL;
    self->config = *config;
    self->test_id = test_id;
    agent_log_token (name, self->name, sizeof (self->name));
    self->ledger = ledger_new (config->memory_bound_bytes);
    self->hostwatch = hostwatch_new ("/proc", "/sys");
    self->intervals = interval_latency_new ();
    self->next_interval_ns = INT64_MAX;
    if (!self->ledger || !self->hostwatch || !self->intervals)
        agent_testrun_destroy (&self);
    else
        ledger_keep_in (self->ledger, config->kept);
    return self;
}

void
agent_testrun_destroy (agent_testrun_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    agent_testrun_t *self = *self_p;
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
    interval_latency_destroy (&self->intervals);
    free (self->slots);
    free (self);
    *self_p = NULL;
}

uint32_t
agent_testrun_id (agent_testrun_t *self)
{
    return self->test_id;
}

const char *
agent_testrun_name (agent_testrun_t *self)
{
    return self->name;
}

bool
agent_testrun_started (agent_testrun_t *self)
{
    return self->phases_started > 0;
}

//  --------------------------------------------------------------------------
//  START, ABORT, STOP

//  The grid of a phase's intervals: start + k * length, the length the
//  shortest interval of the jobs that report figures. The streams of
//  those jobs record into the test's intervals from the first phase on.
static void
s_start_intervals (agent_testrun_t *self, uint32_t phase, int64_t start_ns)
{
    self->interval_ns = 0;
    for (size_t index = 0; index < self->slot_count; index++) {
        job_t *job = self->slots [index].job;
        int64_t interval_ns = job_spec (job)->interval_ns;
        if (!s_reports (job) || interval_ns <= 0)
            continue;
        if (self->interval_ns == 0 || interval_ns < self->interval_ns)
            self->interval_ns = interval_ns;
        if (phase == 0)
            job_set_interval (job, self->intervals);
    }
    self->next_interval_ns = self->interval_ns?
        s_add_saturated (start_ns, self->interval_ns): INT64_MAX;
}

int
agent_testrun_start (agent_testrun_t *self, uint32_t phase, uint32_t phase_count, int64_t start_ns,
                  char *err, size_t errlen)
{
    //  Figures of the phase before must be out before the next begins.
    agent_testrun_poll (self, clock_now_ns ());
    uint32_t phases = s_phase_count (self);
    if (phase_count < phases || phase_count > PHASES_MAX
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
    s_start_intervals (self, phase, start_ns);
    for (size_t index = 0; index < self->slot_count; index++) {
        test_slot_t *slot = &self->slots [index];
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
agent_testrun_abort (agent_testrun_t *self, const char *reason)
{
    self->stopped = true;
    for (size_t index = 0; index < self->slot_count; index++)
        job_stop (self->slots [index].job, reason);
}

//  Whether a stream of job sends samples now: a stream doing I/O while
//  in the timed part of a phase; a monitor (its samples are the host's
//  counters, not its own) from its first instant until its thread ends,
//  even before the thread has seen the instant: the loop may wake for
//  the series' first sample before the stream's thread does.
static bool
s_sampling (job_t *job, stream_t *stream)
{
    if (job_workload (job)->samples_host)
        return !stream_done (stream);
    return stream_running (stream);
}

//  A monitor's sample: the host's counters now.
static void
s_send_sample (agent_testrun_t *self, job_t *job, stream_t *stream)
{
    msg_t *out = testrun_message (self, MSG_SAMPLE);
    stream_sample (stream, out);
    if (out->type == MSG_MONITOR) {
        out->u.monitor.test_id = self->test_id;
        out->u.monitor.job_id = job_id (job);
    }
    else {
        out->u.sample.test_id = self->test_id;
        out->u.sample.job_id = job_id (job);
        if (self->config.verbose)
            testrun_log (self, "event=sample test_id=%" PRIu32 " job_id=%" PRIu32 " stream=%" PRIu32
                   " bytes=%" PRIu64, self->test_id, job_id (job), stream_index (stream),
                   out->u.sample.bytes);
    }
    testrun_send (self, out);
}

void
agent_testrun_stop_phase (agent_testrun_t *self, uint32_t phase)
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
                if (s_sampling (job, job_stream (job, stream)))
                    s_send_sample (self, job, job_stream (job, stream));
    }
    //  A host without streams of its own in the phase (an NFS server's
    //  monitor) closes its window now.
    self->phase_over = true;
    agent_testrun_poll (self, clock_now_ns ());
    for (size_t index = 0; last && index < self->slot_count; index++)
        if (job_workload (self->slots [index].job)->samples_host)
            job_stop (self->slots [index].job, "test over");
}

void
agent_testrun_orphan (agent_testrun_t *self, const char *reason)
{
    agent_testrun_abort (self, reason);
    self->orphaned = true;
}

//  --------------------------------------------------------------------------
//  Results, samples, the host's window

//  Send what the test's streams recorded as interval index, unless
//  nothing was. Its own message: it may go out while a RESULT is built.
static void
s_send_interval (agent_testrun_t *self, int64_t index)
{
    msg_t *out = &self->interval_out;
    memset (out, 0, sizeof (*out));
    out->type = MSG_INTERVAL;
    msg_interval_t *interval = &out->u.interval;
    uint64_t requests = interval_latency_take (self->intervals, interval->latency);
    if (requests == 0 || index < 0 || index > UINT32_MAX)
        return;
    interval->test_id = self->test_id;
    interval->phase = self->phases_started - 1;
    interval->index = (uint32_t) index;
    interval->length_ns = self->interval_ns;
    if (self->config.verbose)
        testrun_log (self, "event=interval test_id=%" PRIu32 " phase=%" PRIu32 " index=%" PRId64
                     " requests=%" PRIu64, self->test_id, interval->phase, index, requests);
    testrun_send (self, out);
}

//  At the end of every interval of a phase, what was recorded in it
//  (the intervals the loop missed go with the one it saw end).
static void
s_send_intervals (agent_testrun_t *self, int64_t now_ns)
{
    if (self->phases_started == 0 || self->orphaned || now_ns < self->next_interval_ns)
        return;
    int64_t current = (now_ns - self->phase_start_ns) / self->interval_ns;
    s_send_interval (self, current - 1);
    self->next_interval_ns = s_add_saturated (self->phase_start_ns,
                                              (current + 1) * self->interval_ns);
}

//  The phase's streams have all ended: what is left, as the interval
//  under way, and no more until the next START. Before the phase's last
//  result, so that the console has the phase's intervals when it comes.
static void
s_flush_intervals (agent_testrun_t *self, int64_t now_ns)
{
    if (self->next_interval_ns == INT64_MAX)
        return;
    int64_t elapsed_ns = now_ns - self->phase_start_ns;
    s_send_interval (self, elapsed_ns < 0? 0: elapsed_ns / self->interval_ns);
    self->next_interval_ns = INT64_MAX;
}

//  Streams of the current phase that report figures.
static size_t
s_phase_streams (agent_testrun_t *self)
{
    size_t streams = 0;
    for (size_t index = 0; index < self->slot_count; index++) {
        job_t *job = self->slots [index].job;
        if (s_reports (job) && self->phases_started <= workload_phase_count (job_workload (job)))
            streams += job_stream_count (job);
    }
    return streams;
}

//  Take every stream result that is ready: log it and send it.
static void
s_send_results (agent_testrun_t *self)
{
    for (size_t index = 0; index < self->slot_count; index++) {
        job_t *job = self->slots [index].job;
        if (!job_workload (job)->timed || !self->slots [index].ready)
            continue;
        while (true) {
            msg_t *out = testrun_message (self, MSG_RESULT);
            msg_result_t *result = &out->u.result;
            if (!job_take_result (job, result))
                break;
            char quoted [AGENT_QUOTED_MAX];
            testrun_log (self, "event=result test_id=%" PRIu32 " job_id=%" PRIu32 " stream=%" PRIu32
                   " phase=%" PRIu32 " bytes=%" PRIu64 " start_ns=%" PRId64 " end_ns=%" PRId64
                   " error=%s%s", result->test_id, result->job_id, result->stream, result->phase,
                   result->bytes, result->start_ns, result->end_ns,
                   agent_log_quote (result->error, quoted, sizeof (quoted)),
                   self->orphaned? " delivered=no": "");
            if (s_reports (job) && result->phase + 1 == self->phases_started)
                self->phase_results++;
            //  The phase's last result: its streams record no more, and
            //  what is left of the intervals goes before it.
            if (self->phase_results >= s_phase_streams (self))
                s_flush_intervals (self, clock_now_ns ());
            testrun_send (self, out);
        }
    }
}

//  True if some job of the test owes the host's figures.
static bool
s_host_wanted (agent_testrun_t *self)
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
s_watch_host (agent_testrun_t *self, int64_t now_ns)
{
    if (self->phases_started == 0 || self->orphaned || !s_host_wanted (self))
        return;
    char err [256];
    if (!self->host_begun && now_ns >= self->phase_start_ns) {
        if (hostwatch_begin (self->hostwatch, self->test_id, err, sizeof (err)))
            testrun_log (self, "event=host-figures test_id=%" PRIu32 " error=\"%s\"",
                         self->test_id, err);
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
            testrun_log (self, "event=host-figures test_id=%" PRIu32 " error=\"%s\"",
                         self->test_id, err);
        self->host_ended = true;
    }
    msg_t *out = testrun_message (self, MSG_HOST);
    if (self->host_ended && hostwatch_settled (self->hostwatch, &out->u.host)) {
        out->u.host.phase = self->phases_started - 1;
        testrun_send (self, out);
    }
}

//  A sample of every running stream of every job whose sample is due,
//  and its next one on the grid start + k * interval (skipping instants
//  the loop missed rather than bursting).
static void
s_send_samples (agent_testrun_t *self, int64_t now_ns)
{
    if (self->phases_started == 0 || self->orphaned)
        return;
    for (size_t index = 0; index < self->slot_count; index++) {
        test_slot_t *slot = &self->slots [index];
        if (now_ns < slot->next_sample_ns)
            continue;
        job_t *job = slot->job;
        for (size_t stream = 0; stream < job_stream_count (job); stream++)
            if (s_sampling (job, job_stream (job, stream)))
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
agent_testrun_poll (agent_testrun_t *self, int64_t now_ns)
{
    testrun_answer_prepares (self);
    testrun_answer_drop (self);
    s_send_intervals (self, now_ns);
    s_send_results (self);
    s_send_samples (self, now_ns);
    s_watch_host (self, now_ns);
}

int64_t
agent_testrun_next_ns (agent_testrun_t *self)
{
    int64_t next_ns = INT64_MAX;
    if (self->phases_started > 0 && !self->host_begun && s_host_wanted (self))
        next_ns = self->phase_start_ns;
    int64_t settle_ns = hostwatch_next_ns (self->hostwatch);
    if (self->host_ended && settle_ns && settle_ns < next_ns)
        next_ns = settle_ns;
    if (self->phases_started > 0 && !self->orphaned && self->next_interval_ns < next_ns)
        next_ns = self->next_interval_ns;
    if (self->phases_started > 0 && !self->orphaned)
        for (size_t index = 0; index < self->slot_count; index++)
            if (self->slots [index].next_sample_ns < next_ns)
                next_ns = self->slots [index].next_sample_ns;
    return next_ns;
}

bool
agent_testrun_over (agent_testrun_t *self)
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
