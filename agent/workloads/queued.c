/*  agent/workloads/queued.c: a file written from its start through an
    engine (agent/engines/), iodepth blocks in flight, for the write and
    rewrite workloads; see workload_write_queued in workload.h.

    Blocks of bs at offsets 0, bs, 2 bs ... (the last one shorter if size
    is not a multiple) are queued while the engine has a free slot; each
    slot's buffer holds the workload's pattern since prepare. A request
    is issued only before the phase's stop instant, and with a runtime
    the file is written again from its start each time it is whole. A
    block that the kernel took in part goes out again for its rest (psync
    returns it short; io_uring resubmits it itself): a block begun is
    written whole, even past the instant, and counts once, as one write
    of its bytes, timed from its issue to its end. With `rate` a block is
    paid for as soon as it is handed to the kernel. Whatever happens, the
    queue drains before the function returns: nothing is left in flight
    with the stream's buffers.
*/
#include "workload.h"

#include "../engines/engine.h"

#include <errno.h>

//  One completion: counted when whole, queued again when short. Returns
//  0, or -1 with the failure recorded.
static int
s_completed (workload_stream_t *ws, engine_t *engine, engine_request_t *request,
             uint64_t *done_bytes)
{
    if (request->result > 0 && (size_t) request->result < request->length_bytes) {
        engine_queue (engine, request);         //  goes on where it stopped
        return 0;
    }
    int rc = 0;
    if (request->result < 0) {
        workload_fail (ws, (int) -request->result, "write(%s)", ws->shown);
        rc = -1;
    }
    else
    if (request->result == 0) {
        //  A regular file never does this; do not spin on it.
        workload_fail (ws, EIO, "write(%s) wrote nothing", ws->shown);
        rc = -1;
    }
    else {
        *done_bytes += (uint64_t) request->result;
        workload_count (ws, MSG_LATENCY_WRITE, request->begin_ns, request->end_ns,
                        (uint64_t) request->result);
    }
    engine_release (engine, request);
    return rc;
}

int
workload_write_queued (workload_stream_t *ws, engine_t *engine, uint64_t *done_bytes)
{
    const uint64_t size_bytes = ws->spec->size_bytes;
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    const bool time_bound = workload_time_bound (ws);
    uint64_t offset = 0;
    bool issuing = true;
    int status = WORKLOAD_DONE;
    for (;;) {
        engine_request_t *request;
        while (issuing && (request = engine_slot (engine))) {
            if (workload_stopping (ws))
                status = WORKLOAD_STOPPED;
            if (offset == size_bytes && time_bound)
                offset = 0;         //  the file stays size bytes: written over again
            if (status != WORKLOAD_DONE || offset == size_bytes
            ||  !workload_may_issue (ws, &request->begin_ns)) {
                engine_release (engine, request);
                issuing = false;
                break;
            }
            request->op = ENGINE_WRITE;
            request->file = 0;
            request->offset = offset;
            request->length_bytes = (size_t) (size_bytes - offset < bs_bytes?
                                              size_bytes - offset: bs_bytes);
            engine_queue (engine, request);
            offset += request->length_bytes;
            if (ws->spec->rate_bytes) {
                if (engine_submit (engine) == -1)
                    break;
                workload_pace (ws, request->length_bytes);
            }
        }
        if (engine_in_flight (engine) == 0 && !engine_failed (engine))
            break;
        request = engine_reap (engine, true);
        if (!request && engine_failed (engine)) {
            workload_fail (ws, errno, "io_uring_enter(%s)", ws->shown);
            return WORKLOAD_FAILED;
        }
        for (; request; request = engine_reap (engine, false))
            if (s_completed (ws, engine, request, done_bytes) == -1) {
                status = WORKLOAD_FAILED;
                issuing = false;
            }
    }
    if (engine_depth_max (engine) > ws->depth_max)
        ws->depth_max = engine_depth_max (engine);
    return status;
}
