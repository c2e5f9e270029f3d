/*  agent/agent_handlers.c: what the agent does with each message a coordinator
    sends: HELLO, PING, PREPARE, START, DROP, ABORT, STOP, BYE; see
    agent_state.h. The socket, the loop and the session's plumbing are
    agent.c's.
*/
#include "agent_state.h"

#include "../proto/clock.h"
#include "../proto/version.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define S_START_LEAD_MAX_NS     (3600 * NS_PER_SEC)    //  START instants further off are refused

//  What the test says goes to the session's coordinator, if there is one.
static void
s_send_to_session (void *arg, msg_t *msg)
{
    agent_t *self = (agent_t *) arg;
    zframe_t *peer = agent_session_peer (self->session);
    if (peer)
        agent_send (self, peer, msg);
}

//  Start building a message of type in self->out. Returns it.
static msg_t *
s_reply (agent_t *self, msg_type_t type)
{
    memset (&self->out, 0, sizeof (self->out));
    self->out.type = type;
    return &self->out;
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
    msg_strcpy (welcome->boot_id, hostinfo_boot_id (self->hostinfo), sizeof (welcome->boot_id));
    msg_strcpy (welcome->kernel, hostinfo_kernel (self->hostinfo), sizeof (welcome->kernel));
    welcome->cpus = hostinfo_cpus (self->hostinfo);
    welcome->mem_bytes = hostinfo_mem_bytes (self->hostinfo);
    welcome->insecure = self->insecure;
    msg_strcpy (welcome->serving, agent_session_coordinator (self->session),
                sizeof (welcome->serving));
    msg_strcpy (welcome->version, IOFLEET_VERSION, sizeof (welcome->version));
    welcome->session_id = session_id;
    agent_send (self, peer, out);
}

//  True if the session's test is test_id.
static bool
s_test_is_current (agent_t *self, uint32_t test_id)
{
    return self->test && agent_testrun_id (self->test) == test_id;
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
            agent_note (self, "event=probe coordinator=%s",
                        agent_log_quote (hello->coordinator, quoted, sizeof (quoted)));
        s_send_welcome (self, peer, 0);
        return;
    }
    //  A lease is how long a coordinator that falls silent keeps this
    //  agent from every other: bounded by the agent's own max-lease.
    if (hello->lease_ms > self->max_lease_ms) {
        agent_note (self, "event=refused reason=lease coordinator=%s lease_ms=%" PRIu32
                    " max_lease_ms=%" PRIu32,
                    agent_log_quote (hello->coordinator, quoted, sizeof (quoted)),
                    hello->lease_ms, self->max_lease_ms);
        agent_send_error (self, peer, 0, -1, "lease",
                          "agent %s grants a lease of at most %.1f s (its max-lease), and %.1f s "
                          "was asked for: ask for less, or raise max-lease",
                          self->name, self->max_lease_ms / 1e3, hello->lease_ms / 1e3);
        return;
    }
    int64_t now_ns = clock_now_ns ();
    agent_session_hello_t outcome = agent_session_hello (self->session, peer, hello, now_ns);
    if (outcome == AGENT_SESSION_BUSY) {
        char serving [AGENT_QUOTED_MAX];
        const char *coordinator = agent_session_coordinator (self->session);
        agent_note (self, "event=refused reason=busy coordinator=%s serving=%s",
                    agent_log_quote (hello->coordinator, quoted, sizeof (quoted)),
                    agent_log_quote (coordinator, serving, sizeof (serving)));
        agent_send_error (self, peer, 0, -1, "busy",
                          "agent %s serves coordinator %s (since %" PRId64 " s)",
                          self->name, coordinator,
                          (int64_t) (agent_session_age_ns (self->session, now_ns) / NS_PER_SEC));
        return;
    }
    agent_note (self, "event=%s coordinator=%s lease_ms=%" PRIu32,
                outcome == AGENT_SESSION_RENEWED? "session-renewed": "session",
                agent_log_quote (agent_session_coordinator (self->session),
                                 quoted, sizeof (quoted)),
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
    agent_send (self, peer, out);
    if (self->verbose)
        agent_note (self, "event=ping seq=%" PRIu32, ping.seq);
    uint32_t lease_ms = agent_session_lease_ms (self->session);
    if (from_peer && ping.lease_ms && ping.lease_ms != lease_ms
    &&  agent_session_set_lease (self->session, ping.lease_ms, self->max_lease_ms) != lease_ms)
        agent_note (self, "event=lease lease_ms=%" PRIu32 " asked_ms=%" PRIu32 " max_lease_ms=%"
                    PRIu32, agent_session_lease_ms (self->session), ping.lease_ms,
                    self->max_lease_ms);
}

