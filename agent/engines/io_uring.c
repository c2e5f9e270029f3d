/*  agent/engines/io_uring.c: iodepth requests in flight per stream
    through one io_uring (liburing).

    At prepare (engine_new, in the stream's own thread, which alone uses
    the ring afterwards: IORING_SETUP_SINGLE_ISSUER; completions' task
    work deferred until the thread asks for events, DEFER_TASKRUN, with
    a flag in the ring when some waits, TASKRUN_FLAG, so that looking at
    the ring costs a call only when there is something to see; older
    kernels get COOP_TASKRUN, or nothing) the ring is made with iodepth
    entries (the job's validate made and closed one of a single entry
    already, before the job created anything), the slots' buffers are
    registered (fixed buffers: the kernel maps them once, not at every
    request) and so are the stream's descriptors (fixed files: no file
    lookup per request).
    Either registration may be refused (a memlock limit, a table too
    large) and the requests then name plain buffers or descriptors; the
    ring itself may not: a host whose kernel or container refuses
    io_uring (kernel.io_uring_disabled, a seccomp filter, a kernel
    without it) fails the job here, at prepare, with the reason and
    "use engine = psync". Nothing falls back to psync silently.

    Requests are prepared into the submission queue as the workload
    queues them. A request that continues the one queued before it (the
    same file, from where that one ends) waits there, to be handed to the
    kernel with the others in one io_uring_enter when the stream reaps,
    the wait in the same call (io_uring_submit_and_wait): a sequential
    stream makes one system call a batch, and the block layer sees its
    batch at once, to merge. A request elsewhere goes to the kernel at
    once, with whatever waits before it: a batch of random requests gains
    no merge and held the device's queue short. Measured on a virtio
    disk (mq-deadline), one stream of 4K random O_DIRECT reads at iodepth
    32, medians of 5 alternating rounds: 61.8k requests/s handed over a
    batch a reap, 80.3k as here, fio's io_uring (which submits one by
    one) 75.5k; at iodepth 8, 56.4k, 59.9k and 58.3k. 128K sequential
    reads and writes at iodepth 16 make the same system calls either
    way. Completions already in the ring are taken without entering the
    kernel (io_uring_for_each_cqe, one io_uring_cq_advance for the
    batch); one clock read stamps a batch of them. The ring's descriptor
    is registered too where the kernel allows it.

    An O_DIRECT write past the end of its file goes to io_uring's
    workers at once (IOSQE_ASYNC). A file system extends a file only
    waiting (ext4 holds the inode's lock for the whole write), so the
    first attempt io_uring makes, in the stream's thread and without
    waiting, is refused every time, and the request goes to a worker
    after it anyway. Those attempts cost more than the refusal: one
    stream writing a new file of 1G in 128K requests at iodepth 16, on
    ext4 over a virtio disk, made 500 MB/s at 148 CPU s per million
    requests with them (its workers spinning on the inode's lock four
    times as long as fio's, p99 at 17-20 ms) and 1055 MB/s at 49 CPU s
    without; fio's io_uring 830 MB/s at 88 (make bench, sn-16). A write
    extends its file when it ends past the furthest end of the writes
    queued before it, or of the file as it was opened; any other is
    tried at once, as before.

    A short transfer is prepared again for its rest and goes out with the
    next submission; a transfer that moved nothing (the end of the file)
    completes with what it had moved.
*/
#include "engine.h"

#include "../../proto/clock.h"

#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>

//  The ring and what was registered with it.
typedef struct {
    struct io_uring ring;           //  the ring, iodepth entries
    bool fixed_buffers;             //  the slots' buffers are registered, by slot index
    bool fixed_files;               //  the descriptors are registered, by their index
    uint32_t prepared;              //  requests in the submission queue, not yet handed over
    uint32_t last_file;             //  the file of the request queued last
    uint64_t last_end;              //  and where it ended: a request from there continues it
    uint64_t *file_ends;            //  per descriptor: its size at open, or where the
                                    //  furthest write queued since ends; O_DIRECT only
} s_uring_t;

//  Each descriptor's size, as where a write would begin to extend it.
//  A descriptor that cannot say is taken as endless: its writes are
//  tried at once, as any. Returns 0, or -1 if memory ran out.
static int
s_file_ends_read (engine_t *self, s_uring_t *uring)
{
    if (!self->direct)
        return 0;
    if (!uring->file_ends)
        uring->file_ends = calloc (self->fd_count? self->fd_count: 1, sizeof (uint64_t));
    if (!uring->file_ends)
        return -1;
    for (uint32_t file = 0; file < self->fd_count; file++) {
        struct stat st;
        uring->file_ends [file] = fstat (self->fds [file], &st) == 0 && S_ISREG (st.st_mode)?
                                  (uint64_t) st.st_size: UINT64_MAX;
    }
    return 0;
}

