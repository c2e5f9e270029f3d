/*  coordinator/archive/archive_schema.c: the archive's tables and the SQL they
    make; see archive_schema.h.
*/
#include "archive_schema.h"
#include "archive.h"
#include "../numbers/aggregate.h"
#include "../results/results.h"
#include "../results/results_schema.h"
#include "../../proto/clock.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

//  The most columns a table has.
#define S_COLUMNS_MAX 160

//  A table's columns, computed from its structs' tables.
typedef struct {
    results_column_t column [S_COLUMNS_MAX];
    size_t count;
} s_columns_t;

//  What an id column of a child table says.
#define S_RUN_CHILD  "run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE, " \
                     "ordinal INTEGER NOT NULL"
#define S_TEST_CHILD "test_id INTEGER NOT NULL REFERENCES tests (id) ON DELETE CASCADE"


//  --------------------------------------------------------------------------
//  The tables

const archive_table_t archive_runs = {
    .name = "runs", .bound = "results_dir TEXT NOT NULL", .bound_names = "results_dir",
    .bound_count = 1, .row = &results_run_table,
    .constraints = ", UNIQUE (scenario, started_wall_ns)"
};

const archive_table_t archive_agents = {
    .name = "agents", .bound = S_RUN_CHILD, .bound_names = "run_id, ordinal", .bound_count = 2,
    .row = &results_agent_table, .constraints = ", UNIQUE (run_id, name)"
};

//  A test's row holds its summary's figures too.
const archive_table_t archive_tests = {
    .name = "tests", .bound = S_RUN_CHILD, .bound_names = "run_id, ordinal", .bound_count = 2,
    .row = &results_test_table, .nested = &results_summary_table,
    .nested_offset = offsetof (test_result_t, summary),
    .constraints = ", UNIQUE (run_id, name, iteration)"
};

//  A test of several phases is one test row per phase, "iozone-w/write";
//  this says which test and phase each is.
const archive_table_t archive_phases = {
    .name = "phases", .bound = S_TEST_CHILD ", test TEXT NOT NULL, phase TEXT NOT NULL",
    .bound_names = "test_id, test, phase", .bound_count = 3, .constraints = ", UNIQUE (test_id)"
};

const archive_table_t archive_hosts = {
    .name = "hosts", .bound = S_TEST_CHILD, .bound_names = "test_id", .bound_count = 1,
    .row = &results_host_table, .constraints = "", .index = "test_id"
};

const archive_table_t archive_streams = {
    .name = "streams", .bound = S_TEST_CHILD, .bound_names = "test_id", .bound_count = 1,
    .row = &results_stream_table, .constraints = "", .index = "test_id"
};

const archive_table_t archive_warnings = {
    .name = "warnings", .bound = S_TEST_CHILD, .bound_names = "test_id", .bound_count = 1,
    .row = &results_warning_table, .constraints = "", .index = "test_id"
};

//  Every table, parents before children.
static const archive_table_t *const s_tables [] = {
    &archive_runs, &archive_agents, &archive_tests, &archive_phases,
    &archive_hosts, &archive_streams, &archive_warnings
};


//  --------------------------------------------------------------------------
//  SQL

//  The columns of a table's row: its struct's, then its nested struct's.
static s_columns_t
s_columns (const archive_table_t *table)
{
    s_columns_t columns = { .count = 0 };
    if (table->row)
        columns.count = results_schema_columns (table->row, "", 0, RESULTS_ARCHIVE,
                                                columns.column, S_COLUMNS_MAX);
    if (table->nested)
        columns.count += results_schema_columns (table->nested, "", table->nested_offset,
                                                 RESULTS_ARCHIVE, columns.column + columns.count,
                                                 S_COLUMNS_MAX - columns.count);
    assert (columns.count <= S_COLUMNS_MAX);
    return columns;
}

//  A column's SQL type.
static const char *
s_sql_type (const results_column_t *column)
{
    switch (column->field->kind) {
        case FIELD_TEXT: case FIELD_STRING: case FIELD_CLASS: case FIELD_FSYNC: case FIELD_UTC:
            return "TEXT";
        case FIELD_RATE: case FIELD_PCT: case FIELD_DERIVED:
            return "REAL";
        default:
            return "INTEGER";
    }
}

//  The version a column came with.
static int
s_column_since (const results_column_t *column)
{
    return column->field->since? column->field->since: 1;
}

//  The version a column or table came with.
static int
s_since (int since)
{
    return since? since: 1;
}

//  Text built in memory, for the caller to free; NULL when memory ran out.
typedef struct {
    char *text;                     //  what was written
    size_t length;                  //  its length
    FILE *stream;                   //  open_memstream over it
} s_sql_t;

//  Start building SQL text.
static bool
s_sql_open (s_sql_t *sql)
{
    sql->text = NULL;
    sql->stream = open_memstream (&sql->text, &sql->length);
    return sql->stream != NULL;
}

//  The SQL text built, for the caller to free; NULL on failure.
static char *
s_sql_close (s_sql_t *sql)
{
    if (fclose (sql->stream)) {
        free (sql->text);
        return NULL;
    }
    return sql->text;
}

