/*  coordinator/commands/command_run.c: `iofleet run`, a scenario on its
    agents: the flags, the scenario loaded and checked (--check stops
    there and prints the plan), then the run engine; see commands.h.
*/
#include "commands.h"
#include "../engine/run.h"
#include "../numbers/aggregate.h"
#include "../scenario/fio_job.h"
#include "../scenario/plan.h"
#include "../scenario/scenario.h"
#include "../../proto/clock.h"
#include "../../proto/doc.h"
#include "../../proto/keys.h"
#include "../../proto/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  One option as a help row: its name (marked * where it may stand in
//  [global], if mark_global), its help, default and choices.
static void
s_print_option (const opt_def_t *opt, bool mark_global, FILE *out)
{
    char left [64], notes [256], help [1024], text [1280];
    snprintf (left, sizeof (left), "%s%s",
              mark_global? ((opt->flags & OPT_GLOBAL)? "*": " "): "", opt->name);
    doc_option_notes (opt, notes, sizeof (notes));
    //  A job's option (those are marked) says which workloads take it.
    if (mark_global)
        workload_option_help (opt, help, sizeof help);
    else
        snprintf (help, sizeof help, "%s", opt->help? opt->help: "");
    snprintf (text, sizeof (text), "%s%s", help, notes);
    doc_help_row (out, mark_global? 1: 2, left, 19, text);
}

//  What `iofleet run --help` prints after the flags: the scenario's keys
//  and the workloads, from their tables.
static void
s_run_keys_help (FILE *out)
{
    fprintf (out, "[global] run options:\n");
    for (const opt_def_t *opt = scenario_run_options; opt->name; opt++)
        s_print_option (opt, false, out);
    fprintf (out, "\n[agent NAME] options:\n");
    for (const opt_def_t *opt = scenario_agent_options; opt->name; opt++)
        s_print_option (opt, false, out);
    fprintf (out, "\n[group NAME] options (a job whose agent is a group runs on every member):\n");
    for (const opt_def_t *opt = scenario_group_options; opt->name; opt++)
        s_print_option (opt, false, out);
    fprintf (out, "\n[job NAME] options (those marked * may stand in [global] as defaults):\n");
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++)
        if (!(opt->flags & OPT_HEADER))     //  the name comes from the section header
            s_print_option (opt, true, out);

    char common [256];
    workload_common_text (common, sizeof (common));
    char heading [512];
    snprintf (heading, sizeof (heading), "Workloads (every job also takes %s):", common);
    fprintf (out, "\n");
    doc_help_row (out, 0, "", 0, heading);
    const workload_desc_t *desc;
    for (int workload = 0; (desc = workload_desc (workload)); workload++) {
        char text [1024];
        workload_describe (desc, text, sizeof (text));
        doc_help_row (out, 2, desc->name, 19, text);
    }
}

//  Bad keys are bad usage: a keys directory that does not load, or an
//  agent of a job without its public key there, is said before anything
//  is started. Returns 0, or -1 with the reason in err.
static int
s_check_keys (const scenario_t *scenario, char *err, size_t errlen)
{
    keys_t *keys = keys_new (scenario->options.keys_dir, err, errlen);
    if (!keys)
        return -1;
    int rc = 0;
    for (size_t j = 0; j < scenario->job_count && rc == 0; j++)
        if (!keys_peer (keys, scenario->jobs [j].agent, err, errlen))
            rc = -1;
    keys_destroy (&keys);
    return rc;
}

//  The flags of `iofleet run`.
enum {
    RUN_AGENT, RUN_OUTPUT, RUN_ITERATIONS, RUN_JSON, RUN_KEYS, RUN_QUIET, RUN_PROGRESS,
    RUN_UNITS, RUN_ON_LOST, RUN_LABEL, RUN_DB, RUN_NO_DB, RUN_HOSTS, RUN_CHECK,
    RUN_AGENTS, RUN_METRICS, RUN_METRICS_LINGER, RUN_FIO
};

//  Print the errors of a scenario, one a line, each as "iofleet: " and
//  the file's "file:line: key: reason".
static void
s_print_errors (const char *errors)
{
    for (const char *line = errors; *line; ) {
        size_t length = strcspn (line, "\n");
        fprintf (stderr, "iofleet: %.*s\n", (int) length, line);
        line += length + (line [length] == '\n');
    }
}

