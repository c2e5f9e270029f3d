/*  agent/workloads/pace.c: `rate` (bytes per second) and `rate_iops`
    (requests per second) of a stream; see workload.h.

    ws->paced_ns is the instant up to which the requests issued so far
    are paid for, each at the larger of its two costs (its bytes at
    `rate`, one request at `rate_iops`); the next request may go at that
    instant. Time not used is credit, but only S_PACE_CREDIT_NS of it:
    enough to absorb the lateness of the waits themselves and of the
    scheduler, so that the long-run rate is the cap, and little enough
    that a stream held up longer (a stall, a stopped process) goes on at
    its rate instead of catching up on the time it lost in one burst.
    Waits are cut in slices so that a stop is seen within one of them.
*/
#include "workload.h"

#include "../../proto/clock.h"

//  The credit, and the slice of a wait.
#define S_PACE_CREDIT_NS    (20 * NS_PER_MSEC)
#define S_PACE_SLICE_NS     (50 * NS_PER_MSEC)

//  The instant the requests so far are paid up to, the credit applied.
static int64_t
s_paid_ns (const workload_stream_t *ws, int64_t now_ns)
{
    int64_t paid_ns = ws->paced_ns > ws->start_ns? ws->paced_ns: ws->start_ns;
    return paid_ns < now_ns - S_PACE_CREDIT_NS? now_ns - S_PACE_CREDIT_NS: paid_ns;
}

bool
workload_paced (const workload_stream_t *ws)
{
    return ws->spec->rate_bytes || ws->spec->rate_iops;
}

int64_t
workload_pace_wanted (const workload_stream_t *ws)
{
    if (!workload_paced (ws))
        return 0;
    int64_t now_ns = clock_now_ns ();
    int64_t due_ns = s_paid_ns (ws, now_ns);
    //  Past the stop instant the caller finds that it may not issue.
    if (due_ns <= now_ns || (ws->stop_ns && now_ns >= ws->stop_ns))
        return 0;
    return due_ns;
}

void
workload_pace_paid (workload_stream_t *ws, uint64_t call_bytes)
{
    if (!workload_paced (ws))
        return;
    //  bs is at most 64M and rate at least 1 byte/s: the cost fits in
    //  an int64 many times over; 128 bits keep the product exact.
    unsigned __int128 cost_ns = 0;
    if (ws->spec->rate_bytes)
        cost_ns = (unsigned __int128) call_bytes * NS_PER_SEC / ws->spec->rate_bytes;
    if (ws->spec->rate_iops && NS_PER_SEC / ws->spec->rate_iops > cost_ns)
        cost_ns = NS_PER_SEC / ws->spec->rate_iops;
    int64_t paid_ns = s_paid_ns (ws, clock_now_ns ());
    paid_ns += cost_ns > (unsigned __int128) INT64_MAX / 4? INT64_MAX / 4: (int64_t) cost_ns;
    ws->paced_ns = paid_ns;
}

void
workload_pace_wait (workload_stream_t *ws, int64_t until_ns)
{
    //  A time-bound phase ends at its instant, paid up or not.
    if (ws->stop_ns && ws->stop_ns < until_ns)
        until_ns = ws->stop_ns;
    int64_t now_ns;
    while (!workload_stopping (ws) && (now_ns = clock_now_ns ()) < until_ns)
        clock_sleep_until (until_ns - now_ns > S_PACE_SLICE_NS? now_ns + S_PACE_SLICE_NS: until_ns);
}

void
workload_pace (workload_stream_t *ws, uint64_t call_bytes)
{
    if (!workload_paced (ws))
        return;
    workload_pace_paid (ws, call_bytes);
    workload_pace_wait (ws, ws->paced_ns);
}
