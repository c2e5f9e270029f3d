/*  agent/agent.c: the daemon: its socket, the poll loop and the dispatch
    of messages; see agent.h.

    State, in short. The agent is idle or in a session with one
    coordinator (agent/session.h). It holds at most one test
    (agent/test.h): the jobs PREPARE gave it, which START turns into
    running streams, phase after phase. When the session ends (BYE, lease
    expired) while a test runs, the test is orphaned: its streams are
    told to stop, and what they report is only logged. The loop forgets
    the test once nothing of it runs and nothing is owed.
*/
#include "agent.h"

#include "auth.h"
#include "confine.h"
#include "hostinfo.h"
#include "listen.h"
#include "log.h"
#include "session.h"
#include "test.h"

#include "../proto/clock.h"
#include "../proto/keys.h"
#include "../proto/msg.h"
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
#define S_START_LEAD_MAX_NS     (3600 * NS_PER_SEC)    //  START instants further off are refused
//  The buffers of one test may take MemTotal / S_MEMORY_SHARE unless
//  --max-memory says otherwise: they stay resident for the whole test,
//  and the rest is the page cache the test measures, the kernel and the
//  host's own work (an NFS server, a second agent); a quarter leaves
//  them three, and still holds 256 streams of 16M on a 24 GiB host.
#define S_MEMORY_SHARE          4           //  logged as from=MemTotal/4
#define S_MEMORY_FALLBACK_BYTES (1ULL << 30)    //  when MemTotal cannot be read

struct _agent_t {
    char name [JOB_NAME_MAX + 1];       //  --name
    char *endpoint;                     //  endpoint actually bound
    bool insecure;                      //  serving without CURVE (no --keys)
    keys_t *keys;                       //  --keys: our pair and the trusted coordinators
    zactor_t *auth;                     //  the ZAP handler that checks them (auth.h)
    bool verbose;                       //  log pings and samples too
    zsock_t *router;                    //  the socket coordinators talk to
    int notify_fd;                      //  eventfd stream threads write at every step
    confine_t *confine;                 //  the --root directories
    hostinfo_t *hostinfo;               //  what WELCOME says about the host
    uint64_t memory_bound_bytes;        //  the buffers one test may hold
    agent_lograte_t malformed;          //  frames that did not decode: counted, logged sparingly
    agent_session_t *session;           //  the coordinator served, if any
    agent_test_t *test;                 //  the test held, if any
    msg_t in;                           //  the message being handled
    msg_t out;                          //  the message being sent
};

//  --------------------------------------------------------------------------
//  Logs

//  Write one log line, "agent=NAME " and the formatted rest, with a single
//  write so that lines from one process never interleave.
static void
s_log (agent_t *self, const char *format, ...)
    __attribute__ ((format (printf, 2, 3)));

static void
s_log (agent_t *self, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    agent_logv (self->name, format, args);
    va_end (args);
}

//  A routing id as hex, for logs. Returns buf.
static const char *
s_peer_text (zframe_t *peer, char *buf, size_t buflen)
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
static void
s_send (agent_t *self, zframe_t *peer, msg_t *msg)
{
    char *data = NULL;
    size_t size = 0;
    if (msg_encode (msg, &data, &size) == -1) {
        s_log (self, "event=send-failed type=%s reason=encode", msg_type_name (msg->type));
        return;
    }
    zmsg_t *zmsg = zmsg_new ();
    zframe_t *routing_id = zframe_dup (peer);
    if (!zmsg || !routing_id || zmsg_append (zmsg, &routing_id) == -1
    ||  zmsg_addmem (zmsg, data, size) == -1
    ||  zmsg_send (&zmsg, self->router) == -1)
        s_log (self, "event=send-failed type=%s reason=%s", msg_type_name (msg->type),
               zmq_strerror (zmq_errno ()));
    zframe_destroy (&routing_id);
    zmsg_destroy (&zmsg);
    free (data);
}

//  What the test says goes to the session's coordinator, if there is one.
static void
s_send_to_session (void *arg, msg_t *msg)
{
    agent_t *self = (agent_t *) arg;
    zframe_t *peer = agent_session_peer (self->session);
    if (peer)
        s_send (self, peer, msg);
}

