/*  coordinator/archive/archive.c: opening the archive and writing runs into it;
    see archive.h. archive_schema.c holds the tables, archive_read.c the
    queries.

    Every write is one transaction begun with BEGIN IMMEDIATE, which takes
    the write lock at once: a database another process holds is waited
    for (ARCHIVE_BUSY_MS) at the start and never halfway through.
*/
#include "archive.h"
#include "archive_schema.h"

#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

//  The statements of one write, one per table.
typedef struct {
    sqlite3_stmt *run;              //  upsert of the run
    sqlite3_stmt *run_id;           //  its id
    sqlite3_stmt *agent;
    sqlite3_stmt *test;
    sqlite3_stmt *phase;
    sqlite3_stmt *host;
    sqlite3_stmt *stream;
    sqlite3_stmt *warning;
} s_writer_t;


//  --------------------------------------------------------------------------
//  Opening

//  "archive PATH: what: sqlite's message" into err.
void
archive_error (const char *path, sqlite3 *db, const char *what, char *err, size_t errlen)
{
    snprintf (err, errlen, "archive %s: %s%s%s", path, what? what: "", what? ": ": "",
              db? sqlite3_errmsg (db): "out of memory");
}

//  Run SQL without results.
static int
s_exec (archive_t *self, const char *sql, char *err, size_t errlen)
{
    char *message = NULL;
    int rc = sqlite3_exec (self->db, sql, NULL, NULL, &message);
    if (rc != SQLITE_OK)
        snprintf (err, errlen, "archive %s: %s", self->path,
                  message? message: sqlite3_errstr (rc));
    sqlite3_free (message);
    return rc == SQLITE_OK? 0: -1;
}

//  One integer from a query; -1 with err on failure.
static int64_t
s_integer (archive_t *self, const char *sql, char *err, size_t errlen)
{
    sqlite3_stmt *stmt = NULL;
    int64_t value = -1;
    if (sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL) == SQLITE_OK
    &&  sqlite3_step (stmt) == SQLITE_ROW)
        value = sqlite3_column_int64 (stmt, 0);
    else
        archive_error (self->path, self->db, NULL, err, errlen);
    sqlite3_finalize (stmt);
    return value;
}

//  The schema version: 0 for a database without any table, -1 with err
//  for one that is not an archive (or not a database at all).
static int
s_version (archive_t *self, char *err, size_t errlen)
{
    int64_t ours = s_integer (self, "SELECT count(*) FROM sqlite_master "
                                    "WHERE type = 'table' AND name = 'schema_version'", err, errlen);
    if (ours < 0)
        return -1;
    if (ours == 0) {
        int64_t tables = s_integer (self, "SELECT count(*) FROM sqlite_master", err, errlen);
        if (tables > 0)
            snprintf (err, errlen, "archive %s: not an iofleet archive (no schema_version table)",
                      self->path);
        return tables == 0? 0: -1;
    }
    int64_t version = s_integer (self, "SELECT max(version) FROM schema_version", err, errlen);
    if (version > ARCHIVE_SCHEMA_VERSION) {
        snprintf (err, errlen, "archive %s: schema version %lld is newer than this iofleet's (%d)",
                  self->path, (long long) version, ARCHIVE_SCHEMA_VERSION);
        return -1;
    }
    return (int) version;
}

//  Open the database file with flags.
static archive_t *
s_open (const char *path, int flags, char *err, size_t errlen)
{
    archive_t *self = (archive_t *) calloc (1, sizeof (archive_t));
    if (!self || !(self->path = strdup (path))) {
        snprintf (err, errlen, "archive %s: %s", path, strerror (ENOMEM));
        free (self);
        return NULL;
    }
    //  sqlite's "unable to open database file" hides why. A FIFO or a
    //  device is refused before sqlite opens it: a reader's open of a
    //  FIFO would wait for a writer for ever.
    struct stat info;
    bool found = stat (path, &info) == 0;
    if ((!found && (errno != ENOENT || !(flags & SQLITE_OPEN_CREATE)))
    ||  (found && !S_ISREG (info.st_mode))) {
        snprintf (err, errlen, "archive %s: %s", path,
                  found? "not a regular file": strerror (errno));
        archive_destroy (&self);
        return NULL;
    }
    if (sqlite3_open_v2 (path, &self->db, flags, NULL) != SQLITE_OK) {
        archive_error (path, self->db, NULL, err, errlen);
        archive_destroy (&self);
        return NULL;
    }
    sqlite3_busy_timeout (self->db, ARCHIVE_BUSY_MS);
    if (s_exec (self, "PRAGMA foreign_keys = ON", err, errlen))
        archive_destroy (&self);
    return self;
}

