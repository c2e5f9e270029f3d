/*  coordinator/report/report.h: writers of a run's results, as text for a
    human and as JSON for programs (iofleet report, iofleet compare).

    The writers read a run_result_t (coordinator/results.h) and never change
    it. Every test's summary must have been filled by aggregate_test before:
    the writers print what the summary says, so that a report rendered
    again from a results file shows the same figures as the first one.

    Files are written atomically: the content goes to PATH.tmp in the same
    directory, is flushed to disk with fsync, and is renamed over PATH; a
    crash leaves either the old file or the new one, never half of one.
    Functions that write files return 0, or -1 with "what(path): strerror"
    in err.
*/
#ifndef IOFLEET_REPORT_H
#define IOFLEET_REPORT_H

#include "../results.h"

#include <stddef.h>
#include <stdio.h>

//  The text report: a header, the agents, one row per test, a line per
//  failed stream, then one block per test with its streams. Columns are as
//  wide as their widest cell.
void report_text (const run_result_t *run, FILE *out);

//  report_text into PATH (report.txt), atomically.
int report_text_write (const run_result_t *run, const char *path, char *err, size_t errlen);

//  The results JSON (results.json) as text ending in a newline, for the
//  caller to free; NULL when memory ran out. Rates that could not be
//  computed (NAN) are null.
char *report_json_text (const run_result_t *run);

//  report_json_text into PATH, atomically.
int report_json_write (const run_result_t *run, const char *path, char *err, size_t errlen);

//  Append the samples of one test to a JSON lines file, one object a line:
//  {"test","iteration","agent","job","stream","t_ns","bytes"}. Returns 0,
//  or -1 when writing to out failed or memory ran out.
int report_samples_append (const test_result_t *test, FILE *out);

//  Write length bytes of data to PATH atomically (PATH.tmp, fsync, rename,
//  fsync of the directory). Returns 0, or -1 with the failing call in err.
int report_write_atomic (const char *path, const char *data, size_t length,
                         char *err, size_t errlen);

#endif
