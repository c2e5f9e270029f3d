/*  agent/main.c: iofleet-agent, the daemon that runs workloads for a
    coordinator. Parses flags, builds the agent, runs it, destroys it.

    Exit status: 0 after SIGINT/SIGTERM (or --help); 1 if the agent could
    not start (a root missing, the bind failing), naming what; 2 for bad
    usage.
*/
#include "agent.h"

#include "../proto/jobspec.h"
#include "../proto/msg.h"
#include "../proto/version.h"

#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_PROGRAM       "iofleet-agent"
#define S_DEFAULT_BIND  "tcp://*:7654"

//  --max-memory is a size read by the job options' rules (512M, 4G).
static const opt_def_t s_max_memory_opt = {
    .name = "max-memory", .type = OPT_SIZE, .min = 1 << 20,
    .offset = offsetof (agent_config_t, max_memory_bytes)
};

//  Print how to call the program.
static void
s_usage (FILE *out)
{
    fprintf (out,
        "usage: " S_PROGRAM " --root DIR [--root DIR ...] [--bind ENDPOINT] [--name NAME]\n"
        "                     [--keys DIR | --insecure] [--max-memory SIZE] [--verbose]\n"
        "\n"
        "Runs iofleet workloads for one coordinator at a time.\n"
        "\n"
        "  --bind ENDPOINT  ZeroMQ endpoint to listen on (default " S_DEFAULT_BIND ");\n"
        "                   tcp://127.0.0.1:* picks a free port, logged as event=bound\n"
        "  --name NAME      name reported to coordinators (default: the host name)\n"
        "  --root DIR       directory the agent may create files under; repeat for more.\n"
        "  --allow-nfs HOST read nfs:// sources from this server (a name or address as in\n"
        "                   the URLs; '*' for any); repeat for more. Without it, none.\n"
        "                   Relative job paths go under the first root\n"
        "  --keys DIR       encrypt and authenticate (CURVE): DIR holds this agent's key\n"
        "                   pair and the NAME.key of every coordinator it accepts\n"
        "                   (`iofleet keygen DIR NAME` makes a pair)\n"
        "  --insecure       allow a non-loopback --bind: traffic is not encrypted and\n"
        "                   coordinators are not authenticated\n"
        "  --max-memory SIZE\n"
        "                   buffers one test may hold on this agent (streams x bs of\n"
        "                   all its jobs), e.g. 512M or 4G; by default MemTotal / 4\n"
        "  --verbose        also log pings and samples\n"
        "  --version        print the version and exit\n"
        "  --help           print this help and exit\n"
        "\n"
        "Logs go to stderr, one key=value line per event.\n");
}

//  True if name is usable as an agent name: it appears unquoted in every
//  log line and in reports, so letters, digits, '.', '_' and '-' only.
static bool
s_name_is_valid (const char *name)
{
    size_t length = strlen (name);
    if (length == 0 || length > JOB_NAME_MAX)
        return false;
    return strspn (name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789._-") == length;
}

//  Report a usage error and return the exit status for it.
static int
s_bad_usage (const char *format, ...)
    __attribute__ ((format (printf, 1, 2)));

static int
s_bad_usage (const char *format, ...)
{
    char text [1024];
    va_list args;
    va_start (args, format);
    vsnprintf (text, sizeof (text), format, args);
    va_end (args);
    fprintf (stderr, S_PROGRAM ": %s\n" S_PROGRAM ": try --help\n", text);
    return 2;
}

//  Parse flags, build the agent, run it, destroy it.
int
main (int argc, char *argv [])
{
    static const struct option options [] = {
        { "bind",     required_argument, NULL, 'b' },
        { "name",     required_argument, NULL, 'n' },
        { "root",     required_argument, NULL, 'r' },
        { "allow-nfs", required_argument, NULL, 'N' },
        { "insecure", no_argument,       NULL, 'i' },
        { "keys",     required_argument, NULL, 'k' },
        { "max-memory", required_argument, NULL, 'm' },
        { "verbose",  no_argument,       NULL, 'v' },
        { "version",  no_argument,       NULL, 'V' },
        { "help",     no_argument,       NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    agent_config_t config = { .bind_endpoint = S_DEFAULT_BIND };
    const char **roots = calloc ((size_t) argc, sizeof (char *));
    const char **nfs_hosts = calloc ((size_t) argc, sizeof (char *));
    if (!roots || !nfs_hosts) {
        fprintf (stderr, S_PROGRAM ": out of memory\n");
        return 1;
    }
    int status = 0;
    int option;
    while ((option = getopt_long (argc, argv, "", options, NULL)) != -1) {
        switch (option) {
            case 'b': config.bind_endpoint = optarg; break;
            case 'n': config.name = optarg; break;
            case 'r': roots [config.root_count++] = optarg; break;
            case 'N': nfs_hosts [config.nfs_host_count++] = optarg; break;
            case 'i': config.insecure = true; break;
            case 'k': config.keys_dir = optarg; break;
            case 'v': config.verbose = true; break;
            case 'm': {
                char reason [256];
                if (opt_parse (&s_max_memory_opt, optarg, &config, reason, sizeof (reason)) == -1) {
                    status = s_bad_usage ("--max-memory: %s", reason);
                    goto done;
                }
                break;
            }
            case 'V':
                printf (S_PROGRAM " %s (protocol %d)\n", IOFLEET_VERSION, IOFLEET_PROTOCOL_VERSION);
                goto done;
            case 'h':
                s_usage (stdout);
                goto done;
            default:            //  getopt_long said what was wrong
                fprintf (stderr, S_PROGRAM ": try --help\n");
                status = 2;
                goto done;
        }
    }
    config.roots = roots;
    config.nfs_hosts = nfs_hosts;
    if (optind < argc)
        status = s_bad_usage ("unexpected argument '%s'", argv [optind]);
    else
    if (config.root_count == 0)
        status = s_bad_usage ("at least one --root DIR is needed");
    else
    if (config.name && !s_name_is_valid (config.name))
        status = s_bad_usage ("--name '%s': use 1 to 63 letters, digits, '.', '_' or '-'",
                              config.name);
    else
    if (config.bind_endpoint [0] == '\0')
        status = s_bad_usage ("--bind needs an endpoint");
    else
    if (config.keys_dir && config.insecure)
        status = s_bad_usage ("--keys and --insecure exclude each other");
    else
    if (!config.keys_dir && !agent_endpoint_is_loopback (config.bind_endpoint)
    &&  !config.insecure)
        status = s_bad_usage ("--bind %s is not a loopback address and this agent runs "
                              "without encryption; give --keys DIR, or add --insecure to serve it anyway",
                              config.bind_endpoint);
    if (status != 0)
        goto done;

    char err [1024];
    agent_t *agent = agent_new (&config, err, sizeof (err));
    if (!agent) {
        fprintf (stderr, S_PROGRAM ": %s\n", err);
        status = 1;
        goto done;
    }
    status = agent_run (agent);
    agent_destroy (&agent);

done:
    free (roots);
    free (nfs_hosts);
    return status;
}
