/*  coordinator/archive/archive_schema.h: the archive's tables, each described
    once by a table of columns that drives CREATE TABLE, INSERT and the
    SELECT that reads rows back, and the archive's struct; private to
    archive*.c.

    A column is a field of the struct a row comes from, as the struct's
    table in results_schema.h describes it, with the schema version that
    added it, so that a newer schema is reached from an older one by
    ALTER TABLE ADD COLUMN for every column added since, and a figure
    added to the results is one row of that table.
*/
#ifndef IOFLEET_ARCHIVE_SCHEMA_H
#define IOFLEET_ARCHIVE_SCHEMA_H

#include "../results/results_schema.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

struct _archive_t {
    sqlite3 *db;                    //  the database, NULL once a run's archive failed
    char *path;                     //  its file
    char *results_dir;              //  a run's results directory, absolute; or NULL
    bool failed;                    //  a run's archive could not record something
    size_t recorded;                //  a run's tests it holds, the first ones
};

//  "archive PATH: what: sqlite's message" into err; what may be NULL.
void archive_error (const char *path, sqlite3 *db, const char *what, char *err, size_t errlen);

//  One table: id, the columns the caller binds, then the row's columns:
//  the fields of its results struct that the archive holds
//  (results_schema.h), each with the schema version that added it.
typedef struct {
    const char *name;               //  table name
    int since;                      //  schema version that added it; 0 means 1
    const char *bound;              //  definitions of the caller's columns
    const char *bound_names;        //  their names, for INSERT
    int bound_count;                //  how many
    const results_table_t *row;     //  the struct a row comes from, NULL for none
    const results_table_t *nested;  //  a struct within it whose columns follow, or NULL
    size_t nested_offset;           //  where that one is
    const char *constraints;        //  after the columns, or ""
    const char *index;              //  a column to index, or NULL
} archive_table_t;

extern const archive_table_t archive_runs;      //  run_result_t
extern const archive_table_t archive_agents;    //  agent_info_t
extern const archive_table_t archive_tests;     //  test_result_t with its summary
extern const archive_table_t archive_phases;    //  no struct: test, phase
extern const archive_table_t archive_hosts;     //  host_result_t with every counter
extern const archive_table_t archive_streams;   //  stream_result_t
extern const archive_table_t archive_warnings;  //  warning_t

//  Bring the schema from version `from` (0: an empty database) to
//  ARCHIVE_SCHEMA_VERSION, inside the caller's transaction.
int archive_schema_upgrade (sqlite3 *db, int from, char *err, size_t errlen);

//  "INSERT INTO t (bound..., columns...) VALUES (?, ...)", and
//  "SELECT columns... FROM t WHERE where", for the caller to free; NULL
//  when memory ran out.
char *archive_insert_sql (const archive_table_t *table);
char *archive_select_sql (const archive_table_t *table, const char *where);

//  Bind a row's columns from parameter first on; returns the last
//  sqlite3_bind_ result that failed, or SQLITE_OK.
int archive_bind_row (sqlite3_stmt *stmt, int first, const archive_table_t *table,
                      const void *row);

//  Read a row's columns from result column first on into row. Returns 0, or
//  -1 when a string found no memory (what was read is the row's to free).
int archive_read_row (sqlite3_stmt *stmt, int first, const archive_table_t *table, void *row);

#endif