//  Open or create the archive at path, its schema brought up to date.
archive_t *
archive_new (const char *path, char *err, size_t errlen)
{
    archive_t *self = s_open (path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err, errlen);
    if (!self)
        return NULL;
    if (s_exec (self, "BEGIN IMMEDIATE", err, errlen))
        goto fail;
    int version = s_version (self, err, errlen);
    char upgrade_err [512];
    if (version < 0)
        goto rollback;
    if (version < ARCHIVE_SCHEMA_VERSION
    &&  archive_schema_upgrade (self->db, version, upgrade_err, sizeof upgrade_err)) {
        snprintf (err, errlen, "archive %s: schema: %s", path, upgrade_err);
        goto rollback;
    }
    if (s_exec (self, "COMMIT", err, errlen))
        goto rollback;
    return self;
rollback:
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
fail:
    archive_destroy (&self);
    return NULL;
}

//  Open an existing archive for queries only.
archive_t *
archive_new_reader (const char *path, char *err, size_t errlen)
{
    archive_t *self = s_open (path, SQLITE_OPEN_READONLY, err, errlen);
    if (!self)
        return NULL;
    int version = s_version (self, err, errlen);
    if (version == 0)
        snprintf (err, errlen, "archive %s: empty: no run was recorded there", path);
    else
    if (version > 0 && version < ARCHIVE_SCHEMA_VERSION)
        snprintf (err, errlen, "archive %s: schema version %d is older than this iofleet's; "
                  "`iofleet db import` upgrades it", path, version);
    if (version != ARCHIVE_SCHEMA_VERSION)
        archive_destroy (&self);
    return self;
}

//  Close the archive.
void
archive_destroy (archive_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    archive_t *self = *self_p;
    sqlite3_close (self->db);
    free (self->path);
    free (self->results_dir);
    free (self);
    *self_p = NULL;
}


//  --------------------------------------------------------------------------
//  Writing

//  Prepare one statement of a writer; on failure err says which.
static int
s_prepare (archive_t *self, char *sql, sqlite3_stmt **stmt, char *err, size_t errlen)
{
    int rc = sql? sqlite3_prepare_v2 (self->db, sql, -1, stmt, NULL): SQLITE_NOMEM;
    if (rc != SQLITE_OK)
        archive_error (self->path, sql? self->db: NULL, "prepare", err, errlen);
    free (sql);
    return rc == SQLITE_OK? 0: -1;
}

//  The statements of a write.
static int
s_writer (archive_t *self, s_writer_t *writer, char *err, size_t errlen)
{
    char *upsert = NULL;
    char *insert = archive_insert_sql (&archive_runs);
    //  A run recorded test by test is the same run each time: its row is
    //  kept, and what may have changed since is updated.
    if (insert && asprintf (&upsert, "%s ON CONFLICT (scenario, started_wall_ns) DO UPDATE SET "
                            "results_dir = excluded.results_dir, label = excluded.label, "
                            "units = excluded.units, cut_short = excluded.cut_short", insert) < 0)
        upsert = NULL;
    free (insert);
    return s_prepare (self, upsert, &writer->run, err, errlen)
        || s_prepare (self, strdup ("SELECT id FROM runs WHERE scenario = ? AND started_wall_ns = ?"),
                      &writer->run_id, err, errlen)
        || s_prepare (self, archive_insert_sql (&archive_agents), &writer->agent, err, errlen)
        || s_prepare (self, archive_insert_sql (&archive_tests), &writer->test, err, errlen)
        || s_prepare (self, archive_insert_sql (&archive_phases), &writer->phase, err, errlen)
        || s_prepare (self, archive_insert_sql (&archive_hosts), &writer->host, err, errlen)
        || s_prepare (self, archive_insert_sql (&archive_streams), &writer->stream, err, errlen)
        || s_prepare (self, archive_insert_sql (&archive_warnings), &writer->warning, err, errlen)?
           -1: 0;
}

//  Finalize a writer's statements.
static void
s_writer_free (s_writer_t *writer)
{
    sqlite3_finalize (writer->run);
    sqlite3_finalize (writer->run_id);
    sqlite3_finalize (writer->agent);
    sqlite3_finalize (writer->test);
    sqlite3_finalize (writer->phase);
    sqlite3_finalize (writer->host);
    sqlite3_finalize (writer->stream);
    sqlite3_finalize (writer->warning);
}

//  Run a statement whose parameters are bound, then reset it for the
//  next row; 0, or -1 with err.
static int
s_step (archive_t *self, sqlite3_stmt *stmt, int bind_rc, const char *what,
        char *err, size_t errlen)
{
    int rc = bind_rc == SQLITE_OK? sqlite3_step (stmt): bind_rc;
    sqlite3_reset (stmt);
    sqlite3_clear_bindings (stmt);
    if (rc == SQLITE_DONE || rc == SQLITE_ROW)
        return 0;
    archive_error (self->path, self->db, what, err, errlen);
    return -1;
}

