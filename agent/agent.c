/*  agent/agent.c: the daemon: its socket, the poll loop and the agent's
    lifecycle; see agent.h. What it does with each message is
    agent_handlers.c's; both share agent_state.h.

    State, in short. The agent is idle or in a session with one
    coordinator (agent/session.h). It holds at most one test
    (agent/testrun.h): the jobs PREPARE gave it, which START turns into
    running streams, phase after phase. When the session ends (BYE, lease
    expired) while a test runs, the test is orphaned: its streams are
    told to stop, and what they report is only logged. The loop forgets
    the test once nothing of it runs and nothing is owed.
*/
#include "agent_state.h"

#include "auth.h"
#include "listen.h"

#include "../proto/clock.h"
#include "../proto/version.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

#define S_LINGER_MS             500         //  time the last results get to leave at exit
//  The buffers of one test may take MemTotal / S_MEMORY_SHARE unless
//  --max-memory says otherwise: they stay resident for the whole test,
//  and the rest is the page cache the test measures, the kernel and the
//  host's own work (an NFS server, a second agent); a quarter leaves
//  them three, and still holds 256 streams of 16M on a 24 GiB host.
#define S_MEMORY_SHARE          4           //  logged as from=MemTotal/4
#define S_MEMORY_FALLBACK_BYTES (1ULL << 30)    //  when MemTotal cannot be read
#define S_LEASE_MAX_DEFAULT_NS  (60 * NS_PER_SEC)   //  max-lease when the config has none

//  --------------------------------------------------------------------------
//  Logs

//  Write one log line, "agent=NAME " and the formatted rest, with a single
//  write so that lines from one process never interleave.
void
agent_note (agent_t *self, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    agent_logv (self->name, format, args);
    va_end (args);
}

//  A routing id as hex, for logs. Returns buf.
const char *
agent_peer_text (zframe_t *peer, char *buf, size_t buflen)
{
    const unsigned char *data = zframe_data (peer);
    size_t size = zframe_size (peer);
    size_t used = 0;
    buf [0] = '\0';
    for (size_t index = 0; index < size && used + 3 < buflen; index++)
        used += (size_t) snprintf (buf + used, buflen - used, "%02x", data [index]);
    return buf;
}

//  --------------------------------------------------------------------------
//  Sending

//  Encode msg and send it to peer. A message that cannot be sent (out of
//  memory, a peer gone) is logged and dropped: the coordinator's lease and
//  timeouts deal with lost messages.
void
agent_send (agent_t *self, zframe_t *peer, msg_t *msg)
{
    char *data = NULL;
    size_t size = 0;
    if (msg_encode (msg, &data, &size) == -1) {
        agent_note (self, "event=send-failed type=%s reason=encode", msg_type_name (msg->type));
        return;
    }
    zmsg_t *zmsg = zmsg_new ();
    zframe_t *routing_id = zframe_dup (peer);
    if (!zmsg || !routing_id || zmsg_append (zmsg, &routing_id) == -1
    ||  zmsg_addmem (zmsg, data, size) == -1
    ||  zmsg_send (&zmsg, self->router) == -1)
        agent_note (self, "event=send-failed type=%s reason=%s", msg_type_name (msg->type),
                    zmq_strerror (zmq_errno ()));
    zframe_destroy (&routing_id);
    zmsg_destroy (&zmsg);
    free (data);
}

//  Send ERROR {test_id, job_id, code, text} to peer.
void
agent_send_error (agent_t *self, zframe_t *peer, uint32_t test_id, int32_t job_id,
                  const char *code, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    msg_make_error (&self->out, test_id, job_id, code, format, args);
    va_end (args);
    agent_send (self, peer, &self->out);
}

//  --------------------------------------------------------------------------
//  The test

