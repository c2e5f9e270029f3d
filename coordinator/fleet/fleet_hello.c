/*  coordinator/fleet/fleet_hello.c: what a session needs before a test, for the
    whole fleet at once: the hello, which opens the session, and the
    clock measurement; see fleet.h.

    Neither goes one agent after the other. Every hello goes out at once
    and the sessions still connecting are counted down as they answer;
    clock measurements run a window of sessions at a time, the next one
    beginning as one ends.
*/
#include "fleet_state.h"
#include "../../proto/printable.h"
#include "../../proto/clock.h"
#include "../../proto/printable.h"

#include <string.h>

//  Begin clock measurements until the window is full.
void
fleet_clock_fill (fleet_t *self)
{
    while (self->measuring < FLEET_CLOCK_WINDOW && self->clock_next < self->clock_count) {
        size_t next = self->clock_next++;
        session_t *session = self->clock_sessions? self->clock_sessions [next]
                                                 : self->sessions [next];
        if (session_state (session) != SESSION_READY || session_measuring (session)
        ||  session_measured_ns (session) > self->clock_fresh_ns)
            continue;
        session_clock_begin (session, self->clock_pings);
        self->measuring++;
    }
}

//  Send a hello to one session and wait for its answer until deadline_ns.
void
fleet_send_hello (fleet_t *self, session_t *session, bool probe, int64_t deadline_ns)
{
    msg_t hello = { .type = MSG_HELLO };
    msg_strcpy (hello.u.hello.coordinator, self->coordinator, sizeof hello.u.hello.coordinator);
    //  The lease the run began with, which the agent's max-lease let it
    //  accept: a grown one reaches it with the next keepalive, within
    //  that bound, rather than refused with the hello.
    hello.u.hello.lease_ms = (uint32_t) (self->lease_asked_ns / NS_PER_MSEC);
    hello.u.hello.probe = probe;
    //  One said hello to again keeps why it was lost until it answers:
    //  a test it misses meanwhile says so.
    char reason [MSG_TEXT_MAX + 1];
    msg_strcpy (reason, session_reason (session), sizeof reason);
    fleet_set_state (self, session, SESSION_CONNECTING, reason);
    session_set_hello_deadline_ns (session, deadline_ns);
    //  A first hello waits in the connection's queue until it is up, and
    //  is enough; one to an agent met before is sent again now and then.
    session_set_hello_retry_ns (session, session_generation (session)?
                                         clock_now_ns () + FLEET_HELLO_RESEND_NS: INT64_MAX);
    //  A DEALER queues what it sends until the connection is up, so one
    //  hello is enough; the deadline covers connection and answer.
    session_send (session, &hello);
}

//  A WELCOME: the session is ready (again), in a new generation. A ready
//  session keeps the coordinator the agent serves as its reason (`iofleet
//  ping` shows it).
void
fleet_on_welcome (fleet_t *self, session_t *session, const msg_welcome_t *welcome,
              int64_t received_ns)
{
    char reason [1024];
    if (session_check_same_agent (session, welcome, reason, sizeof reason)) {
        fprintf (stderr, "iofleet: agent=%s event=refused reason=\"%s\"\n",
                 session_name (session), reason);
        fleet_set_state (self, session, SESSION_FAILED, reason);
        return;
    }
    session_take_welcome (session, welcome, received_ns);
    fleet_set_state (self, session, SESSION_READY, welcome->serving);
    if (!streq (welcome->name, session_name (session))
    &&  !streq (session_name (session), session_endpoint (session))) {
        char shown [MSG_HOST_MAX * PRINTABLE_GROWTH + 1];
        fprintf (stderr, "iofleet: agent=%s event=name-differs agent_says=%s\n",
                 session_name (session), printable (welcome->name, shown, sizeof shown));
    }
}

void
fleet_on_busy (fleet_t *self, session_t *session, const char *text, int64_t received_ns)
{
    (void) self;
    session_set_hello_retry_ns (session, received_ns + FLEET_BUSY_RETRY_NS);
    if (session_busy_told (session))
        return;
    session_set_busy_told (session, true);
    //  The text is the agent's, and names whatever another process put
    //  in its hello: printed escaped.
    char shown [MSG_TEXT_MAX * PRINTABLE_GROWTH + 1];
    fprintf (stderr, "iofleet: agent=%s event=busy reason=\"%s\" wait=\"asking again until "
             "connect_timeout, %.1f s from now\"\n", session_name (session),
             printable (text, shown, sizeof shown),
             (double) (session_hello_deadline_ns (session) - received_ns) / NS_PER_SEC);
}

//  A connecting session whose hello can no longer succeed: refused by a
//  handshake, past its deadline, or interrupted.
void
fleet_check_hello (fleet_t *self, session_t *session, int64_t now_ns)
{
    bool definitive = false;
    const char *handshake_error = session_handshake_error (session, &definitive);
    bool late = now_ns >= session_hello_deadline_ns (session);
    if (definitive || (late && handshake_error [0] && !fleet_interrupted ())) {
        fleet_set_state (self, session, SESSION_FAILED, handshake_error);
        return;
    }
    //  Refused as busy: the refusal is the reason if no later answer
    //  comes. Until the deadline, ask again now and then, busy or not
    //  (FLEET_HELLO_RESEND_NS).
    const char *refusal = session_reason (session);
    if (late && refusal [0] && !fleet_interrupted ()) {
        char reason [MSG_TEXT_MAX + 1];
        msg_strcpy (reason, refusal, sizeof reason);
        fleet_set_state (self, session, SESSION_FAILED, reason);
        return;
    }
    if (!late && !fleet_interrupted ()) {
        if (now_ns >= session_hello_retry_ns (session))
            fleet_send_hello (self, session, false, session_hello_deadline_ns (session));
        return;
    }
    char reason [MSG_TEXT_MAX + 1];
    if (fleet_interrupted ())
        snprintf (reason, sizeof reason, "agent %s (%s): interrupted",
                  session_name (session), session_endpoint (session));
    else
        snprintf (reason, sizeof reason, "agent %s (%s): no answer within %.1f s",
                  session_name (session), session_endpoint (session),
                  (double) self->connect_timeout_ns / NS_PER_SEC);
    fleet_set_state (self, session, SESSION_FAILED, reason);
}

