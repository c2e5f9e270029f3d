/*  agent/engines/engine.c: the slots every engine shares, and the one
    table of engines; see engine.h. */
#include "engine.h"

#include "../../proto/clock.h"
#include "../../proto/workload.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

//  Bytes of a transparent huge page on the hosts the agent runs on
//  (x86-64, arm64 with 4K base pages).
#define S_HUGE_PAGE_BYTES (2u << 20)

//  bytes rounded up to whole huge pages.
static uint64_t
s_huge_pages_bytes (uint64_t bytes)
{
    return (bytes + S_HUGE_PAGE_BYTES - 1) / S_HUGE_PAGE_BYTES * S_HUGE_PAGE_BYTES;
}

//  The engines, indexed by the `engine` option's values.
static const engine_ops_t *const s_engines [] = {
    [JOB_ENGINE_PSYNC] = &engine_psync_ops,
    [JOB_ENGINE_IO_URING] = &engine_io_uring_ops,
};

//  The engine of an option value, or NULL with the reason in err.
static const engine_ops_t *
s_engine (int engine, char *err, size_t errlen)
{
    if (engine < 0 || (size_t) engine >= sizeof (s_engines) / sizeof (s_engines [0])
    ||  !s_engines [engine]) {
        snprintf (err, errlen, "engine %d is not known to this agent", engine);
        return NULL;
    }
    return s_engines [engine];
}

int
engine_check (const jobspec_t *spec, char *err, size_t errlen)
{
    const engine_ops_t *ops = s_engine (spec->engine, err, errlen);
    if (!ops)
        return -1;
    return ops->probe? ops->probe (err, errlen): 0;
}

//  The slots' buffers (in whole huge pages with iomem = huge), and for a
//  queue the table of slots beside them (one slot's fits in what a
//  stream's figures are counted as).
uint64_t
engine_memory (const jobspec_t *spec)
{
    engine_slots_t slots = engine_slots (spec);
    uint64_t depth = slots.depth;
    uint64_t table = depth > 1? depth * (sizeof (engine_request_t) + 2 * sizeof (void *)): 0;
    uint64_t buffers = depth * slots.buffer_bytes;
    return (slots.iomem == JOB_IOMEM_HUGE? s_huge_pages_bytes (buffers): buffers) + table;
}

engine_slots_t
engine_slots (const jobspec_t *spec)
{
    return (engine_slots_t) { .depth = (uint32_t) (spec->iodepth? spec->iodepth: 1),
                              .buffer_bytes = (size_t) spec->bs_bytes,
                              .iomem = spec->iomem };
}

//  The engine the option names, over descriptors.
engine_t *
engine_new (int engine, engine_slots_t slots, const int *fds, uint32_t fd_count, bool direct,
            char *err, size_t errlen)
{
    const engine_ops_t *ops = s_engine (engine, err, errlen);
    if (!ops)
        return NULL;
    return engine_make (ops, slots, fds, fd_count, direct, NULL, err, errlen);
}

