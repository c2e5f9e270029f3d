/*  coordinator/fleet.c: all agent sessions, one poll loop; see fleet.h. */
#include "fleet.h"
#include "../proto/clock.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>

//  How often the fleet looks at its sessions: silence past the lease,
//  hellos past their deadline, handshakes the agent refused. A tenth of
//  a second bounds how late a loss is seen, at one pass over the
//  sessions per look.
#define FLEET_CHECK_NS      (100 * NS_PER_MSEC)
//  An agent that says it serves another coordinator is asked again this
//  often until the hello's deadline: the other one may just have ended,
//  its BYE still on its way behind our HELLO.
#define FLEET_BUSY_RETRY_NS (250 * NS_PER_MSEC)

//  Frames that do not decode are logged, but a flood of them must not
//  fill stderr: the first few each get a line, then one a second at most,
//  with the number of frames since the line before.
#define FLEET_MALFORMED_LINES       5
#define FLEET_MALFORMED_EVERY_NS    NS_PER_SEC

struct _fleet_t {
    session_t **sessions;           //  in the order they were added
    zmq_pollitem_t *items;          //  one per session, same order
    size_t count;                   //  sessions in use
    size_t capacity;                //  allocated slots
    size_t next;                    //  where the next pass starts, for fairness
    uint64_t malformed;             //  frames dropped as undecodable
    uint64_t malformed_unlogged;    //  of those, since the last line about them
    int64_t malformed_logged_ns;    //  when that line was written
    bool draining;                  //  an interrupt no longer stops polls
    keys_t *keys;                   //  --keys: CURVE for every session, or NULL
    char coordinator [MSG_TEXT_MAX + 1];    //  our name in hellos
    int64_t lease_ns;               //  the lease both sides hold, 0 for none
    int64_t connect_timeout_ns;     //  how long a hello may take
    int64_t next_keepalive_ns;      //  when the next round of keepalives goes out
    int64_t next_check_ns;          //  when the sessions are looked at next
    fleet_lost_fn *lost_handler;    //  told of every loss, or NULL
    void *lost_arg;                 //  its argument
};

static volatile sig_atomic_t s_interrupted;

//  SIGINT and SIGTERM only raise a flag: the poll returns with EINTR and
//  the run engine winds down in its own time, telling agents to stop.
static void
s_on_signal (int signum)
{
    (void) signum;
    s_interrupted = 1;
}

bool
fleet_interrupted (void)
{
    return s_interrupted != 0;
}

fleet_t *
fleet_new (void)
{
    //  CZMQ would install its own handler at its first socket; take the
    //  signals back so that an interrupt is ours to handle.
    zsys_handler_set (NULL);
    struct sigaction action = { .sa_handler = s_on_signal };
    sigemptyset (&action.sa_mask);
    sigaction (SIGINT, &action, NULL);
    sigaction (SIGTERM, &action, NULL);
    fleet_t *self = (fleet_t *) zmalloc (sizeof (fleet_t));
    self->connect_timeout_ns = 5 * NS_PER_SEC;
    return self;
}

void
fleet_destroy (fleet_t **self_p)
{
    assert (self_p);
    fleet_t *self = *self_p;
    if (self) {
        for (size_t i = 0; i < self->count; i++)
            session_destroy (&self->sessions [i]);
        free (self->sessions);
        free (self->items);
        keys_destroy (&self->keys);
        free (self);
        *self_p = NULL;
    }
}

int
fleet_set_keys (fleet_t *self, const char *dir, char *err, size_t errlen)
{
    keys_t *keys = keys_new (dir, err, errlen);
    if (!keys)
        return -1;
    keys_destroy (&self->keys);
    self->keys = keys;
    return 0;
}

void
fleet_set_lease (fleet_t *self, const char *coordinator, int64_t lease_ns,
                 int64_t connect_timeout_ns)
{
    msg_strcpy (self->coordinator, coordinator, sizeof self->coordinator);
    self->lease_ns = lease_ns;
    self->connect_timeout_ns = connect_timeout_ns;
    self->next_keepalive_ns = 0;
}

void
fleet_set_lost_handler (fleet_t *self, fleet_lost_fn *handler, void *arg)
{
    self->lost_handler = handler;
    self->lost_arg = arg;
}

