/*  coordinator/commands/cli.c: command tables to getopt, --help, roff and shell
    completion; see cli.h.
*/
#include "cli.h"

#include "../../proto/doc.h"
#include "../../proto/printable.h"

#include <assert.h>
#include <string.h>

//  getopt_long's code for --help; rows are 0 ... CLI_FLAGS_MAX - 1 and
//  come back as such, letters are mapped back to their rows.
#define S_HELP_CODE 'h'
#define S_LONG_BASE 256             //  code of a row without a letter: S_LONG_BASE + row

//  Column where --help puts the flags' text.
#define S_HELP_COLUMN 26

void
cli_begin (cli_args_t *args, const cli_command_t *command, int argc, char **argv)
{
    assert (args && command && argv);
    memset (args, 0, sizeof (*args));
    args->command = command;
    args->argc = argc;
    args->argv = argv;
    size_t count = 0;
    size_t used = 0;
    args->shorts [used++] = ':';    //  a missing argument comes back as ':'
    for (const cli_flag_t *flag = command->flags; flag && flag->name; flag++, count++) {
        assert (count < CLI_FLAGS_MAX);
        assert (flag->letter != S_HELP_CODE);   //  -h is --help in every command
        int code = flag->letter? flag->letter: S_LONG_BASE + (int) count;
        args->longs [count] = (struct option) {
            flag->name, flag->arg? required_argument: no_argument, NULL, code
        };
        if (flag->letter) {
            args->shorts [used++] = (char) flag->letter;
            if (flag->arg)
                args->shorts [used++] = ':';
        }
    }
    args->longs [count++] = (struct option) { "help", no_argument, NULL, S_HELP_CODE };
    args->longs [count] = (struct option) { NULL, 0, NULL, 0 };
    args->shorts [used++] = S_HELP_CODE;
    args->shorts [used] = 0;
    optind = 0;                     //  glibc: start over on a new argv
    opterr = 0;                     //  we say what is wrong, naming the command
}

int
cli_next (cli_args_t *args)
{
    const cli_command_t *command = args->command;
    int code = getopt_long (args->argc, args->argv, args->shorts, args->longs, NULL);
    if (code == -1)
        return CLI_END;
    if (code == S_HELP_CODE) {
        cli_help (command, stdout);
        return CLI_HELP;
    }
    if (code >= S_LONG_BASE)
        return code - S_LONG_BASE;
    for (int row = 0; command->flags && command->flags [row].name; row++)
        if (code != '?' && code != ':' && command->flags [row].letter == code)
            return row;
    //  getopt_long leaves the bad word at optind - 1, or names the letter.
    const char *word = optind > 0 && optind <= args->argc? args->argv [optind - 1]: "?";
    if (code == ':')
        fprintf (stderr, "iofleet %s: %s needs an argument\n", command->name, word);
    else
    if (optopt && optopt < S_LONG_BASE && word [0] == '-' && word [1] != '-')
        fprintf (stderr, "iofleet %s: unknown flag -%c\n", command->name, optopt);
    else
        fprintf (stderr, "iofleet %s: unknown flag %s\n", command->name, word);
    cli_usage (command, stderr);
    return CLI_BAD;
}

int
cli_status (int flag)
{
    return flag == CLI_HELP? 0: 2;
}

void
cli_error (const cli_command_t *command, const char *err)
{
    char shown [4096];
    fprintf (stderr, "iofleet %s: %s\n", command->name, printable (err, shown, sizeof shown));
}

void
cli_usage (const cli_command_t *command, FILE *out)
{
    fprintf (out, "usage: iofleet %s %s\n       (iofleet %s --help lists the flags)\n",
             command->name, command->synopsis, command->name);
}

//  The flag of a row as --help writes it: "-o, --output DIR".
static void
s_flag_text (const cli_flag_t *flag, char *buf, size_t buflen)
{
    if (flag->letter)
        snprintf (buf, buflen, "-%c, --%s%s%s", flag->letter, flag->name,
                  flag->arg? " ": "", flag->arg? flag->arg: "");
    else
        snprintf (buf, buflen, "--%s%s%s", flag->name, flag->arg? " ": "",
                  flag->arg? flag->arg: "");
}