//  Why the kernel refused a ring, for the message: the sysctl if it is
//  set, else what such an errno usually means here.
static const char *
s_refusal (int err_no, char *buf, size_t buflen)
{
    FILE *file = fopen ("/proc/sys/kernel/io_uring_disabled", "r");
    int disabled = 0;
    if (file) {
        if (fscanf (file, "%d", &disabled) != 1)
            disabled = 0;
        fclose (file);
    }
    if (disabled)
        snprintf (buf, buflen, "kernel.io_uring_disabled = %d", disabled);
    else
    if (err_no == ENOSYS)
        snprintf (buf, buflen, "this kernel has no io_uring, or a seccomp filter hides it");
    else
    if (err_no == EPERM || err_no == EACCES)
        snprintf (buf, buflen, "refused by a seccomp filter or a security module");
    else
        snprintf (buf, buflen, "the ring could not be made");
    return buf;
}

//  The message of a ring refused with -rc, for `entries`.
static void
s_refused (int rc, unsigned entries, char *err, size_t errlen)
{
    char reason [128];
    snprintf (err, errlen, "engine io_uring: io_uring_setup(entries=%u): %s (%s); "
              "use engine = psync", entries, strerror (-rc), s_refusal (-rc, reason,
                                                                       sizeof (reason)));
}

//  A ring of one entry, made and closed: the host takes io_uring.
static int
s_uring_probe (char *err, size_t errlen)
{
    struct io_uring ring;
    int rc = io_uring_queue_init (1, &ring, 0);
    if (rc < 0) {
        s_refused (rc, 1, err, errlen);
        return -1;
    }
    io_uring_queue_exit (&ring);
    return 0;
}

//  The ring, with the cheapest flags this kernel takes, then the
//  registrations.
static int
s_uring_open (engine_t *self, char *err, size_t errlen)
{
    s_uring_t *uring = calloc (1, sizeof (s_uring_t));
    if (!uring || s_file_ends_read (self, uring) == -1) {
        free (uring);
        snprintf (err, errlen, "engine io_uring: %s", strerror (ENOMEM));
        return -1;
    }
    static const unsigned flag_sets [] = {
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
        IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
        0
    };
    int rc = -EINVAL;
    for (size_t i = 0; i < sizeof (flag_sets) / sizeof (flag_sets [0]) && rc == -EINVAL; i++) {
        struct io_uring_params params = { .flags = flag_sets [i] };
        rc = io_uring_queue_init_params (self->depth, &uring->ring, &params);
    }
    if (rc < 0) {
        s_refused (rc, self->depth, err, errlen);
        free (uring->file_ends);
        free (uring);
        return -1;
    }
    struct iovec *iovecs = calloc (self->depth, sizeof (struct iovec));
    if (iovecs) {
        for (uint32_t index = 0; index < self->depth; index++)
            iovecs [index] = (struct iovec) { .iov_base = self->slots [index].buffer,
                                              .iov_len = self->buffer_bytes };
        uring->fixed_buffers = io_uring_register_buffers (&uring->ring, iovecs,
                                                          self->depth) == 0;
        free (iovecs);
    }
    uring->fixed_files = io_uring_register_files (&uring->ring, self->fds,
                                                  self->fd_count) == 0;
    //  The ring's own descriptor registered too (5.18): io_uring_enter
    //  then looks no file up either. Refused, it is looked up.
    io_uring_register_ring_fd (&uring->ring);
    self->state = uring;
    return 0;
}

//  Prepare the rest of request (all of it at first) into the queue.
//  The ring has an entry for every slot, so there is always one free.
static void
s_prepare (engine_t *self, s_uring_t *uring, engine_request_t *request)
{
    struct io_uring_sqe *sqe = io_uring_get_sqe (&uring->ring);
    if (!sqe) {
        //  Entries are handed over before they are reused: only a ring
        //  full of requests prepared and not submitted gets here.
        io_uring_submit (&uring->ring);
        uring->prepared = 0;
        sqe = io_uring_get_sqe (&uring->ring);
    }
    int fd = uring->fixed_files? (int) request->file: self->fds [request->file];
    unsigned char *buffer = request->buffer + request->done_bytes;
    unsigned length = (unsigned) (request->length_bytes - request->done_bytes);
    uint64_t offset = request->offset + request->done_bytes;
    if (uring->fixed_buffers && request->op == ENGINE_READ)
        io_uring_prep_read_fixed (sqe, fd, buffer, length, offset, (int) request->index);
    else
    if (uring->fixed_buffers)
        io_uring_prep_write_fixed (sqe, fd, buffer, length, offset, (int) request->index);
    else
    if (request->op == ENGINE_READ)
        io_uring_prep_read (sqe, fd, buffer, length, offset);
    else
        io_uring_prep_write (sqe, fd, buffer, length, offset);
    if (uring->fixed_files)
        sqe->flags |= IOSQE_FIXED_FILE;
    //  A write past the end: to the workers at once (the comment atop).
    if (request->op == ENGINE_WRITE && uring->file_ends
    &&  offset + length > uring->file_ends [request->file]) {
        sqe->flags |= IOSQE_ASYNC;
        uring->file_ends [request->file] = offset + length;
    }
    io_uring_sqe_set_data (sqe, request);
    uring->prepared++;
}

