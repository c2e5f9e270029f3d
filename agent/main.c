/*  agent/main.c: iofleet-agent, the daemon that runs workloads for a
    coordinator. Reads its settings (agent/settings.c: the config file and
    the flags), builds the agent, runs it, destroys it.

    Exit status: 0 after SIGINT/SIGTERM (or --help); 1 if the agent could
    not start (a root missing, the keys refused, the bind failing), naming
    what; 2 for bad usage or a bad config file, naming file:line: key, or
    an open-file limit too low to open the agent's sockets.
*/
#include "agent.h"
#include "notify.h"
#include "settings.h"
#include "../proto/fdlimit.h"

#include <malloc.h>
#include <stdio.h>
#include <string.h>

#define S_PROGRAM "iofleet-agent"

//  Open files an agent needs before its first test: libzmq's context and
//  sockets, the roots, the keys; libzmq aborts on a socket it cannot
//  open, so the agent refuses to start below this.
#define S_FD_MIN 64

//  Say why the agent does not start, on stderr (the journal, under
//  systemd) and in the service's status line.
static int
s_refuse (int status, const char *err, bool hint)
{
    if (err [0])
        fprintf (stderr, S_PROGRAM ": %s\n", err);
    if (hint)
        fprintf (stderr, S_PROGRAM ": try --help\n");
    agent_notify ("STATUS=not started: %s", err [0]? err: "bad usage");
    return status;
}

//  Read the settings, build the agent, run it, destroy it.
int
main (int argc, char *argv [])
{
    //  One malloc arena for every thread. glibc gives threads that meet
    //  in malloc arenas of their own, up to eight per core, and keeps the
    //  free memory at the top of each after their threads end (malloc_trim
    //  gives back only the main arena's): an idle agent held 8 MB more
    //  after a test of 256 streams. The streams allocate as they prepare,
    //  not per request; libnfs does, and its NFS streams then share a lock
    //  that cost no throughput measured.
    mallopt (M_ARENA_MAX, 1);

    char err [1024];
    int status = 0;
    settings_t *settings = settings_new ();
    if (!settings) {
        fprintf (stderr, S_PROGRAM ": out of memory\n");
        return 1;
    }
    settings_result_t result = settings_parse (settings, argc, argv, err, sizeof (err));
    if (result == SETTINGS_BAD_USAGE || result == SETTINGS_BAD_CONFIG)
        status = s_refuse (2, err, result == SETTINGS_BAD_USAGE);
    else
    if (result == SETTINGS_RUN && settings_check (settings, err, sizeof (err)))
        status = s_refuse (1, err, false);
    else
    if (result == SETTINGS_RUN
    &&  fdlimit_reserve (S_FD_MIN, 0, "the agent", 0, "- and a test takes 3 more for each of "
                         "its streams", err, sizeof (err)))
        status = s_refuse (2, err, false);
    else
    if (result == SETTINGS_RUN) {
        agent_config_t config;
        settings_agent_config (settings, &config);
        agent_t *agent = agent_new (&config, err, sizeof (err));
        if (agent) {
            agent_notify ("READY=1\nSTATUS=serving %s as %s", agent_endpoint (agent),
                          agent_name (agent));
            status = agent_run (agent);
            agent_notify ("STOPPING=1");
            agent_destroy (&agent);
        }
        else
            status = s_refuse (1, err, false);
    }
    settings_destroy (&settings);
    return status;
}
