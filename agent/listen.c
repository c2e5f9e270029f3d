/*  agent/listen.c: the agent's listening socket and what secures it;
    see listen.h.
*/
#include "listen.h"
#include "../proto/msg.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#define S_HEARTBEAT_IVL_MS      5000        //  ZMTP heartbeats find dead connections
#define S_HEARTBEAT_TIMEOUT_MS  15000

//  True for endpoints only this host can reach.
bool
agent_endpoint_is_loopback (const char *endpoint)
{
    if (strncmp (endpoint, "ipc://", 6) == 0 || strncmp (endpoint, "inproc://", 9) == 0)
        return true;
    if (strncmp (endpoint, "tcp://", 6) != 0)
        return false;
    const char *host = endpoint + 6;
    const char *colon = strrchr (host, ':');
    if (!colon)
        return false;
    size_t host_len = (size_t) (colon - host);
    if ((host_len == 9 && strncmp (host, "localhost", 9) == 0)
    ||  (host_len == 5 && strncmp (host, "[::1]", 5) == 0))
        return true;

    char address [INET_ADDRSTRLEN];
    struct in_addr in;
    if (host_len >= sizeof (address))
        return false;
    memcpy (address, host, host_len);
    address [host_len] = '\0';
    return inet_pton (AF_INET, address, &in) == 1
        && (ntohl (in.s_addr) >> 24) == 127;
}

//  An agent's keys directory: its own pair and at least one coordinator.
keys_t *
agent_keys_new (const char *dir, char *err, size_t errlen)
{
    keys_t *keys = keys_new (dir, err, errlen);
    if (keys && keys_peer_count (keys) == 0) {
        snprintf (err, errlen, "keys %s: no coordinator public key (*" KEYS_PUBLIC_SUFFIX
                  ") beside the agent's own: copy in the NAME" KEYS_PUBLIC_SUFFIX
                  " of every coordinator to trust", dir);
        keys_destroy (&keys);
    }
    return keys;
}

zsock_t *
agent_listen (const char *endpoint, keys_t *keys, char **bound, char *err, size_t errlen)
{
    *bound = NULL;
    zsock_t *router = zsock_new (ZMQ_ROUTER);
    if (!router) {
        snprintf (err, errlen, "zsock_new(ROUTER): %s", zmq_strerror (zmq_errno ()));
        return NULL;
    }
    //  libzmq drops any frame larger than this (and the connection that
    //  sent it) before the decoder sees it.
    zsock_set_maxmsgsize (router, MSG_FRAME_MAX);
    zsock_set_heartbeat_ivl (router, S_HEARTBEAT_IVL_MS);
    zsock_set_heartbeat_timeout (router, S_HEARTBEAT_TIMEOUT_MS);
    //  A coordinator keeps one routing id for its whole run. When it
    //  reconnects (it was paused, the connection dropped) before this
    //  side saw the old connection die, the new connection takes the
    //  id, and the session it holds goes on; what was still queued from
    //  the old one reads as from a stranger, and the coordinator asks
    //  again (it sends its hello again until answered).
    int handover = 1;
    zmq_setsockopt (zsock_resolve (router), ZMQ_ROUTER_HANDOVER, &handover, sizeof handover);
    //  With keys: a CURVE server (encrypted, and every client asked of the
    //  ZAP handler).
    if (keys) {
        zcert_apply (keys_own (keys), router);
        zsock_set_curve_server (router, 1);
        zsock_set_zap_domain (router, "iofleet");
    }
    if (zsock_bind (router, "%s", endpoint) == -1) {
        snprintf (err, errlen, "bind(%s): %s", endpoint, zmq_strerror (zmq_errno ()));
        goto fail;
    }
    *bound = zsock_last_endpoint (router);
    if (!*bound) {
        snprintf (err, errlen, "bind(%s): cannot read the bound endpoint", endpoint);
        goto fail;
    }
    return router;
fail:
    zsock_destroy (&router);
    return NULL;
}
