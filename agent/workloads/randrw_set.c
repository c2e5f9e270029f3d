/*  agent/workloads/randrw_set.c: randrw's file set, made for the job and
    laid out by its first stream; see randrw_set.h and randrw.c.
*/
#include "randrw_set.h"

#include "../kept.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

void
randrw_file_path (const jobspec_t *spec, uint64_t index, char *path, size_t pathlen,
             char *shown, size_t shownlen)
{
    //  job.c checked that the longest of them fits.
    if (workload_file_path (spec, 0, index, path, pathlen) == -1)
        snprintf (path, pathlen, "%s", spec->path);
    confine_shorten (path, shown, shownlen);
}

int
randrw_set_new (workload_job_t *job, char *err, size_t errlen)
{
    const jobspec_t *spec = job->spec;
    randrw_set_t *set = calloc (1, sizeof (randrw_set_t));
    if (set) {
        set->files = calloc (spec->files, sizeof (randrw_file_t));
        set->fds = calloc (spec->files, sizeof (int));
    }
    if (!set || !set->files || !set->fds) {
        if (set) {
            free (set->files);
            free (set->fds);
        }
        free (set);
        snprintf (err, errlen, "job %s: a set of %" PRIu64 " files: %s", spec->name,
                  spec->files, strerror (ENOMEM));
        return -1;
    }
    pthread_mutex_init (&set->lock, NULL);
    set->dir_fd = -1;
    set->count = spec->files;
    set->file_bytes = spec->size_bytes / spec->files;
    set->file_blocks = set->file_bytes / spec->bs_bytes;
    for (uint64_t index = 0; index < set->count; index++)
        set->files [index].fd = set->fds [index] = -1;
    job->data = set;
    return 0;
}

//  bytes as a size a scenario would write ("2G", "1.5M"). Returns buf.
static const char *
s_size_text (uint64_t bytes, char *buf, size_t buflen)
{
    static const opt_def_t size_row = { .name = "bytes", .type = OPT_SIZE, .offset = 0 };
    if (opt_format (&size_row, &bytes, buf, buflen) == -1)
        snprintf (buf, buflen, "%" PRIu64, bytes);
    return buf;
}

//  What laying the set out still takes, against the free space of its
//  file system. Returns 0, or -1 with the path and the sizes in err.
static int
s_check_space (workload_stream_t *ws, randrw_set_t *set, char *err, size_t errlen)
{
    const jobspec_t *spec = ws->spec;
    uint64_t need_bytes = 0;
    for (uint64_t index = 0; index < set->count; index++) {
        char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
        randrw_file_path (spec, index, path, sizeof (path), shown, sizeof (shown));
        struct stat st;
        uint64_t have_bytes = 0;
        if (fstatat (set->dir_fd, workload_file_name (path), &st, AT_SYMLINK_NOFOLLOW) == 0)
            have_bytes = (uint64_t) st.st_size;
        else
        if (errno != ENOENT) {
            snprintf (err, errlen, "stat(%s): %s", shown, strerror (errno));
            return -1;
        }
        if (have_bytes < set->file_bytes)
            need_bytes += set->file_bytes - have_bytes;
    }
    struct statvfs fs;
    if (need_bytes == 0 || fstatvfs (set->dir_fd, &fs) == -1)
        return 0;               //  nothing to write, or no way to know: the writes will say
    uint64_t free_bytes = (uint64_t) fs.f_bavail * fs.f_frsize;
    if (need_bytes > free_bytes) {
        char need [32], each [32], have [32];
        snprintf (err, errlen, "file set %s: laying it out needs %s more (%" PRIu64
                  " file%s of %s), and its file system has %s free", ws->shown,
                  s_size_text (need_bytes, need, sizeof (need)), set->count,
                  set->count == 1? "": "s", s_size_text (set->file_bytes, each, sizeof (each)),
                  s_size_text (free_bytes, have, sizeof (have)));
        return -1;
    }
    return 0;
}

//  Open file `index` of the set for reading and writing, creating it if
//  it is missing (then it is ours), and write it up to its size if it is
//  short, with the pattern, then flush it. The stop flag is looked at
//  between blocks, so that an abort ends a layout of any size promptly.
//  Returns 0, or -1 with the reason in err.
static int
s_lay_out_file (workload_stream_t *ws, randrw_set_t *set, unsigned char *buffer, uint64_t index,
                uint64_t *seed, char *err, size_t errlen)
{
    randrw_file_t *file = &set->files [index];
    char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
    randrw_file_path (ws->spec, index, path, sizeof (path), shown, sizeof (shown));
    const char *name = workload_file_name (path);
    struct stat st;
    //  O_EXCL says whether it was there, even against a racing creator.
    file->fd = workload_open_at (set->dir_fd, name, shown, O_RDWR | O_CREAT | O_EXCL, &st,
                                 err, errlen);
    file->ours = file->fd != -1;
    if (file->fd == -1 && errno == EEXIST)
        file->fd = workload_open_at (set->dir_fd, name, shown, O_RDWR, &st, err, errlen);
    if (file->fd == -1)
        return -1;
    file->dev = st.st_dev;
    file->ino = st.st_ino;

    const uint64_t bs_bytes = ws->spec->bs_bytes;
    uint64_t offset = (uint64_t) st.st_size;
    if (offset >= set->file_bytes)
        return 0;
    while (offset < set->file_bytes) {
        if (workload_stopping (ws)) {
            snprintf (err, errlen, "lay out(%s): stopped at %" PRIu64 " of %" PRIu64 " bytes",
                      shown, offset, set->file_bytes);
            return -1;
        }
        size_t want_bytes = (size_t) (set->file_bytes - offset < bs_bytes?
                                      set->file_bytes - offset: bs_bytes);
        if (ws->spec->pattern == PATTERN_RANDOM)
            workload_random_fill (buffer, want_bytes, seed);
        ssize_t written = pwrite (file->fd, buffer, want_bytes, (off_t) offset);
        if (written == -1 && errno == EINTR)
            continue;
        if (written <= 0) {
            snprintf (err, errlen, "write(%s at %" PRIu64 "): %s", shown, offset,
                      written == 0? "wrote nothing": strerror (errno));
            return -1;
        }
        offset += (uint64_t) written;
        ws->laid_out_bytes += (uint64_t) written;
    }
    if (fdatasync (file->fd) == -1) {
        snprintf (err, errlen, "fdatasync(%s): %s", shown, strerror (errno));
        return -1;
    }
    return 0;
}