//  Insert one row of a child table: its parent's id, then the row.
static int
s_child (archive_t *self, sqlite3_stmt *stmt, const archive_table_t *table, int64_t parent,
         const void *row, char *err, size_t errlen)
{
    int rc = sqlite3_bind_int64 (stmt, 1, parent);
    if (rc == SQLITE_OK)
        rc = archive_bind_row (stmt, 2, table, row);
    return s_step (self, stmt, rc, table->name, err, errlen);
}

//  Insert one test with its phase, hosts, streams and warnings.
static int
s_write_test (archive_t *self, s_writer_t *writer, int64_t run_id, size_t ordinal,
              const test_result_t *test, char *err, size_t errlen)
{
    int rc = sqlite3_bind_int64 (writer->test, 1, run_id);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64 (writer->test, 2, (int64_t) ordinal);
    if (rc == SQLITE_OK)
        rc = archive_bind_row (writer->test, 3, &archive_tests, test);
    if (s_step (self, writer->test, rc, "tests", err, errlen))
        return -1;
    int64_t test_id = sqlite3_last_insert_rowid (self->db);
    const char *slash = strchr (test->name, '/');
    if (slash) {
        rc = sqlite3_bind_int64 (writer->phase, 1, test_id);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_text (writer->phase, 2, test->name, (int) (slash - test->name),
                                    SQLITE_TRANSIENT);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_text (writer->phase, 3, slash + 1, -1, SQLITE_TRANSIENT);
        if (s_step (self, writer->phase, rc, "phases", err, errlen))
            return -1;
    }
    for (size_t nbr = 0; nbr < test->host_count; nbr++)
        if (s_child (self, writer->host, &archive_hosts, test_id, &test->hosts [nbr], err, errlen))
            return -1;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++)
        if (s_child (self, writer->stream, &archive_streams, test_id, &test->streams [nbr],
                     err, errlen))
            return -1;
    for (size_t nbr = 0; nbr < test->warning_count; nbr++)
        if (s_child (self, writer->warning, &archive_warnings, test_id, &test->warnings [nbr],
                     err, errlen))
            return -1;
    return 0;
}

//  Bind a run's identity, scenario and start, from parameter first on.
static int
s_bind_identity (sqlite3_stmt *stmt, int first, const run_result_t *run)
{
    int rc = sqlite3_bind_text (stmt, first, run->scenario_path, -1, SQLITE_TRANSIENT);
    return rc == SQLITE_OK? sqlite3_bind_int64 (stmt, first + 1, run->started_wall_ns): rc;
}

