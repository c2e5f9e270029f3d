/*  coordinator/main.c: the `iofleet` command line.

        iofleet run SCENARIO.ini [--agent NAME=ENDPOINT ...] [-o DIR]
                                 [--iterations N] [--json FILE] [-q]
        iofleet ping [--timeout DURATION] ENDPOINT ...

    Exit status: 0 everything ran and every agent reported; 1 a test
    failed or an agent was lost or unreachable; 2 bad usage or a bad
    scenario, and then nothing was started; 3 everything ran and the
    results directory is complete, but the archive could not record it.
*/
#include "aggregate.h"
#include "fleet.h"
#include "run.h"
#include "scenario.h"
#include "report/report.h"
#include "../proto/clock.h"
#include "../proto/keys.h"
#include "../proto/version.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void
s_usage (FILE *out)
{
    fprintf (out,
        "usage: iofleet run SCENARIO.ini [--agent NAME=ENDPOINT ...] [-o DIR]\n"
        "                   [--iterations N] [--json FILE] [-q]\n"
        "       iofleet ping [--timeout DURATION] [--keys DIR] [NAME=]ENDPOINT ...\n"
        "       iofleet keygen DIR [NAME]\n"
        "       iofleet report RESULT.json [--format text|json|csv|html]\n"
        "       iofleet compare A.json B.json [C.json ...] [--labels a,b,c]\n"
        "                       [--format text|json|csv|html] [--fail-on BOUND ...]\n"
        "       iofleet compare --db FILE --by kernel|host|label|scenario [--test NAME]\n"
        "       iofleet db import RESULTS.json ... [--db FILE]\n"
        "       iofleet history [--db FILE] [--test NAME] [filters] [--format text|html]\n"
        "       iofleet --version\n"
        "\n"
        "`iofleet run --help` lists the scenario file's keys.\n");
}

//  Print one option table as help lines.
static void
s_print_options (const opt_def_t *options, int need_flags, FILE *out)
{
    for (const opt_def_t *opt = options; opt->name; opt++) {
        if (need_flags && !(opt->flags & need_flags))
            continue;
        fprintf (out, "  %-16s %s", opt->name, opt->help? opt->help: "");
        if (opt->default_text)
            fprintf (out, " (default %s)", opt->default_text);
        fprintf (out, "\n");
    }
}

static void
s_run_help (FILE *out)
{
    fprintf (out,
        "usage: iofleet run SCENARIO.ini [options]\n"
        "\n"
        "  --agent NAME=ENDPOINT  set or add an agent's endpoint (repeatable)\n"
        "  -o, --output DIR       results directory (default results/<scenario>-<UTC time>)\n"
        "  --iterations N         run every test N times (overrides [global] iterations)\n"
        "  --json FILE            also write the results JSON to FILE\n"
        "  --keys DIR             CURVE keys: ours and the agents' (overrides [global] keys)\n"
        "  -q, --quiet            no live status line\n"
        "  --progress=lines       status as plain lines on stderr each interval\n"
        "                         (default terminal: one line rewritten, on a terminal only)\n"
        "  --units MB|MiB         rates in the reports in MB/s (10^6 B/s, the default) or MiB/s\n"
        "  --on-lost continue|abort  an agent lost mid-test: the others finish, or the run stops\n"
        "  --label TEXT           what this run is (a patch, a setting), for compare --by label\n"
        "  --db FILE              the archive each test is recorded in (default iofleet.db\n"
        "                         beside the results directory)\n"
        "  --no-db                record the run in no archive\n"
        "\n"
        "[global] run options:\n");
    s_print_options (scenario_run_options, 0, out);
    fprintf (out, "\n[job NAME] options (those marked * may stand in [global] as defaults):\n");
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++) {
        if (streq (opt->name, "name"))
            continue;               //  comes from the section header
        fprintf (out, " %c%-16s %s", (opt->flags & OPT_GLOBAL)? '*': ' ', opt->name,
                 opt->help? opt->help: "");
        if (opt->default_text)
            fprintf (out, " (default %s)", opt->default_text);
        if (opt->choices) {
            fprintf (out, " [");
            for (const char *const *choice = opt->choices; *choice; choice++)
                fprintf (out, "%s%s", choice == opt->choices? "": "|", *choice);
            fprintf (out, "]");
        }
        fprintf (out, "\n");
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
        if (!keys_peer (keys, scenario->jobs [j].spec.agent, err, errlen))
            rc = -1;
    keys_destroy (&keys);
    return rc;
}

