/*  agent/workloads/copy.c: read `src`, write `dst`, what net1 and mix3
    time: `cp` from a mounted share, or a copy from an NFS server read
    straight over the wire with libnfs (no mount needed).

    src is either a path under the agent's roots (job.c has resolved it
    there before prepare: reading outside the roots is refused like
    writing) or an URL nfs://server/export/path[?version=4] (NFSv3 unless
    the URL says otherwise). Stream k of n > 1 reads the same source and
    writes dst.k. Options as for write: bs (bytes per read and write
    call), direct (O_DIRECT on the destination), fsync; size limits the
    copy to the first size bytes of the source, and without it the whole
    source is copied.

    Everything that can fail before the timed part fails in prepare:
    reaching the server, mounting the export, opening the source, finding
    it too small, creating the destination. Each error names the server
    and the path. A stream that fails in prepare removes what it created.
    Reading the source, local or over NFS, is source.c's.
*/
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//  What one copy stream holds between prepare and cleanup.
typedef struct {
    workload_output_t out;          //  the destination, and what removing it takes
    workload_source_t source;       //  the source, local or over NFS
    uint64_t size_bytes;            //  bytes to copy: size, or the whole source
    unsigned char *buffer;          //  bs bytes, page-aligned
} s_copy_t;


//  A stream's buffer, and what libnfs holds for an nfs:// source.
static uint64_t
s_copy_stream_memory (const jobspec_t *spec)
{
    return workload_source_memory (spec, spec->src);
}

//  Check that a source of source_bytes can give what the job asks, and
//  settle the bytes to copy. Returns 0, or -1 with the reason in err.
static int
s_settle_size (workload_stream_t *ws, s_copy_t *state, char *err, size_t errlen)
{
    const uint64_t source_bytes = state->source.size_bytes;
    const char *src_shown = state->source.shown;
    uint64_t wanted_bytes = ws->spec->size_bytes;
    if (wanted_bytes > source_bytes) {
        snprintf (err, errlen, "source %s: has %llu bytes, fewer than size = %llu",
                  src_shown, (unsigned long long) source_bytes,
                  (unsigned long long) wanted_bytes);
        return -1;
    }
    state->size_bytes = wanted_bytes? wanted_bytes: source_bytes;
    if (state->size_bytes == 0) {
        snprintf (err, errlen, "source %s: is empty, nothing to copy", src_shown);
        return -1;
    }
    return 0;
}

//  Open the source, create the destination, allocate the buffer.
static int
s_copy_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    s_copy_t *state = calloc (1, sizeof (s_copy_t));
    if (!state) {
        snprintf (err, errlen, "calloc: %s", strerror (ENOMEM));
        return -1;
    }
    workload_output_init (&state->out);
    workload_source_init (&state->source, "source", ws->spec->src);
    ws->data = state;

    //  The source first: a copy that cannot read must not leave an empty
    //  destination behind, nor truncate one that was there. A local
    //  source was resolved under a root by the job.
    int rc = jobspec_src_is_nfs (ws->spec->src)?
             workload_source_open_nfs (&state->source, ws->spec->src, err, errlen):
             workload_source_open_local (&state->source, ws->spec->src, 0, err, errlen);
    if (rc == -1 || s_settle_size (ws, state, err, errlen) == -1)
        return -1;
    if (workload_open_output (ws, &state->out, err, errlen) == -1)
        return -1;
    return workload_buffer_new (&state->buffer, (size_t) ws->spec->bs_bytes, err, errlen);
}

//  With O_DIRECT, a last block that is not a whole number of sectors
//  cannot be written; it goes through the page cache instead (and the
//  fsync at the end still covers it).
static int
s_leave_direct (workload_stream_t *ws, s_copy_t *state)
{
    int flags = fcntl (state->out.fd, F_GETFL);
    if (flags == -1 || fcntl (state->out.fd, F_SETFL, flags & ~O_DIRECT) == -1) {
        workload_fail (ws, errno, "fcntl(%s, F_SETFL)", ws->shown);
        return -1;
    }
    return 0;
}

//  The timed part: read a block, write it, until size bytes are copied;
//  then flush and close as fsync asks.
static int
s_copy_run (workload_stream_t *ws, uint32_t phase)
{
    (void) phase;
    s_copy_t *state = ws->data;
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    uint64_t read_bytes = 0;
    uint64_t done_bytes = 0;
    int status = STREAM_DONE;

    while (read_bytes < state->size_bytes) {
        if (workload_stopping (ws)) {
            status = STREAM_STOPPED;
            break;
        }
        uint64_t want_bytes = state->size_bytes - read_bytes < bs_bytes?
                              state->size_bytes - read_bytes: bs_bytes;
        //  A copy's bytes are those it writes.
        ssize_t got = workload_source_read (ws, &state->source, state->buffer,
                                            (size_t) want_bytes, read_bytes, 0);
        if (got == -1) {
            status = STREAM_FAILED;
            break;
        }
        if (got == 0) {
            workload_fail (ws, EIO, "read(%s): the source ended at %llu bytes, before %llu",
                           state->source.shown, (unsigned long long) read_bytes,
                           (unsigned long long) state->size_bytes);
            status = STREAM_FAILED;
            break;
        }
        read_bytes += (uint64_t) got;
        if (ws->spec->direct && got % IO_DIRECT_ALIGN_BYTES
        &&  s_leave_direct (ws, state) == -1) {
            status = STREAM_FAILED;
            break;
        }
        if (workload_write_full (ws, state->out.fd, state->buffer, (size_t) got,
                                 &done_bytes) == -1) {
            status = STREAM_FAILED;
            break;
        }
    }
    return workload_output_end (ws, &state->out.fd, status);
}

//  Close both ends, free, and remove the destination unless kept.
static void
s_copy_cleanup (workload_stream_t *ws, bool remove_files)
{
    s_copy_t *state = ws->data;
    if (!state)
        return;
    workload_output_release (ws, &state->out, remove_files);
    workload_source_close (&state->source);
    free (state->buffer);
    free (state);
    ws->data = NULL;
}

const workload_ops_t workload_copy_ops = {
    .name = "copy",
    .stream_memory = s_copy_stream_memory,
    .prepare = s_copy_prepare,
    .run = s_copy_run,
    .stop = NULL,               //  the flag is checked after every block
    .cleanup = s_copy_cleanup,
};
