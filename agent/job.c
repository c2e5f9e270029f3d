/*  agent/job.c: one job and its streams; see job.h. */
#include "job.h"
#include "admit.h"

#include "../proto/clock.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct _job_t {
    uint32_t test_id;               //  test it belongs to (PREPARE's test_id)
    uint32_t job_id;                //  its index within the test
    jobspec_t spec;                 //  its options; streams point here
    const workload_desc_t *desc;    //  what its workload is (proto/workload.c)
    const workload_ops_t *ops;      //  how this agent runs it
    workload_job_t shared;          //  what its streams share (ops->job_prepare)
    bool shared_made;               //  job_prepare succeeded: job_cleanup is owed
    bool accepted;                  //  job_new went through: its streams may become ready
    stream_t **streams;             //  spec.streams of them
    size_t stream_count;            //  streams created so far
    int job_class;                  //  CLASS_DISK or CLASS_NETWORK, as this agent sees it
    confine_dirs_t *made;           //  directories its prepare made, until the ledger takes them
    ledger_t *ledger;               //  the test's ledger, to seal the job's files in
    int64_t launched_ns;            //  when its streams began to prepare
    //  Written by the stream threads:
    atomic_uint unprepared;         //  streams whose prepare is not over
    atomic_bool stream_failed;      //  a stream's prepare failed
    int64_t prepared_ns;            //  when the last one was over
    //  The loop thread's:
    int prepared;                   //  job_prepared's answer once final, 0 before
    char prepare_error [MSG_TEXT_MAX + 1];  //  and its reason
};

//  In a stream's thread, when its prepare is over: the last one notes
//  when the job's prepare ended.
static void
s_stream_prepared (void *arg, stream_t *stream, int rc)
{
    (void) stream;
    job_t *self = arg;
    if (rc == -1)
        atomic_store (&self->stream_failed, true);
    if (atomic_fetch_sub (&self->unprepared, 1) == 1)
        self->prepared_ns = clock_now_ns ();
}

//  Accept a whole job: check, claim, resolve, and launch every stream.
job_t *
job_new (uint32_t test_id, uint32_t job_id, const jobspec_t *spec, confine_t *confine,
         ledger_t *ledger, int notify_fd, char *err, size_t errlen)
{
    char (*paths) [JOB_PATH_MAX + 1] = NULL;
    job_t *self = calloc (1, sizeof (job_t));
    if (!self) {
        snprintf (err, errlen, "job %s: %s", spec->name, strerror (ENOMEM));
        goto fail;
    }
    self->test_id = test_id;
    self->job_id = job_id;
    self->spec = *spec;
    self->ledger = ledger;

    self->made = confine_dirs_new ();
    if (!self->made) {
        snprintf (err, errlen, "job %s: %s", spec->name, strerror (ENOMEM));
        goto fail;
    }
    //  The one admission preflight makes too (admit.h).
    admit_t admit = {
        .spec = &self->spec,
        .job_id = job_id,
        .confine = confine,
        .ledger = ledger,
        .made = self->made
    };
    if (admit_job (&admit, err, errlen) == -1)
        goto fail;
    self->desc = admit.desc;
    self->ops = admit.ops;
    self->job_class = admit.job_class;
    paths = admit.paths;
    self->streams = calloc (spec->streams, sizeof (stream_t *));
    if (!self->streams) {
        snprintf (err, errlen, "job %s: %s", spec->name, strerror (ENOMEM));
        goto fail;
    }

    //  What the streams share, on the files as resolved.
    self->shared.spec = &self->spec;
    self->shared.kept = ledger_kept (ledger, &self->shared.session_id);
    if (self->ops->job_prepare) {
        if (self->ops->job_prepare (&self->shared, err, errlen) == -1)
            goto fail;
        self->shared_made = true;
    }
    //  A job that samples the host runs one phase, as long as the test.
    uint32_t phases = self->desc->samples_host? 1: workload_phase_count (self->desc);
    for (uint32_t index = 0; index < spec->streams; index++) {
        self->streams [index] = stream_new (self->ops, &self->spec, index, paths [index],
                                            phases, err, errlen);
        if (!self->streams [index])
            goto fail;
        if (self->shared_made)
            stream_set_job (self->streams [index], &self->shared);
        self->stream_count++;
    }
    atomic_init (&self->unprepared, (unsigned) self->stream_count);
    atomic_init (&self->stream_failed, false);
    self->launched_ns = clock_now_ns ();
    for (size_t index = 0; index < self->stream_count; index++)
        if (stream_launch (self->streams [index], notify_fd, s_stream_prepared, self,
                           err, errlen) == -1) {
            //  The streams not launched never call back: count them done.
            atomic_fetch_sub (&self->unprepared, (unsigned) (self->stream_count - index));
            goto fail;
        }
    //  The directories it made go when the test is over (with keep, they
    //  stay with the files).
    if (spec->keep)
        confine_dirs_forget (self->made);
    else
    if (ledger_adopt_dirs (ledger, self->made) == -1) {
        snprintf (err, errlen, "job %s: %s", spec->name, strerror (ENOMEM));
        goto fail;
    }
    //  An untimed job (fill) does its work right after its prepare, in its
    //  threads: its streams get an instant already past.
    if (!self->desc->timed)
        job_start (self, 0, 0);
    free (paths);
    self->accepted = true;
    return self;

fail:
    free (paths);
    ledger_forget_job (ledger, job_id);
    job_destroy (&self);
    return NULL;
}

