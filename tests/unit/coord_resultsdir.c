/*  tests/unit/coord_resultsdir.c: a run's results directory and the table
    of report formats it writes through.

    The directory is the run's own (a second one in the same second gets a
    suffix, an -o holding results is refused), every write is checked, a
    file that could not be written is named with its reason and what it
    holds, and a failed append of samples leaves the file as it was after
    the last whole test. A file size limit (RLIMIT_FSIZE) is the disk that
    fills on purpose.
*/
#include "../../coordinator/results/resultsdir.h"
#include "../../coordinator/report/report.h"
#include "scratch.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

//  The scratch directory of the test being run, and where it started.
typedef struct {
    char dir [256];
    char cwd [1024];
} fixture_t;

static int
s_setup (void **state)
{
    fixture_t *fixture = calloc (1, sizeof (fixture_t));
    if (!fixture || !getcwd (fixture->cwd, sizeof fixture->cwd))
        return -1;
    const char *tmp = getenv ("TMPDIR");
    snprintf (fixture->dir, sizeof fixture->dir, "%s/coord_resultsdir.XXXXXX",
              tmp && *tmp? tmp: "/tmp");
    if (!mkdtemp (fixture->dir) || chdir (fixture->dir))
        return -1;
    *state = fixture;
    return 0;
}

static int
s_teardown (void **state)
{
    fixture_t *fixture = *state;
    int rc = chdir (fixture->cwd) || scratch_remove (fixture->dir);
    free (fixture);
    return rc;
}

//  A file's whole content, for the caller to free; NULL if it is missing.
static char *
s_slurp (const char *path, size_t *length)
{
    FILE *file = fopen (path, "r");
    if (!file)
        return NULL;
    char *text = NULL;
    size_t capacity = 0;
    FILE *memory = open_memstream (&text, &capacity);
    assert_non_null (memory);
    int c;
    while ((c = fgetc (file)) != EOF)
        fputc (c, memory);
    fclose (file);
    assert_int_equal (fclose (memory), 0);
    if (length)
        *length = capacity;
    return text;
}

//  A run of one test with one stream of n samples, aggregated.
static void
s_run (run_result_t *run, size_t samples)
{
    memset (run, 0, sizeof *run);
    snprintf (run->scenario_path, sizeof run->scenario_path, "x.ini");
    run->tests = calloc (1, sizeof (test_result_t));
    assert_non_null (run->tests);
    run->test_count = run->test_capacity = 1;
    test_result_t *test = &run->tests [0];
    snprintf (test->name, sizeof test->name, "t");
    test->iteration = 1;
    test->streams = calloc (1, sizeof (stream_result_t));
    assert_non_null (test->streams);
    test->stream_count = 1;
    stream_result_t *stream = &test->streams [0];
    snprintf (stream->agent, sizeof stream->agent, "a1");
    snprintf (stream->job, sizeof stream->job, "j");
    for (size_t k = 0; k < samples; k++)
        assert_int_equal (stream_result_add_sample (stream, (int64_t) (k + 1) * 1000000,
                                                    (k + 1) * 4096), 0);
    stream->finished = true;
    stream->bytes = (samples + 1) * 4096;
    stream->end_ns = stream->last_write_ns = (int64_t) (samples + 1) * 1000000;
}

//  What resultsdir_print_problems says, for the caller to free.
static char *
s_problems (resultsdir_t *results)
{
    char *text = NULL;
    size_t length = 0;
    FILE *memory = open_memstream (&text, &length);
    assert_non_null (memory);
    resultsdir_print_problems (results, memory);
    assert_int_equal (fclose (memory), 0);
    return text;
}

//  A scenario with text, as scenario_load leaves it (only what is saved).
static scenario_t *
s_scenario (const char *text)
{
    scenario_t *scenario = calloc (1, sizeof (scenario_t));
    assert_non_null (scenario);
    snprintf (scenario->path, sizeof scenario->path, "configs/dd.ini");
    scenario->text = strdup (text);
    scenario->text_length = strlen (text);
    return scenario;
}


