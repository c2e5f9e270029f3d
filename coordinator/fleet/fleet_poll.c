/*  coordinator/fleet/fleet_poll.c: the fleet's poll loop; see fleet.h.

    One wake reads what waits on the socket within a bound, hands each
    message to the fleet's own share (fleet_take) or to the caller's
    handler, and counts the time the console did not listen as nobody's
    silence.
*/
#include "fleet_state.h"
#include "../../proto/clock.h"

#include <errno.h>
#include <inttypes.h>

//  Frames that do not decode are logged, but a flood of them must not
//  fill stderr: the first few each get a line, then one a second at most,
//  with the number of frames since the line before.
#define FLEET_MALFORMED_LINES       5
#define FLEET_MALFORMED_EVERY_NS    NS_PER_SEC

//  One wake reads at most this many messages, plus a few per session,
//  before the fleet's checks run: a flood from one agent cannot keep the
//  loop from them. Keepalives do not wait for the end of a wake: they
//  leave when due, between two messages (s_drain).
#define FLEET_DRAIN_BASE            256
#define FLEET_DRAIN_PER_SESSION     4

//  Before a session is judged silent, what waits on the socket is read,
//  up to this many wakes' worth.
#define FLEET_DRAIN_BEFORE_JUDGING  64

//  Time the console did not listen is given to the sessions (moving on
//  their silence) once it adds up to this: a pause is counted whole, and
//  the short gaps between two polls cost no pass over the sessions.
#define FLEET_AWAY_MIN_NS           (20 * NS_PER_MSEC)

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

//  A monitor event: every session at its endpoint hears of it.
static void
s_on_event (fleet_t *self, uint16_t event, uint32_t value, const char *endpoint)
{
    uintptr_t first = (uintptr_t) zhashx_lookup (self->by_endpoint, endpoint);
    for (size_t index = first? first - 1: SIZE_MAX; index != SIZE_MAX;
         index = self->same_endpoint [index])
        session_connection_event (self->sessions [index], event, value);
}

//  One frame from a session: decoded, and kept by the fleet or handed on.
//  Returns 0, or -1 if the handler asked to stop.
static int
s_on_frame (fleet_t *self, session_t *session, zframe_t *frame, bool more, int64_t received_ns,
            fleet_handler_fn *handler, void *arg)
{
    msg_t msg;
    char err [256] = "";
    int rc = msg_decode (zframe_data (frame), zframe_size (frame), &msg, err, sizeof err);
    //  The agent's ROUTER sends one frame per message. More frames than
    //  that is not our protocol.
    if (more) {
        snprintf (err, sizeof err, "message of several frames");
        rc = MSG_EMALFORMED;
    }
    if (rc == MSG_EVERSION) {
        //  Another program answers on the endpoint (an agent of another
        //  version, restarted there): a session we held is lost, one we
        //  were opening failed.
        char reason [MSG_TEXT_MAX + 1];
        snprintf (reason, sizeof reason, "agent %s (%s): %s: a version mismatch (iofleet "
                  "ping %s says what runs there)", session_name (session),
                  session_endpoint (session), err, session_endpoint (session));
        if (session_state (session) == SESSION_READY)
            fleet_declare_lost (self, session, reason);
        else
            fleet_set_state (self, session, SESSION_FAILED, reason);
        return 0;
    }
    if (rc != MSG_OK) {
        s_malformed (self, session, err);
        return 0;
    }
    self->received [msg.type]++;
    self->received_bytes [msg.type] += zframe_size (frame);
    if (fleet_take (self, session, &msg, received_ns))
        return 0;
    return handler && handler (session, &msg, received_ns, arg)? -1: 0;
}

//  Read what waits on the socket, within this wake's bound, and the
//  monitor's events. Returns 0 when nothing waits any more, 1 when more
//  may wait past the bound, -1 if the handler asked to stop.
static int
s_drain (fleet_t *self, fleet_handler_fn *handler, void *arg)
{
    uint16_t event;
    uint32_t value;
    char endpoint [256];
    while (fleetsock_event (self->sock, &event, &value, endpoint, sizeof endpoint))
        s_on_event (self, event, value, endpoint);
    size_t budget = FLEET_DRAIN_BASE + FLEET_DRAIN_PER_SESSION * self->count;
    for (size_t n = 0; n < budget; n++) {
        uint32_t id;
        zframe_t *frame = NULL;
        bool more = false;
        if (fleetsock_recv (self->sock, &id, &frame, &more) == 0)
            return 0;
        int64_t received_ns = clock_now_ns ();
        //  A thousand agents' samples take a while to read, longer still
        //  on a host short of CPU: the agents' leases must not wait for it.
        fleet_keepalives (self, received_ns);
        int rc = id < self->count?
                 s_on_frame (self, self->sessions [id], frame, more, received_ns, handler, arg): 0;
        zframe_destroy (&frame);
        if (rc)
            return -1;
    }
    return 1;
}

