/*  coordinator/fleet.c: all agent sessions, one poll loop; see fleet.h. */
#include "fleet.h"
#include "../proto/clock.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>

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
    return (fleet_t *) zmalloc (sizeof (fleet_t));
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

bool
fleet_secure (fleet_t *self)
{
    return self->keys != NULL;
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
    session_t *session = session_new_secure (name, endpoint, self->keys, err, errlen);
    if (!session)
        return NULL;
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
            char reason [MSG_TEXT_MAX + 1];
            snprintf (reason, sizeof reason, "agent %s (%s): %s", session_name (session),
                      session_endpoint (session), err);
            session_set_state (session, SESSION_FAILED, reason);
            continue;
        }
        if (rc != MSG_OK) {
            s_malformed (self, session, err);
            if (rc == -3)
                break;
            continue;
        }
        if (handler (session, &msg, received_ns, arg))
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
    bool interrupted = s_interrupted && !self->draining;
    if (interrupted)
        return -1;
    int64_t wait_ns = deadline_ns - clock_now_ns ();
    if (wait_ns < 0)
        wait_ns = 0;
    //  zmq_poll takes milliseconds; round up so that we never wake early
    //  and spin until the deadline.
    long timeout_ms = (long) ((wait_ns + NS_PER_MSEC - 1) / NS_PER_MSEC);
    int ready = zmq_poll (self->items, (int) self->count, timeout_ms);
    if (ready < 0)
        return (errno == EINTR || s_interrupted) && !self->draining? -1: 0;
    for (size_t n = 0; n < self->count && ready > 0; n++) {
        size_t i = (self->next + n) % self->count;
        if (!(self->items [i].revents & ZMQ_POLLIN))
            continue;
        ready--;
        if (s_drain (self, self->sessions [i], handler, arg))
            return -1;
    }
    self->next = self->count? (self->next + 1) % self->count: 0;
    return s_interrupted && !self->draining? -1: 0;
}

void
fleet_broadcast (fleet_t *self, const msg_t *msg)
{
    for (size_t i = 0; i < self->count; i++)
        if (session_state (self->sessions [i]) == SESSION_READY)
            session_send (self->sessions [i], msg);
}

//  Hello: answers move sessions out of SESSION_CONNECTING.
static int
s_on_hello_answer (session_t *session, const msg_t *msg, int64_t received_ns, void *arg)
{
    (void) received_ns;
    (void) arg;
    if (session_state (session) != SESSION_CONNECTING)
        return 0;
    char reason [MSG_TEXT_MAX + 1];
    if (msg->type == MSG_WELCOME) {
        const msg_welcome_t *welcome = &msg->u.welcome;
        agent_info_t *info = session_info (session);
        msg_strcpy (info->hostname, welcome->hostname, sizeof info->hostname);
        msg_strcpy (info->kernel, welcome->kernel, sizeof info->kernel);
        info->cpus = welcome->cpus;
        info->mem_bytes = welcome->mem_bytes;
        msg_strcpy (info->version, welcome->version, sizeof info->version);
        info->insecure = welcome->insecure;
        session_set_reported_name (session, welcome->name);
        if (!streq (welcome->name, session_name (session))
        &&  !streq (session_name (session), session_endpoint (session)))
            fprintf (stderr, "iofleet: agent=%s event=name-differs agent_says=%s\n",
                     session_name (session), welcome->name);
        session_set_state (session, SESSION_READY, welcome->serving);
    }
    else
    if (msg->type == MSG_ERROR) {
        snprintf (reason, sizeof reason, "agent %s (%s) refused: %s: %s",
                  session_name (session), session_endpoint (session),
                  msg->u.error.code, msg->u.error.text);
        session_set_state (session, SESSION_FAILED, reason);
    }
    return 0;
}

//  Count sessions still in a state.
static size_t
s_count_state (fleet_t *self, session_state_t state)
{
    size_t count = 0;
    for (size_t i = 0; i < self->count; i++)
        if (session_state (self->sessions [i]) == state)
            count++;
    return count;
}