//  --------------------------------------------------------------------------
//  The format table

static void
test_format_table (void **state)
{
    (void) state;
    static const char *const names [] = { "text", "json", "csv", "html", "fio-json", "bonnie-csv" };
    static const char *const files [] = { "report.txt", "results.json", "report.csv", "report.html",
                                          NULL, NULL };
    assert_int_equal (sizeof names / sizeof *names, REPORT_FORMAT_COUNT);
    for (size_t nbr = 0; nbr < REPORT_FORMAT_COUNT; nbr++) {
        const report_format_t *format = report_format_find (names [nbr]);
        assert_non_null (format);
        assert_ptr_equal (format, &report_formats [nbr]);
        assert_int_equal (format->id, nbr);
        //  The exports have no file in a results directory.
        if (nbr < REPORT_FORMAT_FILES)
            assert_string_equal (format->file_name, files [nbr]);
        else
            assert_null (format->file_name);
    }
    assert_null (report_format_find ("pdf"));
    assert_null (report_format_find ("TEXT"));
}

//  A renderer that fails after half its output.
static int
s_failing_render (const run_result_t *run, FILE *out)
{
    (void) run;
    fputs ("half a report", out);
    return -1;
}

//  A rendering that fails writes nothing: no half file, no temporary.
static void
test_failed_render_writes_nothing (void **state)
{
    (void) state;
    run_result_t run;
    s_run (&run, 3);
    report_format_t failing = { REPORT_FORMAT_TEXT, "text", "report.txt", s_failing_render };
    char err [512] = "";
    assert_int_equal (report_format_write (&failing, &run, "report.txt", err, sizeof err), -1);
    assert_string_equal (err, "render text(report.txt): Cannot allocate memory");
    assert_int_equal (scratch_entries ("."), 0);
    run_result_clear (&run);
}


//  --------------------------------------------------------------------------
//  The directory

//  results/<stem>-<time>, the run's own: a second one of the same second
//  gets -2, a third -3, and none shares a directory.
static void
test_default_directory_is_the_runs_own (void **state)
{
    (void) state;
    char err [512] = "";
    resultsdir_t *first = NULL, *second = NULL, *third = NULL;
    //  Three in the same second; a second may tick in between, so try
    //  again until it did not.
    for (int tries = 0; tries < 5; tries++) {
        resultsdir_destroy (&first);
        resultsdir_destroy (&second);
        resultsdir_destroy (&third);
        assert_int_equal (scratch_remove ("results") == 0 || errno == ENOENT, 1);
        first = resultsdir_new (NULL, "configs/dd1.ini", NULL, err, sizeof err);
        second = resultsdir_new (NULL, "other/dd1.ini", NULL, err, sizeof err);
        third = resultsdir_new (NULL, "dd1.x.ini", NULL, err, sizeof err);
        assert_non_null (first);
        assert_non_null (second);
        assert_non_null (third);
        if (strncmp (resultsdir_path (first), resultsdir_path (third),
                     strlen (resultsdir_path (first))) == 0)
            break;
    }
    const char *path = resultsdir_path (first);
    assert_int_equal (strncmp (path, "results/dd1-", 12), 0);
    assert_int_equal (strlen (path), strlen ("results/dd1-20261130-031000"));
    char expected [600];
    snprintf (expected, sizeof expected, "%s-2", path);
    assert_string_equal (resultsdir_path (second), expected);
    snprintf (expected, sizeof expected, "%s-3", path);
    assert_string_equal (resultsdir_path (third), expected);
    //  Each holds its own samples file, and nothing else yet.
    assert_int_equal (scratch_entries (resultsdir_path (second)), 1);
    assert_false (resultsdir_failed (second));
    resultsdir_destroy (&first);
    resultsdir_destroy (&second);
    resultsdir_destroy (&third);
    assert_null (first);
}