//  PREPARE: a job of the held test, or of a new one that replaces it.
static void
s_handle_prepare (agent_t *self)
{
    msg_prepare_t *prepare = &self->in.u.prepare;
    if (self->test && !s_test_is_current (self, prepare->test_id)) {
        char reason [64];
        snprintf (reason, sizeof (reason), "replaced by test %" PRIu32, prepare->test_id);
        agent_forget_test (self, "discard", reason);
    }
    if (!self->test) {
        agent_testrun_config_t config = {
            .agent_name = self->name,
            .confine = self->confine,
            .memory_bound_bytes = self->memory_bound_bytes,
            .notify_fd = self->notify_fd,
            .kept = agent_session_kept (self->session),
            .verbose = self->verbose,
            .send = s_send_to_session,
            .send_arg = self
        };
        self->test = agent_testrun_new (&config, prepare->test_id, prepare->spec.test);
        if (!self->test) {
            agent_send_error (self, agent_session_peer (self->session), prepare->test_id,
                              (int32_t) prepare->job_id, "prepare", "agent %s: %s",
                              self->name, strerror (ENOMEM));
            return;
        }
    }
    agent_testrun_prepare (self->test, prepare);
}

//  START: hand every prepared stream of the test the instant of a phase.
static void
s_handle_start (agent_t *self, zframe_t *peer)
{
    msg_start_t *start = &self->in.u.start;
    if (!s_test_is_current (self, start->test_id)) {
        agent_send_error (self, peer, start->test_id, -1, "start",
                          "test %" PRIu32 " is not prepared on agent %s", start->test_id,
                          self->name);
        return;
    }
    //  A start instant hours away is a clock mapped wrong, not a plan.
    //  The instant is any int64 the wire carries: compare it with the
    //  window around now before subtracting anything from it.
    int64_t now_ns = clock_now_ns ();
    if (start->start_ns > now_ns + S_START_LEAD_MAX_NS
    ||  start->start_ns < now_ns - S_START_LEAD_MAX_NS) {
        agent_send_error (self, peer, start->test_id, -1, "start",
                          "start instant %" PRId64 " ns is more than %" PRId64 " s from this "
                          "agent's clock (now %" PRId64 " ns)", start->start_ns,
                          (int64_t) (S_START_LEAD_MAX_NS / NS_PER_SEC), now_ns);
        return;
    }
    char err [MSG_TEXT_MAX + 1];
    if (agent_testrun_start (self->test, start->phase, start->phase_count, start->start_ns,
                          err, sizeof (err))) {
        agent_send_error (self, peer, start->test_id, -1, "start", "%s", err);
        return;
    }
    agent_note (self, "event=start test_id=%" PRIu32 " test=%s phase=%" PRIu32 " start_ns=%" PRId64
                " lead_us=%" PRId64, start->test_id, agent_testrun_name (self->test), start->phase,
                start->start_ns,
                (int64_t) ((start->start_ns - now_ns) / NS_PER_USEC));
    //  A test without streams is over as soon as it starts.
    agent_poll_test (self);
}

//  DROP: the caches go, in the background; DROPPED follows.
static void
s_handle_drop (agent_t *self, zframe_t *peer)
{
    msg_drop_t *drop = &self->in.u.drop;
    char err [MSG_TEXT_MAX + 1];
    if (!s_test_is_current (self, drop->test_id))
        agent_send_error (self, peer, drop->test_id, -1, "prepare",
                          "test %" PRIu32 " is not prepared on agent %s", drop->test_id,
                          self->name);
    else
    if (agent_testrun_drop_caches (self->test, err, sizeof (err)))
        agent_send_error (self, peer, drop->test_id, -1, "prepare", "%s", err);
}

