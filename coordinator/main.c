/*  coordinator/main.c: the `iofleet` command line.

        iofleet run SCENARIO.ini [--agent NAME=ENDPOINT ...] [-o DIR]
                                 [--iterations N] [--json FILE] [-q]
        iofleet ping [--timeout DURATION] ENDPOINT ...
        iofleet keygen DIR [NAME]
        (report and compare: coordinator/commands/command_report.c)

    Every command is a cli_command_t with a table of its flags
    (coordinator/commands/cli.h says how to add a flag or a command); the table
    drives its parsing, its --help and its part of iofleet(1). The list of
    commands is s_commands at the bottom.

    Exit status: 0 everything ran and every agent reported; 1 a test
    failed or an agent was lost or unreachable; 2 bad usage or a bad
    scenario, and then nothing was started; 3 everything ran and the
    results directory is complete, but the archive could not record it.
*/
#include "numbers/aggregate.h"
#include "commands/cli.h"
#include "fleet/fleet.h"
#include "commands/manpage.h"
#include "scenario/plan.h"
#include "engine/run.h"
#include "scenario/scenario.h"
#include "report/report.h"
#include "../proto/clock.h"
#include "../proto/keys.h"
#include "../proto/version.h"
#include "../proto/doc.h"
#include "../proto/workload.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

//  One option as a help row: its name (marked * where it may stand in
//  [global], if mark_global), its help, default and choices.
static void
s_print_option (const opt_def_t *opt, bool mark_global, FILE *out)
{
    char left [64], notes [256], text [1024];
    snprintf (left, sizeof (left), "%s%s",
              mark_global? ((opt->flags & OPT_GLOBAL)? "*": " "): "", opt->name);
    doc_option_notes (opt, notes, sizeof (notes));
    snprintf (text, sizeof (text), "%s%s", opt->help? opt->help: "", notes);
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
    for (int workload = 0; workload < WORKLOAD_COUNT; workload++) {
        const workload_desc_t *desc = workload_desc (workload);
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
    RUN_UNITS, RUN_ON_LOST, RUN_LABEL, RUN_DB, RUN_NO_DB, RUN_HOSTS, RUN_CHECK
};
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
        "status as plain lines on stderr each interval, or one line rewritten "
        "(the default, on a terminal only)" },
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
    { NULL }
};

static int s_cmd_run (int argc, char **argv);

static const cli_command_t s_run = {
    .name = "run", .synopsis = "SCENARIO.ini [flags]",
    .summary = "run a scenario on its agents and report",
    .description =
        "Connects to every agent of the scenario, measures their clock offsets, and runs "
        "its tests one after another: every job of a test is prepared on its agent, then "
        "every stream starts at one absolute instant on every host. Prints the combined "
        "report and writes the results directory (results.json, samples.jsonl, "
        "report.txt, report.html, the scenario as run). The scenario's keys are listed "
        "in iofleet-scenario(5) and below.",
    .flags = s_run_flags, .run = s_cmd_run, .more_help = s_run_keys_help
};

