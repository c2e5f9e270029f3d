/*  agent/workloads/monitor.c: the workload that watches the host.

    It does no I/O. Its one stream lasts from the start instant until the
    coordinator says every timed stream of the test has ended (STOP); the
    agent's loop meanwhile sends the host's counters every `interval` as
    MONITOR messages (agent/hostwatch.h). It is what runs on an NFS server
    while its clients copy: the server's CPU, disks and NFS operations on
    the same time axis as the clients' streams.
*/
#include "workload.h"

#include "../../proto/clock.h"

#include <stdio.h>

//  How often the idle stream looks at its stop flag.
#define S_POLL_NS (10 * NS_PER_MSEC)

static int
s_monitor_validate (const jobspec_t *spec, char *err, size_t errlen)
{
    if (spec->streams != 1) {
        snprintf (err, errlen, "a monitor has one stream, not %llu",
                  (unsigned long long) spec->streams);
        return -1;
    }
    return 0;
}

//  Nothing to open.
static int
s_monitor_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    (void) ws;
    (void) err;
    (void) errlen;
    return 0;
}

//  Wait for the end of the test. Being stopped is how a monitor ends.
static int
s_monitor_run (workload_stream_t *ws)
{
    while (!workload_stopping (ws))
        clock_sleep_until (clock_now_ns () + S_POLL_NS);
    ws->end_ns = clock_now_ns ();
    return WORKLOAD_DONE;
}

//  Nothing to release.
static void
s_monitor_cleanup (workload_stream_t *ws, bool remove_files)
{
    (void) ws;
    (void) remove_files;
}

const workload_ops_t workload_monitor_ops = {
    .name = "monitor",
    .uses_files = false,
    .samples_host = true,
    .validate = s_monitor_validate,
    .prepare = s_monitor_prepare,
    .run = s_monitor_run,
    .stop = NULL,               //  the flag is checked every 10 ms
    .cleanup = s_monitor_cleanup,
};