//  Forget the test held (a new one replaces it, or its session ended
//  before START, or it is over), stopping and cleaning up what is left.
void
agent_forget_test (agent_t *self, const char *event, const char *reason)
{
    if (!self->test)
        return;
    char quoted [AGENT_QUOTED_MAX];
    agent_note (self, "event=%s test_id=%" PRIu32 " test=%s reason=%s", event,
                agent_testrun_id (self->test), agent_testrun_name (self->test),
                agent_log_quote (reason, quoted, sizeof (quoted)));
    agent_testrun_destroy (&self->test);
    //  Give what the test held (buffers and figures of up to hundreds of
    //  streams) back to the system: an agent idles far longer than it
    //  tests, and the allocator would keep the pages for the next one.
    malloc_trim (0);
}

//  Streams moved or a deadline came: let the test send what is due, and
//  forget it once it is over.
void
agent_poll_test (agent_t *self)
{
    if (!self->test)
        return;
    agent_testrun_poll (self->test, clock_now_ns ());
    if (agent_testrun_over (self->test))
        agent_forget_test (self, "test-over", "every stream reported");
}

//  --------------------------------------------------------------------------
//  The session

//  End the session (BYE, lease expired): a prepared test is dropped, a
//  running one is told to stop and finishes orphaned.
void
agent_end_session (agent_t *self, const char *event, const char *reason)
{
    char quoted [AGENT_QUOTED_MAX];
    agent_note (self, "event=%s coordinator=%s", event,
                agent_log_quote (agent_session_coordinator (self->session),
                                 quoted, sizeof (quoted)));
    if (self->test) {
        if (agent_testrun_started (self->test))
            agent_testrun_orphan (self->test, reason);
        else
            agent_forget_test (self, "discard", reason);
    }
    size_t removed = agent_session_end (self->session);
    if (removed)
        agent_note (self, "event=kept-removed files=%zu", removed);
}

//  --------------------------------------------------------------------------
//  The socket

//  Count, log and answer a frame that is not a message. Anyone who
//  reaches the socket can send them as fast as they like, so the log
//  gets the first few and then a line a second, saying how many it did
//  not show. Every frame is still answered: the ROUTER socket drops what
//  a peer does not read rather than wait for it, so answers cost only
//  the encoding, and a coordinator that sent one bad frame among good
//  ones learns which.
static void
s_reject_malformed (agent_t *self, zframe_t *peer, const char *reason)
{
    char quoted [AGENT_QUOTED_MAX];
    char peer_text [64];
    uint64_t unlogged;
    if (agent_lograte_pass (&self->malformed, clock_now_ns (), &unlogged))
        agent_note (self, "event=malformed from=%s reason=%s count=%" PRIu64 " unlogged=%" PRIu64,
                    agent_peer_text (peer, peer_text, sizeof (peer_text)),
                    agent_log_quote (reason, quoted, sizeof (quoted)), self->malformed.count,
                    unlogged);
    agent_send_error (self, peer, 0, -1, "malformed", "%s", reason);
}

//  Read one message from the socket and handle it. Its receive instant is
//  taken first thing, for PONG's t2.
static void
s_handle_router (agent_t *self)
{
    zmsg_t *zmsg = zmsg_recv (self->router);
    int64_t received_ns = clock_now_ns ();
    if (!zmsg)
        return;
    zframe_t *peer = zmsg_pop (zmsg);
    zframe_t *payload = zmsg_pop (zmsg);
    if (!peer)
        goto done;

    bool from_peer = agent_session_is_peer (self->session, peer);
    if (from_peer)
        agent_session_heard (self->session, received_ns);
    if (!payload || zmsg_size (zmsg) != 0) {
        s_reject_malformed (self, peer, "expected exactly one frame after the routing id");
        goto done;
    }
    char err [MSG_TEXT_MAX + 1] = "";
    int rc = msg_decode (zframe_data (payload), zframe_size (payload), &self->in,
                         err, sizeof (err));
    if (rc == MSG_EVERSION) {
        char quoted [AGENT_QUOTED_MAX];
        char peer_text [64];
        agent_note (self, "event=refused reason=version from=%s detail=%s",
                    agent_peer_text (peer, peer_text, sizeof (peer_text)),
                    agent_log_quote (err, quoted, sizeof (quoted)));
        agent_send_error (self, peer, 0, -1, "version", "%s", err);
    }
    else
    if (rc != MSG_OK)
        s_reject_malformed (self, peer, err [0]? err: "not a message");
    else
        agent_dispatch (self, peer, from_peer, received_ns);

done:
    zframe_destroy (&peer);
    zframe_destroy (&payload);
    zmsg_destroy (&zmsg);
}

