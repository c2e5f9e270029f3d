/*  coordinator/scenario/fio_job_state.h: what the reader of a fio job
    file (fio_job.c: sections, keys, includes) and the writer of its jobs
    as [job] sections (fio_job_write.c) share while one file is
    translated. Not for other modules: they see fio_job.h.
*/
#ifndef IOFLEET_FIO_JOB_STATE_H
#define IOFLEET_FIO_JOB_STATE_H

#include "fio_job_map.h"
#include "scenario_rules.h"

#include <stdbool.h>
#include <stdio.h>

//  Keys one section may hold, and the bytes of a key and a value.
#define FIO_PAIRS_MAX 64
#define FIO_KEY_MAX   63
#define FIO_VALUE_MAX 1023

//  Files included in all.
#define FIO_INCLUDES_MAX 16

//  One KEY=VALUE line.
typedef struct {
    char key [FIO_KEY_MAX + 1];       //  as written
    char value [FIO_VALUE_MAX + 1];   //  ${VAR} replaced; "1" for a bare flag
    const char *path;               //  the file it is in (the job file or an include)
    int line;                       //  its line there
} fio_pair_t;

//  The keys of a section, a later one replacing an earlier of its name.
typedef struct {
    fio_pair_t pairs [FIO_PAIRS_MAX];
    size_t count;
} fio_pairs_t;

//  The translator's state while one file is read.
typedef struct {
    const char *path;               //  the file being read, for messages
    char *includes [FIO_INCLUDES_MAX];    //  the paths of the files included
    size_t include_count;           //  includes read
    int depth;                      //  includes within includes being read
    const char *agent;              //  where the jobs run
    FILE *out;                      //  the scenario being written
    int out_line;                   //  lines written to it
    fio_job_map_t *map;             //  where they came from, or NULL
    fio_pairs_t global;               //  the [global] keys so far
    fio_pairs_t job;                  //  the current job's own keys
    char job_name [JOB_NAME_MAX + 1];   //  the current job, "" if none
    int job_line;                   //  line of its header
    const char *job_path;           //  the file of its header
    char test [JOB_NAME_MAX + 1];   //  the test jobs join, "" before the first
    bool in_global;                 //  the current section is a [global]
    scenario_errors_t errors;       //  the errors found
} fio_state_t;

//  An error at the line of pair, in its file, about key.
void fio_state_fail_at (fio_state_t *self, const fio_pair_t *pair, const char *key,
                        const char *format, ...)
    __attribute__ ((format (printf, 4, 5)));

//  The job's value of key (its own, else its [global]'s), or NULL.
const fio_pair_t *fio_state_get (const fio_state_t *self, const char *key);

//  True if the job sets the flag key to anything but 0.
bool fio_state_flag (const fio_state_t *self, const char *key);

//  Write lines of the translation, each ending in a newline, and record
//  that they come from fio's key at pair (NULL: the job's header).
void fio_state_put (fio_state_t *self, const fio_pair_t *from, const char *format, ...)
    __attribute__ ((format (printf, 3, 4)));

//  Write the current job, if there is one, as a [job] section, and
//  begin the next (fio_job_write.c).
void fio_job_write (fio_state_t *self);

#endif