//  A fio job file as a scenario on the agents of --hosts and --agent,
//  all in [group fleet]; with check only its translation is printed
//  and *status set. Where the scenario's lines came from goes into map,
//  the translation after its first *offset lines. Returns the scenario,
//  or NULL with *status set.
static scenario_t *
s_load_fio (const char *path, bool check, const char *hosts_path, const char **agents,
            size_t agent_count, fio_job_map_t *map, int *offset, char *errors, size_t errlen,
            int *status)
{
    *status = EXIT_STATUS_USAGE;
    char *translation = fio_job_translate (path, "fleet", map, errors, errlen);
    if (!translation) {
        s_print_errors (errors);
        return NULL;
    }
    if (check) {
        fputs (translation, stdout);
        free (translation);
        *status = EXIT_STATUS_OK;
        return NULL;
    }
    //  The names the flags give, gathered in a scenario of their own.
    scenario_t *names = calloc (1, sizeof *names);
    char *text = NULL;
    size_t length = 0;
    FILE *out = names? open_memstream (&text, &length): NULL;
    if (!out) {
        fprintf (stderr, "iofleet run: out of memory\n");
        free (names);
        free (translation);
        return NULL;
    }
    snprintf (names->path, sizeof names->path, "%s", path);
    bool failed = hosts_path && scenario_load_hosts (names, hosts_path, errors, errlen);
    if (failed)
        fprintf (stderr, "iofleet run: --hosts: %s\n", errors);
    for (size_t i = 0; i < agent_count && !failed; i++)
        if ((failed = scenario_set_agent (names, agents [i], errors, errlen) != 0))
            fprintf (stderr, "iofleet run: %s\n", errors);
    if (!failed && names->agent_count == 0) {
        fprintf (stderr, "iofleet run: %s: a fio job file runs on the agents of --hosts FILE "
                 "and --agent NAME=ENDPOINT; none is given\n", path);
        failed = true;
    }
    fprintf (out, "[group fleet]\nagents =");
    for (size_t i = 0; i < names->agent_count; i++)
        fprintf (out, " %s", names->agents [i].name);
    fprintf (out, "\n");
    fflush (out);
    *offset = 0;
    for (size_t i = 0; i < length; i++)
        *offset += text [i] == '\n';
    fputs (translation, out);
    fclose (out);
    free (translation);
    scenario_destroy (&names);
    if (failed || !text) {
        free (text);
        return NULL;
    }
    scenario_t *scenario = scenario_load_text (path, text, errors, errlen);
    if (!scenario) {
        fio_job_map_errors (map, path, *offset, errors, errlen);
        s_print_errors (errors);
    }
    return scenario;
}

static const cli_flag_t s_run_flags [] = {
    [RUN_AGENT] = { "agent", 0, "NAME=ENDPOINT",
        "set the endpoint of agent NAME, or add the agent; repeatable" },
    [RUN_OUTPUT] = { "output", 'o', "DIR",
        "results directory (default results/SCENARIO-UTCTIME)" },
    [RUN_ITERATIONS] = { "iterations", 0, "N",
        "run every test N times (overrides [global] iterations)" },
    [RUN_JSON] = { "json", 0, "FILE", "also write the results JSON to FILE" },
    [RUN_KEYS] = { "keys", 0, "DIR",
        "CURVE keys: ours and the agents' (overrides [global] keys)" },
    [RUN_QUIET] = { "quiet", 'q', NULL, "no live status line" },
    [RUN_PROGRESS] = { "progress", 0, "lines|terminal",
        "status as key=value lines on stderr each interval, or one line rewritten "
        "(the default, on a terminal only); see LIVE STATUS" },
    [RUN_UNITS] = { "units", 0, "MB|MiB",
        "rates in the reports in MB/s (10^6 B/s, the default) or MiB/s" },
    [RUN_ON_LOST] = { "on-lost", 0, "continue|abort",
        "an agent lost mid-test: the others finish, or the run stops (overrides [global] on_lost)" },
    [RUN_LABEL] = { "label", 0, "TEXT",
        "what this run is (a patch, a setting), for compare --by label" },
    [RUN_DB] = { "db", 0, "FILE",
        "the archive each test is recorded in (default iofleet.db beside the results directory)" },
    [RUN_NO_DB] = { "no-db", 0, NULL, "record the run in no archive" },
    [RUN_HOSTS] = { "hosts", 0, "FILE",
        "agents' endpoints, one NAME ENDPOINT per line (# comments), for [group] members "
        "and [agent] sections alike; --agent overrides it" },
    [RUN_CHECK] = { "check", 0, NULL,
        "check the scenario and print what it would run (tests, phases, jobs, agents, "
        "streams, bytes), then exit; no agent is contacted" },
    [RUN_AGENTS] = { "agents", 0, NULL,
        "with --check: also ask every agent about every job it would run (roots, nfs "
        "servers, memory, engine, writable directories, free space) and print every "
        "problem, grouped, with its fix; exit 2 if there is one" },
    [RUN_METRICS] = { "metrics", 0, "HOST:PORT",
        "serve the live figures while the run lasts at http://HOST:PORT/metrics, as "
        "Prometheus text or OpenMetrics (see METRICS)" },
    [RUN_METRICS_LINGER] = { "metrics-linger", 0, "DURATION",
        "keep the last figures up this long after the run (default 0), so that a "
        "scrape interval cannot miss the end" },
    [RUN_FIO] = { "fio", 0, NULL,
        "the file is a fio job file (so is a file named *.fio): its jobs run on every "
        "agent of --hosts and --agent; with --check it is printed as a scenario" },
    { NULL }
};

