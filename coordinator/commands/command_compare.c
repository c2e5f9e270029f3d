/*  coordinator/commands/command_compare.c: `iofleet compare`, results of
    several runs side by side, from files or from the archive (--db,
    --by), and --fail-on as a gate; see commands.h and ../compare/.
*/
#include "commands.h"
#include "../archive/archive.h"
#include "../compare/compare.h"
#include "../results/results_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMMAND_LIST_MAX    64      //  --test and --fail-on flags, each

//  Split "a,b,c" into count labels in place; returns 0, or -1 if the
//  count differs from expected.
static int
s_split_labels (char *text, const char **labels, size_t expected)
{
    size_t count = 0;
    for (char *label = text; ; count++) {
        char *comma = strchr (label, ',');
        if (count < expected)
            labels [count] = label;
        if (!comma) {
            count++;
            break;
        }
        *comma = 0;
        label = comma + 1;
    }
    return count == expected? 0: -1;
}

//  The flags of `iofleet compare`.
enum { COMPARE_LABELS, COMPARE_FORMAT, COMPARE_TEST, COMPARE_FAIL_ON, COMPARE_DB, COMPARE_BY };
static const cli_flag_t s_compare_flags [] = {
    [COMPARE_LABELS] = { "labels", 'l', "a,b,c",
        "name the columns, one label per set (default: the agents' kernel releases)" },
    [COMPARE_FORMAT] = { "format", 'f', "text|json|csv|html", "what to write (default text)" },
    [COMPARE_TEST] = { "test", 0, "NAME", "only this test and its phases; repeatable" },
    [COMPARE_FAIL_ON] = { "fail-on", 0, "BOUND",
        "exit 1 when a real change passes BOUND, e.g. 'MB/s<-5%', '%sys>+5%', 'p99>+10%' "
        "(repeatable); 125 when a set is partial, failed or lacks a test; 0 otherwise" },
    [COMPARE_DB] = { "db", 0, "FILE", "compare runs of the archive instead of files" },
    [COMPARE_BY] = { "by", 0, "kernel|host|label|scenario",
        "with --db: the newest run of each kernel, host, label or scenario, oldest group first" },
    { NULL }
};

static int s_run (int argc, char **argv);

const cli_command_t command_compare = {
    .name = "compare", .synopsis = "A.json B.json [C.json ...] [flags]",
    .summary = "one table across result sets, changes in % judged real or noise",
    .description =
        "One row per test and figure, one column per results file (or, with --db and "
        "--by, per group of archived runs), and the change of each column against the "
        "first in %. With two or more iterations the first run has a row of its own and "
        "the value is the median of the rest. With three values a side a change is real "
        "only when the Mann-Whitney U test says so at 10% (its interval is printed); "
        "with fewer, when it lies outside the min..max spread of both sides (weak).",
    .flags = s_compare_flags, .run = s_run
};

//  Free count runs and the array.
static void
s_free_runs (run_result_t *runs, size_t count)
{
    for (size_t nbr = 0; runs && nbr < count; nbr++)
        run_result_clear (&runs [nbr]);
    free (runs);
}

//  Say that a flag came too often; the usage status.
static int
s_too_many (const char *flag)
{
    fprintf (stderr, "iofleet compare: more than %d --%s flags\n", COMMAND_LIST_MAX, flag);
    return EXIT_STATUS_USAGE;
}

//  Free count strings and the array.
static void
s_free_strings (char **strings, size_t count)
{
    for (size_t nbr = 0; strings && nbr < count; nbr++)
        free (strings [nbr]);
    free (strings);
}

//  The group of a run that --by names: its agents' kernels or hosts,
//  its label or its scenario; NULL for a bad field.
static char *
s_group (const run_result_t *run, const char *by)
{
    char joined [512];
    if (!strcmp (by, "kernel") || !strcmp (by, "host"))
        compare_join_agents (run, !strcmp (by, "host"), joined, sizeof joined);
    else
    if (!strcmp (by, "label"))
        snprintf (joined, sizeof joined, "%s", run->label [0]? run->label: "(no label)");
    else
    if (!strcmp (by, "scenario"))
        snprintf (joined, sizeof joined, "%s", run->scenario_path);
    else
        return NULL;
    return strdup (joined);
}