//  Start building a message of type in self->out. Returns it.
static msg_t *
s_reply (agent_t *self, msg_type_t type)
{
    memset (&self->out, 0, sizeof (self->out));
    self->out.type = type;
    return &self->out;
}

//  Send ERROR {test_id, job_id, code, text} to peer.
static void
s_send_error (agent_t *self, zframe_t *peer, uint32_t test_id, int32_t job_id,
              const char *code, const char *format, ...)
    __attribute__ ((format (printf, 6, 7)));

static void
s_send_error (agent_t *self, zframe_t *peer, uint32_t test_id, int32_t job_id,
              const char *code, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    msg_make_error (&self->out, test_id, job_id, code, format, args);
    va_end (args);
    s_send (self, peer, &self->out);
}

//  Send WELCOME to peer: who this agent is, whom it serves, and the
//  session it opened with peer (0 for a probe, which opens none).
static void
s_send_welcome (agent_t *self, zframe_t *peer, uint64_t session_id)
{
    msg_t *out = s_reply (self, MSG_WELCOME);
    msg_welcome_t *welcome = &out->u.welcome;
    msg_strcpy (welcome->name, self->name, sizeof (welcome->name));
    msg_strcpy (welcome->hostname, hostinfo_hostname (self->hostinfo), sizeof (welcome->hostname));
    msg_strcpy (welcome->kernel, hostinfo_kernel (self->hostinfo), sizeof (welcome->kernel));
    welcome->cpus = hostinfo_cpus (self->hostinfo);
    welcome->mem_bytes = hostinfo_mem_bytes (self->hostinfo);
    welcome->insecure = self->insecure;
    msg_strcpy (welcome->serving, agent_session_coordinator (self->session),
                sizeof (welcome->serving));
    msg_strcpy (welcome->version, IOFLEET_VERSION, sizeof (welcome->version));
    welcome->session_id = session_id;
    s_send (self, peer, out);
}

//  --------------------------------------------------------------------------
//  The test

//  Forget the test held (a new one replaces it, or its session ended
//  before START, or it is over), stopping and cleaning up what is left.
static void
s_test_forget (agent_t *self, const char *event, const char *reason)
{
    if (!self->test)
        return;
    char quoted [AGENT_QUOTED_MAX];
    s_log (self, "event=%s test_id=%" PRIu32 " test=%s reason=%s", event,
           agent_test_id (self->test), agent_test_name (self->test),
           agent_log_quote (reason, quoted, sizeof (quoted)));
    agent_test_destroy (&self->test);
    //  Give what the test held (buffers and figures of up to hundreds of
    //  streams) back to the system: an agent idles far longer than it
    //  tests, and the allocator would keep the pages for the next one.
    malloc_trim (0);
}

//  True if the session's test is test_id.
static bool
s_test_is_current (agent_t *self, uint32_t test_id)
{
    return self->test && agent_test_id (self->test) == test_id;
}

//  Streams moved or a deadline came: let the test send what is due, and
//  forget it once it is over.
static void
s_test_poll (agent_t *self)
{
    if (!self->test)
        return;
    agent_test_poll (self->test, clock_now_ns ());
    if (agent_test_over (self->test))
        s_test_forget (self, "test-over", "every stream reported");
}

//  --------------------------------------------------------------------------
//  The session

//  End the session (BYE, lease expired): a prepared test is dropped, a
//  running one is told to stop and finishes orphaned.
static void
s_end_session (agent_t *self, const char *event, const char *reason)
{
    char quoted [AGENT_QUOTED_MAX];
    s_log (self, "event=%s coordinator=%s", event,
           agent_log_quote (agent_session_coordinator (self->session), quoted, sizeof (quoted)));
    if (self->test) {
        if (agent_test_started (self->test))
            agent_test_orphan (self->test, reason);
        else
            s_test_forget (self, "discard", reason);
    }
    size_t removed = agent_session_end (self->session);
    if (removed)
        s_log (self, "event=kept-removed files=%zu", removed);
}

