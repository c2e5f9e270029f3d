/*  coordinator/scenario/fio_job.h: a fio job file made an iofleet
    scenario, so that `iofleet run JOB.fio --hosts FILE` runs it on every
    agent and `iofleet run --check JOB.fio` shows what it is here.

    The file: [global] and [NAME] job sections; KEY=VALUE lines, or a bare
    KEY for fio's flags (time_based, stonewall); lines beginning with ';'
    or '#' are comments; ${VAR} is the environment's VAR; include FILE
    reads FILE (relative to the including file) where it stands. A [global]
    applies to the jobs after it, as in fio. Every job of the file runs at
    once (one test) until a job with stonewall or new_group, which begins
    the next test. The keys are translated by the table of fio_keys.c and
    the keys fio and iofleet spell alike; fio's defaults that differ from
    ours are written out (rw = read, no fsync at the end), and a job bound
    by its size gets the request count fio would make of it (size / bs
    per stream, and number_ios times numjobs). fio's values per direction
    (bs=4k,8k, rate=1m,2m, rate_iops=100,200: reads, writes, trims) are
    taken where one value here says the same: the reads' for a job that
    reads, the writes' for one that writes; a mixed job has one block
    size (fio's two must be equal) and one cap on its reads and writes
    together, in its mix (fio's caps must be in that mix). Anything else
    is refused at file:line with what to use instead.
*/
#ifndef IOFLEET_FIO_JOB_H
#define IOFLEET_FIO_JOB_H

#include "fio_job_map.h"

#include <stdbool.h>
#include <stddef.h>

//  True if path names a fio job file: it ends in ".fio".
bool fio_job_is_fio (const char *path);

//  Read the fio job file at path and write it as a scenario whose jobs
//  run on agent (an [agent] or [group] name the caller provides), and,
//  unless map is NULL, where each of its lines came from into map.
//  Returns the scenario's text (the caller's to free), or NULL with every
//  error, "file:line: key: reason" one a line, in err.
char *fio_job_translate (const char *path, const char *agent, fio_job_map_t *map, char *err,
                         size_t errlen);

#endif