static int
s_cmd_run (int argc, char **argv)
{
    run_options_t options = { 0 };
    const char *agents [256];
    size_t agent_count = 0;
    const char *keys_dir = NULL;
    const char *on_lost = NULL;
    const char *hosts_path = NULL;
    bool check_only = false;
    char err [1024];
    cli_args_t args;
    cli_begin (&args, &s_run, argc, argv);
    int flag;
    while ((flag = cli_next (&args)) != CLI_END) {
        switch (flag) {
            case RUN_AGENT:
                if (agent_count == sizeof agents / sizeof agents [0]) {
                    fprintf (stderr, "iofleet run: too many --agent flags\n");
                    return RUN_EXIT_USAGE;
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
                    return RUN_EXIT_USAGE;
                }
                options.progress_lines = streq (optarg, "lines");
                break;
            case RUN_ON_LOST:
                on_lost = optarg;
                break;
            case RUN_LABEL:
                if (strlen (optarg) > RUN_LABEL_MAX) {
                    fprintf (stderr, "iofleet run: --label: longer than %d bytes\n", RUN_LABEL_MAX);
                    return RUN_EXIT_USAGE;
                }
                options.label = optarg;
                break;
            case RUN_DB: options.db_path = optarg; break;
            case RUN_NO_DB: options.no_db = true; break;
            case RUN_HOSTS: hosts_path = optarg; break;
            case RUN_CHECK: check_only = true; break;
            case RUN_UNITS:
                options.units = aggregate_units_parse (optarg);
                if (options.units < 0) {
                    fprintf (stderr, "iofleet run: --units %s: expected MB or MiB\n", optarg);
                    return RUN_EXIT_USAGE;
                }
                break;
            case RUN_ITERATIONS: {
                scenario_options_t parsed;
                if (opt_parse (scenario_run_option ("iterations"), optarg, &parsed,
                               err, sizeof err)) {
                    fprintf (stderr, "iofleet run: --iterations: %s\n", err);
                    return RUN_EXIT_USAGE;
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
        cli_usage (&s_run, stderr);
        return RUN_EXIT_USAGE;
    }
    scenario_t *scenario = scenario_load (argv [optind], err, sizeof err);
    if (!scenario) {
        fprintf (stderr, "iofleet: %s\n", err);
        return RUN_EXIT_USAGE;
    }
    int status = RUN_EXIT_USAGE;
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
    if (scenario_check (scenario, err, sizeof err)) {
        fprintf (stderr, "iofleet: %s\n", err);
        goto done;
    }
    if (scenario->options.keys_dir [0] && s_check_keys (scenario, err, sizeof err)) {
        fprintf (stderr, "iofleet: %s\n", err);
        goto done;
    }
    if (check_only) {
        if (options.iterations)
            scenario->options.iterations = options.iterations;
        plan_print (scenario, stdout);
        status = RUN_EXIT_OK;
        goto done;
    }
    status = run_scenario (scenario, &options);
done:
    scenario_destroy (&scenario);
    return status;
}

//  The flags of `iofleet ping`.
enum { PING_TIMEOUT, PING_KEYS };
static const cli_flag_t s_ping_flags [] = {
    [PING_TIMEOUT] = { "timeout", 0, "DURATION",
        "how long to wait for each agent: 500ms, 2s (default 2s)" },
    [PING_KEYS] = { "keys", 0, "DIR", "CURVE keys: ours and the agents'" },
    { NULL }
};

static int s_cmd_ping (int argc, char **argv);

static const cli_command_t s_ping = {
    .name = "ping", .synopsis = "[NAME=]ENDPOINT ...",
    .summary = "ask agents who they are, their clock offset and round trip",
    .description =
        "Asks each agent for its name, version, host, kernel and CPUs, measures its clock "
        "offset and round trip, and says which coordinator it serves, if any. It starts no "
        "session, so it works on a busy agent. NAME=ENDPOINT names the agent, so that its "
        "key can be found in --keys DIR. Exits 1 if an agent does not answer.",
    .flags = s_ping_flags, .run = s_cmd_ping
};

static int
s_cmd_ping (int argc, char **argv)
{
    int64_t timeout_ns = 2 * NS_PER_SEC;
    const char *keys_dir = NULL;
    char err [512];
    cli_args_t args;
    cli_begin (&args, &s_ping, argc, argv);
    int flag;
    while ((flag = cli_next (&args)) != CLI_END) {
        if (flag == PING_KEYS)
            keys_dir = optarg;
        else
        if (flag == PING_TIMEOUT) {
            //  Borrow the duration parser of the run options.
            scenario_options_t parsed;
            if (opt_parse (scenario_run_option ("connect_timeout"), optarg, &parsed,
                           err, sizeof err)) {
                fprintf (stderr, "iofleet ping: --timeout: %s\n", err);
                return RUN_EXIT_USAGE;
            }
            timeout_ns = parsed.connect_timeout_ns;
        }
        else
            return cli_status (flag);
    }
    if (optind >= argc) {
        fprintf (stderr, "iofleet ping: name at least one ENDPOINT (tcp://HOST:PORT)\n");
        return RUN_EXIT_USAGE;
    }
    fleet_t *fleet = fleet_new ();
    int status = RUN_EXIT_OK;
    if (keys_dir && fleet_set_keys (fleet, keys_dir, err, sizeof err)) {
        fprintf (stderr, "iofleet ping: %s\n", err);
        fleet_destroy (&fleet);
        return RUN_EXIT_USAGE;
    }
    for (int i = optind; i < argc; i++) {
        //  NAME=ENDPOINT names the agent, so that its key can be found.
        char name [JOB_NAME_MAX + 1];
        const char *endpoint = argv [i];
        const char *equals = strchr (argv [i], '=');
        const char *scheme = strstr (argv [i], "://");
        if (equals && (!scheme || equals < scheme)
        &&  (size_t) (equals - argv [i]) < sizeof name) {
            snprintf (name, sizeof name, "%.*s", (int) (equals - argv [i]), argv [i]);
            endpoint = equals + 1;
        }
        else
            snprintf (name, sizeof name, "%s", argv [i]);
        if (!fleet_add (fleet, name, endpoint, err, sizeof err)) {
            fprintf (stderr, "iofleet ping: %s\n", err);
            fleet_destroy (&fleet);
            return RUN_EXIT_USAGE;
        }
    }
    //  A probe: the agents answer who they are without starting a session,
    //  so ping works on an agent that serves another coordinator.
    fleet_set_lease (fleet, "iofleet ping", 0, timeout_ns);
    fleet_hello (fleet, NULL, 0, true, timeout_ns, NULL, NULL);
    fleet_sync_clocks (fleet, NULL, 0, 9, 0, timeout_ns, NULL, NULL);

    printf ("%-28s %-12s %-8s %-16s %-20s %-5s %-13s %-10s %s\n", "endpoint", "name",
            "version", "host", "kernel", "cpus", "clock offset", "rtt", "serving");
    for (size_t i = 0; i < fleet_size (fleet); i++) {
        session_t *session = fleet_session (fleet, i);
        if (session_state (session) != SESSION_READY) {
            printf ("%-28s unreachable: %s\n", session_endpoint (session), session_reason (session));
            status = RUN_EXIT_FAILED;
            continue;
        }
        //  A ready session keeps the coordinator name it serves as reason.
        agent_info_t *info = session_info (session);
        const char *serving = session_reason (session);
        printf ("%-28s %-12s %-8s %-16s %-20s %-5u %+10.3f ms %7.3f ms %s\n",
                session_endpoint (session), session_reported_name (session),
                info->version, info->hostname, info->kernel, info->cpus,
                (double) info->clock_offset_ns / NS_PER_MSEC,
                (double) info->clock_rtt_ns / NS_PER_MSEC,
                serving [0]? serving: "idle");
    }
    fleet_destroy (&fleet);
    return status;
}

static int s_cmd_keygen (int argc, char **argv);

static const cli_command_t s_keygen = {
    .name = "keygen", .synopsis = "DIR [NAME]",
    .summary = "make a CURVE key pair for an agent or a console",
    .description =
        "Writes DIR/NAME.key (the public key: give it to the peers) and "
        "DIR/NAME.key_secret (mode 0600: keep it), creating DIR. NAME defaults to the "
        "host name. An agent's keys directory holds its own pair and the NAME.key of "
        "every console it accepts; a console's holds its pair and every agent's NAME.key.",
    .run = s_cmd_keygen
};

//  `iofleet keygen DIR [NAME]`: a CURVE key pair, NAME defaulting to
//  the host name (proto/keys.h).
static int
s_cmd_keygen (int argc, char **argv)
{
    cli_args_t args;
    cli_begin (&args, &s_keygen, argc, argv);
    int flag = cli_next (&args);
    if (flag != CLI_END)
        return cli_status (flag);
    argc -= optind - 1;
    argv += optind - 1;
    if (argc < 2 || argc > 3) {
        cli_usage (&s_keygen, stderr);
        return RUN_EXIT_USAGE;
    }
    char host [256] = "iofleet";
    if (argc < 3 && gethostname (host, sizeof host - 1) == -1)
        snprintf (host, sizeof host, "iofleet");
    const char *name = argc == 3? argv [2]: host;
    char err [1024];
    if (keys_generate (argv [1], name, err, sizeof err)) {
        fprintf (stderr, "iofleet: %s\n", err);
        return RUN_EXIT_USAGE;
    }
    printf ("%s/%s" KEYS_PUBLIC_SUFFIX "\n%s/%s" KEYS_SECRET_SUFFIX "\n",
            argv [1], name, argv [1], name);
    return RUN_EXIT_OK;
}

//  Every command, in the order `iofleet --help` lists them.
static const cli_command_t *const s_commands [] = {
    &s_run, &s_ping, &s_keygen, &report_report_command, &report_compare_command,
    &report_db_command, &report_history_command, NULL
};

//  Find the command, run it.
int
main (int argc, char **argv)
{
    if (argc < 2) {
        cli_help_all (s_commands, stderr);
        return RUN_EXIT_USAGE;
    }
    const char *command = argv [1];
    if (streq (command, "--version")) {
        printf ("iofleet %s (protocol %d)\n", IOFLEET_VERSION, IOFLEET_PROTOCOL_VERSION);
        return RUN_EXIT_OK;
    }
    if (streq (command, "--help") || streq (command, "-h")) {
        cli_help_all (s_commands, stdout);
        return RUN_EXIT_OK;
    }
    //  For the build: the manual pages and the shell completion's words,
    //  written from the tables above.
    if (streq (command, "--man") && argc == 3)
        return manpage_write (argv [2], s_commands, stdout)? RUN_EXIT_USAGE: RUN_EXIT_OK;
    if (streq (command, "--completion")) {
        cli_completion (s_commands, stdout);
        return RUN_EXIT_OK;
    }
    //  Each command parses its own flags: shift the command away.
    for (size_t i = 0; s_commands [i]; i++)
        if (streq (command, s_commands [i]->name))
            return s_commands [i]->run (argc - 1, argv + 1);
    fprintf (stderr, "iofleet: unknown command '%s'\n", command);
    cli_help_all (s_commands, stderr);
    return RUN_EXIT_USAGE;
}
