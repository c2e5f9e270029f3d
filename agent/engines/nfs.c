/*  agent/engines/nfs.c: iodepth READ calls in flight on an nfs:// file,
    through libnfs's asynchronous interface, so that a fast server is not
    measured one round trip at a time.

    The stream's own libnfs context (its own TCP connection, opened at
    prepare by the workload) carries every call; one poll loop in the
    stream's thread drives it (nfs_get_fd, nfs_which_events,
    nfs_service), with no thread per request. A request is one
    nfs_pread_async: libnfs splits a call larger than the server's
    maximum READ into several on the wire and answers once, with its
    own buffer, which the callback copies into the slot's (as the
    synchronous nfs_pread does). A READ that comes back shorter than
    asked, not at the end of the file, goes out again for its rest, as
    every engine resubmits a short transfer. Completions come in any
    order; each is stamped when its callback runs.

    Nothing waits for ever on a server that died or hangs. libnfs fails
    every call that had no answer within the context's timeout (the
    workload sets it), as long as nfs_service runs, so the loop runs it
    at least every S_NFS_SLICE_NS even when nothing comes; and should
    no answer come for S_NFS_STALL_SLACK_NS beyond that timeout while
    calls are out, the engine fails by itself. A connection that broke
    (the server's end closed or reset) is libnfs's to connect again,
    and until the server is back the socket polls as broken at once,
    again and again: the loop then looks at it once a slice rather
    than spinning, and the calls fail at their timeout, saying the
    connection was lost. Every message names the URL (server and path)
    and says what libnfs said. The `engine` option does not apply:
    whatever it names, an nfs:// file is read here.
*/
#include "engine.h"

#include "../../proto/clock.h"

#include <assert.h>
#include <errno.h>
#include <nfsc/libnfs.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  The longest the loop sleeps between two runs of nfs_service (libnfs
//  checks its timeouts there), and how long past libnfs's own timeout
//  the engine waits for an answer before failing by itself.
#define S_NFS_SLICE_NS          (100 * NS_PER_MSEC)
#define S_NFS_STALL_SLACK_NS    (5 * NS_PER_SEC)
//  The wait for an answer when the context has no timeout.
#define S_NFS_STALL_NS          (30 * NS_PER_SEC)

//  One slot's call: what its callback needs to find its way back.
typedef struct {
    engine_t *engine;               //  the engine it belongs to
    engine_request_t *request;      //  the slot's request
    int64_t sent_ns;                //  when its last READ went out
} s_call_t;

//  The engine's state.
typedef struct {
    struct nfs_context *context;    //  the stream's connection (borrowed)
    struct nfsfh *nfsfh;            //  the file (borrowed)
    char *shown;                    //  its URL as messages show it
    s_call_t *calls;                //  one a slot
    uint32_t out;                   //  READ calls libnfs holds, not called back yet
    int64_t heard_ns;               //  the last answer, or when a call went out after none was
    bool lost;                      //  the connection broke since the last answer
    int timeout_ms;                 //  libnfs's timeout of a call, <= 0 for none
    int64_t stall_ns;               //  no answer for this long with calls out: the engine fails
} s_nfs_t;

//  The state; the context and the file are the workload's.
static void
s_nfs_close (engine_t *self)
{
    s_nfs_t *nfs = self->state;
    if (!nfs)
        return;
    free (nfs->shown);
    free (nfs->calls);
    free (nfs);
    self->state = NULL;
}

//  The engine's state from the file engine_make passed on.
static int
s_nfs_open (engine_t *self, char *err, size_t errlen)
{
    const engine_nfs_file_t *file = self->target;
    s_nfs_t *nfs = calloc (1, sizeof (s_nfs_t));
    if (!nfs)
        goto fail;
    self->state = nfs;
    nfs->shown = strdup (file->shown);
    nfs->calls = calloc (self->depth, sizeof (s_call_t));
    if (!nfs->shown || !nfs->calls)
        goto fail;
    nfs->context = file->nfs;
    nfs->nfsfh = file->nfsfh;
    for (uint32_t index = 0; index < self->depth; index++)
        nfs->calls [index] = (s_call_t) { .engine = self, .request = &self->slots [index] };
    nfs->timeout_ms = nfs_get_timeout (nfs->context);
    nfs->stall_ns = nfs->timeout_ms > 0?
                    (int64_t) nfs->timeout_ms * NS_PER_MSEC + S_NFS_STALL_SLACK_NS: S_NFS_STALL_NS;
    return 0;
fail:
    snprintf (err, errlen, "engine nfs(%s): %s", file->shown, strerror (ENOMEM));
    s_nfs_close (self);
    return -1;
}