session_t *
fleet_add (fleet_t *self, const char *name, const char *endpoint, char *err, size_t errlen)
{
    if (self->count == self->capacity) {
        size_t capacity = self->capacity? self->capacity * 2: 8;
        session_t **sessions = realloc (self->sessions, capacity * sizeof *sessions);
        if (!sessions)
            goto nomem;
        self->sessions = sessions;
        zmq_pollitem_t *items = realloc (self->items, capacity * sizeof *items);
        if (!items)
            goto nomem;
        self->items = items;
        self->capacity = capacity;
    }
    session_t *session = session_new (name, endpoint, self->keys, err, errlen);
    if (!session)
        return NULL;
    session_set_index (session, self->count);
    self->sessions [self->count] = session;
    self->items [self->count] = (zmq_pollitem_t) {
        .socket = zsock_resolve (session_socket (session)),
        .events = ZMQ_POLLIN
    };
    self->count++;
    return session;

nomem:
    snprintf (err, errlen, "out of memory adding agent %s", name);
    return NULL;
}

size_t
fleet_size (fleet_t *self)
{
    return self->count;
}

session_t *
fleet_session (fleet_t *self, size_t index)
{
    return index < self->count? self->sessions [index]: NULL;
}

session_t *
fleet_find (fleet_t *self, const char *name)
{
    for (size_t i = 0; i < self->count; i++)
        if (streq (session_name (self->sessions [i]), name))
            return self->sessions [i];
    return NULL;
}

uint64_t
fleet_malformed (fleet_t *self)
{
    return self->malformed;
}

//  --------------------------------------------------------------------
//  Hello

//  Send a hello to one session and wait for its answer until deadline_ns.
static void
s_send_hello (fleet_t *self, session_t *session, bool probe, int64_t deadline_ns)
{
    msg_t hello = { .type = MSG_HELLO };
    msg_strcpy (hello.u.hello.coordinator, self->coordinator, sizeof hello.u.hello.coordinator);
    hello.u.hello.lease_ms = (uint32_t) (self->lease_ns / NS_PER_MSEC);
    hello.u.hello.probe = probe;
    session_set_state (session, SESSION_CONNECTING, NULL);
    session_set_hello_deadline_ns (session, deadline_ns);
    session_set_hello_retry_ns (session, INT64_MAX);
    //  A DEALER queues what it sends until the connection is up, so one
    //  hello is enough; the deadline covers connection and answer.
    session_send (session, &hello);
}

//  A WELCOME: the session is ready (again), in a new generation.
static void
s_on_welcome (session_t *session, const msg_welcome_t *welcome, int64_t received_ns)
{
    char reason [1024];
    if (session_check_same_agent (session, welcome, reason, sizeof reason)) {
        fprintf (stderr, "iofleet: agent=%s event=refused reason=\"%s\"\n",
                 session_name (session), reason);
        session_set_state (session, SESSION_FAILED, reason);
        return;
    }
    session_take_welcome (session, welcome, received_ns);
    if (!streq (welcome->name, session_name (session))
    &&  !streq (session_name (session), session_endpoint (session)))
        fprintf (stderr, "iofleet: agent=%s event=name-differs agent_says=%s\n",
                 session_name (session), welcome->name);
}

