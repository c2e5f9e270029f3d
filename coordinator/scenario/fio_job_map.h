/*  coordinator/scenario/fio_job_map.h: where each line of a fio job
    file's translation (fio_job.h) came from, so that an error the
    scenario's later checks find in the translation (an agent it does not
    know, a value a workload's check refuses) is told at the fio file's
    line and key: `JOB.fio:LINE: key: reason`, not at a line of a text
    the user never wrote.

    A line of the translation comes from one of fio's keys (its file,
    which may be an include, its line and its name), or is one the
    translation adds for the job (the agent, the test, fio's defaults
    written out), which is the job's [NAME] header.
*/
#ifndef IOFLEET_FIO_JOB_MAP_H
#define IOFLEET_FIO_JOB_MAP_H

#include <stddef.h>

typedef struct _fio_job_map_t fio_job_map_t;

//  A new, empty map, or NULL if memory ran out.
fio_job_map_t *fio_job_map_new (void);

//  Destroy a map; safe on NULL, nulls the caller's pointer.
void fio_job_map_destroy (fio_job_map_t **self_p);

//  Record that line (from 1) of the translation came from fio_line of
//  the file at path, about fio's key fio_key (NULL: a line the
//  translation adds, told under its own key). Returns 0, or -1 if memory
//  ran out (the line is then told as it is).
int fio_job_map_add (fio_job_map_t *self, int line, const char *path, int fio_line,
                     const char *fio_key);

//  Rewrite errors, "path:LINE: key: reason" one a line of a text whose
//  translation begins after its first offset lines (what the caller put
//  before it), in place: a line of the translation becomes its file's
//  line and fio's key; a line before it (the caller's own) loses its
//  number. Other lines are left as they are. The result is in line
//  order, at most errlen bytes.
void fio_job_map_errors (const fio_job_map_t *self, const char *path, int offset,
                         char *errors, size_t errlen);

#endif
