/*  coordinator/session.c: one agent, seen from the coordinator; see session.h. */
#include "session.h"
#include "../proto/clock.h"

#include <string.h>

struct _session_t {
    char name [JOB_NAME_MAX + 1];           //  agent name in the scenario
    char endpoint [256];                    //  where it listens
    zsock_t *dealer;                        //  our one socket to it
    session_state_t state;                  //  where the conversation stands
    char reason [MSG_TEXT_MAX + 1];         //  why it failed or was lost
    agent_info_t info;                      //  what it told us, and its clock
    char reported_name [JOB_NAME_MAX + 1];  //  the name the agent gives itself
    int64_t last_heard_ns;                  //  when it last said anything
    uint32_t ping_seq;                      //  sequence number of the ping in flight
    uint64_t pongs;                         //  pongs of the current measurement
    int64_t best_rtt_ns;                    //  smallest round trip so far, -1 none
    int64_t best_offset_ns;                 //  offset measured with it
};

session_t *
session_new (const char *name, const char *endpoint, char *err, size_t errlen)
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
    //  Anything that arrives, even garbage, proves the agent is alive.
    self->last_heard_ns = *received_ns;
    return rc;
}

//  Send the next ping of the current measurement.
static int
s_send_ping (session_t *self)
{
    msg_t ping = { .type = MSG_PING };
    ping.u.ping.seq = ++self->ping_seq;
    ping.u.ping.t1_ns = clock_now_ns ();
    return session_send (self, &ping);
}

int
session_clock_begin (session_t *self)
{
    self->pongs = 0;
    self->best_rtt_ns = -1;
    return s_send_ping (self);
}

int
session_clock_pong (session_t *self, const msg_pong_t *pong, int64_t received_ns, uint64_t pings)
{
    if (pong->seq != self->ping_seq)
        return -1;              //  a stale pong from an earlier measurement
    clock_sample_t sample = clock_from_exchange (pong->t1_ns, pong->t2_ns,
                                                 pong->t3_ns, received_ns);
    //  The exchange with the smallest round trip has the least room for
    //  asymmetric delay, so its offset is the most trustworthy.
    if (self->best_rtt_ns < 0 || sample.rtt_ns < self->best_rtt_ns) {
        self->best_rtt_ns = sample.rtt_ns;
        self->best_offset_ns = sample.offset_ns;
    }
    self->pongs++;
    if (self->pongs < pings) {
        s_send_ping (self);
        return 0;
    }
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

void
session_set_reported_name (session_t *self, const char *name)
{
    msg_strcpy (self->reported_name, name, sizeof self->reported_name);
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
