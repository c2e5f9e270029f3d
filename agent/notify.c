/*  agent/notify.c: service manager notifications; see notify.h. */
#include "notify.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int
agent_notify (const char *format, ...)
{
    const char *path = getenv ("NOTIFY_SOCKET");
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    if (!path || (path [0] != '/' && path [0] != '@')
    ||  strlen (path) >= sizeof (address.sun_path))
        return -1;
    //  "@name" is a socket in the abstract namespace: a leading NUL.
    memcpy (address.sun_path, path, strlen (path));
    if (path [0] == '@')
        address.sun_path [0] = 0;
    socklen_t length = (socklen_t) (offsetof (struct sockaddr_un, sun_path) + strlen (path));

    char text [1024];
    va_list args;
    va_start (args, format);
    vsnprintf (text, sizeof (text), format, args);
    va_end (args);

    int fd = socket (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd == -1)
        return -1;
    ssize_t sent = sendto (fd, text, strlen (text), MSG_NOSIGNAL,
                           (struct sockaddr *) &address, length);
    close (fd);
    return sent == (ssize_t) strlen (text)? 0: -1;
}