//  A request continuing the last one waits for the batch; any other
//  goes to the kernel now, with what waits before it, unless it takes
//  the last free slot: the stream reaps next, and the submission goes
//  with the wait, one call for both (at iodepth 1, every request).
static void
s_uring_queue (engine_t *self, engine_request_t *request)
{
    s_uring_t *uring = self->state;
    bool continues = request->file == uring->last_file && request->offset == uring->last_end;
    uring->last_file = request->file;
    uring->last_end = request->offset + request->length_bytes;
    s_prepare (self, uring, request);
    if (!continues && self->free_count > 0 && io_uring_submit (&uring->ring) >= 0)
        uring->prepared = 0;
}

//  Take the completions in the ring, as they are there (no call: what
//  the kernel holds back for its deferred task work comes with the next
//  io_uring_enter): whole ones are done, short ones go out again for
//  their rest. One clock read stamps the batch. Returns how many were
//  taken.
static unsigned
s_take (engine_t *self, s_uring_t *uring)
{
    struct io_uring_cqe *cqe;
    unsigned head, count = 0;
    int64_t now_ns = 0;
    io_uring_for_each_cqe (&uring->ring, head, cqe) {
        if (count++ == 0)
            now_ns = clock_now_ns ();
        engine_request_t *request = io_uring_cqe_get_data (cqe);
        int res = cqe->res;
        if (res > 0 && request->done_bytes + (size_t) res < request->length_bytes) {
            request->done_bytes += (size_t) res;
            s_prepare (self, uring, request);
            continue;
        }
        if (res > 0)
            request->done_bytes += (size_t) res;
        request->result = res < 0? res: (ssize_t) request->done_bytes;
        request->end_ns = now_ns;
        engine_completed (self, request);
    }
    io_uring_cq_advance (&uring->ring, count);
    return count;
}

//  True if the kernel holds completions the ring does not show yet:
//  their task work waits for the thread to enter (TASKRUN_FLAG), or the
//  ring overflowed.
static inline bool
s_held_back (const s_uring_t *uring)
{
    return IO_URING_READ_ONCE (*uring->ring.sq.kflags) & (IORING_SQ_TASKRUN
                                                          | IORING_SQ_CQ_OVERFLOW);
}

//  Submit what is prepared and wait for a completion, until deadline_ns
//  if not 0 (then -ETIME once it passed). Returns what liburing did.
static int
s_submit_and_wait (s_uring_t *uring, int64_t deadline_ns)
{
    if (!deadline_ns)
        return io_uring_submit_and_wait (&uring->ring, 1);
    int64_t left_ns = deadline_ns - clock_now_ns ();
    if (left_ns <= 0) {
        int rc = io_uring_submit (&uring->ring);
        return rc < 0? rc: -ETIME;
    }
    struct __kernel_timespec timeout = { .tv_sec = left_ns / NS_PER_SEC,
                                         .tv_nsec = left_ns % NS_PER_SEC };
    struct io_uring_cqe *cqe;
    return io_uring_submit_and_wait_timeout (&uring->ring, &cqe, 1, &timeout, NULL);
}

//  Hand over what is prepared; with wait, until a completion is whole
//  (or the deadline). One io_uring_enter does all of it: the
//  submission, the completions' task work, the wait; and none at all
//  when nothing is prepared, the ring holds what was asked for, and the
//  kernel holds nothing back.
static int
s_uring_reap (engine_t *self, bool wait, int64_t deadline_ns)
{
    s_uring_t *uring = self->state;
    s_take (self, uring);
    for (;;) {
        bool must_wait = wait && self->done_count == 0;
        if (uring->prepared == 0 && !must_wait && !s_held_back (uring))
            return 0;
        int rc = must_wait? s_submit_and_wait (uring, deadline_ns)
                          : io_uring_submit_and_get_events (&uring->ring);
        //  What was prepared is handed over, whether or not a wait
        //  timed out after it.
        if (rc >= 0 || rc == -ETIME)
            uring->prepared = 0;
        else
        if (rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
            errno = -rc;
            return -1;
        }
        s_take (self, uring);
        if (!must_wait || self->done_count > 0 || rc == -ETIME)
            return 0;
    }
}

//  The registered table and the files' ends again, from the descriptors
//  as they are now.
static int
s_uring_files_changed (engine_t *self)
{
    s_uring_t *uring = self->state;
    if (s_file_ends_read (self, uring) == -1) {
        errno = ENOMEM;
        return -1;
    }
    if (!uring->fixed_files)
        return 0;
    int rc = io_uring_register_files_update (&uring->ring, 0, self->fds, self->fd_count);
    if (rc < 0) {
        errno = -rc;
        return -1;
    }
    return 0;
}

//  The ring goes, with its registrations.
static void
s_uring_close (engine_t *self)
{
    s_uring_t *uring = self->state;
    if (!uring)
        return;
    io_uring_queue_exit (&uring->ring);
    free (uring->file_ends);
    free (uring);
    self->state = NULL;
}

const engine_ops_t engine_io_uring_ops = {
    .name = "io_uring",
    .probe = s_uring_probe,
    .open = s_uring_open,
    .queue = s_uring_queue,
    .reap = s_uring_reap,
    .files_changed = s_uring_files_changed,
    .close = s_uring_close,
};