//  Run one statement of SQL text, freeing it.
static int
s_exec (sqlite3 *db, char *sql, char *err, size_t errlen)
{
    if (!sql) {
        snprintf (err, errlen, "out of memory");
        return -1;
    }
    char *message = NULL;
    int rc = sqlite3_exec (db, sql, NULL, NULL, &message);
    if (rc != SQLITE_OK)
        snprintf (err, errlen, "%s", message? message: sqlite3_errstr (rc));
    sqlite3_free (message);
    free (sql);
    return rc == SQLITE_OK? 0: -1;
}

//  ", NAME" (with typed, ", NAME TYPE") of each column of table that
//  schema version had.
static void
s_column_list (FILE *stream, const archive_table_t *table, int version, bool typed)
{
    s_columns_t columns = s_columns (table);
    for (size_t nbr = 0; nbr < columns.count; nbr++) {
        const results_column_t *column = &columns.column [nbr];
        if (s_column_since (column) > version)
            continue;
        fprintf (stream, ", %s", column->name);
        if (typed)
            fprintf (stream, " %s", s_sql_type (column));
    }
}

//  CREATE TABLE with the columns a schema version had.
static char *
s_create_sql (const archive_table_t *table, int version)
{
    s_sql_t sql;
    if (!s_sql_open (&sql))
        return NULL;
    fprintf (sql.stream, "CREATE TABLE %s (id INTEGER PRIMARY KEY, %s", table->name, table->bound);
    s_column_list (sql.stream, table, version, true);
    fprintf (sql.stream, "%s)", table->constraints);
    return s_sql_close (&sql);
}

//  Bring the schema up, one version at a time.
int
archive_schema_upgrade (sqlite3 *db, int from, char *err, size_t errlen)
{
    if (from == 0
    &&  s_exec (db, strdup ("CREATE TABLE schema_version (version INTEGER NOT NULL);"
                            "INSERT INTO schema_version VALUES (0)"), err, errlen))
        return -1;
    for (int version = from + 1; version <= ARCHIVE_SCHEMA_VERSION; version++) {
        for (size_t nbr = 0; nbr < sizeof s_tables / sizeof s_tables [0]; nbr++) {
            const archive_table_t *table = s_tables [nbr];
            char *sql = NULL;
            if (s_since (table->since) == version) {
                if (s_exec (db, s_create_sql (table, version), err, errlen))
                    return -1;
                if (table->index && (asprintf (&sql, "CREATE INDEX %s_%s ON %s (%s)", table->name,
                                               table->index, table->name, table->index) < 0
                                     || s_exec (db, sql, err, errlen)))
                    return -1;
                continue;
            }
            //  A table of an older version gets the columns added since.
            s_columns_t columns = s_columns (table);
            for (size_t nbr = 0; nbr < columns.count; nbr++)
                if (s_column_since (&columns.column [nbr]) == version
                &&  s_since (table->since) < version
                &&  (asprintf (&sql, "ALTER TABLE %s ADD COLUMN %s %s", table->name,
                               columns.column [nbr].name, s_sql_type (&columns.column [nbr])) < 0
                     || s_exec (db, sql, err, errlen)))
                    return -1;
        }
    }
    char *sql = NULL;
    if (asprintf (&sql, "UPDATE schema_version SET version = %d", ARCHIVE_SCHEMA_VERSION) < 0)
        sql = NULL;
    return s_exec (db, sql, err, errlen);
}

//  The INSERT of one row of a table.
char *
archive_insert_sql (const archive_table_t *table)
{
    s_sql_t sql;
    if (!s_sql_open (&sql))
        return NULL;
    fprintf (sql.stream, "INSERT INTO %s (%s", table->name, table->bound_names);
    s_column_list (sql.stream, table, ARCHIVE_SCHEMA_VERSION, false);
    s_columns_t columns = s_columns (table);
    fprintf (sql.stream, ") VALUES (");
    for (size_t nbr = 0; nbr < (size_t) table->bound_count + columns.count; nbr++)
        fprintf (sql.stream, "%s?", nbr? ", ": "");
    fprintf (sql.stream, ")");
    return s_sql_close (&sql);
}

//  The SELECT of a table's columns.
char *
archive_select_sql (const archive_table_t *table, const char *where)
{
    s_sql_t sql;
    if (!s_sql_open (&sql))
        return NULL;
    fprintf (sql.stream, "SELECT ");
    s_columns_t columns = s_columns (table);
    for (size_t nbr = 0; nbr < columns.count; nbr++)
        fprintf (sql.stream, "%s%s", nbr? ", ": "", columns.column [nbr].name);
    fprintf (sql.stream, " FROM %s WHERE %s", table->name, where);
    return s_sql_close (&sql);
}


//  --------------------------------------------------------------------------
//  Rows

