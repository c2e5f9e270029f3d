/*  agent/job.c: one job and its streams; see job.h. */
#include "job.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>

struct _job_t {
    uint32_t test_id;               //  test it belongs to (PREPARE's test_id)
    uint32_t job_id;                //  its index within the test
    jobspec_t spec;                 //  its options; streams point here
    const workload_ops_t *ops;      //  its workload
    stream_t **streams;             //  spec.streams of them once prepared
    size_t stream_count;            //  streams prepared so far
    size_t results_taken;           //  stream results handed out
    int job_class;                  //  CLASS_DISK or CLASS_NETWORK, as this agent sees it
    confine_dirs_t *made;           //  directories its prepare made, until the ledger takes them
};

//  CLASS_NETWORK if path (or, when it does not exist, its directory) lies
//  on an NFS mount, else CLASS_DISK.
static int
s_path_class (const char *path)
{
    struct statfs fs;
    char dir [JOB_PATH_MAX + 1];
    msg_strcpy (dir, path, sizeof (dir));
    if (statfs (path, &fs) == -1 && statfs (dirname (dir), &fs) == -1)
        return CLASS_DISK;
    return fs.f_type == NFS_SUPER_MAGIC? CLASS_NETWORK: CLASS_DISK;
}

//  A copy reads a local source under the roots just as it writes: resolve
//  it once into the job's spec, which the streams read, claim it in the
//  ledger, and learn its class from the filesystem it is on. Returns 0,
//  or -1 with err.
static int
s_resolve_source (job_t *self, confine_t *confine, ledger_t *ledger, char *err, size_t errlen)
{
    self->job_class = jobspec_class (&self->spec);
    if (self->spec.src [0] == '\0')
        return 0;
    if (jobspec_src_is_nfs (self->spec.src))
        return confine_check_nfs (confine, self->spec.src, err, errlen);
    char resolved [JOB_PATH_MAX + 1];
    if (confine_resolve (confine, self->spec.src, NULL, resolved, sizeof (resolved),
                         err, errlen) == -1
    ||  ledger_claim_file (ledger, self->job_id, self->spec.name, LEDGER_READS, resolved,
                           err, errlen) == -1)
        return -1;
    msg_strcpy (self->spec.src, resolved, sizeof (self->spec.src));
    if (self->spec.job_class == CLASS_AUTO)
        self->job_class = s_path_class (resolved);
    return 0;
}

//  Check every number of the spec against the bounds of its row in the
//  option table. The decoder did so already; the agent's arithmetic on
//  intervals, settle periods, rates and sizes relies on it, so it does
//  not take that on trust. Returns 0, or -1 with "KEY: VALUE is outside
//  MIN .. MAX" in err.
static int
s_check_numbers (const jobspec_t *spec, char *err, size_t errlen)
{
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++) {
        if (!(opt->flags & OPT_WIRE)
        ||  (opt->type != OPT_SIZE && opt->type != OPT_COUNT && opt->type != OPT_DURATION))
            continue;
        const char *field = (const char *) spec + opt->offset;
        char shown [32];
        bool outside;
        if (opt->type == OPT_DURATION) {
            int64_t ns = *(const int64_t *) field;
            snprintf (shown, sizeof (shown), "%" PRId64 "ns", ns);
            outside = ns < 0 || (uint64_t) ns < opt->min || (opt->max && (uint64_t) ns > opt->max);
        }
        else {
            uint64_t value = *(const uint64_t *) field;
            snprintf (shown, sizeof (shown), "%" PRIu64, value);
            outside = value < opt->min || (opt->max && value > opt->max);
        }
        if (outside) {
            snprintf (err, errlen, "%s: %s is outside %" PRIu64 " .. %" PRIu64,
                      opt->name, shown, opt->min, opt->max);
            return -1;
        }
    }
    return 0;
}

