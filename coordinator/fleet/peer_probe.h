/*  coordinator/fleet/peer_probe.h: whether what listens at an endpoint
    speaks ZMTP at all, and what the network answers a connection there.

    A peer that closes the connection during the handshake is, for
    libzmq's monitor, the same whether it is an agent that requires CURVE
    keys or a web server, an SSH daemon or anything else that happens to
    listen there. A ZMTP peer sends its greeting's signature (0xFF, eight
    bytes, 0x7F) as soon as a connection is up; the probe opens one of its
    own and reads what comes.
*/
#ifndef IOFLEET_PEER_PROBE_H
#define IOFLEET_PEER_PROBE_H

#include <stddef.h>

//  Connect to endpoint (tcp://HOST:PORT or ipc://PATH) and read what the
//  peer sends within timeout_ms. Returns 1 if it began a ZMTP greeting;
//  0 if it did not, with what it sent (printable, or "nothing") in sent;
//  -1 if that cannot be told (no connection, another transport).
int peer_probe_zmtp (const char *endpoint, int timeout_ms, char *sent, size_t sentlen);

//  libzmq's monitor says that a connection failed and will be tried
//  again, not why: nothing listening and no route to the host look the
//  same to it. Connect to endpoint once within timeout_ms and return 0
//  if a connection came up, else the errno it failed with (ECONNREFUSED:
//  nothing listens there; EHOSTUNREACH, ENETUNREACH: no route), or
//  ETIMEDOUT if nothing answered in time; -1 if that cannot be told
//  (another transport, a name that does not resolve).
int peer_probe_reach (const char *endpoint, int timeout_ms);

#endif
