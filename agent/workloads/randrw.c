/*  agent/workloads/randrw.c: random reads and writes over a set of files,
    what `sysbench fileio --file-test-mode=rndrw` measures (and rndrd,
    rndwr for its neighbours: mode =).

    The file set. A job has `files` files (128) that total `size`: each
    holds size / files bytes, rounded down, and is named path itself for
    one file, path.1 .. path.N for more, all in path's directory. The
    job's streams share the set as sysbench's threads do: it is opened
    once for the job, one descriptor per file (pread and pwrite carry
    their own offset, so streams need nothing more between them), by the
    first stream to prepare, while the others wait for it.

    Layout, at prepare and untimed (sysbench prepare). A file missing or
    shorter than its size is written with the pattern up to its size
    (random data drawn afresh for every block), then fdatasync'd; a file
    that long already is used as it is, whatever it holds, so that a set
    laid out once serves every later test and iteration that asks for it
    (sysbench prepares once and runs many times). Before anything is
    written, what the set still needs is weighed against the free space
    of its file system: a set larger than the disk is refused at
    prepare, naming the path and the sizes, and nothing starts. A file
    the job created is its own: when the test is over it goes to the
    session (agent/kept.h), which removes it when the session ends, or
    stays for good with keep = yes; a job that never became ready
    removes it at once. A file that was there is never removed nor
    truncated, only extended when short, and refused if it has other
    hard links, as every file the agent writes.

    The timed part. Each stream does its share of `requests` (stream k of
    n: requests / n, and one more for k < requests % n), or runs to the
    runtime's stop instant: a read or a write of bs bytes at a random
    bs-aligned offset of the set (over every whole block of every file,
    uniform or as random_distribution says; a tail shorter than bs is
    never touched), drawn from the stream's own generator, seeded from
    the kernel, or with randseed from the seed, the job and the stream. Which
    of the two is not drawn: with r reads per write (rwratio), after n
    requests a stream has done round (n r / (1 + r)) reads exactly, kept
    by a running error term. After every fsync_every requests of a stream
    (reads and writes alike, sysbench's --file-fsync-freq) the stream
    fsyncs every file of the set, and at its end once more every file it
    wrote (--file-fsync-end), each call timed and counted. rndrd writes
    nothing, so it flushes nothing either (as sysbench). direct = yes
    turns the set's descriptors to O_DIRECT once it is laid out (the
    layout goes through the page cache); its bs and offsets are
    multiples of 512 then, and the buffers are page-aligned.

    With rate (bytes per second) or rate_iops (requests per second) a
    stream issues each request once the ones before it are paid for
    (pace.c: no burst after a stall), reaping completions meanwhile.
    Every read, write and fsync call lands in the stream's histogram of
    its kind. The phase's rate counts operations; its bytes are those
    read and written together.
*/
#include "workload.h"

#include "../kept.h"
#include "../engines/engine.h"

#include "../../proto/clock.h"
#include "../../proto/distribution.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

//  Descriptors an agent keeps for itself beyond a file set's: its
//  sockets, the streams' directories, the eventfd, the logs.
#define S_SPARE_FDS     64

//  One file of the set.
typedef struct {
    int fd;                         //  open for the job, -1 before
    dev_t dev;                      //  its device
    ino_t ino;                      //  and inode, checked before it is removed
    bool ours;                      //  the job created it
} s_file_t;

//  The job's file set, shared by its streams (job->data).
typedef struct {
    pthread_mutex_t lock;           //  the first stream to prepare opens and lays out the
                                    //  set, the others wait for it
    int state;                      //  0 not yet, 1 open and laid out, -1 failed
    char error [MSG_TEXT_MAX + 1];  //  why it failed, for every stream
    int dir_fd;                     //  its directory (O_PATH), -1 before
    uint64_t count;                 //  files
    uint64_t file_bytes;            //  bytes of each file
    uint64_t file_blocks;           //  whole blocks of bs in each file
    s_file_t *files;                //  count of them
    int *fds;                       //  their descriptors in one table, as engines take them
} s_set_t;

//  What one stream holds between prepare and cleanup.
typedef struct {
    s_set_t *set;                   //  the job's set
    unsigned char *buffer;          //  bs bytes, page-aligned: what prepare lays out with
    engine_t *engine;               //  how it issues its requests; its slots' buffers hold
                                    //  what it writes and take what it reads
    uint64_t random;                //  splitmix64 state of its offsets
    distribution_t distribution;    //  where its requests land (random_distribution)
    bool bounded;                   //  the job has a number of requests
    uint64_t requests;              //  and this is the stream's share of them
    unsigned char *written;         //  a bit per file the stream wrote in the phase
} s_stream_t;


