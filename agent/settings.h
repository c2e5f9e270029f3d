/*  agent/settings.h: the agent's settings, from its config file and its
    command line.

    Every setting is one row of the table in settings.c: its name is both
    the key in the config file (`bind = tcp://0.0.0.0:7654`) and the flag
    (`--bind tcp://0.0.0.0:7654`), its value is parsed by the job option
    parser (proto/jobspec.h: opt_parse, so sizes, durations and yes/no
    read as in scenarios), and the same row prints --help and the
    iofleet-agent(8) manual page. A flag overrides the file; a list
    setting (root, allow-nfs) given on the command line replaces the
    file's list.

    The config file is INI without sections, read by proto/inifile.c like
    a scenario, and its mistakes are reported the same way:
    "agent.conf:3: root: /srv/x: No such file or directory".
*/
#ifndef IOFLEET_AGENT_SETTINGS_H
#define IOFLEET_AGENT_SETTINGS_H

#include "agent.h"

#include "../proto/jobspec.h"

#include <stdio.h>

//  Read when no --config is given; a missing default file is no error.
#define SETTINGS_DEFAULT_CONFIG "/etc/iofleet/agent.conf"

typedef struct _settings_t settings_t;

//  Row flags of the settings table.
#define SETTING_FILE    0x1         //  may be a key of the config file
#define SETTING_LIST    0x2         //  may be given again: a list (OPT_STRING only)
#define SETTING_HIDDEN  0x4         //  not in --help or the manual (the build uses it)

//  One setting: a config key and a flag of the same name.
typedef struct {
    opt_def_t opt;                  //  name, type, offset into settings_t, bounds, default, help
    const char *arg;                //  the value's name in --help (ENDPOINT), NULL for a switch
    int flags;                      //  SETTING_FILE | SETTING_LIST | SETTING_HIDDEN
} settings_row_t;

//  The table (agent/settings.c), NULL-name terminated.
extern const settings_row_t settings_rows [];

//  What settings_parse found on the command line.
typedef enum {
    SETTINGS_RUN = 0,               //  settings are complete: build the agent
    SETTINGS_DONE = 1,              //  --help, --version or --man was printed: exit 0
    SETTINGS_BAD_USAGE = -1,        //  bad flags: exit 2
    SETTINGS_BAD_CONFIG = -2        //  a bad config file: exit 2
} settings_result_t;

//  Settings with every default.
settings_t *settings_new (void);

//  Destroy; safe on NULL, nulls the caller's pointer.
void settings_destroy (settings_t **self_p);

//  Read the command line and the config file it names (or the default
//  one, if it exists), flags over the file, and check what can be checked
//  without touching the system: values, names, the bind address, keys
//  against insecure, at least one root. Prints --help, --version or the
//  manual page itself. Otherwise err holds "file:line: key:
//  reason" or "--flag: reason".
settings_result_t settings_parse (settings_t *self, int argc, char **argv,
                                  char *err, size_t errlen);

//  Check the settings against the system: every root is a directory, the
//  NFS hosts are well formed, the keys directory loads (a secret key
//  readable by others is refused) and trusts a coordinator. Returns 0, or
//  -1 with the setting's place (file:line or --flag) in err.
int settings_check (settings_t *self, char *err, size_t errlen);

//  The agent's configuration; its strings are borrowed from self.
void settings_agent_config (settings_t *self, agent_config_t *config);

//  Print --help (agent/manpage.c, like the next three).
void settings_help (FILE *out);

//  Print the iofleet-agent(8) manual page as roff.
void settings_man (FILE *out);

//  Print the words scripts/completion.bash needs: each flag and its value.
void settings_completion (FILE *out);

//  Print the settings as roff items: the flags (with_keys false) or the
//  config file's keys (true). For the manual page.
void settings_man_rows (FILE *out, bool with_keys);

#endif
