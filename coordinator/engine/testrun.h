/*  coordinator/engine/testrun.h: one iteration of one test, as the wire sees it.

        hello               agents lost earlier get another hello
        prepare             PREPARE per job -> READY or ERROR; fills first,
                            then every other job at once
        drop                DROP to agents whose jobs ask for cold caches
                            -> DROPPED or ERROR
        then per phase (one, or the phases of its workload):
        measure clocks      PING/PONG with every agent of the test
        start               START to each agent, carrying one instant T0
                            translated into that agent's clock
        collect             SAMPLE ... RESULT per stream, until every
                            stream has reported or its agent is lost
        stop                STOP: the phase is over everywhere
        host figures        HOST per agent, after its settle period
        record              the phase's result is aggregated and handed
                            to the run, which writes it down

    Every phase starts only once every host finished the one before, so
    each phase's fleet sum is valid on its own and is a row of its own
    (TEST/PHASE). Every timestamp an agent sends is mapped onto the
    coordinator's clock with that agent's offset and stored relative to
    the phase's T0 (results.h).
*/
#ifndef IOFLEET_TESTRUN_H
#define IOFLEET_TESTRUN_H

#include "console.h"
#include "status_plan.h"
#include "../fleet/fleet.h"
#include "../metrics/metrics.h"
#include "../results/results.h"
#include "../scenario/scenario.h"

#include <stdbool.h>
#include <stdint.h>

//  Called when a phase's result is complete (aggregated): the run writes
//  it down before the next phase begins.
typedef void (testrun_recorded_fn) (void *arg, test_result_t *result);

//  Called at each status tally of a running phase: its plan and
//  figures (status_plan_figures), valid until the call returns.
typedef void (testrun_status_fn) (void *arg, const status_plan_t *plan);

//  What one test run needs.
typedef struct {
    const scenario_t *scenario;     //  the scenario (its options, its jobs)
    const scenario_test_t *test;    //  the test to run
    uint32_t iteration;             //  1-based
    uint32_t test_id;               //  its id in the agents' sessions
    fleet_t *fleet;                 //  the sessions
    console_t *console;             //  the live status line
    run_result_t *run;              //  where its results are appended, one per phase
    testrun_recorded_fn *recorded;  //  told of each phase's result
    void *recorded_arg;             //  its argument
    metrics_t *metrics;             //  --metrics: where the live figures go, or NULL
    fleet_lost_fn *idle_lost;       //  the fleet's lost handler between tests, restored after
    void *idle_lost_arg;            //  its argument
    testrun_status_fn *status;      //  told of each status tally, or NULL
    void *status_arg;               //  its argument
} testrun_config_t;

//  Run the test. While it runs, the fleet's losses are the test's: the
//  streams of an agent lost are lost, the others go on. Sets *failed
//  when a stream failed or an agent was lost or absent. Returns 0, or -1
//  if the run must stop (interrupted, out of memory, an agent lost with
//  on_lost = abort).
int testrun_run (const testrun_config_t *config, bool *failed);

#endif
