/*  agent/admit.c: one job's admission on this agent; see admit.h. */
#include "admit.h"

#include "engines/engine.h"
#include "stream.h"

#include "../proto/preflight.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

//  Refuse with problem and subject: returns -1.
static int
s_refuse (admit_t *self, const char *problem, const char *subject)
{
    self->problem = problem;
    msg_strcpy (self->subject, subject? subject: "", sizeof (self->subject));
    return -1;
}

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
s_ledger_use (const admit_t *self, const workload_file_t *file)
{
    if (!file->writes)
        return LEDGER_READS;
    return self->desc->timed? LEDGER_WRITES: LEDGER_FILLS;
}

//  A file option whose stream paths do not fit. Returns -1 with err.
static int
s_too_long (admit_t *self, const workload_file_t *file, char *err, size_t errlen)
{
    char shown [CONFINE_SHOWN_MAX];
    snprintf (err, errlen, "%s %s: too long for %" PRIu64 " streams", file->option,
              confine_shorten (workload_option_text (self->spec, file->option),
                               shown, sizeof (shown)),
              self->spec->streams);
    return s_refuse (self, PREFLIGHT_PATH, NULL);
}

//  confine_resolve, with the refusal filed: outside the roots, or not.
static int
s_confine (admit_t *self, const char *path, confine_dirs_t *made, char *resolved,
           size_t resolved_size, char *err, size_t errlen)
{
    if (confine_resolve (self->confine, path, made, resolved, resolved_size, err, errlen) == 0)
        return 0;
    return s_refuse (self, errno == EXDEV? PREFLIGHT_ROOTS: PREFLIGHT_PATH, path);
}

//  Resolve file `index` of file option `f` under the roots (making its
//  directories if the job may create it) and claim it in the ledger.
//  Returns 0, or -1 with err.
static int
s_resolve_file (admit_t *self, size_t f, uint64_t index,
                char *resolved, size_t resolved_size, char *err, size_t errlen)
{
    const workload_file_t *file = &self->desc->files [f];
    char path [JOB_PATH_MAX + 1];
    if (workload_file_path (self->spec, f, index, path, sizeof (path)) == -1)
        return s_too_long (self, file, err, errlen);
    bool creates = file->writes || file->lays_out;
    if (s_confine (self, path, creates? self->made: NULL, resolved, resolved_size,
                   err, errlen) == -1)
        return -1;
    if (ledger_claim_file (self->ledger, self->job_id, self->spec->name,
                           s_ledger_use (self, file), resolved, err, errlen) == -1)
        return s_refuse (self, PREFLIGHT_JOB, path);
    return 0;
}

//  Resolve a file set (randrw's path.1 .. path.N, or path itself for
//  one) under the roots once, making its directories: its files differ
//  from the set's path only by their suffix, so they share its directory,
//  and each is opened by name in that directory, refusing a symlink.
//  Claim it in the ledger as one set; the spec the streams read gets the
//  resolved path, and so does every stream. Returns 0, or -1 with err.
static int
s_resolve_set (admit_t *self, size_t f, char *err, size_t errlen)
{
    const workload_file_t *file = &self->desc->files [f];
    const opt_def_t *opt = jobspec_option (file->option);
    char *value = (char *) self->spec + opt->offset;
    char resolved [JOB_PATH_MAX + 1];
    char longest [JOB_PATH_MAX + 1];
    if (s_confine (self, value, self->made, resolved, sizeof (resolved), err, errlen) == -1)
        return -1;
    msg_strcpy (value, resolved, opt->capacity);
    if (workload_file_path (self->spec, f, self->spec->files - 1, longest, sizeof (longest)) == -1)
        return s_too_long (self, file, err, errlen);
    for (uint64_t index = 0; index < self->spec->streams; index++)
        msg_strcpy (self->paths [index], resolved, JOB_PATH_MAX + 1);
    if (ledger_claim_set (self->ledger, self->job_id, self->spec->name, s_ledger_use (self, file),
                          resolved, self->spec->files, err, errlen) == -1)
        return s_refuse (self, PREFLIGHT_JOB, value);
    return 0;
}