//  The path of file `index` of the set, and how messages show it.
static void
s_file_path (const jobspec_t *spec, uint64_t index, char *path, size_t pathlen,
             char *shown, size_t shownlen)
{
    //  job.c checked that the longest of them fits.
    if (workload_file_path (spec, 0, index, path, pathlen) == -1)
        snprintf (path, pathlen, "%s", spec->path);
    confine_shorten (path, shown, shownlen);
}

//  The buffer, a bit per file, and a share of the set's table.
static uint64_t
s_randrw_stream_memory (const jobspec_t *spec)
{
    uint64_t streams = spec->streams? spec->streams: 1;
    uint64_t table_bytes = spec->files * (sizeof (s_file_t) + sizeof (int));
    return spec->bs_bytes + engine_memory (spec) + (spec->files + 7) / 8
         + (table_bytes + streams - 1) / streams;
}

//  A set needs a descriptor per file, open while the test lasts: within
//  the agent's limit, with room for the rest; and the engine must run.
static int
s_randrw_validate (const jobspec_t *spec, char *err, size_t errlen)
{
    struct rlimit limit;
    if (getrlimit (RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
    &&  spec->files + S_SPARE_FDS > (uint64_t) limit.rlim_cur) {
        snprintf (err, errlen, "files: a set of %" PRIu64 " files keeps as many open, over "
                  "this agent's limit of %llu descriptors (less %d of its own)", spec->files,
                  (unsigned long long) limit.rlim_cur, S_SPARE_FDS);
        return -1;
    }
    //  A host that refuses the engine refuses the job before its set
    //  is laid out.
    return engine_check (spec, err, errlen);
}

//  --------------------------------------------------------------------
//  The set: made for the job, laid out by its first stream

//  An empty set for the job: no I/O, that is the first stream's.
static int
s_randrw_job_prepare (workload_job_t *job, char *err, size_t errlen)
{
    const jobspec_t *spec = job->spec;
    s_set_t *set = calloc (1, sizeof (s_set_t));
    if (set) {
        set->files = calloc (spec->files, sizeof (s_file_t));
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
s_check_space (workload_stream_t *ws, s_set_t *set, char *err, size_t errlen)
{
    const jobspec_t *spec = ws->spec;
    uint64_t need_bytes = 0;
    for (uint64_t index = 0; index < set->count; index++) {
        char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
        s_file_path (spec, index, path, sizeof (path), shown, sizeof (shown));
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
s_lay_out_file (workload_stream_t *ws, s_stream_t *stream, uint64_t index, uint64_t *seed,
                char *err, size_t errlen)
{
    s_set_t *set = stream->set;
    s_file_t *file = &set->files [index];
    char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
    s_file_path (ws->spec, index, path, sizeof (path), shown, sizeof (shown));
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
            workload_random_fill (stream->buffer, want_bytes, seed);
        ssize_t written = pwrite (file->fd, stream->buffer, want_bytes, (off_t) offset);
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

//  Open the set and lay it out, in the first stream's prepare: its
//  directory, the space it needs, every file, and O_DIRECT if asked.
//  Returns 0, or -1 with the reason in err.
static int
s_set_open (workload_stream_t *ws, s_stream_t *stream, char *err, size_t errlen)
{
    s_set_t *set = stream->set;
    set->dir_fd = workload_open_dir (ws->spec->path, ws->shown, err, errlen);
    if (set->dir_fd == -1 || s_check_space (ws, set, err, errlen) == -1)
        return -1;
    uint64_t seed = workload_random_seed ();
    for (uint64_t index = 0; index < set->count; index++)
        if (s_lay_out_file (ws, stream, index, &seed, err, errlen) == -1)
            return -1;
    for (uint64_t index = 0; ws->spec->direct && index < set->count; index++) {
        int flags = fcntl (set->files [index].fd, F_GETFL);
        if (flags == -1 || fcntl (set->files [index].fd, F_SETFL, flags | O_DIRECT) == -1) {
            char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
            s_file_path (ws->spec, index, path, sizeof (path), shown, sizeof (shown));
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
s_remove_file (const jobspec_t *spec, s_set_t *set, uint64_t index)
{
    s_file_t *file = &set->files [index];
    char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
    s_file_path (spec, index, path, sizeof (path), shown, sizeof (shown));
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
s_hand_over (workload_job_t *job, s_set_t *set)
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
            s_file_path (job->spec, index, names [count], JOB_PATH_MAX + 1, shown, sizeof (shown));
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

//  After every stream's cleanup: close the set, and let what the job
//  created go to the session, stay (keep), or go now (the job never
//  became ready, or no session takes it).
static void
s_randrw_job_cleanup (workload_job_t *job, bool prepared)
{
    s_set_t *set = job->data;
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

//  --------------------------------------------------------------------
//  The streams

//  With randseed, the state of stream index's offsets: from the seed,
//  the job's name (a job on a group is one job per member, JOB.MEMBER:
//  the host) and the index, the same on every run.
static uint64_t
s_stream_seed (const jobspec_t *spec, uint32_t index)
{
    uint64_t state = spec->randseed;
    for (const char *c = spec->name; *c; c++) {
        state ^= (unsigned char) *c;
        workload_random_next (&state);
    }
    state ^= (uint64_t) index * 0x9e3779b97f4a7c15ULL;
    return workload_random_next (&state);
}

//  The buffer, the generator, the share of requests; and the set, laid
//  out by whichever stream comes first.
static int
s_randrw_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    if (!ws->job || !ws->job->data) {
        snprintf (err, errlen, "randrw(%s): a stream needs its job's file set", ws->shown);
        return -1;
    }
    s_stream_t *stream = calloc (1, sizeof (s_stream_t));
    if (!stream) {
        snprintf (err, errlen, "calloc: %s", strerror (ENOMEM));
        return -1;
    }
    ws->data = stream;
    const jobspec_t *spec = ws->spec;
    s_set_t *set = ws->job->data;
    stream->set = set;
    stream->written = calloc ((size_t) (set->count + 7) / 8, 1);
    if (!stream->written) {
        snprintf (err, errlen, "calloc(%" PRIu64 " files): %s", set->count, strerror (ENOMEM));
        return -1;
    }
    uint64_t seed = workload_random_seed ();
    stream->random = workload_random_next (&seed);
    if (spec->randseed)
        stream->random = s_stream_seed (spec, ws->index);
    int kind;
    double param;
    if (distribution_parse (spec->random_distribution, &kind, &param, err, errlen) == -1)
        return -1;
    distribution_init (&stream->distribution, kind, param, set->count * set->file_blocks);
    if (workload_pattern_buffer (ws, &stream->buffer, &seed, err, errlen) == -1)
        return -1;
    stream->bounded = spec->requests > 0;
    stream->requests = spec->requests / spec->streams
                     + (ws->index < spec->requests % spec->streams? 1: 0);

    pthread_mutex_lock (&set->lock);
    if (set->state == 0) {
        set->state = s_set_open (ws, stream, err, errlen) == 0? 1: -1;
        if (set->state == -1)
            msg_strcpy (set->error, err, sizeof (set->error));
    }
    else
    if (set->state == -1)
        snprintf (err, errlen, "%s", set->error);
    int rc = set->state == 1? 0: -1;
    pthread_mutex_unlock (&set->lock);
    if (rc == -1)
        return -1;
    //  The engine's slots write what the layout left in the buffer, as
    //  the one buffer of old did.
    stream->engine = engine_new (spec->engine, (uint32_t) spec->iodepth, (size_t) spec->bs_bytes,
                                 set->fds, (uint32_t) set->count, spec->direct, err, errlen);
    if (!stream->engine)
        return -1;
    engine_fill (stream->engine, stream->buffer);
    free (stream->buffer);
    stream->buffer = NULL;
    return 0;
}

//  Record a read or write of file `index` at offset that failed or moved
//  fewer than bs bytes (moved, -1 for an error with err_no).
static void
s_request_failed (workload_stream_t *ws, s_set_t *set, bool read, uint64_t index,
                  uint64_t offset, ssize_t moved, int err_no)
{
    char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
    s_file_path (ws->spec, index, path, sizeof (path), shown, sizeof (shown));
    const char *call = read? "pread": "pwrite";
    if (moved == -1)
        workload_fail (ws, err_no, "%s(%s at %" PRIu64 ")", call, shown, offset);
    else {
        char message [MSG_TEXT_MAX + 1];
        snprintf (message, sizeof (message), "%s(%s at %" PRIu64 "): moved %zd of %" PRIu64
                  " bytes (the file is shorter than the set's %" PRIu64 ")", call, shown,
                  offset, moved, ws->spec->bs_bytes, set->file_bytes);
        workload_fail_message (ws, EIO, message);
    }
}

//  fsync the files of the set (with only_written, those the stream wrote
//  in the phase), each call timed and counted. Returns 0, or -1 with the
//  failure recorded.
static int
s_fsync_files (workload_stream_t *ws, s_stream_t *stream, bool only_written)
{
    s_set_t *set = stream->set;
    //  An fsync covers the writes issued before it: they are all back.
    assert (engine_in_flight (stream->engine) == 0);
    for (uint64_t index = 0; index < set->count; index++) {
        if (only_written && !(stream->written [index / 8] & (1u << (index % 8))))
            continue;
        int64_t begin_ns = clock_now_ns ();
        int rc = fsync (set->files [index].fd);
        int err_no = errno;
        workload_count (ws, MSG_LATENCY_FSYNC, begin_ns, clock_now_ns (), 0);
        if (rc == -1) {
            char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
            s_file_path (ws->spec, index, path, sizeof (path), shown, sizeof (shown));
            workload_fail (ws, err_no, "fsync(%s)", shown);
            return -1;
        }
    }
    return 0;
}

//  The next request: a read if the error term says so. With r reads per
//  write in millionths, the term gains r per request and a read spends
//  1 + r of it; starting at half of that, the reads after n requests are
//  round (n r / (1 + r)), halves rounded up.
static inline bool
s_next_is_read (uint64_t *term, uint64_t ratio, uint64_t period)
{
    *term += ratio;
    if (*term < period)
        return false;
    *term -= period;
    return true;
}

//  What a stream's timed part goes through, request by request.
typedef struct {
    const uint64_t blocks;          //  whole blocks of the set
    const uint64_t ratio;           //  reads per write, in millionths
    const uint64_t period;          //  1 + ratio, in millionths
    const int mode;                 //  rw_mode_t
    const uint64_t fsync_every;     //  requests between fsync rounds, 0 none
    uint64_t term;                  //  the reads' error term
    uint64_t issued;                //  requests issued
    uint64_t since_fsync;           //  issued since the last fsync round
    bool fsync_due;                 //  a round is due once what is in flight is back
    int64_t due_ns;                 //  paced: the next request waits for this instant, 0 none
    bool issuing;                   //  more requests may be issued
    int status;                     //  WORKLOAD_DONE, _FAILED or _STOPPED so far
} s_run_t;

//  Issue the next request into a free slot of the engine, if one is due
//  and may be: not past the requests, the stop flag, the stop instant,
//  nor over an fsync round that waits for the queue to drain. Returns
//  true if it queued one.
static bool
s_issue (workload_stream_t *ws, s_stream_t *stream, s_run_t *run)
{
    if (run->fsync_due || !run->issuing)
        return false;
    if (stream->bounded && run->issued >= stream->requests) {
        run->issuing = false;
        return false;
    }
    if (workload_stopping (ws)) {
        run->status = WORKLOAD_STOPPED;
        run->issuing = false;
        return false;
    }
    //  rate, rate_iops: the next request goes when the ones before are
    //  paid for; meanwhile completions are reaped.
    if ((run->due_ns = workload_pace_wanted (ws)))
        return false;
    engine_request_t *request = engine_slot (stream->engine);
    if (!request)
        return false;
    s_set_t *set = stream->set;
    bool read = run->mode == RW_MODE_RNDRD
             || (run->mode == RW_MODE_RNDRW && s_next_is_read (&run->term, run->ratio,
                                                               run->period));
    uint64_t block;
    if (stream->distribution.kind == DISTRIBUTION_RANDOM)
        block = workload_random_below (&stream->random, run->blocks);
    else {
        uint64_t random1 = workload_random_next (&stream->random);
        uint64_t random2 = workload_random_next (&stream->random);
        block = distribution_pick (&stream->distribution, random1, random2);
    }
    request->op = read? ENGINE_READ: ENGINE_WRITE;
    request->file = (uint32_t) (block / set->file_blocks);
    request->offset = (block % set->file_blocks) * ws->spec->bs_bytes;
    request->length_bytes = (size_t) ws->spec->bs_bytes;
    //  No request is issued at or after the stop instant (an fsync
    //  round may have crossed it).
    if (!workload_may_issue (ws, &request->begin_ns)) {
        engine_release (stream->engine, request);
        run->issuing = false;
        return false;
    }
    engine_queue (stream->engine, request);
    workload_pace_paid (ws, request->length_bytes);
    run->issued++;
    if (run->fsync_every && ++run->since_fsync == run->fsync_every) {
        run->since_fsync = 0;
        run->fsync_due = true;
    }
    return true;
}

//  Count a completed request; a failed or short one fails the stream
//  (what is in flight still comes back and is counted).
static void
s_complete (workload_stream_t *ws, s_stream_t *stream, s_run_t *run,
            engine_request_t *request)
{
    bool read = request->op == ENGINE_READ;
    ssize_t moved = request->result < 0? -1: request->result;
    workload_count (ws, read? MSG_LATENCY_READ: MSG_LATENCY_WRITE, request->begin_ns,
                    request->end_ns, moved > 0? (uint64_t) moved: 0);
    if (moved != (ssize_t) request->length_bytes) {
        if (run->status != WORKLOAD_FAILED)
            s_request_failed (ws, stream->set, read, request->file, request->offset, moved,
                              (int) -request->result);
        run->status = WORKLOAD_FAILED;
        run->issuing = false;
        run->fsync_due = false;
    }
    else
    if (!read)
        stream->written [request->file / 8] |= (unsigned char) (1u << (request->file % 8));
    engine_release (stream->engine, request);
}

//  The timed part: the stream's requests, or until the stop instant,
//  then a last fsync of the files it wrote. The queue is kept full
//  (iodepth requests; psync's is one); an fsync round waits for every
//  request before it to complete (sysbench's order: an fsync covers the
//  writes issued before it), and nothing is issued meanwhile.
static int
s_randrw_run (workload_stream_t *ws, uint32_t phase)
{
    (void) phase;
    s_stream_t *stream = ws->data;
    s_set_t *set = stream->set;
    const jobspec_t *spec = ws->spec;
    const bool writes = spec->rw_mode != RW_MODE_RNDRD;
    s_run_t run = {
        .blocks = set->count * set->file_blocks,
        .ratio = spec->rwratio,
        .period = OPT_DECIMAL_ONE + spec->rwratio,
        .mode = spec->rw_mode,
        .fsync_every = writes? spec->fsync_every: 0,
        .term = (OPT_DECIMAL_ONE + spec->rwratio) / 2,
        .issuing = true,
        .status = WORKLOAD_DONE,
    };
    memset (stream->written, 0, (size_t) (set->count + 7) / 8);
    engine_t *engine = stream->engine;

    for (;;) {
        run.due_ns = 0;
        while (s_issue (ws, stream, &run))
            ;
        if (engine_in_flight (engine) == 0) {
            if (run.fsync_due) {
                run.fsync_due = false;
                if (s_fsync_files (ws, stream, false) == -1) {
                    run.status = WORKLOAD_FAILED;
                    break;
                }
            }
            else
            if (run.due_ns)
                workload_pace_wait (ws, run.due_ns);
            else
                break;
            continue;
        }
        //  Wait for a completion when nothing more can go out now (a
        //  paced stream until its next request is due).
        engine_request_t *request = run.due_ns? engine_reap_until (engine, run.due_ns)
                                              : engine_reap (engine, true);
        if (!request) {
            if (engine_failed (engine)) {
                workload_fail (ws, errno, "io_uring_enter(%s)", ws->shown);
                run.status = WORKLOAD_FAILED;
                break;
            }
            continue;
        }
        do
            s_complete (ws, stream, &run, request);
        while ((request = engine_reap (engine, false)));
    }
    ws->depth_max = engine_depth_max (engine);
    if (run.status == WORKLOAD_DONE && writes && s_fsync_files (ws, stream, true) == -1)
        run.status = WORKLOAD_FAILED;
    ws->end_ns = clock_now_ns ();
    return run.status;
}

//  Free what the stream holds; the set is the job's.
static void
s_randrw_cleanup (workload_stream_t *ws, bool remove_files)
{
    (void) remove_files;        //  the job's cleanup decides for the set
    s_stream_t *stream = ws->data;
    if (!stream)
        return;
    free (stream->buffer);
    free (stream->written);
    engine_destroy (&stream->engine);
    free (stream);
    ws->data = NULL;
}

const workload_ops_t workload_randrw_ops = {
    .name = "randrw",
    .validate = s_randrw_validate,
    .stream_memory = s_randrw_stream_memory,
    .prepare = s_randrw_prepare,
    .run = s_randrw_run,
    .stop = NULL,               //  the flag is checked before every request
    .cleanup = s_randrw_cleanup,
    .job_prepare = s_randrw_job_prepare,
    .job_cleanup = s_randrw_job_cleanup,
};