//  A connecting session whose hello can no longer succeed: refused by a
//  handshake, past its deadline, or interrupted.
static void
s_check_hello (fleet_t *self, session_t *session, int64_t now_ns)
{
    bool definitive = false;
    const char *handshake_error = session_handshake_error (session, &definitive);
    bool late = now_ns >= session_hello_deadline_ns (session);
    if (definitive || (late && handshake_error [0] && !s_interrupted)) {
        session_set_state (session, SESSION_FAILED, handshake_error);
        return;
    }
    //  Refused as busy: the refusal is the reason if no later answer
    //  comes; until the deadline, ask again now and then.
    const char *refusal = session_reason (session);
    if (late && refusal [0] && !s_interrupted) {
        char reason [MSG_TEXT_MAX + 1];
        msg_strcpy (reason, refusal, sizeof reason);
        session_set_state (session, SESSION_FAILED, reason);
        return;
    }
    if (!late && !s_interrupted) {
        if (refusal [0] && now_ns >= session_hello_retry_ns (session)) {
            char reason [MSG_TEXT_MAX + 1];
            msg_strcpy (reason, refusal, sizeof reason);
            s_send_hello (self, session, false, session_hello_deadline_ns (session));
            session_set_state (session, SESSION_CONNECTING, reason);
        }
        return;
    }
    char reason [MSG_TEXT_MAX + 1];
    if (s_interrupted)
        snprintf (reason, sizeof reason, "agent %s (%s): interrupted",
                  session_name (session), session_endpoint (session));
    else
        snprintf (reason, sizeof reason, "agent %s (%s): no answer within %.1f s",
                  session_name (session), session_endpoint (session),
                  (double) self->connect_timeout_ns / NS_PER_SEC);
    session_set_state (session, SESSION_FAILED, reason);
}

//  --------------------------------------------------------------------
//  Liveness

void
fleet_declare_lost (fleet_t *self, session_t *session, const char *reason)
{
    if (session_state (session) != SESSION_READY)
        return;
    session_set_state (session, SESSION_LOST, reason);
    if (self->lost_handler)
        self->lost_handler (session, reason, self->lost_arg);
    //  Say hello again at once: an agent restarted on its endpoint, or
    //  woken up, is ready again before the next test needs it.
    if (self->lease_ns > 0 && session_state (session) == SESSION_LOST)
        s_send_hello (self, session, false, clock_now_ns () + self->connect_timeout_ns);
}

//  A pong: it must name our session, then it proves it; and it may
//  belong to a clock measurement.
static void
s_on_pong (fleet_t *self, session_t *session, const msg_pong_t *pong, int64_t received_ns)
{
    if (session_state (session) != SESSION_READY)
        return;
    if (session_id (session) != 0 && pong->session_id != session_id (session)) {
        char reason [MSG_TEXT_MAX + 1];
        snprintf (reason, sizeof reason, "agent lost: %s answers, but no longer holds our "
                  "session (restarted, or it ended the session)", session_endpoint (session));
        fleet_declare_lost (self, session, reason);
        return;
    }
    session_heard (session, received_ns);
    if (session_measuring (session))
        session_clock_pong (session, pong, received_ns);
}

//  The fleet's own share of a message. Returns true if the message was
//  the fleet's, false if it goes to the caller's handler.
static bool
s_take (fleet_t *self, session_t *session, const msg_t *msg, int64_t received_ns)
{
    session_state_t state = session_state (session);
    if (msg->type == MSG_WELCOME) {
        //  A late answer to an earlier hello counts too: the agent opened
        //  the session it names.
        if (state != SESSION_READY)
            s_on_welcome (session, &msg->u.welcome, received_ns);
        return true;
    }
    if (msg->type == MSG_PONG) {
        s_on_pong (self, session, &msg->u.pong, received_ns);
        return true;
    }
    if (msg->type == MSG_ERROR) {
        const msg_error_t *error = &msg->u.error;
        //  An agent that cannot read our version holds no session of ours.
        bool no_session = streq (error->code, "no-session") || streq (error->code, "version");
        if (state == SESSION_CONNECTING && !no_session) {
            char reason [MSG_TEXT_MAX + 1];
            snprintf (reason, sizeof reason, "agent %s (%s) refused: %s: %s",
                      session_name (session), session_endpoint (session),
                      error->code, error->text);
            //  Busy may pass (see FLEET_BUSY_RETRY_NS); any other
            //  refusal is final.
            bool busy = streq (error->code, "busy");
            session_set_state (session, busy? SESSION_CONNECTING: SESSION_FAILED, reason);
            if (busy)
                session_set_hello_retry_ns (session, received_ns + FLEET_BUSY_RETRY_NS);
            return true;
        }
        if (no_session) {
            char reason [MSG_TEXT_MAX + 1];
            snprintf (reason, sizeof reason, "agent lost: %s no longer holds our session "
                      "(restarted, or its lease ran out): %s",
                      session_endpoint (session), error->text);
            fleet_declare_lost (self, session, reason);
            return true;
        }
    }
    if (state == SESSION_READY)
        session_heard (session, received_ns);
    return false;
}

