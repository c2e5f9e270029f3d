/*  agent/agent.h: the iofleet agent daemon.

    The agent binds a ZMQ_ROUTER socket and serves one coordinator at a
    time (the session), following the conversation in proto/msg.h: HELLO,
    PING, PREPARE, START, SAMPLE and RESULT, ABORT, BYE. One loop thread
    does everything but the timed part: it polls the socket, an eventfd
    the stream threads write to when they end, and (in-process) an actor
    pipe, with a timeout set to the next deadline (the session's lease,
    looked at eight times a lease; the next sample). It never sleeps
    otherwise, and costs nothing while idle.

    Logs go to stderr, one key=value line per event, each starting with
    agent=NAME, e.g. `agent=a1 event=bound endpoint=tcp://127.0.0.1:49152`.
*/
#ifndef IOFLEET_AGENT_H
#define IOFLEET_AGENT_H

#include "listen.h"
#include "../proto/keys.h"

#include <czmq.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct _agent_t agent_t;

//  How to build an agent.
typedef struct {
    const char *bind_endpoint;      //  ZeroMQ endpoint, "tcp://*:7654", "tcp://127.0.0.1:*"
    const char *name;               //  agent name; NULL or "" for the host name
    const char *const *roots;       //  directories the agent may write under
    size_t root_count;              //  at least one
    const char *const *nfs_hosts;   //  servers nfs:// sources may come from ("*": any)
    size_t nfs_host_count;
    bool insecure;                  //  --insecure: allowed to serve a non-loopback address
    const char *keys_dir;           //  --keys DIR: CURVE with these keys (proto/keys.h), or NULL
    bool verbose;                   //  also log pings, samples and other chatter
    uint64_t max_memory_bytes;      //  --max-memory: bound on one test's buffers, 0 for MemTotal / 4
    int64_t max_lease_ns;           //  --max-lease: the longest lease granted, 0 for 60 s
} agent_config_t;

//  Build an agent: check the roots, bind the socket, log event=bound.
//  With config->keys_dir the socket is a CURVE server that lets in only
//  the coordinator keys found there; without it the agent runs without
//  encryption, and a non-loopback bind is refused unless config->insecure. Returns NULL with a reason in err naming what failed
//  ("root /srv/x: No such file or directory", "bind(tcp://...): ...").
agent_t *agent_new (const agent_config_t *config, char *err, size_t errlen);

//  Destroy the agent: stop and clean up any test, close the socket. Safe
//  on NULL, NULLs the caller's pointer.
void agent_destroy (agent_t **self_p);

//  The endpoint actually bound, e.g. "tcp://127.0.0.1:49152" (borrowed).
const char *agent_endpoint (agent_t *self);

//  The agent's name.
const char *agent_name (agent_t *self);

//  Serve until SIGINT or SIGTERM; then stop the streams and remove the
//  files of the current test (unless keep). Returns 0.
int agent_run (agent_t *self);

//  The same loop as a CZMQ actor, for running an agent in-process:
//  zactor_new (agent_actor, agent). It ends on $TERM (zactor_destroy),
//  cleaning up like agent_run; destroy the agent afterwards.
void agent_actor (zsock_t *pipe, void *args);

#endif
