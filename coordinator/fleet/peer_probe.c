/*  coordinator/fleet/peer_probe.c: does a peer speak ZMTP; see
    peer_probe.h.
*/
#include "peer_probe.h"
#include "../../proto/printable.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

//  The bytes of a ZMTP 2 and 3 greeting's signature that are fixed.
#define S_SIGNATURE_SIZE 10

//  Wait until fd is ready for events or timeout_ms pass: 1 ready, 0 not.
static int
s_wait (int fd, short events, int timeout_ms)
{
    struct pollfd item = { .fd = fd, .events = events };
    int rc;
    do
        rc = poll (&item, 1, timeout_ms);
    while (rc < 0 && errno == EINTR);
    return rc > 0? 1: 0;
}

//  A non-blocking stream socket connected to endpoint (an ipc:// one
//  may still be connecting), or -1 with why in *error: the errno the
//  connection failed with (ECONNREFUSED, EHOSTUNREACH, ...), ETIMEDOUT
//  if nothing answered within timeout_ms, or 0 if that cannot be told
//  (another transport, a host name that does not resolve).
static int
s_connect (const char *endpoint, int timeout_ms, int *error)
{
    int fd = -1;
    *error = 0;
    if (strncmp (endpoint, "ipc://", 6) == 0) {
        struct sockaddr_un address = { .sun_family = AF_UNIX };
        if (strlen (endpoint + 6) >= sizeof address.sun_path)
            return -1;
        strcpy (address.sun_path, endpoint + 6);
        fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd >= 0 && connect (fd, (struct sockaddr *) &address, sizeof address) < 0
        &&  errno != EINPROGRESS) {
            *error = errno;
            close (fd);
            return -1;
        }
        return fd;
    }
    if (strncmp (endpoint, "tcp://", 6) != 0)
        return -1;
    char host [256];
    const char *colon = strrchr (endpoint + 6, ':');
    if (!colon || (size_t) (colon - endpoint - 6) >= sizeof host)
        return -1;
    snprintf (host, sizeof host, "%.*s", (int) (colon - endpoint - 6), endpoint + 6);
    if (host [0] == '[' && host [strlen (host) - 1] == ']') {
        memmove (host, host + 1, strlen (host));
        host [strlen (host) - 1] = 0;
    }
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *found;
    if (getaddrinfo (host, colon + 1, &hints, &found) != 0)
        return -1;
    fd = socket (found->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd >= 0 && connect (fd, found->ai_addr, found->ai_addrlen) < 0 && errno != EINPROGRESS) {
        *error = errno;
        close (fd);
        fd = -1;
    }
    freeaddrinfo (found);
    socklen_t length = sizeof *error;
    if (fd >= 0 && !s_wait (fd, POLLOUT, timeout_ms))
        *error = ETIMEDOUT;
    else
    if (fd >= 0 && getsockopt (fd, SOL_SOCKET, SO_ERROR, error, &length) < 0)
        *error = 0;
    if (fd >= 0 && *error) {
        close (fd);
        fd = -1;
    }
    return fd;
}

int
peer_probe_reach (const char *endpoint, int timeout_ms)
{
    int error;
    int fd = s_connect (endpoint, timeout_ms, &error);
    if (fd >= 0) {
        close (fd);
        return 0;
    }
    return error? error: -1;
}

int
peer_probe_zmtp (const char *endpoint, int timeout_ms, char *sent, size_t sentlen)
{
    int error;
    int fd = s_connect (endpoint, timeout_ms, &error);
    if (fd < 0)
        return -1;
    unsigned char bytes [S_SIGNATURE_SIZE];
    size_t got = 0;
    while (got < sizeof bytes && s_wait (fd, POLLIN, timeout_ms)) {
        ssize_t count = recv (fd, bytes + got, sizeof bytes - got, 0);
        if (count <= 0)
            break;
        got += (size_t) count;
    }
    close (fd);
    if (got == sizeof bytes && bytes [0] == 0xFF && bytes [S_SIGNATURE_SIZE - 1] == 0x7F)
        return 1;
    if (got == 0)
        snprintf (sent, sentlen, "nothing");
    else {
        char shown [S_SIGNATURE_SIZE * 4 + 8];
        printable_copy ((const char *) bytes, got, shown, sizeof shown);
        snprintf (sent, sentlen, "'%s'", shown);
    }
    return 0;
}
