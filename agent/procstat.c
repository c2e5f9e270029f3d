/*  agent/procstat.c: host counters from /proc; see procstat.h. */
#include "procstat.h"
#include "../proto/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//  NFSv3 procedure numbers (RFC 1813) and NFSv4 operation numbers (RFC
//  7530) of READ and WRITE: the columns counted in the proc3, proc4 and
//  proc4ops lines, after their leading count.
#define NFS3_READ       6
#define NFS3_WRITE      7
#define NFS4_CLIENT_READ    1       //  the client's proc4 list starts null, read, write
#define NFS4_CLIENT_WRITE   2
#define NFS4_OP_READ    25
#define NFS4_OP_WRITE   38

//  The start of the line whose first word is `key`, or NULL.
static const char *
s_find_line (const char *text, const char *key)
{
    size_t length = strlen (key);
    for (const char *line = text; line && *line; ) {
        if (strncmp (line, key, length) == 0 && (line [length] == ' ' || line [length] == '\t'))
            return line + length;
        line = strchr (line, '\n');
        if (line)
            line++;
    }
    return NULL;
}

//  Read up to `capacity` unsigned numbers from the rest of one line.
//  Returns how many were read.
static size_t
s_numbers (const char *line, uint64_t *values, size_t capacity)
{
    size_t count = 0;
    while (count < capacity) {
        while (*line == ' ' || *line == '\t')
            line++;
        if (*line < '0' || *line > '9')
            break;
        char *end;
        errno = 0;
        values [count] = strtoull (line, &end, 10);
        if (errno || end == line)
            break;
        count++;
        line = end;
    }
    return count;
}

int
procstat_parse_cpu (const char *text, procstat_cpu_t *cpu, char *err, size_t errlen)
{
    memset (cpu, 0, sizeof *cpu);
    const char *line = s_find_line (text, "cpu");
    uint64_t v [10] = { 0 };
    //  user nice system idle [iowait irq softirq steal guest guest_nice]
    if (!line || s_numbers (line, v, 10) < 4) {
        snprintf (err, errlen, "no 'cpu' line with at least four columns");
        return -1;
    }
    cpu->user = v [0] + v [1];
    cpu->system = v [2] + v [5] + v [6];
    cpu->idle = v [3];
    cpu->iowait = v [4];
    cpu->steal = v [7];
    //  guest and guest_nice are already inside user and nice.
    cpu->total = cpu->user + cpu->system + cpu->idle + cpu->iowait + cpu->steal;
    return 0;
}

//  The value of a "Key:   123 kB" line of meminfo, in bytes; -1 if absent.
static int
s_meminfo_value (const char *text, const char *key, uint64_t *bytes)
{
    char label [64];
    snprintf (label, sizeof label, "%s:", key);
    const char *line = s_find_line (text, label);
    uint64_t kib;
    if (!line || s_numbers (line, &kib, 1) != 1)
        return -1;
    *bytes = kib * 1024;
    return 0;
}

int
procstat_parse_meminfo (const char *text, procstat_mem_t *mem, char *err, size_t errlen)
{
    memset (mem, 0, sizeof *mem);
    if (s_meminfo_value (text, "MemTotal", &mem->total_bytes)) {
        snprintf (err, errlen, "no MemTotal line");
        return -1;
    }
    //  Both exist since 2.6; a kernel without them reports nothing dirty.
    s_meminfo_value (text, "Dirty", &mem->dirty_bytes);
    s_meminfo_value (text, "Writeback", &mem->writeback_bytes);
    return 0;
}

