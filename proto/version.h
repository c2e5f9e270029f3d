/*  proto/version.h: the program and protocol versions, shared by both sides.

    The protocol version changes whenever a message changes in a way an
    older peer cannot ignore (a field removed, a meaning changed). Adding a
    map key does not change it: decoders ignore keys they do not know.
*/
#ifndef IOFLEET_VERSION_H
#define IOFLEET_VERSION_H

#define IOFLEET_VERSION "0.1.0"
#define IOFLEET_PROTOCOL_VERSION 9

#endif
