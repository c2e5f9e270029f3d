/*  coordinator/archive/archive_schema.c: the archive's tables and the SQL they
    make; see archive_schema.h.
*/
#include "archive_schema.h"
#include "archive.h"
#include "../numbers/aggregate.h"
#include "../results/results.h"
#include "../../proto/clock.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

//  A column from a field of a struct.
#define COL(name, kind, type, field) COL_SINCE (name, kind, type, field, 0)
//  One that schema version `since` added.
#define COL_SINCE(name, kind, type, field, since) \
    { name, kind, offsetof (type, field), sizeof (((type *) 0)->field), NULL, since }
//  A figure computed from the row.
#define DERIVED(name, function) { name, COLUMN_DERIVED, 0, 0, function, 0 }
#define COUNT(columns) (sizeof (columns) / sizeof ((columns) [0]))

//  What an id column of a child table says.
#define S_RUN_CHILD  "run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE, " \
                     "ordinal INTEGER NOT NULL"
#define S_TEST_CHILD "test_id INTEGER NOT NULL REFERENCES tests (id) ON DELETE CASCADE"


//  --------------------------------------------------------------------------
//  The tables

static const column_t s_run_columns [] = {
    COL ("scenario", COLUMN_TEXT, run_result_t, scenario_path),
    COL ("started_wall_ns", COLUMN_I64, run_result_t, started_wall_ns),
    COL ("started_utc", COLUMN_UTC, run_result_t, started_wall_ns),
    COL ("label", COLUMN_TEXT, run_result_t, label),
    COL ("units", COLUMN_INT, run_result_t, units),
};

const archive_table_t archive_runs = {
    "runs", 1, "results_dir TEXT NOT NULL", "results_dir", 1,
    s_run_columns, COUNT (s_run_columns), ", UNIQUE (scenario, started_wall_ns)", NULL
};

static const column_t s_agent_columns [] = {
    COL ("name", COLUMN_TEXT, agent_info_t, name),
    COL ("endpoint", COLUMN_TEXT, agent_info_t, endpoint),
    COL ("hostname", COLUMN_TEXT, agent_info_t, hostname),
    COL ("kernel", COLUMN_TEXT, agent_info_t, kernel),
    COL ("cpus", COLUMN_U32, agent_info_t, cpus),
    COL ("mem_bytes", COLUMN_U64, agent_info_t, mem_bytes),
    COL ("version", COLUMN_TEXT, agent_info_t, version),
    COL ("insecure", COLUMN_BOOL, agent_info_t, insecure),
    COL ("clock_offset_ns", COLUMN_I64, agent_info_t, clock_offset_ns),
    COL ("clock_rtt_ns", COLUMN_I64, agent_info_t, clock_rtt_ns),
};

const archive_table_t archive_agents = {
    "agents", 1, S_RUN_CHILD, "run_id, ordinal", 2,
    s_agent_columns, COUNT (s_agent_columns), ", UNIQUE (run_id, name)", NULL
};

static const column_t s_test_columns [] = {
    COL ("name", COLUMN_TEXT, test_result_t, name),
    COL ("iteration", COLUMN_U32, test_result_t, iteration),
    COL ("announced_wall_ns", COLUMN_I64, test_result_t, announced_wall_ns),
    COL ("announced_utc", COLUMN_UTC, test_result_t, announced_wall_ns),
    COL ("streams", COLUMN_U32, test_result_t, summary.streams),
    COL ("hosts", COLUMN_U32, test_result_t, summary.hosts),
    COL ("failed_streams", COLUMN_U32, test_result_t, summary.failed_streams),
    COL ("lost_streams", COLUMN_U32, test_result_t, summary.lost_streams),
    COL ("bytes", COLUMN_U64, test_result_t, summary.bytes),
    COL ("first_start_ns", COLUMN_I64, test_result_t, summary.first_start_ns),
    COL ("last_end_ns", COLUMN_I64, test_result_t, summary.last_end_ns),
    COL ("combined_mbps", COLUMN_REAL, test_result_t, summary.combined_mbps),
    COL ("all_running_mbps", COLUMN_REAL, test_result_t, summary.all_running_mbps),
    COL ("all_running_ns", COLUMN_I64, test_result_t, summary.all_running_ns),
    COL ("host_skew_ns", COLUMN_I64, test_result_t, summary.host_skew_ns),
    COL ("stream_skew_ns", COLUMN_I64, test_result_t, summary.stream_skew_ns),
    COL ("clock_uncertainty_ns", COLUMN_I64, test_result_t, summary.clock_uncertainty_ns),
    COL ("disk_streams", COLUMN_U32, test_result_t, summary.disk.streams),
    COL ("disk_bytes", COLUMN_U64, test_result_t, summary.disk.bytes),
    COL ("disk_mbps", COLUMN_REAL, test_result_t, summary.disk.combined_mbps),
    COL ("disk_notation", COLUMN_TEXT, test_result_t, summary.disk.notation),
    COL ("network_streams", COLUMN_U32, test_result_t, summary.network.streams),
    COL ("network_bytes", COLUMN_U64, test_result_t, summary.network.bytes),
    COL ("network_mbps", COLUMN_REAL, test_result_t, summary.network.combined_mbps),
    COL ("network_notation", COLUMN_TEXT, test_result_t, summary.network.notation),
    COL ("hosts_measured", COLUMN_U32, test_result_t, summary.hosts_measured),
    COL ("usr_pct", COLUMN_REAL, test_result_t, summary.usr_pct),
    COL ("sys_pct", COLUMN_REAL, test_result_t, summary.sys_pct),
    COL ("iowait_pct", COLUMN_REAL, test_result_t, summary.iowait_pct),
    COL ("latency_p99_ns", COLUMN_REAL, test_result_t, summary.latency_p99_ns),
};

