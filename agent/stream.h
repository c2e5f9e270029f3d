/*  agent/stream.h: one stream of a job: one file, one thread, its figures.

    A stream is created in the agent's loop thread and launched at once:
    its thread does the untimed part first (the workload's prepare: open,
    allocate, fill, lay files out), says so, and then runs the job's
    phases one after another, each at its own start instant: it sleeps
    until then on its own (absolute CLOCK_MONOTONIC, timer slack 1 ns),
    records when it really woke and runs the timed part of that phase. No
    "go" message crosses threads after the sleep, so streams of one host
    start as close together as the scheduler allows.

    Why a plain thread and not a zactor: the thread spends its life in I/O
    calls and cannot read a pipe; it needs no messages, only a few facts.
    The start instants and a stop request travel under a mutex and
    condition variable (which also wakes a thread still waiting); the stop
    flag and the byte counter are atomics the I/O loop reads and writes
    without locks; every step (prepared, a phase done, the end) is
    announced by writing to an eventfd shared by all streams, which the
    agent's poller watches.

    A phase's figures wait in the stream until the loop takes them; the
    next phase cannot start before it has (the coordinator announces a
    phase only once every stream reported the one before).
*/
#ifndef IOFLEET_STREAM_H
#define IOFLEET_STREAM_H

#include "workloads/workload.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct _stream_t stream_t;

//  Called in the stream's thread when its prepare is over (rc 0 or -1),
//  before the loop hears of it.
typedef void (stream_prepared_fn) (void *arg, stream_t *stream, int rc);

//  A stream `index` of a job, on path (already resolved under a root, ""
//  if the job has none), running phase_count phases of ops. spec must
//  outlive the stream. Nothing is opened until it is launched. Returns
//  NULL with a reason in err.
stream_t *stream_new (const workload_ops_t *ops, const jobspec_t *spec, uint32_t index,
                      const char *path, uint32_t phase_count, char *err, size_t errlen);

//  Give the stream what the streams of its job share (a workload with
//  job_prepare), before it is launched.
void stream_set_job (stream_t *self, workload_job_t *job);

//  Where the stream also records the latency of its requests, for the
//  host's intervals (NULL: nowhere); before the START of the phase.
void stream_set_interval (stream_t *self, interval_latency_t *interval);

//  What one stream holds beside its workload's buffers (ops->
//  stream_memory): its state and its latency histograms, three of about
//  16K, rounded up. The agent's bound on a test's memory counts both.
#define STREAM_FIGURES_BYTES (64 * 1024)

//  Stop the stream if it runs, wait for its thread, let the workload clean
//  up. Files are removed unless spec->keep, and always if the stream was
//  never ready (a job that never became ready leaves nothing behind).
//  Safe on NULL, NULLs the caller's pointer.
void stream_destroy (stream_t **self_p);

//  Start the stream's thread: it prepares, calls prepared (if not NULL),
//  then waits for stream_start or stream_stop. After each step it writes
//  1 to notify_fd (an eventfd; -1 for none). Returns 0, or -1 with a
//  reason in err.
int stream_launch (stream_t *self, int notify_fd, stream_prepared_fn *prepared, void *arg,
                   char *err, size_t errlen);

//  0 while the stream prepares, 1 once it is ready, -1 if its prepare
//  failed; then stream_prepare_error says why.
int stream_prepared (stream_t *self);
const char *stream_prepare_error (stream_t *self);

//  Bytes its prepare wrote to lay a file out (untimed).
uint64_t stream_laid_out_bytes (stream_t *self);

//  Hand the stream the start instant of phase (CLOCK_MONOTONIC ns) and
//  the end of the phases before. An instant in the past starts it at
//  once. A stream that failed or stopped in an earlier phase reports the
//  phase at once as not run.
void stream_start (stream_t *self, uint32_t phase, int64_t start_ns);

//  Ask the stream to end early; its result will say "aborted: reason".
//  The first reason given is kept.
void stream_stop (stream_t *self, const char *reason);

//  Wait until the stream's thread has ended (stop it first, or start it).
void stream_wait (stream_t *self);

//  True once the thread has ended.
bool stream_done (stream_t *self);

//  True while the stream runs the timed part of a phase (samples are due).
bool stream_running (stream_t *self);

//  Bytes done so far in the phase, for samples (a relaxed atomic read).
uint64_t stream_bytes (stream_t *self);

//  0-based index of the stream within its job.
uint32_t stream_index (stream_t *self);

//  Fill out with the stream's sample now: the workload's own (a monitor's
//  counters) or a SAMPLE of its bytes. test_id and job_id are left to
//  the caller.
void stream_sample (stream_t *self, msg_t *out);

//  Once a phase is over, fill result with its figures (every field but
//  test_id and job_id) and return true; false before that, and after the
//  figures of every phase run so far were taken. The workload's cleanup
//  (and the removal of its files unless keep) waits for stream_destroy,
//  at the end of the test.
bool stream_take_result (stream_t *self, msg_result_t *result);

//  True while figures of a phase wait to be taken.
bool stream_result_waiting (stream_t *self);

#endif
