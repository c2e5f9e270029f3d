/*  coordinator/fleet/fleet.c: all agent sessions, one poll loop; see fleet.h.

    The sessions share one socket (fleetsock.h): a wake reads what every
    agent sent, whatever their number. Nothing here passes over all the
    sessions per message or per wake: names and endpoints are found by
    hash, and what a hello or a clock measurement waits for is counted
    as sessions change state, so that a thousand agents cost a thousand
    steps per round of messages and per check, not a million. The hello
    and the clock measurements are fleet_hello.c's, the poll loop
    fleet_poll.c's.
*/
#include "fleet_state.h"
#include "../../proto/array.h"
#include "../../proto/clock.h"

#include <inttypes.h>
#include <signal.h>
#include <string.h>

//  How often the fleet looks at its sessions: silence past the lease,
//  hellos past their deadline, handshakes the agent refused. A tenth of
//  a second bounds how late a loss is seen, at one pass over the
//  sessions per look.
#define FLEET_CHECK_NS      (100 * NS_PER_MSEC)

//  The lease covers this many median reaches of a keepalive (see
//  s_grow_lease), up to a minute: what an agent accepts unless its
//  config says otherwise (agent/agent.c).
#define FLEET_LEASE_PER_REACH       10
#define FLEET_LEASE_GROWN_MAX_NS    (60 * NS_PER_SEC)

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

int
fleet_reserve (size_t agents, char *err, size_t errlen)
{
    return fleetsock_reserve (NULL, agents, err, errlen);
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
    char err [256];
    self->sock = fleetsock_new (err, sizeof err);
    self->by_name = zhashx_new ();
    self->by_endpoint = zhashx_new ();
    if (!self->sock || !self->by_name || !self->by_endpoint) {
        fprintf (stderr, "iofleet: %s\n", self->sock? "out of memory": err);
        fleet_destroy (&self);
    }
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
        free (self->same_endpoint);
        free (self->reaches);
        zhashx_destroy (&self->by_name);
        zhashx_destroy (&self->by_endpoint);
        fleetsock_destroy (&self->sock);
        keys_destroy (&self->keys);
        free (self);
        *self_p = NULL;
    }
}

int
fleet_set_keys (fleet_t *self, const char *dir, char *err, size_t errlen)
{
    //  The socket's connections take our key pair as they are made.
    assert (self->count == 0);
    keys_t *keys = keys_new (dir, err, errlen);
    if (!keys)
        return -1;
    keys_destroy (&self->keys);
    self->keys = keys;
    fleetsock_set_certificate (self->sock, keys_own (keys));
    return 0;
}

void
fleet_set_lease (fleet_t *self, const char *coordinator, int64_t lease_ns,
                 int64_t connect_timeout_ns)
{
    msg_strcpy (self->coordinator, coordinator, sizeof self->coordinator);
    self->lease_ns = self->lease_asked_ns = lease_ns;
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
    //  The two arrays grow together: what one holds for a session, the
    //  other does too.
    size_t sessions_capacity = self->capacity, same_capacity = self->capacity;
    if (array_grow (&self->sessions, &sessions_capacity, self->count, sizeof *self->sessions, 8)
    ||  array_grow (&self->same_endpoint, &same_capacity, self->count,
                    sizeof *self->same_endpoint, 8))
        goto nomem;
    self->capacity = same_capacity;
    if (fleetsock_reserve (self->sock, self->count + 1, err, errlen))
        return NULL;
    session_t *session = session_new (name, endpoint, self->count, self->sock, self->keys,
                                      err, errlen);
    if (!session)
        return NULL;
    //  A second session of the same name stays out of the index: the
    //  first one is the one found.
    zhashx_insert (self->by_name, name, session);
    //  Sessions that share an endpoint are chained, so that an event of
    //  the monitor reaches each of them.
    size_t index = self->count;
    self->same_endpoint [index] = SIZE_MAX;
    uintptr_t first = (uintptr_t) zhashx_lookup (self->by_endpoint, endpoint);
    if (first == 0)
        zhashx_insert (self->by_endpoint, endpoint, (void *) (uintptr_t) (index + 1));
    else {
        size_t last = first - 1;
        while (self->same_endpoint [last] != SIZE_MAX)
            last = self->same_endpoint [last];
        self->same_endpoint [last] = index;
    }
    self->sessions [self->count++] = session;
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
    return (session_t *) zhashx_lookup (self->by_name, name);
}

uint64_t
fleet_malformed (fleet_t *self)
{
    return self->malformed;
}

