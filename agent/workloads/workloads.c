/*  agent/workloads/workloads.c: the one table of workloads this agent runs.

    Adding a workload: write its file with its ops table, named
    workload_NAME_ops after its line in WORKLOAD_LIST (proto/
    workload_list.h), which declares it here and gives it its row. No
    constructor tricks, no registration at start-up: this table is all.

    Below the table: the pieces the workloads share (random data, open
    an output, lay a file out or open it again, write a block in full,
    pace to a rate, flush and close as `fsync` asks). Reading a file, a
    local one or over NFS, is in source.c.
*/
#include "workload.h"

#include "../confine.h"

#include "../../proto/clock.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

//  Every workload's ops table, named after it (workload_NAME_ops, in
//  its own file), indexed by workload_t: one per line of WORKLOAD_LIST.
#define S_OPS_DECLARE(id, name) extern const workload_ops_t workload_##name##_ops;
WORKLOAD_LIST (S_OPS_DECLARE)
#undef S_OPS_DECLARE

static const workload_ops_t *const s_workloads [] = {
#define S_OPS_ROW(id, name) [WORKLOAD_##id] = &workload_##name##_ops,
    WORKLOAD_LIST (S_OPS_ROW)
#undef S_OPS_ROW
};

#define S_WORKLOAD_COUNT (sizeof (s_workloads) / sizeof (s_workloads [0]))

//  The ops table of a workload_t value, or NULL.
const workload_ops_t *
workload_lookup (int workload)
{
    if (workload < 0 || (size_t) workload >= S_WORKLOAD_COUNT)
        return NULL;
    return s_workloads [workload];
}

//  Record the first failure of a stream as "what: strerror".
void
workload_fail (workload_stream_t *ws, int err_no, const char *format, ...)
{
    if (ws->err_no != 0 || ws->error [0])
        return;
    char what [MSG_TEXT_MAX + 1];
    va_list args;
    va_start (args, format);
    vsnprintf (what, sizeof (what), format, args);
    va_end (args);
    ws->err_no = err_no;
    snprintf (ws->error, sizeof (ws->error), "%s: %s", what, strerror (err_no));
}

//  Record the first failure of a stream, its message complete already.
void
workload_fail_message (workload_stream_t *ws, int err_no, const char *message)
{
    if (ws->err_no != 0 || ws->error [0])
        return;
    ws->err_no = err_no? err_no: EIO;
    snprintf (ws->error, sizeof (ws->error), "%s", message);
}

//  --------------------------------------------------------------------
//  Helpers the workloads share

//  A thread with a small stack of our own, born with every signal blocked.
int
workload_thread_start (workload_thread_t *thread, void *(*run) (void *), void *arg)
{
    //  The page below the stack stays inaccessible, as glibc's guard
    //  would: an overflow faults rather than writing over other memory.
    size_t guard = (size_t) sysconf (_SC_PAGESIZE);
    size_t bytes = guard + WORKLOAD_STACK_BYTES;
    char *stack = mmap (NULL, bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED)
        return errno;
    int rc = mprotect (stack, guard, PROT_NONE) == 0? 0: errno;
    pthread_attr_t attr;
    if (rc == 0)
        rc = pthread_attr_init (&attr);
    if (rc != 0)
        goto fail;
    rc = pthread_attr_setstack (&attr, stack + guard, WORKLOAD_STACK_BYTES);
    sigset_t all, previous;
    sigfillset (&all);
    pthread_sigmask (SIG_SETMASK, &all, &previous);
    if (rc == 0)
        rc = pthread_create (&thread->id, &attr, run, arg);
    pthread_sigmask (SIG_SETMASK, &previous, NULL);
    pthread_attr_destroy (&attr);
    if (rc != 0)
        goto fail;
    thread->stack = stack;
    thread->stack_bytes = bytes;
    return 0;

fail:
    munmap (stack, bytes);
    return rc;
}

//  Join, then give the stack back: the thread no longer runs on it.
void
workload_thread_join (workload_thread_t *thread)
{
    pthread_join (thread->id, NULL);
    munmap (thread->stack, thread->stack_bytes);
    thread->stack = NULL;
}

//  The thread's CPU time so far. getrusage (RUSAGE_THREAD) leaves out
//  what the running thread spent since the scheduler last brought its
//  runtime up to date, up to a tick (4 ms at HZ 250): around a phase of
//  a few milliseconds that is most of it. Reading the thread's CPU clock
//  first brings it up to date; getrusage then splits the exact total
//  between user and system time.
void
workload_thread_cpu (int64_t *usr_ns, int64_t *sys_ns)
{
    struct timespec now;
    clock_gettime (CLOCK_THREAD_CPUTIME_ID, &now);
    struct rusage usage;
    getrusage (RUSAGE_THREAD, &usage);
    *usr_ns = (int64_t) usage.ru_utime.tv_sec * NS_PER_SEC
            + (int64_t) usage.ru_utime.tv_usec * NS_PER_USEC;
    *sys_ns = (int64_t) usage.ru_stime.tv_sec * NS_PER_SEC
            + (int64_t) usage.ru_stime.tv_usec * NS_PER_USEC;
}


