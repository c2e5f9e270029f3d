/*  agent/workloads/null.c: the workload that does no I/O.

    It counts `size` bytes in `bs` steps as if it wrote them, publishing
    progress and honouring stop exactly like the write workload. It tests
    the machinery around workloads (prepare, synchronized start, samples,
    results, abort) without touching a disk, and its rate shows the
    overhead of the loop itself.
*/
#include "workload.h"

#include "../../proto/clock.h"

#include <stdio.h>


//  Nothing to open or fill.
static int
s_null_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    (void) ws;
    (void) err;
    (void) errlen;
    return 0;
}

//  Count size bytes in bs steps, checking the stop flag after each step.
static int
s_null_run (workload_stream_t *ws, uint32_t phase)
{
    (void) phase;
    const uint64_t size_bytes = ws->spec->size_bytes;
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    uint64_t done_bytes = 0;
    int status = STREAM_DONE;

    while (done_bytes < size_bytes) {
        if (workload_stopping (ws)) {
            status = STREAM_STOPPED;
            break;
        }
        uint64_t step_bytes = size_bytes - done_bytes < bs_bytes?
                              size_bytes - done_bytes: bs_bytes;
        done_bytes += step_bytes;
        workload_set_bytes (ws, done_bytes);
    }
    //  Its last step took no time: it was issued when it ended.
    if (done_bytes > 0)
        ws->last_issue_ns = ws->last_write_ns = clock_now_ns ();
    ws->end_ns = clock_now_ns ();
    return status;
}

//  Nothing to release.
static void
s_null_cleanup (workload_stream_t *ws, bool remove_files)
{
    (void) ws;
    (void) remove_files;
}

const workload_ops_t workload_null_ops = {
    .name = "null",
    .prepare = s_null_prepare,
    .run = s_null_run,
    .stop = NULL,               //  the flag is checked after every step
    .cleanup = s_null_cleanup,
};
