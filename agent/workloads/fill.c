/*  agent/workloads/fill.c: create a source file before the timed part of
    a test, e.g. net1's 5.2 GB file on the NFS server's agent.

    A fill job is untimed: its streams run as soon as the job is prepared,
    in their own threads (gigabytes take longer than any lease, and the
    agent's loop must keep answering), and the job is READY when every
    file is there. Its figures are logged and sent in READY, never as
    RESULTs of the test.

    A file that already exists with the right size is reused as it is
    (its content is not checked), unless refill = yes. Options: path
    (stream k of n > 1 fills path.k), size, bs, pattern = zero | random
    (random data is drawn afresh for every block, so that no two blocks of
    the file are alike), direct, fsync (end, by default: the file is on
    disk when READY goes out).

    A complete file stays after the test whatever `keep` says: it is the
    content of the share, for the copies of this test and of later runs.
    A fill that fails or is stopped removes its partial file.
*/
#include "workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//  What one fill stream holds between prepare and cleanup.
typedef struct {
    bool reuse;                 //  the file is there with the right size: nothing to write
    workload_output_t out;      //  the file being filled (none when reused)
    bool complete;              //  the run wrote all of it and flushed it
    uint64_t seed;              //  splitmix64 state for pattern = random
    unsigned char *buffer;      //  bs bytes, page-aligned
} s_fill_t;


//  Reuse the file if it is there with the right size, otherwise create
//  it and fill the buffer.
static int
s_fill_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    s_fill_t *state = calloc (1, sizeof (s_fill_t));
    if (!state) {
        snprintf (err, errlen, "calloc: %s", strerror (ENOMEM));
        return -1;
    }
    workload_output_init (&state->out);
    ws->data = state;

    struct stat st;
    if (!ws->spec->refill && lstat (ws->path, &st) == 0 && S_ISREG (st.st_mode)
    &&  (uint64_t) st.st_size == ws->spec->size_bytes) {
        state->reuse = true;
        return 0;
    }
    if (workload_open_output (ws, &state->out, err, errlen) == -1)
        return -1;
    size_t bs_bytes = (size_t) ws->spec->bs_bytes;
    if (workload_buffer_new (&state->buffer, bs_bytes, err, errlen) == -1)
        return -1;
    memset (state->buffer, 0, bs_bytes);
    state->seed = workload_random_seed ();
    return 0;
}

//  Write the file, a block at a time, fresh random data in every block
//  when asked; stop promptly when the test goes away.
static int
s_fill_run (workload_stream_t *ws, uint32_t phase)
{
    (void) phase;
    s_fill_t *state = ws->data;
    if (state->reuse) {
        state->complete = true;
        return STREAM_DONE;
    }
    uint64_t done_bytes = 0;
    uint64_t *random_state = ws->spec->pattern == PATTERN_RANDOM? &state->seed: NULL;
    int status = workload_write_blocks (ws, state->out.fd, state->buffer, random_state,
                                        &done_bytes);
    status = workload_output_end (ws, &state->out.fd, status);
    state->complete = status == STREAM_DONE;
    return status;
}

//  Close and free; remove the file only if the fill did not complete.
static void
s_fill_cleanup (workload_stream_t *ws, bool remove_files)
{
    (void) remove_files;        //  a complete fill is the share's content: it stays
    s_fill_t *state = ws->data;
    if (!state)
        return;
    workload_output_release (ws, &state->out, !state->complete);
    free (state->buffer);
    free (state);
    ws->data = NULL;
}

const workload_ops_t workload_fill_ops = {
    .name = "fill",
    .stream_memory = workload_one_buffer,
    .prepare = s_fill_prepare,
    .run = s_fill_run,
    .stop = NULL,               //  the flag is checked after every block
    .cleanup = s_fill_cleanup,
};
