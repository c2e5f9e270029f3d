/*  agent/job.h: one job of a test on this agent: its options, its
    workload, and its streams.

    job_new accepts a job in one step, in the agent's loop thread: look
    the workload up, check the options, claim its memory and files in the
    test's ledger, resolve every file under the roots, create the streams
    and launch their threads. The threads then do the blocking part of
    PREPARE (open, allocate, lay out), so that
    the loop goes on answering meanwhile; job_prepared says when they are
    done. What the job means comes from its workload's row in
    proto/workload.c.
*/
#ifndef IOFLEET_JOB_H
#define IOFLEET_JOB_H

#include "confine.h"
#include "ledger.h"
#include "stream.h"

#include "../proto/msg.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct _job_t job_t;

//  Accept job job_id of test test_id from spec (copied), checked against
//  and claimed in the test's ledger (memory, files, directories made).
//  Streams write 1 to notify_fd at every step. Returns NULL with a reason
//  in err naming the path where one is concerned ("path /etc/x is outside
//  the agent's roots (/srv/a)"); then every file and directory the job
//  created is removed again, and its claims are given back.
job_t *job_new (uint32_t test_id, uint32_t job_id, const jobspec_t *spec, confine_t *confine,
                ledger_t *ledger, int notify_fd, char *err, size_t errlen);

//  Stop the streams, wait for their threads, clean up (files are removed
//  unless spec.keep). Safe on NULL, NULLs the caller's pointer.
void job_destroy (job_t **self_p);

//  The job's index within its test, its options, and its workload.
uint32_t job_id (job_t *self);
const jobspec_t *job_spec (job_t *self);
const workload_desc_t *job_workload (job_t *self);

//  Its class (CLASS_DISK or CLASS_NETWORK) as this agent found it: the
//  scenario's class if given, network for an nfs:// source or a source
//  path on an NFS mount, else disk.
int job_class (job_t *self);

//  0 while its streams prepare, 1 once all are ready (the job is READY;
//  its files are sealed in the ledger), -1 if one failed, with the reason
//  in err. An untimed job (fill) is ready when its streams have done
//  their work.
int job_prepared (job_t *self, char *err, size_t errlen);

//  Bytes its streams wrote at prepare, untimed: a fill's work, or the
//  files a read laid out; and how long preparing took.
uint64_t job_laid_out_bytes (job_t *self);
int64_t job_prepare_ns (job_t *self);

//  Its streams.
size_t job_stream_count (job_t *self);
stream_t *job_stream (job_t *self, size_t index);

//  Hand every stream the start instant of phase (this agent's
//  CLOCK_MONOTONIC). A job runs phases 0 .. its workload's count - 1;
//  a job whose samples are the host's (monitor) runs only phase 0, until
//  it is stopped.
void job_start (job_t *self, uint32_t phase, int64_t start_ns);

//  Where every stream of the job records the latency of its requests for
//  the host's intervals (see stream_set_interval).
void job_set_interval (job_t *self, interval_latency_t *interval);

//  Ask every stream to end early, with a reason for its result.
void job_stop (job_t *self, const char *reason);

//  Fill result with the next stream result not yet taken, test_id and
//  job_id included; false if no stream has one ready.
bool job_take_result (job_t *self, msg_result_t *result);

//  True when every stream's thread has ended and every result was taken.
bool job_over (job_t *self);

#endif
