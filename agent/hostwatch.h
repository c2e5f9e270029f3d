/*  agent/hostwatch.h: the host's figures over one test.

    Three snapshots of /proc (agent/procstat.h) bound a test on this host:
    at the start instant, when its last stream ended (the window), and at
    the end of the settle period that follows, which lasts until the dirty
    data is back near its level at the start or a bound passes. Physical
    writes during the settle period are what the page cache still owed
    when the window closed: the report warns when they are large.

    Block devices counted are the whole, bottom-most disks (those in
    /sys/block with no slaves): partitions and device-mapper or md devices
    on top of them would count the same bytes twice.
*/
#ifndef IOFLEET_HOSTWATCH_H
#define IOFLEET_HOSTWATCH_H

#include "../proto/msg.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct _hostwatch_t hostwatch_t;

//  A watcher reading proc_root and sys_root ("/proc", "/sys"; other
//  directories in tests).
hostwatch_t *hostwatch_new (const char *proc_root, const char *sys_root);

//  Destroy; safe on NULL, nulls the caller's pointer.
void hostwatch_destroy (hostwatch_t **self_p);

//  First snapshot: the window of test test_id begins. Returns 0, or -1
//  with a reason in err (the watcher then reports nothing for the test).
int hostwatch_begin (hostwatch_t *self, uint32_t test_id, char *err, size_t errlen);

//  Second snapshot: the last stream ended. The settle period lasts at
//  most settle_ns. Returns 0 or -1 with a reason.
int hostwatch_end (hostwatch_t *self, int64_t settle_ns, char *err, size_t errlen);

//  During the settle period: takes a snapshot if the next one is due and
//  returns true once the period is over (dirty data back near its start
//  level, or the bound passed), with the figures in host.
bool hostwatch_settled (hostwatch_t *self, msg_host_t *host);

//  When hostwatch_settled next wants to be called (CLOCK_MONOTONIC ns), or
//  0 when no settle period is under way.
int64_t hostwatch_next_ns (hostwatch_t *self);

//  The host's cumulative counters now, for a monitor job's MONITOR
//  message (test_id, job_id left to the caller; t_ns set). Returns 0, or
//  -1 with a reason in err.
int hostwatch_sample (hostwatch_t *self, msg_monitor_t *sample, char *err, size_t errlen);

#endif
