/*  coordinator/archive/archive_schema.h: the archive's tables, each described
    once by a table of columns that drives CREATE TABLE, INSERT and the
    SELECT that reads rows back, and the archive's struct; private to
    archive*.c.

    A column maps a field of the struct a row comes from (results.h) to
    a column of the same name, with the schema version that added it, so
    that a newer schema is reached from an older one by ALTER TABLE ADD
    COLUMN for every column added since, and a figure added to the
    results is one line in a column table.
*/
#ifndef IOFLEET_ARCHIVE_SCHEMA_H
#define IOFLEET_ARCHIVE_SCHEMA_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

struct _archive_t {
    sqlite3 *db;                    //  the database, NULL once a run's archive failed
    char *path;                     //  its file
    char *results_dir;              //  a run's results directory, absolute; or NULL
    bool failed;                    //  a run's archive could not record something
};

//  "archive PATH: what: sqlite's message" into err; what may be NULL.
void archive_error (const char *path, sqlite3 *db, const char *what, char *err, size_t errlen);

//  How a field is stored.
typedef enum {
    COLUMN_TEXT,                    //  char [size], TEXT
    COLUMN_STRING,                  //  char *, malloc'ed, NULL for ""; TEXT
    COLUMN_I64,                     //  int64_t, INTEGER
    COLUMN_U64,                     //  uint64_t, INTEGER (clamped to INT64_MAX)
    COLUMN_U32,                     //  uint32_t, INTEGER
    COLUMN_SIZE,                    //  size_t, INTEGER
    COLUMN_INT,                     //  int, INTEGER
    COLUMN_REAL,                    //  double, REAL; NULL for NAN
    COLUMN_BOOL,                    //  bool, INTEGER 0 or 1
    COLUMN_CLASS,                   //  int CLASS_DISK or CLASS_NETWORK, TEXT
    COLUMN_FSYNC,                   //  int fsync_mode_t, TEXT
    COLUMN_UTC,                     //  int64_t wall ns as TEXT, ISO 8601 (not read back)
    COLUMN_DERIVED                  //  REAL computed from the row (not read back)
} column_type_t;

//  One column of a table.
typedef struct {
    const char *name;               //  column name
    column_type_t type;             //  how it is stored
    size_t offset;                  //  of the field in the row's struct
    size_t size;                    //  of a COLUMN_TEXT field
    double (*derive) (const void *row);     //  a COLUMN_DERIVED figure
    int since;                      //  schema version that added it; 0 means 1
} column_t;

//  One table: id, the columns the caller binds, then the row's columns.
typedef struct {
    const char *name;               //  table name
    int since;                      //  schema version that added it; 0 means 1
    const char *bound;              //  definitions of the caller's columns
    const char *bound_names;        //  their names, for INSERT
    int bound_count;                //  how many
    const column_t *columns;        //  the row's own
    size_t column_count;
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
