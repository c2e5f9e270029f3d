/*  coordinator/commands/command_ping.c: `iofleet ping`, who the agents
    are without a session: name, version, host, kernel, CPUs, clock
    offset and round trip, and whom they serve; see commands.h.
*/
#include "commands.h"
#include "../fleet/fleet.h"
#include "../scenario/scenario.h"
#include "../../proto/clock.h"
#include "../../proto/printable.h"

#include <stdio.h>
#include <string.h>

//  The flags of `iofleet ping`.
enum { PING_TIMEOUT, PING_KEYS };
static const cli_flag_t s_ping_flags [] = {
    [PING_TIMEOUT] = { "timeout", 0, "DURATION",
        "how long to wait for each agent: 500ms, 2s (default 2s)" },
    [PING_KEYS] = { "keys", 0, "DIR", "CURVE keys: ours and the agents'" },
    { NULL }
};

static int s_run (int argc, char **argv);

const cli_command_t command_ping = {
    .name = "ping", .synopsis = "[NAME=]ENDPOINT ...",
    .summary = "ask agents who they are, their clock offset and round trip",
    .description =
        "Asks each agent for its name, version, host, kernel and CPUs, measures its clock "
        "offset and round trip, and says which coordinator it serves, if any. It starts no "
        "session, so it works on a busy agent. NAME=ENDPOINT names the agent, so that its "
        "key can be found in --keys DIR. Exits 1 if an agent does not answer.",
    .flags = s_ping_flags, .run = s_run
};

static int
s_run (int argc, char **argv)
{
    int64_t timeout_ns = 2 * NS_PER_SEC;
    const char *keys_dir = NULL;
    char err [512];
    cli_args_t args;
    cli_begin (&args, &command_ping, argc, argv);
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
                return EXIT_STATUS_USAGE;
            }
            timeout_ns = parsed.connect_timeout_ns;
        }
        else
            return cli_status (flag);
    }
    if (optind >= argc) {
        fprintf (stderr, "iofleet ping: name at least one ENDPOINT (tcp://HOST:PORT)\n");
        return EXIT_STATUS_USAGE;
    }
    if (fleet_reserve ((size_t) (argc - optind), err, sizeof err)) {
        fprintf (stderr, "iofleet ping: %s\n", err);
        return EXIT_STATUS_USAGE;
    }
    fleet_t *fleet = fleet_new ();
    int status = EXIT_STATUS_OK;
    if (keys_dir && fleet_set_keys (fleet, keys_dir, err, sizeof err)) {
        fprintf (stderr, "iofleet ping: %s\n", err);
        fleet_destroy (&fleet);
        return EXIT_STATUS_USAGE;
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
            return EXIT_STATUS_USAGE;
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
            status = EXIT_STATUS_FAILED;
            continue;
        }
        //  A ready session keeps the coordinator name it serves as reason.
        //  Everything the agent says is made printable: a name or a host
        //  may hold any bytes (ESC, CR, NUL), and so may the coordinator
        //  name another process gave it (the session keeps its reason
        //  printable).
        agent_info_t *info = session_info (session);
        const char *serving = session_reason (session);
        char name [MSG_HOST_MAX * PRINTABLE_GROWTH + 1], version [sizeof name];
        char host [sizeof name], kernel [sizeof name];
        printf ("%-28s %-12s %-8s %-16s %-20s %-5u %+10.3f ms %7.3f ms %s\n",
                session_endpoint (session),
                printable (session_reported_name (session), name, sizeof name),
                printable (info->version, version, sizeof version),
                printable (info->hostname, host, sizeof host),
                printable (info->kernel, kernel, sizeof kernel), info->cpus,
                (double) info->clock_offset_ns / NS_PER_MSEC,
                (double) info->clock_rtt_ns / NS_PER_MSEC,
                serving [0]? serving: "idle");
    }
    fleet_destroy (&fleet);
    return status;
}
