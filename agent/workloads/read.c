/*  agent/workloads/read.c: sequential read of `path` in `bs` blocks, what
    `dd if=FILE of=/dev/null bs=BS` and bonnie++'s block input measure.

    path is a file under the agent's roots (stream k of n > 1 reads
    path.k) or an URL nfs://server/export/file[?version=4], read over the
    wire with libnfs (stream k of n reads file.k there). size is the bytes
    to read, and 0 the whole file. Options: direct (O_DIRECT with a
    page-aligned buffer; an nfs:// read goes to the server every time
    anyway), rate (a cap, paced like a write's), pattern (what a layout
    writes).

    A local file that is missing, or shorter than size, is laid out at
    prepare, untimed: written with the pattern (random data drawn afresh
    for every block) up to size, then fdatasync'd, so that it is on disk
    and a drop of the page cache (drop_caches = yes, done by the agent
    once every job of the test is prepared) makes the read cold. A lock
    on the file (flock) makes two jobs that read it take turns: the
    second finds it laid out and writes nothing. A file the read created
    is ours and goes at cleanup unless keep; a file that was there is
    never truncated nor removed, only extended when short, and then
    refused if it has other hard links, as a write would refuse it. An
    nfs:// file is never laid out: it must be there, with at least size
    bytes.

    The timed part is nothing but read requests: the bytes of its one
    phase are bytes read, and it ends with the last read (nothing to
    flush). With a runtime, a stream that reached the end of its size
    reads it again from the start, until the stop instant. The blocks go
    through an engine, `iodepth` of them in flight
    (workload_queued_pass): a local file's the job's `engine`, an nfs://
    file's READ calls on the stream's libnfs connection, whichever
    engine the job names (workload_source_engine).
*/
#include "workload.h"

#include "../engines/engine.h"

#include "../../proto/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

//  How often a layout waiting for another's looks again.
#define S_LOCK_POLL_NS  (10 * NS_PER_MSEC)

//  What one read stream holds between prepare and cleanup.
typedef struct {
    workload_source_t source;       //  the file read, local or over NFS
    workload_output_t layout;       //  a local file laid out, and whether it is ours to remove
    uint64_t size_bytes;            //  bytes to read: size, or the whole file
    unsigned char *buffer;          //  bs bytes, page-aligned, for a local file's layout
                                    //  (freed after it)
    engine_t *engine;               //  how the file is read (its slots' buffers take
                                    //  the data)
} s_read_t;


//  A stream's engine, and what libnfs holds for an nfs:// file.
static uint64_t
s_read_stream_memory (const jobspec_t *spec)
{
    return workload_source_memory (spec, spec->path);
}

//  A local file is read through an engine the host must take.
static int
s_read_validate (const jobspec_t *spec, char *err, size_t errlen)
{
    return workload_source_check (spec, spec->path, err, errlen);
}

//  Take the file's lock for its layout, waiting while another holds it
//  (checking the stop flag meanwhile). Two jobs of a test may read one
//  file: the first to take the lock lays it out, and the other finds it
//  laid out when its turn comes. Returns 0, or -1 with the reason in err.
static int
s_lock (workload_stream_t *ws, int fd, char *err, size_t errlen)
{
    while (flock (fd, LOCK_EX | LOCK_NB) == -1) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            snprintf (err, errlen, "flock(%s): %s", ws->shown, strerror (errno));
            return -1;
        }
        if (workload_stopping (ws)) {
            snprintf (err, errlen, "lay out(%s): stopped while another job laid it out",
                      ws->shown);
            return -1;
        }
        clock_sleep_until (clock_now_ns () + S_LOCK_POLL_NS);
    }
    return 0;
}

//  Write the pattern from the end of the file ws->path names up to size,
//  then flush it to disk; check the stop flag between blocks, so that an
//  abort ends a layout of any size promptly. Returns 0, or -1 with the
//  reason in err.
static int
s_lay_out (workload_stream_t *ws, s_read_t *state, char *err, size_t errlen)
{
    if (workload_open_layout (ws, &state->layout, err, errlen) == -1)
        return -1;
    //  The file opened for reading (if it was there) must be the one
    //  extended, not another put under its name in between.
    if (state->source.fd != -1
    &&  (state->source.dev != state->layout.dev || state->source.ino != state->layout.ino)) {
        snprintf (err, errlen, "open(%s): the file was replaced while it was opened", ws->shown);
        return -1;
    }
    struct stat st;
    if (s_lock (ws, state->layout.fd, err, errlen) == -1)
        return -1;
    if (fstat (state->layout.fd, &st) == -1) {
        snprintf (err, errlen, "fstat(%s): %s", ws->shown, strerror (errno));
        return -1;
    }
    const uint64_t size_bytes = ws->spec->size_bytes;
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    uint64_t seed = workload_random_seed ();
    uint64_t offset = (uint64_t) st.st_size;
    while (offset < size_bytes) {
        if (workload_stopping (ws)) {
            snprintf (err, errlen, "lay out(%s): stopped at %llu of %llu bytes", ws->shown,
                      (unsigned long long) offset, (unsigned long long) size_bytes);
            return -1;
        }
        size_t want_bytes = (size_t) (size_bytes - offset < bs_bytes? size_bytes - offset: bs_bytes);
        if (ws->spec->pattern == PATTERN_RANDOM)
            workload_random_fill (state->buffer, want_bytes, &seed);
        ssize_t written = pwrite (state->layout.fd, state->buffer, want_bytes, (off_t) offset);
        if (written == -1 && errno == EINTR)
            continue;
        if (written <= 0) {
            snprintf (err, errlen, "write(%s at %llu): %s", ws->shown, (unsigned long long) offset,
                      written == 0? "wrote nothing": strerror (errno));
            return -1;
        }
        offset += (uint64_t) written;
        ws->laid_out_bytes += (uint64_t) written;
    }
    if (fdatasync (state->layout.fd) == -1) {
        snprintf (err, errlen, "fdatasync(%s): %s", ws->shown, strerror (errno));
        return -1;
    }
    int rc = close (state->layout.fd);
    state->layout.fd = -1;
    if (rc == -1) {
        snprintf (err, errlen, "close(%s): %s", ws->shown, strerror (errno));
        return -1;
    }
    return 0;
}