//  HELLO: a probe is always welcome; otherwise start (or renew) the
//  session, or refuse a second coordinator naming the first.
static void
s_handle_hello (agent_t *self, zframe_t *peer)
{
    msg_hello_t *hello = &self->in.u.hello;
    char quoted [AGENT_QUOTED_MAX];
    if (hello->probe) {
        if (self->verbose)
            s_log (self, "event=probe coordinator=%s",
                   agent_log_quote (hello->coordinator, quoted, sizeof (quoted)));
        s_send_welcome (self, peer, 0);
        return;
    }
    int64_t now_ns = clock_now_ns ();
    agent_session_hello_t outcome = agent_session_hello (self->session, peer, hello, now_ns);
    if (outcome == AGENT_SESSION_BUSY) {
        char serving [AGENT_QUOTED_MAX];
        const char *coordinator = agent_session_coordinator (self->session);
        s_log (self, "event=refused reason=busy coordinator=%s serving=%s",
               agent_log_quote (hello->coordinator, quoted, sizeof (quoted)),
               agent_log_quote (coordinator, serving, sizeof (serving)));
        s_send_error (self, peer, 0, -1, "busy", "agent %s serves coordinator %s (since %" PRId64 " s)",
                      self->name, coordinator,
                      (int64_t) (agent_session_age_ns (self->session, now_ns) / NS_PER_SEC));
        return;
    }
    s_log (self, "event=%s coordinator=%s lease_ms=%" PRIu32,
           outcome == AGENT_SESSION_RENEWED? "session-renewed": "session",
           agent_log_quote (agent_session_coordinator (self->session), quoted, sizeof (quoted)),
           agent_session_lease_ms (self->session));
    s_send_welcome (self, peer, agent_session_id (self->session));
}

//  PING: answer at once with the receive and send instants, and the
//  session we hold with the sender (0 for anyone else), so that a
//  coordinator that lost its session to a restart learns it at once.
static void
s_handle_ping (agent_t *self, zframe_t *peer, bool from_peer, int64_t received_ns)
{
    msg_ping_t ping = self->in.u.ping;
    msg_t *out = s_reply (self, MSG_PONG);
    out->u.pong.seq = ping.seq;
    out->u.pong.t1_ns = ping.t1_ns;
    out->u.pong.t2_ns = received_ns;
    out->u.pong.session_id = from_peer? agent_session_id (self->session): 0;
    out->u.pong.t3_ns = clock_now_ns ();
    s_send (self, peer, out);
    if (self->verbose)
        s_log (self, "event=ping seq=%" PRIu32, ping.seq);
}

//  PREPARE: a job of the held test, or of a new one that replaces it.
static void
s_handle_prepare (agent_t *self)
{
    msg_prepare_t *prepare = &self->in.u.prepare;
    if (self->test && !s_test_is_current (self, prepare->test_id)) {
        char reason [64];
        snprintf (reason, sizeof (reason), "replaced by test %" PRIu32, prepare->test_id);
        s_test_forget (self, "discard", reason);
    }
    if (!self->test) {
        agent_test_config_t config = {
            .agent_name = self->name,
            .confine = self->confine,
            .memory_bound_bytes = self->memory_bound_bytes,
            .notify_fd = self->notify_fd,
            .kept = agent_session_kept (self->session),
            .verbose = self->verbose,
            .send = s_send_to_session,
            .send_arg = self
        };
        self->test = agent_test_new (&config, prepare->test_id, prepare->spec.test);
        if (!self->test) {
            s_send_error (self, agent_session_peer (self->session), prepare->test_id,
                          (int32_t) prepare->job_id, "prepare", "agent %s: %s",
                          self->name, strerror (ENOMEM));
            return;
        }
    }
    agent_test_prepare (self->test, prepare);
}

//  START: hand every prepared stream of the test the instant of a phase.
static void
s_handle_start (agent_t *self, zframe_t *peer)
{
    msg_start_t *start = &self->in.u.start;
    if (!s_test_is_current (self, start->test_id)) {
        s_send_error (self, peer, start->test_id, -1, "start",
                      "test %" PRIu32 " is not prepared on agent %s", start->test_id, self->name);
        return;
    }
    //  A start instant hours away is a clock mapped wrong, not a plan.
    //  The instant is any int64 the wire carries: compare it with the
    //  window around now before subtracting anything from it.
    int64_t now_ns = clock_now_ns ();
    if (start->start_ns > now_ns + S_START_LEAD_MAX_NS
    ||  start->start_ns < now_ns - S_START_LEAD_MAX_NS) {
        s_send_error (self, peer, start->test_id, -1, "start",
                      "start instant %" PRId64 " ns is more than %" PRId64 " s from this "
                      "agent's clock (now %" PRId64 " ns)", start->start_ns,
                      (int64_t) (S_START_LEAD_MAX_NS / NS_PER_SEC), now_ns);
        return;
    }
    char err [MSG_TEXT_MAX + 1];
    if (agent_test_start (self->test, start->phase, start->phase_count, start->start_ns,
                          err, sizeof (err))) {
        s_send_error (self, peer, start->test_id, -1, "start", "%s", err);
        return;
    }
    s_log (self, "event=start test_id=%" PRIu32 " test=%s phase=%" PRIu32 " start_ns=%" PRId64
           " lead_us=%" PRId64, start->test_id, agent_test_name (self->test), start->phase,
           start->start_ns,
           (int64_t) ((start->start_ns - now_ns) / NS_PER_USEC));
    //  A test without streams is over as soon as it starts.
    s_test_poll (self);
}