int
procstat_parse_diskstats (const char *text, procstat_disk_t *disks, size_t capacity,
                          char *err, size_t errlen)
{
    size_t count = 0;
    int line_number = 0;
    for (const char *line = text; line && *line; ) {
        const char *next = strchr (line, '\n');
        line_number++;
        unsigned major, minor;
        char name [PROCSTAT_DISK_NAME];
        int consumed = 0;
        if (sscanf (line, " %u %u %31s%n", &major, &minor, name, &consumed) != 3) {
            size_t length = next? (size_t) (next - line): strlen (line);
            if (strspn (line, " \t\r") < length) {
                snprintf (err, errlen, "line %d is not 'major minor name counters'", line_number);
                return -1;
            }
        }
        else {
            uint64_t v [11];
            size_t fields = s_numbers (line + consumed, v, 11);
            if (fields < 7) {
                snprintf (err, errlen, "line %d (%s): %zu counters, want 11 or more",
                          line_number, name, fields);
                return -1;
            }
            bool idle_virtual = (strncmp (name, "ram", 3) == 0 || strncmp (name, "loop", 4) == 0)
                             && v [0] == 0 && v [4] == 0;
            if (!idle_virtual && count < capacity) {
                procstat_disk_t *disk = &disks [count++];
                snprintf (disk->name, sizeof disk->name, "%s", name);
                disk->reads = v [0];
                disk->sectors_read = v [2];
                disk->writes = v [4];
                disk->sectors_written = v [6];
            }
        }
        line = next? next + 1: NULL;
    }
    return (int) count;
}

//  Column `index` (after the leading count) of a procN line, or 0.
static uint64_t
s_proc_column (const char *text, const char *key, size_t index)
{
    const char *line = s_find_line (text, key);
    uint64_t v [80];
    if (!line)
        return 0;
    size_t count = s_numbers (line, v, sizeof v / sizeof v [0]);
    //  v[0] is the number of columns that follow.
    return index + 1 < count? v [index + 1]: 0;
}

int
procstat_parse_nfs (const char *text, bool server, procstat_nfs_t *nfs, char *err, size_t errlen)
{
    memset (nfs, 0, sizeof *nfs);
    const char *rpc = s_find_line (text, "rpc");
    if (!rpc || s_numbers (rpc, &nfs->rpc_calls, 1) != 1) {
        snprintf (err, errlen, "no 'rpc' line");
        return -1;
    }
    nfs->present = true;
    nfs->read_ops = s_proc_column (text, "proc3", NFS3_READ);
    nfs->write_ops = s_proc_column (text, "proc3", NFS3_WRITE);
    if (server) {
        nfs->read_ops += s_proc_column (text, "proc4ops", NFS4_OP_READ);
        nfs->write_ops += s_proc_column (text, "proc4ops", NFS4_OP_WRITE);
        const char *io = s_find_line (text, "io");
        uint64_t v [2] = { 0, 0 };
        if (io && s_numbers (io, v, 2) == 2) {
            nfs->read_bytes = v [0];
            nfs->written_bytes = v [1];
        }
    }
    else {
        nfs->read_ops += s_proc_column (text, "proc4", NFS4_CLIENT_READ);
        nfs->write_ops += s_proc_column (text, "proc4", NFS4_CLIENT_WRITE);
    }
    return 0;
}

//  Read a whole small file into a NUL-terminated buffer the caller frees.
static char *
s_slurp (const char *root, const char *name, char *err, size_t errlen)
{
    char path [1024];
    snprintf (path, sizeof path, "%s/%s", root, name);
    FILE *file = fopen (path, "r");
    if (!file) {
        snprintf (err, errlen, "open(%s): %s", path, strerror (errno));
        return NULL;
    }
    size_t capacity = 16384, size = 0;
    char *text = malloc (capacity);
    while (text) {
        size += fread (text + size, 1, capacity - size - 1, file);
        if (size < capacity - 1)
            break;
        char *bigger = realloc (text, capacity * 2);
        if (!bigger) {
            free (text);
            text = NULL;
            break;
        }
        text = bigger;
        capacity *= 2;
    }
    if (text)
        text [size] = '\0';
    else
        snprintf (err, errlen, "read(%s): out of memory", path);
    fclose (file);
    return text;
}