//  --------------------------------------------------------------------------
//  The loop

//  Streams moved: reset the eventfd and let the test answer.
static void
s_handle_stream_events (agent_t *self)
{
    uint64_t count;
    ssize_t rc = read (self->notify_fd, &count, sizeof (count));
    (void) rc;
    agent_poll_test (self);
}

//  Deadlines: the session's lease, then the test's. Silence is judged
//  only once what waits on the socket has been read: a wake reports one
//  ready socket (the streams' eventfd before it), and a loop held up
//  while the socket's thread went on finds the coordinator's pings
//  queued there. Reading stops as soon as the coordinator is heard.
static void
s_handle_timers (agent_t *self)
{
    while (agent_session_expired (self->session, clock_now_ns ())
       &&  (zsock_events (self->router) & ZMQ_POLLIN))
        s_handle_router (self);
    if (agent_session_expired (self->session, clock_now_ns ()))
        agent_end_session (self, "lease-expired", "the coordinator went silent (lease expired)");
    agent_poll_test (self);
}

//  A wait that ended later than asked is time the loop did not run (the
//  process stopped, or starved of CPU) and so did not listen: the lease
//  does not count it as the coordinator's silence.
static void
s_count_away (agent_t *self, int64_t asked_ns, int timeout_ms)
{
    if (timeout_ms >= 0)
        agent_session_away (self->session,
                            clock_now_ns () - asked_ns - (int64_t) timeout_ms * NS_PER_MSEC);
}

//  Milliseconds until the next deadline, rounded up so that the loop
//  wakes at or after it, never just before; -1 for none.
static int
s_timeout_ms (agent_t *self)
{
    int64_t deadline_ns = agent_session_wake_ns (self->session, clock_now_ns ());
    if (self->test) {
        int64_t test_ns = agent_testrun_next_ns (self->test);
        if (test_ns < deadline_ns)
            deadline_ns = test_ns;
    }
    if (deadline_ns == INT64_MAX)
        return -1;
    int64_t wait_ns = deadline_ns - clock_now_ns ();
    if (wait_ns <= 0)
        return 0;
    int64_t wait_ms = (wait_ns + NS_PER_MSEC - 1) / NS_PER_MSEC;
    return wait_ms > INT_MAX? INT_MAX: (int) wait_ms;
}

//  Stop what runs, wait for it, report it if a session is there to hear,
//  and remove what the test created (unless keep).
static void
s_shutdown (agent_t *self)
{
    if (self->test) {
        agent_testrun_abort (self->test, "agent stopping");
        agent_testrun_poll (self->test, clock_now_ns ());
        agent_forget_test (self, "discard", "agent stopping");
    }
    agent_note (self, "event=exit malformed=%" PRIu64, self->malformed.count);
}

