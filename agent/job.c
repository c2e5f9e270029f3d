/*  agent/job.c: one job and its streams; see job.h. */
#include "job.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct _job_t {
    uint32_t test_id;               //  test it belongs to (PREPARE's test_id)
    uint32_t job_id;                //  its index within the test
    jobspec_t spec;                 //  its options; streams point here
    const workload_ops_t *ops;      //  its workload
    stream_t **streams;             //  spec.streams of them once prepared
    size_t stream_count;            //  streams prepared so far
    size_t results_taken;           //  stream results handed out
};

//  Prepare a whole job: validate, resolve, prepare and launch every stream.
job_t *
job_new (uint32_t test_id, uint32_t job_id, const jobspec_t *spec,
         confine_t *confine, int notify_fd, char *err, size_t errlen)
{
    job_t *self = calloc (1, sizeof (job_t));
    if (!self) {
        snprintf (err, errlen, "job %s: %s", spec->name, strerror (ENOMEM));
        goto fail;
    }
    self->test_id = test_id;
    self->job_id = job_id;
    self->spec = *spec;

    self->ops = workload_lookup (spec->workload);
    if (!self->ops) {
        snprintf (err, errlen, "workload %d is not known to this agent", spec->workload);
        goto fail;
    }
    if (self->ops->validate (&self->spec, err, errlen) == -1)
        goto fail;
    if (spec->streams < 1 || spec->streams > JOB_STREAMS_MAX) {
        snprintf (err, errlen, "streams: %llu is outside 1 .. %d",
                  (unsigned long long) spec->streams, JOB_STREAMS_MAX);
        goto fail;
    }
    self->streams = calloc (spec->streams, sizeof (stream_t *));
    if (!self->streams) {
        snprintf (err, errlen, "job %s: %s", spec->name, strerror (ENOMEM));
        goto fail;
    }

    //  Resolve and prepare every stream before any thread starts, so a
    //  refusal of stream 3 leaves no thread and no file behind.
    for (uint32_t index = 0; index < spec->streams; index++) {
        char resolved [JOB_PATH_MAX + 1] = "";
        if (spec->path [0]) {
            char stream_path [JOB_PATH_MAX + 1];
            if (jobspec_stream_path (spec->path, spec->streams, index,
                                     stream_path, sizeof (stream_path)) == -1) {
                snprintf (err, errlen, "path %s: too long for %llu streams", spec->path,
                          (unsigned long long) spec->streams);
                goto fail;
            }
            if (confine_resolve (confine, stream_path, self->ops->uses_files,
                                 resolved, sizeof (resolved), err, errlen) == -1)
                goto fail;
        }
        self->streams [index] = stream_new (self->ops, &self->spec, index, resolved,
                                            err, errlen);
        if (!self->streams [index])
            goto fail;
        self->stream_count++;
    }
    for (size_t index = 0; index < self->stream_count; index++)
        if (stream_launch (self->streams [index], notify_fd, err, errlen) == -1)
            goto fail;
    return self;

fail:
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
    for (size_t index = 0; index < self->stream_count; index++)
        stream_destroy (&self->streams [index]);
    free (self->streams);
    free (self);
    *self_p = NULL;
}

//  Test the job belongs to.
uint32_t
job_test_id (job_t *self)
{
    return self->test_id;
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

//  Hand every stream the start instant.
void
job_start (job_t *self, int64_t start_ns)
{
    for (size_t index = 0; index < self->stream_count; index++)
        stream_start (self->streams [index], start_ns);
}

//  Ask every stream still going to end early.
void
job_stop (job_t *self, const char *reason)
{
    for (size_t index = 0; index < self->stream_count; index++)
        if (!stream_done (self->streams [index]))
            stream_stop (self->streams [index], reason);
}

//  Join every stream thread.
void
job_wait (job_t *self)
{
    for (size_t index = 0; index < self->stream_count; index++)
        stream_wait (self->streams [index]);
}

//  The next stream result not yet taken, if any.
bool
job_take_result (job_t *self, msg_result_t *result)
{
    for (size_t index = 0; index < self->stream_count; index++)
        if (stream_take_result (self->streams [index], result)) {
            result->test_id = self->test_id;
            result->job_id = self->job_id;
            self->results_taken++;
            return true;
        }
    return false;
}

//  True once every stream's result was taken.
bool
job_finished (job_t *self)
{
    return self->results_taken == self->stream_count;
}