void
fleet_received (fleet_t *self, msg_type_t type, uint64_t *messages, uint64_t *bytes)
{
    assert (type > MSG_NONE && type < MSG_TYPE_COUNT);
    *messages = self->received [type];
    *bytes = self->received_bytes [type];
}

void
fleet_broadcast (fleet_t *self, const msg_t *msg)
{
    for (size_t i = 0; i < self->count; i++)
        if (session_state (self->sessions [i]) == SESSION_READY)
            session_send (self->sessions [i], msg);
}

//  --------------------------------------------------------------------
//  States

//  Every change of a session's state goes through here, so that what the
//  fleet waits for is counted as it changes: the sessions of the hello
//  under way still connecting, and the clock measurements going on (one
//  that leaves the ready state is given up).
void
fleet_set_state (fleet_t *self, session_t *session, session_state_t state, const char *reason)
{
    session_state_t before = session_state (session);
    if (before == SESSION_READY && state != SESSION_READY && session_measuring (session)) {
        session_clock_stop (session);
        self->measuring--;
        fleet_clock_fill (self);
    }
    if (self->hello_round && session_hello_round (session) == self->hello_round) {
        if (before == SESSION_CONNECTING && state != SESSION_CONNECTING)
            self->hello_pending--;
        if (before != SESSION_CONNECTING && state == SESSION_CONNECTING)
            self->hello_pending++;
    }
    if (state == SESSION_READY || state == SESSION_FAILED)
        session_set_busy_told (session, false);
    session_set_state (session, state, reason);
}

//  --------------------------------------------------------------------
//  Liveness

void
fleet_declare_lost (fleet_t *self, session_t *session, const char *reason)
{
    if (session_state (session) != SESSION_READY)
        return;
    fleet_set_state (self, session, SESSION_LOST, reason);
    if (self->lost_handler)
        self->lost_handler (session, reason, self->lost_arg);
    //  Say hello again at once: an agent restarted on its endpoint, or
    //  woken up, is ready again before the next test needs it.
    if (self->lease_ns > 0 && session_state (session) == SESSION_LOST)
        fleet_send_hello (self, session, false, clock_now_ns () + self->connect_timeout_ns);
}

//  How long a keepalive took to reach the agent and come back. Time the
//  console did not listen since the round went out (stopped, or busy
//  writing a test's results while thousands of pongs wait) is not the
//  fleet's: then the way there alone, by the agent's clock less its
//  offset, counted both ways; it stays a measure of the fleet's reach
//  when a busy console would otherwise never see one.
static int64_t
s_reach_ns (fleet_t *self, session_t *session, const msg_pong_t *pong, int64_t received_ns)
{
    int64_t reach_ns = received_ns - pong->t1_ns;
    int64_t away_at_send_ns = pong->t1_ns >= self->round_ns? self->away_at_round_ns:
                                                             self->away_at_round_before_ns;
    if (self->away_ns == away_at_send_ns)
        return reach_ns;
    int64_t there_ns = pong->t2_ns - session_offset_ns (session) - pong->t1_ns;
    if (there_ns < 0)
        return 0;
    return 2 * there_ns < reach_ns? 2 * there_ns: reach_ns;
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
    //  A keepalive of this round: how long the round took to reach this
    //  agent and come back, its sending to the whole fleet included.
    if (pong->seq == 0 && pong->t1_ns >= self->round_ns && self->round_ns
    &&  received_ns - self->round_ns > self->reach_ns)
        self->reach_ns = received_ns - self->round_ns;
    //  A keepalive of this round or the one before: how long our
    //  messages take to reach this agent and come back.
    if (pong->seq == 0 && self->round_before_ns && pong->t1_ns >= self->round_before_ns)
        session_note_reach (session, s_reach_ns (self, session, pong, received_ns));
    if (session_measuring (session) && session_clock_pong (session, pong, received_ns) == 1) {
        self->measuring--;
        fleet_clock_fill (self);
    }
}

