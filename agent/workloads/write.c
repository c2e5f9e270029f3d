/*  agent/workloads/write.c: sequential write of `size` bytes in `bs`
    blocks, what `dd if=/dev/zero of=FILE bs=BS count=N conv=fdatasync`
    measures.

    prepare opens (and truncates) the file and fills the buffer, so the
    timed part is nothing but write calls and the flush that `fsync` asks
    for. Options: direct (O_DIRECT), fsync = none | end | close,
    pattern = zero | random.
*/
#include "workload.h"

#include "../../proto/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define S_DIRECT_ALIGN_BYTES    512     //  O_DIRECT needs lengths in these units
#define S_BUFFER_ALIGN_BYTES    4096    //  and a buffer aligned to a page

//  What one write stream holds between prepare and cleanup.
typedef struct {
    int fd;                     //  the open file, -1 once closed
    bool opened;                //  the file was opened as a regular file: ours to remove
    unsigned char *buffer;      //  bs bytes, page-aligned, filled at prepare
} s_write_t;

//  Check the options a write job needs.
static int
s_write_validate (const jobspec_t *spec, char *err, size_t errlen)
{
    if (spec->path [0] == '\0') {
        snprintf (err, errlen, "the write workload needs a path");
        return -1;
    }
    if (spec->size_bytes < 1) {
        snprintf (err, errlen, "size must be at least 1 byte");
        return -1;
    }
    if (spec->bs_bytes < S_DIRECT_ALIGN_BYTES) {
        snprintf (err, errlen, "bs: %llu is below %d",
                  (unsigned long long) spec->bs_bytes, S_DIRECT_ALIGN_BYTES);
        return -1;
    }
    if (spec->direct && spec->bs_bytes % S_DIRECT_ALIGN_BYTES) {
        snprintf (err, errlen, "direct = yes needs bs to be a multiple of %d (bs = %llu)",
                  S_DIRECT_ALIGN_BYTES, (unsigned long long) spec->bs_bytes);
        return -1;
    }
    if (spec->direct && spec->size_bytes % S_DIRECT_ALIGN_BYTES) {
        snprintf (err, errlen, "direct = yes needs size to be a multiple of %d (size = %llu)",
                  S_DIRECT_ALIGN_BYTES, (unsigned long long) spec->size_bytes);
        return -1;
    }
    return 0;
}

//  Fill a buffer with pseudo-random bytes: splitmix64, seeded from the
//  kernel. Incompressible data is all we need, not cryptographic quality,
//  and this runs at memory speed.
static void
s_fill_random (unsigned char *buffer, size_t size_bytes)
{
    uint64_t state;
    if (getrandom (&state, sizeof (state), 0) != (ssize_t) sizeof (state))
        state = (uint64_t) clock_now_ns () ^ (uint64_t) (uintptr_t) buffer;

    size_t offset = 0;
    while (offset < size_bytes) {
        state += 0x9E3779B97F4A7C15ULL;
        uint64_t value = state;
        value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
        value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
        value ^= value >> 31;
        size_t chunk = size_bytes - offset < sizeof (value)? size_bytes - offset: sizeof (value);
        memcpy (buffer + offset, &value, chunk);
        offset += chunk;
    }
}

//  Open the file that stream ws writes. O_NONBLOCK keeps a FIFO planted
//  under the root from blocking the agent; anything but a regular file is
//  refused before it counts as ours.
static int
s_open (workload_stream_t *ws, s_write_t *state, char *err, size_t errlen)
{
    int flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
    if (ws->spec->direct)
        flags |= O_DIRECT;

    state->fd = open (ws->path, flags, 0644);
    if (state->fd == -1) {
        int err_no = errno;
        if (err_no == EINVAL && ws->spec->direct)
            snprintf (err, errlen, "open(%s, O_DIRECT): the filesystem does not support "
                      "direct I/O (%s)", ws->path, strerror (err_no));
        else
        if (err_no == ELOOP)
            snprintf (err, errlen, "open(%s): is a symbolic link", ws->path);
        else
            snprintf (err, errlen, "open(%s): %s", ws->path, strerror (err_no));
        return -1;
    }
    struct stat st;
    if (fstat (state->fd, &st) == -1) {
        snprintf (err, errlen, "fstat(%s): %s", ws->path, strerror (errno));
        return -1;
    }
    if (!S_ISREG (st.st_mode)) {
        snprintf (err, errlen, "open(%s): not a regular file", ws->path);
        return -1;
    }
    state->opened = true;
    int status_flags = fcntl (state->fd, F_GETFL);
    if (status_flags == -1
    ||  fcntl (state->fd, F_SETFL, status_flags & ~O_NONBLOCK) == -1) {
        snprintf (err, errlen, "fcntl(%s, F_SETFL): %s", ws->path, strerror (errno));
        return -1;
    }
    return 0;
}

