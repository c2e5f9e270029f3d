/*  agent/hostwatch.c: the host's figures over one test; see hostwatch.h. */
#include "hostwatch.h"
#include "procstat.h"
#include "../proto/clock.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

//  How often the settle period looks at Dirty, and how close to its start
//  level it must come: a busy host always has some dirty data of its own.
#define S_SETTLE_POLL_NS    (100 * NS_PER_MSEC)
#define S_SETTLE_SLACK      (8ULL * 1024 * 1024)

typedef enum {
    S_IDLE,                             //  no test
    S_WINDOW,                           //  between the start and the last stream's end
    S_SETTLING                          //  after it, until settled
} s_phase_t;

struct _hostwatch_t {
    char proc_root [256];               //  "/proc" or a directory of copies
    char sys_root [256];                //  "/sys" likewise
    s_phase_t phase;
    uint32_t test_id;                   //  the test under way
    procstat_t start;                   //  snapshot at the start instant
    procstat_t end;                     //  when the last stream ended
    int64_t settle_deadline_ns;         //  the bound of the settle period
    int64_t next_ns;                    //  next settle poll
};

hostwatch_t *
hostwatch_new (const char *proc_root, const char *sys_root)
{
    hostwatch_t *self = (hostwatch_t *) calloc (1, sizeof (hostwatch_t));
    if (self) {
        snprintf (self->proc_root, sizeof self->proc_root, "%s", proc_root);
        snprintf (self->sys_root, sizeof self->sys_root, "%s", sys_root);
    }
    return self;
}

void
hostwatch_destroy (hostwatch_t **self_p)
{
    if (*self_p) {
        free (*self_p);
        *self_p = NULL;
    }
}

int
hostwatch_begin (hostwatch_t *self, uint32_t test_id, char *err, size_t errlen)
{
    self->phase = S_IDLE;
    if (procstat_read (self->proc_root, &self->start, err, errlen))
        return -1;
    self->test_id = test_id;
    self->phase = S_WINDOW;
    return 0;
}

int
hostwatch_end (hostwatch_t *self, int64_t settle_ns, char *err, size_t errlen)
{
    if (self->phase != S_WINDOW) {
        snprintf (err, errlen, "no window under way");
        return -1;
    }
    if (procstat_read (self->proc_root, &self->end, err, errlen)) {
        self->phase = S_IDLE;
        return -1;
    }
    self->phase = S_SETTLING;
    self->settle_deadline_ns = self->end.t_ns + settle_ns;
    self->next_ns = self->end.t_ns;     //  the first look is now
    return 0;
}

int64_t
hostwatch_next_ns (hostwatch_t *self)
{
    return self->phase == S_SETTLING? self->next_ns: 0;
}

//  A whole, bottom-most disk: in /sys/block and stacked on nothing.
static bool
s_bottom_disk (hostwatch_t *self, const char *name)
{
    char path [512];
    struct stat info;
    snprintf (path, sizeof path, "%s/block/%s", self->sys_root, name);
    if (stat (path, &info) != 0)
        return false;               //  a partition, or gone
    snprintf (path, sizeof path, "%s/block/%s/slaves", self->sys_root, name);
    DIR *slaves = opendir (path);
    if (!slaves)
        return true;
    bool stacked = false;
    struct dirent *entry;
    while (!stacked && (entry = readdir (slaves)))
        stacked = entry->d_name [0] != '.';
    closedir (slaves);
    return !stacked;
}

//  Bytes read and written on bottom disks between two snapshots.
static void
s_disk_bytes (hostwatch_t *self, const procstat_t *before, const procstat_t *after,
              uint64_t *read_bytes, uint64_t *written_bytes)
{
    *read_bytes = *written_bytes = 0;
    for (size_t i = 0; i < after->disk_count; i++) {
        const char *name = after->disks [i].name;
        uint64_t read, written;
        if (s_bottom_disk (self, name)
        &&  procstat_disk_window (before, after, name, &read, &written)) {
            *read_bytes += read;
            *written_bytes += written;
        }
    }
}