//  Resolve every stream's file, claim it in the ledger and prepare the
//  stream, before any thread starts, so that a refusal of stream 3
//  leaves no thread and no file behind. A copy writes dst, the others
//  path. Returns 0, or -1 with err.
static int
s_prepare_streams (job_t *self, confine_t *confine, ledger_t *ledger, char *err, size_t errlen)
{
    const jobspec_t *spec = &self->spec;
    const char *file = spec->workload == WORKLOAD_COPY? spec->dst: spec->path;
    ledger_use_t use = self->ops->untimed? LEDGER_FILLS: LEDGER_WRITES;
    for (uint32_t index = 0; index < spec->streams; index++) {
        char resolved [JOB_PATH_MAX + 1] = "";
        if (file [0]) {
            char stream_path [JOB_PATH_MAX + 1];
            char shown [CONFINE_SHOWN_MAX];
            if (jobspec_stream_path (file, spec->streams, index,
                                     stream_path, sizeof (stream_path)) == -1) {
                snprintf (err, errlen, "path %s: too long for %llu streams",
                          confine_shorten (file, shown, sizeof (shown)),
                          (unsigned long long) spec->streams);
                return -1;
            }
            if (confine_resolve (confine, stream_path, self->ops->uses_files? self->made: NULL,
                                 resolved, sizeof (resolved), err, errlen) == -1)
                return -1;
            if (strcmp (resolved, spec->src) == 0) {
                snprintf (err, errlen, "dst %s: is the source itself",
                          confine_shorten (stream_path, shown, sizeof (shown)));
                return -1;
            }
            if (self->ops->uses_files
            &&  ledger_claim_file (ledger, self->job_id, spec->name, use, resolved,
                                   err, errlen) == -1)
                return -1;
        }
        self->streams [index] = stream_new (self->ops, spec, index, resolved, err, errlen);
        if (!self->streams [index])
            return -1;
        self->stream_count++;
    }
    return 0;
}

//  Prepare a whole job: validate, claim, resolve, prepare and launch
//  every stream.
job_t *
job_new (uint32_t test_id, uint32_t job_id, const jobspec_t *spec, confine_t *confine,
         ledger_t *ledger, int notify_fd, char *err, size_t errlen)
{
    job_t *self = calloc (1, sizeof (job_t));
    if (!self) {
        snprintf (err, errlen, "job %s: %s", spec->name, strerror (ENOMEM));
        goto fail;
    }
    self->test_id = test_id;
    self->job_id = job_id;
    self->spec = *spec;

    if (s_check_numbers (spec, err, errlen) == -1)
        goto fail;
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
    uint64_t stream_bytes = self->ops->stream_memory? self->ops->stream_memory (spec): 0;
    if (ledger_claim_memory (ledger, job_id, spec->name, spec->streams, stream_bytes,
                             err, errlen) == -1)
        goto fail;
    self->streams = calloc (spec->streams, sizeof (stream_t *));
    self->made = confine_dirs_new ();
    if (!self->streams || !self->made) {
        snprintf (err, errlen, "job %s: %s", spec->name, strerror (ENOMEM));
        goto fail;
    }
    if (s_resolve_source (self, confine, ledger, err, errlen) == -1
    ||  s_prepare_streams (self, confine, ledger, err, errlen) == -1)
        goto fail;
    for (size_t index = 0; index < self->stream_count; index++)
        if (stream_launch (self->streams [index], notify_fd, err, errlen) == -1)
            goto fail;
    //  Prepared: its files exist, the jobs after it are checked against
    //  them; the directories it made go when the test is over (with
    //  keep, they stay with the files).
    ledger_seal_job (ledger, job_id);
    if (spec->keep)
        confine_dirs_forget (self->made);
    else
    if (ledger_adopt_dirs (ledger, self->made) == -1) {
        snprintf (err, errlen, "job %s: %s", spec->name, strerror (ENOMEM));
        goto fail;
    }
    //  An untimed job (fill) does its work now, during PREPARE: its
    //  streams get an instant already past.
    if (self->ops->untimed)
        job_start (self, 0);
    return self;

fail:
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
    for (size_t index = 0; index < self->stream_count; index++)
        stream_destroy (&self->streams [index]);
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

//  The job's class as this agent sees it.
int
job_class (job_t *self)
{
    return self->job_class;
}

//  True for a job that works during PREPARE and reports no RESULT.
bool
job_untimed (job_t *self)
{
    return self->ops->untimed;
}

//  True for a monitor job.
bool
job_samples_host (job_t *self)
{
    return self->ops->samples_host;
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
