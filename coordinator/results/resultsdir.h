/*  coordinator/results/resultsdir.h: a run's results directory, its own, written
    as results arrive, every write checked.

        DIR/scenario.ini    the scenario as it was read, and the endpoints used
        DIR/samples.jsonl   every sample, appended after each test
        DIR/results.json    one file per row of report_formats that has one, each
        DIR/report.txt      rewritten atomically after each test, so that
        DIR/report.csv      a coordinator killed at any point leaves every
        DIR/report.html     finished test readable

    The default DIR is results/<scenario>-<UTC time>, created exclusively:
    a second run in the same second gets <scenario>-<UTC time>-2, and so
    on. An explicit -o DIR may exist if it holds no results of another run
    (an empty directory, a fresh mount point); one that does is refused,
    since writing into it would mix two runs' records and replace the
    first one's.

    A write that fails does not stop the run: its report on the console
    is still worth having. The failure is said when it happens, remembered
    with its reason, and said again at the end (resultsdir_print_problems)
    with what is complete; the run then exits 1.
*/
#ifndef IOFLEET_RESULTSDIR_H
#define IOFLEET_RESULTSDIR_H

#include "results.h"
#include "../scenario/scenario.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct _resultsdir_t resultsdir_t;

//  Check before anything starts that an explicit DIR (-o) may take a
//  run's results: it does not exist yet, or it is a directory that holds
//  none of the files a run writes. NULL (the default directory) is always
//  fine. Returns 0, or -1 with the reason in err.
int resultsdir_check (const char *dir, char *err, size_t errlen);

//  Create the results directory: dir, or results/<stem of scenario_path>-
//  <UTC time> (with a suffix when taken), with its missing parents; and
//  samples.jsonl in it. json_path (--json FILE, or NULL) gets a copy of
//  results.json each time the reports are written. Returns NULL with
//  "what(path): strerror" in err when the directory cannot be made.
resultsdir_t *resultsdir_new (const char *dir, const char *scenario_path,
                              const char *json_path, char *err, size_t errlen);

//  Destroy; safe on NULL, nulls the caller's pointer.
void resultsdir_destroy (resultsdir_t **self_p);

//  The directory's path (borrowed).
const char *resultsdir_path (resultsdir_t *self);

//  Write scenario.ini: the scenario's text as read, then the endpoints
//  the run used as comments.
void resultsdir_save_scenario (resultsdir_t *self, const scenario_t *scenario);

//  Append a test's samples to samples.jsonl and flush them to disk. After
//  a failure the file is cut back to the tests before and takes no more.
void resultsdir_append_samples (resultsdir_t *self, const test_result_t *test);

//  Write every report file (and the --json copy) from the run so far.
void resultsdir_write_reports (resultsdir_t *self, const run_result_t *run);

//  True once a file could not be written, or ends incomplete.
bool resultsdir_failed (resultsdir_t *self);

//  One line per file that could not be written, with the reason and
//  what it holds, then one line naming the files that are complete.
//  Prints nothing when every file is complete.
void resultsdir_print_problems (resultsdir_t *self, FILE *out);

#endif
