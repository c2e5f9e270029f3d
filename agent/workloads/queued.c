/*  agent/workloads/queued.c: a file written or read from its start
    through an engine (agent/engines/), iodepth blocks in flight, for the
    write, rewrite and read workloads; see workload_queued_pass in
    workload.h.

    Blocks of bs at offsets 0, bs, 2 bs ... (the last one shorter if size
    is not a multiple) are queued while the engine has a free slot; to
    write, each slot's buffer holds the workload's pattern since prepare.
    A request is issued only before the phase's stop instant, and with a
    runtime the file is gone through again from its start each time it is
    whole. The engine hands a block back whole (a short transfer goes out
    again for its rest), or short where the file ended; a block begun is
    done whole, even past the instant, and counts once, timed from its
    issue to its end. O_DIRECT reads whole sectors: the tail of a file
    read whole (size 0) is asked for rounded up, comes back short, and
    counts as the bytes wanted. With `rate` or `rate_iops` a block goes
    once the ones before it are paid for, the completions reaped
    meanwhile. Whatever happens, the queue drains
    before the function returns: nothing is left in flight with the
    stream's buffers.
*/
#include "workload.h"

#include "../engines/engine.h"

#include <errno.h>

//  What one pass goes through.
typedef struct {
    engine_op_t op;                 //  read or write
    uint64_t size_bytes;            //  bytes of the file to go through
    uint64_t *done_bytes;           //  bytes done, counted
} s_pass_t;

int
workload_read_whole (workload_stream_t *ws, engine_t *engine, const engine_request_t *request,
                     uint64_t want_bytes, uint64_t size_bytes)
{
    ssize_t result = request->result;
    if (result < 0) {
        //  The engine's own words, where it has them (libnfs's).
        if (engine_error (engine) [0])
            workload_fail_message (ws, (int) -result, engine_error (engine));
        else
            workload_fail (ws, (int) -result, "read(%s at %llu)", ws->shown,
                           (unsigned long long) request->offset);
        return -1;
    }
    if ((uint64_t) result < want_bytes) {
        workload_fail (ws, EIO, "read(%s): the file ended at %llu bytes, before %llu",
                       ws->shown, (unsigned long long) request->offset + (uint64_t) result,
                       (unsigned long long) size_bytes);
        return -1;
    }
    return 0;
}

//  One completion: counted, or the stream failed. Returns 0, or -1 with
//  the failure recorded.
static int
s_completed (workload_stream_t *ws, engine_t *engine, const s_pass_t *pass,
             engine_request_t *request, uint64_t want_bytes)
{
    bool read = pass->op == ENGINE_READ;
    ssize_t result = request->result;
    int rc = 0;
    if (read)
        rc = workload_read_whole (ws, engine, request, want_bytes, pass->size_bytes);
    else
    if (result < 0) {
        workload_fail (ws, (int) -result, "write(%s)", ws->shown);
        rc = -1;
    }
    else
    if ((uint64_t) result < want_bytes) {
        //  A regular file never does this; do not spin on it.
        workload_fail (ws, EIO, "write(%s) wrote nothing", ws->shown);
        rc = -1;
    }
    //  A read, failed or not, took its time and counts; a write whole.
    uint64_t counted = result < 0? 0: (uint64_t) result < want_bytes? (uint64_t) result
                                                                      : want_bytes;
    if (read || rc == 0) {
        *pass->done_bytes += counted;
        workload_count (ws, read? MSG_LATENCY_READ: MSG_LATENCY_WRITE, request->begin_ns,
                        request->end_ns, counted);
    }
    engine_release (engine, request);
    return rc;
}

void
workload_engine_failed (workload_stream_t *ws, engine_t *engine)
{
    int err_no = errno;
    if (engine_error (engine) [0])
        workload_fail_message (ws, err_no, engine_error (engine));
    else
        workload_fail (ws, err_no, "io_uring_enter(%s)", ws->shown);
}

//  The bytes of the block at offset that count: bs, or the file's rest.
static uint64_t
s_want (const s_pass_t *pass, uint64_t bs_bytes, uint64_t offset)
{
    return pass->size_bytes - offset < bs_bytes? pass->size_bytes - offset: bs_bytes;
}

int
workload_queued_pass (workload_stream_t *ws, struct _engine_t *engine, int op,
                      uint64_t size_bytes, uint64_t *done_bytes)
{
    const s_pass_t pass = { .op = op, .size_bytes = size_bytes, .done_bytes = done_bytes };
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    const bool time_bound = workload_time_bound (ws);
    const bool round_up = op == ENGINE_READ && ws->spec->direct;
    uint64_t offset = 0;
    bool issuing = true;
    int status = STREAM_DONE;
    for (;;) {
        engine_request_t *request;
        //  rate, rate_iops: a block goes when the ones before are paid
        //  for; meanwhile completions are reaped.
        int64_t due_ns = 0;
        while (issuing) {
            if (workload_stopping (ws)) {
                status = STREAM_STOPPED;
                issuing = false;
                break;
            }
            if ((due_ns = workload_pace_wanted (ws)))
                break;
            if (!(request = engine_slot (engine)))
                break;
            if (offset == size_bytes && time_bound)
                offset = 0;         //  the file stays size bytes: gone through again
            if (offset == size_bytes || !workload_may_issue (ws, &request->begin_ns)) {
                engine_release (engine, request);
                issuing = false;
                break;
            }
            uint64_t want_bytes = s_want (&pass, bs_bytes, offset);
            request->op = op;
            request->file = 0;
            request->offset = offset;
            request->length_bytes = (size_t) (round_up?
                (want_bytes + IO_DIRECT_ALIGN_BYTES - 1) / IO_DIRECT_ALIGN_BYTES
                * IO_DIRECT_ALIGN_BYTES: want_bytes);
            engine_queue (engine, request);
            workload_pace_paid (ws, want_bytes);
            offset += want_bytes;
        }
        if (engine_in_flight (engine) == 0 && !engine_failed (engine)) {
            if (!due_ns)
                break;
            workload_pace_wait (ws, due_ns);
            continue;
        }
        request = due_ns? engine_reap_until (engine, due_ns): engine_reap (engine, true);
        if (!request && engine_failed (engine)) {
            workload_engine_failed (ws, engine);
            return STREAM_FAILED;
        }
        for (; request; request = engine_reaped (engine))
            if (s_completed (ws, engine, &pass, request,
                             s_want (&pass, bs_bytes, request->offset)) == -1) {
                status = STREAM_FAILED;
                issuing = false;
            }
    }
    if (engine_depth_max (engine) > ws->depth_max)
        ws->depth_max = engine_depth_max (engine);
    return status;
}