//  The loop: one poller over the stream eventfd, the actor pipe (if any)
//  and the socket, woken by the next deadline. Ends on $TERM from the
//  pipe, or on SIGINT/SIGTERM when there is no pipe.
static void
s_loop (agent_t *self, zsock_t *pipe)
{
    zpoller_t *poller = zpoller_new (&self->notify_fd, NULL);
    if (!poller) {
        agent_note (self, "event=exit reason=\"zpoller_new failed\"");
        return;
    }
    if (pipe)
        zpoller_add (poller, pipe);
    zpoller_add (poller, self->router);
    agent_note (self, "event=listening");

    while (pipe || !zsys_interrupted) {
        int timeout_ms = s_timeout_ms (self);
        int64_t asked_ns = clock_now_ns ();
        void *which = zpoller_wait (poller, timeout_ms);
        s_count_away (self, asked_ns, timeout_ms);
        if (which == &self->notify_fd)
            s_handle_stream_events (self);
        else
        if (pipe && which == pipe) {
            char *command = zstr_recv (pipe);
            bool terminate = !command || streq (command, "$TERM");
            zstr_free (&command);
            if (terminate)
                break;
        }
        else
        if (which == self->router)
            s_handle_router (self);
        else
        if (zpoller_terminated (poller) && (zsys_interrupted || zmq_errno () == ETERM))
            break;
        s_handle_timers (self);
    }
    zpoller_destroy (&poller);
    s_shutdown (self);
}

//  --------------------------------------------------------------------------
//  Public

//  Every stream holds its file and that file's directory open (a copy its
//  source too): three descriptors for each of up to S_TEST_STREAMS_MAX
//  streams is more than the usual soft limit of 1024. Raise the soft limit
//  to the hard one, which is the administrator's to set.
static void
s_raise_fd_limit (agent_t *self)
{
    struct rlimit limit;
    if (getrlimit (RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        rlim_t before = limit.rlim_cur;
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit (RLIMIT_NOFILE, &limit) == 0)
            agent_note (self, "event=fd-limit soft=%llu was=%llu",
                        (unsigned long long) limit.rlim_cur, (unsigned long long) before);
    }
}

