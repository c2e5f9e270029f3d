/*  coordinator/engine/status.h: the live status line of a running test.

    One line per tick: the test, elapsed / expected time, MB/s so far in
    all, and the hosts. A handful of hosts are each named with their MB/s;
    a fleet is counted instead (running, slow, lost) with the names of the
    worst few: the lost, then the slow, then the slowest. A host is lost
    when its session is; slow when it sent nothing for more than two
    sample intervals while its streams run. Expected is the test's planned
    bytes at the rate so far, unknown before any progress (and for jobs
    whose size is not known ahead, such as a whole-file copy).

    One pass over the streams and one over the hosts per line, whatever
    their number.
*/
#ifndef IOFLEET_STATUS_H
#define IOFLEET_STATUS_H

#include "console.h"
#include "../results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//  Up to this many hosts, each has its place on the line.
#define STATUS_HOSTS_LISTED 8

//  A fleet's line names this many of its worst hosts.
#define STATUS_WORST_NAMED  3

//  Room the line takes at most.
#define STATUS_LINE_MAX     1024

//  One host of the test as the line sees it.
typedef struct {
    const char *name;               //  its agent's name (borrowed)
    bool lost;                      //  its session is gone
} status_host_t;

//  Write the status of result (the phase under way) at instant now_ns
//  into line (linelen bytes). hosts are the test's agents, and
//  stream_host [s] the place in hosts of the agent of stream s. start_ns
//  is the phase's T0, planned_bytes what its streams are to move (0 when
//  not known ahead). Returns 0, or -1 if memory ran out (the line then
//  says less).
int status_line (char *line, size_t linelen, const test_result_t *result,
                 const status_host_t *hosts, size_t count, const size_t *stream_host,
                 int64_t start_ns, int64_t now_ns, double planned_bytes);

//  The line of now, shown on console.
void status_show (console_t *console, const test_result_t *result,
                  const status_host_t *hosts, size_t count, const size_t *stream_host,
                  int64_t start_ns, double planned_bytes);

#endif
