/*  coordinator/scenario/plan.h: what a scenario would run, said before it runs.

    `iofleet run --check` reads and checks a scenario and prints its plan
    without contacting an agent: per test, its phases, how many jobs on
    how many agents, streams and bytes, and its files. One line per test
    whatever the fleet's size, so a scenario of a thousand agents is
    checked at a glance.
*/
#ifndef IOFLEET_PLAN_H
#define IOFLEET_PLAN_H

#include "scenario.h"

#include <stdio.h>

//  Print the plan of a checked scenario to out.
void plan_print (const scenario_t *scenario, FILE *out);

#endif