size_t
fleet_hello (fleet_t *self, const char *coordinator, int64_t lease_ns, bool probe,
             int64_t timeout_ns)
{
    msg_t hello = { .type = MSG_HELLO };
    msg_strcpy (hello.u.hello.coordinator, coordinator, sizeof hello.u.hello.coordinator);
    hello.u.hello.lease_ms = (uint32_t) (lease_ns / NS_PER_MSEC);
    hello.u.hello.probe = probe;

    //  A DEALER queues what it sends until the connection is up, so one
    //  hello each is enough; the deadline covers connection and answer.
    //  Sessions already ready are left alone: a second call finds again
    //  the agents that were lost or failed (restarted, or woken up).
    for (size_t i = 0; i < self->count; i++) {
        if (session_state (self->sessions [i]) == SESSION_READY)
            continue;
        session_set_state (self->sessions [i], SESSION_CONNECTING, NULL);
        session_send (self->sessions [i], &hello);
    }
    //  Polled in short slices: an agent that refuses our key (or wants
    //  keys we do not use) answers nothing at all, and only the socket
    //  monitor says so; such a session fails at once, with that reason.
    int64_t deadline_ns = clock_now_ns () + timeout_ns;
    while (s_count_state (self, SESSION_CONNECTING) > 0
       &&  clock_now_ns () < deadline_ns) {
        int64_t slice_ns = clock_now_ns () + 100 * NS_PER_MSEC;
        if (fleet_poll (self, slice_ns < deadline_ns? slice_ns: deadline_ns,
                        s_on_hello_answer, NULL))
            break;
        for (size_t i = 0; i < self->count; i++) {
            bool definitive = false;
            const char *error = session_handshake_error (self->sessions [i], &definitive);
            if (definitive && session_state (self->sessions [i]) == SESSION_CONNECTING)
                session_set_state (self->sessions [i], SESSION_FAILED, error);
        }
    }

    for (size_t i = 0; i < self->count; i++) {
        session_t *session = self->sessions [i];
        if (session_state (session) != SESSION_CONNECTING)
            continue;
        char reason [MSG_TEXT_MAX + 1];
        const char *handshake_error = session_handshake_error (session, NULL);
        if (handshake_error [0] && !s_interrupted) {
            session_set_state (session, SESSION_FAILED, handshake_error);
            continue;
        }
        snprintf (reason, sizeof reason, "agent %s (%s): %s",
                  session_name (session), session_endpoint (session),
                  s_interrupted? "interrupted": "no answer");
        if (!s_interrupted)
            snprintf (reason + strlen (reason), sizeof reason - strlen (reason),
                      " within %.1f s", (double) timeout_ns / NS_PER_SEC);
        session_set_state (session, SESSION_FAILED, reason);
    }
    return s_count_state (self, SESSION_READY);
}

//  One clock measurement across the fleet.
typedef struct {
    uint64_t pings;                 //  exchanges per session
    size_t pending;                 //  sessions whose measurement goes on
} s_clock_round_t;

//  Pongs complete each session's measurement in turn; a session whose
//  measurement is complete sends no more pings, so it cannot count twice.
static int
s_on_pong (session_t *session, const msg_t *msg, int64_t received_ns, void *arg)
{
    s_clock_round_t *round = (s_clock_round_t *) arg;
    if (msg->type == MSG_PONG
    &&  session_clock_pong (session, &msg->u.pong, received_ns, round->pings) == 1)
        round->pending--;
    return 0;
}

int
fleet_sync_clocks (fleet_t *self, uint64_t pings, int64_t timeout_ns)
{
    s_clock_round_t round = { .pings = pings? pings: 1 };
    for (size_t i = 0; i < self->count; i++) {
        session_t *session = self->sessions [i];
        if (session_state (session) == SESSION_READY && session_clock_begin (session) == 0)
            round.pending++;
    }
    int64_t deadline_ns = clock_now_ns () + timeout_ns;
    while (round.pending > 0 && clock_now_ns () < deadline_ns)
        if (fleet_poll (self, deadline_ns, s_on_pong, &round))
            break;
    return round.pending == 0 && !s_interrupted? 0: -1;
}
