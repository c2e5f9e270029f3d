/*  agent/auth.h: who may talk to the agent when it runs with --keys.

    The agent's ROUTER is a CURVE server. libzmq asks a ZAP handler
    (RFC 27, the socket bound at inproc://zeromq.zap.01) about every
    client that completes the CURVE handshake; this actor is that
    handler. It accepts a client whose public key is one of the
    coordinator certificates in the keys directory, refuses every other,
    and logs both, one key=value line each:

        agent=a1 event=refused-key key=<Z85 public key> address=127.0.0.1
        agent=a1 event=accepted-key key=<Z85> coordinator=console1 address=...

    It plays the part zauth plays in CZMQ, with two differences that
    matter here: the refused key itself appears in the agent's log, and
    a keys directory holding two copies of one certificate is not fatal.
    It must run before the socket binds: without a handler libzmq lets
    every CURVE client in.
*/
#ifndef IOFLEET_AUTH_H
#define IOFLEET_AUTH_H

#include "../proto/keys.h"

#include <czmq.h>

//  Start the handler for keys (borrowed: it must outlive the actor);
//  agent_name prefixes its log lines. Returns the actor, or NULL with a
//  reason in err (e.g. another handler already bound in this process).
zactor_t *auth_new (keys_t *keys, const char *agent_name, char *err, size_t errlen);

//  Stop the handler; safe on NULL, NULLs the caller's pointer.
void auth_destroy (zactor_t **self_p);

#endif