//  An explicit -o: new (with its parents) or empty is taken; one that is
//  no directory, or holds a run's results, is refused.
static void
test_given_directory (void **state)
{
    (void) state;
    char err [512] = "";
    assert_int_equal (resultsdir_check (NULL, err, sizeof err), 0);
    assert_int_equal (resultsdir_check ("new/deeper", err, sizeof err), 0);
    resultsdir_t *results = resultsdir_new ("new/deeper", "x.ini", NULL, err, sizeof err);
    assert_non_null (results);
    assert_string_equal (resultsdir_path (results), "new/deeper");
    resultsdir_destroy (&results);
    //  Now it holds a samples file: another run may not use it.
    assert_int_equal (resultsdir_check ("new/deeper", err, sizeof err), -1);
    assert_string_equal (err, "-o new/deeper: holds the results of another run "
                              "(new/deeper/samples.jsonl); give a new or an empty directory");
    assert_null (resultsdir_new ("new/deeper", "x.ini", NULL, err, sizeof err));

    //  Empty, or holding other things (lost+found on a fresh file system).
    assert_int_equal (mkdir ("empty", 0755), 0);
    assert_int_equal (mkdir ("empty/lost+found", 0755), 0);
    assert_int_equal (resultsdir_check ("empty", err, sizeof err), 0);
    results = resultsdir_new ("empty", "x.ini", NULL, err, sizeof err);
    assert_non_null (results);
    resultsdir_destroy (&results);

    FILE *file = fopen ("plain", "w");
    assert_non_null (file);
    fclose (file);
    assert_int_equal (resultsdir_check ("plain", err, sizeof err), -1);
    assert_string_equal (err, "-o plain: not a directory");
    assert_null (resultsdir_new ("plain/below", "x.ini", NULL, err, sizeof err));
    assert_non_null (strstr (err, "plain/below"));
}

//  Everything written, every file complete: the scenario as read with the
//  endpoints used, the samples, a file per format, the --json copy.
static void
test_everything_written (void **state)
{
    (void) state;
    char err [512] = "";
    resultsdir_t *results = resultsdir_new ("out", "x.ini", "copy.json", err, sizeof err);
    assert_non_null (results);
    scenario_t *scenario = s_scenario ("[job j]\nsize = 1M");
    scenario->agents = calloc (1, sizeof (scenario_agent_t));
    assert_non_null (scenario->agents);
    scenario->agent_count = 1;
    snprintf (scenario->agents [0].name, sizeof scenario->agents [0].name, "a1");
    snprintf (scenario->agents [0].endpoint, sizeof scenario->agents [0].endpoint,
              "tcp://10.0.0.1:7654");
    resultsdir_save_scenario (results, scenario);
    run_result_t run;
    s_run (&run, 3);
    resultsdir_append_samples (results, &run.tests [0]);
    resultsdir_write_reports (results, &run);
    assert_false (resultsdir_failed (results));
    char *problems = s_problems (results);
    assert_string_equal (problems, "");
    free (problems);

    char *text = s_slurp ("out/scenario.ini", NULL);
    assert_non_null (text);
    assert_string_equal (text, "[job j]\nsize = 1M\n; endpoints as run\n"
                               "; --agent a1=tcp://10.0.0.1:7654\n");
    free (text);
    text = s_slurp ("out/samples.jsonl", NULL);
    assert_non_null (text);
    assert_non_null (strstr (text, "\"t_ns\":3000000,\"bytes\":12288}\n"));
    free (text);
    assert_int_equal (scratch_entries ("out"), 6);
    char *json = s_slurp ("out/results.json", NULL);
    char *copy = s_slurp ("copy.json", NULL);
    assert_non_null (json);
    assert_non_null (copy);
    assert_string_equal (json, copy);
    free (json);
    free (copy);
    resultsdir_destroy (&results);
    run_result_clear (&run);
    free (scenario->agents);
    free (scenario->text);
    free (scenario);
}

