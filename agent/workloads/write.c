/*  agent/workloads/write.c: sequential write of `size` bytes in `bs`
    blocks, what `dd if=/dev/zero of=FILE bs=BS count=N conv=fdatasync`
    measures.

    prepare opens (and truncates) the file and fills the buffer, so the
    timed part is nothing but write calls and the flush that `fsync` asks
    for. Options: direct (O_DIRECT), fsync = none | end | close,
    pattern = zero | random.
*/
#include "workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//  What one write stream holds between prepare and cleanup.
typedef struct {
    workload_output_t out;      //  the file, and what removing it takes
    unsigned char *buffer;      //  bs bytes, page-aligned, filled at prepare
} s_write_t;


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

    uint64_t seed = workload_random_seed ();
    return workload_pattern_buffer (ws, &state->buffer, &seed, err, errlen);
}

//  The timed part: write size bytes, bs at a time, then flush and close.
static int
s_write_run (workload_stream_t *ws, uint32_t phase)
{
    (void) phase;
    s_write_t *state = ws->data;
    uint64_t done_bytes = 0;
    int status = workload_write_blocks (ws, state->out.fd, state->buffer, NULL, &done_bytes);
    return workload_output_end (ws, &state->out.fd, done_bytes, status);
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
    workload_output_release (ws, &state->out, remove_files);
    free (state->buffer);
    free (state);
    ws->data = NULL;
}

const workload_ops_t workload_write_ops = {
    .name = "write",
    .stream_memory = workload_one_buffer,
    .prepare = s_write_prepare,
    .run = s_write_run,
    .stop = NULL,               //  the flag is checked after every write call
    .cleanup = s_write_cleanup,
};