//  Build an agent: roots, security rule, eventfd, bound socket.
agent_t *
agent_new (const agent_config_t *config, char *err, size_t errlen)
{
    agent_t *self = calloc (1, sizeof (agent_t));
    if (!self) {
        snprintf (err, errlen, "agent: %s", strerror (ENOMEM));
        goto fail;
    }
    self->notify_fd = -1;
    self->verbose = config->verbose;
    self->insecure = !config->keys_dir;
    self->hostinfo = hostinfo_new ();
    self->confine = confine_new ();
    self->session = agent_session_new ();
    uint64_t mem_bytes = self->hostinfo? hostinfo_mem_bytes (self->hostinfo): 0;
    self->max_lease_ms = (uint32_t) ((config->max_lease_ns? config->max_lease_ns
                                                           : S_LEASE_MAX_DEFAULT_NS) / NS_PER_MSEC);
    self->memory_bound_bytes = config->max_memory_bytes? config->max_memory_bytes
                             : mem_bytes? mem_bytes / S_MEMORY_SHARE: S_MEMORY_FALLBACK_BYTES;
    if (!self->hostinfo || !self->confine || !self->session) {
        snprintf (err, errlen, "agent: %s", strerror (ENOMEM));
        goto fail;
    }
    const char *name = config->name && config->name [0]?
                       config->name: hostinfo_hostname (self->hostinfo);
    if (strlen (name) > JOB_NAME_MAX) {
        snprintf (err, errlen, "name %s: longer than %d characters", name, JOB_NAME_MAX);
        goto fail;
    }
    msg_strcpy (self->name, name, sizeof (self->name));

    if (config->root_count == 0) {
        snprintf (err, errlen, "no --root given: the agent needs a directory to work in");
        goto fail;
    }
    for (size_t index = 0; index < config->nfs_host_count; index++)
        if (confine_allow_nfs (self->confine, config->nfs_hosts [index], err, errlen) == -1)
            goto fail;
    for (size_t index = 0; index < config->root_count; index++)
        if (confine_add_root (self->confine, config->roots [index], err, errlen) == -1)
            goto fail;

    if (config->keys_dir) {
        self->keys = agent_keys_new (config->keys_dir, err, errlen);
        if (!self->keys)
            goto fail;
        self->auth = auth_new (self->keys, self->name, err, errlen);
        if (!self->auth)
            goto fail;
    }
    bool loopback = agent_endpoint_is_loopback (config->bind_endpoint);
    if (!loopback && self->insecure && !config->insecure) {
        snprintf (err, errlen, "bind(%s): refusing to serve a non-loopback address "
                  "without encryption; give --keys DIR, or --insecure to do it anyway",
                  config->bind_endpoint);
        goto fail;
    }
    s_raise_fd_limit (self);
    self->notify_fd = eventfd (0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (self->notify_fd == -1) {
        snprintf (err, errlen, "eventfd: %s", strerror (errno));
        goto fail;
    }
    self->router = agent_listen (config->bind_endpoint, self->keys, &self->endpoint,
                                 err, errlen);
    if (!self->router)
        goto fail;

    agent_note (self, "event=bound endpoint=%s version=%s protocol=%d", self->endpoint,
                IOFLEET_VERSION, IOFLEET_PROTOCOL_VERSION);
    for (size_t index = 0; index < confine_root_count (self->confine); index++) {
        const char *root = confine_root (self->confine, index);
        agent_note (self, "event=root dir=%s", root);
        //  Allowed, since it may be meant (a scratch machine), but never
        //  in silence: confinement then confines nothing.
        if (streq (root, "/"))
            agent_note (self, "event=warning root=/ text=\"the root is the whole file system: "
                        "a coordinator may create and remove files anywhere this user can; "
                        "give a directory of its own\"");
    }
    agent_note (self, "event=memory-bound test_bytes=%" PRIu64 " from=%s", self->memory_bound_bytes,
                config->max_memory_bytes? "--max-memory": mem_bytes? "MemTotal/4": "fallback");
    if (self->keys) {
        char key_text [48];
        agent_note (self, "event=security security=curve key=%s trusted=%zu keys=%s",
                    keys_key_text (zcert_public_key (keys_own (self->keys)),
                                   key_text, sizeof (key_text)),
                    keys_peer_count (self->keys), keys_dir (self->keys));
    }
    else
    if (loopback && !config->insecure)
        agent_note (self, "event=note security=none text=\"the socket is unauthenticated; "
                    "only this host can reach it\"");
    else
        agent_note (self, "event=warning security=none text=\"serving %s without authentication "
                    "or encryption (--insecure): anyone who reaches it can write under the roots\"",
                    self->endpoint);
    return self;

fail:
    agent_destroy (&self);
    return NULL;
}

//  Drop any test, close the socket and free the agent.
void
agent_destroy (agent_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    agent_t *self = *self_p;
    agent_testrun_destroy (&self->test);
    preflight_destroy (&self->preflight);
    agent_session_destroy (&self->session);
    if (self->router)
        zsock_set_linger (self->router, S_LINGER_MS);
    zsock_destroy (&self->router);
    auth_destroy (&self->auth);
    keys_destroy (&self->keys);
    zstr_free (&self->endpoint);
    if (self->notify_fd != -1)
        close (self->notify_fd);
    confine_destroy (&self->confine);
    hostinfo_destroy (&self->hostinfo);
    free (self);
    *self_p = NULL;
}

//  The endpoint actually bound.
const char *
agent_endpoint (agent_t *self)
{
    return self->endpoint;
}

//  The agent's name.
const char *
agent_name (agent_t *self)
{
    return self->name;
}

//  Serve until SIGINT or SIGTERM.
int
agent_run (agent_t *self)
{
    s_loop (self, NULL);
    return 0;
}

//  Serve as a CZMQ actor until $TERM.
void
agent_actor (zsock_t *pipe, void *args)
{
    agent_t *self = args;
    zsock_signal (pipe, 0);
    s_loop (self, pipe);
}
