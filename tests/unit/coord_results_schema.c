/*  tests/unit/coord_results_schema.c: the results' field tables drive
    all four outputs. A run whose every field holds a value of its own is
    written as JSON, read back and written again (the same text: the
    reader reads every field the writer wrote), and every field is found
    under its name in the JSON, the CSV and the archive. A figure added to
    a table is thereby checked in all four without a line of this test.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../coordinator/archive/archive.h"
#include "../../coordinator/results/results_file.h"
#include "../../coordinator/results/results_schema.h"
#include "../../coordinator/report/report.h"
#include "../../coordinator/numbers/aggregate.h"
#include "render.h"
#include "scratch.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_COLUMNS_MAX 200

//  Give every field of a struct that is written a value of its own,
//  none its zero: a field the reader skipped would read back as zero.
static void
s_fill (const results_table_t *table, void *row)
{
    results_column_t columns [S_COLUMNS_MAX];
    size_t count = results_schema_columns (table, "", 0, RESULTS_CSV, columns, S_COLUMNS_MAX);
    assert_true (count <= S_COLUMNS_MAX);
    for (size_t nbr = 0; nbr < count; nbr++) {
        const results_field_t *field = columns [nbr].field;
        void *at = (void *) results_schema_field (&columns [nbr], row);
        int64_t value = (int64_t) nbr + 1;
        if (field->written_only)
            continue;               //  taken from elsewhere when read
        switch (field->kind) {
            case FIELD_TEXT: snprintf ((char *) at, field->size, "f%d", (int) value); break;
            case FIELD_STRING:
                assert_int_not_equal (asprintf ((char **) at, "s%d", (int) value), -1);
                break;
            case FIELD_I64: *(int64_t *) at = value * 1000003; break;
            case FIELD_U64: *(uint64_t *) at = (uint64_t) value * 7919; break;
            case FIELD_U32: *(uint32_t *) at = 1; break;
            case FIELD_SIZE: *(size_t *) at = (size_t) value; break;
            case FIELD_BOOL: *(bool *) at = true; break;
            case FIELD_RATE: *(double *) at = (double) value + 0.5; break;
            case FIELD_PCT: *(double *) at = 12.25; break;
            case FIELD_CLASS: *(int *) at = CLASS_NETWORK; break;
            case FIELD_FSYNC: *(int *) at = FSYNC_CLOSE; break;
            case FIELD_UNITS: *(int *) at = UNITS_MIB; break;
            default: break;         //  computed, or another field's bytes
        }
    }
}

//  A run of one agent and one test with one of everything.
static void
s_run (run_result_t *run)
{
    memset (run, 0, sizeof *run);
    s_fill (&results_run_table, run);
    run->agents = calloc (1, sizeof (agent_info_t));
    run->tests = calloc (1, sizeof (test_result_t));
    assert_non_null (run->agents);
    assert_non_null (run->tests);
    run->agent_count = 1;
    run->test_count = run->test_capacity = 1;
    s_fill (&results_agent_table, run->agents);
    test_result_t *test = &run->tests [0];
    s_fill (&results_test_table, test);
    snprintf (test->test, sizeof test->test, "its-test");
    s_fill (&results_summary_table, &test->summary);
    test->streams = calloc (1, sizeof (stream_result_t));
    test->hosts = calloc (1, sizeof (host_result_t));
    test->monitors = calloc (1, sizeof (monitor_result_t));
    assert_true (test->streams && test->hosts && test->monitors);
    test->stream_count = test->host_count = test->monitor_count = test->warning_count = 1;
    s_fill (&results_stream_table, test->streams);
    s_fill (&results_host_table, test->hosts);
    s_fill (&results_warning_table, test->warnings);
    s_fill (&results_monitor_table, test->monitors);
    msg_monitor_t point;
    memset (&point, 0, sizeof point);
    s_fill (&results_monitor_point_table, &point);
    assert_int_equal (monitor_result_add_point (test->monitors, &point), 0);
    //  A stream of requests on the host: its figures and the test's
    //  requests are written, and computed from the stream when read.
    test->streams [0].ops_writes = true;
    snprintf (test->hosts [0].agent, sizeof test->hosts [0].agent, "%s", test->streams [0].agent);
    aggregate_host_figures (test);
}

//  Every field of a table is a key of the JSON text; those but the
//  latency figures, which are written when measured (their own tests are
//  coord_latency's), and those of the flat outputs only.
static void
s_assert_keys (const results_table_t *table, const char *json)
{
    for (size_t nbr = 0; nbr < table->count; nbr++) {
        const results_field_t *field = &table->fields [nbr];
        if (field->kind == FIELD_LATENCY || field->flat_only
        ||  (field->kind == FIELD_CUSTOM && !field->scalar && strcmp (field->name, "points")
             && strcmp (field->name, "protocol_version")))
            continue;
        char key [80];
        snprintf (key, sizeof key, "\"%s\":", table->fields [nbr].name);
        if (!strstr (json, key))
            fail_msg ("%s.%s is not in the JSON", table->name, table->fields [nbr].name);
        if (table->fields [nbr].kind == FIELD_OBJECT)
            s_assert_keys (table->fields [nbr].table, json);
    }
}

//  A scratch directory in dir, and in path the file name within it.
static void
s_scratch (char *dir, size_t dirlen, char *path, size_t pathlen, const char *name)
{
    snprintf (dir, dirlen, "%s/coord-schema.XXXXXX", getenv ("TMPDIR")? getenv ("TMPDIR"): "/tmp");
    assert_non_null (mkdtemp (dir));
    snprintf (path, pathlen, "%s/%s", dir, name);
}

//  Written, read, written again: the same text, and every key there.
static void
test_json_every_field (void **state)
{
    (void) state;
    char dir [256], path [300];
    s_scratch (dir, sizeof dir, path, sizeof path, "results.json");
    run_result_t run, again;
    s_run (&run);
    char *first = results_json_text (&run);
    assert_non_null (first);
    const results_table_t *tables [] = {
        &results_run_table, &results_agent_table, &results_test_table, &results_summary_table,
        &results_stream_table, &results_host_table, &results_warning_table,
        &results_monitor_table, &results_monitor_point_table, &results_requests_table
    };
    for (size_t nbr = 0; nbr < sizeof tables / sizeof tables [0]; nbr++)
        s_assert_keys (tables [nbr], first);
    FILE *file = fopen (path, "w");
    assert_non_null (file);
    fputs (first, file);
    assert_int_equal (fclose (file), 0);
    memset (&again, 0, sizeof again);
    char err [256] = "";
    if (results_read_no_samples (path, &again, err, sizeof err))
        fail_msg ("%s", err);
    char *second = results_json_text (&again);
    assert_non_null (second);
    assert_string_equal (first, second);
    free (first);
    free (second);
    run_result_clear (&again);
    run_result_clear (&run);
    scratch_remove (dir);
}

//  The CSV: a column for every field of one value of the run, the test,
//  the stream, its agent, its host and its part in the tail, a monitor,
//  the summary, the tail and the iterations, and as many values on a row
//  (a stream's, then a monitor's).
static void
test_csv_every_field (void **state)
{
    (void) state;
    run_result_t run;
    s_run (&run);
    char *csv = render_report (&run, REPORT_FORMAT_CSV);
    assert_non_null (csv);
    size_t header_length = strcspn (csv, "\r");
    char header [8192];
    assert_true (header_length < sizeof header - 2);
    snprintf (header, sizeof header, ",%.*s,", (int) header_length, csv);
    const char *row = csv + header_length + 2;
    struct { const results_table_t *table; const char *prefix; } parts [] = {
        { &results_run_table, "run_" }, { &results_test_table, "" },
        { &results_stream_table, "" }, { &results_agent_table, "agent_" },
        { &results_host_table, "host_" }, { &results_tail_host_table, "host_tail_" },
        { &results_monitor_table, "monitor_" }, { &results_summary_table, "test_" },
        { &results_tail_table, "test_tail_" }, { &results_iterations_table, "test_iterations_" }
    };
    size_t total = 0;
    for (size_t part = 0; part < sizeof parts / sizeof parts [0]; part++) {
        results_column_t columns [S_COLUMNS_MAX];
        size_t count = results_schema_columns (parts [part].table, parts [part].prefix, 0,
                                               RESULTS_CSV, columns, S_COLUMNS_MAX);
        for (size_t nbr = 0; nbr < count; nbr++) {
            char name [80];
            snprintf (name, sizeof name, ",%s,", columns [nbr].name);
            if (!strstr (header, name))
                fail_msg ("%s is not a column of the CSV", columns [nbr].name);
        }
        total += count;
    }
    size_t header_fields = 1, rows = 0;
    for (const char *c = csv; *c != '\r'; c++)
        header_fields += *c == ',';
    assert_int_equal (header_fields, total);
    for (; *row; rows++) {
        size_t row_fields = 1;
        for (; *row && *row != '\r'; row++)
            row_fields += *row == ',';
        assert_int_equal (row_fields, total);
        row += *row? 2: 0;
    }
    assert_int_equal (rows, 2);
    free (csv);
    run_result_clear (&run);
}

//  The archive: every field it holds is a column with the row's value
//  (none of them NULL, since every one was set).
static void
test_archive_every_field (void **state)
{
    (void) state;
    char dir [256], path [300];
    s_scratch (dir, sizeof dir, path, sizeof path, "iofleet.db");
    run_result_t run;
    s_run (&run);
    char err [256] = "";
    archive_t *archive = archive_new (path, err, sizeof err);
    assert_non_null (archive);
    if (archive_record (archive, &run, dir, 0, run.test_count, err, sizeof err))
        fail_msg ("%s", err);
    archive_destroy (&archive);
    sqlite3 *db = NULL;
    assert_int_equal (sqlite3_open (path, &db), SQLITE_OK);
    struct { const char *sql_table; const results_table_t *table; } parts [] = {
        { "runs", &results_run_table }, { "agents", &results_agent_table },
        { "tests", &results_test_table }, { "tests", &results_summary_table },
        { "streams", &results_stream_table }, { "hosts", &results_host_table },
        { "warnings", &results_warning_table }
    };
    for (size_t part = 0; part < sizeof parts / sizeof parts [0]; part++) {
        results_column_t columns [S_COLUMNS_MAX];
        size_t count = results_schema_columns (parts [part].table, "", 0, RESULTS_ARCHIVE,
                                               columns, S_COLUMNS_MAX);
        assert_true (count > 0);
        for (size_t nbr = 0; nbr < count; nbr++) {
            char *sql = sqlite3_mprintf ("SELECT %s IS NOT NULL FROM %s", columns [nbr].name,
                                         parts [part].sql_table);
            sqlite3_stmt *stmt = NULL;
            if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
                fail_msg ("%s: %s", sql, sqlite3_errmsg (db));
            assert_int_equal (sqlite3_step (stmt), SQLITE_ROW);
            if (!sqlite3_column_int (stmt, 0))
                fail_msg ("%s.%s is NULL", parts [part].sql_table, columns [nbr].name);
            sqlite3_finalize (stmt);
            sqlite3_free (sql);
        }
    }
    sqlite3_close (db);
    run_result_clear (&run);
    scratch_remove (dir);
}

//  No two fields of a struct share a name, in the JSON or in the columns.
static void
test_names_unique (void **state)
{
    (void) state;
    const results_table_t *tables [] = {
        &results_run_table, &results_agent_table, &results_test_table, &results_summary_table,
        &results_class_table, &results_stream_table, &results_host_table,
        &results_warning_table, &results_monitor_table, &results_monitor_point_table,
        &results_requests_table, &results_tail_table, &results_tail_host_table,
        &results_iterations_table
    };
    for (size_t t = 0; t < sizeof tables / sizeof tables [0]; t++) {
        results_column_t columns [S_COLUMNS_MAX];
        size_t count = results_schema_columns (tables [t], "", 0, RESULTS_CSV, columns,
                                               S_COLUMNS_MAX);
        for (size_t a = 0; a < tables [t]->count; a++)
            for (size_t b = a + 1; b < tables [t]->count; b++)
                assert_string_not_equal (tables [t]->fields [a].name, tables [t]->fields [b].name);
        for (size_t a = 0; a < count; a++)
            for (size_t b = a + 1; b < count; b++)
                assert_string_not_equal (columns [a].name, columns [b].name);
    }
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_json_every_field),
        cmocka_unit_test (test_csv_every_field),
        cmocka_unit_test (test_archive_every_field),
        cmocka_unit_test (test_names_unique),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