//  Stop, join and clean up every stream, then free the job.
void
job_destroy (job_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    job_t *self = *self_p;
    //  Stop them all first, so that the threads end together rather than
    //  one after another.
    job_stop (self, "discarded");
    bool prepared = self->accepted;
    for (size_t index = 0; index < self->stream_count; index++) {
        stream_wait (self->streams [index]);
        prepared &= stream_prepared (self->streams [index]) == 1;
    }
    for (size_t index = 0; index < self->stream_count; index++)
        stream_destroy (&self->streams [index]);
    //  What the streams shared goes after the last of them.
    if (self->shared_made)
        self->ops->job_cleanup (&self->shared, prepared);
    //  A job that failed still holds the directories it made: nothing
    //  else can be in them yet.
    if (self->made)
        confine_dirs_remove (self->made);
    confine_dirs_destroy (&self->made);
    free (self->streams);
    free (self);
    *self_p = NULL;
}

//  Index of the job within its test.
uint32_t
job_id (job_t *self)
{
    return self->job_id;
}

//  The job's options.
const jobspec_t *
job_spec (job_t *self)
{
    return &self->spec;
}

//  The job's workload.
const workload_desc_t *
job_workload (job_t *self)
{
    return self->desc;
}

//  The job's class as this agent sees it.
int
job_class (job_t *self)
{
    return self->job_class;
}

//  Whether the job is prepared, and if it failed, why.
int
job_prepared (job_t *self, char *err, size_t errlen)
{
    if (self->prepared) {
        snprintf (err, errlen, "%s", self->prepare_error);
        return self->prepared;
    }
    //  Any stream that failed fails the job, whatever the others do.
    for (size_t index = 0; index < self->stream_count; index++)
        if (stream_prepared (self->streams [index]) == -1) {
            snprintf (self->prepare_error, sizeof (self->prepare_error), "%s",
                      stream_prepare_error (self->streams [index]));
            self->prepared = -1;
            break;
        }
    if (!self->prepared)
        for (size_t index = 0; index < self->stream_count; index++)
            if (stream_prepared (self->streams [index]) == 0)
                return 0;
    //  A fill is ready once its work is done, which it did as its phase.
    if (!self->prepared && !self->desc->timed)
        for (size_t index = 0; index < self->stream_count; index++)
            if (!stream_done (self->streams [index]))
                return 0;
    if (!self->prepared) {
        self->prepared = 1;
        ledger_seal_job (self->ledger, self->job_id);
    }
    snprintf (err, errlen, "%s", self->prepare_error);
    return self->prepared;
}

//  Bytes laid out at prepare by all its streams.
uint64_t
job_laid_out_bytes (job_t *self)
{
    uint64_t bytes = 0;
    for (size_t index = 0; index < self->stream_count; index++)
        bytes += stream_laid_out_bytes (self->streams [index]);
    return bytes;
}

//  How long its prepare took, 0 before it was over.
int64_t
job_prepare_ns (job_t *self)
{
    return self->prepared == 1 && self->prepared_ns > self->launched_ns?
           self->prepared_ns - self->launched_ns: 0;
}

//  Number of streams.
size_t
job_stream_count (job_t *self)
{
    return self->stream_count;
}

//  Stream index, or NULL.
stream_t *
job_stream (job_t *self, size_t index)
{
    return index < self->stream_count? self->streams [index]: NULL;
}

//  Hand every stream the start instant of a phase.
void
job_start (job_t *self, uint32_t phase, int64_t start_ns)
{
    for (size_t index = 0; index < self->stream_count; index++)
        stream_start (self->streams [index], phase, start_ns);
}

void
job_set_interval (job_t *self, interval_latency_t *interval)
{
    for (size_t index = 0; index < self->stream_count; index++)
        stream_set_interval (self->streams [index], interval);
}

//  Ask every stream still going to end early.
void
job_stop (job_t *self, const char *reason)
{
    for (size_t index = 0; index < self->stream_count; index++)
        if (!stream_done (self->streams [index]))
            stream_stop (self->streams [index], reason);
}

//  The next stream result not yet taken, if any.
bool
job_take_result (job_t *self, msg_result_t *result)
{
    for (size_t index = 0; index < self->stream_count; index++)
        if (stream_take_result (self->streams [index], result)) {
            result->test_id = self->test_id;
            result->job_id = self->job_id;
            return true;
        }
    return false;
}

//  True once every stream ended and its figures were taken.
bool
job_over (job_t *self)
{
    for (size_t index = 0; index < self->stream_count; index++)
        if (!stream_done (self->streams [index])
        ||  stream_result_waiting (self->streams [index]))
            return false;
    return true;
}