//  Print paragraphs ("\n\n" apart) wrapped for a terminal; verbatim ones
//  (lines starting with two spaces) as they are.
static void
s_help_text (const char *text, FILE *out)
{
    const char *paragraph = text;
    while (*paragraph) {
        const char *end = strstr (paragraph, "\n\n");
        size_t len = end? (size_t) (end - paragraph): strlen (paragraph);
        char buf [4096];
        snprintf (buf, sizeof (buf), "%.*s", (int) len, paragraph);
        if (strncmp (buf, "  ", 2) == 0)
            fprintf (out, "%s\n", buf);
        else {
            for (char *c = buf; *c; c++)
                if (*c == '\n')
                    *c = ' ';
            doc_help_row (out, 0, "", 0, buf);
        }
        paragraph += len;
        while (*paragraph == '\n')
            paragraph++;
        if (*paragraph)
            fputc ('\n', out);
    }
}

void
cli_help (const cli_command_t *command, FILE *out)
{
    fprintf (out, "usage: iofleet %s %s\n\n", command->name, command->synopsis);
    if (command->description) {
        s_help_text (command->description, out);
        fputc ('\n', out);
    }
    for (const cli_flag_t *flag = command->flags; flag && flag->name; flag++) {
        char text [160];
        s_flag_text (flag, text, sizeof (text));
        doc_help_row (out, 2, text, S_HELP_COLUMN, flag->help);
    }
    doc_help_row (out, 2, "-h, --help", S_HELP_COLUMN, "print this help and exit");
    if (command->more_help) {
        fputc ('\n', out);
        command->more_help (out);
    }
}

void
cli_help_all (const cli_command_t *const *commands, FILE *out)
{
    fprintf (out, "usage: iofleet COMMAND [ARGUMENTS] [FLAGS]\n\n");
    for (size_t i = 0; commands [i]; i++) {
        char left [160];
        snprintf (left, sizeof (left), "%s %s", commands [i]->name, commands [i]->synopsis);
        doc_help_row (out, 2, left, 40, commands [i]->summary);
    }
    fprintf (out, "\n`iofleet COMMAND --help` lists a command's flags; "
             "`iofleet --version` prints the version.\n");
}

void
cli_man (const cli_command_t *command, FILE *out)
{
    char heading [256];
    snprintf (heading, sizeof (heading), "iofleet %s %s", command->name, command->synopsis);
    fprintf (out, ".SS \"");
    doc_roff_escape (out, heading);
    fprintf (out, "\"\n");
    doc_roff_text (out, command->description? command->description: command->summary);
    for (const cli_flag_t *flag = command->flags; flag && flag->name; flag++) {
        char tag [96];
        if (flag->letter)
            snprintf (tag, sizeof (tag), "-%c, --%s", flag->letter, flag->name);
        else
            snprintf (tag, sizeof (tag), "--%s", flag->name);
        doc_roff_item (out, tag, flag->arg, flag->help);
    }
}

//  Print a shell word in single quotes; the tables hold none.
static void
s_quoted (FILE *out, const char *text)
{
    assert (!strchr (text, '\''));
    fprintf (out, "'%s'", text);
}

void
cli_completion (const cli_command_t *const *commands, FILE *out)
{
    fprintf (out, "# Generated from the command tables of iofleet.\n_iofleet_commands=");
    char names [512] = "";
    for (size_t i = 0; commands [i]; i++)
        snprintf (names + strlen (names), sizeof (names) - strlen (names), "%s%s",
                  i? " ": "", commands [i]->name);
    s_quoted (out, names);
    fputc ('\n', out);
    for (size_t i = 0; commands [i]; i++) {
        const cli_command_t *command = commands [i];
        //  The first word of the synopsis says what the arguments are.
        char first [64];
        snprintf (first, sizeof (first), "%.*s", (int) strcspn (command->synopsis, " "),
                  command->synopsis);
        fprintf (out, "_iofleet_args_%s=", command->name);
        s_quoted (out, first);
        fprintf (out, "\n_iofleet_flags_%s='", command->name);
        for (const cli_flag_t *flag = command->flags; flag && flag->name; flag++) {
            assert (!flag->arg || !strchr (flag->arg, '\''));
            fprintf (out, "--%s %s\n", flag->name, flag->arg? flag->arg: "-");
            if (flag->letter)
                fprintf (out, "-%c %s\n", flag->letter, flag->arg? flag->arg: "-");
        }
        fprintf (out, "--help -'\n");
    }
}
