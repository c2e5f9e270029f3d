/*  coordinator/main.c: the `iofleet` command line: find the command,
    run it, exit with its status.

    Every command is a cli_command_t in a file of its own
    (commands/command_NAME.c, listed in commands/commands.h) with a table
    of its flags that drives its parsing, its --help and its part of
    iofleet(1); commands/cli.h says how to add a flag or a command. The
    list of commands is s_commands below; what a command may exit with
    is exit_status.h.
*/
#include "commands/commands.h"
#include "commands/manpage.h"
#include "../proto/version.h"

#include <stdio.h>
#include <string.h>

//  Every command, in the order `iofleet --help` lists them.
static const cli_command_t *const s_commands [] = {
    &command_run, &command_ping, &command_keygen, &command_report, &command_compare,
    &command_db, &command_history, NULL
};

//  Find the command, run it.
int
main (int argc, char **argv)
{
    if (argc < 2) {
        cli_help_all (s_commands, stderr);
        return EXIT_STATUS_USAGE;
    }
    const char *command = argv [1];
    if (strcmp (command, "--version") == 0) {
        printf ("iofleet %s (protocol %d)\n", IOFLEET_VERSION, IOFLEET_PROTOCOL_VERSION);
        return EXIT_STATUS_OK;
    }
    if (strcmp (command, "--help") == 0 || strcmp (command, "-h") == 0) {
        cli_help_all (s_commands, stdout);
        return EXIT_STATUS_OK;
    }
    //  For the build: the manual pages and the shell completion's words,
    //  written from the tables above.
    if (strcmp (command, "--man") == 0 && argc == 3)
        return manpage_write (argv [2], s_commands, stdout)? EXIT_STATUS_USAGE: EXIT_STATUS_OK;
    if (strcmp (command, "--completion") == 0) {
        cli_completion (s_commands, stdout);
        return EXIT_STATUS_OK;
    }
    //  Each command parses its own flags: shift the command away.
    for (size_t i = 0; s_commands [i]; i++)
        if (strcmp (command, s_commands [i]->name) == 0)
            return s_commands [i]->run (argc - 1, argv + 1);
    fprintf (stderr, "iofleet: unknown command '%s'\n", command);
    cli_help_all (s_commands, stderr);
    return EXIT_STATUS_USAGE;
}
