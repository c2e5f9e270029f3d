/*  agent/workloads/write.c: sequential write of `size` bytes in `bs`
    blocks, what `dd if=/dev/zero of=FILE bs=BS count=N conv=fdatasync`
    measures.

    prepare opens (and truncates) the file, makes the engine (`engine`,
    `iodepth`: its slots, their buffers filled with the pattern), so the
    timed part is nothing but write requests and the flush that `fsync`
    asks for, after every request came back. Options: direct (O_DIRECT),
    fsync = none | end | close, pattern = zero | random.
*/
#include "workload.h"

#include "../engines/engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//  What one write stream holds between prepare and cleanup.
typedef struct {
    workload_output_t out;      //  the file, and what removing it takes
    engine_t *engine;           //  how it issues its writes; its slots hold the pattern
} s_write_t;

//  The engine's slots, which hold the pattern.
static uint64_t
s_write_stream_memory (const jobspec_t *spec)
{
    return engine_memory (spec);
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
    workload_output_init (&state->out);
    ws->data = state;

    if (workload_open_output (ws, &state->out, err, errlen) == -1)
        return -1;

    const jobspec_t *spec = ws->spec;
    state->engine = engine_new (spec->engine, engine_slots (spec), &state->out.fd, 1,
                                spec->direct, err, errlen);
    if (!state->engine)
        return -1;
    //  The pattern goes into the first slot, and from there into the others.
    uint64_t seed = workload_random_seed ();
    unsigned char *first = state->engine->slots [0].buffer;
    workload_pattern_fill (ws, first, &seed);
    engine_fill (state->engine, first);
    return 0;
}

//  The timed part: write size bytes, bs at a time, then flush and close.
static int
s_write_run (workload_stream_t *ws, uint32_t phase)
{
    (void) phase;
    s_write_t *state = ws->data;
    uint64_t done_bytes = 0;
    int status = workload_queued_pass (ws, state->engine, ENGINE_WRITE,
                                       ws->spec->size_bytes, &done_bytes);
    return workload_output_end (ws, &state->out.fd, status);
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
    engine_destroy (&state->engine);
    workload_output_release (ws, &state->out, remove_files);
    free (state);
    ws->data = NULL;
}

const workload_ops_t workload_write_ops = {
    .name = "write",
    .validate = engine_check,   //  a host that refuses the engine refuses the job
    .stream_memory = s_write_stream_memory,
    .prepare = s_write_prepare,
    .run = s_write_run,
    .stop = NULL,               //  the flag is checked before every write request
    .cleanup = s_write_cleanup,
};
