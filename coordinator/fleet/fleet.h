/*  coordinator/fleet/fleet.h: every agent session of a run, driven from one poll
    loop.

    One zmq_poll over all agent sockets, no thread per agent: a run with
    hundreds of agents costs one poll array and one pass over it per wake.
    Whoever waits on the fleet (a hello, a clock measurement, a test) waits
    in fleet_poll, and fleet_poll keeps every session alive while it does:

    - hello answers (WELCOME, or ERROR refusing us) move a connecting
      session to ready or failed, whenever they arrive;
    - pongs feed clock measurements; keepalive pongs prove the session:
      a pong that carries another session id than ours means the agent
      was restarted (or ended the session), and the session is lost at
      once, as it is on an ERROR "no-session";
    - every ready session gets a keepalive every third of the lease, and
      one silent for longer than the lease is lost; the lease grows, and
      every agent hears of it with its next keepalive, when keepalives
      take long to reach the fleet (thousands of agents on a console
      short of CPU, a slow network); silence counts only
      time the console listened (a stopped console loses nobody for
      it), and is judged only once what waits on the socket was read;
    - a lost session is said hello to again in the background, so that a
      restarted agent is ready again by the next test, and the next test
      waits half a second for one that is about to be.

    Only messages that prove the session renew it: garbage and pongs of
    another session do not. Everything else goes to the caller's handler;
    what test messages mean is the run engine's business.
*/
#ifndef IOFLEET_FLEET_H
#define IOFLEET_FLEET_H

#include "session.h"

typedef struct _fleet_t fleet_t;

//  Called for every well-formed message the fleet does not keep for
//  itself. Return 0 to go on, -1 to make fleet_poll return at once.
typedef int (fleet_handler_fn) (session_t *session, const msg_t *msg,
                                int64_t received_ns, void *arg);

//  Called when a ready session is declared lost, with the reason; the
//  session's state is SESSION_LOST during the call.
typedef void (fleet_lost_fn) (session_t *session, const char *reason, void *arg);

//  Make sure the process may open what a fleet of `agents` needs, before
//  the first socket (libzmq asserts on a socket it cannot open): 0, or
//  -1 with what the machine cannot give in err.
int fleet_reserve (size_t agents, char *err, size_t errlen);

//  Create an empty fleet.
fleet_t *fleet_new (void);

//  Destroy a fleet and its sessions; safe on NULL, nulls the pointer.
void fleet_destroy (fleet_t **self_p);

//  Load a keys directory (proto/keys.h): agents added afterwards are
//  reached over CURVE, each with its public key from there. Returns 0, or
//  -1 with a reason in err naming the directory or file.
int fleet_set_keys (fleet_t *self, const char *dir, char *err, size_t errlen);

//  What hellos say and how long sessions live: our name as agents show
//  it, the lease both sides hold (0: no keepalives and no lease, as for
//  `iofleet ping`) and how long a hello may take.
void fleet_set_lease (fleet_t *self, const char *coordinator, int64_t lease_ns,
                      int64_t connect_timeout_ns);

//  Who hears about lost sessions (NULL: nobody).
void fleet_set_lost_handler (fleet_t *self, fleet_lost_fn *handler, void *arg);

//  Add and connect an agent. Returns its session, or NULL with err.
session_t *fleet_add (fleet_t *self, const char *name, const char *endpoint,
                      char *err, size_t errlen);

//  Number of sessions, the i-th one, the one named `name` (or NULL).
size_t fleet_size (fleet_t *self);
session_t *fleet_session (fleet_t *self, size_t index);
session_t *fleet_find (fleet_t *self, const char *name);

