/*  agent/manpage.c: the iofleet-agent(8) manual page. The flags and the
    config keys come from the settings table (agent/settings.c); only the
    prose is written here.
*/
#include "settings.h"

#include "../proto/doc.h"

static const char *const s_description =
    "iofleet-agent runs on every client and NFS server of a fleet. It listens on one "
    "ZeroMQ endpoint and serves one coordinator (iofleet run, on the engineer's console) "
    "at a time: it prepares the jobs it is sent, starts every stream at the absolute "
    "instant the coordinator names, streams samples and reports results. It runs no "
    "shell commands, loads no code, and creates files only under its root directories.\n\n"
    "Every setting is a key of the config file and a flag of the same name; a flag "
    "overrides the file, and a list given with flags (--root, --allow-nfs) replaces the "
    "file's list. Logs go to stderr, one key=value line per event, each starting with "
    "agent=NAME; under systemd they land in the journal.";

static const char *const s_config =
    "The config file, " SETTINGS_DEFAULT_CONFIG " unless --config names another, holds "
    "KEY = VALUE lines without sections; ; and # start a comment. A key may be given "
    "once, a list key (root, allow-nfs) on several lines. A mistake is reported as "
    "file:line: key: reason, and the agent does not start (exit status 2). The keys:";

static const char *const s_example =
    "  bind = tcp://*:7654\n"
    "  root = /var/lib/iofleet\n"
    "  root = /data/iofleet\n"
    "  keys = /etc/iofleet/keys\n"
    "  allow-nfs = nfs1";

static const char *const s_service =
    "The iofleet-agent package runs the agent as the system user iofleet under the "
    "unit iofleet-agent.service (Type=notify: the unit is active once the agent "
    "listens). A bad config file stops it from starting, and systemctl status "
    "iofleet-agent shows why. The unit may write only under /var/lib/iofleet; for "
    "another root, add it to ReadWritePaths= in a drop-in:\n\n"
    "  systemctl edit iofleet-agent\n"
    "  [Service]\n"
    "  ReadWritePaths=/data/iofleet\n\n"
    "The unit keeps only CAP_SYS_NICE, so that streams can wait for their start "
    "instant under SCHED_FIFO. A scenario with drop_caches = yes needs the agent to run "
    "as root; /usr/share/doc/iofleet-agent/examples/drop-caches.conf is a drop-in that "
    "does that (copy it to /etc/systemd/system/iofleet-agent.service.d/).";

static const char *const s_exit =
    "0 after SIGINT or SIGTERM, or after --help; 1 if the agent could not start (a root "
    "missing or not writable, keys refused, the bind failing); 2 for bad usage or a bad "
    "config file.";

void
settings_man (FILE *out)
{
    doc_roff_header (out, "iofleet-agent", 8, "iofleet manual");
    doc_roff_section (out, "NAME");
    doc_roff_text (out, "iofleet-agent - run iofleet workloads for a coordinator");
    doc_roff_section (out, "SYNOPSIS");
    doc_roff_text (out, "iofleet-agent [--config FILE] [--root DIR ...] [--bind ENDPOINT] "
                        "[--keys DIR | --insecure] [--name NAME]");
    doc_roff_section (out, "DESCRIPTION");
    doc_roff_text (out, s_description);
    doc_roff_section (out, "OPTIONS");
    settings_man_rows (out, false);
    doc_roff_section (out, "CONFIG FILE");
    doc_roff_text (out, s_config);
    settings_man_rows (out, true);
    doc_roff_text (out, "\n\nFor example:\n\n");
    doc_roff_text (out, s_example);
    doc_roff_section (out, "SERVICE");
    doc_roff_text (out, s_service);
    doc_roff_section (out, "EXIT STATUS");
    doc_roff_text (out, s_exit);
    doc_roff_section (out, "FILES");
    doc_roff_item (out, SETTINGS_DEFAULT_CONFIG, NULL, "the settings");
    doc_roff_item (out, "/var/lib/iofleet", NULL, "the packaged agent's default root");
    doc_roff_section (out, "SEE ALSO");
    doc_roff_text (out, "iofleet(1), iofleet-scenario(5)");
}
