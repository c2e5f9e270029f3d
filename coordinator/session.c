/*  coordinator/session.c: one agent, seen from the coordinator; see session.h. */
#include "session.h"
#include "../proto/printable.h"
#include "../proto/clock.h"

#include <string.h>

struct _session_t {
    char name [JOB_NAME_MAX + 1];           //  agent name in the scenario
    char endpoint [256];                    //  where it listens
    zsock_t *dealer;                        //  our one socket to it
    bool secure;                            //  CURVE client (--keys)
    zsock_t *monitor;                       //  handshake events of dealer
    bool connected;                         //  a TCP connection came up
    bool handshake_ok;                      //  a handshake succeeded since
    bool handshake_definitive;              //  the agent refused us: give up
    char handshake_error [MSG_TEXT_MAX + 1];    //  last handshake failure, "" none
    session_state_t state;                  //  where the conversation stands
    char reason [MSG_TEXT_MAX + 1];         //  why it failed or was lost
    agent_info_t info;                      //  what it told us, and its clock
    char reported_name [JOB_NAME_MAX + 1];  //  the name the agent gives itself
    int64_t last_heard_ns;                  //  when it last proved our session
    uint64_t session_id;                    //  the agent's id for our session, from WELCOME
    uint32_t generation;                    //  WELCOMEs taken: each one a session of its own
    size_t index;                           //  place in the fleet
    int64_t hello_deadline_ns;              //  while connecting: when the hello gives up
    int64_t hello_retry_ns;                 //  refused as busy: when to ask again
    uint32_t ping_seq;                      //  sequence number of the ping in flight
    uint64_t pings;                         //  exchanges the measurement wants, 0 when none runs
    uint64_t pongs;                         //  pongs of the current measurement
    int64_t best_rtt_ns;                    //  smallest round trip so far, -1 none
    int64_t best_offset_ns;                 //  offset measured with it
};

//  Watch the dealer's connections and handshakes through a PAIR socket,
//  so that a refusal, which a CURVE client otherwise sees as silence,
//  becomes a reason. Returns 0 or -1.
static int
s_monitor_start (session_t *self)
{
    char monitor_endpoint [64];
    snprintf (monitor_endpoint, sizeof monitor_endpoint, "inproc://iofleet-monitor-%p", (void *) self);
    int events = ZMQ_EVENT_CONNECTED | ZMQ_EVENT_DISCONNECTED
               | ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
               | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL;
    if (zmq_socket_monitor (zsock_resolve (self->dealer), monitor_endpoint, events) == -1)
        return -1;
    self->monitor = zsock_new (ZMQ_PAIR);
    if (!self->monitor || zsock_connect (self->monitor, "%s", monitor_endpoint) == -1)
        return -1;
    return 0;
}