//  Wait for messages until deadline_ns (coordinator clock), hand each the
//  fleet does not keep to handler (NULL: drop them), and run the fleet's
//  timers. May return before the deadline: callers loop on their own
//  condition. Returns 0; -1 if interrupted (SIGINT, SIGTERM) or the
//  handler asked. Frames that do not decode are counted (against their
//  agent too, in its session_info: malformed_frames) and logged, the
//  first few each, then one line a second at most; never handed on. One
//  of another protocol version fails its session (a ready one is lost).
int fleet_poll (fleet_t *self, int64_t deadline_ns, fleet_handler_fn *handler, void *arg);

//  Say hello (a probe: only ask, open no session) to every session of
//  sessions[0..count) that is not ready (sessions NULL: the whole fleet)
//  and wait up to timeout_ns for the answers of those never met. One
//  known lost (lost, or failed an earlier hello) is said hello to again
//  and one already waiting for an answer in the background keeps its own
//  deadline, and both are waited for only half a second, as are
//  ready sessions in doubt (fleet_in_doubt): a lost agent costs a test
//  no timeout, one that is back takes part, and one that answers later
//  is ready for the test after. Messages
//  meanwhile go to handler. Sessions that answer become SESSION_READY
//  with their info filled; the others SESSION_FAILED with the reason.
//  Returns the number of those sessions that are ready.
size_t fleet_hello (fleet_t *self, session_t **sessions, size_t count, bool probe,
                    int64_t timeout_ns, fleet_handler_fn *handler, void *arg);

//  Measure the clock offset of every ready session of sessions [0..count)
//  (NULL: the whole fleet) whose offset was measured more than max_age_ns
//  ago (0: all of them), `pings` exchanges each, the best kept. A few
//  measurements run at once (FLEET_CLOCK_WINDOW), so that the round trips
//  measure the network and not a queue of a thousand agents. Messages
//  meanwhile go to handler. Sessions that do not finish within
//  timeout_ns keep their previous figures. Returns 0 if all finished, -1
//  otherwise (or if interrupted).
int fleet_sync_clocks (fleet_t *self, session_t **sessions, size_t count, uint64_t pings,
                       int64_t max_age_ns, int64_t timeout_ns,
                       fleet_handler_fn *handler, void *arg);

//  Give up on a ready session now (the run engine's own watchdogs): it
//  becomes SESSION_LOST with reason, the lost handler hears of it, and a
//  new hello goes out in the background.
void fleet_declare_lost (fleet_t *self, session_t *session, const char *reason);

//  While draining, an interrupt does not cut polls short: after Ctrl-C the
//  run still collects what the agents report as they stop.
void fleet_set_draining (fleet_t *self, bool draining);

//  All the time the console did not listen (stopped, starved of CPU, or
//  busy between two polls), which no session's silence counts: a caller
//  with watchdogs of its own moves them on by what this grew by.
int64_t fleet_away_ns (fleet_t *self);

//  A round of keepalives now, whenever the last went: before work that
//  does not poll for a while (writing the reports of a test at 4096
//  agents), so that every lease has its whole length to cover it.
void fleet_keep_alive (fleet_t *self);

//  True for a ready session not heard since the console came back from
//  an absence past a round of keepalives: its agent may have given us up.
bool fleet_in_doubt (fleet_t *self, session_t *session);

//  How long a message to every ready session takes until the last of
//  them has answered: the worse of the last two rounds of keepalives,
//  from the first sent to the last answer (0 before any). A start
//  instant further off than this reaches every agent in time, whatever
//  the fleet's size.
int64_t fleet_reach_ns (fleet_t *self);

//  Send a message to every ready session.
void fleet_broadcast (fleet_t *self, const msg_t *msg);

//  Frames dropped because they did not decode, from all agents.
uint64_t fleet_malformed (fleet_t *self);

//  Messages of type received from all agents so far, and their bytes on
//  the wire (the frames, before CURVE's few bytes a message).
void fleet_received (fleet_t *self, msg_type_t type, uint64_t *messages, uint64_t *bytes);

//  True once SIGINT or SIGTERM arrived.
bool fleet_interrupted (void);

#endif