static int
s_cmd_run (int argc, char **argv)
{
    static const struct option long_options [] = {
        { "agent", required_argument, NULL, 'a' },
        { "output", required_argument, NULL, 'o' },
        { "iterations", required_argument, NULL, 'i' },
        { "json", required_argument, NULL, 'j' },
        { "keys", required_argument, NULL, 'k' },
        { "quiet", no_argument, NULL, 'q' },
        { "progress", required_argument, NULL, 'P' },
        { "units", required_argument, NULL, 'u' },
        { "on-lost", required_argument, NULL, 'L' },
        { "label", required_argument, NULL, 'l' },
        { "db", required_argument, NULL, 'd' },
        { "no-db", no_argument, NULL, 'D' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    run_options_t options = { 0 };
    const char *agents [256];
    size_t agent_count = 0;
    const char *keys_dir = NULL;
    const char *on_lost = NULL;
    char err [1024];
    int c;
    while ((c = getopt_long (argc, argv, "o:qh", long_options, NULL)) != -1) {
        switch (c) {
            case 'a':
                if (agent_count == sizeof agents / sizeof agents [0]) {
                    fprintf (stderr, "iofleet run: too many --agent flags\n");
                    return RUN_EXIT_USAGE;
                }
                agents [agent_count++] = optarg;
                break;
            case 'o': options.results_dir = optarg; break;
            case 'j': options.json_path = optarg; break;
            case 'k': keys_dir = optarg; break;
            case 'q': options.quiet = true; break;
            case 'P':
                if (!streq (optarg, "lines") && !streq (optarg, "terminal")) {
                    fprintf (stderr, "iofleet run: --progress %s: expected lines or terminal\n",
                             optarg);
                    return RUN_EXIT_USAGE;
                }
                options.progress_lines = streq (optarg, "lines");
                break;
            case 'L':
                on_lost = optarg;
                break;
            case 'l':
                if (strlen (optarg) > RUN_LABEL_MAX) {
                    fprintf (stderr, "iofleet run: --label: longer than %d bytes\n", RUN_LABEL_MAX);
                    return RUN_EXIT_USAGE;
                }
                options.label = optarg;
                break;
            case 'd': options.db_path = optarg; break;
            case 'D': options.no_db = true; break;
            case 'u':
                options.units = aggregate_units_parse (optarg);
                if (options.units < 0) {
                    fprintf (stderr, "iofleet run: --units %s: expected MB or MiB\n", optarg);
                    return RUN_EXIT_USAGE;
                }
                break;
            case 'i': {
                scenario_options_t parsed;
                if (opt_parse (scenario_run_option ("iterations"), optarg, &parsed,
                               err, sizeof err)) {
                    fprintf (stderr, "iofleet run: --iterations: %s\n", err);
                    return RUN_EXIT_USAGE;
                }
                options.iterations = parsed.iterations;
                break;
            }
            case 'h':
                s_run_help (stdout);
                return RUN_EXIT_OK;
            default:
                s_usage (stderr);
                return RUN_EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf (stderr, "iofleet run: expected one scenario file\n");
        s_usage (stderr);
        return RUN_EXIT_USAGE;
    }
    scenario_t *scenario = scenario_load (argv [optind], err, sizeof err);
    if (!scenario) {
        fprintf (stderr, "iofleet: %s\n", err);
        return RUN_EXIT_USAGE;
    }
    int status = RUN_EXIT_USAGE;
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
    status = run_scenario (scenario, &options);
done:
    scenario_destroy (&scenario);
    return status;
}

static int
s_cmd_ping (int argc, char **argv)
{
    static const struct option long_options [] = {
        { "timeout", required_argument, NULL, 't' },
        { "keys", required_argument, NULL, 'k' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    int64_t timeout_ns = 2 * NS_PER_SEC;
    const char *keys_dir = NULL;
    char err [512];
    int c;
    while ((c = getopt_long (argc, argv, "h", long_options, NULL)) != -1) {
        if (c == 'k')
            keys_dir = optarg;
        else
        if (c == 't') {
            //  Borrow the duration parser of the run options.
            scenario_options_t parsed;
            if (opt_parse (scenario_run_option ("connect_timeout"), optarg, &parsed,
                           err, sizeof err)) {
                fprintf (stderr, "iofleet ping: --timeout: %s\n", err);
                return RUN_EXIT_USAGE;
            }
            timeout_ns = parsed.connect_timeout_ns;
        }
        else {
            s_usage (c == 'h'? stdout: stderr);
            return c == 'h'? RUN_EXIT_OK: RUN_EXIT_USAGE;
        }
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
    fleet_sync_clocks (fleet, 9, timeout_ns, NULL, NULL);

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

//  `iofleet keygen DIR [NAME]`: a CURVE key pair, NAME defaulting to
//  the host name (proto/keys.h).
static int
s_cmd_keygen (int argc, char **argv)
{
    if (argc < 2 || argc > 3 || streq (argv [1], "--help") || streq (argv [1], "-h")) {
        fprintf (argc < 2 || argc > 3? stderr: stdout,
                 "usage: iofleet keygen DIR [NAME]\n"
                 "  writes DIR/NAME.key (public: give it to the peers) and\n"
                 "  DIR/NAME.key_secret (0600: keep it); NAME defaults to the host name\n");
        return argc < 2 || argc > 3? RUN_EXIT_USAGE: RUN_EXIT_OK;
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

int
main (int argc, char **argv)
{
    if (argc < 2) {
        s_usage (stderr);
        return RUN_EXIT_USAGE;
    }
    const char *command = argv [1];
    if (streq (command, "--version")) {
        printf ("iofleet %s (protocol %d)\n", IOFLEET_VERSION, IOFLEET_PROTOCOL_VERSION);
        return RUN_EXIT_OK;
    }
    if (streq (command, "--help") || streq (command, "-h")) {
        s_usage (stdout);
        return RUN_EXIT_OK;
    }
    //  Each command parses its own flags: shift the command away.
    if (streq (command, "run"))
        return s_cmd_run (argc - 1, argv + 1);
    if (streq (command, "ping"))
        return s_cmd_ping (argc - 1, argv + 1);
    if (streq (command, "keygen"))
        return s_cmd_keygen (argc - 1, argv + 1);
    if (streq (command, "report"))
        return report_command_report (argc - 1, argv + 1);
    if (streq (command, "compare"))
        return report_command_compare (argc - 1, argv + 1);
    if (streq (command, "db"))
        return report_command_db (argc - 1, argv + 1);
    if (streq (command, "history"))
        return report_command_history (argc - 1, argv + 1);
    fprintf (stderr, "iofleet: unknown command '%s'\n", command);
    s_usage (stderr);
    return RUN_EXIT_USAGE;
}
