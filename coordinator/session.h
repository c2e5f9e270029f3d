/*  coordinator/session.h: the coordinator's side of one agent.

    A session owns one DEALER socket connected to one agent, what the agent
    said about itself, the best clock measurement so far and when the agent
    was last heard. It knows nothing of tests: the fleet (fleet.h) drives
    many sessions from one poll loop, and the run engine drives the fleet.
*/
#ifndef IOFLEET_SESSION_H
#define IOFLEET_SESSION_H

#include "../proto/keys.h"
#include "../proto/msg.h"
#include "results.h"

#include <czmq.h>

typedef enum {
    SESSION_CONNECTING,             //  hello sent, no answer yet
    SESSION_READY,                  //  welcomed: usable
    SESSION_FAILED,                 //  refused, wrong version or unreachable
    SESSION_LOST                    //  was ready, then fell silent
} session_state_t;

typedef struct _session_t session_t;

//  Create a session for agent `name` at `endpoint` and connect (the
//  connection itself happens in the background). Returns NULL with a
//  reason in err if the endpoint is not valid.
session_t *session_new (const char *name, const char *endpoint, char *err, size_t errlen);

//  The same, encrypted and authenticated when keys is not NULL: the
//  socket is a CURVE client with our own pair from keys and the agent's
//  public key found in keys under the agent's name (keys_peer). Returns
//  NULL with a reason in err if that key is missing.
session_t *session_new_secure (const char *name, const char *endpoint, keys_t *keys,
                               char *err, size_t errlen);

//  Why the connection has not come up, when libzmq said so (a socket
//  monitor watches the handshakes): "agent a1 (tcp://...): refused our key
//  (CURVE authentication failed)". Reads the events waiting; returns ""
//  when nothing went wrong that we know of. *definitive is set when
//  waiting longer cannot help (the agent refused us).
const char *session_handshake_error (session_t *self, bool *definitive);

//  Destroy a session; safe on NULL, nulls the caller's pointer.
void session_destroy (session_t **self_p);

//  The socket, for a poller.
zsock_t *session_socket (session_t *self);

//  Encode and send a message without blocking. Returns 0, or -1 if the
//  message could not be queued (the agent is not connected and the queue
//  is full).
int session_send (session_t *self, const msg_t *msg);

//  Receive and decode one waiting frame into msg, taking the receive
//  instant as early as possible (clock_now_ns) into *received_ns. Returns
//  MSG_OK, or MSG_EMALFORMED / MSG_EVERSION with a reason in err; -3 if
//  nothing could be read.
int session_recv (session_t *self, msg_t *msg, int64_t *received_ns, char *err, size_t errlen);

//  Start a clock measurement: forget the previous best and send ping 0.
//  Returns 0 or -1.
int session_clock_begin (session_t *self);

//  Take a pong into the measurement and send the next ping until `pings`
//  have come back. Returns 1 when the measurement is complete, 0 while
//  it goes on, -1 if the pong does not belong to the current ping.
int session_clock_pong (session_t *self, const msg_pong_t *pong, int64_t received_ns, uint64_t pings);

//  Accessors.
const char *session_name (session_t *self);
const char *session_endpoint (session_t *self);
const char *session_reported_name (session_t *self);  //  from WELCOME, "" before
void session_set_reported_name (session_t *self, const char *name);
session_state_t session_state (session_t *self);
void session_set_state (session_t *self, session_state_t state, const char *reason);
const char *session_reason (session_t *self);       //  why failed or lost, "" otherwise
agent_info_t *session_info (session_t *self);       //  filled from WELCOME and clock
int64_t session_last_heard_ns (session_t *self);    //  coordinator clock, 0 never
int64_t session_offset_ns (session_t *self);        //  agent clock - coordinator clock
int64_t session_uncertainty_ns (session_t *self);   //  half the best round trip

#endif