//  The ramp's CPU, noted once.
void
workload_ramp_over (workload_stream_t *ws)
{
    ws->ramp_over = true;
    workload_thread_cpu (&ws->ramp_usr_ns, &ws->ramp_sys_ns);
}

//  A seed from the kernel, or from the clock if it has none to give.
uint64_t
workload_random_seed (void)
{
    uint64_t seed;
    if (getrandom (&seed, sizeof (seed), 0) != (ssize_t) sizeof (seed))
        seed = (uint64_t) clock_now_ns () ^ (uint64_t) (uintptr_t) &seed;
    return seed;
}

//  splitmix64: one step. Incompressible data and well-spread offsets are
//  all we need, not cryptographic quality, and this runs at memory speed.
uint64_t
workload_random_next (uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ULL;
    uint64_t value = *state;
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
    value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
    return value ^ (value >> 31);
}

//  A number below bound, from the high bits of one step (multiply and
//  shift: no modulo bias worth the name, and no division).
uint64_t
workload_random_below (uint64_t *state, uint64_t bound)
{
    return (uint64_t) (((unsigned __int128) workload_random_next (state) * bound) >> 64);
}

//  splitmix64 over the buffer.
void
workload_random_fill (unsigned char *buffer, size_t size_bytes, uint64_t *state)
{
    size_t offset = 0;
    while (offset < size_bytes) {
        uint64_t value = workload_random_next (state);
        size_t chunk = size_bytes - offset < sizeof (value)? size_bytes - offset: sizeof (value);
        memcpy (buffer + offset, &value, chunk);
        offset += chunk;
    }
}

//  One buffer of bs.
uint64_t
workload_one_buffer (const jobspec_t *spec)
{
    return spec->bs_bytes;
}

//  A page-aligned buffer, good for O_DIRECT.
int
workload_buffer_new (unsigned char **buffer_p, size_t size_bytes, char *err, size_t errlen)
{
    int rc = posix_memalign ((void **) buffer_p, IO_BUFFER_ALIGN_BYTES, size_bytes);
    if (rc != 0) {
        *buffer_p = NULL;
        snprintf (err, errlen, "posix_memalign(bs=%zu): %s", size_bytes, strerror (rc));
        return -1;
    }
    return 0;
}

//  A buffer of bs holding the job's pattern.
int
workload_pattern_buffer (workload_stream_t *ws, unsigned char **buffer_p, uint64_t *seed,
                         char *err, size_t errlen)
{
    if (workload_buffer_new (buffer_p, (size_t) ws->spec->bs_bytes, err, errlen) == -1)
        return -1;
    workload_pattern_fill (ws, *buffer_p, seed);
    return 0;
}

//  bs bytes of the job's pattern.
void
workload_pattern_fill (workload_stream_t *ws, unsigned char *buffer, uint64_t *seed)
{
    size_t bs_bytes = (size_t) ws->spec->bs_bytes;
    if (ws->spec->pattern == PATTERN_RANDOM)
        workload_random_fill (buffer, bs_bytes, seed);
    else
        memset (buffer, 0, bs_bytes);
}

//  The last component of a resolved path: the file's name in its directory.
const char *
workload_file_name (const char *path)
{
    const char *slash = strrchr (path, '/');
    return slash? slash + 1: path;
}

//  Nothing open.
void
workload_output_init (workload_output_t *out)
{
    memset (out, 0, sizeof (*out));
    out->fd = -1;
    out->dir_fd = -1;
}

