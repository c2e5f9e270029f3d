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

    Options: direct, fsync (end by default), pattern. With pattern =
    random each phase writes data of its own, drawn at prepare, so that
    the rewrite really changes every block it writes.
*/
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  What one rewrite stream holds between prepare and cleanup.
typedef struct {
    workload_output_t out;          //  the file, and what removing it takes
    unsigned char *buffers [2];     //  bs each, page-aligned: what each phase writes
                                    //  (one, zeros, for pattern = zero)
} s_rewrite_t;


//  One buffer of bs, two with pattern = random.
static uint64_t
s_rewrite_stream_memory (const jobspec_t *spec)
{
    return spec->pattern == PATTERN_RANDOM? 2 * spec->bs_bytes: spec->bs_bytes;
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
    size_t buffers = ws->spec->pattern == PATTERN_RANDOM? 2: 1;
    uint64_t seed = workload_random_seed ();
    for (size_t index = 0; index < buffers; index++)
        if (workload_pattern_buffer (ws, &state->buffers [index], &seed, err, errlen) == -1)
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
    unsigned char *buffer = state->buffers [phase == 1 && state->buffers [1]? 1: 0];
    if (phase == 1) {
        char err [MSG_TEXT_MAX + 1];
        int flags = O_WRONLY | (ws->spec->direct? O_DIRECT: 0);
        state->out.fd = workload_output_reopen (ws, &state->out, flags, err, sizeof (err));
        if (state->out.fd == -1) {
            workload_fail_message (ws, errno, err);
            return WORKLOAD_FAILED;
        }
    }
    uint64_t done_bytes = 0;
    int status = workload_write_blocks (ws, state->out.fd, buffer, NULL, &done_bytes);
    return workload_output_end (ws, &state->out.fd, done_bytes, status);
}

//  Close what is open, free the buffers, remove the file unless kept.
static void
s_rewrite_cleanup (workload_stream_t *ws, bool remove_files)
{
    s_rewrite_t *state = ws->data;
    if (!state)
        return;
    workload_output_release (ws, &state->out, remove_files);
    free (state->buffers [0]);
    free (state->buffers [1]);
    free (state);
    ws->data = NULL;
}

const workload_ops_t workload_rewrite_ops = {
    .name = "rewrite",
    .stream_memory = s_rewrite_stream_memory,
    .prepare = s_rewrite_prepare,
    .run = s_rewrite_run,
    .stop = NULL,               //  the flag is checked after every record
    .cleanup = s_rewrite_cleanup,
};