//  The newest run of each group of the archive (that has test, if
//  given), the group with the oldest such run first: runs, their results
//  directories and the groups, count of each. Returns 0, or an exit
//  status after saying what is wrong.
static int
s_runs_by (const char *db_path, const char *by, const char *test, run_result_t **runs_p,
           char ***origins_p, char ***keys_p, size_t *count_p)
{
    static const char *const fields [] = { "kernel", "host", "label", "scenario" };
    bool known = false;
    for (size_t nbr = 0; nbr < sizeof fields / sizeof fields [0]; nbr++)
        known |= !strcmp (by, fields [nbr]);
    if (!known) {
        fprintf (stderr, "iofleet compare: --by %s: expected kernel, host, label or scenario\n", by);
        return EXIT_STATUS_USAGE;
    }
    char err [1024];
    int64_t *ids = NULL;
    size_t id_count = 0, count = 0;
    run_result_t *runs = NULL;
    char **origins = NULL, **keys = NULL;
    archive_filter_t filter = { .test = test };
    archive_t *archive = archive_new_reader (db_path, err, sizeof err);
    if (!archive || archive_find (archive, &filter, &ids, &id_count, err, sizeof err))
        goto fail;
    runs = (run_result_t *) calloc (id_count + 1, sizeof (run_result_t));
    origins = (char **) calloc (id_count + 1, sizeof (char *));
    keys = (char **) calloc (id_count + 1, sizeof (char *));
    if (!runs || !origins || !keys) {
        snprintf (err, sizeof err, "compare: out of memory");
        goto fail;
    }
    //  Oldest first: a later run of a group replaces the one before.
    for (size_t nbr = 0; nbr < id_count; nbr++) {
        run_result_t run;
        char *dir;
        memset (&run, 0, sizeof run);
        if (archive_load (archive, ids [nbr], &run, &dir, err, sizeof err))
            goto fail;
        char *key = s_group (&run, by);
        size_t group = 0;
        while (key && group < count && strcmp (keys [group], key))
            group++;
        if (!key) {
            run_result_clear (&run);
            free (dir);
            snprintf (err, sizeof err, "compare: out of memory");
            goto fail;
        }
        if (group == count)
            count++;
        run_result_clear (&runs [group]);
        free (origins [group]);
        free (keys [group]);
        runs [group] = run;
        origins [group] = dir;
        keys [group] = key;
    }
    if (count == 0) {
        snprintf (err, sizeof err, "archive %s: no run%s%s", db_path, test? " has test ": "",
                  test? test: "");
        goto fail;
    }
    //  Groups in the order of their newest runs, oldest first.
    for (size_t done = 1; done < count; done++)
        for (size_t at = done; at > 0 && runs [at].started_wall_ns < runs [at - 1].started_wall_ns;
             at--) {
            run_result_t run = runs [at]; runs [at] = runs [at - 1]; runs [at - 1] = run;
            char *origin = origins [at]; origins [at] = origins [at - 1]; origins [at - 1] = origin;
            char *key = keys [at]; keys [at] = keys [at - 1]; keys [at - 1] = key;
        }
    free (ids);
    archive_destroy (&archive);
    *runs_p = runs;
    *origins_p = origins;
    *keys_p = keys;
    *count_p = count;
    return 0;
fail:
    cli_error (&command_compare, err);
    free (ids);
    archive_destroy (&archive);
    s_free_runs (runs, count);
    s_free_strings (origins, count);
    s_free_strings (keys, count);
    return EXIT_STATUS_FAILED;
}

