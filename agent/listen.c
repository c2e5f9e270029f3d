/*  agent/listen.c: the agent's listening socket and what secures it;
    see listen.h.
*/
#include "listen.h"
#include "../proto/msg.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#define S_HEARTBEAT_IVL_MS      5000        //  ZMTP heartbeats find dead connections
#define S_HEARTBEAT_TIMEOUT_MS  15000

//  Ports a '*' is drawn from (IANA's dynamic range), and how many draws
//  in use before the first free one is taken.
#define S_PORT_FIRST            49152
#define S_PORT_LAST             65535
#define S_PORT_DRAWS            64

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

//  Bind router to endpoint. A port of '*' is a free one drawn at random
//  from 49152 to 65535, not CZMQ's first free one from 49152 up: that is
//  the port an agent of this host just gave up, and a console still
//  calling the old agent there would reach the new one as if it were its
//  own. (CZMQ's own '!' draws from a generator every process seeds
//  alike.) After S_PORT_DRAWS ports in use, the first free one. Returns
//  what zsock_bind does.
static int
s_bind (zsock_t *router, const char *endpoint)
{
    size_t length = strlen (endpoint);
    if (length < 2 || strcmp (endpoint + length - 2, ":*") != 0)
        return zsock_bind (router, "%s", endpoint);
    for (int draw = 0; draw < S_PORT_DRAWS; draw++) {
        uint16_t random;
        if (getrandom (&random, sizeof random, 0) != (ssize_t) sizeof random)
            break;
        unsigned port = S_PORT_FIRST + random % (S_PORT_LAST - S_PORT_FIRST + 1);
        int rc = zsock_bind (router, "%.*s%u", (int) (length - 1), endpoint, port);
        if (rc != -1 || zmq_errno () != EADDRINUSE)
            return rc;
    }
    return zsock_bind (router, "%s", endpoint);
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
    if (s_bind (router, endpoint) == -1) {
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
