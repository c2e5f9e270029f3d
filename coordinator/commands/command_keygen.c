/*  coordinator/commands/command_keygen.c: `iofleet keygen`, a CURVE key
    pair for an agent or a console; see commands.h.
*/
#include "commands.h"
#include "../../proto/keys.h"

#include <stdio.h>
#include <unistd.h>

static int s_run (int argc, char **argv);

const cli_command_t command_keygen = {
    .name = "keygen", .synopsis = "DIR [NAME]",
    .summary = "make a CURVE key pair for an agent or a console",
    .description =
        "Writes DIR/NAME.key (the public key: give it to the peers) and "
        "DIR/NAME.key_secret (mode 0600: keep it), creating DIR. NAME defaults to the "
        "host name. An agent's keys directory holds its own pair and the NAME.key of "
        "every console it accepts; a console's holds its pair and every agent's NAME.key.",
    .run = s_run
};

//  `iofleet keygen DIR [NAME]`: a CURVE key pair, NAME defaulting to
//  the host name (proto/keys.h).
static int
s_run (int argc, char **argv)
{
    cli_args_t args;
    cli_begin (&args, &command_keygen, argc, argv);
    int flag = cli_next (&args);
    if (flag != CLI_END)
        return cli_status (flag);
    argc -= optind - 1;
    argv += optind - 1;
    if (argc < 2 || argc > 3) {
        cli_usage (&command_keygen, stderr);
        return EXIT_STATUS_USAGE;
    }
    char host [256] = "iofleet";
    if (argc < 3 && gethostname (host, sizeof host - 1) == -1)
        snprintf (host, sizeof host, "iofleet");
    const char *name = argc == 3? argv [2]: host;
    char err [1024];
    if (keys_generate (argv [1], name, err, sizeof err)) {
        fprintf (stderr, "iofleet: %s\n", err);
        return EXIT_STATUS_USAGE;
    }
    printf ("%s/%s" KEYS_PUBLIC_SUFFIX "\n%s/%s" KEYS_SECRET_SUFFIX "\n",
            argv [1], name, argv [1], name);
    return EXIT_STATUS_OK;
}