//  The directory of a resolved path, held O_PATH.
int
workload_open_dir (const char *path, const char *shown, char *err, size_t errlen)
{
    const char *name = workload_file_name (path);
    char dir [JOB_PATH_MAX + 1];
    size_t dir_length = (size_t) (name - path);
    snprintf (dir, sizeof (dir), "%.*s", (int) (dir_length > 1? dir_length - 1: dir_length), path);
    int dir_fd = confine_open (dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
    if (dir_fd == -1) {
        int err_no = errno;
        snprintf (err, errlen, "open(%s): %s", shown,
                  err_no == ELOOP? "a symbolic link appeared on the way": strerror (err_no));
        errno = err_no;
    }
    return dir_fd;
}

//  Open name under dir_fd with flags (O_NOFOLLOW, O_CLOEXEC and
//  O_NONBLOCK added). O_NONBLOCK keeps a FIFO planted under the root
//  from blocking the agent, and is cleared once the file is known to be
//  a regular one. A file opened for writing must have one link: one
//  with other hard links may be someone else's file outside the roots.
int
workload_open_at (int dir_fd, const char *name, const char *shown, int flags,
                  struct stat *st, char *err, size_t errlen)
{
    int fd = openat (dir_fd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd == -1) {
        int err_no = errno;
        if (err_no == EINVAL && (flags & O_DIRECT))
            snprintf (err, errlen, "open(%s, O_DIRECT): the filesystem does not support "
                      "direct I/O (%s)", shown, strerror (err_no));
        else
        if (err_no == ELOOP)
            snprintf (err, errlen, "open(%s): is a symbolic link", shown);
        else
            snprintf (err, errlen, "open(%s): %s", shown, strerror (err_no));
        errno = err_no;
        return -1;
    }
    int err_no = 0;
    int status_flags;
    if (fstat (fd, st) == -1) {
        err_no = errno;
        snprintf (err, errlen, "fstat(%s): %s", shown, strerror (err_no));
    }
    else
    if (!S_ISREG (st->st_mode)) {
        err_no = EINVAL;
        snprintf (err, errlen, "open(%s): not a regular file", shown);
    }
    else
    if ((flags & O_ACCMODE) != O_RDONLY && st->st_nlink > 1) {
        err_no = EMLINK;
        snprintf (err, errlen, "open(%s): has %ju hard links; refusing to write through it",
                  shown, (uintmax_t) st->st_nlink);
    }
    else
    if ((status_flags = fcntl (fd, F_GETFL)) == -1
    ||  fcntl (fd, F_SETFL, status_flags & ~O_NONBLOCK) == -1) {
        err_no = errno;
        snprintf (err, errlen, "fcntl(%s, F_SETFL): %s", shown, strerror (err_no));
    }
    if (err_no) {
        close (fd);
        errno = err_no;
        return -1;
    }
    return fd;
}

//  Open the file of ws->path with flags through the descriptor of its
//  directory, which is opened the first time (no symlink on the way).
//  Returns the descriptor with its stat in *st, or -1 with "open(path):
//  reason" in err and errno set.
static int
s_open_at (workload_stream_t *ws, workload_output_t *out, int flags, struct stat *st,
           char *err, size_t errlen)
{
    if (out->dir_fd == -1) {
        out->dir_fd = workload_open_dir (ws->path, ws->shown, err, errlen);
        if (out->dir_fd == -1)
            return -1;
    }
    return workload_open_at (out->dir_fd, workload_file_name (ws->path), ws->shown, flags, st,
                             err, errlen);
}

//  Open the file a stream writes, and empty it. O_TRUNC is left out,
//  because a file is only emptied once it is known to be a regular file
//  of one link.
int
workload_open_output (workload_stream_t *ws, workload_output_t *out,
                      char *err, size_t errlen)
{
    struct stat st;
    int flags = O_WRONLY | O_CREAT | (ws->spec->direct? O_DIRECT: 0);
    out->fd = s_open_at (ws, out, flags, &st, err, errlen);
    if (out->fd == -1)
        return -1;
    if (ftruncate (out->fd, 0) == -1) {
        snprintf (err, errlen, "ftruncate(%s): %s", ws->shown, strerror (errno));
        return -1;
    }
    out->dev = st.st_dev;
    out->ino = st.st_ino;
    out->ours = true;
    return 0;
}

//  Open the file a stream lays out, keeping what is in it: create it if
//  it is missing (then it is ours), else open it as it is (then it is
//  not). The O_EXCL create says which of the two it was, even when
//  another process creates the file at the same moment.
int
workload_open_layout (workload_stream_t *ws, workload_output_t *out, char *err, size_t errlen)
{
    struct stat st;
    out->fd = s_open_at (ws, out, O_WRONLY | O_CREAT | O_EXCL, &st, err, errlen);
    out->ours = out->fd != -1;
    if (out->fd == -1 && errno == EEXIST)
        out->fd = s_open_at (ws, out, O_WRONLY, &st, err, errlen);
    if (out->fd == -1)
        return -1;
    out->dev = st.st_dev;
    out->ino = st.st_ino;
    return 0;
}

//  Open the file of out again, by its name in the directory held since
//  it was first opened, and only if that name is still the same file.
int
workload_output_reopen (workload_stream_t *ws, workload_output_t *out, int flags,
                        char *err, size_t errlen)
{
    assert (out->dir_fd != -1);
    struct stat st;
    int fd = s_open_at (ws, out, flags & ~(O_CREAT | O_EXCL | O_TRUNC), &st, err, errlen);
    if (fd != -1 && (st.st_dev != out->dev || st.st_ino != out->ino)) {
        close (fd);
        snprintf (err, errlen, "open(%s): is no longer the file this stream wrote "
                  "(it was replaced)", ws->shown);
        errno = ESTALE;
        return -1;
    }
    return fd;
}

//  Write a whole block, however many calls it takes, each timed.
int
workload_write_full (workload_stream_t *ws, int fd, const unsigned char *buffer,
                     size_t length_bytes, uint64_t *done_bytes)
{
    size_t offset = 0;
    while (offset < length_bytes) {
        int64_t begin_ns;
        if (!workload_may_issue (ws, &begin_ns) && offset == 0)
            return STREAM_TIME_UP;
        ssize_t written = write (fd, buffer + offset, length_bytes - offset);
        int64_t end_ns = clock_now_ns ();
        if (written == -1) {
            if (errno == EINTR)
                continue;
            workload_fail (ws, errno, "write(%s)", ws->shown);
            return -1;
        }
        if (written == 0) {
            //  A regular file never does this; do not spin on it.
            workload_fail (ws, EIO, "write(%s) wrote nothing", ws->shown);
            return -1;
        }
        offset += (size_t) written;
        *done_bytes += (uint64_t) written;
        workload_count (ws, MSG_LATENCY_WRITE, begin_ns, end_ns, (uint64_t) written);
    }
    workload_pace (ws, length_bytes);
    return 0;
}

//  size_bytes blocks of bs, the buffer refreshed for each if asked; on
//  the clock, over and over from the file's start until the instant.
int
workload_write_blocks (workload_stream_t *ws, int fd, unsigned char *buffer,
                       uint64_t *random_state, uint64_t *done_bytes)
{
    const uint64_t size_bytes = ws->spec->size_bytes;
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    const bool time_bound = workload_time_bound (ws);
    uint64_t offset = 0;
    while (time_bound || offset < size_bytes) {
        if (workload_stopping (ws))
            return STREAM_STOPPED;
        if (offset == size_bytes) {
            //  The file stays size bytes: the next pass writes it over.
            if (lseek (fd, 0, SEEK_SET) == -1) {
                workload_fail (ws, errno, "lseek(%s, 0)", ws->shown);
                return STREAM_FAILED;
            }
            offset = 0;
        }
        uint64_t want_bytes = size_bytes - offset < bs_bytes? size_bytes - offset: bs_bytes;
        if (random_state)
            workload_random_fill (buffer, (size_t) want_bytes, random_state);
        int rc = workload_write_full (ws, fd, buffer, (size_t) want_bytes, done_bytes);
        if (rc == STREAM_TIME_UP)
            break;
        if (rc == -1)
            return STREAM_FAILED;
        offset += want_bytes;
    }
    return STREAM_DONE;
}

//  Flush as the fsync option asks (the call timed and counted), then
//  close. Returns 0 or -1 (recorded).
static int
s_flush_and_close (workload_stream_t *ws, int *fd_p, bool flush)
{
    int rc = 0;
    int mode = flush? ws->spec->fsync_mode: FSYNC_NONE;
    if (mode != FSYNC_NONE) {
        int64_t begin_ns = clock_now_ns ();
        int flushed = mode == FSYNC_END? fdatasync (*fd_p): fsync (*fd_p);
        int err_no = errno;
        workload_count (ws, MSG_LATENCY_FSYNC, begin_ns, clock_now_ns (), 0);
        if (flushed == -1) {
            workload_fail (ws, err_no, "%s(%s)", mode == FSYNC_END? "fdatasync": "fsync",
                           ws->shown);
            rc = -1;
        }
    }
    //  The descriptor is gone after close whatever it returns; EINTR
    //  included, retrying could close someone else's.
    if (close (*fd_p) == -1) {
        workload_fail (ws, errno, "close(%s)", ws->shown);
        rc = -1;
    }
    *fd_p = -1;
    return rc;
}

//  The common end of a timed part that wrote a file. The end of its
//  last write is what workload_count noted.
int
workload_output_end (workload_stream_t *ws, int *fd_p, int status)
{
    if (s_flush_and_close (ws, fd_p, status == STREAM_DONE) == -1
    &&  status == STREAM_DONE)
        status = STREAM_FAILED;
    ws->end_ns = clock_now_ns ();
    return status;
}

//  Close and, if asked, remove an output: by its name in the directory
//  held since it was opened, and only if that name is still the file we
//  wrote. Never by path: a directory on the way may have been swapped.
void
workload_output_release (workload_stream_t *ws, workload_output_t *out, bool remove_file)
{
    if (out->fd != -1)
        close (out->fd);
    out->fd = -1;
    if (remove_file && out->ours) {
        const char *name = workload_file_name (ws->path);
        struct stat st;
        if (fstatat (out->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0
        &&  st.st_dev == out->dev && st.st_ino == out->ino)
            unlinkat (out->dir_fd, name, 0);
    }
    out->ours = false;
    if (out->dir_fd != -1)
        close (out->dir_fd);
    out->dir_fd = -1;
}
