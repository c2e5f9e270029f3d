/*  agent/notify.h: tell the service manager how the agent is doing.

    Under systemd with Type=notify, $NOTIFY_SOCKET names a datagram
    socket; the agent sends "READY=1" once it listens, so that the unit
    becomes active only then, and "STATUS=..." lines that `systemctl
    status` shows. Without $NOTIFY_SOCKET nothing is sent. The protocol is
    a few lines of text, so libsystemd is not needed for it.
*/
#ifndef IOFLEET_AGENT_NOTIFY_H
#define IOFLEET_AGENT_NOTIFY_H

//  Send one notification (printf format, lines such as "READY=1\nSTATUS=
//  serving"). Returns 0, or -1 if there is no socket or sending failed;
//  either way the agent goes on.
int agent_notify (const char *format, ...)
    __attribute__ ((format (printf, 1, 2)));

#endif