//  Keepalives to every ready session, every third of the lease, so that
//  no agent's lease runs out while the run waits for something else.
static void
s_keepalives (fleet_t *self, int64_t now_ns)
{
    if (self->lease_ns <= 0 || now_ns < self->next_keepalive_ns)
        return;
    for (size_t i = 0; i < self->count; i++)
        if (session_state (self->sessions [i]) == SESSION_READY)
            session_keepalive (self->sessions [i]);
    self->next_keepalive_ns = now_ns + self->lease_ns / 3;
}

//  Look at every session: ready ones silent past the lease are lost,
//  connecting ones whose hello cannot succeed have failed.
static void
s_check_sessions (fleet_t *self, int64_t now_ns)
{
    if (now_ns < self->next_check_ns)
        return;
    self->next_check_ns = now_ns + FLEET_CHECK_NS;
    for (size_t i = 0; i < self->count; i++) {
        session_t *session = self->sessions [i];
        session_state_t state = session_state (session);
        if (state == SESSION_CONNECTING)
            s_check_hello (self, session, now_ns);
        else
        if (state == SESSION_READY && self->lease_ns > 0
        &&  now_ns - session_last_heard_ns (session) > self->lease_ns) {
            char reason [MSG_TEXT_MAX + 1];
            snprintf (reason, sizeof reason, "agent lost: no word from %s for %.1f s",
                      session_endpoint (session),
                      (double) (now_ns - session_last_heard_ns (session)) / NS_PER_SEC);
            fleet_declare_lost (self, session, reason);
        }
    }
}

//  --------------------------------------------------------------------
//  The poll loop

//  Count a frame that did not decode, against its agent too, and log it
//  within the bounds above.
static void
s_malformed (fleet_t *self, session_t *session, const char *reason)
{
    self->malformed++;
    session_info (session)->malformed_frames++;
    self->malformed_unlogged++;
    int64_t now_ns = clock_now_ns ();
    if (self->malformed > FLEET_MALFORMED_LINES
    &&  now_ns - self->malformed_logged_ns < FLEET_MALFORMED_EVERY_NS)
        return;
    fprintf (stderr, "iofleet: agent=%s event=malformed frames=%" PRIu64 " reason=\"%s\"\n",
             session_name (session), self->malformed_unlogged, reason);
    self->malformed_unlogged = 0;
    self->malformed_logged_ns = now_ns;
}

//  Read every frame waiting on one session and hand them on.
static int
s_drain (fleet_t *self, session_t *session, fleet_handler_fn *handler, void *arg)
{
    zsock_t *sock = session_socket (session);
    while (zsock_events (sock) & ZMQ_POLLIN) {
        msg_t msg;
        int64_t received_ns;
        char err [256] = "";
        int rc = session_recv (session, &msg, &received_ns, err, sizeof err);
        if (rc == MSG_EVERSION) {
            //  Another program answers on the endpoint (an agent of
            //  another version, restarted there): a session we held is
            //  lost, one we were opening failed.
            char reason [MSG_TEXT_MAX + 1];
            snprintf (reason, sizeof reason, "agent %s (%s): %s", session_name (session),
                      session_endpoint (session), err);
            if (session_state (session) == SESSION_READY)
                fleet_declare_lost (self, session, reason);
            else
                session_set_state (session, SESSION_FAILED, reason);
            continue;
        }
        if (rc != MSG_OK) {
            s_malformed (self, session, err);
            if (rc == -3)
                break;
            continue;
        }
        if (s_take (self, session, &msg, received_ns))
            continue;
        if (handler && handler (session, &msg, received_ns, arg))
            return -1;
    }
    return 0;
}

void
fleet_set_draining (fleet_t *self, bool draining)
{
    self->draining = draining;
}

