/*  coordinator/scenario/scenario_options.c: the keys of a scenario's [global],
    [agent NAME] and [group NAME] sections, as option tables (the job
    options are proto/jobspec.c's): they drive the parser (scenario.c),
    `iofleet run --help` and iofleet-scenario(5).
*/
#include "scenario.h"
#include "../../proto/clock.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#define RUN_AT(f) offsetof (scenario_options_t, f)

static const char *const s_on_lost_names [] = { "continue", "abort", NULL };

const opt_def_t scenario_run_options [] = {
    { .name = "iterations", .type = OPT_COUNT, .offset = RUN_AT (iterations),
      .min = 1, .max = 1000, .default_text = "1",
      .flags = OPT_GLOBAL,
      .help = "runs of every test; the first is reported apart from the rest" },
    { .name = "lead", .type = OPT_DURATION, .offset = RUN_AT (lead_ns),
      .min = NS_PER_MSEC, .max = 60 * NS_PER_SEC, .default_text = "100ms",
      .flags = OPT_GLOBAL,
      .help = "least time between sending START and the start instant" },
    { .name = "lease", .type = OPT_DURATION, .offset = RUN_AT (lease_ns),
      .min = NS_PER_SEC, .max = 3600 * NS_PER_SEC, .default_text = "5s",
      .flags = OPT_GLOBAL,
      .help = "silence after which agent and coordinator give each other up" },
    { .name = "connect_timeout", .type = OPT_DURATION, .offset = RUN_AT (connect_timeout_ns),
      .min = 100 * NS_PER_MSEC, .max = 300 * NS_PER_SEC, .default_text = "5s",
      .flags = OPT_GLOBAL,
      .help = "how long the hello with each agent may take" },
    { .name = "clock_pings", .type = OPT_COUNT, .offset = RUN_AT (clock_pings),
      .min = 1, .max = 1000, .default_text = "9",
      .flags = OPT_GLOBAL,
      .help = "pings per clock measurement; the one with the smallest round trip is kept" },
    { .name = "clock_refresh", .type = OPT_DURATION, .offset = RUN_AT (clock_refresh_ns),
      .min = 0, .max = 3600 * NS_PER_SEC, .default_text = "10s",
      .flags = OPT_GLOBAL,
      .help = "a test or phase starts on clock offsets measured at most this long ago; "
              "older ones are measured again just before it (0: before every one)" },
    { .name = "keys", .type = OPT_STRING, .offset = RUN_AT (keys_dir),
      .capacity = sizeof (((scenario_options_t *) 0)->keys_dir),
      .flags = OPT_GLOBAL,
      .help = "directory of CURVE keys: ours and the agents' (iofleet keygen); --keys overrides" },
    { .name = "on_lost", .type = OPT_ENUM, .offset = RUN_AT (on_lost),
      .choices = s_on_lost_names, .default_text = "continue", .flags = OPT_GLOBAL,
      .help = "an agent lost mid-test: continue (the others finish) or abort (stop the run); --on-lost overrides" },
    { .name = NULL }
};

#define AGENT_AT(f) offsetof (scenario_agent_t, f)

const opt_def_t scenario_agent_options [] = {
    { .name = "endpoint", .type = OPT_STRING, .offset = AGENT_AT (endpoint),
      .capacity = sizeof (((scenario_agent_t *) 0)->endpoint),
      .help = "where the agent listens: tcp://HOST:PORT or ipc://PATH "
              "(--agent NAME=ENDPOINT sets or overrides it)" },
    { .name = NULL }
};

#define GROUP_AT(f) offsetof (scenario_group_t, f)

const opt_def_t scenario_group_options [] = {
    { .name = "agents", .type = OPT_STRING, .offset = GROUP_AT (agents),
      .capacity = sizeof (((scenario_group_t *) 0)->agents),
      .help = "the members, by commas or blanks: names, and ranges such as c[01-64] or "
              "r[1-3,7] (a range keeps the width of its first number: c01 ... c64)" },
    { .name = "endpoint", .type = OPT_STRING, .offset = GROUP_AT (endpoint),
      .capacity = sizeof (((scenario_group_t *) 0)->endpoint),
      .help = "where each member listens, as a pattern: {name} is the member's name, {n} "
              "its number as its range writes it, {n+K} that number plus K: "
              "tcp://{name}.lab:7654, tcp://127.0.0.1:{n+20000} (a member's [agent NAME] "
              "section, --hosts and --agent override it)" },
    { .name = NULL }
};

//  The row of a run option by name.
const opt_def_t *
scenario_run_option (const char *name)
{
    for (const opt_def_t *opt = scenario_run_options; opt->name; opt++)
        if (strcmp (opt->name, name) == 0)
            return opt;
    assert (false);
    return NULL;
}
