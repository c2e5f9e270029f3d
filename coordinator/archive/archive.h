/*  coordinator/archive/archive.h: every run, also in an SQLite database.

    The results directory of a run is the source of truth; the archive is
    an index over many of them, so that "how did dd1 do on every kernel
    since March" is one query and not a shell loop. It holds, per run,
    the run (scenario, start, label, results directory), its agents
    (host, kernel, CPUs, memory), its tests with every summary figure,
    the phases of multi-phase tests, and per test its hosts (every /proc
    counter), its streams and its warnings. Samples and monitor series
    stay in the results directory.

    `iofleet run` records each test when it ends, in one transaction with
    the run and its agents; `iofleet db import` records whole results
    files, replacing a run recorded before (a run is its scenario and its
    start instant), so that importing every results directory rebuilds
    the archive. The schema has a version table; an archive written by a
    newer iofleet is refused rather than misread.

    Functions return 0 or -1 with "archive PATH: what" in err. A locked
    database is waited for ARCHIVE_BUSY_MS, then given up.
*/
#ifndef IOFLEET_ARCHIVE_H
#define IOFLEET_ARCHIVE_H

#include "../results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARCHIVE_DEFAULT_PATH    "results/iofleet.db"
#define ARCHIVE_FILE_NAME       "iofleet.db"    //  beside a run's results directory
#define ARCHIVE_SCHEMA_VERSION  4       //  2: streams' stop_ns and last_issue_ns;
                                        //  3: every figure of results.json but the
                                        //  latency histograms and the stop figures;
                                        //  4: the stop figures, the hosts' and the
                                        //  streams' figures of the text report
#define ARCHIVE_BUSY_MS         500     //  under the shortest lease (1 s): the run's
                                        //  loop waits this long for a locked database

typedef struct _archive_t archive_t;

//  Open the archive at path for writing, creating the file and its
//  schema if they are not there, upgrading an older schema. NULL with
//  the reason in err.
archive_t *archive_new (const char *path, char *err, size_t errlen);

//  Open an existing archive for reading only. NULL with err.
archive_t *archive_new_reader (const char *path, char *err, size_t errlen);

//  Close the archive; safe on NULL, and NULLs the caller's pointer.
void archive_destroy (archive_t **self_p);

//  Record tests [first, first + count) of run, with the run (its results
//  directory as an absolute path) and its agents as they are now, in one
//  transaction.
int archive_record (archive_t *self, const run_result_t *run, const char *results_dir,
                    size_t first, size_t count, char *err, size_t errlen);

//  Record a whole run read from results_dir/results.json, replacing the
//  same run if it is there, in one transaction.
int archive_import (archive_t *self, const run_result_t *run, const char *results_dir,
                    char *err, size_t errlen);

//  Which runs to list; NULL or 0 fields do not filter.
typedef struct {
    const char *test;               //  has this test (or its phases)
    const char *kernel;             //  an agent ran this kernel release
    const char *host;               //  an agent ran on this host (or had this name)
    const char *scenario;           //  this scenario path, or a path ending in /NAME
    const char *label;              //  this label
    int64_t since_wall_ns;          //  started at or after
    int64_t until_wall_ns;          //  started before
} archive_filter_t;

//  The ids of the runs that match filter, oldest first, in a new array
//  for the caller to free (NULL for none).
int archive_find (archive_t *self, const archive_filter_t *filter, int64_t **ids,
                  size_t *count, char *err, size_t errlen);

//  Load run id into run (empty before): the run, its agents and its
//  tests with their summaries, but no streams, hosts or warnings;
//  *results_dir gets its results directory, for the caller to free.
int archive_load (archive_t *self, int64_t id, run_result_t *run, char **results_dir,
                  char *err, size_t errlen);


//  --------------------------------------------------------------------------
//  The run's side

//  For `iofleet run`: the archive at path (NULL: iofleet.db beside the
//  results directory) that records each test of the run writing to
//  results_dir. It never stops the run: when the database cannot be
//  opened or written, it says why on stderr once, with how to record the
//  run later, records nothing more until the run is over, and
//  archive_failed says so. NULL only when memory ran out (and then it
//  said so).
archive_t *archive_new_for_run (const char *path, const char *results_dir);

//  Record the tests of run it does not hold yet (after each test, the
//  last one). Safe on NULL.
void archive_record_test (archive_t *self, const run_result_t *run);

//  The run is over (run->cut_short as it ended): record the tests the
//  archive missed, trying a failed archive once more, and the run's row;
//  a run the archive holds only in part stays marked cut short there.
//  Safe on NULL.
void archive_finish_run (archive_t *self, const run_result_t *run);

//  Whether a run's archive failed to record something. False on NULL.
bool archive_failed (const archive_t *self);

#endif
