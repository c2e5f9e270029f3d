/*  agent/procstat.h: what the kernel says about a host, read from /proc.

    A snapshot holds the counters of one instant: CPU time by kind from
    /proc/stat, Dirty and Writeback from /proc/meminfo, sectors per block
    device from /proc/diskstats, and NFS client and server counters from
    /proc/net/rpc/nfs and /proc/net/rpc/nfsd where they exist. Two
    snapshots make a window: CPU percentages, bytes read and written per
    device, NFS operations.

    The parsers take text, not files, so that the unit tests can feed them
    copies of /proc from other kernels (more or fewer columns, devices
    that come and go); procstat_read reads a directory laid out like /proc.
*/
#ifndef IOFLEET_PROCSTAT_H
#define IOFLEET_PROCSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROCSTAT_DISKS_MAX    64        //  block devices kept per snapshot
#define PROCSTAT_DISK_NAME    32        //  longest device name kept

//  Aggregate CPU time of the host ("cpu" line), in clock ticks.
typedef struct {
    uint64_t user;                      //  user, including nice
    uint64_t system;                    //  system, irq and softirq
    uint64_t idle;
    uint64_t iowait;
    uint64_t steal;                     //  taken by the hypervisor
    uint64_t total;                     //  every column, guest time excluded
} procstat_cpu_t;

//  Memory figures, in bytes.
typedef struct {
    uint64_t total_bytes;               //  MemTotal
    uint64_t dirty_bytes;               //  Dirty: written to the page cache, not yet to disk
    uint64_t writeback_bytes;           //  Writeback: on its way to disk
} procstat_mem_t;

//  One block device's cumulative counters.
typedef struct {
    char name [PROCSTAT_DISK_NAME];     //  vda, nvme0n1, sdb1
    uint64_t sectors_read;              //  512-byte sectors, whatever the device's block size
    uint64_t sectors_written;
    uint64_t reads;                     //  completed requests
    uint64_t writes;
} procstat_disk_t;

//  NFS operation counters of one side (client or server), NFSv3 and v4
//  reads and writes added up; zero when the side is absent.
typedef struct {
    bool present;                       //  the /proc file exists
    uint64_t rpc_calls;                 //  RPC calls made (client) or received (server)
    uint64_t read_ops;                  //  READ operations
    uint64_t write_ops;                 //  WRITE operations
    uint64_t read_bytes;                //  server only: the "io" line
    uint64_t written_bytes;             //  server only
} procstat_nfs_t;

//  Everything read at one instant.
typedef struct {
    int64_t t_ns;                       //  CLOCK_MONOTONIC when read
    procstat_cpu_t cpu;
    procstat_mem_t mem;
    procstat_disk_t disks [PROCSTAT_DISKS_MAX];
    size_t disk_count;
    procstat_nfs_t nfs_client;
    procstat_nfs_t nfsd;
} procstat_t;

//  CPU use over a window, in percent of all CPU time of the host.
typedef struct {
    double usr_pct;
    double sys_pct;
    double iowait_pct;
    double idle_pct;
    double steal_pct;
} procstat_cpu_pct_t;

//  Parse the "cpu" line of /proc/stat. Kernels before 2.6.33 have fewer
//  columns, later ones may add more: missing columns count as zero and
//  extra ones are ignored. Returns 0, or -1 with a reason in err.
int procstat_parse_cpu (const char *text, procstat_cpu_t *cpu, char *err, size_t errlen);

//  Parse MemTotal, Dirty and Writeback of /proc/meminfo. Returns 0, or -1
//  if MemTotal is missing.
int procstat_parse_meminfo (const char *text, procstat_mem_t *mem, char *err, size_t errlen);

//  Parse /proc/diskstats (14, 18 or 20 columns) into disks[], keeping at
//  most `capacity`, skipping ram and loop devices that never did I/O.
//  Returns the number kept, or -1 with a reason in err for a line that is
//  not diskstats at all.
int procstat_parse_diskstats (const char *text, procstat_disk_t *disks, size_t capacity,
                              char *err, size_t errlen);

//  Parse /proc/net/rpc/nfs (server = false) or /proc/net/rpc/nfsd
//  (server = true). Sets present. Returns 0, or -1 with a reason.
int procstat_parse_nfs (const char *text, bool server, procstat_nfs_t *nfs,
                        char *err, size_t errlen);

//  Read a snapshot from proc_root ("/proc" or a directory of copies).
//  stat, meminfo and diskstats are required; the NFS files are optional.
//  Returns 0, or -1 with "read(/proc/stat): reason" in err.
int procstat_read (const char *proc_root, procstat_t *snapshot, char *err, size_t errlen);

//  Write back every dirty page and drop the clean ones, dentries and
//  inodes (sync, then 3 into proc_root/sys/vm/drop_caches): a run that
//  starts with a cold cache, like the first one after a boot. Needs root.
//  Returns 0, or -1 with "open(/proc/sys/vm/drop_caches): Permission
//  denied" in err.
int procstat_drop_caches (const char *proc_root, char *err, size_t errlen);

//  CPU percentages between two snapshots of the cpu line.
procstat_cpu_pct_t procstat_cpu_window (const procstat_cpu_t *before, const procstat_cpu_t *after);

//  Bytes read and written by device `name` between two snapshots. A
//  device absent before (it appeared during the window) counts from zero;
//  one absent after counts nothing. Returns false if absent after.
bool procstat_disk_window (const procstat_t *before, const procstat_t *after, const char *name,
                           uint64_t *read_bytes, uint64_t *written_bytes);

#endif