//  Open the file and fill the buffer: everything before the timed part.
static int
s_write_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    s_write_t *state = calloc (1, sizeof (s_write_t));
    if (!state) {
        snprintf (err, errlen, "calloc: %s", strerror (ENOMEM));
        return -1;
    }
    state->fd = -1;
    ws->data = state;

    if (s_open (ws, state, err, errlen) == -1)
        return -1;

    size_t bs_bytes = (size_t) ws->spec->bs_bytes;
    int rc = posix_memalign ((void **) &state->buffer, S_BUFFER_ALIGN_BYTES, bs_bytes);
    if (rc != 0) {
        state->buffer = NULL;
        snprintf (err, errlen, "posix_memalign(bs=%zu): %s", bs_bytes, strerror (rc));
        return -1;
    }
    if (ws->spec->pattern == PATTERN_RANDOM)
        s_fill_random (state->buffer, bs_bytes);
    else
        memset (state->buffer, 0, bs_bytes);
    return 0;
}

//  Flush as the fsync option asks, then close. Returns 0 or -1 (recorded).
static int
s_flush_and_close (workload_stream_t *ws, s_write_t *state, bool flush)
{
    int rc = 0;
    if (flush && ws->spec->fsync_mode == FSYNC_END && fdatasync (state->fd) == -1) {
        workload_fail (ws, errno, "fdatasync(%s)", ws->path);
        rc = -1;
    }
    if (flush && ws->spec->fsync_mode == FSYNC_CLOSE && fsync (state->fd) == -1) {
        workload_fail (ws, errno, "fsync(%s)", ws->path);
        rc = -1;
    }
    //  The descriptor is gone after close whatever it returns; EINTR
    //  included, retrying could close someone else's.
    if (close (state->fd) == -1) {
        workload_fail (ws, errno, "close(%s)", ws->path);
        rc = -1;
    }
    state->fd = -1;
    return rc;
}

//  The timed part: write size bytes, bs at a time, then flush and close.
//  The offset within the buffer follows the file offset, so a short write
//  continues exactly where it stopped and the last block may be shorter.
static int
s_write_run (workload_stream_t *ws)
{
    s_write_t *state = ws->data;
    const uint64_t size_bytes = ws->spec->size_bytes;
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    uint64_t done_bytes = 0;
    int status = WORKLOAD_DONE;

    while (done_bytes < size_bytes) {
        if (workload_stopping (ws)) {
            status = WORKLOAD_STOPPED;
            break;
        }
        uint64_t in_block = done_bytes % bs_bytes;
        uint64_t want_bytes = bs_bytes - in_block;
        if (want_bytes > size_bytes - done_bytes)
            want_bytes = size_bytes - done_bytes;

        ssize_t written = write (state->fd, state->buffer + in_block, (size_t) want_bytes);
        if (written == -1) {
            if (errno == EINTR)
                continue;
            workload_fail (ws, errno, "write(%s)", ws->path);
            status = WORKLOAD_FAILED;
            break;
        }
        if (written == 0) {
            //  A regular file never does this; do not spin on it.
            workload_fail (ws, EIO, "write(%s) wrote nothing", ws->path);
            status = WORKLOAD_FAILED;
            break;
        }
        done_bytes += (uint64_t) written;
        workload_set_bytes (ws, done_bytes);
    }
    if (done_bytes > 0)
        ws->last_write_ns = clock_now_ns ();

    //  An aborted or failed stream is closed without the flush: the
    //  figures are already invalid and the agent must answer promptly.
    if (s_flush_and_close (ws, state, status == WORKLOAD_DONE) == -1
    &&  status == WORKLOAD_DONE)
        status = WORKLOAD_FAILED;
    ws->end_ns = clock_now_ns ();
    return status;
}

//  Close what is open, free the buffer, and remove the file unless kept.
//  The write workload truncated the file, so whatever was there before is
//  gone anyway: removing it is right whether or not it existed.
static void
s_write_cleanup (workload_stream_t *ws, bool remove_files)
{
    s_write_t *state = ws->data;
    if (!state)
        return;
    if (state->fd != -1)
        close (state->fd);
    if (remove_files && state->opened)
        unlink (ws->path);
    free (state->buffer);
    free (state);
    ws->data = NULL;
}

const workload_ops_t workload_write_ops = {
    .name = "write",
    .uses_files = true,
    .validate = s_write_validate,
    .prepare = s_write_prepare,
    .run = s_write_run,
    .stop = NULL,               //  the flag is checked after every write call
    .cleanup = s_write_cleanup,
};
