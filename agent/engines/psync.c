/*  agent/engines/psync.c: one pread or pwrite at a time, at the moment a
    request is queued: the path every workload had before engines, and
    the default. Its queue is the call itself, so a stream on psync has
    at most one request in flight whatever iodepth says (the option's
    check refuses iodepth > 1 with psync). A short transfer completes as
    it is: the workload says what it means. */
#include "engine.h"

#include "../../proto/clock.h"

#include <errno.h>
#include <unistd.h>

//  Nothing of its own.
static int
s_psync_open (engine_t *self, char *err, size_t errlen)
{
    (void) self;
    (void) err;
    (void) errlen;
    return 0;
}

//  The call, now; its completion waits for reap.
static void
s_psync_queue (engine_t *self, engine_request_t *request)
{
    int fd = self->fds [request->file];
    ssize_t moved;
    do {
        unsigned char *buffer = request->buffer + request->done_bytes;
        size_t length = request->length_bytes - request->done_bytes;
        off_t offset = (off_t) (request->offset + request->done_bytes);
        moved = request->op == ENGINE_READ? pread (fd, buffer, length, offset)
                                          : pwrite (fd, buffer, length, offset);
        request->end_ns = clock_now_ns ();
        if (moved > 0)
            request->done_bytes += (size_t) moved;
    } while ((moved == -1 && errno == EINTR)
          || (moved > 0 && request->done_bytes < request->length_bytes));
    request->result = moved == -1? -errno: (ssize_t) request->done_bytes;
    engine_completed (self, request);
}

//  Everything queued is complete already.
static int
s_psync_reap (engine_t *self, bool wait, int64_t deadline_ns)
{
    (void) self;
    (void) wait;
    (void) deadline_ns;
    return 0;
}

//  Nothing to release.
static void
s_psync_close (engine_t *self)
{
    (void) self;
}

const engine_ops_t engine_psync_ops = {
    .name = "psync",
    .probe = NULL,              //  every host has pread and pwrite
    .open = s_psync_open,
    .queue = s_psync_queue,
    .reap = s_psync_reap,
    .files_changed = NULL,      //  the descriptors are read at every call
    .close = s_psync_close,
};
