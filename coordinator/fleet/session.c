/*  coordinator/fleet/session.c: one agent, seen from the coordinator; see session.h. */
#include "session.h"
#include "../../proto/printable.h"
#include "../../proto/clock.h"
#include "peer_probe.h"

#include <errno.h>
#include <netdb.h>
#include <string.h>

//  How long the probe of a peer that closed the handshake waits for a
//  connection and for its first bytes, and the probe of one that
//  refused a connection for its answer.
#define S_PROBE_MS 300
#define S_RETRIES_DEFINITIVE 2     //  refused connections that tell an agent is not there

//  A session's texts are allocated when there is something to say, since
//  a fleet of thousands mostly has nothing to say; the agent's name and
//  endpoint are those of its info.
struct _session_t {
    fleetsock_t *sock;                      //  the fleet's socket (borrowed)
    uint32_t id;                            //  our peer id on it: the index in the fleet
    bool secure;                            //  CURVE client (--keys)
    bool connected;                         //  a TCP connection came up
    bool handshake_ok;                      //  a handshake succeeded since
    bool handshake_definitive;              //  the agent refused us: give up
    char *handshake_error;                  //  last handshake failure, NULL none
    bool probed;                            //  peer_probe_zmtp was asked about the endpoint
    bool not_zmtp;                          //  and what listens there does not speak ZMTP
    char peer_sent [64];                    //  what it sent instead
    uint32_t connect_retries;               //  connections that failed before any came up
    int refused_errno;                      //  at the first: why, by peer_probe_reach
    uint32_t handshake_closes;              //  CURVE handshakes the agent closed on us
    session_state_t state;                  //  where the conversation stands
    char *reason;                           //  why it failed or was lost, NULL none
    agent_info_t info;                      //  its name and endpoint in the scenario, what
                                            //  it told us, and its clock
    char reported_name [JOB_NAME_MAX + 1];  //  the name the agent gives itself
    int64_t last_heard_ns;                  //  when it last proved our session
    int64_t reach_ns;                       //  the slowest keepalive answered since the
                                            //  fleet last took it, -1 none
    uint64_t session_id;                    //  the agent's id for our session, from WELCOME
    uint32_t generation;                    //  WELCOMEs taken: each one a session of its own
    int64_t hello_deadline_ns;              //  while connecting: when the hello gives up
    int64_t hello_retry_ns;                 //  when to ask again (busy, or no answer)
    bool busy_told;                         //  the console heard the agent is busy
    uint32_t hello_round;                   //  the fleet_hello waiting for it, 0 none
    uint32_t ping_seq;                      //  sequence number of the ping in flight
    uint64_t pings;                         //  exchanges the measurement wants, 0 when none runs
    uint64_t pongs;                         //  pongs of the current measurement
    int64_t best_rtt_ns;                    //  smallest round trip so far, -1 none
    int64_t best_offset_ns;                 //  offset measured with it
    int64_t measured_ns;                    //  when the last measurement completed, 0 never
};

//  A text that found no memory for itself.
static char s_no_memory [] = "(no memory for the reason)";

//  Replace *field with a copy of text, cut at MSG_TEXT_MAX bytes as a
//  message would carry it, or with NULL for none ("" or NULL). On no
//  memory, a fixed text: a failure never reads as none. text may be
//  *field itself.
static void
s_set_text (char **field, const char *text)
{
    char *copy = text && text [0]? strndup (text, MSG_TEXT_MAX): NULL;
    if (text && text [0] && !copy)
        copy = s_no_memory;
    if (*field != s_no_memory)
        free (*field);
    *field = copy;
}

//  A tcp:// endpoint's host name must resolve: libzmq would try it again
//  and again in the background and say nothing. Addresses and other
//  transports pass. Returns 0, or -1 with "unknown host name ..." in err.
static int
s_resolve_host (const char *endpoint, char *err, size_t errlen)
{
    if (strncmp (endpoint, "tcp://", 6) != 0)
        return 0;
    char host [MSG_HOST_MAX + 1];
    const char *start = endpoint + 6;
    const char *colon = strrchr (start, ':');
    size_t length = colon? (size_t) (colon - start): strlen (start);
    if (length == 0 || length >= sizeof host || start [0] == '[' || start [0] == '*')
        return 0;
    memcpy (host, start, length);
    host [length] = '\0';
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
    struct addrinfo *found = NULL;
    int rc = getaddrinfo (host, NULL, &hints, &found);
    if (found)
        freeaddrinfo (found);
    if (rc == EAI_NONAME || rc == EAI_FAIL || rc == EAI_NODATA) {
        snprintf (err, errlen, "unknown host name %s (%s): is it spelt right? "
                  "iofleet ping %s tells", host, gai_strerror (rc), endpoint);
        return -1;
    }
    return 0;
}

