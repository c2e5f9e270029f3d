/*  coordinator/fleet/fleetsock.h: the one socket through which the console
    talks to every agent, and the one monitor of its connections.

    A ROUTER that connects out to each agent's ROUTER, the peer named by
    a routing id of our choosing (the session's index in the fleet), so
    that a fleet of a thousand agents is one socket, one descriptor to
    poll and one pass over what arrived, not a thousand of each. libzmq
    queues what is sent to a peer until its connection is up, and keeps
    the peer's queue over reconnections, as a DEALER per agent would.

    The console shows every agent one routing id of its own, random and
    kept for the socket's life: an agent that sees a connection come
    back (either side was paused, the connection dropped) knows the same
    coordinator, and the session it holds goes on.

    Every connection takes the socket's options as they are when it is
    made: with CURVE, our own key pair is the socket's, and each agent's
    public key is set just before its connection.

    The monitor reports connections and handshakes of every connection,
    each event naming the endpoint as it was given to fleetsock_connect;
    the fleet hands them to the sessions at that endpoint, which turn a
    refusal (otherwise seen as silence) into a reason.
*/
#ifndef IOFLEET_FLEETSOCK_H
#define IOFLEET_FLEETSOCK_H

#include <czmq.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct _fleetsock_t fleetsock_t;

//  The socket and its monitor. Returns NULL with a reason in err.
fleetsock_t *fleetsock_new (char *err, size_t errlen);

//  Destroy; safe on NULL, nulls the caller's pointer. What is still
//  queued gets the socket's linger (half a second) to leave.
void fleetsock_destroy (fleetsock_t **self_p);

//  Our own CURVE key pair for every connection made from now on.
void fleetsock_set_certificate (fleetsock_t *self, zcert_t *own);

//  Make room for connections more connections: the process's limit on
//  open files is raised as far as its hard limit allows. Returns 0, or
//  -1 with what the machine cannot give in err.
int fleetsock_reserve (fleetsock_t *self, size_t connections, char *err, size_t errlen);

//  Connect to endpoint, the peer known from now on as id (each id once).
//  server_key is the agent's CURVE public key (32 bytes), or NULL without
//  CURVE. Returns 0, or -1 with libzmq's reason in err.
int fleetsock_connect (fleetsock_t *self, uint32_t id, const char *endpoint,
                       const uint8_t *server_key, char *err, size_t errlen);

//  Send size bytes as one frame to peer id without blocking. Returns 0,
//  or -1 if it could not be queued (its queue is full).
int fleetsock_send (fleetsock_t *self, uint32_t id, const void *data, size_t size);

//  Receive one waiting message without blocking: its peer in *id, its
//  first frame in *frame (the caller's to destroy), and whether more
//  frames came with it (they are read and dropped: not our protocol).
//  Returns 1, or 0 when nothing waits or the message names no peer of
//  ours (then it is dropped).
int fleetsock_recv (fleetsock_t *self, uint32_t *id, zframe_t **frame, bool *more);

//  Read one waiting monitor event: its number (ZMQ_EVENT_...), its value
//  and the endpoint it concerns into endpoint (endpointlen bytes).
//  Returns 1, or 0 when none waits.
int fleetsock_event (fleetsock_t *self, uint16_t *event, uint32_t *value,
                     char *endpoint, size_t endpointlen);

//  The two sockets, for a poll: messages and monitor events.
void *fleetsock_handle (fleetsock_t *self);
void *fleetsock_monitor_handle (fleetsock_t *self);

#endif