static void s_read_done (int status, struct nfs_context *context, void *data, void *private_data);

//  Send the READ of what the call's request still lacks. Returns 0, or
//  -1 with the reason kept as the engine's error (if it is the first).
static int
s_send (engine_t *self, s_call_t *call)
{
    s_nfs_t *nfs = self->state;
    engine_request_t *request = call->request;
    uint64_t offset = request->offset + request->done_bytes;
    int64_t now_ns = clock_now_ns ();
    if (nfs->out == 0)
        nfs->heard_ns = now_ns;     //  the wait for an answer begins
    call->sent_ns = now_ns;
    if (nfs_pread_async (nfs->context, nfs->nfsfh, offset,
                         request->length_bytes - request->done_bytes, s_read_done, call) < 0) {
        if (!self->error [0])
            snprintf (self->error, sizeof (self->error), "nfs_pread_async(%s at %llu): %s",
                      nfs->shown, (unsigned long long) offset, nfs_get_error (nfs->context));
        return -1;
    }
    nfs->out++;
    return 0;
}

//  A READ that failed with status (-errno) and libnfs's reason: the
//  engine's error if it is the first, and the request's result. libnfs
//  cancels a call that timed out (-EINTR): that one says so.
static ssize_t
s_failed (engine_t *self, const s_call_t *call, int status, const char *reason,
          int64_t now_ns)
{
    s_nfs_t *nfs = self->state;
    const engine_request_t *request = call->request;
    unsigned long long offset = request->offset + request->done_bytes;
    bool timed_out = status == -EINTR && nfs->timeout_ms > 0
                  && now_ns - call->sent_ns >= ((int64_t) nfs->timeout_ms - 1000) * NS_PER_MSEC;
    if (!reason)
        reason = strerror (-status);
    if (!self->error [0] && timed_out)
        snprintf (self->error, sizeof (self->error), "nfs_pread(%s at %llu): %s within %d s "
                  "(libnfs: %s); is the server up?", nfs->shown, offset,
                  nfs->lost? "the connection to the server was lost and not made again"
                           : "no reply from the server", nfs->timeout_ms / 1000, reason);
    else
    if (!self->error [0])
        snprintf (self->error, sizeof (self->error), "nfs_pread(%s at %llu): %s",
                  nfs->shown, offset, reason);
    return timed_out? -ETIMEDOUT: status;
}

//  libnfs's answer to one READ (or its cancellation, when a call timed
//  out or the context goes): the bytes into the slot, the rest asked
//  for if it came short, else the request is complete. Runs inside
//  nfs_service, or inside nfs_destroy_context for the calls it cancels.
static void
s_read_done (int status, struct nfs_context *context, void *data, void *private_data)
{
    (void) context;
    s_call_t *call = private_data;
    engine_t *self = call->engine;
    //  A failed engine is done: its context is being destroyed.
    if (self->failed)
        return;
    s_nfs_t *nfs = self->state;
    engine_request_t *request = call->request;
    int64_t now_ns = clock_now_ns ();
    assert (nfs->out > 0);
    nfs->out--;
    nfs->heard_ns = now_ns;
    ssize_t result;
    if (status < 0)
        result = s_failed (self, call, status, data, now_ns);
    else {
        nfs->lost = false;
        size_t want = request->length_bytes - request->done_bytes;
        size_t got = (size_t) status < want? (size_t) status: want;
        memcpy (request->buffer + request->done_bytes, data, got);
        request->done_bytes += got;
        if (got > 0 && request->done_bytes < request->length_bytes) {
            if (s_send (self, call) == 0)
                return;
            result = -EIO;
        }
        else
            result = (ssize_t) request->done_bytes;
    }
    request->end_ns = now_ns;
    request->result = result;
    engine_completed (self, request);
}

