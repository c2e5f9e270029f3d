/*  coordinator/engine/preflight.h: before the first test, ask every agent
    about every job it will run (PREFLIGHT), and print every problem at
    once, grouped: the same problem on many agents or jobs is one group
    that names them, with the fix ("start the agent with --root
    /data/iofleet"). The agents answer with the admission PREPARE makes
    (agent/admit.h), so a job they accept here is not refused at prepare
    for any reason they could know now; what they find later still fails
    only its test.
*/
#ifndef IOFLEET_PREFLIGHT_CONSOLE_H
#define IOFLEET_PREFLIGHT_CONSOLE_H

#include "../fleet/fleet.h"
#include "../scenario/scenario.h"

#include <stdint.h>
#include <stdio.h>

//  Ask the ready sessions of fleet about every job of scenario, test by
//  test (fill jobs first, as PREPARE goes), waiting up to timeout_ns for
//  the answers; an agent that does not answer, or does not know
//  PREFLIGHT, is not held against the run. Prints the problems grouped
//  on out. Returns the number of jobs refused (0: go ahead), or -1 if
//  interrupted or out of memory.
long preflight_fleet (const scenario_t *scenario, fleet_t *fleet, int64_t timeout_ns, FILE *out);

#endif
