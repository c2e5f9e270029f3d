/*  agent/testrun_prepare.c: a test's PREPARE and DROP: its jobs accepted
    and prepared, each answered READY or ERROR when done, and the page
    cache dropped in a thread of its own; see testrun.h.
*/
#include "testrun_state.h"
#include "log.h"
#include "procstat.h"

#include "../proto/clock.h"
#include "../proto/workload.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//  What one test may ask of this agent (proto/jobspec.h, where the
//  console's check finds them too).
#define S_TEST_STREAMS_MAX      TEST_AGENT_STREAMS_MAX
#define S_TEST_JOBS_MAX         TEST_AGENT_JOBS_MAX

//  --------------------------------------------------------------------------
//  PREPARE

//  Remove job job_id from the test, if it holds it (a PREPARE repeated).
static void
s_remove_job (agent_testrun_t *self, uint32_t wanted_job_id)
{
    for (size_t index = 0; index < self->slot_count; index++) {
        if (job_id (self->slots [index].job) != wanted_job_id)
            continue;
        self->stream_count -= job_stream_count (self->slots [index].job);
        job_destroy (&self->slots [index].job);
        ledger_forget_job (self->ledger, wanted_job_id);
        memmove (self->slots + index, self->slots + index + 1,
                 (self->slot_count - index - 1) * sizeof (test_slot_t));
        self->slot_count--;
        return;
    }
}

void
agent_testrun_prepare (agent_testrun_t *self, const msg_prepare_t *prepare)
{
    const jobspec_t *spec = &prepare->spec;
    int32_t wire_job_id = (int32_t) prepare->job_id;
    if (self->phases_started > 0) {
        testrun_send_error (self, wire_job_id, "prepare", "test %" PRIu32 " has already started",
                      self->test_id);
        return;
    }
    s_remove_job (self, prepare->job_id);
    if (self->slot_count >= S_TEST_JOBS_MAX) {
        testrun_send_error (self, wire_job_id, "prepare",
                      "job %s: test %" PRIu32 " already holds %d jobs on agent %s, its limit",
                      spec->name, self->test_id, S_TEST_JOBS_MAX, self->config.agent_name);
        return;
    }
    if (spec->streams > S_TEST_STREAMS_MAX
    ||  self->stream_count + spec->streams > S_TEST_STREAMS_MAX) {
        testrun_send_error (self, wire_job_id, "prepare",
                      "job %s: %" PRIu64 " streams would exceed this agent's limit of %d per test",
                      spec->name, spec->streams, S_TEST_STREAMS_MAX);
        return;
    }
    if (self->slot_count == self->slot_capacity) {
        size_t capacity = self->slot_capacity? 2 * self->slot_capacity: 4;
        test_slot_t *slots = realloc (self->slots, capacity * sizeof (test_slot_t));
        if (!slots) {
            testrun_send_error (self, wire_job_id, "prepare", "job %s: %s", spec->name,
                                strerror (ENOMEM));
            return;
        }
        self->slots = slots;
        self->slot_capacity = capacity;
    }
    char quoted [AGENT_QUOTED_MAX];
    char job_name [JOB_NAME_MAX + 1];
    testrun_log (self, "event=prepare test=%s job=%s test_id=%" PRIu32 " job_id=%" PRIu32
           " workload=%s streams=%" PRIu64 " path=%s", self->name,
           agent_log_token (spec->name, job_name, sizeof (job_name)),
           self->test_id, prepare->job_id, jobspec_workload_name (spec->workload),
           spec->streams, agent_log_quote (spec->path, quoted, sizeof (quoted)));
    char err [MSG_TEXT_MAX + 1] = "";
    job_t *job = job_new (self->test_id, prepare->job_id, spec, self->config.confine,
                          self->ledger, self->config.notify_fd, err, sizeof (err));
    if (!job) {
        testrun_log (self, "event=prepare-failed test_id=%" PRIu32 " job_id=%" PRIu32 " reason=%s",
               self->test_id, prepare->job_id, agent_log_quote (err, quoted, sizeof (quoted)));
        testrun_send_error (self, wire_job_id, "prepare", "%s", err);
        return;
    }
    self->slots [self->slot_count++] = (test_slot_t) { .job = job, .next_sample_ns = INT64_MAX };
    self->stream_count += job_stream_count (job);
    //  A fill works in its stream threads now; its READY (or ERROR)
    //  follows when it is done.
    if (!job_workload (job)->timed)
        testrun_log (self, "event=fill-started test_id=%" PRIu32 " job_id=%" PRIu32 " streams=%zu",
               self->test_id, prepare->job_id, job_stream_count (job));
}