//  The run row (inserted or updated), its agents anew, and tests [first,
//  first + count); the run replaced as a whole first when replace is set.
static int
s_write (archive_t *self, const run_result_t *run, const char *results_dir, size_t first,
         size_t count, bool replace, char *err, size_t errlen)
{
    s_writer_t writer;
    memset (&writer, 0, sizeof writer);
    if (s_exec (self, "BEGIN IMMEDIATE", err, errlen))
        return -1;
    if (s_writer (self, &writer, err, errlen))
        goto fail;
    if (replace) {
        sqlite3_stmt *drop = NULL;
        if (s_prepare (self, strdup ("DELETE FROM runs WHERE scenario = ? AND started_wall_ns = ?"),
                       &drop, err, errlen))
            goto fail;
        int rc = s_step (self, drop, s_bind_identity (drop, 1, run), "runs", err, errlen);
        sqlite3_finalize (drop);
        if (rc)
            goto fail;
    }
    int rc = sqlite3_bind_text (writer.run, 1, results_dir, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = archive_bind_row (writer.run, 2, &archive_runs, run);
    if (s_step (self, writer.run, rc, "runs", err, errlen))
        goto fail;
    rc = s_bind_identity (writer.run_id, 1, run);
    if (rc != SQLITE_OK || sqlite3_step (writer.run_id) != SQLITE_ROW) {
        archive_error (self->path, self->db, "runs", err, errlen);
        goto fail;
    }
    int64_t run_id = sqlite3_column_int64 (writer.run_id, 0);
    char sql [96];
    snprintf (sql, sizeof sql, "DELETE FROM agents WHERE run_id = %lld", (long long) run_id);
    if (s_exec (self, sql, err, errlen))
        goto fail;
    for (size_t nbr = 0; nbr < run->agent_count; nbr++) {
        rc = sqlite3_bind_int64 (writer.agent, 1, run_id);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_int64 (writer.agent, 2, (int64_t) nbr);
        if (rc == SQLITE_OK)
            rc = archive_bind_row (writer.agent, 3, &archive_agents, &run->agents [nbr]);
        if (s_step (self, writer.agent, rc, "agents", err, errlen))
            goto fail;
    }
    for (size_t nbr = first; nbr < first + count && nbr < run->test_count; nbr++)
        if (s_write_test (self, &writer, run_id, nbr, &run->tests [nbr], err, errlen))
            goto fail;
    s_writer_free (&writer);
    if (s_exec (self, "COMMIT", err, errlen)) {
        sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
fail:
    s_writer_free (&writer);
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

//  Record some tests of a run, with the run and its agents.
int
archive_record (archive_t *self, const run_result_t *run, const char *results_dir,
                size_t first, size_t count, char *err, size_t errlen)
{
    return s_write (self, run, results_dir, first, count, false, err, errlen);
}

//  Record a whole run, replacing it if it is there.
int
archive_import (archive_t *self, const run_result_t *run, const char *results_dir,
                char *err, size_t errlen)
{
    return s_write (self, run, results_dir, 0, run->test_count, true, err, errlen);
}


//  --------------------------------------------------------------------------
//  The run's side

//  Say that the run's archive failed, and how to record the run later;
//  the rest is tried once more when the run is over. Whether the results
//  directory is complete is not the archive's to say: a full or
//  read-only disk may fail both, and the run names what it could not
//  write at its end.
static void
s_run_failed (archive_t *self, const char *err)
{
    self->failed = true;
    fprintf (stderr, "iofleet: %s; the run goes on without the archive, which is tried "
             "again when the run is over, and `iofleet db import %s/results.json --db %s` "
             "records it later\n", err, self->results_dir,
             self->path);
    sqlite3_close (self->db);
    self->db = NULL;
}

//  The archive of a run, which never stops it.
archive_t *
archive_new_for_run (const char *path, const char *results_dir)
{
    char beside [PATH_MAX + 16];
    if (!path) {
        //  iofleet.db in the directory that holds the results directory:
        //  results/iofleet.db for the default results/<scenario>-<time>.
        const char *slash = strrchr (results_dir, '/');
        snprintf (beside, sizeof beside, "%.*s%s" ARCHIVE_FILE_NAME,
                  slash? (int) (slash - results_dir): 0, results_dir, slash? "/": "");
        path = beside;
    }
    char err [1024];
    archive_t *self = archive_new (path, err, sizeof err);
    if (!self) {
        self = (archive_t *) calloc (1, sizeof (archive_t));
        if (self && !(self->path = strdup (path)))
            archive_destroy (&self);
    }
    if (self) {
        char *absolute = realpath (results_dir, NULL);
        if (!(self->results_dir = absolute? absolute: strdup (results_dir)))
            archive_destroy (&self);
    }
    if (!self) {
        fprintf (stderr, "iofleet: archive %s: %s\n", path, strerror (ENOMEM));
        return NULL;
    }
    if (!self->db)
        s_run_failed (self, err);
    return self;
}

//  Record the run's last test, unless the archive failed before.
void
archive_record_test (archive_t *self, const run_result_t *run)
{
    if (!self || !self->db || run->test_count == 0)
        return;
    char err [1024];
    if (archive_record (self, run, self->results_dir, self->recorded,
                        run->test_count - self->recorded, err, sizeof err))
        s_run_failed (self, err);
    else
        self->recorded = run->test_count;
}

//  Say what the archive of a run over holds when it failed again.
static void
s_holds_part (const archive_t *self, const run_result_t *run, const char *err)
{
    fprintf (stderr, "iofleet: %s; the archive holds %zu of the run's %zu tests%s\n", err,
             self->recorded, run->test_count, self->recorded? ", marked cut short": "");
}

//  The run is over: record what the archive missed, and the run's row as
//  it ended. An archive that failed during the run is opened again; one
//  that fails still keeps the run marked cut short, if it has it at all.
void
archive_finish_run (archive_t *self, const run_result_t *run)
{
    if (!self)
        return;
    char err [1024];
    if (!self->db) {
        archive_t *again = archive_new (self->path, err, sizeof err);
        if (!again) {
            s_holds_part (self, run, err);
            return;
        }
        self->db = again->db;
        again->db = NULL;
        archive_destroy (&again);
    }
    if (archive_record (self, run, self->results_dir, self->recorded,
                        run->test_count - self->recorded, err, sizeof err)) {
        if (!self->failed)
            s_run_failed (self, err);
        else
            s_holds_part (self, run, err);
        return;
    }
    if (self->failed)
        fprintf (stderr, "iofleet: archive %s: the run is recorded after all\n", self->path);
    self->recorded = run->test_count;
    self->failed = false;
}

//  Whether the run's archive failed.
bool
archive_failed (const archive_t *self)
{
    return self && self->failed;
}