//  DROP: the caches go, in the background; DROPPED follows.
static void
s_handle_drop (agent_t *self, zframe_t *peer)
{
    msg_drop_t *drop = &self->in.u.drop;
    char err [MSG_TEXT_MAX + 1];
    if (!s_test_is_current (self, drop->test_id))
        s_send_error (self, peer, drop->test_id, -1, "prepare",
                      "test %" PRIu32 " is not prepared on agent %s", drop->test_id, self->name);
    else
    if (agent_test_drop_caches (self->test, err, sizeof (err)))
        s_send_error (self, peer, drop->test_id, -1, "prepare", "%s", err);
}

//  ABORT: stop the test's streams; their RESULTs follow as they end.
static void
s_handle_abort (agent_t *self)
{
    msg_abort_t *abort_msg = &self->in.u.abort;
    char quoted [AGENT_QUOTED_MAX];
    if (!s_test_is_current (self, abort_msg->test_id)) {
        //  Most likely the test ended while the ABORT was on its way.
        s_log (self, "event=abort-ignored test_id=%" PRIu32 " reason=%s", abort_msg->test_id,
               agent_log_quote (abort_msg->reason, quoted, sizeof (quoted)));
        return;
    }
    s_log (self, "event=abort test_id=%" PRIu32 " reason=%s", abort_msg->test_id,
           agent_log_quote (abort_msg->reason, quoted, sizeof (quoted)));
    agent_test_abort (self->test, abort_msg->reason);
    s_test_poll (self);
}

//  One decoded message from peer. Test messages from anyone but the
//  session's coordinator are refused: they must say HELLO first.
static void
s_dispatch (agent_t *self, zframe_t *peer, bool from_peer, int64_t received_ns)
{
    char quoted [AGENT_QUOTED_MAX];
    char peer_text [64];
    msg_type_t type = self->in.type;
    bool needs_session = type == MSG_PREPARE || type == MSG_START || type == MSG_ABORT
                      || type == MSG_DROP;
    if (needs_session && !from_peer) {
        uint32_t test_id = type == MSG_PREPARE? self->in.u.prepare.test_id
                         : type == MSG_START? self->in.u.start.test_id
                         : type == MSG_DROP? self->in.u.drop.test_id: self->in.u.abort.test_id;
        int32_t job_id = type == MSG_PREPARE? (int32_t) self->in.u.prepare.job_id: -1;
        s_send_error (self, peer, test_id, job_id, "no-session",
                      "agent %s has no session with you: send HELLO first", self->name);
        return;
    }
    switch (type) {
        case MSG_HELLO:
            s_handle_hello (self, peer);
            break;
        case MSG_PING:
            s_handle_ping (self, peer, from_peer, received_ns);
            break;
        case MSG_PREPARE:
            s_handle_prepare (self);
            break;
        case MSG_START:
            s_handle_start (self, peer);
            break;
        case MSG_ABORT:
            s_handle_abort (self);
            break;
        case MSG_DROP:
            s_handle_drop (self, peer);
            break;
        case MSG_STOP:
            //  A phase is over everywhere; after the last, monitors end.
            if (from_peer && s_test_is_current (self, self->in.u.stop.test_id)) {
                agent_test_stop_phase (self->test, self->in.u.stop.phase);
                s_test_poll (self);
            }
            break;
        case MSG_BYE:
            if (from_peer)
                s_end_session (self, "bye", "session ended by the coordinator");
            else
                s_log (self, "event=bye-ignored from=%s",
                       s_peer_text (peer, peer_text, sizeof (peer_text)));
            break;
        case MSG_ERROR:
            //  Never answered: two programs trading errors would not stop.
            s_log (self, "event=peer-error from=%s code=%s text=%s",
                   s_peer_text (peer, peer_text, sizeof (peer_text)), self->in.u.error.code,
                   agent_log_quote (self->in.u.error.text, quoted, sizeof (quoted)));
            break;
        default:
            s_log (self, "event=unexpected from=%s type=%s",
                   s_peer_text (peer, peer_text, sizeof (peer_text)), msg_type_name (type));
            s_send_error (self, peer, 0, -1, "unexpected",
                          "agent %s does not accept %s messages", self->name,
                          msg_type_name (type));
            break;
    }
}

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
        s_log (self, "event=malformed from=%s reason=%s count=%" PRIu64 " unlogged=%" PRIu64,
               s_peer_text (peer, peer_text, sizeof (peer_text)),
               agent_log_quote (reason, quoted, sizeof (quoted)), self->malformed.count, unlogged);
    s_send_error (self, peer, 0, -1, "malformed", "%s", reason);
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
        s_log (self, "event=refused reason=version from=%s detail=%s",
               s_peer_text (peer, peer_text, sizeof (peer_text)),
               agent_log_quote (err, quoted, sizeof (quoted)));
        s_send_error (self, peer, 0, -1, "version", "%s", err);
    }
    else
    if (rc != MSG_OK)
        s_reject_malformed (self, peer, err [0]? err: "not a message");
    else
        s_dispatch (self, peer, from_peer, received_ns);

