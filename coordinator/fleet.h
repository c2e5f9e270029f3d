/*  coordinator/fleet.h: every agent session of a run, driven from one poll
    loop.

    One zmq_poll over all agent sockets, no thread per agent: a run with
    hundreds of agents costs one poll array and one pass over it per wake.
    The fleet says hello, measures clocks and delivers every decoded
    message to a handler; what the messages mean is the caller's business.
*/
#ifndef IOFLEET_FLEET_H
#define IOFLEET_FLEET_H

#include "session.h"

typedef struct _fleet_t fleet_t;

//  Called for every well-formed message. Return 0 to go on, -1 to make
//  fleet_poll return at once.
typedef int (fleet_handler_fn) (session_t *session, const msg_t *msg,
                                int64_t received_ns, void *arg);

//  Create an empty fleet.
fleet_t *fleet_new (void);

//  Destroy a fleet and its sessions; safe on NULL, nulls the pointer.
void fleet_destroy (fleet_t **self_p);

//  Load a keys directory (proto/keys.h): agents added afterwards are
//  reached over CURVE, each with its public key from there. Returns 0, or
//  -1 with a reason in err naming the directory or file.
int fleet_set_keys (fleet_t *self, const char *dir, char *err, size_t errlen);

//  True if the fleet uses keys.
bool fleet_secure (fleet_t *self);

//  Add and connect an agent. Returns its session, or NULL with err.
session_t *fleet_add (fleet_t *self, const char *name, const char *endpoint,
                      char *err, size_t errlen);

//  Number of sessions, the i-th one, the one named `name` (or NULL).
size_t fleet_size (fleet_t *self);
session_t *fleet_session (fleet_t *self, size_t index);
session_t *fleet_find (fleet_t *self, const char *name);

//  Wait for messages until deadline_ns (coordinator clock) and hand each
//  to handler. Returns after the first batch of messages, or at the
//  deadline: 0; -1 if interrupted (SIGINT, SIGTERM) or the handler asked.
//  Frames that do not decode are counted (against their agent too, in its
//  session_info: malformed_frames) and logged, the first few each, then
//  one line a second at most; never handed on. One of another protocol
//  version fails its session.
int fleet_poll (fleet_t *self, int64_t deadline_ns, fleet_handler_fn *handler, void *arg);

//  Say hello to every session not ready yet (probe: only ask, start no
//  session) and wait up to timeout_ns for the answers. Sessions that answer become
//  SESSION_READY with their info filled; the others SESSION_FAILED with
//  the reason. Returns the number of ready sessions.
size_t fleet_hello (fleet_t *self, const char *coordinator, int64_t lease_ns,
                    bool probe, int64_t timeout_ns);

//  Measure the clock offset of every ready session in parallel, `pings`
//  exchanges each, the best kept. Sessions that do not finish within
//  timeout_ns keep their previous figures. Returns 0 if all finished, -1
//  otherwise (or if interrupted).
int fleet_sync_clocks (fleet_t *self, uint64_t pings, int64_t timeout_ns);

//  While draining, an interrupt does not cut polls short: after Ctrl-C the
//  run still collects what the agents report as they stop.
void fleet_set_draining (fleet_t *self, bool draining);

//  Send a message to every ready session.
void fleet_broadcast (fleet_t *self, const msg_t *msg);

//  Frames dropped because they did not decode, from all agents.
uint64_t fleet_malformed (fleet_t *self);

//  True once SIGINT or SIGTERM arrived.
bool fleet_interrupted (void);

#endif
