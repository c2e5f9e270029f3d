/*  agent/hostinfo.c: host identity for WELCOME; see hostinfo.h. */
#include "hostinfo.h"

#include "../proto/msg.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

struct _hostinfo_t {
    char hostname [MSG_HOST_MAX + 1];   //  uname nodename
    char kernel [MSG_HOST_MAX + 1];     //  uname release
    char boot_id [MSG_BOOT_ID_MAX + 2]; //  its line, newline and all, then cut
    uint32_t cpus;                      //  online CPUs
    uint64_t mem_bytes;                 //  MemTotal
};

//  MemTotal in bytes from a meminfo file, 0 if it cannot be read.
static uint64_t
s_mem_total_bytes (const char *meminfo_path)
{
    FILE *file = fopen (meminfo_path, "re");
    if (!file)
        return 0;
    uint64_t mem_bytes = 0;
    char line [256];
    while (fgets (line, sizeof (line), file)) {
        uint64_t kib;
        if (sscanf (line, "MemTotal: %" SCNu64 " kB", &kib) == 1) {
            mem_bytes = kib * 1024;
            break;
        }
    }
    fclose (file);
    return mem_bytes;
}

//  Read host name, kernel release, CPUs and memory.
hostinfo_t *
hostinfo_new (void)
{
    hostinfo_t *self = calloc (1, sizeof (hostinfo_t));
    if (!self)
        return NULL;
    struct utsname names;
    if (uname (&names) == 0) {
        msg_strcpy (self->hostname, names.nodename, sizeof (self->hostname));
        msg_strcpy (self->kernel, names.release, sizeof (self->kernel));
    }
    long cpus = sysconf (_SC_NPROCESSORS_ONLN);
    self->cpus = cpus > 0? (uint32_t) cpus: 0;
    self->mem_bytes = s_mem_total_bytes ("/proc/meminfo");
    //  Agents on one machine (containers, a test fleet on loopback) share
    //  it: the console adds their streams up against the one host's
    //  counters. Without /proc, "": never the same as another's.
    FILE *file = fopen ("/proc/sys/kernel/random/boot_id", "r");
    if (file) {
        if (fgets (self->boot_id, sizeof self->boot_id, file))
            self->boot_id [strcspn (self->boot_id, "\n")] = 0;
        fclose (file);
    }
    return self;
}

//  Free the host information.
void
hostinfo_destroy (hostinfo_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    free (*self_p);
    *self_p = NULL;
}

//  uname nodename.
const char *
hostinfo_hostname (hostinfo_t *self)
{
    return self->hostname;
}

//  The kernel's boot id, "" if unknown.
const char *
hostinfo_boot_id (hostinfo_t *self)
{
    return self->boot_id;
}

//  uname release.
const char *
hostinfo_kernel (hostinfo_t *self)
{
    return self->kernel;
}

//  Online CPUs.
uint32_t
hostinfo_cpus (hostinfo_t *self)
{
    return self->cpus;
}

//  MemTotal in bytes.
uint64_t
hostinfo_mem_bytes (hostinfo_t *self)
{
    return self->mem_bytes;
}
