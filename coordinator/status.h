/*  coordinator/status.h: the live status line of a running test.

    One line per tick: the test, elapsed / expected time, MB/s so far per
    agent and in all; an agent lost, or silent for more than two sample
    intervals while its streams run, is flagged. Expected is the test's
    planned bytes at the rate so far, unknown before any progress (and for
    jobs whose size is not known ahead, such as a whole-file copy).
*/
#ifndef IOFLEET_STATUS_H
#define IOFLEET_STATUS_H

#include "console.h"
#include "results.h"
#include "session.h"

#include <stddef.h>
#include <stdint.h>

//  Show the status of result (the phase under way) on console. sessions
//  are the test's agents; one whose generation differs from
//  generation [session_index] is shown lost. start_ns is the phase's T0,
//  planned_bytes what its streams are to move (0 when not known ahead).
void status_show (console_t *console, const test_result_t *result, session_t **sessions,
                  size_t count, const uint32_t *generation, int64_t start_ns,
                  double planned_bytes);

#endif