//  A local file: open it, lay it out if it is missing or short, and
//  settle the bytes to read.
static int
s_prepare_local (workload_stream_t *ws, s_read_t *state, char *err, size_t errlen)
{
    const uint64_t size_bytes = ws->spec->size_bytes;
    const int direct_flag = ws->spec->direct? O_DIRECT: 0;
    bool missing = false;
    if (workload_source_open_local (&state->source, ws->path, direct_flag, err, errlen) == -1) {
        if (errno != ENOENT)
            return -1;
        missing = true;
    }
    uint64_t have_bytes = missing? 0: state->source.size_bytes;
    if (size_bytes == 0 && have_bytes == 0) {
        snprintf (err, errlen, "read(%s): %s, and the read needs a size to lay the file out",
                  ws->shown, missing? "no such file": "the file is empty");
        return -1;
    }
    state->size_bytes = size_bytes? size_bytes: have_bytes;
    if (have_bytes >= state->size_bytes)
        return 0;
    if (s_lay_out (ws, state, err, errlen) == -1)
        return -1;
    if (!missing)
        return 0;
    //  Created just now: read it through a descriptor of its own, and make
    //  sure it is the file laid out.
    if (workload_source_open_local (&state->source, ws->path, direct_flag, err, errlen) == -1)
        return -1;
    if (state->source.dev != state->layout.dev || state->source.ino != state->layout.ino) {
        snprintf (err, errlen, "open(%s): the file was replaced after it was laid out", ws->shown);
        return -1;
    }
    return 0;
}

//  An nfs:// file: connect, open it, and check it has the bytes to read.
static int
s_prepare_nfs (workload_stream_t *ws, s_read_t *state, char *err, size_t errlen)
{
    if (workload_source_open_nfs (&state->source, ws->path, err, errlen) == -1)
        return -1;
    uint64_t have_bytes = state->source.size_bytes;
    if (ws->spec->size_bytes > have_bytes) {
        snprintf (err, errlen, "file %s: has %llu bytes, fewer than size = %llu",
                  state->source.shown, (unsigned long long) have_bytes,
                  (unsigned long long) ws->spec->size_bytes);
        return -1;
    }
    state->size_bytes = ws->spec->size_bytes? ws->spec->size_bytes: have_bytes;
    if (state->size_bytes == 0) {
        snprintf (err, errlen, "file %s: is empty, nothing to read", state->source.shown);
        return -1;
    }
    return 0;
}

//  Allocate the buffer, open the file, lay it out if it must be.
static int
s_read_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    s_read_t *state = calloc (1, sizeof (s_read_t));
    if (!state) {
        snprintf (err, errlen, "calloc: %s", strerror (ENOMEM));
        return -1;
    }
    workload_output_init (&state->layout);
    workload_source_init (&state->source, "file", ws->path);
    ws->data = state;

    if (jobspec_src_is_nfs (ws->path)) {
        if (s_prepare_nfs (ws, state, err, errlen) == -1)
            return -1;
    }
    else {
        size_t bs_bytes = (size_t) ws->spec->bs_bytes;
        if (workload_buffer_new (&state->buffer, bs_bytes, err, errlen) == -1)
            return -1;
        memset (state->buffer, 0, bs_bytes);
        if (s_prepare_local (ws, state, err, errlen) == -1)
            return -1;
        //  The layout is done: the engine's slots take what is read.
        free (state->buffer);
        state->buffer = NULL;
    }
    state->engine = workload_source_engine (ws, &state->source, ws->spec->direct, err, errlen);
    return state->engine? 0: -1;
}

//  The timed part: read size bytes, bs at a time, from the start; on the
//  clock, over and over from the start until the stop instant.
static int
s_read_run (workload_stream_t *ws, uint32_t phase)
{
    (void) phase;
    s_read_t *state = ws->data;
    uint64_t done_bytes = 0;
    int status = workload_queued_pass (ws, state->engine, ENGINE_READ, state->size_bytes,
                                       &done_bytes);
    ws->end_ns = clock_now_ns ();
    return status;
}

//  Close, free, and remove the file only if the read created it.
static void
s_read_cleanup (workload_stream_t *ws, bool remove_files)
{
    s_read_t *state = ws->data;
    if (!state)
        return;
    //  The source first: calls a failed engine left in flight are
    //  called back, cancelled, while it is there.
    workload_source_close (&state->source);
    engine_destroy (&state->engine);
    workload_output_release (ws, &state->layout, remove_files);
    free (state->buffer);
    free (state);
    ws->data = NULL;
}

const workload_ops_t workload_read_ops = {
    .name = "read",
    .validate = s_read_validate,
    .stream_memory = s_read_stream_memory,
    .prepare = s_read_prepare,
    .run = s_read_run,
    .stop = NULL,               //  the flag is checked before every block goes out
    .cleanup = s_read_cleanup,
};