const archive_table_t archive_tests = {
    "tests", 1, S_RUN_CHILD, "run_id, ordinal", 2,
    s_test_columns, COUNT (s_test_columns), ", UNIQUE (run_id, name, iteration)", NULL
};

//  A test of several phases is one test row per phase, "iozone-w/write";
//  this says which test and phase each is.
const archive_table_t archive_phases = {
    "phases", 1, S_TEST_CHILD ", test TEXT NOT NULL, phase TEXT NOT NULL", "test_id, test, phase",
    3, NULL, 0, ", UNIQUE (test_id)", NULL
};

static const column_t s_host_columns [] = {
    COL ("agent", COLUMN_TEXT, host_result_t, agent),
    COL ("received", COLUMN_BOOL, host_result_t, received),
    COL ("window_start_ns", COLUMN_I64, host_result_t, window_start_ns),
    COL ("window_end_ns", COLUMN_I64, host_result_t, window_end_ns),
    COL ("settle_end_ns", COLUMN_I64, host_result_t, settle_end_ns),
    COL ("usr_pct", COLUMN_REAL, host_result_t, usr_pct),
    COL ("sys_pct", COLUMN_REAL, host_result_t, sys_pct),
    COL ("iowait_pct", COLUMN_REAL, host_result_t, iowait_pct),
    COL ("idle_pct", COLUMN_REAL, host_result_t, idle_pct),
    COL ("stream_bytes", COLUMN_U64, host_result_t, stream_bytes),
#define S_COUNTER(name) COL (#name, COLUMN_U64, host_result_t, counters.name),
    MSG_HOST_COUNTERS (S_COUNTER)
#undef S_COUNTER
};

const archive_table_t archive_hosts = {
    "hosts", 1, S_TEST_CHILD, "test_id", 1,
    s_host_columns, COUNT (s_host_columns), "", "test_id"
};

//  A stream's rate, as the reports compute it.
static double
s_stream_rate (const void *row)
{
    return aggregate_stream_rate_mbps ((const stream_result_t *) row);
}

//  A stream's rate up to its last write.
static double
s_stream_write_rate (const void *row)
{
    return aggregate_stream_write_rate_mbps ((const stream_result_t *) row);
}

static const column_t s_stream_columns [] = {
    COL ("agent", COLUMN_TEXT, stream_result_t, agent),
    COL ("job", COLUMN_TEXT, stream_result_t, job),
    COL ("class", COLUMN_CLASS, stream_result_t, job_class),
    COL ("stream", COLUMN_U32, stream_result_t, index),
    COL ("path", COLUMN_STRING, stream_result_t, path),
    COL ("finished", COLUMN_BOOL, stream_result_t, finished),
    COL ("lost", COLUMN_BOOL, stream_result_t, lost),
    COL ("bytes", COLUMN_U64, stream_result_t, bytes),
    COL ("start_ns", COLUMN_I64, stream_result_t, start_ns),
    COL_SINCE ("stop_ns", COLUMN_I64, stream_result_t, stop_ns, 2),
    COL_SINCE ("last_issue_ns", COLUMN_I64, stream_result_t, last_issue_ns, 2),
    COL ("last_write_ns", COLUMN_I64, stream_result_t, last_write_ns),
    COL ("end_ns", COLUMN_I64, stream_result_t, end_ns),
    DERIVED ("rate_mbps", s_stream_rate),
    DERIVED ("write_rate_mbps", s_stream_write_rate),
    COL ("usr_ns", COLUMN_I64, stream_result_t, usr_ns),
    COL ("sys_ns", COLUMN_I64, stream_result_t, sys_ns),
    COL ("clock_uncertainty_ns", COLUMN_I64, stream_result_t, clock_uncertainty_ns),
    COL ("error", COLUMN_STRING, stream_result_t, error),
    COL ("samples", COLUMN_SIZE, stream_result_t, sample_count),
    COL ("direct", COLUMN_BOOL, stream_result_t, direct),
    COL ("fsync", COLUMN_FSYNC, stream_result_t, fsync_mode),
};