//  ABORT: stop the test's streams; their RESULTs follow as they end.
static void
s_handle_abort (agent_t *self)
{
    msg_abort_t *abort_msg = &self->in.u.abort;
    char quoted [AGENT_QUOTED_MAX];
    if (!s_test_is_current (self, abort_msg->test_id)) {
        //  Most likely the test ended while the ABORT was on its way.
        agent_note (self, "event=abort-ignored test_id=%" PRIu32 " reason=%s", abort_msg->test_id,
                    agent_log_quote (abort_msg->reason, quoted, sizeof (quoted)));
        return;
    }
    agent_note (self, "event=abort test_id=%" PRIu32 " reason=%s", abort_msg->test_id,
                agent_log_quote (abort_msg->reason, quoted, sizeof (quoted)));
    agent_testrun_abort (self->test, abort_msg->reason);
    agent_poll_test (self);
}

//  PREFLIGHT: would PREPARE take this job? Asked by anyone (it changes
//  nothing), answered at once.
static void
s_handle_preflight (agent_t *self, zframe_t *peer)
{
    if (!self->preflight)
        self->preflight = preflight_new (self->confine, self->memory_bound_bytes);
    msg_preflight_t ask = self->in.u.preflight;
    msg_t *out = s_reply (self, MSG_PREFLIGHT_REPLY);
    if (self->preflight)
        preflight_check (self->preflight, &ask, &out->u.preflight_reply);
    else {
        out->u.preflight_reply.test_id = ask.test_id;
        out->u.preflight_reply.job_id = ask.job_id;
        msg_strcpy (out->u.preflight_reply.problem, "job", sizeof (out->u.preflight_reply.problem));
        msg_strcpy (out->u.preflight_reply.text, strerror (ENOMEM),
                    sizeof (out->u.preflight_reply.text));
    }
    if (self->verbose || out->u.preflight_reply.problem [0]) {
        char quoted [AGENT_QUOTED_MAX], name [AGENT_QUOTED_MAX];
        agent_note (self, "event=preflight test=%" PRIu32 " job=%s problem=%s text=%s",
                    ask.test_id, agent_log_quote (ask.spec.name, name, sizeof (name)),
                    out->u.preflight_reply.problem [0]? out->u.preflight_reply.problem: "none",
                    agent_log_quote (out->u.preflight_reply.text, quoted, sizeof (quoted)));
    }
    agent_send (self, peer, out);
}

//  One decoded message from peer. Test messages from anyone but the
//  session's coordinator are refused: they must say HELLO first.
void
agent_dispatch (agent_t *self, zframe_t *peer, bool from_peer, int64_t received_ns)
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
        agent_send_error (self, peer, test_id, job_id, "no-session",
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
        case MSG_PREFLIGHT:
            s_handle_preflight (self, peer);
            break;
        case MSG_STOP:
            //  A phase is over everywhere; after the last, monitors end.
            if (from_peer && s_test_is_current (self, self->in.u.stop.test_id)) {
                agent_testrun_stop_phase (self->test, self->in.u.stop.phase);
                agent_poll_test (self);
            }
            break;
        case MSG_BYE:
            if (from_peer)
                agent_end_session (self, "bye", "session ended by the coordinator");
            else
                agent_note (self, "event=bye-ignored from=%s",
                            agent_peer_text (peer, peer_text, sizeof (peer_text)));
            break;
        case MSG_ERROR:
            //  Never answered: two programs trading errors would not stop.
            agent_note (self, "event=peer-error from=%s code=%s text=%s",
                        agent_peer_text (peer, peer_text, sizeof (peer_text)),
                        self->in.u.error.code,
                        agent_log_quote (self->in.u.error.text, quoted, sizeof (quoted)));
            break;
        default:
            agent_note (self, "event=unexpected from=%s type=%s",
                        agent_peer_text (peer, peer_text, sizeof (peer_text)),
                        msg_type_name (type));
            agent_send_error (self, peer, 0, -1, "unexpected",
                              "agent %s does not accept %s messages", self->name,
                              msg_type_name (type));
            break;
    }
}