//  iofleet compare A.json B.json ... [--labels a,b,...] [--format F]
//                  [--test NAME ...] [--fail-on BOUND ...] [--db FILE --by FIELD]
static int
s_run (int argc, char **argv)
{
    compare_options_t options = { .format = REPORT_FORMAT_TEXT };
    const char *tests [COMMAND_LIST_MAX];
    compare_bound_t bounds [COMMAND_LIST_MAX];
    char *labels_text = NULL;
    const char *db_path = NULL, *by = NULL;
    char err [1024];
    cli_args_t args;
    cli_begin (&args, &command_compare, argc, argv);
    int flag;
    while ((flag = cli_next (&args)) != CLI_END) {
        const report_format_t *format;
        switch (flag) {
            case COMPARE_LABELS: labels_text = optarg; break;
            case COMPARE_DB: db_path = optarg; break;
            case COMPARE_BY: by = optarg; break;
            case COMPARE_FORMAT:
                if (!(format = report_format_flag ("compare", optarg)))
                    return EXIT_STATUS_USAGE;
                if (format->id >= REPORT_FORMAT_FILES) {
                    fprintf (stderr, "iofleet compare: --format %s: a format of one run; "
                             "expected text, json, csv or html\n", optarg);
                    return EXIT_STATUS_USAGE;
                }
                options.format = format->id;
                break;
            case COMPARE_TEST:
                if (options.test_count == COMMAND_LIST_MAX)
                    return s_too_many ("test");
                tests [options.test_count++] = optarg;
                break;
            case COMPARE_FAIL_ON:
                if (options.bound_count == COMMAND_LIST_MAX)
                    return s_too_many ("fail-on");
                if (compare_bound_parse (optarg, &bounds [options.bound_count++],
                                          err, sizeof err)) {
                    fprintf (stderr, "iofleet compare: --fail-on %s\n", err);
                    return EXIT_STATUS_USAGE;
                }
                break;
            default:
                return cli_status (flag);
        }
    }
    options.tests = tests;
    options.bounds = bounds;
    //  With a gate, a set that cannot be read cannot be judged either:
    //  a bisect skips it rather than call it bad.
    int failed = options.bound_count? EXIT_STATUS_SKIP: EXIT_STATUS_FAILED;
    size_t count = (size_t) (argc - optind);
    if ((db_path || by) && (count || !db_path || !by)) {
        fprintf (stderr, "iofleet compare: --db FILE and --by FIELD go together, "
                         "without results files\n");
        return EXIT_STATUS_USAGE;
    }
    run_result_t *runs = NULL;
    char **origins = NULL, **keys = NULL;
    if (db_path) {
        int rc = s_runs_by (db_path, by, options.test_count? tests [0]: NULL,
                            &runs, &origins, &keys, &count);
        if (rc)
            return rc == EXIT_STATUS_USAGE? rc: failed;
    }
    else {
        if (count < 1) {
            fprintf (stderr, "iofleet compare: name at least one results file\n");
            return EXIT_STATUS_USAGE;
        }
        runs = (run_result_t *) calloc (count, sizeof (run_result_t));
        origins = (char **) calloc (count, sizeof (char *));
        if (!runs || !origins) {
            free (runs);
            free (origins);
            return failed;
        }
        for (size_t nbr = 0; nbr < count; nbr++) {
            origins [nbr] = argv [optind + (int) nbr];
            if (results_read_no_samples (origins [nbr], &runs [nbr], err, sizeof err)) {
                cli_error (&command_compare, err);
                s_free_runs (runs, count);
                free (origins);
                return failed;
            }
        }
    }
    const char **labels = NULL;
    int status = failed;
    if (labels_text) {
        labels = (const char **) calloc (count + 1, sizeof (char *));
        if (!labels)
            goto done;
        if (s_split_labels (labels_text, labels, count)) {
            fprintf (stderr, "iofleet compare: --labels: give one label per set (%zu)\n", count);
            status = EXIT_STATUS_USAGE;
            goto done;
        }
    }
    if (!labels && keys)
        labels = (const char **) keys;
    int rc = compare_run (runs, (const char *const *) origins, labels, count, &options,
                             stdout, stderr, err, sizeof err);
    if (rc < 0)
        cli_error (&command_compare, err);
    else
    if (fflush (stdout) || ferror (stdout))
        fprintf (stderr, "iofleet compare: could not write the table\n");
    else
        status = rc;
done:
    if (labels != (const char **) keys)
        free (labels);
    s_free_strings (keys, count);
    if (db_path)
        s_free_strings (origins, count);
    else
        free (origins);
    s_free_runs (runs, count);
    return status;
}
