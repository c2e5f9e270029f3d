/*  coordinator/engine/run.h: the run engine: a scenario, start to finish.

    Connects to every agent the scenario names, says hello, then runs each
    test (each iteration) in turn: measure clocks, PREPARE every job, START
    all of them at one absolute instant translated into each agent's own
    clock, collect samples and results, aggregate, and write the results
    directory before the next test begins.
*/
#ifndef IOFLEET_RUN_H
#define IOFLEET_RUN_H

#include "../exit_status.h"
#include "../scenario/scenario.h"

#include <stdbool.h>

typedef struct {
    const char *results_dir;        //  -o DIR; NULL: results/<scenario>-<UTC time>
    const char *json_path;          //  --json FILE: a copy of the results JSON, or NULL
    uint64_t iterations;            //  --iterations N; 0: the scenario's
    bool quiet;                     //  -q: no live status line
    bool progress_lines;            //  --progress=lines: status as plain lines on stderr
    int units;                      //  --units: units_t of the reports' rates
    const char *label;              //  --label: what the run is, or NULL
    const char *db_path;            //  --db FILE; NULL: iofleet.db beside the results
    bool no_db;                     //  --no-db: no archive
    bool check_agents;              //  --check --agents: connect and preflight, run nothing
    const char *metrics_address;    //  --metrics HOST:PORT: live figures over HTTP, or NULL
    int64_t metrics_linger_ns;      //  --metrics-linger: how long they stay up after the run
} run_options_t;

//  Run a checked scenario. Prints the report on stdout, problems on
//  stderr. Returns one of the RUN_EXIT_ statuses.
int run_scenario (const scenario_t *scenario, const run_options_t *options);

#endif