//  Bind a row's fields to an INSERT's parameters.
int
archive_bind_row (sqlite3_stmt *stmt, int first, const archive_table_t *table, const void *row)
{
    int failed = SQLITE_OK;
    s_columns_t columns = s_columns (table);
    for (size_t nbr = 0; nbr < columns.count; nbr++) {
        const results_column_t *column = &columns.column [nbr];
        const void *field = results_schema_field (column, row);
        int param = first + (int) nbr;
        int rc = SQLITE_OK;
        double real = NAN;
        char utc [48];
        switch (column->field->kind) {
            case FIELD_TEXT:
                rc = sqlite3_bind_text (stmt, param, field, -1, SQLITE_TRANSIENT);
                break;
            case FIELD_STRING: {
                const char *text = *(char *const *) field;
                rc = sqlite3_bind_text (stmt, param, text? text: "", -1, SQLITE_TRANSIENT);
                break;
            }
            case FIELD_I64:
                rc = sqlite3_bind_int64 (stmt, param, *(const int64_t *) field);
                break;
            case FIELD_U64: {
                uint64_t value = *(const uint64_t *) field;
                rc = sqlite3_bind_int64 (stmt, param, value > INT64_MAX? INT64_MAX: (int64_t) value);
                break;
            }
            case FIELD_U32:
                rc = sqlite3_bind_int64 (stmt, param, *(const uint32_t *) field);
                break;
            case FIELD_SIZE:
                rc = sqlite3_bind_int64 (stmt, param, (int64_t) *(const size_t *) field);
                break;
            case FIELD_UNITS:
                rc = sqlite3_bind_int (stmt, param, *(const int *) field);
                break;
            case FIELD_BOOL:
                rc = sqlite3_bind_int (stmt, param, *(const bool *) field);
                break;
            case FIELD_CLASS:
                rc = sqlite3_bind_text (stmt, param, *(const int *) field == CLASS_NETWORK?
                                        "network": "disk", -1, SQLITE_STATIC);
                break;
            case FIELD_FSYNC:
                rc = sqlite3_bind_text (stmt, param, jobspec_fsync_name (*(const int *) field),
                                        -1, SQLITE_STATIC);
                break;
            case FIELD_UTC:
                results_schema_utc (*(const int64_t *) field, utc, sizeof utc);
                rc = utc [0]? sqlite3_bind_text (stmt, param, utc, -1, SQLITE_TRANSIENT)
                            : sqlite3_bind_null (stmt, param);
                break;
            case FIELD_RATE:
            case FIELD_PCT:
            case FIELD_DERIVED:
                real = column->field->kind == FIELD_DERIVED?
                       column->field->derive (results_schema_holder (column, row)):
                       *(const double *) field;
                rc = isfinite (real)? sqlite3_bind_double (stmt, param, real)
                                    : sqlite3_bind_null (stmt, param);
                break;
            case FIELD_SECONDS: case FIELD_LATENCY: case FIELD_OBJECT: case FIELD_CUSTOM:
                assert (false);     //  results_schema_columns leaves them out
                break;
        }
        if (rc != SQLITE_OK)
            failed = rc;
    }
    return failed;
}

//  Read a SELECT's columns into a row's fields.
int
archive_read_row (sqlite3_stmt *stmt, int first, const archive_table_t *table, void *row)
{
    int failed = 0;
    s_columns_t columns = s_columns (table);
    for (size_t nbr = 0; nbr < columns.count; nbr++) {
        const results_column_t *column = &columns.column [nbr];
        char *field = (char *) results_schema_field (column, row);
        int index = first + (int) nbr;
        int64_t integer = sqlite3_column_int64 (stmt, index);
        const char *text = (const char *) sqlite3_column_text (stmt, index);
        switch (column->field->kind) {
            case FIELD_TEXT:
                snprintf (field, column->field->size, "%s", text? text: "");
                break;
            case FIELD_STRING:
                *(char **) field = text && text [0]? strdup (text): NULL;
                if (text && text [0] && !*(char **) field)
                    failed = -1;
                break;
            case FIELD_I64: *(int64_t *) field = integer; break;
            case FIELD_U64: *(uint64_t *) field = integer < 0? 0: (uint64_t) integer; break;
            case FIELD_U32: *(uint32_t *) field = (uint32_t) integer; break;
            case FIELD_SIZE: *(size_t *) field = integer < 0? 0: (size_t) integer; break;
            case FIELD_UNITS: *(int *) field = (int) integer; break;
            case FIELD_BOOL: *(bool *) field = integer != 0; break;
            case FIELD_CLASS:
                *(int *) field = text && !strcmp (text, "network")? CLASS_NETWORK: CLASS_DISK;
                break;
            case FIELD_FSYNC:
                *(int *) field = FSYNC_END;
                for (int mode = FSYNC_NONE; text && mode <= FSYNC_CLOSE; mode++)
                    if (!strcmp (text, jobspec_fsync_name (mode)))
                        *(int *) field = mode;
                break;
            case FIELD_RATE:
            case FIELD_PCT:
                *(double *) field = sqlite3_column_type (stmt, index) == SQLITE_NULL?
                                    NAN: sqlite3_column_double (stmt, index);
                break;
            case FIELD_UTC: case FIELD_DERIVED: case FIELD_SECONDS: case FIELD_LATENCY:
            case FIELD_OBJECT: case FIELD_CUSTOM:
                break;              //  derived from other columns, or not archived
        }
    }
    return failed;
}
