/*  tests/unit/coord_archive.c: the archive (coordinator/archive*.c) on
    runs built by hand, in a scratch directory.

    A run goes in test by test and comes back the same; an import replaces
    it rather than adding to it; the filters find what they say; and a
    database that is newer, foreign, corrupt or locked is refused with a
    message that says so, never half written.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../coordinator/archive/archive.h"
#include "../../coordinator/results/results_schema.h"
#include "../../proto/clock.h"
#include "scratch.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//  A scratch directory and the archive's path in it.
typedef struct {
    char dir [64];                  //  the directory
    char path [128];                //  dir/iofleet.db
} fixture_t;

static int
s_setup (void **state)
{
    fixture_t *fixture = calloc (1, sizeof *fixture);
    assert_non_null (fixture);
    snprintf (fixture->dir, sizeof fixture->dir, "%s/coord-archive.XXXXXX",
              getenv ("TMPDIR")? getenv ("TMPDIR"): "/tmp");
    assert_non_null (mkdtemp (fixture->dir));
    snprintf (fixture->path, sizeof fixture->path, "%s/iofleet.db", fixture->dir);
    *state = fixture;
    return 0;
}

static int
s_teardown (void **state)
{
    fixture_t *fixture = *state;
    scratch_remove (fixture->dir);
    free (fixture);
    return 0;
}

//  A run of scenario on kernel, label, starting at second: two agents,
//  tests dd1 (two iterations), then a phase "iozone-w/write", each with
//  a stream, a host and, on dd1, a warning.
static void
s_run (run_result_t *run, const char *scenario, const char *kernel, const char *label,
       int64_t second)
{
    memset (run, 0, sizeof *run);
    snprintf (run->scenario_path, sizeof run->scenario_path, "%s", scenario);
    snprintf (run->label, sizeof run->label, "%s", label);
    run->started_wall_ns = second * NS_PER_SEC + 250;
    run->agents = calloc (2, sizeof (agent_info_t));
    run->tests = calloc (3, sizeof (test_result_t));
    assert_non_null (run->agents);
    assert_non_null (run->tests);
    run->agent_count = 2;
    run->test_count = run->test_capacity = 3;
    for (int nbr = 0; nbr < 2; nbr++) {
        agent_info_t *agent = &run->agents [nbr];
        snprintf (agent->name, sizeof agent->name, "a%d", nbr + 1);
        snprintf (agent->hostname, sizeof agent->hostname, "host%d", nbr + 1);
        snprintf (agent->kernel, sizeof agent->kernel, "%s", kernel);
        agent->cpus = 2;
        agent->mem_bytes = 24ULL << 30;
        agent->clock_offset_ns = -1234 * (nbr + 1);
    }
    static const char *const names [] = { "dd1", "dd1", "iozone-w/write" };
    for (int nbr = 0; nbr < 3; nbr++) {
        test_result_t *test = &run->tests [nbr];
        snprintf (test->name, sizeof test->name, "%s", names [nbr]);
        test->iteration = nbr == 1? 2: 1;
        test->announced_wall_ns = run->started_wall_ns + nbr * NS_PER_SEC;
        test->summary.streams = test->summary.disk.streams = 1;
        test->summary.bytes = test->summary.disk.bytes = 1000000ULL * (nbr + 1);
        test->summary.combined_mbps = 100.5 + nbr;
        test->summary.all_running_mbps = NAN;
        test->summary.sys_pct = 12.25;
        test->summary.latency_p99_ns = nbr == 2? 1.5e6: NAN;
        snprintf (test->summary.disk.notation, sizeof test->summary.disk.notation, "%.0f",
                  test->summary.combined_mbps);
        test->streams = calloc (1, sizeof (stream_result_t));
        test->hosts = calloc (1, sizeof (host_result_t));
        assert_non_null (test->streams);
        assert_non_null (test->hosts);
        test->stream_count = test->host_count = 1;
        snprintf (test->streams [0].agent, sizeof test->streams [0].agent, "a1");
        snprintf (test->streams [0].job, sizeof test->streams [0].job, "%s", names [nbr]);
        test->streams [0].bytes = test->summary.bytes;
        test->streams [0].end_ns = NS_PER_SEC / 100;
        test->streams [0].stop_ns = NS_PER_SEC / 100;
        test->streams [0].last_issue_ns = NS_PER_SEC / 200;
        test->streams [0].finished = true;
        snprintf (test->hosts [0].agent, sizeof test->hosts [0].agent, "a1");
        test->hosts [0].counters.disk_written_bytes = 4096;
        if (nbr == 0) {
            test->warning_count = 1;
            snprintf (test->warnings [0].kind, sizeof test->warnings [0].kind, "dirty");
            snprintf (test->warnings [0].text, sizeof test->warnings [0].text, "still dirty");
        }
    }
}

//  One integer a query gives.
static int64_t
s_count (const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *stmt;
    assert_int_equal (sqlite3_open (path, &db), SQLITE_OK);
    assert_int_equal (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), SQLITE_OK);
    assert_int_equal (sqlite3_step (stmt), SQLITE_ROW);
    int64_t value = sqlite3_column_int64 (stmt, 0);
    sqlite3_finalize (stmt);
    sqlite3_close (db);
    return value;
}

//  Test by test in, and the same out.
static void
test_round_trip (void **state)
{
    fixture_t *fixture = *state;
    char err [512] = "";
    archive_t *archive = archive_new (fixture->path, err, sizeof err);
    if (!archive)
        fail_msg ("%s", err);
    run_result_t run;
    s_run (&run, "configs/dd.ini", "6.1.0", "base", 1796000000);
    for (size_t nbr = 0; nbr < run.test_count; nbr++)
        assert_int_equal (archive_record (archive, &run, "/r/dd-1", nbr, 1, err, sizeof err), 0);
    archive_destroy (&archive);
    assert_null (archive);
    assert_int_equal (s_count (fixture->path, "SELECT version FROM schema_version"),
                      ARCHIVE_SCHEMA_VERSION);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM runs"), 1);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM agents"), 2);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM tests"), 3);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM streams"), 3);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM hosts"), 3);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM warnings"), 1);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM phases "
                               "WHERE test = 'iozone-w' AND phase = 'write'"), 1);
    assert_int_equal (s_count (fixture->path, "SELECT disk_written_bytes FROM hosts LIMIT 1"),
                      4096);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM streams WHERE rate_mbps = 100"),
                      1);
    assert_int_equal (s_count (fixture->path, "SELECT last_issue_ns FROM streams LIMIT 1"),
                      NS_PER_SEC / 200);

    archive = archive_new_reader (fixture->path, err, sizeof err);
    assert_non_null (archive);
    int64_t *ids;
    size_t count;
    archive_filter_t all = { 0 };
    assert_int_equal (archive_find (archive, &all, &ids, &count, err, sizeof err), 0);
    assert_int_equal (count, 1);
    run_result_t again;
    char *dir;
    memset (&again, 0, sizeof again);
    assert_int_equal (archive_load (archive, ids [0], &again, &dir, err, sizeof err), 0);
    assert_string_equal (dir, "/r/dd-1");
    assert_string_equal (again.scenario_path, "configs/dd.ini");
    assert_string_equal (again.label, "base");
    assert_true (again.started_wall_ns == run.started_wall_ns);
    assert_int_equal (again.agent_count, 2);
    assert_string_equal (again.agents [1].hostname, "host2");
    assert_true (again.agents [1].clock_offset_ns == -2468);
    assert_true (again.agents [0].mem_bytes == 24ULL << 30);
    assert_int_equal (again.test_count, 3);
    for (size_t nbr = 0; nbr < 3; nbr++) {
        assert_string_equal (again.tests [nbr].name, run.tests [nbr].name);
        assert_int_equal (again.tests [nbr].iteration, run.tests [nbr].iteration);
        assert_true (again.tests [nbr].summary.combined_mbps == run.tests [nbr].summary.combined_mbps);
        assert_true (again.tests [nbr].summary.bytes == run.tests [nbr].summary.bytes);
        assert_true (isnan (again.tests [nbr].summary.all_running_mbps));
        assert_string_equal (again.tests [nbr].summary.disk.notation,
                             run.tests [nbr].summary.disk.notation);
        assert_int_equal (again.tests [nbr].stream_count, 0);
    }
    assert_true (isnan (again.tests [0].summary.latency_p99_ns));
    assert_true (again.tests [2].summary.latency_p99_ns == 1.5e6);
    free (dir);
    free (ids);
    run_result_clear (&again);
    archive_destroy (&archive);

    //  An import of the same run replaces it: nothing doubles.
    archive = archive_new (fixture->path, err, sizeof err);
    assert_non_null (archive);
    run.tests [0].summary.combined_mbps = 7;
    assert_int_equal (archive_import (archive, &run, "/r/moved", err, sizeof err), 0);
    assert_int_equal (archive_import (archive, &run, "/r/moved", err, sizeof err), 0);
    archive_destroy (&archive);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM runs"), 1);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM tests"), 3);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM streams"), 3);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM warnings"), 1);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM phases"), 1);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM runs WHERE results_dir = '/r/moved'"), 1);
    assert_int_equal (s_count (fixture->path, "SELECT combined_mbps FROM tests WHERE ordinal = 0"), 7);
    run_result_clear (&run);
}

//  Each filter finds the runs it says.
static void
test_filters (void **state)
{
    fixture_t *fixture = *state;
    char err [512] = "";
    archive_t *archive = archive_new (fixture->path, err, sizeof err);
    assert_non_null (archive);
    static const struct {
        const char *scenario, *kernel, *label;
        int64_t second;
    } runs [] = {
        { "configs/dd.ini", "6.1.0", "base", 1796000300 },     //  recorded first, started last
        { "configs/dd.ini", "6.1.0", "", 1796000100 },
        { "other/dd.ini", "6.2.0", "patched", 1796000200 },
        { "configs/mix.ini", "6.2.0", "", 1796000000 },
    };
    for (size_t nbr = 0; nbr < 4; nbr++) {
        run_result_t run;
        s_run (&run, runs [nbr].scenario, runs [nbr].kernel, runs [nbr].label, runs [nbr].second);
        for (size_t test = 0; nbr == 3 && test < 2; test++)
            snprintf (run.tests [test].name, sizeof run.tests [test].name, "mix3");
        assert_int_equal (archive_import (archive, &run, "/r", err, sizeof err), 0);
        run_result_clear (&run);
    }
    static const struct {
        archive_filter_t filter;    //  what is asked
        int64_t seconds [4];        //  the starts found, oldest first; 0 ends
    } cases [] = {
        { { 0 }, { 1796000000, 1796000100, 1796000200, 1796000300 } },
        { { .kernel = "6.2.0" }, { 1796000000, 1796000200 } },
        { { .label = "patched" }, { 1796000200 } },
        { { .scenario = "dd.ini" }, { 1796000100, 1796000200, 1796000300 } },
        { { .scenario = "configs/dd.ini" }, { 1796000100, 1796000300 } },
        { { .scenario = "s/dd.ini" }, { 0 } },
        { { .host = "host2" }, { 1796000000, 1796000100, 1796000200, 1796000300 } },
        { { .host = "a1", .kernel = "6.1.0" }, { 1796000100, 1796000300 } },
        { { .host = "nowhere" }, { 0 } },
        { { .test = "mix3" }, { 1796000000 } },
        { { .test = "dd1" }, { 1796000100, 1796000200, 1796000300 } },
        { { .test = "iozone-w" }, { 1796000000, 1796000100, 1796000200, 1796000300 } },
        { { .test = "iozone" }, { 0 } },
        { { .since_wall_ns = 1796000100LL * NS_PER_SEC, .until_wall_ns = 1796000300LL * NS_PER_SEC },
          { 1796000100, 1796000200 } },
    };
    for (size_t nbr = 0; nbr < sizeof cases / sizeof cases [0]; nbr++) {
        int64_t *ids;
        size_t count;
        assert_int_equal (archive_find (archive, &cases [nbr].filter, &ids, &count, err, sizeof err), 0);
        size_t expected = 0;
        while (expected < 4 && cases [nbr].seconds [expected])
            expected++;
        if (count != expected)
            fail_msg ("case %zu: %zu runs, not %zu", nbr, count, expected);
        for (size_t found = 0; found < count; found++) {
            run_result_t run;
            char *dir;
            memset (&run, 0, sizeof run);
            assert_int_equal (archive_load (archive, ids [found], &run, &dir, err, sizeof err), 0);
            assert_true (run.started_wall_ns / NS_PER_SEC == cases [nbr].seconds [found]);
            run_result_clear (&run);
            free (dir);
        }
        free (ids);
    }
    archive_destroy (&archive);
}

//  Databases that are not archives this iofleet can use.
static void
test_refusals (void **state)
{
    fixture_t *fixture = *state;
    char err [512] = "", message [512];
    //  No file: the reader says so, in words.
    assert_null (archive_new_reader (fixture->path, err, sizeof err));
    snprintf (message, sizeof message, "archive %s: No such file or directory", fixture->path);
    assert_string_equal (err, message);
    //  A file that is not a database.
    FILE *file = fopen (fixture->path, "w");
    assert_non_null (file);
    fputs ("this is not a database, not even close to one, but long enough\n", file);
    fclose (file);
    assert_null (archive_new (fixture->path, err, sizeof err));
    snprintf (message, sizeof message, "archive %s: file is not a database", fixture->path);
    assert_string_equal (err, message);
    assert_null (archive_new_reader (fixture->path, err, sizeof err));
    assert_string_equal (err, message);
    //  A database of something else.
    unlink (fixture->path);
    sqlite3 *db;
    assert_int_equal (sqlite3_open (fixture->path, &db), SQLITE_OK);
    assert_int_equal (sqlite3_exec (db, "CREATE TABLE songs (title TEXT)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close (db);
    assert_null (archive_new (fixture->path, err, sizeof err));
    assert_non_null (strstr (err, "not an iofleet archive"));
    //  An archive from a newer iofleet.
    unlink (fixture->path);
    archive_t *archive = archive_new (fixture->path, err, sizeof err);
    assert_non_null (archive);
    archive_destroy (&archive);
    assert_int_equal (sqlite3_open (fixture->path, &db), SQLITE_OK);
    assert_int_equal (sqlite3_exec (db, "UPDATE schema_version SET version = 99", NULL, NULL, NULL),
                      SQLITE_OK);
    sqlite3_close (db);
    assert_null (archive_new (fixture->path, err, sizeof err));
    snprintf (message, sizeof message, "archive %s: schema version 99 is newer than this "
              "iofleet's (%d)", fixture->path, ARCHIVE_SCHEMA_VERSION);
    assert_string_equal (err, message);
    assert_null (archive_new_reader (fixture->path, err, sizeof err));
    assert_string_equal (err, message);
}

//  An archive of schema 1, from before streams kept their stop instant
//  and last issue: a reader asks for an upgrade, a writer makes it, and
//  the new columns fill from then on.
static void
test_upgrade_from_1 (void **state)
{
    fixture_t *fixture = *state;
    char err [512] = "";
    archive_t *archive = archive_new (fixture->path, err, sizeof err);
    assert_non_null (archive);
    run_result_t run;
    s_run (&run, "configs/dd.ini", "6.1.0", "old", 1796000000);
    assert_int_equal (archive_record (archive, &run, "/r/old", 0, 1, err, sizeof err), 0);
    archive_destroy (&archive);
    sqlite3 *db;
    assert_int_equal (sqlite3_open (fixture->path, &db), SQLITE_OK);
    //  Every column a later version added goes.
    struct { const char *sql_table; const results_table_t *table; } parts [] = {
        { "runs", &results_run_table }, { "agents", &results_agent_table },
        { "tests", &results_test_table }, { "tests", &results_summary_table },
        { "streams", &results_stream_table }, { "hosts", &results_host_table },
        { "warnings", &results_warning_table }
    };
    size_t dropped = 0;
    for (size_t part = 0; part < sizeof parts / sizeof parts [0]; part++) {
        results_column_t columns [200];
        size_t count = results_schema_columns (parts [part].table, "", 0, RESULTS_ARCHIVE,
                                               columns, 200);
        for (size_t nbr = 0; nbr < count; nbr++) {
            if (columns [nbr].field->since <= 1)
                continue;
            char sql [160];
            snprintf (sql, sizeof sql, "ALTER TABLE %s DROP COLUMN %s", parts [part].sql_table,
                      columns [nbr].name);
            assert_int_equal (sqlite3_exec (db, sql, NULL, NULL, NULL), SQLITE_OK);
            dropped++;
        }
    }
    assert_true (dropped >= 2);
    assert_int_equal (sqlite3_exec (db, "UPDATE schema_version SET version = 1",
                                    NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close (db);

    assert_null (archive_new_reader (fixture->path, err, sizeof err));
    assert_non_null (strstr (err, "schema version 1 is older"));
    archive = archive_new (fixture->path, err, sizeof err);
    if (!archive)
        fail_msg ("%s", err);
    assert_int_equal (archive_record (archive, &run, "/r/old", 1, 1, err, sizeof err), 0);
    archive_destroy (&archive);
    assert_int_equal (s_count (fixture->path, "SELECT version FROM schema_version"),
                      ARCHIVE_SCHEMA_VERSION);
    //  The stream recorded before has none; the one after has its own.
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM streams "
                               "WHERE last_issue_ns IS NULL AND stop_ns IS NULL"), 1);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM streams "
                               "WHERE last_issue_ns = 5000000 AND stop_ns = 10000000"), 1);
    run_result_clear (&run);
}

//  A database another process holds: waited for, then given up, with
//  nothing written; the run's archive says so once and stops trying.
static void
test_locked (void **state)
{
    fixture_t *fixture = *state;
    char err [512] = "";
    archive_t *archive = archive_new (fixture->path, err, sizeof err);
    assert_non_null (archive);
    sqlite3 *holder;
    assert_int_equal (sqlite3_open (fixture->path, &holder), SQLITE_OK);
    assert_int_equal (sqlite3_exec (holder, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    run_result_t run;
    s_run (&run, "configs/dd.ini", "6.1.0", "", 1796000000);
    int64_t start = clock_now_ns ();
    assert_int_equal (archive_record (archive, &run, "/r", 0, 1, err, sizeof err), -1);
    int64_t waited_ms = (clock_now_ns () - start) / NS_PER_MSEC;
    assert_true (waited_ms >= ARCHIVE_BUSY_MS - 100);
    char message [512];
    snprintf (message, sizeof message, "archive %s: database is locked", fixture->path);
    assert_string_equal (err, message);
    archive_destroy (&archive);

    //  The run's side: a locked database at the start costs nothing but
    //  the archive; records are no-ops, and it says it failed.
    archive = archive_new_for_run (fixture->path, fixture->dir);
    assert_non_null (archive);
    assert_true (archive_failed (archive));
    archive_record_test (archive, &run);
    archive_destroy (&archive);
    sqlite3_exec (holder, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close (holder);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM runs"), 0);

    //  Once free, the run's archive records each test as it ends, beside
    //  the results directory when no path is given: every test it does
    //  not hold yet.
    char results [192];
    snprintf (results, sizeof results, "%s/dd-1", fixture->dir);
    assert_int_equal (mkdir (results, 0755), 0);
    archive = archive_new_for_run (NULL, results);
    assert_non_null (archive);
    assert_false (archive_failed (archive));
    run.test_count = 1;
    archive_record_test (archive, &run);
    run.test_count = 3;
    archive_record_test (archive, &run);
    assert_false (archive_failed (archive));
    archive_destroy (&archive);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM tests"), 3);
    assert_int_equal (s_count (fixture->path, "SELECT count(*) FROM tests WHERE name = 'iozone-w/write'"), 1);
    assert_false (archive_failed (NULL));
    archive_record_test (NULL, &run);
    run_result_clear (&run);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test_setup_teardown (test_round_trip, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_filters, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_refusals, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_locked, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_upgrade_from_1, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