session_t *
session_new (const char *name, const char *endpoint, keys_t *keys,
             char *err, size_t errlen)
{
    session_t *self = (session_t *) zmalloc (sizeof (session_t));
    msg_strcpy (self->name, name, sizeof self->name);
    msg_strcpy (self->endpoint, endpoint, sizeof self->endpoint);
    msg_strcpy (self->info.name, name, sizeof self->info.name);
    msg_strcpy (self->info.endpoint, endpoint, sizeof self->info.endpoint);
    self->best_rtt_ns = -1;

    self->dealer = zsock_new (ZMQ_DEALER);
    if (!self->dealer) {
        snprintf (err, errlen, "agent %s: cannot create a socket", name);
        goto fail;
    }
    //  Never block on a dead agent: sends fail instead of waiting, a last
    //  BYE gets half a second to leave at exit and no more, frames larger
    //  than the protocol allows are dropped by libzmq before they reach the
    //  decoder. ZMTP heartbeats keep idle connections honest both ways.
    zsock_set_sndtimeo (self->dealer, 0);
    zsock_set_linger (self->dealer, 500);
    zsock_set_maxmsgsize (self->dealer, MSG_FRAME_MAX);
    zsock_set_heartbeat_ivl (self->dealer, 1000);
    zsock_set_heartbeat_timeout (self->dealer, 5000);
    zsock_set_reconnect_ivl (self->dealer, 200);
    if (keys) {
        char reason [MSG_TEXT_MAX + 1];
        zcert_t *agent_cert = keys_peer (keys, name, reason, sizeof reason);
        if (!agent_cert) {
            snprintf (err, errlen, "agent %s: %s", name, reason);
            goto fail;
        }
        zcert_apply (keys_own (keys), self->dealer);
        zsock_set_curve_serverkey_bin (self->dealer, zcert_public_key (agent_cert));
        self->secure = true;
    }
    if (s_monitor_start (self)) {
        snprintf (err, errlen, "agent %s: cannot monitor the socket: %s",
                  name, zmq_strerror (zmq_errno ()));
        goto fail;
    }
    if (zsock_connect (self->dealer, "%s", endpoint)) {
        snprintf (err, errlen, "agent %s: cannot connect to '%s': %s",
                  name, endpoint, zmq_strerror (zmq_errno ()));
        goto fail;
    }
    return self;

fail:
    session_destroy (&self);
    return NULL;
}

void
session_destroy (session_t **self_p)
{
    assert (self_p);
    session_t *self = *self_p;
    if (self) {
        if (self->monitor && self->dealer)
            zmq_socket_monitor (zsock_resolve (self->dealer), NULL, 0);
        zsock_destroy (&self->monitor);
        zsock_destroy (&self->dealer);
        free (self);
        *self_p = NULL;
    }
}

zsock_t *
session_socket (session_t *self)
{
    return self->dealer;
}

int
session_send (session_t *self, const msg_t *msg)
{
    char *data;
    size_t size;
    if (msg_encode (msg, &data, &size))
        return -1;
    zframe_t *frame = zframe_new (data, size);
    free (data);
    if (!frame)
        return -1;
    int rc = zframe_send (&frame, self->dealer, ZFRAME_DONTWAIT);
    zframe_destroy (&frame);
    return rc;
}

int
session_recv (session_t *self, msg_t *msg, int64_t *received_ns, char *err, size_t errlen)
{
    zframe_t *frame = zframe_recv (self->dealer);
    *received_ns = clock_now_ns ();
    if (!frame) {
        snprintf (err, errlen, "receive failed");
        return -3;
    }
    //  A DEALER delivers what the agent's ROUTER sent: one frame per
    //  message. More frames than that is not our protocol.
    bool more = zframe_more (frame);
    int rc = msg_decode (zframe_data (frame), zframe_size (frame), msg, err, errlen);
    zframe_destroy (&frame);
    if (more) {
        zmsg_t *rest = zmsg_recv (self->dealer);
        zmsg_destroy (&rest);
        snprintf (err, errlen, "message of several frames");
        rc = MSG_EMALFORMED;
    }
    return rc;
}

void
session_take_welcome (session_t *self, const msg_welcome_t *welcome, int64_t received_ns)
{
    msg_strcpy (self->info.hostname, welcome->hostname, sizeof self->info.hostname);
    msg_strcpy (self->info.kernel, welcome->kernel, sizeof self->info.kernel);
    self->info.cpus = welcome->cpus;
    self->info.mem_bytes = welcome->mem_bytes;
    msg_strcpy (self->info.version, welcome->version, sizeof self->info.version);
    self->info.insecure = welcome->insecure;
    msg_strcpy (self->reported_name, welcome->name, sizeof self->reported_name);
    self->session_id = welcome->session_id;
    self->generation++;
    self->last_heard_ns = received_ns;
    //  A ready session keeps the coordinator the agent serves as its
    //  reason (`iofleet ping` shows it).
    session_set_state (self, SESSION_READY, welcome->serving);
}

