/*  agent/workloads/monitor.c: the workload that watches the host.

    It does no I/O. Its one stream lasts from the start instant until the
    coordinator says the last phase of the test is over everywhere (STOP);
    every `interval` meanwhile its sample is the host's counters (CPU,
    dirty memory, disks, NFS), sent as a MONITOR message. It is what runs
    on an NFS server while its clients copy: the server's CPU, disks and
    NFS operations on the same time axis as the clients' streams.
*/
#include "workload.h"

#include "../hostwatch.h"

#include "../../proto/clock.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

//  How often the idle stream looks at its stop flag.
#define S_POLL_NS (10 * NS_PER_MSEC)

//  A reader of the host's counters, the monitor's own.
static int
s_monitor_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    ws->data = hostwatch_new ("/proc", "/sys");
    if (!ws->data) {
        snprintf (err, errlen, "monitor: %s", strerror (ENOMEM));
        return -1;
    }
    return 0;
}

//  Wait for the end of the test. Being stopped is how a monitor ends.
static int
s_monitor_run (workload_stream_t *ws, uint32_t phase)
{
    (void) phase;
    while (!workload_stopping (ws))
        clock_sleep_until (clock_now_ns () + S_POLL_NS);
    ws->end_ns = clock_now_ns ();
    return STREAM_DONE;
}

//  The host's counters now, in a MONITOR message. A host that cannot be
//  read sends a sample without counters rather than none, so that its
//  series shows the gap.
static void
s_monitor_sample (workload_stream_t *ws, msg_t *out)
{
    out->type = MSG_MONITOR;
    char err [256];
    if (hostwatch_sample ((hostwatch_t *) ws->data, &out->u.monitor, err, sizeof (err)))
        out->u.monitor.t_ns = clock_now_ns ();
}

//  Release the reader.
static void
s_monitor_cleanup (workload_stream_t *ws, bool remove_files)
{
    (void) remove_files;
    hostwatch_t *hostwatch = ws->data;
    hostwatch_destroy (&hostwatch);
    ws->data = NULL;
}

const workload_ops_t workload_monitor_ops = {
    .name = "monitor",
    .prepare = s_monitor_prepare,
    .run = s_monitor_run,
    .stop = NULL,               //  the flag is checked every 10 ms
    .sample = s_monitor_sample,
    .cleanup = s_monitor_cleanup,
};