done:
    zframe_destroy (&peer);
    zframe_destroy (&payload);
    zmsg_destroy (&zmsg);
}

//  Streams moved: reset the eventfd and let the test answer.
static void
s_handle_stream_events (agent_t *self)
{
    uint64_t count;
    ssize_t rc = read (self->notify_fd, &count, sizeof (count));
    (void) rc;
    s_test_poll (self);
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
        s_end_session (self, "lease-expired", "the coordinator went silent (lease expired)");
    s_test_poll (self);
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
        int64_t test_ns = agent_test_next_ns (self->test);
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
        agent_test_abort (self->test, "agent stopping");
        agent_test_poll (self->test, clock_now_ns ());
        s_test_forget (self, "discard", "agent stopping");
    }
    s_log (self, "event=exit malformed=%" PRIu64, self->malformed.count);
}

//  The loop: one poller over the stream eventfd, the actor pipe (if any)
//  and the socket, woken by the next deadline. Ends on $TERM from the
//  pipe, or on SIGINT/SIGTERM when there is no pipe.
static void
s_loop (agent_t *self, zsock_t *pipe)
{
    zpoller_t *poller = zpoller_new (&self->notify_fd, NULL);
    if (!poller) {
        s_log (self, "event=exit reason=\"zpoller_new failed\"");
        return;
    }
    if (pipe)
        zpoller_add (poller, pipe);
    zpoller_add (poller, self->router);
    s_log (self, "event=listening");

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
            s_log (self, "event=fd-limit soft=%llu was=%llu",
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

    s_log (self, "event=bound endpoint=%s version=%s protocol=%d", self->endpoint,
           IOFLEET_VERSION, IOFLEET_PROTOCOL_VERSION);
    for (size_t index = 0; index < confine_root_count (self->confine); index++)
        s_log (self, "event=root dir=%s", confine_root (self->confine, index));
    s_log (self, "event=memory-bound test_bytes=%" PRIu64 " from=%s", self->memory_bound_bytes,
           config->max_memory_bytes? "--max-memory": mem_bytes? "MemTotal/4": "fallback");
    if (self->keys) {
        char key_text [48];
        s_log (self, "event=security security=curve key=%s trusted=%zu keys=%s",
               keys_key_text (zcert_public_key (keys_own (self->keys)), key_text, sizeof (key_text)),
               keys_peer_count (self->keys), keys_dir (self->keys));
    }
    else
    if (loopback && !config->insecure)
        s_log (self, "event=note security=none text=\"the socket is unauthenticated; "
               "only this host can reach it\"");
    else
        s_log (self, "event=warning security=none text=\"serving %s without authentication "
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
    agent_test_destroy (&self->test);
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