//  Resolve every file the job names, as its workload's row says: a
//  shared file once, into the spec the streams read (a copy's source);
//  an nfs:// URL only against the servers this agent may read; the
//  per-stream files into paths[] (at most one per-stream option; a
//  per-stream URL gives each stream its URL there, unresolved); a file
//  set once (s_resolve_set). Learns the job's class from the file it
//  reads. Returns 0, or -1 with err.
static int
s_resolve_files (admit_t *self, char *err, size_t errlen)
{
    self->job_class = workload_job_class (self->spec);
    const char *shared_read = NULL;
    const workload_file_t *file;
    for (size_t f = 0; (file = workload_file (self->desc, f)); f++) {
        const opt_def_t *opt = jobspec_option (file->option);
        char *value = (char *) self->spec + opt->offset;
        if (!value [0])
            continue;
        if (jobspec_src_is_nfs (value)) {
            if (confine_check_nfs (self->confine, value, err, errlen) == -1)
                return s_refuse (self, PREFLIGHT_NFS, value);
            //  Per stream, an URL names each stream's file as a path would.
            for (uint64_t index = 0; file->naming == FILES_PER_STREAM
                                  && index < self->spec->streams; index++)
                if (workload_file_path (self->spec, f, index, self->paths [index],
                                        JOB_PATH_MAX + 1) == -1)
                    return s_too_long (self, file, err, errlen);
            continue;
        }
        if (file->naming == FILES_SET) {
            if (s_resolve_set (self, f, err, errlen) == -1)
                return -1;
            continue;
        }
        if (file->naming == FILES_SHARED) {
            char resolved [JOB_PATH_MAX + 1];
            if (s_resolve_file (self, f, 0, resolved, sizeof (resolved), err, errlen) == -1)
                return -1;
            msg_strcpy (value, resolved, opt->capacity);
            if (!file->writes)
                shared_read = value;
            if (!file->writes && self->spec->job_class == CLASS_AUTO)
                self->job_class = s_path_class (resolved);
            continue;
        }
        for (uint64_t index = 0; index < self->spec->streams; index++) {
            if (s_resolve_file (self, f, index, self->paths [index], JOB_PATH_MAX + 1,
                                err, errlen) == -1)
                return -1;
            if (shared_read && strcmp (self->paths [index], shared_read) == 0) {
                char shown [CONFINE_SHOWN_MAX];
                snprintf (err, errlen, "%s %s: is the source itself", file->option,
                          confine_shorten (self->paths [index], shown, sizeof (shown)));
                return s_refuse (self, PREFLIGHT_JOB, self->paths [index]);
            }
        }
        if (!file->writes && self->spec->job_class == CLASS_AUTO && self->spec->streams > 0)
            self->job_class = s_path_class (self->paths [0]);
    }
    return 0;
}

//  The deepest directory of a resolved path that exists, into dir.
//  Returns 0, or -1 if none does (then nothing can be said of it).
static int
s_existing_dir (const char *resolved, char *dir, size_t dirlen)
{
    msg_strcpy (dir, resolved, dirlen);
    struct stat st;
    while (true) {
        char *slash = strrchr (dir, '/');
        if (!slash)
            return -1;
        if (slash == dir)
            slash [1] = '\0';
        else
            *slash = '\0';
        if (stat (dir, &st) == 0)
            return S_ISDIR (st.st_mode)? 0: -1;
        if (errno != ENOENT || strcmp (dir, "/") == 0)
            return -1;
    }
}