//  A --json copy into a directory that does not exist: named, with its
//  reason, and the rest said complete.
static void
test_copy_fails (void **state)
{
    (void) state;
    char err [512] = "";
    resultsdir_t *results = resultsdir_new ("out", "x.ini", "missing/x.json", err, sizeof err);
    assert_non_null (results);
    scenario_t *scenario = s_scenario ("");
    resultsdir_save_scenario (results, scenario);
    run_result_t run;
    s_run (&run, 2);
    resultsdir_append_samples (results, &run.tests [0]);
    resultsdir_write_reports (results, &run);
    assert_true (resultsdir_failed (results));
    char *problems = s_problems (results);
    assert_string_equal (problems,
        "iofleet: results: missing/x.json could not be written: "
        "open(missing/x.json.tmp): No such file or directory; it is missing\n"
        "iofleet: results: complete: scenario.ini, samples.jsonl, report.txt, results.json, "
        "report.csv, report.html\n");
    free (problems);
    resultsdir_destroy (&results);
    run_result_clear (&run);
    free (scenario->text);
    free (scenario);
}

//  The disk fills during the samples of the second test: the file goes
//  back to the first test's samples and takes no more, the reports are
//  written, and the end says what holds what.
static void
test_samples_fail_midway (void **state)
{
    (void) state;
    char err [512] = "";
    resultsdir_t *results = resultsdir_new ("out", "x.ini", NULL, err, sizeof err);
    assert_non_null (results);
    scenario_t *scenario = s_scenario ("[job j]\n");
    resultsdir_save_scenario (results, scenario);
    run_result_t small, large;
    s_run (&small, 2);
    s_run (&large, 2000);
    resultsdir_append_samples (results, &small.tests [0]);
    size_t first_length;
    char *first = s_slurp ("out/samples.jsonl", &first_length);
    assert_non_null (first);

    //  Room for a few more lines, not for 2000.
    struct sigaction ignore = { .sa_handler = SIG_IGN }, saved_action;
    sigemptyset (&ignore.sa_mask);
    assert_int_equal (sigaction (SIGXFSZ, &ignore, &saved_action), 0);
    struct rlimit saved, limited;
    assert_int_equal (getrlimit (RLIMIT_FSIZE, &saved), 0);
    limited = saved;
    limited.rlim_cur = first_length + 300;
    assert_int_equal (setrlimit (RLIMIT_FSIZE, &limited), 0);
    resultsdir_append_samples (results, &large.tests [0]);
    assert_int_equal (setrlimit (RLIMIT_FSIZE, &saved), 0);
    assert_int_equal (sigaction (SIGXFSZ, &saved_action, NULL), 0);
    assert_true (resultsdir_failed (results));

    //  Cut back to the whole first test; a third test is not appended.
    resultsdir_append_samples (results, &small.tests [0]);
    resultsdir_write_reports (results, &small);
    size_t length;
    char *now = s_slurp ("out/samples.jsonl", &length);
    assert_non_null (now);
    assert_int_equal (length, first_length);
    assert_memory_equal (now, first, length);
    char *problems = s_problems (results);
    assert_string_equal (problems,
        "iofleet: results: samples.jsonl could not be written: "
        "write(out/samples.jsonl): File too large; it holds the samples of 1 of 3 tests\n"
        "iofleet: results: complete: scenario.ini, report.txt, results.json, report.csv, "
        "report.html\n");
    free (problems);
    free (scenario->text);
    free (scenario);
    free (first);
    free (now);
    resultsdir_destroy (&results);
    run_result_clear (&small);
    run_result_clear (&large);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_format_table),
        cmocka_unit_test_setup_teardown (test_failed_render_writes_nothing, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_default_directory_is_the_runs_own,
                                         s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_given_directory, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_everything_written, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_copy_fails, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_samples_fail_midway, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