//  The slots' buffers, bytes of them in one block, into self: from the
//  heap, or with iomem = huge a mapping of whole huge pages aligned to
//  one (the kernel backs a huge page only where the virtual range holds
//  one whole), asked for as huge before the first touch. Zeroed, which
//  faults them in now rather than at the first requests. Returns 0, or
//  -1 with errno set.
static int
s_buffers_new (engine_t *self, size_t bytes, int iomem)
{
    if (iomem != JOB_IOMEM_HUGE) {
        void *block = NULL;
        int rc = posix_memalign (&block, IO_BUFFER_ALIGN_BYTES, bytes);
        if (rc != 0) {
            errno = rc;
            return -1;
        }
        self->buffers = block;
        memset (self->buffers, 0, bytes);
        return 0;
    }
    size_t mapped = (size_t) s_huge_pages_bytes (bytes);
    //  Mapped one huge page longer, then cut to the aligned part: head
    //  bytes before it (less than a huge page), the rest after it.
    unsigned char *base = mmap (NULL, mapped + S_HUGE_PAGE_BYTES, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        return -1;
    size_t head = (S_HUGE_PAGE_BYTES - (uintptr_t) base % S_HUGE_PAGE_BYTES) % S_HUGE_PAGE_BYTES;
    unsigned char *aligned = base + head;
    if (head)
        munmap (base, head);
    munmap (aligned + mapped, S_HUGE_PAGE_BYTES - head);
    //  Refused only by a kernel without THP: base pages then.
    madvise (aligned, mapped, MADV_HUGEPAGE);
    self->buffers = aligned;
    self->buffers_mapped = mapped;
    memset (self->buffers, 0, bytes);
    return 0;
}

//  The slots, then the engine's own state.
engine_t *
engine_make (const engine_ops_t *ops, engine_slots_t slots, const int *fds, uint32_t fd_count,
             bool direct, const void *target, char *err, size_t errlen)
{
    uint32_t depth = slots.depth;
    size_t buffer_bytes = slots.buffer_bytes;
    assert (depth >= 1 && buffer_bytes > 0);
    engine_t *self = calloc (1, sizeof (engine_t));
    if (!self) {
        snprintf (err, errlen, "engine %s: %s", ops->name, strerror (ENOMEM));
        return NULL;
    }
    self->ops = ops;
    self->fds = fds;
    self->fd_count = fd_count;
    self->depth = depth;
    self->buffer_bytes = buffer_bytes;
    self->direct = direct;
    self->target = target;
    self->slots = calloc (depth, sizeof (engine_request_t));
    self->free = calloc (depth, sizeof (uint32_t));
    self->done = calloc (depth, sizeof (engine_request_t *));
    if (!self->slots || !self->free || !self->done
    ||  s_buffers_new (self, (size_t) depth * buffer_bytes, slots.iomem) == -1) {
        snprintf (err, errlen, "engine %s: %u slots of %zu bytes%s: %s", self->ops->name, depth,
                  buffer_bytes, slots.iomem == JOB_IOMEM_HUGE? " in huge pages": "",
                  strerror (errno));
        goto fail;
    }
    for (uint32_t index = 0; index < depth; index++) {
        self->slots [index].index = index;
        self->slots [index].buffer = self->buffers + (size_t) index * buffer_bytes;
        self->free [index] = depth - 1 - index;     //  slot 0 is handed out first
    }
    self->free_count = depth;
    if (self->ops->open (self, err, errlen) == -1)
        goto fail;
    self->target = NULL;
    return self;
fail:
    self->ops = NULL;
    engine_destroy (&self);
    return NULL;
}

//  Close the engine's state, free the slots.
void
engine_destroy (engine_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    engine_t *self = *self_p;
    assert (self->in_flight == 0 || self->failed);
    if (self->ops)
        self->ops->close (self);
    if (self->buffers_mapped)
        munmap (self->buffers, self->buffers_mapped);
    else
        free (self->buffers);
    free (self->slots);
    free (self->free);
    free (self->done);
    free (self);
    *self_p = NULL;
}

void
engine_fill (engine_t *self, const unsigned char *pattern)
{
    for (uint32_t index = 0; index < self->depth; index++)
        if (self->slots [index].buffer != pattern)
            memcpy (self->slots [index].buffer, pattern, self->buffer_bytes);
}

engine_request_t *
engine_slot (engine_t *self)
{
    if (self->free_count == 0)
        return NULL;
    engine_request_t *request = &self->slots [self->free [--self->free_count]];
    request->result = 0;
    request->done_bytes = 0;
    request->end_ns = 0;
    return request;
}

void
engine_queue (engine_t *self, engine_request_t *request)
{
    assert (request->length_bytes <= self->buffer_bytes && request->file < self->fd_count);
    self->in_flight++;
    if (self->in_flight > self->in_flight_max)
        self->in_flight_max = self->in_flight;
    self->ops->queue (self, request);
}

//  A completion the engine saw, to be handed out.
void
engine_completed (engine_t *self, engine_request_t *request)
{
    if (self->done_next == self->done_count)
        self->done_next = self->done_count = 0;     //  every one before was handed out
    assert (self->done_count < self->depth);
    self->done [self->done_count++] = request;
}

//  Hand out a completion seen, or ask the engine for more.
static engine_request_t *
s_reap (engine_t *self, bool wait, int64_t deadline_ns)
{
    if (self->failed)
        return NULL;
    if (self->done_next == self->done_count) {
        self->done_next = self->done_count = 0;
        if (self->in_flight == 0)
            return NULL;
        if (self->ops->reap (self, wait, deadline_ns) == -1) {
            self->failed = true;
            return NULL;
        }
        if (self->done_count == 0)
            return NULL;
    }
    engine_request_t *request = self->done [self->done_next++];
    self->in_flight--;
    return request;
}

engine_request_t *
engine_reap (engine_t *self, bool wait)
{
    return s_reap (self, wait, 0);
}

engine_request_t *
engine_reaped (engine_t *self)
{
    if (self->done_next == self->done_count)
        return NULL;
    self->in_flight--;
    return self->done [self->done_next++];
}

engine_request_t *
engine_reap_until (engine_t *self, int64_t deadline_ns)
{
    return s_reap (self, true, deadline_ns);
}

int
engine_submit (engine_t *self)
{
    if (self->failed)
        return -1;
    if (self->ops->reap (self, false, 0) == -1) {
        self->failed = true;
        return -1;
    }
    return 0;
}

int
engine_files_changed (engine_t *self)
{
    return self->ops->files_changed? self->ops->files_changed (self): 0;
}

bool
engine_failed (const engine_t *self)
{
    return self->failed;
}

const char *
engine_error (const engine_t *self)
{
    return self->error;
}

void
engine_release (engine_t *self, engine_request_t *request)
{
    assert (self->free_count < self->depth);
    self->free [self->free_count++] = request->index;
}
