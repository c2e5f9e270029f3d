/*  agent/engines/engine.h: how a stream issues its requests.

    A workload decides what a stream asks for (which file, which offset,
    how many bytes, a read or a write, when to fsync); an engine decides
    how the requests reach the kernel. The job's `engine` option picks
    one (psync by default), `iodepth` says how many requests a stream
    keeps in flight. An engine is one file of this folder behind the ops
    table below; a workload speaks only to engine_*():

        engine_new (spec, fds, count, err)  at prepare: the stream's
                                slots (iodepth of them, each with a
                                page-aligned buffer of bs bytes, of the
                                memory iomem says) and the
                                engine's state (io_uring: the ring, the
                                buffers and files registered). A host
                                that refuses the engine says so here,
                                with the reason and what to use instead
        engine_slot (e)         a free slot to fill, or NULL when iodepth
                                requests are in flight
        engine_queue (e, slot)  the slot is a request now (op, file,
                                offset, length_bytes, begin_ns set by the
                                caller: the instant it is issued)
        engine_reap (e, wait)   hand what is queued to the kernel and
                                take the requests that completed: their
                                end_ns and result set. With wait, it
                                returns at least one while any is in
                                flight. The caller gives each back with
                                engine_release; engine_reaped (e)
                                hands out the rest of what was seen
                                without asking the kernel again
        engine_destroy (&e)     at cleanup; nothing may be in flight
                                (the workload drains before it returns)

    What the engines keep alike. A request completes whole or with what
    the kernel said: a short read or write (fewer bytes than asked, none
    lost) is resubmitted for its rest by every engine, so that result is
    length_bytes, 0 < result < length_bytes only when the file ended, or
    -errno. psync issues each request as one pread or pwrite (EINTR
    retried, a short one called again for its rest), at the moment it is
    handed to the kernel: the one-request-at-a-time path the workloads
    have always had. Latency is from begin_ns (the caller's clock read,
    the one held against the stop instant) to end_ns (the engine's, when
    it saw the completion).

    An nfs:// file is read through an engine of its own (nfs.c,
    engine_new_nfs): READ calls on the stream's libnfs context, as many
    in flight as iodepth says, whatever the `engine` option says; that
    option names how local requests reach the kernel.
*/
#ifndef IOFLEET_ENGINE_H
#define IOFLEET_ENGINE_H

#include "../../proto/jobspec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct _engine_t engine_t;

//  Room for an engine's own account of a failure.
#define ENGINE_ERROR_MAX    512

//  What a request does.
typedef enum {
    ENGINE_READ = 0,
    ENGINE_WRITE = 1
} engine_op_t;

//  One request: a slot of the stream's queue, with its own buffer.
typedef struct _engine_request_t {
    engine_op_t op;                 //  read or write
    uint32_t file;                  //  index into the engine's descriptors
    uint64_t offset;                //  where in the file
    size_t length_bytes;            //  how much, at most the slot's buffer
    unsigned char *buffer;          //  the slot's buffer (bs bytes, page-aligned), the engine's
    int64_t begin_ns;               //  when it was issued (the caller's clock read)
    int64_t end_ns;                 //  when its completion was seen (the engine's)
    ssize_t result;                 //  bytes moved, or -errno
    size_t done_bytes;              //  moved so far (a short transfer being resubmitted)
    uint32_t index;                 //  the slot's own number, the engine's
} engine_request_t;

