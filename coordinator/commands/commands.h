/*  coordinator/commands/commands.h: the commands of `iofleet`, one file
    each (command_NAME.c), each a cli_command_t whose table of flags
    drives its parsing, its --help and its part of iofleet(1). main.c
    lists them; cli.h says how to add a flag or a command.

    Every command returns an exit_status_t (../exit_status.h).
*/
#ifndef IOFLEET_COMMANDS_H
#define IOFLEET_COMMANDS_H

#include "cli.h"
#include "../exit_status.h"

//  iofleet run SCENARIO.ini [--agent NAME=ENDPOINT ...] [-o DIR] ...
extern const cli_command_t command_run;
//  iofleet ping [NAME=]ENDPOINT ...: who they are, clock offset, round trip
extern const cli_command_t command_ping;
//  iofleet keygen DIR [NAME]: a CURVE key pair
extern const cli_command_t command_keygen;
//  iofleet report RESULT.json [--format F]: a finished run rendered again
extern const cli_command_t command_report;
//  iofleet compare A.json B.json ... [--fail-on B ...]: one table across
//  runs; with --fail-on, the gate's status (a file that cannot be read is
//  then 125: it cannot be judged)
extern const cli_command_t command_compare;
//  iofleet db import FILE... [--db FILE]: runs into the archive
extern const cli_command_t command_db;
//  iofleet history [--db FILE] [filters] [--format text|html]
extern const cli_command_t command_history;

#endif