static int s_run (int argc, char **argv);

//  --metrics-linger's duration, parsed as a scenario's durations are.
static int
s_parse_linger (const char *text, int64_t *linger_ns, char *err, size_t errlen)
{
    static const opt_def_t linger = {
        .name = "metrics-linger", .type = OPT_DURATION, .offset = 0, .max = 3600 * NS_PER_SEC
    };
    return opt_parse (&linger, text, linger_ns, err, errlen);
}

const cli_command_t command_run = {
    .name = "run", .synopsis = "SCENARIO.ini [flags]",
    .summary = "run a scenario on its agents and report",
    .description =
        "Connects to every agent of the scenario, measures their clock offsets, asks every "
        "agent about every job it will run (a preflight: roots, nfs servers, memory, engine, "
        "writable directories, free space; every problem is printed at once, grouped, with "
        "its fix, and nothing starts: exit 2), and runs "
        "its tests one after another: every job of a test is prepared on its agent, then "
        "every stream starts at one absolute instant on every host. Prints the combined "
        "report and writes the results directory (results.json, samples.jsonl, "
        "report.txt, report.html, report.csv, the scenario as run). Every interval each agent sends "
        "its host's latency histogram: the reports draw the fleet's p50, p99 and p99.9 "
        "over time and name, per test, the hosts that sent the requests slower than the "
        "fleet's p99 and p99.9. The scenario's keys are listed in iofleet-scenario(5) "
        "and below.",
    .flags = s_run_flags, .run = s_run, .more_help = s_run_keys_help
};