//  The fleet's own share of a message. Returns true if the message was
//  the fleet's, false if it goes to the caller's handler.
bool
fleet_take (fleet_t *self, session_t *session, const msg_t *msg, int64_t received_ns)
{
    session_state_t state = session_state (session);
    if (msg->type == MSG_WELCOME) {
        //  A late answer to an earlier hello counts too: the agent opened
        //  the session it names.
        if (state != SESSION_READY)
            fleet_on_welcome (self, session, &msg->u.welcome, received_ns);
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
            fleet_set_state (self, session, busy? SESSION_CONNECTING: SESSION_FAILED, reason);
            if (busy)
                fleet_on_busy (self, session, error->text, received_ns);
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

static int
s_compare_ns (const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return (x > y) - (x < y);
}

//  How long a keepalive of the last two rounds took to reach the median
//  ready agent and come back, each agent by its slowest; 0 if fewer than
//  half of them answered one: an agent stopped, or cut off, says
//  nothing of how long the fleet's messages take.
static int64_t
s_median_reach_ns (fleet_t *self)
{
    if (self->reaches_capacity < self->count) {
        int64_t *reaches = (int64_t *) realloc (self->reaches, self->count * sizeof *reaches);
        if (!reaches)
            return 0;
        self->reaches = reaches;
        self->reaches_capacity = self->count;
    }
    size_t ready = 0, answered = 0;
    for (size_t i = 0; i < self->count; i++) {
        int64_t reach_ns = session_take_reach (self->sessions [i]);
        if (session_state (self->sessions [i]) != SESSION_READY)
            continue;
        ready++;
        if (reach_ns >= 0)
            self->reaches [answered++] = reach_ns;
    }
    size_t half = (ready + 1) / 2;
    if (!ready || answered < half)
        return 0;
    qsort (self->reaches, answered, sizeof *self->reaches, s_compare_ns);
    return self->reaches [half - 1];
}

//  The lease grows to cover how long our messages take to reach the
//  fleet (thousands of agents, a console or a network short of capacity):
//  an agent's keepalives come a third of the lease apart, give or take
//  the spread of a round's arrivals, about twice the median reach; a
//  lease of FLEET_LEASE_PER_REACH median reaches leaves that gap at half
//  the lease or less. Rounded up to whole seconds; it never shrinks
//  within a run, and stays within what an agent accepts by default.
static void
s_grow_lease (fleet_t *self)
{
    int64_t reach_ns = s_median_reach_ns (self);
    int64_t wanted_ns = FLEET_LEASE_PER_REACH * reach_ns;
    if (wanted_ns <= self->lease_ns || self->lease_ns >= FLEET_LEASE_GROWN_MAX_NS)
        return;
    wanted_ns = (wanted_ns + NS_PER_SEC - 1) / NS_PER_SEC * NS_PER_SEC;
    if (wanted_ns > FLEET_LEASE_GROWN_MAX_NS)
        wanted_ns = FLEET_LEASE_GROWN_MAX_NS;
    fprintf (stderr, "iofleet: event=lease lease_s=%.0f was_s=%.1f reason=\"a keepalive "
             "takes %.3f s to reach the median agent and come back\"\n",
             (double) wanted_ns / NS_PER_SEC, (double) self->lease_ns / NS_PER_SEC,
             (double) reach_ns / NS_PER_SEC);
    self->lease_ns = wanted_ns;
}

//  Keepalives to every ready session, every third of the lease, so that
//  no agent's lease runs out while the run waits for something else.
void
fleet_keepalives (fleet_t *self, int64_t now_ns)
{
    if (self->lease_ns > 0 && now_ns >= self->next_keepalive_ns)
        fleet_keep_alive (self);
}

void
fleet_keep_alive (fleet_t *self)
{
    if (self->lease_ns <= 0)
        return;
    s_grow_lease (self);
    int64_t now_ns = clock_now_ns ();
    self->reach_before_ns = self->reach_ns;
    self->reach_ns = 0;
    self->round_before_ns = self->round_ns? self->round_ns: now_ns;
    self->round_ns = now_ns;
    self->away_at_round_before_ns = self->away_at_round_ns;
    self->away_at_round_ns = self->away_ns;
    for (size_t i = 0; i < self->count; i++)
        if (session_state (self->sessions [i]) == SESSION_READY)
            session_keepalive (self->sessions [i], self->lease_ns);
    self->next_keepalive_ns = now_ns + self->lease_ns / 3;
}

//  Look at every session: ready ones silent past the lease are lost,
//  connecting ones whose hello cannot succeed have failed.
void
fleet_check_sessions (fleet_t *self, int64_t now_ns)
{
    if (now_ns < self->next_check_ns)
        return;
    self->next_check_ns = now_ns + FLEET_CHECK_NS;
    for (size_t i = 0; i < self->count; i++) {
        session_t *session = self->sessions [i];
        session_state_t state = session_state (session);
        if (state == SESSION_CONNECTING)
            fleet_check_hello (self, session, now_ns);
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

int64_t
fleet_reach_ns (fleet_t *self)
{
    return self->reach_ns > self->reach_before_ns? self->reach_ns: self->reach_before_ns;
}