int
randrw_set_open (randrw_set_t *set, workload_stream_t *ws, unsigned char *buffer, char *err,
                 size_t errlen)
{
    set->dir_fd = workload_open_dir (ws->spec->path, ws->shown, err, errlen);
    if (set->dir_fd == -1 || s_check_space (ws, set, err, errlen) == -1)
        return -1;
    uint64_t seed = workload_random_seed ();
    for (uint64_t index = 0; index < set->count; index++)
        if (s_lay_out_file (ws, set, buffer, index, &seed, err, errlen) == -1)
            return -1;
    //  Direct I/O over pages the layout left in the page cache is
    //  refused by the kernel's non-blocking path (io_uring then hands
    //  each such request to a worker thread) and pays for dropping the
    //  page: the layout's pages go before the first request.
    for (uint64_t index = 0; ws->spec->direct && index < set->count; index++) {
        posix_fadvise (set->files [index].fd, 0, 0, POSIX_FADV_DONTNEED);
        int flags = fcntl (set->files [index].fd, F_GETFL);
        if (flags == -1 || fcntl (set->files [index].fd, F_SETFL, flags | O_DIRECT) == -1) {
            char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
            randrw_file_path (ws->spec, index, path, sizeof (path), shown, sizeof (shown));
            snprintf (err, errlen, "open(%s, O_DIRECT): the filesystem does not support "
                      "direct I/O (%s)", shown, strerror (errno));
            return -1;
        }
    }
    for (uint64_t index = 0; index < set->count; index++)
        set->fds [index] = set->files [index].fd;
    return 0;
}

//  Remove file `index` of the set if it is ours and its name is still
//  that file.
static void
s_remove_file (const jobspec_t *spec, randrw_set_t *set, uint64_t index)
{
    randrw_file_t *file = &set->files [index];
    char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
    randrw_file_path (spec, index, path, sizeof (path), shown, sizeof (shown));
    struct stat st;
    if (file->ours && set->dir_fd != -1
    &&  fstatat (set->dir_fd, workload_file_name (path), &st, AT_SYMLINK_NOFOLLOW) == 0
    &&  st.st_dev == file->dev && st.st_ino == file->ino)
        unlinkat (set->dir_fd, workload_file_name (path), 0);
    file->ours = false;
}

//  Hand the files the job created over to the session, which removes
//  them when it ends. Returns 0, or -1 if it would not have them (the
//  session is over, or out of memory): then they are still the job's.
static int
s_hand_over (workload_job_t *job, randrw_set_t *set)
{
    if (!job->kept || set->dir_fd == -1)
        return -1;
    uint64_t ours = 0;
    for (uint64_t index = 0; index < set->count; index++)
        ours += set->files [index].ours;
    if (ours == 0)
        return 0;
    kept_file_t *files = calloc (ours, sizeof (kept_file_t));
    char (*names) [JOB_PATH_MAX + 1] = calloc (ours, JOB_PATH_MAX + 1);
    int rc = -1;
    if (files && names) {
        uint64_t count = 0;
        for (uint64_t index = 0; index < set->count; index++) {
            if (!set->files [index].ours)
                continue;
            char shown [CONFINE_SHOWN_MAX];
            randrw_file_path (job->spec, index, names [count], JOB_PATH_MAX + 1, shown, sizeof (shown));
            files [count] = (kept_file_t) { .name = workload_file_name (names [count]),
                                            .dev = set->files [index].dev,
                                            .ino = set->files [index].ino };
            count++;
        }
        rc = kept_adopt (job->kept, job->session_id, set->dir_fd, files, count);
    }
    if (rc == 0) {
        set->dir_fd = -1;       //  the session's now
        for (uint64_t index = 0; index < set->count; index++)
            set->files [index].ours = false;
    }
    free (names);
    free (files);
    return rc;
}

void
randrw_set_destroy (workload_job_t *job, bool prepared)
{
    randrw_set_t *set = job->data;
    if (!set)
        return;
    for (uint64_t index = 0; index < set->count; index++)
        if (set->files [index].fd != -1)
            close (set->files [index].fd);
    bool keep = prepared && job->spec->keep;
    if (!keep && (!prepared || s_hand_over (job, set) == -1))
        for (uint64_t index = 0; index < set->count; index++)
            s_remove_file (job->spec, set, index);
    if (set->dir_fd != -1)
        close (set->dir_fd);
    pthread_mutex_destroy (&set->lock);
    free (set->files);
    free (set->fds);
    free (set);
    job->data = NULL;
}
