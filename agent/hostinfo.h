/*  agent/hostinfo.h: what the agent tells a coordinator about its host in
    WELCOME: host name, kernel release, online CPUs and memory. Reports
    label result columns with these, so they are read once, at start.
*/
#ifndef IOFLEET_HOSTINFO_H
#define IOFLEET_HOSTINFO_H

#include <stdint.h>

typedef struct _hostinfo_t hostinfo_t;

//  Read the host's identity. Values that cannot be read are "" or 0 (a
//  host without /proc still runs workloads). NULL only if out of memory.
hostinfo_t *hostinfo_new (void);

//  Destroy it; safe on NULL, NULLs the caller's pointer.
void hostinfo_destroy (hostinfo_t **self_p);

//  uname nodename, e.g. "client1".
const char *hostinfo_hostname (hostinfo_t *self);
const char *hostinfo_boot_id (hostinfo_t *self);

//  uname release, e.g. "6.1.0-18-amd64".
const char *hostinfo_kernel (hostinfo_t *self);

//  Online CPUs (sysconf _SC_NPROCESSORS_ONLN).
uint32_t hostinfo_cpus (hostinfo_t *self);

//  MemTotal from /proc/meminfo, in bytes.
uint64_t hostinfo_mem_bytes (hostinfo_t *self);

#endif
