/*  agent/listen.h: the agent's listening socket and what secures it.
    A ROUTER bound to --bind, CURVE with the keys directory or plain
    where that is allowed (loopback, or --insecure).
*/
#ifndef IOFLEET_AGENT_LISTEN_H
#define IOFLEET_AGENT_LISTEN_H

#include "../proto/keys.h"

#include <czmq.h>
#include <stdbool.h>
#include <stddef.h>

//  True for endpoints only this host can reach: tcp:// on 127.x.x.x,
//  localhost or [::1], and ipc:// or inproc://.
bool agent_endpoint_is_loopback (const char *endpoint);

//  Load an agent's keys directory (proto/keys.h) and check that it
//  trusts at least one coordinator. Returns NULL with a reason in err.
keys_t *agent_keys_new (const char *dir, char *err, size_t errlen);

//  The ROUTER bound to endpoint: a CURVE server with keys (the ZAP
//  handler must run already), plain without; frames past the protocol's
//  bound dropped by libzmq, ZMTP heartbeats on. *bound gets the endpoint
//  as bound (a port for "*"), for the caller to free. NULL with err.
zsock_t *agent_listen (const char *endpoint, keys_t *keys, char **bound,
                       char *err, size_t errlen);

#endif