//  The files a job creates or lays out must have a directory it can
//  write to (a file that exists is opened as it is: its own mode says),
//  and the bytes a size-bound job writes must fit in the free space of
//  their file system, counting what existing files hold already. Only a
//  certain failure is refused: a time-bound job may stop early, a file
//  set's or an unsized job's bytes are not known here, and files on
//  several file systems are not added up. Returns 0, or -1 with err.
static int
s_check_room (admit_t *self, char *err, size_t errlen)
{
    uint64_t need_bytes = 0;
    bool sized = self->spec->runtime_ns == 0 && self->spec->size_bytes > 0;
    bool one_fs = true;
    unsigned long fsid = 0;
    char space_dir [JOB_PATH_MAX + 1] = "";
    const workload_file_t *file;
    for (size_t f = 0; (file = workload_file (self->desc, f)); f++) {
        if ((!file->writes && !file->lays_out) || file->naming != FILES_PER_STREAM)
            continue;
        for (uint64_t index = 0; index < self->spec->streams; index++) {
            const char *path = self->paths [index];
            char dir [JOB_PATH_MAX + 1];
            struct stat st;
            if (jobspec_src_is_nfs (path) || s_existing_dir (path, dir, sizeof (dir)) == -1)
                continue;
            bool exists = stat (path, &st) == 0;
            if (!exists && access (dir, W_OK) == -1 && (errno == EACCES || errno == EROFS)) {
                char shown [CONFINE_SHOWN_MAX];
                snprintf (err, errlen, "job %s: directory %s: %s", self->spec->name,
                          confine_shorten (dir, shown, sizeof (shown)), strerror (errno));
                return s_refuse (self, PREFLIGHT_WRITABLE, dir);
            }
            struct statvfs vfs;
            if (!sized || statvfs (dir, &vfs) == -1)
                continue;
            if (!space_dir [0]) {
                fsid = vfs.f_fsid;
                msg_strcpy (space_dir, dir, sizeof (space_dir));
            }
            one_fs &= vfs.f_fsid == fsid;
            uint64_t held_bytes = exists && S_ISREG (st.st_mode)? (uint64_t) st.st_size: 0;
            if (self->spec->size_bytes > held_bytes)
                need_bytes += self->spec->size_bytes - held_bytes;
        }
    }
    struct statvfs vfs;
    if (!sized || !one_fs || !space_dir [0] || statvfs (space_dir, &vfs) == -1)
        return 0;
    uint64_t free_bytes = (uint64_t) vfs.f_bavail * vfs.f_frsize;
    if (need_bytes <= free_bytes)
        return 0;
    char shown [CONFINE_SHOWN_MAX];
    snprintf (err, errlen, "job %s: its files need %.1f MiB more than they hold now, and %s has %.1f MiB free",
              self->spec->name, need_bytes / 1048576.0,
              confine_shorten (space_dir, shown, sizeof (shown)), free_bytes / 1048576.0);
    return s_refuse (self, PREFLIGHT_SPACE, space_dir);
}

//  Admit a job: every check prepare makes before a stream starts.
int
admit_job (admit_t *self, char *err, size_t errlen)
{
    const jobspec_t *spec = self->spec;
    const char *key;
    char reason [MSG_TEXT_MAX + 1];
    self->problem = NULL;
    self->subject [0] = '\0';
    self->paths = NULL;
    if (s_check_numbers (spec, err, errlen) == -1)
        return s_refuse (self, PREFLIGHT_JOB, NULL);
    self->desc = workload_desc (spec->workload);
    self->ops = workload_lookup (spec->workload);
    if (!self->desc || !self->ops) {
        snprintf (err, errlen, "workload %d is not known to this agent", spec->workload);
        return s_refuse (self, PREFLIGHT_JOB, NULL);
    }
    if (workload_check (spec, &key, reason, sizeof (reason)) == -1) {
        snprintf (err, errlen, "%s: %s", key, reason);
        return s_refuse (self, PREFLIGHT_JOB, NULL);
    }
    if (workload_uses_key (self->desc, "engine") && engine_check (spec, err, errlen) == -1)
        return s_refuse (self, PREFLIGHT_ENGINE, NULL);
    if (self->ops->validate && self->ops->validate (self->spec, err, errlen) == -1)
        return s_refuse (self, PREFLIGHT_JOB, NULL);
    uint64_t buffer_bytes = self->ops->stream_memory? self->ops->stream_memory (spec): 0;
    if (ledger_claim_memory (self->ledger, self->job_id, spec->name, spec->streams, buffer_bytes,
                             STREAM_FIGURES_BYTES, err, errlen) == -1)
        return s_refuse (self, PREFLIGHT_MEMORY, NULL);
    self->paths = calloc (spec->streams? spec->streams: 1, sizeof (*self->paths));
    if (!self->paths) {
        snprintf (err, errlen, "job %s: %s", spec->name, strerror (ENOMEM));
        return s_refuse (self, PREFLIGHT_JOB, NULL);
    }
    if (s_resolve_files (self, err, errlen) == -1 || s_check_room (self, err, errlen) == -1) {
        free (self->paths);
        self->paths = NULL;
        return -1;
    }
    return 0;
}
