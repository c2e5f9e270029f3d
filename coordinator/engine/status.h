/*  coordinator/engine/status.h: the live status line of a running test.

    The numbers are the plan's tally (status_plan.h): per test and phase,
    percent done and ETA, the last interval's rate (MB/s for streams,
    requests/s for jobs of requests, both where both mean something),
    ramp shown as ramp, and the hosts. A handful of hosts are each named
    with their last interval's MB/s; a fleet is counted instead (running,
    slow, lost, done) with the names of the worst few.

    On a terminal, one line rewritten in place:

        w #1  ramp  12%  eta 8.8 s  1.2 s  149 MB/s  hosts 4: 4 running, ...

    With --progress lines, one line of key=value fields per interval, in
    this order, "-" for what is unknown or means nothing for the test:

        status test=w iteration=1 phase=- state=ramp|run|done elapsed_s=1.2
          pct=12.0 eta_s=8.8 mbps=149.2 iops=- hosts=4 running=4 slow=0
          lost=0 done=0 worst=a3
*/
#ifndef IOFLEET_STATUS_H
#define IOFLEET_STATUS_H

#include "console.h"
#include "status_plan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//  Up to this many hosts, each has its place on the line.
#define STATUS_HOSTS_LISTED 8

//  Room the line takes at most.
#define STATUS_LINE_MAX     1024

//  Write the status of the plan's last tally into line (linelen bytes):
//  the terminal's line, or with fields set, the key=value line. hosts
//  are the test's agents, as at the tally.
void status_line (char *line, size_t linelen, const status_plan_t *plan,
                  const status_host_t *hosts, bool fields);

//  The line of the plan's last tally, shown on console.
void status_show (console_t *console, const status_plan_t *plan, const status_host_t *hosts);

#endif