static int
s_run (int argc, char **argv)
{
    run_options_t options = { 0 };
    const char *agents [256];
    size_t agent_count = 0;
    const char *keys_dir = NULL;
    const char *on_lost = NULL;
    const char *hosts_path = NULL;
    bool check_only = false;
    bool fio = false;
    char err [1024];
    cli_args_t args;
    cli_begin (&args, &command_run, argc, argv);
    int flag;
    while ((flag = cli_next (&args)) != CLI_END) {
        switch (flag) {
            case RUN_AGENT:
                if (agent_count == sizeof agents / sizeof agents [0]) {
                    fprintf (stderr, "iofleet run: too many --agent flags\n");
                    return EXIT_STATUS_USAGE;
                }
                agents [agent_count++] = optarg;
                break;
            case RUN_OUTPUT: options.results_dir = optarg; break;
            case RUN_JSON: options.json_path = optarg; break;
            case RUN_KEYS: keys_dir = optarg; break;
            case RUN_QUIET: options.quiet = true; break;
            case RUN_PROGRESS:
                if (!streq (optarg, "lines") && !streq (optarg, "terminal")) {
                    fprintf (stderr, "iofleet run: --progress %s: expected lines or terminal\n",
                             optarg);
                    return EXIT_STATUS_USAGE;
                }
                options.progress_lines = streq (optarg, "lines");
                break;
            case RUN_ON_LOST:
                on_lost = optarg;
                break;
            case RUN_LABEL:
                if (strlen (optarg) > RUN_LABEL_MAX) {
                    fprintf (stderr, "iofleet run: --label: longer than %d bytes\n", RUN_LABEL_MAX);
                    return EXIT_STATUS_USAGE;
                }
                options.label = optarg;
                break;
            case RUN_DB: options.db_path = optarg; break;
            case RUN_NO_DB: options.no_db = true; break;
            case RUN_HOSTS: hosts_path = optarg; break;
            case RUN_CHECK: check_only = true; break;
            case RUN_AGENTS: options.check_agents = true; break;
            case RUN_METRICS: options.metrics_address = optarg; break;
            case RUN_METRICS_LINGER:
                if (s_parse_linger (optarg, &options.metrics_linger_ns, err, sizeof err)) {
                    fprintf (stderr, "iofleet run: --metrics-linger: %s\n", err);
                    return EXIT_STATUS_USAGE;
                }
                break;
            case RUN_FIO: fio = true; break;
            case RUN_UNITS:
                options.units = aggregate_units_parse (optarg);
                if (options.units < 0) {
                    fprintf (stderr, "iofleet run: --units %s: expected MB or MiB\n", optarg);
                    return EXIT_STATUS_USAGE;
                }
                break;
            case RUN_ITERATIONS: {
                scenario_options_t parsed;
                if (opt_parse (scenario_run_option ("iterations"), optarg, &parsed,
                               err, sizeof err)) {
                    fprintf (stderr, "iofleet run: --iterations: %s\n", err);
                    return EXIT_STATUS_USAGE;
                }
                options.iterations = parsed.iterations;
                break;
            }
            default:
                return cli_status (flag);
        }
    }
    if (optind != argc - 1) {
        fprintf (stderr, "iofleet run: expected one scenario file\n");
        cli_usage (&command_run, stderr);
        return EXIT_STATUS_USAGE;
    }
    //  Room for every error a file reports, each with its file name.
    static char errors [SCENARIO_ERRORS_MAX * (JOB_PATH_MAX + 512)];
    scenario_t *scenario = NULL;
    //  A fio job file's: where the lines of its translation came from.
    fio_job_map_t *map = NULL;
    int map_offset = 0;
    if (fio || fio_job_is_fio (argv [optind])) {
        int fio_status = EXIT_STATUS_USAGE;
        if (!(map = fio_job_map_new ()))
            fprintf (stderr, "iofleet run: out of memory\n");
        else
            scenario = s_load_fio (argv [optind], check_only, hosts_path, agents, agent_count,
                                   map, &map_offset, errors, sizeof errors, &fio_status);
        if (!scenario) {
            fio_job_map_destroy (&map);
            return fio_status;
        }
    }
    else
    if (!(scenario = scenario_load (argv [optind], errors, sizeof errors))) {
        s_print_errors (errors);
        return EXIT_STATUS_USAGE;
    }
    int status = EXIT_STATUS_USAGE;
    if (hosts_path && scenario_load_hosts (scenario, hosts_path, err, sizeof err)) {
        fprintf (stderr, "iofleet run: --hosts: %s\n", err);
        goto done;
    }
    for (size_t i = 0; i < agent_count; i++)
        if (scenario_set_agent (scenario, agents [i], err, sizeof err)) {
            fprintf (stderr, "iofleet run: %s\n", err);
            goto done;
        }
    if (keys_dir)
        snprintf (scenario->options.keys_dir, sizeof scenario->options.keys_dir, "%s", keys_dir);
    if (on_lost) {
        //  The flag overrides [global] on_lost, parsed by the same row.
        if (opt_parse (scenario_run_option ("on_lost"), on_lost, &scenario->options,
                       err, sizeof err)) {
            fprintf (stderr, "iofleet run: --on-lost: %s\n", err);
            goto done;
        }
    }
    if (scenario_check (scenario, errors, sizeof errors)) {
        if (map)
            fio_job_map_errors (map, scenario->path, map_offset, errors, sizeof errors);
        s_print_errors (errors);
        goto done;
    }
    if (scenario->options.keys_dir [0] && s_check_keys (scenario, err, sizeof err)) {
        fprintf (stderr, "iofleet: %s\n", err);
        goto done;
    }
    if (options.check_agents && !check_only) {
        fprintf (stderr, "iofleet run: --agents goes with --check\n");
        goto done;
    }
    if (check_only) {
        if (options.iterations)
            scenario->options.iterations = options.iterations;
        plan_print (scenario, stdout);
        status = options.check_agents? run_scenario (scenario, &options): EXIT_STATUS_OK;
        goto done;
    }
    status = run_scenario (scenario, &options);
done:
    fio_job_map_destroy (&map);
    scenario_destroy (&scenario);
    return status;
}