int
session_check_same_agent (session_t *self, const msg_welcome_t *welcome, char *err, size_t errlen)
{
    if (!self->reported_name [0]
    ||  (streq (self->reported_name, welcome->name)
         && streq (self->info.hostname, welcome->hostname)))
        return 0;
    char now_name [MSG_HOST_MAX * PRINTABLE_GROWTH + 1], now_host [sizeof now_name];
    char was_name [sizeof now_name], was_host [sizeof now_name];
    snprintf (err, errlen, "%s is now answered by agent '%s' on host '%s', not by '%s' on host "
              "'%s' as before: another agent took the endpoint", self->endpoint,
              printable (welcome->name, now_name, sizeof now_name),
              printable (welcome->hostname, now_host, sizeof now_host),
              printable (self->reported_name, was_name, sizeof was_name),
              printable (self->info.hostname, was_host, sizeof was_host));
    return -1;
}

//  Send a PING with seq and our session id.
static int
s_send_ping (session_t *self, uint32_t seq)
{
    msg_t ping = { .type = MSG_PING };
    ping.u.ping.seq = seq;
    ping.u.ping.t1_ns = clock_now_ns ();
    ping.u.ping.session_id = self->session_id;
    return session_send (self, &ping);
}

int
session_keepalive (session_t *self)
{
    return s_send_ping (self, 0);
}

void
session_heard (session_t *self, int64_t received_ns)
{
    if (received_ns > self->last_heard_ns)
        self->last_heard_ns = received_ns;
}

int
session_clock_begin (session_t *self, uint64_t pings)
{
    self->pings = pings? pings: 1;
    self->pongs = 0;
    self->best_rtt_ns = -1;
    //  Sequence numbers of measurements skip 0, which keepalives use.
    if (++self->ping_seq == 0)
        self->ping_seq = 1;
    return s_send_ping (self, self->ping_seq);
}

bool
session_measuring (session_t *self)
{
    return self->pings > 0;
}

int
session_clock_pong (session_t *self, const msg_pong_t *pong, int64_t received_ns)
{
    if (self->pings == 0 || pong->seq == 0 || pong->seq != self->ping_seq)
        return -1;              //  a keepalive, or a stale pong from an earlier measurement
    clock_sample_t sample = clock_from_exchange (pong->t1_ns, pong->t2_ns,
                                                 pong->t3_ns, received_ns);
    //  The exchange with the smallest round trip has the least room for
    //  asymmetric delay, so its offset is the most trustworthy.
    if (self->best_rtt_ns < 0 || sample.rtt_ns < self->best_rtt_ns) {
        self->best_rtt_ns = sample.rtt_ns;
        self->best_offset_ns = sample.offset_ns;
    }
    self->pongs++;
    if (self->pongs < self->pings) {
        if (++self->ping_seq == 0)
            self->ping_seq = 1;
        s_send_ping (self, self->ping_seq);
        return 0;
    }
    self->pings = 0;
    self->info.clock_offset_ns = self->best_offset_ns;
    self->info.clock_rtt_ns = self->best_rtt_ns;
    return 1;
}

const char *
session_name (session_t *self)
{
    return self->name;
}

const char *
session_reported_name (session_t *self)
{
    return self->reported_name;
}

const char *
session_endpoint (session_t *self)
{
    return self->endpoint;
}

session_state_t
session_state (session_t *self)
{
    return self->state;
}

void
session_set_state (session_t *self, session_state_t state, const char *reason)
{
    self->state = state;
    msg_strcpy (self->reason, reason? reason: "", sizeof self->reason);
}

const char *
session_reason (session_t *self)
{
    return self->reason;
}

agent_info_t *
session_info (session_t *self)
{
    return &self->info;
}

int64_t
session_last_heard_ns (session_t *self)
{
    return self->last_heard_ns;
}

uint64_t
session_id (session_t *self)
{
    return self->session_id;
}

uint32_t
session_generation (session_t *self)
{
    return self->generation;
}