//  The READ goes to libnfs, which sends it when the loop runs; one that
//  libnfs refuses completes at once, failed.
static void
s_nfs_queue (engine_t *self, engine_request_t *request)
{
    assert (request->op == ENGINE_READ);
    s_nfs_t *nfs = self->state;
    if (s_send (self, &nfs->calls [request->index]) == 0)
        return;
    request->end_ns = clock_now_ns ();
    request->result = -EIO;
    engine_completed (self, request);
}

//  The loop: poll the connection, let libnfs send and receive (the
//  callbacks gather completions), until one completed when waiting, or
//  deadline_ns. Returns 0, or -1 with errno and the engine's error set
//  when the connection is gone or the server stopped answering.
static int
s_nfs_reap (engine_t *self, bool wait, int64_t deadline_ns)
{
    s_nfs_t *nfs = self->state;
    for (;;) {
        assert (!wait || nfs->out > 0 || self->done_count > 0);
        int timeout_ms = 0;
        if (wait && self->done_count == 0) {
            int64_t now_ns = clock_now_ns ();
            int64_t until_ns = now_ns + S_NFS_SLICE_NS;
            if (deadline_ns && deadline_ns < until_ns)
                until_ns = deadline_ns;
            if (until_ns > now_ns)
                timeout_ms = (int) ((until_ns - now_ns + NS_PER_MSEC - 1) / NS_PER_MSEC);
        }
        struct pollfd pfd = { .fd = nfs_get_fd (nfs->context),
                              .events = (short) nfs_which_events (nfs->context) };
        int ready = poll (&pfd, 1, timeout_ms);
        if (ready == -1 && errno != EINTR) {
            int err_no = errno;
            snprintf (self->error, sizeof (self->error), "poll(%s): %s", nfs->shown,
                      strerror (err_no));
            errno = err_no;
            return -1;
        }
        if (nfs_service (nfs->context, ready > 0? pfd.revents: 0) < 0) {
            snprintf (self->error, sizeof (self->error), "nfs_service(%s): the connection to "
                      "the server failed: %s", nfs->shown, nfs_get_error (nfs->context));
            errno = ECONNRESET;
            return -1;
        }
        if (self->done_count > 0 || !wait)
            return 0;
        int64_t now_ns = clock_now_ns ();
        if (deadline_ns && now_ns >= deadline_ns)
            return 0;
        //  Broken: nothing will come before libnfs connects again.
        if (ready > 0 && (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))) {
            nfs->lost = true;
            int64_t until_ns = now_ns + S_NFS_SLICE_NS;
            if (deadline_ns && deadline_ns < until_ns)
                until_ns = deadline_ns;
            clock_sleep_until (until_ns);
            now_ns = clock_now_ns ();
        }
        if (now_ns - nfs->heard_ns > nfs->stall_ns) {
            snprintf (self->error, sizeof (self->error), "nfs_pread(%s): no reply from the "
                      "server for %lld s with %u READ calls out; is the server up?",
                      nfs->shown, (long long) ((now_ns - nfs->heard_ns) / NS_PER_SEC),
                      nfs->out);
            errno = ETIMEDOUT;
            return -1;
        }
    }
}

static const engine_ops_t s_nfs_ops = {
    .name = "nfs",
    .probe = NULL,              //  reaching the server is the workload's prepare
    .open = s_nfs_open,
    .queue = s_nfs_queue,
    .reap = s_nfs_reap,
    .files_changed = NULL,      //  no descriptors: the context stays
    .close = s_nfs_close,
};

engine_t *
engine_new_nfs (const engine_nfs_file_t *file, engine_slots_t slots, char *err, size_t errlen)
{
    //  One "file", the context's: requests name index 0.
    return engine_make (&s_nfs_ops, slots, NULL, 1, false, file, err, errlen);
}