//  One engine: its name and its operations (each file of this folder
//  declares one with designated initializers).
typedef struct {
    const char *name;               //  as the `engine` option names it
    //  Whether this host lets the engine run at all, asked before a job
    //  creates anything: NULL for always. Returns 0, or -1 with the
    //  reason and what to do instead in err.
    int (*probe) (char *err, size_t errlen);
    //  Make the engine's own state (self->state). Returns 0, or -1 with
    //  the reason in err.
    int (*open) (engine_t *self, char *err, size_t errlen);
    //  Take a queued request to hand to the kernel (psync: do it now).
    void (*queue) (engine_t *self, engine_request_t *request);
    //  Hand the queued requests over and gather completions into
    //  self->done; with wait, at least one while any is in flight, or
    //  until deadline_ns (CLOCK_MONOTONIC) if not 0. Returns 0, or -1
    //  with errno when the engine itself failed.
    int (*reap) (engine_t *self, bool wait, int64_t deadline_ns);
    //  The descriptors changed (a file opened again): tell the kernel
    //  where they are registered. NULL for nothing to do. Returns 0, or
    //  -1 with errno.
    int (*files_changed) (engine_t *self);
    //  Release the state; nothing is in flight.
    void (*close) (engine_t *self);
} engine_ops_t;

//  The state every engine shares, read by the engines' own files.
struct _engine_t {
    const engine_ops_t *ops;        //  the engine's operations
    const int *fds;                 //  the descriptors requests name by index (borrowed)
    uint32_t fd_count;              //  how many
    uint32_t depth;                 //  slots: requests in flight at most
    size_t buffer_bytes;            //  bytes of each slot's buffer
    bool direct;                    //  the descriptors are O_DIRECT
    engine_request_t *slots;        //  depth of them
    unsigned char *buffers;         //  depth x buffer_bytes, page-aligned, one block
    size_t buffers_mapped;          //  bytes mapped for them with iomem = huge, 0 from the heap
    uint32_t *free;                 //  indices of the free slots, a stack
    uint32_t free_count;            //  how many are free
    engine_request_t **done;        //  completions gathered by reap, depth at most
    uint32_t done_count;            //  how many
    uint32_t done_next;             //  the next of them engine_reap hands out
    uint32_t in_flight;             //  queued or with the kernel, not yet handed out
    uint32_t in_flight_max;         //  the most there were at once
    bool failed;                    //  the engine itself failed (its ring): it is done
    char error [ENGINE_ERROR_MAX];  //  the engine's words for its first failure (of a
                                    //  request or its own), "" for none or for errno's
    const void *target;             //  what the requests go to when not descriptors
                                    //  (nfs: the file), NULL for the others; for open
    void *state;                    //  the engine's own
};

//  A stream's slots: how many requests it keeps in flight at most, the
//  bytes of each one's buffer, and what the buffers are made of.
typedef struct {
    uint32_t depth;                 //  slots, 1 or more
    size_t buffer_bytes;            //  bytes of each slot's buffer
    int iomem;                      //  job_iomem_t
} engine_slots_t;

//  The slots a job asks for: iodepth (1 without one) of bs bytes, of
//  its iomem.
engine_slots_t engine_slots (const jobspec_t *spec);

//  The engine the job asks for, with the slots given, over fds [0 ..
//  fd_count - 1] (borrowed: they must outlive it). The slots' buffers
//  are one zeroed block, page-aligned; with iomem = huge, aligned to
//  huge pages and asked of the kernel as such (madvise) before they are
//  first touched: it backs them with huge pages where it can (THP not
//  "never", a free block of 2M), else with base pages. Returns NULL
//  with the reason in err: for an engine this host refuses, "engine
//  io_uring: REASON; use engine = psync".
engine_t *engine_new (int engine, engine_slots_t slots, const int *fds, uint32_t fd_count,
                      bool direct, char *err, size_t errlen);

//  The slots and the state of the engine ops, for the engine files:
//  engine_new once the option is known, engine_new_nfs. target is for
//  ops->open (borrowed until it returns). NULL with the reason in err.
engine_t *engine_make (const engine_ops_t *ops, engine_slots_t slots, const int *fds,
                       uint32_t fd_count, bool direct, const void *target, char *err,
                       size_t errlen);

