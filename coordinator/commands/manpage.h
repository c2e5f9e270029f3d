/*  coordinator/commands/manpage.h: the manual pages of the console, iofleet(1)
    and iofleet-scenario(5), written from the command tables
    (coordinator/commands/cli.h) and the option tables (proto/jobspec.c, the run
    and agent options of coordinator/scenario/scenario.c). `make` builds them into
    build/man/ with `iofleet --man PAGE`.
*/
#ifndef IOFLEET_MANPAGE_H
#define IOFLEET_MANPAGE_H

#include "cli.h"

#include <stdio.h>

//  Write page "iofleet.1" or "iofleet-scenario.5" as roff to out. Returns
//  0, or -1 (with a message on stderr) for an unknown page.
int manpage_write (const char *page, const cli_command_t *const *commands, FILE *out);

#endif