int
procstat_read (const char *proc_root, procstat_t *snapshot, char *err, size_t errlen)
{
    memset (snapshot, 0, sizeof *snapshot);
    snapshot->t_ns = clock_now_ns ();
    int rc = -1;
    char reason [256];
    char *meminfo = NULL, *diskstats = NULL;
    char *stat = s_slurp (proc_root, "stat", err, errlen);
    if (stat)
        meminfo = s_slurp (proc_root, "meminfo", err, errlen);
    if (meminfo)
        diskstats = s_slurp (proc_root, "diskstats", err, errlen);
    if (!diskstats)
        goto done;
    if (procstat_parse_cpu (stat, &snapshot->cpu, reason, sizeof reason)) {
        snprintf (err, errlen, "%s/stat: %s", proc_root, reason);
        goto done;
    }
    if (procstat_parse_meminfo (meminfo, &snapshot->mem, reason, sizeof reason)) {
        snprintf (err, errlen, "%s/meminfo: %s", proc_root, reason);
        goto done;
    }
    int disks = procstat_parse_diskstats (diskstats, snapshot->disks, PROCSTAT_DISKS_MAX,
                                          reason, sizeof reason);
    if (disks < 0) {
        snprintf (err, errlen, "%s/diskstats: %s", proc_root, reason);
        goto done;
    }
    snapshot->disk_count = (size_t) disks;

    //  NFS counters exist only where the modules are loaded.
    char ignored [256];
    char *nfs = s_slurp (proc_root, "net/rpc/nfs", ignored, sizeof ignored);
    if (nfs)
        procstat_parse_nfs (nfs, false, &snapshot->nfs_client, ignored, sizeof ignored);
    free (nfs);
    char *nfsd = s_slurp (proc_root, "net/rpc/nfsd", ignored, sizeof ignored);
    if (nfsd)
        procstat_parse_nfs (nfsd, true, &snapshot->nfsd, ignored, sizeof ignored);
    free (nfsd);
    rc = 0;

done:
    free (stat);
    free (meminfo);
    free (diskstats);
    return rc;
}

int
procstat_drop_caches (const char *proc_root, char *err, size_t errlen)
{
    char path [512];
    snprintf (path, sizeof path, "%s/sys/vm/drop_caches", proc_root);
    int fd = open (path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf (err, errlen, "open(%s): %s", path, strerror (errno));
        return -1;
    }
    //  Dirty pages cannot be dropped: write them first.
    sync ();
    int rc = 0;
    if (write (fd, "3\n", 2) != 2) {
        snprintf (err, errlen, "write(%s): %s", path, strerror (errno));
        rc = -1;
    }
    close (fd);
    return rc;
}

//  Share of part in whole, in percent; 0 for an empty window.
static double
s_pct (uint64_t part, uint64_t whole)
{
    return whole? 100.0 * (double) part / (double) whole: 0.0;
}

//  after - before, or 0 if a counter went backwards (a CPU went offline,
//  a counter wrapped): a window never shows negative work.
static uint64_t
s_delta (uint64_t before, uint64_t after)
{
    return after >= before? after - before: 0;
}

procstat_cpu_pct_t
procstat_cpu_window (const procstat_cpu_t *before, const procstat_cpu_t *after)
{
    uint64_t total = s_delta (before->total, after->total);
    procstat_cpu_pct_t pct = {
        .usr_pct = s_pct (s_delta (before->user, after->user), total),
        .sys_pct = s_pct (s_delta (before->system, after->system), total),
        .iowait_pct = s_pct (s_delta (before->iowait, after->iowait), total),
        .idle_pct = s_pct (s_delta (before->idle, after->idle), total),
        .steal_pct = s_pct (s_delta (before->steal, after->steal), total)
    };
    return pct;
}

//  The device `name` in a snapshot, or NULL.
static const procstat_disk_t *
s_disk (const procstat_t *snapshot, const char *name)
{
    for (size_t i = 0; i < snapshot->disk_count; i++)
        if (strcmp (snapshot->disks [i].name, name) == 0)
            return &snapshot->disks [i];
    return NULL;
}

bool
procstat_disk_window (const procstat_t *before, const procstat_t *after, const char *name,
                      uint64_t *read_bytes, uint64_t *written_bytes)
{
    *read_bytes = *written_bytes = 0;
    const procstat_disk_t *end = s_disk (after, name);
    if (!end)
        return false;
    const procstat_disk_t *start = s_disk (before, name);
    procstat_disk_t zero = { .sectors_read = 0 };
    if (!start)
        start = &zero;
    *read_bytes = s_delta (start->sectors_read, end->sectors_read) * 512;
    *written_bytes = s_delta (start->sectors_written, end->sectors_written) * 512;
    return true;
}
