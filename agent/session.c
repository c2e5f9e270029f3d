/*  agent/session.c: the session with one coordinator; see session.h. */
#include "session.h"

#include "../proto/clock.h"

#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

#define S_LEASE_DEFAULT_MS      10000       //  HELLO with lease_ms = 0
#define S_LEASE_MIN_MS          1000
#define S_LEASE_MAX_MS          3600000
//  While a session is open the loop wakes at least this many times a
//  lease, so that time it was away (agent_session_away) is measured to
//  within this fraction of the lease.
#define S_LISTEN_TICKS          8

struct _agent_session_t {
    zframe_t *peer;                     //  routing id of the coordinator, NULL when idle
    char coordinator [MSG_TEXT_MAX + 1];    //  its name, from HELLO
    uint64_t id;                        //  names the session in WELCOME and PONG, 0 when idle
    uint32_t lease_ms;                  //  silence after which the session ends
    int64_t started_ns;                 //  when the session began
    int64_t silent_from_ns;             //  when the silence the lease counts began: the
                                        //  peer's last word, later by the time the agent was away
    kept_t *kept;                       //  files its tests laid out for later ones
};

agent_session_t *
agent_session_new (void)
{
    agent_session_t *self = calloc (1, sizeof (agent_session_t));
    if (self)
        self->kept = kept_new ();
    if (self && !self->kept)
        agent_session_destroy (&self);
    return self;
}

void
agent_session_destroy (agent_session_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    zframe_destroy (&(*self_p)->peer);
    kept_destroy (&(*self_p)->kept);
    free (*self_p);
    *self_p = NULL;
}

//  A fresh session id: random, so that an agent restarted on the same
//  endpoint never hands out the id of the session it lost; never 0,
//  which means "no session".
static uint64_t
s_new_id (void)
{
    uint64_t id = 0;
    while (id == 0)
        if (getrandom (&id, sizeof (id), 0) != (ssize_t) sizeof (id))
            id = (uint64_t) clock_now_ns () ^ ((uint64_t) getpid () << 32);
    return id;
}

//  A lease within the bounds any session keeps to.
static uint32_t
s_lease_bounded (uint32_t lease_ms)
{
    return lease_ms < S_LEASE_MIN_MS? S_LEASE_MIN_MS: lease_ms > S_LEASE_MAX_MS? S_LEASE_MAX_MS
                                                                             : lease_ms;
}

agent_session_hello_t
agent_session_hello (agent_session_t *self, zframe_t *peer, const msg_hello_t *hello,
                     int64_t now_ns)
{
    bool renewed = agent_session_is_peer (self, peer);
    if (self->peer && !renewed)
        return AGENT_SESSION_BUSY;
    uint32_t lease_ms = s_lease_bounded (hello->lease_ms? hello->lease_ms: S_LEASE_DEFAULT_MS);
    if (!renewed) {
        self->peer = zframe_dup (peer);
        self->id = s_new_id ();
        self->started_ns = now_ns;
        kept_begin (self->kept, self->id);
    }
    self->silent_from_ns = now_ns;
    self->lease_ms = lease_ms;
    msg_strcpy (self->coordinator, hello->coordinator, sizeof (self->coordinator));
    return renewed? AGENT_SESSION_RENEWED: AGENT_SESSION_OPENED;
}

uint32_t
agent_session_set_lease (agent_session_t *self, uint32_t lease_ms, uint32_t max_ms)
{
    if (self->peer && lease_ms)
        self->lease_ms = s_lease_bounded (lease_ms < max_ms? lease_ms: max_ms);
    return self->lease_ms;
}

bool
agent_session_is_peer (agent_session_t *self, zframe_t *peer)
{
    return self->peer && zframe_eq (peer, self->peer);
}

zframe_t *
agent_session_peer (agent_session_t *self)
{
    return self->peer;
}

const char *
agent_session_coordinator (agent_session_t *self)
{
    return self->coordinator;
}

uint64_t
agent_session_id (agent_session_t *self)
{
    return self->id;
}

uint32_t
agent_session_lease_ms (agent_session_t *self)
{
    return self->lease_ms;
}

int64_t
agent_session_age_ns (agent_session_t *self, int64_t now_ns)
{
    return self->peer? now_ns - self->started_ns: 0;
}

kept_t *
agent_session_kept (agent_session_t *self)
{
    return self->kept;
}

void
agent_session_heard (agent_session_t *self, int64_t now_ns)
{
    if (self->peer)
        self->silent_from_ns = now_ns;
}

void
agent_session_away (agent_session_t *self, int64_t away_ns)
{
    //  The agent heard nothing because it did not listen: the silence
    //  counted so far stays what it was when it stopped listening.
    if (self->peer && away_ns > 0)
        self->silent_from_ns += away_ns;
}

int64_t
agent_session_deadline_ns (agent_session_t *self)
{
    //  silent_from is a recent clock reading and the lease at most an
    //  hour: the sum cannot overflow.
    return self->peer? self->silent_from_ns + (int64_t) self->lease_ms * NS_PER_MSEC: INT64_MAX;
}

int64_t
agent_session_wake_ns (agent_session_t *self, int64_t now_ns)
{
    if (!self->peer)
        return INT64_MAX;
    int64_t tick_ns = now_ns + (int64_t) self->lease_ms * NS_PER_MSEC / S_LISTEN_TICKS;
    int64_t deadline_ns = agent_session_deadline_ns (self);
    return deadline_ns < tick_ns? deadline_ns: tick_ns;
}

bool
agent_session_expired (agent_session_t *self, int64_t now_ns)
{
    return self->peer && now_ns >= agent_session_deadline_ns (self);
}

size_t
agent_session_end (agent_session_t *self)
{
    size_t removed = kept_end (self->kept);
    zframe_destroy (&self->peer);
    self->id = 0;
    self->lease_ms = 0;
    self->coordinator [0] = '\0';
    return removed;
}
