/*  coordinator/archive/archive_read.c: the archive's queries: which runs match,
    and a run read back as a run result; see archive.h.
*/
#include "archive.h"
#include "archive_schema.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Runs that match a filter; a parameter left NULL matches every run.
static const char s_find_sql [] =
    "SELECT id FROM runs WHERE"
    " (?1 IS NULL OR EXISTS (SELECT 1 FROM tests WHERE tests.run_id = runs.id"
    "   AND (tests.name = ?1 OR substr (tests.name, 1, length (?1) + 1) = ?1 || '/')))"
    " AND (?2 IS NULL OR EXISTS (SELECT 1 FROM agents WHERE agents.run_id = runs.id"
    "   AND agents.kernel = ?2))"
    " AND (?3 IS NULL OR EXISTS (SELECT 1 FROM agents WHERE agents.run_id = runs.id"
    "   AND (agents.hostname = ?3 OR agents.name = ?3)))"
    " AND (?4 IS NULL OR runs.scenario = ?4"
    "   OR substr (runs.scenario, length (runs.scenario) - length (?4)) = '/' || ?4)"
    " AND (?5 IS NULL OR runs.label = ?5)"
    " AND (?6 IS NULL OR runs.started_wall_ns >= ?6)"
    " AND (?7 IS NULL OR runs.started_wall_ns < ?7)"
    " ORDER BY runs.started_wall_ns, runs.id";

//  Bind text, or NULL for none.
static int
s_bind_text (sqlite3_stmt *stmt, int param, const char *text)
{
    return text? sqlite3_bind_text (stmt, param, text, -1, SQLITE_TRANSIENT)
               : sqlite3_bind_null (stmt, param);
}

//  Bind an instant, or NULL for 0.
static int
s_bind_instant (sqlite3_stmt *stmt, int param, int64_t wall_ns)
{
    return wall_ns? sqlite3_bind_int64 (stmt, param, wall_ns): sqlite3_bind_null (stmt, param);
}

//  The ids of the runs that match, oldest first.
int
archive_find (archive_t *self, const archive_filter_t *filter, int64_t **ids, size_t *count,
              char *err, size_t errlen)
{
    *ids = NULL;
    *count = 0;
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2 (self->db, s_find_sql, -1, &stmt, NULL) != SQLITE_OK
    ||  s_bind_text (stmt, 1, filter->test) || s_bind_text (stmt, 2, filter->kernel)
    ||  s_bind_text (stmt, 3, filter->host) || s_bind_text (stmt, 4, filter->scenario)
    ||  s_bind_text (stmt, 5, filter->label) || s_bind_instant (stmt, 6, filter->since_wall_ns)
    ||  s_bind_instant (stmt, 7, filter->until_wall_ns)) {
        archive_error (self->path, self->db, "runs", err, errlen);
        sqlite3_finalize (stmt);
        return -1;
    }
    size_t capacity = 0;
    int rc;
    while ((rc = sqlite3_step (stmt)) == SQLITE_ROW) {
        if (*count == capacity) {
            capacity = capacity? 2 * capacity: 16;
            int64_t *grown = (int64_t *) realloc (*ids, capacity * sizeof (int64_t));
            if (!grown) {
                rc = SQLITE_NOMEM;
                break;
            }
            *ids = grown;
        }
        (*ids) [(*count)++] = sqlite3_column_int64 (stmt, 0);
    }
    if (rc != SQLITE_DONE) {
        archive_error (self->path, rc == SQLITE_NOMEM? NULL: self->db, "runs", err, errlen);
        free (*ids);
        *ids = NULL;
        *count = 0;
    }
    sqlite3_finalize (stmt);
    return rc == SQLITE_DONE? 0: -1;
}

//  Read every row a query on table gives into a new array of `size`-byte
//  elements; *count gets how many.
static int
s_read_rows (archive_t *self, const archive_table_t *table, const char *where, int64_t id,
             size_t size, void **array, size_t *count, char *err, size_t errlen)
{
    *array = NULL;
    *count = 0;
    char *sql = archive_select_sql (table, where);
    sqlite3_stmt *stmt = NULL;
    int rc = sql? sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL): SQLITE_NOMEM;
    free (sql);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64 (stmt, 1, id);
    size_t capacity = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW) {
        if (*count == capacity) {
            capacity = capacity? 2 * capacity: 8;
            void *grown = realloc (*array, capacity * size);
            if (!grown) {
                rc = SQLITE_NOMEM;
                break;
            }
            *array = grown;
        }
        char *row = (char *) *array + *count * size;
        memset (row, 0, size);
        int read = archive_read_row (stmt, 0, table, row);
        (*count)++;                 //  what it holds is freed with the rest
        rc = read? SQLITE_NOMEM: SQLITE_OK;
    }
    if (rc != SQLITE_DONE && rc != SQLITE_OK)
        archive_error (self->path, rc == SQLITE_NOMEM? NULL: self->db, table->name, err, errlen);
    sqlite3_finalize (stmt);
    return rc == SQLITE_DONE || rc == SQLITE_OK? 0: -1;
}

//  One run back from its rows: the run, its agents, its tests.
int
archive_load (archive_t *self, int64_t id, run_result_t *run, char **results_dir,
              char *err, size_t errlen)
{
    *results_dir = NULL;
    run_result_t *runs = NULL;
    size_t found = 0;
    if (s_read_rows (self, &archive_runs, "id = ?", id, sizeof (run_result_t),
                     (void **) &runs, &found, err, errlen))
        return -1;
    if (found != 1) {
        snprintf (err, errlen, "archive %s: no run %lld", self->path, (long long) id);
        free (runs);
        return -1;
    }
    *run = runs [0];
    free (runs);
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2 (self->db, "SELECT results_dir FROM runs WHERE id = ?", -1, &stmt,
                            NULL) != SQLITE_OK
    ||  sqlite3_bind_int64 (stmt, 1, id) != SQLITE_OK || sqlite3_step (stmt) != SQLITE_ROW
    ||  !(*results_dir = strdup ((const char *) sqlite3_column_text (stmt, 0)))) {
        archive_error (self->path, self->db, "runs", err, errlen);
        sqlite3_finalize (stmt);
        return -1;
    }
    sqlite3_finalize (stmt);
    if (s_read_rows (self, &archive_agents, "run_id = ? ORDER BY ordinal", id,
                     sizeof (agent_info_t), (void **) &run->agents, &run->agent_count, err, errlen)
    ||  s_read_rows (self, &archive_tests, "run_id = ? ORDER BY ordinal", id,
                     sizeof (test_result_t), (void **) &run->tests, &run->test_count, err, errlen)) {
        run_result_clear (run);
        free (*results_dir);
        *results_dir = NULL;
        return -1;
    }
    run->test_capacity = run->test_count;
    return 0;
}