//  The console did not listen for away_ns: the sessions hear of it once
//  it adds up (FLEET_AWAY_MIN_NS). An absence past a third of the lease
//  missed a round of keepalives: agents may have given us up, so the
//  next round goes out at once and the sessions are in doubt until heard
//  (fleet_hello waits for them).
static void
s_away (fleet_t *self, int64_t away_ns, int64_t now_ns)
{
    if (away_ns <= 0)
        return;
    self->away_pending_ns += away_ns;
    if (self->away_pending_ns < FLEET_AWAY_MIN_NS)
        return;
    for (size_t i = 0; i < self->count; i++)
        session_away (self->sessions [i], self->away_pending_ns);
    self->away_ns += self->away_pending_ns;
    if (self->lease_ns > 0 && self->away_pending_ns > self->lease_ns / 3) {
        self->resumed_ns = now_ns;
        self->next_keepalive_ns = 0;
    }
    self->away_pending_ns = 0;
}

int64_t
fleet_away_ns (fleet_t *self)
{
    return self->away_ns;
}

bool
fleet_in_doubt (fleet_t *self, session_t *session)
{
    return session_state (session) == SESSION_READY
        && session_last_heard_ns (session) <= self->resumed_ns;
}

//  True if a ready session is silent past the lease.
static bool
s_overdue (fleet_t *self, int64_t now_ns)
{
    if (self->lease_ns <= 0)
        return false;
    for (size_t i = 0; i < self->count; i++)
        if (session_state (self->sessions [i]) == SESSION_READY
        &&  now_ns - session_last_heard_ns (self->sessions [i]) > self->lease_ns)
            return true;
    return false;
}

void
fleet_set_draining (fleet_t *self, bool draining)
{
    self->draining = draining;
}

int
fleet_poll (fleet_t *self, int64_t deadline_ns, fleet_handler_fn *handler, void *arg)
{
    //  From the last return to now, the console did something else.
    int64_t entered_ns = clock_now_ns ();
    if (self->listened_until_ns)
        s_away (self, entered_ns - self->listened_until_ns, entered_ns);
    int rc = 0;
    if (fleet_interrupted () && !self->draining)
        goto done;
    //  Wake for the caller's deadline or the fleet's own timers,
    //  whichever comes first.
    int64_t wake_ns = deadline_ns;
    if (self->next_check_ns < wake_ns)
        wake_ns = self->next_check_ns;
    if (self->lease_ns > 0 && self->next_keepalive_ns < wake_ns)
        wake_ns = self->next_keepalive_ns;
    int64_t wait_ns = wake_ns - entered_ns;
    if (wait_ns < 0)
        wait_ns = 0;
    //  zmq_poll takes milliseconds; round up so that we never wake early
    //  and spin until the deadline.
    long timeout_ms = (long) ((wait_ns + NS_PER_MSEC - 1) / NS_PER_MSEC);
    zmq_pollitem_t items [] = {
        { .socket = fleetsock_handle (self->sock), .events = ZMQ_POLLIN },
        { .socket = fleetsock_monitor_handle (self->sock), .events = ZMQ_POLLIN }
    };
    int ready = zmq_poll (items, 2, timeout_ms);
    //  A wake later than asked is time the process did not run (stopped,
    //  or starved of CPU): nobody's silence.
    int64_t woke_ns = clock_now_ns ();
    s_away (self, woke_ns - entered_ns - timeout_ms * NS_PER_MSEC, woke_ns);
    if (ready < 0 && (errno == EINTR || fleet_interrupted ()) && !self->draining)
        goto done;
    if (ready > 0 && s_drain (self, handler, arg) == -1)
        goto done;
    int64_t now_ns = clock_now_ns ();
    fleet_keepalives (self, now_ns);
    //  Silence is judged only once what waits on the socket was read:
    //  after a pause, the answers that came meanwhile are there.
    if (now_ns >= self->next_check_ns && s_overdue (self, now_ns)) {
        int more = 1;
        for (int n = 0; n < FLEET_DRAIN_BEFORE_JUDGING && more == 1; n++)
            more = s_drain (self, handler, arg);
        if (more == -1)
            goto done;
        now_ns = clock_now_ns ();
    }
    fleet_check_sessions (self, now_ns);
    rc = fleet_interrupted () && !self->draining? -1: 0;
    self->listened_until_ns = clock_now_ns ();
    return rc;

done:
    self->listened_until_ns = clock_now_ns ();
    return -1;
}
