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

    The source is read through an engine (source.c), `iodepth` blocks at
    a time: a local source's the job's `engine`, an nfs:// source's READ
    calls in flight on the stream's libnfs connection, whatever `engine`
    says. Reads go out ahead of the writes while a slot is free; they
    come back in any order and each block is written, in order, as soon
    as the ones before it are, from the slot that read it, which then
    reads again. At iodepth 1 that is read, write, read, write.
*/
#include "workload.h"

#include "../engines/engine.h"

#include <assert.h>
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
    engine_t *engine;               //  reads the source, iodepth blocks ahead
    uint32_t depth;                 //  its slots
    engine_request_t **held;        //  blocks read, waiting for their turn to be
                                    //  written: block k (offset k x bs) at k % depth
} s_copy_t;


//  A stream's engine, and what libnfs holds for an nfs:// source.
static uint64_t
s_copy_stream_memory (const jobspec_t *spec)
{
    return workload_source_memory (spec, spec->src);
}

//  A local source is read through an engine the host must take.
static int
s_copy_validate (const jobspec_t *spec, char *err, size_t errlen)
{
    return workload_source_check (spec, spec->src, err, errlen);
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

//  Open the source, create the destination, make the engine.
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
    state->depth = (uint32_t) (ws->spec->iodepth? ws->spec->iodepth: 1);
    state->held = calloc (state->depth, sizeof (engine_request_t *));
    if (!state->held) {
        snprintf (err, errlen, "calloc: %s", strerror (ENOMEM));
        return -1;
    }
    state->engine = workload_source_engine (ws, &state->source, false, err, errlen);
    return state->engine? 0: -1;
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

//  The bytes of the block at offset: bs, or the source's rest.
static uint64_t
s_want (const s_copy_t *state, uint64_t bs_bytes, uint64_t offset)
{
    return state->size_bytes - offset < bs_bytes? state->size_bytes - offset: bs_bytes;
}

//  Where the block at offset waits for its turn.
static engine_request_t **
s_held (s_copy_t *state, uint64_t bs_bytes, uint64_t offset)
{
    return &state->held [(offset / bs_bytes) % state->depth];
}

//  A read come back: counted (a copy's bytes are those it writes, so it
//  brings none), then held for its turn while the copy goes on, else its
//  slot given back. Returns 0, or -1 if it failed (recorded).
static int
s_read_back (workload_stream_t *ws, s_copy_t *state, engine_request_t *request, int status)
{
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    workload_count (ws, MSG_LATENCY_READ, request->begin_ns, request->end_ns, 0);
    int rc = workload_read_whole (ws, state->engine, request,
                                  s_want (state, bs_bytes, request->offset), state->size_bytes);
    if (rc == 0 && status == STREAM_DONE)
        *s_held (state, bs_bytes, request->offset) = request;
    else
        engine_release (state->engine, request);
    return rc;
}

//  Write the blocks held from *written_bytes on, in order, each slot
//  given back once written. Returns STREAM_DONE, or _FAILED (recorded).
static int
s_write_held (workload_stream_t *ws, s_copy_t *state, uint64_t *written_bytes)
{
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    engine_request_t **held;
    while (*(held = s_held (state, bs_bytes, *written_bytes))) {
        engine_request_t *request = *held;
        assert (request->offset == *written_bytes);
        *held = NULL;
        size_t length = (size_t) s_want (state, bs_bytes, request->offset);
        uint64_t done_bytes = 0;
        int rc = 0;
        if (ws->spec->direct && length % IO_DIRECT_ALIGN_BYTES)
            rc = s_leave_direct (ws, state);
        if (rc == 0)
            rc = workload_write_full (ws, state->out.fd, request->buffer, length, &done_bytes);
        engine_release (state->engine, request);
        if (rc == -1)
            return STREAM_FAILED;
        *written_bytes += length;
    }
    return STREAM_DONE;
}

//  The timed part: blocks read ahead through the engine, written in
//  order, until size bytes are copied; then flush and close as fsync
//  asks. A stop or a failure leaves the blocks read and not written.
static int
s_copy_run (workload_stream_t *ws, uint32_t phase)
{
    (void) phase;
    s_copy_t *state = ws->data;
    engine_t *engine = state->engine;
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    uint64_t asked_bytes = 0;       //  the next block to read
    uint64_t written_bytes = 0;     //  the next block to write
    int status = STREAM_DONE;
    for (;;) {
        if (status == STREAM_DONE)
            status = s_write_held (ws, state, &written_bytes);
        engine_request_t *request;
        while (status == STREAM_DONE && asked_bytes < state->size_bytes
           &&  (request = engine_slot (engine))) {
            if (workload_stopping (ws)) {
                engine_release (engine, request);
                status = STREAM_STOPPED;
                break;
            }
            //  A copy has no runtime: there is no stop instant to miss.
            (void) workload_may_issue (ws, &request->begin_ns);
            uint64_t want_bytes = s_want (state, bs_bytes, asked_bytes);
            request->op = ENGINE_READ;
            request->file = 0;
            request->offset = asked_bytes;
            request->length_bytes = (size_t) want_bytes;
            engine_queue (engine, request);
            asked_bytes += want_bytes;
        }
        if (engine_in_flight (engine) == 0)
            break;
        request = engine_reap (engine, true);
        if (!request && engine_failed (engine)) {
            workload_engine_failed (ws, engine);
            status = STREAM_FAILED;
            break;
        }
        for (; request; request = engine_reaped (engine))
            if (s_read_back (ws, state, request, status) == -1)
                status = STREAM_FAILED;
    }
    //  Stopped or failed: what was read and not written goes back.
    for (uint32_t slot = 0; slot < state->depth; slot++)
        if (state->held [slot]) {
            engine_release (engine, state->held [slot]);
            state->held [slot] = NULL;
        }
    ws->depth_max = engine_depth_max (engine);
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
    //  The source first: calls a failed engine left in flight are
    //  called back, cancelled, while it is there.
    workload_source_close (&state->source);
    engine_destroy (&state->engine);
    free (state->held);
    free (state);
    ws->data = NULL;
}

const workload_ops_t workload_copy_ops = {
    .name = "copy",
    .validate = s_copy_validate,
    .stream_memory = s_copy_stream_memory,
    .prepare = s_copy_prepare,
    .run = s_copy_run,
    .stop = NULL,               //  the flag is checked before every read goes out
    .cleanup = s_copy_cleanup,
};
