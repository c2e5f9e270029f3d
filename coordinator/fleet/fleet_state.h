/*  coordinator/fleet/fleet_state.h: the fleet's state, shared by its
    sessions and their liveness (fleet.c), the poll loop (fleet_poll.c)
    and the hello and clock measurements (fleet_hello.c). Not for other
    modules: they see fleet.h.
*/
#ifndef IOFLEET_FLEET_STATE_H
#define IOFLEET_FLEET_STATE_H

#include "fleet.h"
#include "fleetsock.h"
#include "../../proto/clock.h"

//  An agent that says it serves another coordinator is asked again this
//  often until the hello's deadline: the other one may just have ended,
//  its BYE still on its way behind our HELLO.
#define FLEET_BUSY_RETRY_NS (250 * NS_PER_MSEC)

//  A hello to an agent met before, unanswered, is sent again this often
//  until its deadline. The
//  answer can be lost on the way without any refusal: an agent that was
//  stopped wakes up holding the connection its console has already left,
//  reads our hello from it and answers into it; the console's new
//  connection is let in once the old one is gone, and the hello sent
//  again over it is answered (the agent renews the session it holds).
#define FLEET_HELLO_RESEND_NS (NS_PER_SEC)

//  How many clock measurements run at once. Pinging a thousand agents at
//  once makes every one of them wait for the others to be scheduled, and
//  its best round trip (its offset's uncertainty) is that wait; a window
//  keeps round trips short for the same total work.
#define FLEET_CLOCK_WINDOW          32

//  A session lost a moment ago is said hello to again at once, and an
//  agent that was only paused (or whose console was) answers within a
//  round trip: the next test waits this long for such answers, so that
//  it runs on every agent that is back, at a small bounded cost for one
//  that is really gone.
#define FLEET_RETURN_WAIT_NS        (500 * NS_PER_MSEC)

struct _fleet_t {
    fleetsock_t *sock;              //  the one socket to every agent
    session_t **sessions;           //  in the order they were added; index = peer id
    size_t *same_endpoint;          //  per session: the next one at its endpoint, or SIZE_MAX
    size_t count;                   //  sessions in use
    size_t capacity;                //  allocated slots
    zhashx_t *by_name;              //  agent name -> session
    zhashx_t *by_endpoint;          //  endpoint -> index + 1 of its first session
    uint32_t hello_round;           //  the fleet_hello under way, counted from 1
    size_t hello_pending;           //  its sessions still connecting
    size_t measuring;               //  ready sessions whose clock measurement goes on
    session_t **clock_sessions;     //  those fleet_sync_clocks measures (borrowed), or NULL: all
    size_t clock_count;             //  how many
    size_t clock_next;              //  the next of them to measure
    uint64_t clock_pings;           //  exchanges each measurement takes
    int64_t clock_fresh_ns;         //  measured after this: measured recently enough
    uint64_t malformed;             //  frames dropped as undecodable
    uint64_t received [MSG_TYPE_COUNT];         //  messages decoded, by type
    uint64_t received_bytes [MSG_TYPE_COUNT];   //  their frames' bytes
    uint64_t malformed_unlogged;    //  of those, since the last line about them
    int64_t malformed_logged_ns;    //  when that line was written
    bool draining;                  //  an interrupt no longer stops polls
    keys_t *keys;                   //  --keys: CURVE for every session, or NULL
    char coordinator [MSG_TEXT_MAX + 1];    //  our name in hellos
    int64_t lease_ns;               //  the lease both sides hold, 0 for none; it grows
                                    //  with the fleet's reach (fleet_keepalives)
    int64_t lease_asked_ns;         //  the lease the run began with, which hellos ask
    int64_t connect_timeout_ns;     //  how long a hello may take
    int64_t next_keepalive_ns;      //  when the next round of keepalives goes out
    int64_t round_ns;               //  when the last round went out, 0 never
    int64_t reach_ns;               //  its latest pong so far, after round_ns
    int64_t reach_before_ns;        //  the same of the round before
    int64_t round_before_ns;        //  when the round before went out, 0 never
    int64_t away_at_round_ns;       //  away_ns when the last round went out
    int64_t away_at_round_before_ns;    //  the same of the round before
    int64_t *reaches;               //  one per session: the keepalives' reach, sorted
    size_t reaches_capacity;        //  sessions it holds room for
    int64_t next_check_ns;          //  when the sessions are looked at next
    int64_t listened_until_ns;      //  when fleet_poll last returned, 0 never: the
                                    //  console does not listen until the next call
    int64_t away_pending_ns;        //  time not listened, not yet given to the sessions
    int64_t away_ns;                //  all the time not listened that they were given
    int64_t resumed_ns;             //  the end of the last absence past a keepalive
                                    //  period: a ready session not heard since may
                                    //  have given us up
    fleet_lost_fn *lost_handler;    //  told of every loss, or NULL
    void *lost_arg;                 //  its argument
};

//  Every change of a session's state goes through here (fleet.c), so
//  that what the fleet waits for is counted as it changes.
void fleet_set_state (fleet_t *self, session_t *session, session_state_t state,
                      const char *reason);

//  Look at every session, at most every FLEET_CHECK_NS (fleet.c).
void fleet_check_sessions (fleet_t *self, int64_t now_ns);

//  The fleet's own share of a message (fleet.c). Returns true if the
//  message was the fleet's, false if it goes to the caller's handler.
bool fleet_take (fleet_t *self, session_t *session, const msg_t *msg, int64_t received_ns);

//  Keepalives to every ready session when a round is due (fleet.c).
void fleet_keepalives (fleet_t *self, int64_t now_ns);

//  Begin clock measurements until the window is full (fleet_hello.c).
void fleet_clock_fill (fleet_t *self);

//  Send a hello to one session, its answer awaited until deadline_ns.
void fleet_send_hello (fleet_t *self, session_t *session, bool probe, int64_t deadline_ns);

//  A WELCOME: the session is ready (again), unless another agent sent it.
void fleet_on_welcome (fleet_t *self, session_t *session, const msg_welcome_t *welcome,
                       int64_t received_ns);

//  A connecting session's agent refused it as busy (text: its words,
//  naming the coordinator it serves): ask again soon, and say so on the
//  console the first time, so that a wait until connect_timeout is not
//  a silent one.
void fleet_on_busy (fleet_t *self, session_t *session, const char *text,
                    int64_t received_ns);

//  A connecting session whose hello can no longer succeed fails.
void fleet_check_hello (fleet_t *self, session_t *session, int64_t now_ns);

#endif
