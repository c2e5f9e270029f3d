/*  coordinator/commands/command_db.c: `iofleet db import FILE...`, results
    files into the archive; see report.h and ../archive/archive.h.

    Each file is read by the one reader (reader.c), so that the archive
    holds nothing `iofleet report` would refuse, and recorded in a
    transaction of its own, replacing the same run if the archive had it:
    importing every results directory rebuilds the archive, and importing
    one twice changes nothing.
*/
#include "../results/results_file.h"
#include "../report/report.h"
#include "../archive/archive.h"
#include "commands.h"
#include "../exit_status.h"
#include "../../proto/printable.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  The flags of `iofleet db`.
enum { DB_FLAG_DB };
static const cli_flag_t s_db_flags [] = {
    [DB_FLAG_DB] = { "db", 0, "FILE", "the archive (default " ARCHIVE_DEFAULT_PATH ")" },
    { NULL }
};

static int s_run (int argc, char **argv);

const cli_command_t command_db = {
    .name = "db", .synopsis = "import RESULTS.json ... [flags]",
    .summary = "record finished runs in the archive",
    .description =
        "Records finished runs in the archive, replacing a run recorded before. The "
        "results directories stay the source of truth: importing them all rebuilds the "
        "archive, and importing one twice changes nothing.",
    .flags = s_db_flags, .run = s_run
};

//  The results directory of a results file, absolute, for the caller to
//  free: the directory the file is in.
static char *
s_results_dir (const char *file)
{
    const char *slash = strrchr (file, '/');
    char *dir = slash? strndup (file, (size_t) (slash - file + (slash == file))): strdup (".");
    if (!dir)
        return NULL;
    char *absolute = realpath (dir, NULL);
    if (absolute) {
        free (dir);
        return absolute;
    }
    return dir;
}

//  Import one file; says what happened.
static int
s_import (archive_t *archive, const char *file)
{
    char err [1024];
    run_result_t run;
    memset (&run, 0, sizeof run);
    //  With the samples, so that each stream's count of them is the one
    //  the run recorded.
    //  What the file says (its errors quote it) is printed printable.
    char shown [4096];
    if (results_read (file, &run, err, sizeof err)) {
        fprintf (stderr, "iofleet db import: %s\n", printable (err, shown, sizeof shown));
        return -1;
    }
    char *dir = s_results_dir (file);
    int rc = dir? archive_import (archive, &run, dir, err, sizeof err): -1;
    if (rc)
        fprintf (stderr, "iofleet db import: %s: %s\n", file,
                 dir? printable (err, shown, sizeof shown): "out of memory");
    else
        printf ("%s: %zu test%s of %s\n", file, run.test_count, run.test_count == 1? "": "s",
                printable (run.scenario_path, shown, sizeof shown));
    free (dir);
    run_result_clear (&run);
    return rc;
}

//  iofleet db import FILE... [--db FILE]
static int
s_run (int argc, char **argv)
{
    const char *db_path = ARCHIVE_DEFAULT_PATH;
    cli_args_t args;
    cli_begin (&args, &command_db, argc, argv);
    int flag;
    while ((flag = cli_next (&args)) != CLI_END) {
        if (flag != DB_FLAG_DB)
            return cli_status (flag);
        db_path = optarg;
    }
    if (optind >= argc || strcmp (argv [optind], "import")) {
        fprintf (stderr, "iofleet db: expected `import RESULTS.json ...`\n");
        cli_usage (&command_db, stderr);
        return EXIT_STATUS_USAGE;
    }
    if (optind + 1 >= argc) {
        fprintf (stderr, "iofleet db import: name at least one results file\n");
        return EXIT_STATUS_USAGE;
    }
    char err [1024];
    archive_t *archive = archive_new (db_path, err, sizeof err);
    if (!archive) {
        fprintf (stderr, "iofleet db import: %s\n", err);
        return EXIT_STATUS_FAILED;
    }
    int status = EXIT_STATUS_OK;
    for (int nbr = optind + 1; nbr < argc; nbr++)
        if (s_import (archive, argv [nbr]))
            status = EXIT_STATUS_FAILED;
    archive_destroy (&archive);
    return status;
}