//  A fill's work is done: its figures make its READY (or ERROR). A fill
//  stopped by an abort answers nothing: the coordinator gave up on it.
static void
s_answer_fill (agent_testrun_t *self, test_slot_t *slot)
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
    testrun_log (self, "event=fill test_id=%" PRIu32 " job_id=%" PRIu32 " bytes=%" PRIu64
           " reused=%s fill_ms=%" PRId64 " error=%s", self->test_id, job_id (job), fill_bytes,
           fill_bytes? "no": "yes", (int64_t) (fill_ns / NS_PER_MSEC),
           agent_log_quote (error, quoted, sizeof (quoted)));
    if (aborted)
        return;
    if (error [0]) {
        testrun_send_error (self, (int32_t) job_id (job), "prepare", "%s", error);
        return;
    }
    msg_t *out = testrun_message (self, MSG_READY);
    out->u.ready.test_id = self->test_id;
    out->u.ready.job_id = job_id (job);
    out->u.ready.streams = 0;       //  no timed streams: no RESULTs will follow
    out->u.ready.job_class = (uint32_t) job_class (job);
    out->u.ready.fill_bytes = fill_bytes;
    out->u.ready.fill_ns = fill_ns;
    slot->ready = true;
    testrun_send (self, out);
}

void
testrun_answer_prepares (agent_testrun_t *self)
{
    for (size_t index = 0; index < self->slot_count; index++) {
        test_slot_t *slot = &self->slots [index];
        if (slot->answered)
            continue;
        char err [MSG_TEXT_MAX + 1];
        int prepared = job_prepared (slot->job, err, sizeof (err));
        if (prepared == 0)
            continue;
        slot->answered = true;
        char quoted [AGENT_QUOTED_MAX];
        if (prepared == -1) {
            testrun_log (self, "event=prepare-failed test_id=%" PRIu32 " job_id=%" PRIu32
                         " reason=%s", self->test_id, job_id (slot->job),
                         agent_log_quote (err, quoted, sizeof (quoted)));
            if (!self->stopped)
                testrun_send_error (self, (int32_t) job_id (slot->job), "prepare", "%s", err);
            continue;
        }
        if (!job_workload (slot->job)->timed) {
            s_answer_fill (self, slot);
            continue;
        }
        msg_t *out = testrun_message (self, MSG_READY);
        out->u.ready.test_id = self->test_id;
        out->u.ready.job_id = job_id (slot->job);
        out->u.ready.streams = (uint32_t) job_stream_count (slot->job);
        out->u.ready.job_class = (uint32_t) job_class (slot->job);
        //  What a read laid out before it could be timed, shown apart.
        out->u.ready.fill_bytes = job_laid_out_bytes (slot->job);
        out->u.ready.fill_ns = out->u.ready.fill_bytes? job_prepare_ns (slot->job): 0;
        testrun_log (self, "event=ready test_id=%" PRIu32 " job_id=%" PRIu32 " streams=%" PRIu32
               " class=%s laid_out=%" PRIu64, self->test_id, out->u.ready.job_id,
               out->u.ready.streams, jobspec_class_name (job_class (slot->job)),
               out->u.ready.fill_bytes);
        slot->ready = true;
        testrun_send (self, out);
    }
}

//  --------------------------------------------------------------------------
//  DROP

//  The drop thread: write back, drop, tell the loop.
static void *
s_drop_thread (void *args)
{
    test_drop_t *drop = args;
    drop->rc = procstat_drop_caches ("/proc", drop->reason, sizeof (drop->reason));
    atomic_store_explicit (&drop->done, true, memory_order_release);
    uint64_t one = 1;
    ssize_t rc = write (drop->notify_fd, &one, sizeof (one));
    (void) rc;
    return NULL;
}

int
agent_testrun_drop_caches (agent_testrun_t *self, char *err, size_t errlen)
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

void
testrun_answer_drop (agent_testrun_t *self)
{
    test_drop_t *drop = &self->drop;
    if (!drop->launched || drop->answered
    ||  !atomic_load_explicit (&drop->done, memory_order_acquire))
        return;
    drop->answered = true;
    if (drop->rc) {
        testrun_send_error (self, -1, "prepare", "drop_caches = yes needs root on agent %s: %s "
                            "(a packaged agent: install the drop-in "
                            "/usr/share/doc/iofleet-agent/examples/drop-caches.conf)",
                            self->config.agent_name, drop->reason);
        return;
    }
    testrun_log (self, "event=caches-dropped test_id=%" PRIu32, self->test_id);
    msg_t *out = testrun_message (self, MSG_DROPPED);
    out->u.dropped.test_id = self->test_id;
    testrun_send (self, out);
}
