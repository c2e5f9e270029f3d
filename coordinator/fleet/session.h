/*  coordinator/fleet/session.h: the coordinator's side of one agent.

    A session is one agent's connection on the fleet's one socket
    (fleetsock.h), what the agent said about itself, the best clock
    measurement so far and when the agent was last heard. It knows nothing
    of tests: the fleet (fleet.h) drives every session from one poll loop
    and sets their states, and the run engine drives the fleet.
*/
#ifndef IOFLEET_SESSION_H
#define IOFLEET_SESSION_H

#include "fleetsock.h"
#include "../results/results.h"
#include "../../proto/keys.h"
#include "../../proto/msg.h"

#include <czmq.h>

typedef enum {
    SESSION_NEW,                    //  connected, no hello sent yet
    SESSION_CONNECTING,             //  hello sent, no answer yet
    SESSION_READY,                  //  welcomed: usable
    SESSION_FAILED,                 //  refused, wrong version or unreachable
    SESSION_LOST                    //  was ready, then fell silent
} session_state_t;

typedef struct _session_t session_t;

//  Create session `index` of a fleet, for agent `name` at `endpoint`, and
//  connect it on sock (the connection itself happens in the background).
//  With keys (NULL for none), the connection is a CURVE client that
//  expects the agent's public key found in keys under the agent's name
//  (keys_peer); the fleet gave sock our own pair. Returns NULL with a
//  reason in err if the endpoint is not valid or the agent's key is
//  missing.
session_t *session_new (const char *name, const char *endpoint, size_t index,
                        fleetsock_t *sock, keys_t *keys, char *err, size_t errlen);

//  Take one event of the socket's monitor about this session's endpoint
//  (ZMQ_EVENT_... and its value) into the session's view of its
//  handshakes.
void session_connection_event (session_t *self, uint16_t event, uint32_t value);

//  Why the connection has not come up, when libzmq said so (the monitor
//  watches the handshakes): "agent a1 (tcp://...): refused our key
//  (CURVE authentication failed)"; "" when nothing went wrong that we
//  know of. *definitive is set when waiting longer cannot help (the
//  agent refused us).
const char *session_handshake_error (session_t *self, bool *definitive);

//  Destroy a session; safe on NULL, nulls the caller's pointer. Its
//  connection stays with the socket, which closes them all.
void session_destroy (session_t **self_p);

//  Encode and send a message without blocking. Returns 0, or -1 if the
//  message could not be queued (the agent is not connected and the queue
//  is full).
int session_send (session_t *self, const msg_t *msg);

//  Take the agent's WELCOME: what it says about itself and the session
//  id it gave us, heard at received_ns, in a new generation
//  (session_generation). The fleet then makes it SESSION_READY.
void session_take_welcome (session_t *self, const msg_welcome_t *welcome, int64_t received_ns);

//  Whether a WELCOME comes from the agent this session met before (the
//  same name and host), or is the first. Returns 0, or -1 with the two
//  named in err: another agent now listens on the endpoint (the one we
//  knew died and its port went to someone else), and what it measures
//  is not the scenario's.
int session_check_same_agent (session_t *self, const msg_welcome_t *welcome,
                              char *err, size_t errlen);

//  Send a keepalive: a PING with seq 0 and our session id, which the
//  agent answers with the id it holds for us. Returns 0 or -1.
int session_keepalive (session_t *self, int64_t lease_ns);

//  A keepalive came back reach_ns after it went out; the fleet takes the
//  slowest since it last asked (-1 if none), to see how long its
//  messages take to reach this agent.
void session_note_reach (session_t *self, int64_t reach_ns);
int64_t session_take_reach (session_t *self);

//  The agent proved at received_ns that it still holds our session.
void session_heard (session_t *self, int64_t received_ns);

//  The console did not listen for away_ns (it was stopped, or starved of
//  CPU): the silence counted so far and a hello's deadline move on by
//  that much.
void session_away (session_t *self, int64_t away_ns);

//  Start a clock measurement of `pings` exchanges: forget the previous
//  best and send the first ping. Returns 0 or -1.
int session_clock_begin (session_t *self, uint64_t pings);

//  Take a pong into the measurement and send the next ping until all
//  have come back. Returns 1 when the measurement is complete, 0 while
//  it goes on, -1 if the pong does not belong to the current one.
int session_clock_pong (session_t *self, const msg_pong_t *pong, int64_t received_ns);

//  True while a clock measurement waits for pongs.
bool session_measuring (session_t *self);

//  Give up the measurement under way; the previous figures stay.
void session_clock_stop (session_t *self);

//  When the last measurement completed (coordinator clock), 0 never.
int64_t session_measured_ns (session_t *self);

//  Accessors.
const char *session_name (session_t *self);
const char *session_endpoint (session_t *self);
const char *session_reported_name (session_t *self);  //  from WELCOME, "" before
session_state_t session_state (session_t *self);
void session_set_state (session_t *self, session_state_t state, const char *reason);
const char *session_reason (session_t *self);       //  why failed or lost, "" otherwise
agent_info_t *session_info (session_t *self);       //  filled from WELCOME and clock
int64_t session_last_heard_ns (session_t *self);    //  coordinator clock, 0 never
uint64_t session_id (session_t *self);              //  the agent's id for our session, 0 none
uint32_t session_generation (session_t *self);      //  counts WELCOMEs: a new one, a new session
size_t session_index (session_t *self);             //  its place in the fleet, from 0
int64_t session_hello_deadline_ns (session_t *self);    //  while connecting: when to give up
void session_set_hello_deadline_ns (session_t *self, int64_t deadline_ns);
int64_t session_hello_retry_ns (session_t *self);        //  when to ask again
void session_set_hello_retry_ns (session_t *self, int64_t retry_ns);
bool session_busy_told (session_t *self);           //  the console heard it is busy
void session_set_busy_told (session_t *self, bool told);
uint32_t session_hello_round (session_t *self);     //  the fleet_hello that waits for it
void session_set_hello_round (session_t *self, uint32_t round);
int64_t session_offset_ns (session_t *self);        //  agent clock - coordinator clock
int64_t session_uncertainty_ns (session_t *self);   //  half the best round trip

#endif