//  Count sessions of a set (NULL: the fleet) that are ready.
static size_t
s_count_ready (fleet_t *self, session_t **sessions, size_t count)
{
    size_t found = 0;
    for (size_t i = 0; i < (sessions? count: self->count); i++)
        if (session_state (sessions? sessions [i]: self->sessions [i]) == SESSION_READY)
            found++;
    return found;
}

//  True, until by_ns, while a session of the set (NULL: the fleet) is
//  about to be ready or lost: said hello to in the background and not
//  yet past its hello's deadline, or ready but in doubt after the
//  console's absence (a keepalive is on its way).
static bool
s_returning (fleet_t *self, session_t **sessions, size_t count, int64_t by_ns)
{
    int64_t now_ns = clock_now_ns ();
    if (now_ns >= by_ns)
        return false;
    for (size_t i = 0; i < (sessions? count: self->count); i++) {
        session_t *session = sessions? sessions [i]: self->sessions [i];
        if (session_state (session) == SESSION_CONNECTING
        &&  session_hello_round (session) != self->hello_round
        &&  now_ns < session_hello_deadline_ns (session))
            return true;
        if (fleet_in_doubt (self, session))
            return true;
    }
    return false;
}

size_t
fleet_hello (fleet_t *self, session_t **sessions, size_t count, bool probe,
             int64_t timeout_ns, fleet_handler_fn *handler, void *arg)
{
    if (!sessions)
        count = self->count;
    self->connect_timeout_ns = timeout_ns;
    int64_t now_ns = clock_now_ns ();
    int64_t deadline_ns = now_ns + timeout_ns;
    int64_t return_ns = now_ns + FLEET_RETURN_WAIT_NS;
    //  Ready sessions are left alone, and one connecting already (lost,
    //  and said hello to in the background) keeps its deadline. The new
    //  sessions of this round still connecting are counted as they
    //  change state (fleet_set_state).
    self->hello_round++;
    self->hello_pending = 0;
    for (size_t i = 0; i < count; i++) {
        session_t *session = sessions? sessions [i]: self->sessions [i];
        if (session_hello_round (session) == self->hello_round)
            continue;               //  named twice
        //  One known lost (lost, failed before, or said hello to again in
        //  the background) gets its hello and a short wait: back by now,
        //  it takes part; still away, it costs this test a moment and is
        //  ready for the next one if it answers later.
        session_state_t state = session_state (session);
        if (state == SESSION_LOST || state == SESSION_FAILED)
            fleet_send_hello (self, session, probe, deadline_ns);
        if (state != SESSION_NEW)
            continue;
        session_set_hello_round (session, self->hello_round);
        fleet_send_hello (self, session, probe, deadline_ns);
    }
    //  The fleet's checks fail the sessions that cannot answer (a refused
    //  key answers nothing at all; only the socket monitor says so).
    //  Those about to come back get a moment (s_returning).
    while (self->hello_pending > 0 || s_returning (self, sessions, count, return_ns))
        if (fleet_poll (self, self->hello_pending > 0? deadline_ns: return_ns, handler, arg)) {
            //  Interrupted (the sessions still connecting fail now, with
            //  that reason), or the handler asked to stop waiting.
            self->next_check_ns = 0;
            fleet_check_sessions (self, clock_now_ns ());
            break;
        }
    self->hello_round++;            //  no round waits now
    return s_count_ready (self, sessions, count);
}

int
fleet_sync_clocks (fleet_t *self, session_t **sessions, size_t count, uint64_t pings,
                   int64_t max_age_ns, int64_t timeout_ns,
                   fleet_handler_fn *handler, void *arg)
{
    int64_t now_ns = clock_now_ns ();
    self->clock_sessions = sessions;
    self->clock_count = sessions? count: self->count;
    self->clock_next = 0;
    self->clock_pings = pings;
    self->clock_fresh_ns = max_age_ns > 0? now_ns - max_age_ns: INT64_MAX;
    fleet_clock_fill (self);
    int64_t deadline_ns = now_ns + timeout_ns;
    while ((self->measuring > 0 || self->clock_next < self->clock_count)
    &&     clock_now_ns () < deadline_ns)
        if (fleet_poll (self, deadline_ns, handler, arg))
            break;
    bool finished = self->measuring == 0 && self->clock_next == self->clock_count;
    //  Those that did not finish, or never began, keep their previous
    //  figures.
    self->clock_next = self->clock_count = 0;
    self->clock_sessions = NULL;
    for (size_t i = 0; self->measuring > 0 && i < self->count; i++)
        if (session_state (self->sessions [i]) == SESSION_READY
        &&  session_measuring (self->sessions [i])) {
            session_clock_stop (self->sessions [i]);
            self->measuring--;
        }
    return finished && !fleet_interrupted ()? 0: -1;
}
