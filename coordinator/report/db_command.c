/*  coordinator/report/db_command.c: `iofleet db import FILE...`, results
    files into the archive; see report.h and ../archive.h.

    Each file is read by the one reader (reader.c), so that the archive
    holds nothing `iofleet report` would refuse, and recorded in a
    transaction of its own, replacing the same run if the archive had it:
    importing every results directory rebuilds the archive, and importing
    one twice changes nothing.
*/
#include "report.h"
#include "../archive.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB_EXIT_OK      0
#define DB_EXIT_FAILED  1           //  a file could not be read or recorded
#define DB_EXIT_USAGE   2

//  The help of `iofleet db`.
static void
s_db_help (FILE *out)
{
    fprintf (out,
        "usage: iofleet db import RESULTS.json ... [--db FILE]\n"
        "records finished runs in the archive (default " ARCHIVE_DEFAULT_PATH "),\n"
        "replacing a run recorded before; the results directories stay the\n"
        "source of truth, and importing them all rebuilds the archive\n"
        "\n"
        "  --db FILE            the archive\n");
}

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
    if (report_read (file, &run, err, sizeof err)) {
        fprintf (stderr, "iofleet db import: %s\n", err);
        return -1;
    }
    char *dir = s_results_dir (file);
    int rc = dir? archive_import (archive, &run, dir, err, sizeof err): -1;
    if (rc)
        fprintf (stderr, "iofleet db import: %s: %s\n", file, dir? err: "out of memory");
    else
        printf ("%s: %zu test%s of %s\n", file, run.test_count, run.test_count == 1? "": "s",
                run.scenario_path);
    free (dir);
    run_result_clear (&run);
    return rc;
}

//  iofleet db import FILE... [--db FILE]
int
report_command_db (int argc, char **argv)
{
    static const struct option long_options [] = {
        { "db", required_argument, NULL, 'd' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    const char *db_path = ARCHIVE_DEFAULT_PATH;
    int c;
    while ((c = getopt_long (argc, argv, "h", long_options, NULL)) != -1) {
        if (c == 'd') {
            db_path = optarg;
            continue;
        }
        s_db_help (c == 'h'? stdout: stderr);
        return c == 'h'? DB_EXIT_OK: DB_EXIT_USAGE;
    }
    if (optind >= argc || strcmp (argv [optind], "import")) {
        fprintf (stderr, "iofleet db: expected `import RESULTS.json ...`\n");
        s_db_help (stderr);
        return DB_EXIT_USAGE;
    }
    if (optind + 1 >= argc) {
        fprintf (stderr, "iofleet db import: name at least one results file\n");
        return DB_EXIT_USAGE;
    }
    char err [1024];
    archive_t *archive = archive_new (db_path, err, sizeof err);
    if (!archive) {
        fprintf (stderr, "iofleet db import: %s\n", err);
        return DB_EXIT_FAILED;
    }
    int status = DB_EXIT_OK;
    for (int nbr = optind + 1; nbr < argc; nbr++)
        if (s_import (archive, argv [nbr]))
            status = DB_EXIT_FAILED;
    archive_destroy (&archive);
    return status;
}