session_t *
session_new (const char *name, const char *endpoint, size_t index, fleetsock_t *sock,
             keys_t *keys, char *err, size_t errlen)
{
    session_t *self = (session_t *) zmalloc (sizeof (session_t));
    msg_strcpy (self->info.name, name, sizeof self->info.name);
    msg_strcpy (self->info.endpoint, endpoint, sizeof self->info.endpoint);
    self->best_rtt_ns = -1;
    self->reach_ns = -1;
    self->sock = sock;
    self->id = (uint32_t) index;
    const uint8_t *server_key = NULL;
    if (keys) {
        char reason [MSG_TEXT_MAX + 1];
        zcert_t *agent_cert = keys_peer (keys, name, reason, sizeof reason);
        if (!agent_cert) {
            snprintf (err, errlen, "agent %s: %s", name, reason);
            goto fail;
        }
        server_key = zcert_public_key (agent_cert);
        self->secure = true;
    }
    char reason [MSG_TEXT_MAX + 1];
    if (s_resolve_host (endpoint, reason, sizeof reason)) {
        snprintf (err, errlen, "agent %s (%s): %s", name, endpoint, reason);
        goto fail;
    }
    if (fleetsock_connect (sock, self->id, endpoint, server_key, reason, sizeof reason)) {
        snprintf (err, errlen, "agent %s: %s", name, reason);
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
        s_set_text (&self->handshake_error, NULL);
        s_set_text (&self->reason, NULL);
        free (self);
        *self_p = NULL;
    }
}

int
session_send (session_t *self, const msg_t *msg)
{
    char *data;
    size_t size;
    if (msg_encode (msg, &data, &size))
        return -1;
    int rc = fleetsock_send (self->sock, self->id, data, size);
    free (data);
    return rc;
}

void
session_take_welcome (session_t *self, const msg_welcome_t *welcome, int64_t received_ns)
{
    msg_strcpy (self->info.hostname, welcome->hostname, sizeof self->info.hostname);
    msg_strcpy (self->info.kernel, welcome->kernel, sizeof self->info.kernel);
    msg_strcpy (self->info.boot_id, welcome->boot_id, sizeof self->info.boot_id);
    self->info.cpus = welcome->cpus;
    self->info.mem_bytes = welcome->mem_bytes;
    msg_strcpy (self->info.version, welcome->version, sizeof self->info.version);
    self->info.insecure = welcome->insecure;
    msg_strcpy (self->reported_name, welcome->name, sizeof self->reported_name);
    self->session_id = welcome->session_id;
    self->generation++;
    self->measured_ns = 0;          //  a new session is measured anew
    self->last_heard_ns = received_ns;
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
              "'%s' as before: another agent took the endpoint", self->info.endpoint,
              printable (welcome->name, now_name, sizeof now_name),
              printable (welcome->hostname, now_host, sizeof now_host),
              printable (self->reported_name, was_name, sizeof was_name),
              printable (self->info.hostname, was_host, sizeof was_host));
    return -1;
}

//  Send a PING with seq and our session id.
static int
s_send_ping (session_t *self, uint32_t seq, int64_t lease_ns)
{
    msg_t ping = { .type = MSG_PING };
    ping.u.ping.seq = seq;
    ping.u.ping.lease_ms = (uint32_t) (lease_ns / NS_PER_MSEC);
    ping.u.ping.t1_ns = clock_now_ns ();
    ping.u.ping.session_id = self->session_id;
    return session_send (self, &ping);
}

int
session_keepalive (session_t *self, int64_t lease_ns)
{
    return s_send_ping (self, 0, lease_ns);
}

void
session_note_reach (session_t *self, int64_t reach_ns)
{
    if (reach_ns > self->reach_ns)
        self->reach_ns = reach_ns;
}

int64_t
session_take_reach (session_t *self)
{
    int64_t reach_ns = self->reach_ns;
    self->reach_ns = -1;
    return reach_ns;
}

void
session_heard (session_t *self, int64_t received_ns)
{
    if (received_ns > self->last_heard_ns)
        self->last_heard_ns = received_ns;
}

void
session_away (session_t *self, int64_t away_ns)
{
    //  Time the console did not listen is nobody's silence, and a hello
    //  gets the time it could not be answered in.
    if (self->last_heard_ns)
        self->last_heard_ns += away_ns;
    if (self->state == SESSION_CONNECTING && self->hello_deadline_ns < INT64_MAX - away_ns)
        self->hello_deadline_ns += away_ns;
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
    return s_send_ping (self, self->ping_seq, 0);
}

bool
session_measuring (session_t *self)
{
    return self->pings > 0;
}

void
session_clock_stop (session_t *self)
{
    self->pings = 0;
}

int64_t
session_measured_ns (session_t *self)
{
    return self->measured_ns;
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
        s_send_ping (self, self->ping_seq, 0);
        return 0;
    }
    self->pings = 0;
    self->info.clock_offset_ns = self->best_offset_ns;
    self->info.clock_rtt_ns = self->best_rtt_ns;
    self->measured_ns = received_ns;
    return 1;
}

const char *
session_name (session_t *self)
{
    return self->info.name;
}

const char *
session_reported_name (session_t *self)
{
    return self->reported_name;
}