const archive_table_t archive_streams = {
    "streams", 1, S_TEST_CHILD, "test_id", 1,
    s_stream_columns, COUNT (s_stream_columns), "", "test_id"
};

static const column_t s_warning_columns [] = {
    COL ("kind", COLUMN_TEXT, warning_t, kind),
    COL ("agent", COLUMN_TEXT, warning_t, agent),
    COL ("text", COLUMN_TEXT, warning_t, text),
};

const archive_table_t archive_warnings = {
    "warnings", 1, S_TEST_CHILD, "test_id", 1,
    s_warning_columns, COUNT (s_warning_columns), "", "test_id"
};

//  Every table, parents before children.
static const archive_table_t *const s_tables [] = {
    &archive_runs, &archive_agents, &archive_tests, &archive_phases,
    &archive_hosts, &archive_streams, &archive_warnings
};


//  --------------------------------------------------------------------------
//  SQL

//  A column's SQL type.
static const char *
s_sql_type (column_type_t type)
{
    switch (type) {
        case COLUMN_TEXT: case COLUMN_STRING: case COLUMN_CLASS: case COLUMN_FSYNC:
        case COLUMN_UTC:
            return "TEXT";
        case COLUMN_REAL: case COLUMN_DERIVED:
            return "REAL";
        default:
            return "INTEGER";
    }
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

//  CREATE TABLE with the columns a schema version had.
static char *
s_create_sql (const archive_table_t *table, int version)
{
    s_sql_t sql;
    if (!s_sql_open (&sql))
        return NULL;
    fprintf (sql.stream, "CREATE TABLE %s (id INTEGER PRIMARY KEY, %s", table->name, table->bound);
    for (size_t nbr = 0; nbr < table->column_count; nbr++)
        if (s_since (table->columns [nbr].since) <= version)
            fprintf (sql.stream, ", %s %s", table->columns [nbr].name,
                     s_sql_type (table->columns [nbr].type));
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
            for (size_t column = 0; column < table->column_count; column++)
                if (s_since (table->columns [column].since) == version
                &&  s_since (table->since) < version
                &&  (asprintf (&sql, "ALTER TABLE %s ADD COLUMN %s %s", table->name,
                               table->columns [column].name,
                               s_sql_type (table->columns [column].type)) < 0
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
    for (size_t nbr = 0; nbr < table->column_count; nbr++)
        fprintf (sql.stream, ", %s", table->columns [nbr].name);
    fprintf (sql.stream, ") VALUES (");
    for (size_t nbr = 0; nbr < (size_t) table->bound_count + table->column_count; nbr++)
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
    for (size_t nbr = 0; nbr < table->column_count; nbr++)
        fprintf (sql.stream, "%s%s", nbr? ", ": "", table->columns [nbr].name);
    fprintf (sql.stream, " FROM %s WHERE %s", table->name, where);
    return s_sql_close (&sql);
}


//  --------------------------------------------------------------------------
//  Rows

//  An instant in ISO 8601 UTC with milliseconds, as results.json has it.
static void
s_utc (int64_t wall_ns, char *buf, size_t buflen)
{
    time_t seconds = (time_t) (wall_ns / NS_PER_SEC);
    struct tm utc;
    char stamp [40];
    buf [0] = 0;
    if (wall_ns >= 0 && gmtime_r (&seconds, &utc)
    &&  strftime (stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc))
        snprintf (buf, buflen, "%s.%03dZ", stamp, (int) ((wall_ns % NS_PER_SEC) / NS_PER_MSEC));
}

//  Bind a row's fields to an INSERT's parameters.
int
archive_bind_row (sqlite3_stmt *stmt, int first, const archive_table_t *table, const void *row)
{
    int failed = SQLITE_OK;
    for (size_t nbr = 0; nbr < table->column_count; nbr++) {
        const column_t *column = &table->columns [nbr];
        const char *field = (const char *) row + column->offset;
        int param = first + (int) nbr;
        int rc = SQLITE_OK;
        double real = NAN;
        char utc [48];
        switch (column->type) {
            case COLUMN_TEXT:
                rc = sqlite3_bind_text (stmt, param, field, -1, SQLITE_TRANSIENT);
                break;
            case COLUMN_STRING: {
                const char *text = *(char *const *) field;
                rc = sqlite3_bind_text (stmt, param, text? text: "", -1, SQLITE_TRANSIENT);
                break;
            }
            case COLUMN_I64:
                rc = sqlite3_bind_int64 (stmt, param, *(const int64_t *) field);
                break;
            case COLUMN_U64: {
                uint64_t value = *(const uint64_t *) field;
                rc = sqlite3_bind_int64 (stmt, param, value > INT64_MAX? INT64_MAX: (int64_t) value);
                break;
            }
            case COLUMN_U32:
                rc = sqlite3_bind_int64 (stmt, param, *(const uint32_t *) field);
                break;
            case COLUMN_SIZE:
                rc = sqlite3_bind_int64 (stmt, param, (int64_t) *(const size_t *) field);
                break;
            case COLUMN_INT:
                rc = sqlite3_bind_int (stmt, param, *(const int *) field);
                break;
            case COLUMN_BOOL:
                rc = sqlite3_bind_int (stmt, param, *(const bool *) field);
                break;
            case COLUMN_CLASS:
                rc = sqlite3_bind_text (stmt, param, *(const int *) field == CLASS_NETWORK?
                                        "network": "disk", -1, SQLITE_STATIC);
                break;
            case COLUMN_FSYNC:
                rc = sqlite3_bind_text (stmt, param, jobspec_fsync_name (*(const int *) field),
                                        -1, SQLITE_STATIC);
                break;
            case COLUMN_UTC:
                s_utc (*(const int64_t *) field, utc, sizeof utc);
                rc = utc [0]? sqlite3_bind_text (stmt, param, utc, -1, SQLITE_TRANSIENT)
                            : sqlite3_bind_null (stmt, param);
                break;
            case COLUMN_REAL:
            case COLUMN_DERIVED:
                real = column->type == COLUMN_REAL? *(const double *) field: column->derive (row);
                rc = isfinite (real)? sqlite3_bind_double (stmt, param, real)
                                    : sqlite3_bind_null (stmt, param);
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
    for (size_t nbr = 0; nbr < table->column_count; nbr++) {
        const column_t *column = &table->columns [nbr];
        char *field = (char *) row + column->offset;
        int index = first + (int) nbr;
        int64_t integer = sqlite3_column_int64 (stmt, index);
        const char *text = (const char *) sqlite3_column_text (stmt, index);
        switch (column->type) {
            case COLUMN_TEXT:
                snprintf (field, column->size, "%s", text? text: "");
                break;
            case COLUMN_STRING:
                *(char **) field = text && text [0]? strdup (text): NULL;
                if (text && text [0] && !*(char **) field)
                    failed = -1;
                break;
            case COLUMN_I64: *(int64_t *) field = integer; break;
            case COLUMN_U64: *(uint64_t *) field = integer < 0? 0: (uint64_t) integer; break;
            case COLUMN_U32: *(uint32_t *) field = (uint32_t) integer; break;
            case COLUMN_SIZE: *(size_t *) field = integer < 0? 0: (size_t) integer; break;
            case COLUMN_INT: *(int *) field = (int) integer; break;
            case COLUMN_BOOL: *(bool *) field = integer != 0; break;
            case COLUMN_CLASS:
                *(int *) field = text && !strcmp (text, "network")? CLASS_NETWORK: CLASS_DISK;
                break;
            case COLUMN_FSYNC:
                *(int *) field = FSYNC_END;
                for (int mode = FSYNC_NONE; text && mode <= FSYNC_CLOSE; mode++)
                    if (!strcmp (text, jobspec_fsync_name (mode)))
                        *(int *) field = mode;
                break;
            case COLUMN_REAL:
                *(double *) field = sqlite3_column_type (stmt, index) == SQLITE_NULL?
                                    NAN: sqlite3_column_double (stmt, index);
                break;
            case COLUMN_UTC:
            case COLUMN_DERIVED:
                break;              //  derived from other columns
        }
    }
    return failed;
}
