/*  agent/workloads/rewrite.c: iozone -i 0, write then rewrite.

    Two phases on each stream's file (stream k of n > 1 writes path.k),
    each a row of its own. Phase 0, "write": size bytes in bs records
    into a file new at prepare, flushed as `fsync` asks, closed. Phase 1,
    "rewrite": the same file opened again (through the directory held
    since prepare, and only if its name is still that file, of one link),
    without truncation, and size bytes written over it from offset 0 in
    place, flushed and closed likewise. A rewrite finds the file's blocks
    allocated and its metadata there: what iozone's rewrite shows beside
    its write. The file stays between the phases and goes at cleanup
    unless keep.

    Options: direct, fsync (end by default), pattern, engine, iodepth.
    With pattern = random each phase writes data of its own, drawn at
    prepare, so that the rewrite really changes every block it writes
    (the engine's slots take the rewrite's data as its phase begins).
*/
#include "workload.h"

#include "../engines/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  What one rewrite stream holds between prepare and cleanup.
typedef struct {
    workload_output_t out;          //  the file, and what removing it takes
    engine_t *engine;               //  how it issues its writes; its slots' buffers hold
                                    //  what the phase writes
    unsigned char *rewrite_data;    //  pattern = random: bs of the rewrite's own data,
                                    //  page-aligned, for the slots at phase 1; else NULL
} s_rewrite_t;


//  The engine's slots, and bs more with pattern = random.
static uint64_t
s_rewrite_stream_memory (const jobspec_t *spec)
{
    return (spec->pattern == PATTERN_RANDOM? spec->bs_bytes: 0) + engine_memory (spec);
}

//  Create the file and fill the buffers: everything before the write.
static int
s_rewrite_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    s_rewrite_t *state = calloc (1, sizeof (s_rewrite_t));
    if (!state) {
        snprintf (err, errlen, "calloc: %s", strerror (ENOMEM));
        return -1;
    }
    workload_output_init (&state->out);
    ws->data = state;

    if (workload_open_output (ws, &state->out, err, errlen) == -1)
        return -1;
    const jobspec_t *spec = ws->spec;
    state->engine = engine_new (spec->engine, engine_slots (spec), &state->out.fd, 1,
                                spec->direct, err, errlen);
    if (!state->engine)
        return -1;
    //  The write's data goes into the first slot, and from there into
    //  the others; the rewrite's is drawn next, from the same sequence.
    uint64_t seed = workload_random_seed ();
    unsigned char *first = state->engine->slots [0].buffer;
    workload_pattern_fill (ws, first, &seed);
    engine_fill (state->engine, first);
    if (spec->pattern == PATTERN_RANDOM
    &&  workload_pattern_buffer (ws, &state->rewrite_data, &seed, err, errlen) == -1)
        return -1;
    return 0;
}

//  Phase 0 writes through the descriptor of prepare; phase 1 opens the
//  file again, in place. Both write size bytes from offset 0, then flush
//  and close.
static int
s_rewrite_run (workload_stream_t *ws, uint32_t phase)
{
    s_rewrite_t *state = ws->data;
    if (phase == 1) {
        char err [MSG_TEXT_MAX + 1];
        int flags = O_WRONLY | (ws->spec->direct? O_DIRECT: 0);
        state->out.fd = workload_output_reopen (ws, &state->out, flags, err, sizeof (err));
        if (state->out.fd == -1) {
            workload_fail_message (ws, errno, err);
            return STREAM_FAILED;
        }
        if (engine_files_changed (state->engine) == -1) {
            workload_fail (ws, errno, "io_uring_register(%s)", ws->shown);
            return STREAM_FAILED;
        }
        if (state->rewrite_data)
            engine_fill (state->engine, state->rewrite_data);
    }
    uint64_t done_bytes = 0;
    int status = workload_queued_pass (ws, state->engine, ENGINE_WRITE,
                                       ws->spec->size_bytes, &done_bytes);
    return workload_output_end (ws, &state->out.fd, status);
}

//  Close what is open, free the buffers, remove the file unless kept.
static void
s_rewrite_cleanup (workload_stream_t *ws, bool remove_files)
{
    s_rewrite_t *state = ws->data;
    if (!state)
        return;
    engine_destroy (&state->engine);
    workload_output_release (ws, &state->out, remove_files);
    free (state->rewrite_data);
    free (state);
    ws->data = NULL;
}

const workload_ops_t workload_rewrite_ops = {
    .name = "rewrite",
    .validate = engine_check,   //  a host that refuses the engine refuses the job
    .stream_memory = s_rewrite_stream_memory,
    .prepare = s_rewrite_prepare,
    .run = s_rewrite_run,
    .stop = NULL,               //  the flag is checked after every record
    .cleanup = s_rewrite_cleanup,
};
