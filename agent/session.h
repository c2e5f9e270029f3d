/*  agent/session.h: the agent's session with the one coordinator it
    serves.

    A session is a peer (its routing id on the agent's ROUTER socket), the
    name the coordinator gave in HELLO, a lease, and an id. The id is
    random and new with every session: WELCOME gives it to the
    coordinator and every PONG carries it back, so that a coordinator
    whose session this agent no longer holds (the agent was restarted on
    the same endpoint, or the lease ran out) learns it from the next
    keepalive. The session knows nothing of tests; it holds the files
    its tests laid out for later ones (agent/kept.h), and removes them
    when it ends.
*/
#ifndef IOFLEET_AGENT_SESSION_H
#define IOFLEET_AGENT_SESSION_H

#include "kept.h"

#include "../proto/msg.h"

#include <czmq.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct _agent_session_t agent_session_t;

//  What HELLO did.
typedef enum {
    AGENT_SESSION_OPENED,           //  a new session with this peer
    AGENT_SESSION_RENEWED,          //  the peer's session again (lease, name updated)
    AGENT_SESSION_BUSY              //  another coordinator holds the session
} agent_session_hello_t;

//  An agent without a session. NULL if out of memory.
agent_session_t *agent_session_new (void);

//  Destroy, ending a session still open; safe on NULL, NULLs the
//  caller's pointer.
void agent_session_destroy (agent_session_t **self_p);

//  A HELLO (not a probe) from peer at now_ns: open a session, renew the
//  peer's, or refuse because another coordinator holds it. The lease is
//  hello->lease_ms, 0 for the default, held within the bounds.
agent_session_hello_t agent_session_hello (agent_session_t *self, zframe_t *peer,
                                           const msg_hello_t *hello, int64_t now_ns);

bool agent_session_is_peer (agent_session_t *self, zframe_t *peer);

//  A keepalive's new lease (its coordinator's messages take longer to
//  reach its fleet than the lease it began with): lease_ms, 0 for
//  unchanged, held within max_ms (the agent's max-lease) and the bounds.
//  Returns the lease the session now holds.
uint32_t agent_session_set_lease (agent_session_t *self, uint32_t lease_ms, uint32_t max_ms);

//  The peer's routing id (borrowed; NULL when idle), its name from HELLO
//  ("" when idle), the session id (0 when idle), the lease in ms, and how
//  long the session has lasted at now_ns.
zframe_t *agent_session_peer (agent_session_t *self);
const char *agent_session_coordinator (agent_session_t *self);
uint64_t agent_session_id (agent_session_t *self);
uint32_t agent_session_lease_ms (agent_session_t *self);
int64_t agent_session_age_ns (agent_session_t *self, int64_t now_ns);

//  The files the session keeps for its later tests (borrowed; never
//  NULL for a session built by agent_session_new).
kept_t *agent_session_kept (agent_session_t *self);

//  The peer said something at now_ns: the lease starts again.
void agent_session_heard (agent_session_t *self, int64_t now_ns);

//  The agent did not listen for away_ns (its process was stopped, or its
//  loop starved of CPU): that time is not the coordinator's silence, and
//  the lease runs out that much later. What the coordinator sent
//  meanwhile is read once the agent listens again.
void agent_session_away (agent_session_t *self, int64_t away_ns);

//  When the lease runs out (INT64_MAX when idle), and whether it has at
//  now_ns.
int64_t agent_session_deadline_ns (agent_session_t *self);
bool agent_session_expired (agent_session_t *self, int64_t now_ns);

//  When the loop must wake next for the session, at now_ns: the lease's
//  end, or sooner, a fraction of the lease away, so that the time it is
//  away is measured finely (INT64_MAX when idle).
int64_t agent_session_wake_ns (agent_session_t *self, int64_t now_ns);

//  End the session (BYE, lease expired): the files it kept are removed,
//  and the agent is idle again. Returns the files removed.
size_t agent_session_end (agent_session_t *self);

#endif