int
hostwatch_sample (hostwatch_t *self, msg_monitor_t *sample, char *err, size_t errlen)
{
    procstat_t now;
    if (procstat_read (self->proc_root, &now, err, errlen))
        return -1;
    //  Against an empty snapshot, a window is the counters since boot.
    static const procstat_t boot;
    memset (sample, 0, sizeof *sample);
    sample->t_ns = now.t_ns;
    sample->cpu_total_ticks = now.cpu.total;
    sample->cpu_user_ticks = now.cpu.user;
    sample->cpu_system_ticks = now.cpu.system;
    sample->cpu_iowait_ticks = now.cpu.iowait;
    sample->cpu_idle_ticks = now.cpu.idle;
    sample->dirty_bytes = now.mem.dirty_bytes;
    sample->writeback_bytes = now.mem.writeback_bytes;
    s_disk_bytes (self, &boot, &now, &sample->disk_read_bytes, &sample->disk_written_bytes);
    sample->nfs_read_ops = now.nfs_client.read_ops;
    sample->nfs_write_ops = now.nfs_client.write_ops;
    sample->nfsd_read_ops = now.nfsd.read_ops;
    sample->nfsd_write_ops = now.nfsd.write_ops;
    sample->nfsd_read_bytes = now.nfsd.read_bytes;
    sample->nfsd_written_bytes = now.nfsd.written_bytes;
    return 0;
}

//  after - before, never negative.
static uint64_t
s_delta (uint64_t before, uint64_t after)
{
    return after >= before? after - before: 0;
}

bool
hostwatch_settled (hostwatch_t *self, msg_host_t *host)
{
    if (self->phase != S_SETTLING)
        return false;
    int64_t now_ns = clock_now_ns ();
    if (now_ns < self->next_ns)
        return false;
    procstat_t now;
    char err [256];
    if (procstat_read (self->proc_root, &now, err, sizeof err))
        now = self->end;            //  /proc vanished: settle on what we have
    uint64_t owed = now.mem.dirty_bytes + now.mem.writeback_bytes;
    bool settled = owed <= self->start.mem.dirty_bytes + S_SETTLE_SLACK
                || now_ns >= self->settle_deadline_ns;
    if (!settled) {
        self->next_ns = now_ns + S_SETTLE_POLL_NS;
        return false;
    }

    memset (host, 0, sizeof *host);
    host->test_id = self->test_id;
    host->window_start_ns = self->start.t_ns;
    host->window_end_ns = self->end.t_ns;
    host->settle_end_ns = now.t_ns;
    const procstat_cpu_t *a = &self->start.cpu, *b = &self->end.cpu;
    host->cpu_total_ticks = s_delta (a->total, b->total);
    host->cpu_user_ticks = s_delta (a->user, b->user);
    host->cpu_system_ticks = s_delta (a->system, b->system);
    host->cpu_iowait_ticks = s_delta (a->iowait, b->iowait);
    host->cpu_idle_ticks = s_delta (a->idle, b->idle);
    host->cpu_steal_ticks = s_delta (a->steal, b->steal);
    host->mem_total_bytes = self->start.mem.total_bytes;
    host->dirty_start_bytes = self->start.mem.dirty_bytes;
    host->dirty_end_bytes = self->end.mem.dirty_bytes;
    host->writeback_end_bytes = self->end.mem.writeback_bytes;
    host->dirty_settled_bytes = now.mem.dirty_bytes;
    s_disk_bytes (self, &self->start, &self->end, &host->disk_read_bytes, &host->disk_written_bytes);
    uint64_t settle_read_bytes;
    s_disk_bytes (self, &self->end, &now, &settle_read_bytes, &host->settle_written_bytes);
    host->nfs_read_ops = s_delta (self->start.nfs_client.read_ops, self->end.nfs_client.read_ops);
    host->nfs_write_ops = s_delta (self->start.nfs_client.write_ops, self->end.nfs_client.write_ops);
    host->nfsd_read_ops = s_delta (self->start.nfsd.read_ops, self->end.nfsd.read_ops);
    host->nfsd_write_ops = s_delta (self->start.nfsd.write_ops, self->end.nfsd.write_ops);
    self->phase = S_IDLE;
    return true;
}
