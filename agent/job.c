/*  agent/job.c: one job and its streams; see job.h. */
#include "job.h"

#include "../proto/clock.h"

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
        ||  (opt->type != OPT_SIZE && opt->type != OPT_COUNT && opt->type != OPT_DURATION
         && opt->type != OPT_DECIMAL))
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

//  How the ledger sees a job's use of one of its file options.
static ledger_use_t
s_ledger_use (const job_t *self, const workload_file_t *file)
{
    if (!file->writes)
        return LEDGER_READS;
    return self->desc->timed? LEDGER_WRITES: LEDGER_FILLS;
}

//  A file option whose stream paths do not fit. Returns -1 with err.
static int
s_too_long (const job_t *self, const workload_file_t *file, char *err, size_t errlen)
{
    char shown [CONFINE_SHOWN_MAX];
    snprintf (err, errlen, "%s %s: too long for %" PRIu64 " streams", file->option,
              confine_shorten (workload_option_text (&self->spec, file->option),
                               shown, sizeof (shown)),
              self->spec.streams);
    return -1;
}

//  Resolve file `index` of file option `f` under the roots (making its
//  directories if the job may create it) and claim it in the ledger.
//  Returns 0, or -1 with err.
static int
s_resolve_file (job_t *self, confine_t *confine, size_t f, uint64_t index,
                char *resolved, size_t resolved_size, char *err, size_t errlen)
{
    const workload_file_t *file = &self->desc->files [f];
    char path [JOB_PATH_MAX + 1];
    if (workload_file_path (&self->spec, f, index, path, sizeof (path)) == -1)
        return s_too_long (self, file, err, errlen);
    bool creates = file->writes || file->lays_out;
    if (confine_resolve (confine, path, creates? self->made: NULL,
                         resolved, resolved_size, err, errlen) == -1)
        return -1;
    return ledger_claim_file (self->ledger, self->job_id, self->spec.name,
                              s_ledger_use (self, file), resolved, err, errlen);
}

//  Resolve a file set (randrw's path.1 .. path.N, or path itself for
//  one) under the roots once, making its directories: its files differ
//  from the set's path only by their suffix, so they share its directory,
//  and each is opened by name in that directory, refusing a symlink.
//  Claim it in the ledger as one set; the spec the streams read gets the
//  resolved path, and so does every stream. Returns 0, or -1 with err.
static int
s_resolve_set (job_t *self, confine_t *confine, size_t f, char (*paths) [JOB_PATH_MAX + 1],
               char *err, size_t errlen)
{
    const workload_file_t *file = &self->desc->files [f];
    const opt_def_t *opt = jobspec_option (file->option);
    char *value = (char *) &self->spec + opt->offset;
    char resolved [JOB_PATH_MAX + 1];
    char longest [JOB_PATH_MAX + 1];
    if (confine_resolve (confine, value, self->made, resolved, sizeof (resolved),
                         err, errlen) == -1)
        return -1;
    msg_strcpy (value, resolved, opt->capacity);
    if (workload_file_path (&self->spec, f, self->spec.files - 1, longest, sizeof (longest)) == -1)
        return s_too_long (self, file, err, errlen);
    for (uint64_t index = 0; index < self->spec.streams; index++)
        msg_strcpy (paths [index], resolved, JOB_PATH_MAX + 1);
    return ledger_claim_set (self->ledger, self->job_id, self->spec.name,
                             s_ledger_use (self, file), resolved, self->spec.files, err, errlen);
}

//  Resolve every file the job names, as its workload's row says: a
//  shared file once, into the spec the streams read (a copy's source);
//  an nfs:// URL only against the servers this agent may read; the
//  per-stream files into paths[] (at most one per-stream option; a
//  per-stream URL gives each stream its URL there, unresolved); a file
//  set once (s_resolve_set). Learns the job's class from the file it
//  reads. Returns 0, or -1 with err.
static int
s_resolve_files (job_t *self, confine_t *confine, char (*paths) [JOB_PATH_MAX + 1],
                 char *err, size_t errlen)
{
    self->job_class = jobspec_class (&self->spec);
    const char *shared_read = NULL;
    for (size_t f = 0; f < WORKLOAD_FILES_MAX && self->desc->files [f].option; f++) {
        const workload_file_t *file = &self->desc->files [f];
        const opt_def_t *opt = jobspec_option (file->option);
        char *value = (char *) &self->spec + opt->offset;
        if (!value [0])
            continue;
        if (jobspec_src_is_nfs (value)) {
            if (confine_check_nfs (confine, value, err, errlen) == -1)
                return -1;
            //  Per stream, an URL names each stream's file as a path would.
            for (uint64_t index = 0; file->naming == FILES_PER_STREAM
                                  && index < self->spec.streams; index++)
                if (workload_file_path (&self->spec, f, index, paths [index],
                                        JOB_PATH_MAX + 1) == -1)
                    return s_too_long (self, file, err, errlen);
            continue;
        }
        if (file->naming == FILES_SET) {
            if (s_resolve_set (self, confine, f, paths, err, errlen) == -1)
                return -1;
            continue;
        }
        if (file->naming == FILES_SHARED) {
            char resolved [JOB_PATH_MAX + 1];
            if (s_resolve_file (self, confine, f, 0, resolved, sizeof (resolved),
                                err, errlen) == -1)
                return -1;
            msg_strcpy (value, resolved, opt->capacity);
            if (!file->writes)
                shared_read = value;
            if (!file->writes && self->spec.job_class == CLASS_AUTO)
                self->job_class = s_path_class (resolved);
            continue;
        }
        for (uint64_t index = 0; index < self->spec.streams; index++) {
            if (s_resolve_file (self, confine, f, index, paths [index], JOB_PATH_MAX + 1,
                                err, errlen) == -1)
                return -1;
            if (shared_read && strcmp (paths [index], shared_read) == 0) {
                char shown [CONFINE_SHOWN_MAX];
                snprintf (err, errlen, "%s %s: is the source itself", file->option,
                          confine_shorten (paths [index], shown, sizeof (shown)));
                return -1;
            }
        }
        if (!file->writes && self->spec.job_class == CLASS_AUTO && self->spec.streams > 0)
            self->job_class = s_path_class (paths [0]);
    }
    return 0;
}

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

    const char *key;
    char reason [MSG_TEXT_MAX + 1];
    if (s_check_numbers (spec, err, errlen) == -1)
        goto fail;
    self->desc = workload_desc (spec->workload);
    self->ops = workload_lookup (spec->workload);
    if (!self->desc || !self->ops) {
        snprintf (err, errlen, "workload %d is not known to this agent", spec->workload);
        goto fail;
    }
    if (workload_check (spec, &key, reason, sizeof (reason)) == -1) {
        snprintf (err, errlen, "%s: %s", key, reason);
        goto fail;
    }
    if (self->ops->validate && self->ops->validate (&self->spec, err, errlen) == -1)
        goto fail;
    uint64_t buffer_bytes = self->ops->stream_memory? self->ops->stream_memory (spec): 0;
    if (ledger_claim_memory (ledger, job_id, spec->name, spec->streams, buffer_bytes,
                             STREAM_FIGURES_BYTES, err, errlen) == -1)
        goto fail;
    self->streams = calloc (spec->streams, sizeof (stream_t *));
    paths = calloc (spec->streams, sizeof (*paths));
    self->made = confine_dirs_new ();
    if (!self->streams || !paths || !self->made) {
        snprintf (err, errlen, "job %s: %s", spec->name, strerror (ENOMEM));
        goto fail;
    }
    if (s_resolve_files (self, confine, paths, err, errlen) == -1)
        goto fail;

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