size_t
session_index (session_t *self)
{
    return self->index;
}

void
session_set_index (session_t *self, size_t index)
{
    self->index = index;
}

int64_t
session_hello_deadline_ns (session_t *self)
{
    return self->hello_deadline_ns;
}

void
session_set_hello_deadline_ns (session_t *self, int64_t deadline_ns)
{
    self->hello_deadline_ns = deadline_ns;
}

int64_t
session_hello_retry_ns (session_t *self)
{
    return self->hello_retry_ns;
}

void
session_set_hello_retry_ns (session_t *self, int64_t retry_ns)
{
    self->hello_retry_ns = retry_ns;
}

int64_t
session_offset_ns (session_t *self)
{
    return self->info.clock_offset_ns;
}

int64_t
session_uncertainty_ns (session_t *self)
{
    return self->info.clock_rtt_ns / 2;
}

//  Take one monitor event into the session's view of the handshake.
static void
s_monitor_event (session_t *self, uint16_t event, uint32_t value)
{
    const char *what = NULL;
    switch (event) {
        case ZMQ_EVENT_CONNECTED:
            self->connected = true;
            return;
        case ZMQ_EVENT_HANDSHAKE_SUCCEEDED:
            self->handshake_ok = true;
            self->handshake_definitive = false;
            self->handshake_error [0] = '\0';
            return;
        case ZMQ_EVENT_HANDSHAKE_FAILED_AUTH:
            //  The agent's ZAP handler answered 400: our key is not among
            //  those it trusts. Retrying will not change its mind. Without
            //  keys of our own (the handshake then fails one way or the
            //  other, depending on timing), what it wants is keys at all.
            what = self->secure?
                   "refused our key (CURVE authentication failed: add our public key "
                   "to the agent's --keys directory)":
                   "security mismatch: the agent requires CURVE keys; give --keys DIR "
                   "(or [global] keys = DIR)";
            self->handshake_definitive = true;
            break;
        case ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL:
            if (value == ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH) {
                what = self->secure?
                       "security mismatch: we use CURVE keys (--keys) and the agent runs "
                       "without (--insecure or loopback)":
                       "security mismatch: the agent requires CURVE keys; give --keys DIR "
                       "(or [global] keys = DIR)";
                self->handshake_definitive = true;
            }
            else
                what = "CURVE handshake failed (protocol error)";
            break;
        case ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL:
        case ZMQ_EVENT_DISCONNECTED:
            //  A CURVE server that cannot read our hello (we hold a wrong
            //  public key for it) just closes the connection.
            if (self->secure && self->connected && !self->handshake_ok)
                what = "the connection closed during the CURVE handshake: is the agent's "
                       "public key in our --keys directory its current one?";
            else
            if (event == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL)
                what = "handshake failed";
            break;
        default:
            return;
    }
    //  A refusal stays the reason: the disconnection that follows it
    //  says less.
    bool keep = self->handshake_definitive && event != ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
             && event != ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL && self->handshake_error [0];
    if (what && !keep)
        snprintf (self->handshake_error, sizeof self->handshake_error, "agent %s (%s): %s",
                  self->name, self->endpoint, what);
}

const char *
session_handshake_error (session_t *self, bool *definitive)
{
    while (self->monitor && (zsock_events (self->monitor) & ZMQ_POLLIN)) {
        zmsg_t *event = zmsg_recv (self->monitor);
        if (!event)
            break;
        zframe_t *head = zmsg_first (event);
        if (head && zframe_size (head) == 6) {
            uint16_t event_id;
            uint32_t value;
            memcpy (&event_id, zframe_data (head), sizeof event_id);
            memcpy (&value, zframe_data (head) + 2, sizeof value);
            s_monitor_event (self, event_id, value);
        }
        zmsg_destroy (&event);
    }
    if (definitive)
        *definitive = self->handshake_definitive;
    return self->handshake_error;
}