//  An NFS file open on a libnfs context, as engine_new_nfs reads it.
struct nfs_context;
struct nfsfh;
typedef struct {
    struct nfs_context *nfs;        //  the stream's own context (its connection)
    struct nfsfh *nfsfh;            //  the file, open on it
    const char *shown;              //  its URL as messages show it
} engine_nfs_file_t;

//  An engine that reads file (nfs.c): slots.depth READ calls in flight,
//  each of slots.buffer_bytes at most, through libnfs's asynchronous
//  interface and one poll loop in the calling thread. The context and
//  the file are borrowed: they must outlive the engine, but while
//  requests may be in flight (a failed engine) the context is destroyed
//  first, as libnfs calls back every call it cancels then. Returns NULL
//  with the reason in err.
engine_t *engine_new_nfs (const engine_nfs_file_t *file, engine_slots_t slots, char *err,
                          size_t errlen);

//  The engine's own account of its first failure, a whole message ("" if
//  it left it to errno): libnfs's words and the file, for an NFS one.
const char *engine_error (const engine_t *self);

//  Whether this host runs the engine the job asks for, before the job
//  creates anything (a job's validate): 0, or -1 with "engine io_uring:
//  REASON; use engine = psync" in err.
int engine_check (const jobspec_t *spec, char *err, size_t errlen);

//  Copy buffer_bytes of pattern into every slot's buffer (but its own,
//  if it is a slot's): what the requests write.
void engine_fill (engine_t *self, const unsigned char *pattern);

//  Release the engine; nothing may be in flight. Safe on NULL, NULLs the
//  caller's pointer.
void engine_destroy (engine_t **self_p);

//  A free slot to fill, NULL when depth requests are in flight.
engine_request_t *engine_slot (engine_t *self);

//  Queue a filled slot: op, file, offset, length_bytes and begin_ns set.
void engine_queue (engine_t *self, engine_request_t *request);

//  Hand what is queued to the kernel and return one completed request,
//  or NULL: with wait, NULL only when nothing is in flight. Completions
//  already seen are handed out before the kernel is asked again. On a
//  failure of the engine itself returns NULL with errno set (and
//  engine_failed true).
engine_request_t *engine_reap (engine_t *self, bool wait);

//  The next completion already seen (the rest of a batch engine_reap
//  took), or NULL: the kernel is not asked. A loop that reaps, counts
//  the batch, fills the free slots and reaps again makes one system
//  call a batch.
engine_request_t *engine_reaped (engine_t *self);

//  Hand what is queued to the kernel now, without waiting (psync did it
//  as it was queued); completions seen on the way wait for engine_reap.
//  Returns 0, or -1 with errno when the engine itself failed.
int engine_submit (engine_t *self);

//  The descriptors the engine was given hold other files now (a file
//  opened again between phases). Returns 0, or -1 with errno.
int engine_files_changed (engine_t *self);

//  As engine_reap with wait, but NULL at deadline_ns too (a paced
//  stream waits for completions until its next request is due).
engine_request_t *engine_reap_until (engine_t *self, int64_t deadline_ns);

//  True once the engine itself failed (not a request: its ring).
bool engine_failed (const engine_t *self);

//  Give a completed request's slot back.
void engine_release (engine_t *self, engine_request_t *request);

//  Requests queued or in flight, not yet reaped.
static inline uint32_t
engine_in_flight (const engine_t *self)
{
    return self->in_flight;
}

//  The most requests there were in flight at once.
static inline uint32_t
engine_depth_max (const engine_t *self)
{
    return self->in_flight_max;
}

//  Memory of a stream's engine: its buffers, and a queue's slots.
uint64_t engine_memory (const jobspec_t *spec);

//  What the engines share with the engine files: a completion seen.
void engine_completed (engine_t *self, engine_request_t *request);

//  The ops of each engine (psync.c, io_uring.c).
extern const engine_ops_t engine_psync_ops;
extern const engine_ops_t engine_io_uring_ops;

#endif