const char *
session_endpoint (session_t *self)
{
    return self->info.endpoint;
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
    //  A reason quotes peers (an agent's refusal, the coordinator it
    //  serves): it is kept printable for whoever prints it.
    char shown [MSG_TEXT_MAX + 1];
    s_set_text (&self->reason, reason? printable (reason, shown, sizeof shown): NULL);
}

const char *
session_reason (session_t *self)
{
    return self->reason? self->reason: "";
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
    return self->id;
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

bool
session_busy_told (session_t *self)
{
    return self->busy_told;
}

void
session_set_busy_told (session_t *self, bool told)
{
    self->busy_told = told;
}

uint32_t
session_hello_round (session_t *self)
{
    return self->hello_round;
}

void
session_set_hello_round (session_t *self, uint32_t round)
{
    self->hello_round = round;
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

//  Why connections to the agent fail, with what to do, into text: as
//  peer_probe_reach found at the first failure.
static void
s_refused_text (const session_t *self, char *text, size_t textlen)
{
    const char *endpoint = self->info.endpoint;
    int error = self->refused_errno;
    if (error == EHOSTUNREACH || error == ENETUNREACH)
        snprintf (text, textlen, "no route to the host (%s): is the address right, and the "
                  "host up, on a network this one reaches? iofleet ping %s tells",
                  strerror (error), endpoint);
    else
    if (error == ECONNREFUSED)
        snprintf (text, textlen, "connection refused (nothing listens there): is the agent "
                  "running, on that port? iofleet ping %s tells", endpoint);
    else
        snprintf (text, textlen, "connection refused (nothing listens there, or the host is "
                  "unreachable): is the agent running, on that port? iofleet ping %s tells",
                  endpoint);
}

//  Take one monitor event into the session's view of the handshake.
void
session_connection_event (session_t *self, uint16_t event, uint32_t value)
{
    const char *what = NULL;
    char hint [MSG_TEXT_MAX + 1];           //  a reason that names the endpoint
    switch (event) {
        case ZMQ_EVENT_CONNECTED:
            self->connected = true;
            return;
        case ZMQ_EVENT_CONNECT_RETRIED:
            //  The network answered (refused, or the host unreachable):
            //  libzmq tries again every reconnect interval. An agent met
            //  before may be restarting, and is waited for; one never met
            //  that refused a few times in a row is not there.
            if (self->connected)
                return;
            //  libzmq does not say which of the two: a connection of
            //  our own, once, does (the network has just answered, so
            //  it answers this one as fast).
            if (++self->connect_retries == 1)
                self->refused_errno = peer_probe_reach (self->info.endpoint, S_PROBE_MS);
            s_refused_text (self, hint, sizeof hint);
            what = hint;
            if (self->connect_retries >= S_RETRIES_DEFINITIVE && self->generation == 0)
                self->handshake_definitive = true;
            break;
        case ZMQ_EVENT_HANDSHAKE_SUCCEEDED:
            self->handshake_ok = true;
            self->handshake_definitive = false;
            s_set_text (&self->handshake_error, NULL);
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
            if (self->secure && self->connected && !self->handshake_ok) {
                snprintf (hint, sizeof hint, "the connection closed during the CURVE "
                          "handshake: is the agent's public key in our --keys directory its "
                          "current one? (a key mismatch; iofleet ping %s --keys DIR tells)",
                          self->info.endpoint);
                what = hint;
                //  Twice in a row is no accident: the agent cannot read us.
                if (++self->handshake_closes >= 2)
                    self->handshake_definitive = true;
            }
            else
            //  Without keys of our own, the agent that closes at once is
            //  mostly one that requires CURVE: the mechanism mismatch is
            //  seen by whichever side reads the other's greeting first,
            //  and when that is the agent, we see only the close.
            if (event == ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL && !self->secure) {
                //  ... unless what listens there does not speak ZMTP at
                //  all (asked once: the answer does not change).
                if (!self->probed) {
                    self->probed = true;
                    self->not_zmtp = peer_probe_zmtp (self->info.endpoint, S_PROBE_MS,
                                                      self->peer_sent,
                                                      sizeof self->peer_sent) == 0;
                }
                if (self->not_zmtp) {
                    char text [MSG_TEXT_MAX + 1];
                    snprintf (text, sizeof text, "agent %s (%s): not an iofleet agent: what "
                              "listens there does not speak ZeroMQ (it sent %s); is the "
                              "endpoint right?", self->info.name, self->info.endpoint,
                              self->peer_sent);
                    s_set_text (&self->handshake_error, text);
                    self->handshake_definitive = true;
                    return;
                }
                what = "the agent closed the handshake, as an agent that requires CURVE keys "
                       "does with a console without them; give --keys DIR (or [global] "
                       "keys = DIR)";
            }
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
             && event != ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL && self->handshake_error;
    if (what && !keep) {
        char text [MSG_TEXT_MAX + 1];
        snprintf (text, sizeof text, "agent %s (%s): %s", self->info.name, self->info.endpoint,
                  what);
        s_set_text (&self->handshake_error, text);
    }
}

const char *
session_handshake_error (session_t *self, bool *definitive)
{
    if (definitive)
        *definitive = self->handshake_definitive;
    return self->handshake_error? self->handshake_error: "";
}
