/*  agent/workloads/randrw_set.h: the file set of a randrw job (what
    randrw.c's head comment calls the file set and its layout), private
    to randrw*.c. The job makes it empty at prepare; the first of its
    streams to prepare opens and lays it out while the others wait; the
    job closes it after every stream's cleanup, and hands what it
    created to the session, keeps it, or removes it.
*/
#ifndef IOFLEET_RANDRW_SET_H
#define IOFLEET_RANDRW_SET_H

#include "workload.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

//  One file of the set.
typedef struct {
    int fd;                         //  open for the job, -1 before
    dev_t dev;                      //  its device
    ino_t ino;                      //  and inode, checked before it is removed
    bool ours;                      //  the job created it
} randrw_file_t;

//  The job's file set, shared by its streams (job->data).
typedef struct {
    pthread_mutex_t lock;           //  the first stream to prepare opens and lays out the
                                    //  set, the others wait for it
    int state;                      //  0 not yet, 1 open and laid out, -1 failed
    char error [MSG_TEXT_MAX + 1];  //  why it failed, for every stream
    int dir_fd;                     //  its directory (O_PATH), -1 before
    uint64_t count;                 //  files
    uint64_t file_bytes;            //  bytes of each file
    uint64_t file_blocks;           //  whole blocks of bs in each file
    randrw_file_t *files;           //  count of them
    int *fds;                       //  their descriptors in one table, as engines take them
} randrw_set_t;

//  The path of file `index` of the set, and how messages show it.
void randrw_file_path (const jobspec_t *spec, uint64_t index, char *path, size_t pathlen,
                       char *shown, size_t shownlen);

//  An empty set for the job (job->data): no I/O, that is the first
//  stream's. Returns 0, or -1 with the reason in err.
int randrw_set_new (workload_job_t *job, char *err, size_t errlen);

//  Open the set and lay it out, in the first stream's prepare: its
//  directory, the space it needs, every file (written with what buffer
//  holds, bs bytes), and O_DIRECT if asked. Returns 0, or -1 with the
//  reason in err.
int randrw_set_open (randrw_set_t *set, workload_stream_t *ws, unsigned char *buffer, char *err,
                     size_t errlen);

//  After every stream's cleanup: close the set, and let what the job
//  created go to the session, stay (keep), or go now (the job never
//  became ready, or no session takes it).
void randrw_set_destroy (workload_job_t *job, bool prepared);

#endif
