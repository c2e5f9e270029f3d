/*  coordinator/results/results_file.h: the results file (results.json)
    and the samples file (samples.jsonl), written (results_json.c) and
    read back (results_read.c): the one source of truth a results
    directory keeps, from which every report is rendered again.
*/
#ifndef IOFLEET_RESULTS_FILE_H
#define IOFLEET_RESULTS_FILE_H

#include "results.h"

#include <stdio.h>

//  The results document (results.json): every figure of the run, for
//  programs. Rates that could not be computed (NAN) are null.
int results_json_write (const run_result_t *run, FILE *out);

//  The same as text ending in a newline, for the caller to free; NULL
//  when memory ran out.
char *results_json_text (const run_result_t *run);

//  Append the samples of one test to a JSON lines file, one object a line:
//  {"test","iteration","agent","job","stream","t_ns","bytes"}. Returns 0,
//  or -1 when writing to out failed or memory ran out.
int results_json_samples_append (const test_result_t *test, FILE *out);

//  Read a results file (results.json) back into run, and the samples of
//  the samples.jsonl beside it when there is one. Summaries are taken as
//  written, not computed again. run is overwritten (what it held is not
//  freed); on failure it is left empty and err says "file: what is
//  wrong". Returns 0 or -1.
int results_read (const char *path, run_result_t *run, char *err, size_t errlen);

//  results_read without the samples: what compare and the archive need.
//  Every value is checked alike: types, integer bounds, rates from 0 to
//  JSONREAD_RATE_MAX, percentages 0 to 100, a number written as a string
//  refused, no agent and no run of a test listed twice.
int results_read_no_samples (const char *path, run_result_t *run, char *err, size_t errlen);

#endif
