/*  agent/agent_state.h: the agent's state, shared by the loop and its
    lifecycle (agent.c) and what it does with each message (agent_handlers.c).
    Not for other modules: they see agent.h.
*/
#ifndef IOFLEET_AGENT_STATE_H
#define IOFLEET_AGENT_STATE_H

#include "agent.h"
#include "confine.h"
#include "preflight.h"
#include "hostinfo.h"
#include "log.h"
#include "session.h"
#include "testrun.h"

#include "../proto/keys.h"
#include "../proto/msg.h"

struct _agent_t {
    char name [JOB_NAME_MAX + 1];       //  --name
    char *endpoint;                     //  endpoint actually bound
    bool insecure;                      //  serving without CURVE (no --keys)
    keys_t *keys;                       //  --keys: our pair and the trusted coordinators
    zactor_t *auth;                     //  the ZAP handler that checks them (auth.h)
    bool verbose;                       //  log pings and samples too
    zsock_t *router;                    //  the socket coordinators talk to
    int notify_fd;                      //  eventfd stream threads write at every step
    confine_t *confine;                 //  the --root directories
    hostinfo_t *hostinfo;               //  what WELCOME says about the host
    uint64_t memory_bound_bytes;        //  the buffers one test may hold
    uint32_t max_lease_ms;              //  the longest lease a HELLO may ask for
    agent_lograte_t malformed;          //  frames that did not decode: counted, logged sparingly
    agent_session_t *session;           //  the coordinator served, if any
    agent_testrun_t *test;                 //  the test held, if any
    preflight_t *preflight;             //  PREFLIGHT's ledger, made at the first one
    msg_t in;                           //  the message being handled
    msg_t out;                          //  the message being sent
};

//  Write one log line, "agent=NAME " and the formatted rest (agent.c).
void agent_note (agent_t *self, const char *format, ...)
    __attribute__ ((format (printf, 2, 3)));

//  A routing id as hex, for logs. Returns buf.
const char *agent_peer_text (zframe_t *peer, char *buf, size_t buflen);

//  Encode msg and send it to peer; a message that cannot be sent is
//  logged and dropped.
void agent_send (agent_t *self, zframe_t *peer, msg_t *msg);

//  Send ERROR {test_id, job_id, code, text} to peer.
void agent_send_error (agent_t *self, zframe_t *peer, uint32_t test_id, int32_t job_id,
                       const char *code, const char *format, ...)
    __attribute__ ((format (printf, 6, 7)));

//  Forget the test held, stopping and cleaning up what is left; event
//  and reason go to the log.
void agent_forget_test (agent_t *self, const char *event, const char *reason);

//  Let the test send what is due, and forget it once it is over.
void agent_poll_test (agent_t *self);

//  End the session (BYE, lease expired): a prepared test is dropped, a
//  running one is told to stop and finishes orphaned.
void agent_end_session (agent_t *self, const char *event, const char *reason);

//  One decoded message (self->in) from peer, received at received_ns;
//  from_peer if peer is the session's coordinator (agent_handlers.c).
void agent_dispatch (agent_t *self, zframe_t *peer, bool from_peer, int64_t received_ns);

#endif