int
fleet_poll (fleet_t *self, int64_t deadline_ns, fleet_handler_fn *handler, void *arg)
{
    if (s_interrupted && !self->draining)
        return -1;
    //  Wake for the caller's deadline or the fleet's own timers,
    //  whichever comes first.
    int64_t wake_ns = deadline_ns;
    if (self->next_check_ns < wake_ns)
        wake_ns = self->next_check_ns;
    if (self->lease_ns > 0 && self->next_keepalive_ns < wake_ns)
        wake_ns = self->next_keepalive_ns;
    int64_t wait_ns = wake_ns - clock_now_ns ();
    if (wait_ns < 0)
        wait_ns = 0;
    //  zmq_poll takes milliseconds; round up so that we never wake early
    //  and spin until the deadline.
    long timeout_ms = (long) ((wait_ns + NS_PER_MSEC - 1) / NS_PER_MSEC);
    int ready = zmq_poll (self->items, (int) self->count, timeout_ms);
    if (ready < 0 && (errno == EINTR || s_interrupted) && !self->draining)
        return -1;
    for (size_t n = 0; n < self->count && ready > 0; n++) {
        size_t i = (self->next + n) % self->count;
        if (!(self->items [i].revents & ZMQ_POLLIN))
            continue;
        ready--;
        if (s_drain (self, self->sessions [i], handler, arg))
            return -1;
    }
    self->next = self->count? (self->next + 1) % self->count: 0;
    int64_t now_ns = clock_now_ns ();
    s_keepalives (self, now_ns);
    s_check_sessions (self, now_ns);
    return s_interrupted && !self->draining? -1: 0;
}

void
fleet_broadcast (fleet_t *self, const msg_t *msg)
{
    for (size_t i = 0; i < self->count; i++)
        if (session_state (self->sessions [i]) == SESSION_READY)
            session_send (self->sessions [i], msg);
}

//  Count sessions of a set (NULL: the fleet) in a state.
static size_t
s_count_state (fleet_t *self, session_t **sessions, size_t count, session_state_t state)
{
    size_t found = 0;
    for (size_t i = 0; i < (sessions? count: self->count); i++)
        if (session_state (sessions? sessions [i]: self->sessions [i]) == state)
            found++;
    return found;
}

size_t
fleet_hello (fleet_t *self, session_t **sessions, size_t count, bool probe,
             int64_t timeout_ns, fleet_handler_fn *handler, void *arg)
{
    if (!sessions)
        count = self->count;
    self->connect_timeout_ns = timeout_ns;
    int64_t deadline_ns = clock_now_ns () + timeout_ns;
    //  Ready sessions are left alone, and one connecting already (lost,
    //  and said hello to in the background) keeps its deadline.
    for (size_t i = 0; i < count; i++) {
        session_t *session = sessions? sessions [i]: self->sessions [i];
        session_state_t state = session_state (session);
        if (state != SESSION_READY && state != SESSION_CONNECTING)
            s_send_hello (self, session, probe, deadline_ns);
    }
    //  The fleet's checks fail the sessions that cannot answer (a refused
    //  key answers nothing at all; only the socket monitor says so).
    while (s_count_state (self, sessions, count, SESSION_CONNECTING) > 0)
        if (fleet_poll (self, deadline_ns, handler, arg)) {
            //  Interrupted (the sessions still connecting fail now, with
            //  that reason), or the handler asked to stop waiting.
            self->next_check_ns = 0;
            s_check_sessions (self, clock_now_ns ());
            break;
        }
    return s_count_state (self, sessions, count, SESSION_READY);
}

//  Ready sessions whose clock measurement goes on.
static size_t
s_count_measuring (fleet_t *self)
{
    size_t found = 0;
    for (size_t i = 0; i < self->count; i++)
        if (session_state (self->sessions [i]) == SESSION_READY
        &&  session_measuring (self->sessions [i]))
            found++;
    return found;
}

int
fleet_sync_clocks (fleet_t *self, uint64_t pings, int64_t timeout_ns,
                   fleet_handler_fn *handler, void *arg)
{
    for (size_t i = 0; i < self->count; i++)
        if (session_state (self->sessions [i]) == SESSION_READY)
            session_clock_begin (self->sessions [i], pings);
    int64_t deadline_ns = clock_now_ns () + timeout_ns;
    while (s_count_measuring (self) > 0 && clock_now_ns () < deadline_ns)
        if (fleet_poll (self, deadline_ns, handler, arg))
            break;
    return s_count_measuring (self) == 0 && !s_interrupted? 0: -1;
}
