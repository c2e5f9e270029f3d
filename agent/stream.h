/*  agent/stream.h: one stream of a job: one file, one thread, its figures.

    A stream is prepared in the agent's loop thread (the workload's prepare:
    open, allocate, fill), then launched: its thread starts at once and
    waits for the start instant. stream_start hands it that instant; the
    thread sleeps until then on its own (absolute CLOCK_MONOTONIC, timer
    slack 1 ns), records when it really woke and runs the timed part. No
    "go" message crosses threads after the sleep, so streams of one host
    start as close together as the scheduler allows.

    Why a plain thread and not a zactor: the thread spends its life in
    write calls and cannot read a pipe; it needs no messages, only three
    facts. The start instant and a stop request travel under a mutex and
    condition variable (which also wakes a thread still waiting for its
    instant); the stop flag and the byte counter are atomics the write
    loop reads and writes without locks; the end is announced by writing
    to an eventfd shared by all streams, which the agent's poller watches.
    A zactor would cost two sockets per stream, up to hundreds per job,
    for nothing the thread could use.
*/
#ifndef IOFLEET_STREAM_H
#define IOFLEET_STREAM_H

#include "workloads/workload.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct _stream_t stream_t;

//  Prepare stream `index` of a job: the workload's prepare on path (already
//  resolved under a root, "" if the job has none). spec must outlive the
//  stream. Returns NULL with "what(path): reason" in err; whatever prepare
//  created is removed then.
stream_t *stream_new (const workload_ops_t *ops, const jobspec_t *spec, uint32_t index,
                      const char *path, char *err, size_t errlen);

//  Stop the stream if it runs, wait for its thread, let the workload clean
//  up. Files are removed unless spec->keep, and always if the stream was
//  never launched (a job that never became ready leaves nothing behind).
//  Safe on NULL, NULLs the caller's pointer.
void stream_destroy (stream_t **self_p);

//  Start the stream's thread, which waits for stream_start or stream_stop.
//  When it has finished it writes 1 to notify_fd (an eventfd; -1 for none).
//  Returns 0, or -1 with a reason in err.
int stream_launch (stream_t *self, int notify_fd, char *err, size_t errlen);

//  Hand the stream its start instant (CLOCK_MONOTONIC ns). An instant in
//  the past starts it at once.
void stream_start (stream_t *self, int64_t start_ns);

//  Ask the stream to end early; its result will say "aborted: reason".
//  The first reason given is kept.
void stream_stop (stream_t *self, const char *reason);

//  Wait until the stream's thread has ended (stop it first, or start it).
void stream_wait (stream_t *self);

//  True once the thread has ended and its result can be taken.
bool stream_done (stream_t *self);

//  Bytes done so far, for samples (a relaxed atomic read).
uint64_t stream_bytes (stream_t *self);

//  0-based index of the stream within its job.
uint32_t stream_index (stream_t *self);

//  Once the stream is done, join its thread, fill result (every field but
//  test_id and job_id) and return true; false before that, and after the
//  first time. The workload's cleanup (and the removal of its files
//  unless keep) waits for stream_destroy, at the end of the test.
bool stream_take_result (stream_t *self, msg_result_t *result);

#endif
