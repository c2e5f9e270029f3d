/*  tests/bench/delayfs.c: a file system whose every read and write takes
    the same time, for tests/bench/latency.sh.

    usage: delayfs DELAY_US SIZE_MB MOUNTPOINT [FUSE OPTIONS]

    Every name at its top is a file of SIZE_MB megabytes (it lists one,
    data): reads return zeros, writes are taken and forgotten. Each request is answered DELAY_US
    after the file system got it, to a microsecond or so: it sleeps until
    shortly before, then spins. Files are opened direct_io, so that every
    read and write of a program reaches it, cached or not.

    With DELAYFS_WINDOW=AFTER_MS:FOR_MS in its environment only the
    requests that arrive from AFTER_MS after its first request, for
    FOR_MS, are held; the others are answered at once: a host that is
    slow for a while, for tests/t0530-latency-tail.sh.

    A latency known in advance is what two tools can be compared on to
    the percent: on a real disk two runs a minute apart differ by more
    than the histograms' resolution, here they differ by the scheduling
    of a few wakeups.
*/
#define FUSE_USE_VERSION 31
#include <fuse.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#define S_SPIN_NS       100000      //  the end of the wait is spun, not slept
#define S_LISTED        "data"      //  the name readdir gives

static int64_t s_delay_ns;          //  the time each request takes
static int64_t s_after_ns = -1;     //  DELAYFS_WINDOW: the window opens this long
                                    //  after the first request; -1: always held
static int64_t s_for_ns;            //  and stays open this long
static _Atomic int64_t s_first_ns;  //  when the first request came, 0 before
static off_t s_size;                //  bytes in each file

//  A name at the top: a file.
static int
s_is_file (const char *path)
{
    return path [0] == '/' && path [1] && !strchr (path + 1, '/');
}

//  The monotonic clock in nanoseconds.
static int64_t
s_now_ns (void)
{
    struct timespec ts;
    clock_gettime (CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

//  Wait until s_delay_ns after begin_ns.
static void
s_hold (int64_t begin_ns)
{
    if (s_after_ns >= 0) {
        int64_t none = 0;
        atomic_compare_exchange_strong (&s_first_ns, &none, begin_ns);
        int64_t opens_ns = atomic_load (&s_first_ns) + s_after_ns;
        if (begin_ns < opens_ns || begin_ns >= opens_ns + s_for_ns)
            return;
    }
    int64_t until_ns = begin_ns + s_delay_ns;
    int64_t sleep_ns = until_ns - S_SPIN_NS;
    if (sleep_ns > s_now_ns ()) {
        struct timespec ts = { .tv_sec = sleep_ns / 1000000000, .tv_nsec = sleep_ns % 1000000000 };
        while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
            ;
    }
    while (s_now_ns () < until_ns)
        ;
}

static int
s_getattr (const char *path, struct stat *st, struct fuse_file_info *fi)
{
    (void) fi;
    memset (st, 0, sizeof (*st));
    if (strcmp (path, "/") == 0) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
        return 0;
    }
    if (s_is_file (path)) {
        st->st_mode = S_IFREG | 0644;
        st->st_nlink = 1;
        st->st_size = s_size;
        st->st_blksize = 4096;
        st->st_blocks = s_size / 512;
        return 0;
    }
    return -ENOENT;
}

static int
s_readdir (const char *path, void *buf, fuse_fill_dir_t fill, off_t offset,
           struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    (void) offset;
    (void) fi;
    (void) flags;
    if (strcmp (path, "/") != 0)
        return -ENOENT;
    fill (buf, ".", NULL, 0, 0);
    fill (buf, "..", NULL, 0, 0);
    fill (buf, S_LISTED, NULL, 0, 0);
    return 0;
}

static int
s_open (const char *path, struct fuse_file_info *fi)
{
    if (!s_is_file (path))
        return -ENOENT;
    fi->direct_io = 1;
    return 0;
}

static int
s_read (const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi)
{
    (void) path;
    (void) fi;
    int64_t begin_ns = s_now_ns ();
    size_t count = offset >= s_size? 0: (size_t) (s_size - offset) < size? (size_t) (s_size - offset): size;
    memset (buf, 0, count);
    s_hold (begin_ns);
    return (int) count;
}

static int
s_write (const char *path, const char *buf, size_t size, off_t offset, struct fuse_file_info *fi)
{
    (void) path;
    (void) buf;
    (void) offset;
    (void) fi;
    s_hold (s_now_ns ());
    return (int) size;
}

static int
s_statfs (const char *path, struct statvfs *st)
{
    (void) path;
    memset (st, 0, sizeof (*st));
    st->f_bsize = st->f_frsize = 4096;
    st->f_blocks = (fsblkcnt_t) (s_size / 4096) * 2;
    st->f_bfree = st->f_bavail = (fsblkcnt_t) (s_size / 4096);
    st->f_namemax = 255;
    return 0;
}

static const struct fuse_operations s_operations = {
    .getattr = s_getattr,
    .readdir = s_readdir,
    .open = s_open,
    .read = s_read,
    .write = s_write,
    .statfs = s_statfs,
};

int
main (int argc, char *argv [])
{
    if (argc < 4) {
        fprintf (stderr, "usage: delayfs DELAY_US SIZE_MB MOUNTPOINT [FUSE OPTIONS]\n");
        return 2;
    }
    char *end;
    long delay_us = strtol (argv [1], &end, 10);
    long size_mb = strtol (argv [2], &end, 10);
    if (delay_us < 1 || delay_us > 10000000 || size_mb < 1 || size_mb > 1048576) {
        fprintf (stderr, "delayfs: DELAY_US 1..10000000 and SIZE_MB 1..1048576\n");
        return 2;
    }
    s_delay_ns = delay_us * 1000;
    const char *window = getenv ("DELAYFS_WINDOW");
    long after_ms, for_ms;
    if (window && (sscanf (window, "%ld:%ld", &after_ms, &for_ms) != 2
                   || after_ms < 0 || for_ms <= 0)) {
        fprintf (stderr, "delayfs: DELAYFS_WINDOW=%s is not AFTER_MS:FOR_MS\n", window);
        return 2;
    }
    if (window) {
        s_after_ns = after_ms * 1000000;
        s_for_ns = for_ms * 1000000;
    }
    s_size = (off_t) size_mb << 20;
    //  The threads fuse starts inherit the slack: a sleep ends when asked.
    prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    argv [2] = argv [0];
    return fuse_main (argc - 2, argv + 2, &s_operations, NULL);
}
