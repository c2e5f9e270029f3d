/*  coordinator/commands/cli.h: the commands of `iofleet` and their flags, as tables.

    A command is one cli_command_t: its name, what follows it, a summary,
    a description, and its flags, one cli_flag_t row each (long name,
    short letter, argument name, help). The rows drive the command's
    getopt_long parsing (cli_next), its --help (which every command gets)
    and its part of the iofleet(1) manual page, so they cannot drift.

    To add a flag to a command: add a name to the command's enum of flags
    and a row at that index of its table (designated initializers keep the
    two together), then a case for it where the command reads its flags:

        enum { F_FORMAT, F_UNITS };
        static const cli_flag_t s_flags [] = {
            [F_FORMAT] = { "format", 'f', "text|json|csv|html", "how to write it" },
            [F_UNITS]  = { "units", 0, "MB|MiB", "rates in MB/s or MiB/s" },
            { NULL }
        };
        ...
        cli_args_t args;
        cli_begin (&args, &s_command, argc, argv);
        int flag;
        while ((flag = cli_next (&args)) != CLI_END) {
            switch (flag) {
                case F_FORMAT: ... optarg ...; break;
                case F_UNITS: ...; break;
                default: return cli_status (flag);     //  --help, or bad usage
            }
        }
        ... argv [optind] is the first argument that is not a flag ...

    An argument written "a|b|c" lists its choices (the shell completion
    offers them); FILE, DIR and NAME=ENDPOINT complete as files,
    directories and the scenario's agents.

    To add a command: write its function (argv [0] is the command's name),
    its flags and its cli_command_t, and add it to the list in main.c.
*/
#ifndef IOFLEET_CLI_H
#define IOFLEET_CLI_H

#include <getopt.h>
#include <stdio.h>

#define CLI_FLAGS_MAX 32            //  flags one command may have

//  What cli_next returns besides a row index.
#define CLI_END   (-1)              //  no more flags: argv [optind] is the first argument
#define CLI_HELP  (-2)              //  --help was given and printed: exit 0
#define CLI_BAD   (-3)              //  a bad flag; the problem and the usage were printed: exit 2

//  One flag of a command.
typedef struct {
    const char *name;               //  long name: "output" for --output
    int letter;                     //  short form: 'o' for -o, 0 for none
    const char *arg;                //  the argument's name ("DIR", "a|b"), NULL for none
    const char *help;               //  one sentence for --help and the manual
} cli_flag_t;

//  One command of iofleet.
typedef struct {
    const char *name;               //  "run"
    const char *synopsis;           //  what follows the name: "SCENARIO.ini [options]"
    const char *summary;            //  one line for `iofleet --help`
    const char *description;        //  paragraphs for --help and the manual ("\n\n" apart)
    const cli_flag_t *flags;        //  the rows, NULL-name terminated
    int (*run) (int argc, char **argv);     //  argv [0] is the command's name
    void (*more_help) (FILE *out);  //  printed after the flags by --help, or NULL
} cli_command_t;

//  The state of one command line being read.
typedef struct {
    const cli_command_t *command;           //  whose flags
    int argc;                               //  the command's arguments,
    char **argv;                            //  argv [0] being its name
    struct option longs [CLI_FLAGS_MAX + 2];    //  for getopt_long, with --help
    char shorts [CLI_FLAGS_MAX * 2 + 4];        //  "o:qh"
} cli_args_t;

//  Start reading the flags of command in argv.
void cli_begin (cli_args_t *args, const cli_command_t *command, int argc, char **argv);

//  The next flag: its row index, its argument in optarg; or CLI_END,
//  CLI_HELP (help printed) or CLI_BAD (problem and usage printed).
int cli_next (cli_args_t *args);

//  The exit status for CLI_HELP (0) or CLI_BAD (2).
int cli_status (int flag);

//  Print "iofleet COMMAND: err" to stderr, err made printable: a message
//  may quote what a file, the archive or a peer holds.
void cli_error (const cli_command_t *command, const char *err);

//  Print the usage line of a command ("usage: iofleet run ...") to out.
void cli_usage (const cli_command_t *command, FILE *out);

//  Print a command's --help.
void cli_help (const cli_command_t *command, FILE *out);

//  Print `iofleet --help`: every command with its summary.
void cli_help_all (const cli_command_t *const *commands, FILE *out);

//  Print a command as a subsection of the manual page (roff).
void cli_man (const cli_command_t *command, FILE *out);

//  Print the words the bash completion needs (scripts/completion.bash
//  reads them): per command its flags, which of them take an argument,
//  and of what kind.
void cli_completion (const cli_command_t *const *commands, FILE *out);

#endif
