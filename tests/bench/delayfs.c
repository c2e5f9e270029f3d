/*  tests/bench/delayfs.c: a file system whose every read, write and
    fsync takes the same time, for tests/bench/latency.sh and the tests.

    usage: delayfs DELAY_US SIZE_MB MOUNTPOINT [FUSE OPTIONS]

    Every name at its top is a file of SIZE_MB megabytes (it lists one,
    data): reads return zeros, writes are taken and forgotten, fsyncs
    flush nothing. Each request is answered DELAY_US after the file
    system got it, to a microsecond or so: it sleeps until shortly
    before, then spins. Files are opened direct_io, so that every read
    and write of a program reaches it, cached or not.

    With DELAYFS_SLEEP=1 in its environment a request sleeps its whole
    time, without the spin: with many requests in flight (a queue depth
    of 32, and -o max_threads= at least as many worker threads) the
    spins would want a CPU each, and a machine with fewer would answer
    them late; a sleep ends some tens of microseconds after its time.
    The kernel keeps at most max_background asynchronous requests of a
    mount with the file system (12 unless -o max_background= says),
    and O_DIRECT reads and writes from io_uring or libaio are such
    requests.

    It counts what it is asked: reads, writes and fsyncs, and the
    requests it holds at once (now, and the most since it was mounted
    or reset). The file .stats at its top (not listed) reads as one line,
    `reads=N writes=N fsyncs=N in_flight=N peak=N`; a write to it sets
    the counts to zero and the peak to what is held then (nothing, when
    a test resets it between runs). The same line goes to stderr when
    it is unmounted.

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
#include <inttypes.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#define S_SPIN_NS       100000      //  the end of the wait is spun, not slept
#define S_LISTED        "data"      //  the name readdir gives
#define S_STATS         "/.stats"   //  its counts, read and reset by tests
#define S_STATS_MAX     160         //  bytes of their line, at most

static int64_t s_delay_ns;          //  the time each request takes
static int64_t s_after_ns = -1;     //  DELAYFS_WINDOW: the window opens this long
                                    //  after the first request; -1: always held
static int64_t s_for_ns;            //  and stays open this long
static _Atomic int64_t s_first_ns;  //  when the first request came, 0 before
static off_t s_size;                //  bytes in each file
static bool s_sleep_only;           //  DELAYFS_SLEEP: no spin at the end of a wait
static _Atomic uint64_t s_reads;    //  reads answered since the mount or a reset
static _Atomic uint64_t s_writes;   //  writes
static _Atomic uint64_t s_fsyncs;   //  fsyncs
static _Atomic int64_t s_in_flight; //  requests held now
static _Atomic int64_t s_peak;      //  the most held at once since the mount or a reset

//  A request comes in: one more held, and perhaps the most so far.
static void
s_enter (void)
{
    int64_t now = atomic_fetch_add (&s_in_flight, 1) + 1;
    int64_t peak = atomic_load (&s_peak);
    while (now > peak && !atomic_compare_exchange_weak (&s_peak, &peak, now))
        ;
}

//  A request is answered: one less held, counted as its kind.
static void
s_leave (_Atomic uint64_t *kind)
{
    atomic_fetch_add (kind, 1);
    atomic_fetch_sub (&s_in_flight, 1);
}

//  The counts as .stats gives them, into buf. Returns its length.
static size_t
s_stats_line (char *buf, size_t buflen)
{
    int length = snprintf (buf, buflen, "reads=%" PRIu64 " writes=%" PRIu64 " fsyncs=%" PRIu64
                           " in_flight=%" PRId64 " peak=%" PRId64 "\n", atomic_load (&s_reads),
                           atomic_load (&s_writes), atomic_load (&s_fsyncs),
                           atomic_load (&s_in_flight), atomic_load (&s_peak));
    return length < 0? 0: (size_t) length < buflen? (size_t) length: buflen - 1;
}

//  A name at the top: a file.
static int
s_is_file (const char *path)
{
    return path [0] == '/' && path [1] && !strchr (path + 1, '/') && strcmp (path, S_STATS) != 0;
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
    int64_t sleep_ns = s_sleep_only? until_ns: until_ns - S_SPIN_NS;
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
    if (strcmp (path, S_STATS) == 0) {
        //  Its line is read whole whatever the size (direct_io), but a
        //  reader may look at the size first.
        char line [S_STATS_MAX];
        st->st_mode = S_IFREG | 0644;
        st->st_nlink = 1;
        st->st_size = (off_t) s_stats_line (line, sizeof (line));
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
    if (!s_is_file (path) && strcmp (path, S_STATS) != 0)
        return -ENOENT;
    fi->direct_io = 1;
    return 0;
}

//  .stats: the counts' line from offset.
static int
s_read_stats (char *buf, size_t size, off_t offset)
{
    char line [S_STATS_MAX];
    size_t length = s_stats_line (line, sizeof (line));
    if (offset < 0 || (size_t) offset >= length)
        return 0;
    size_t count = length - (size_t) offset < size? length - (size_t) offset: size;
    memcpy (buf, line + offset, count);
    return (int) count;
}

static int
s_read (const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi)
{
    (void) fi;
    if (strcmp (path, S_STATS) == 0)
        return s_read_stats (buf, size, offset);
    int64_t begin_ns = s_now_ns ();
    s_enter ();
    size_t count = offset >= s_size? 0: (size_t) (s_size - offset) < size? (size_t) (s_size - offset): size;
    memset (buf, 0, count);
    s_hold (begin_ns);
    s_leave (&s_reads);
    return (int) count;
}

static int
s_write (const char *path, const char *buf, size_t size, off_t offset, struct fuse_file_info *fi)
{
    (void) buf;
    (void) offset;
    (void) fi;
    if (strcmp (path, S_STATS) == 0) {
        atomic_store (&s_reads, 0);
        atomic_store (&s_writes, 0);
        atomic_store (&s_fsyncs, 0);
        atomic_store (&s_peak, atomic_load (&s_in_flight));
        return (int) size;
    }
    int64_t begin_ns = s_now_ns ();
    s_enter ();
    s_hold (begin_ns);
    s_leave (&s_writes);
    return (int) size;
}

//  Kept, so that the kernel sends every fsync here (a file system
//  without one has its fsyncs answered by the kernel from then on).
static int
s_fsync (const char *path, int datasync, struct fuse_file_info *fi)
{
    (void) path;
    (void) datasync;
    (void) fi;
    int64_t begin_ns = s_now_ns ();
    s_enter ();
    s_hold (begin_ns);
    s_leave (&s_fsyncs);
    return 0;
}

//  A shell writes .stats with O_TRUNC.
static int
s_truncate (const char *path, off_t size, struct fuse_file_info *fi)
{
    (void) size;
    (void) fi;
    return s_is_file (path) || strcmp (path, S_STATS) == 0? 0: -ENOENT;
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

//  The connection's options from the command line (max_background,
//  congestion_threshold: fuse_main itself does not take them).
static struct fuse_conn_info_opts *s_conn_opts;

static void *
s_init (struct fuse_conn_info *conn, struct fuse_config *cfg)
{
    (void) cfg;
    if (s_conn_opts)
        fuse_apply_conn_info_opts (s_conn_opts, conn);
    return NULL;
}

static const struct fuse_operations s_operations = {
    .init = s_init,
    .getattr = s_getattr,
    .readdir = s_readdir,
    .open = s_open,
    .read = s_read,
    .write = s_write,
    .fsync = s_fsync,
    .truncate = s_truncate,
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
    const char *sleep_only = getenv ("DELAYFS_SLEEP");
    s_sleep_only = sleep_only && strcmp (sleep_only, "0") != 0;
    //  The threads fuse starts inherit the slack: a sleep ends when asked.
    prctl (PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    argv [2] = argv [0];
    struct fuse_args args = FUSE_ARGS_INIT (argc - 2, argv + 2);
    s_conn_opts = fuse_parse_conn_info_opts (&args);
    if (!s_conn_opts)
        return 2;
    int rc = fuse_main (args.argc, args.argv, &s_operations, NULL);
    fuse_opt_free_args (&args);
    free (s_conn_opts);
    char line [S_STATS_MAX];
    s_stats_line (line, sizeof (line));
    fprintf (stderr, "delayfs: %s", line);
    return rc;
}
