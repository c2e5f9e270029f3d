/*  agent/manpage.c: the agent's settings table as --help, as the
    iofleet-agent(8) manual page and as the words of the shell completion.
    The flags and the config keys come from the table (agent/settings.c);
    only the prose is written here.
*/
#include "settings.h"

#include "../proto/doc.h"

#include <string.h>

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
    doc_roff_text (out, "iofleet(1), iofleet-scenario(5), iofleet(7)");
}

//  The flag of a row as --help and the manual write it: "--bind ENDPOINT",
//  "--insecure[=no]".
static void
s_flag_text (const settings_row_t *row, char *buf, size_t buflen)
{
    if (row->arg)
        snprintf (buf, buflen, "--%s %s", row->opt.name, row->arg);
    else
    if (row->opt.type == OPT_BOOL && (row->flags & SETTING_FILE))
        snprintf (buf, buflen, "--%s[=no]", row->opt.name);
    else
        snprintf (buf, buflen, "--%s", row->opt.name);
}

void
settings_help (FILE *out)
{
    fprintf (out, "usage: iofleet-agent [--config FILE] [--root DIR ...] [--bind ENDPOINT] "
             "[--keys DIR | --insecure] [...]\n\n"
             "Runs iofleet workloads for one coordinator at a time. Every setting is a key of\n"
             "the config file (" SETTINGS_DEFAULT_CONFIG ", or --config FILE) and a flag; a flag\n"
             "overrides the file. Logs go to stderr, one key=value line per event.\n\n");
    for (const settings_row_t *row = settings_rows; row->opt.name; row++) {
        if (row->flags & SETTING_HIDDEN)
            continue;
        char flag [96], notes [128], text [1024];
        s_flag_text (row, flag, sizeof (flag));
        doc_option_notes (&row->opt, notes, sizeof (notes));
        snprintf (text, sizeof (text), "%s%s", row->opt.help, notes);
        doc_help_row (out, 2, flag, 20, text);
    }
}

void
settings_man_rows (FILE *out, bool with_keys)
{
    for (const settings_row_t *row = settings_rows; row->opt.name; row++) {
        if ((row->flags & SETTING_HIDDEN) || (with_keys && !(row->flags & SETTING_FILE)))
            continue;
        char flag [96], notes [128], body [1024];
        doc_option_notes (&row->opt, notes, sizeof (notes));
        if (with_keys) {
            snprintf (body, sizeof (body), "%s%s. Value: %s.%s", row->opt.help, notes,
                      doc_option_unit (&row->opt),
                      (row->flags & SETTING_LIST)? " May be given on several lines.": "");
            snprintf (flag, sizeof (flag), "%s =", row->opt.name);
            doc_roff_item (out, flag, row->arg? row->arg: "yes|no", body);
        }
        else {
            snprintf (body, sizeof (body), "%s%s.%s", row->opt.help, notes,
                      (row->flags & SETTING_FILE)? "": " Not a key of the config file.");
            snprintf (flag, sizeof (flag), "--%s", row->opt.name);
            const char *arg = row->arg? row->arg
                            : (row->flags & SETTING_FILE)? "[=no]": NULL;
            doc_roff_item (out, flag, arg, body);
        }
    }
}

void
settings_completion (FILE *out)
{
    fprintf (out, "# Generated from the settings table of iofleet-agent.\n_iofleet_agent_flags='");
    for (const settings_row_t *row = settings_rows; row->opt.name; row++)
        if (!(row->flags & SETTING_HIDDEN))
            fprintf (out, "%s--%s %s", row == settings_rows? "": "\n", row->opt.name,
                     row->arg? row->arg: "-");
    fprintf (out, "'\n");
}
