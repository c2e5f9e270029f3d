/*  agent/job.h: one job of a test on this agent: its options, its
    workload, and its streams.

    job_new does the whole PREPARE of a job in one step: look the workload
    up, validate the options, claim its memory and files in the test's
    ledger, resolve every stream's path under the roots, prepare every
    stream, and launch their threads, which then wait for START. It
    succeeds completely or leaves nothing behind.
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

//  Prepare job job_id of test test_id from spec (copied), checked against
//  and claimed in the test's ledger (memory, files, directories made).
//  Streams write 1 to notify_fd when they end. Returns NULL with a reason
//  in err naming the path where one is concerned ("path /etc/x is outside
//  the agent's roots (/srv/a)"); then every file and directory the job
//  created is removed again, and its claims are given back.
job_t *job_new (uint32_t test_id, uint32_t job_id, const jobspec_t *spec, confine_t *confine,
                ledger_t *ledger, int notify_fd, char *err, size_t errlen);

//  Stop the streams, wait for their threads, clean up (files are removed
//  unless spec.keep). Safe on NULL, NULLs the caller's pointer.
void job_destroy (job_t **self_p);

//  The job's index within its test, and its options.
uint32_t job_id (job_t *self);
const jobspec_t *job_spec (job_t *self);

//  Its class (CLASS_DISK or CLASS_NETWORK) as this agent found it: the
//  scenario's class if given, network for an nfs:// source or a source
//  path on an NFS mount, else disk.
int job_class (job_t *self);

//  True if the job's workload is untimed (fill): its streams ran at once
//  when the job was prepared; when they are done the job is READY (or
//  failed), and its results are not RESULTs of the test.
bool job_untimed (job_t *self);

//  True if the job's samples are the host's counters (monitor): MONITOR
//  messages instead of SAMPLEs, and its stream runs until STOP.
bool job_samples_host (job_t *self);

//  Its streams.
size_t job_stream_count (job_t *self);
stream_t *job_stream (job_t *self, size_t index);

//  Hand every stream the start instant (this agent's CLOCK_MONOTONIC).
void job_start (job_t *self, int64_t start_ns);

//  Ask every stream to end early, with a reason for its result.
void job_stop (job_t *self, const char *reason);

//  Wait for every stream's thread to end (stop or start them first).
void job_wait (job_t *self);

//  Fill result with the next stream result not yet taken, test_id and
//  job_id included; false if no stream has one ready.
bool job_take_result (job_t *self, msg_result_t *result);

//  True when every stream's result has been taken: the job is over.
bool job_finished (job_t *self);

#endif
