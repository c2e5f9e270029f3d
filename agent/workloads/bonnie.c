/*  agent/workloads/bonnie.c: bonnie++'s block tests (bonnie++ -f, as
    version 2.00 runs them), on one file of `size` per stream (path.k for
    stream k of n > 1), in chunks of `bs` (8K unless given).

    Four phases, each a row of its own, as bonnie++ prints its columns:

    0 output    block output: the file written chunk by chunk with
                write(2), then flushed as `fsync` asks (close by default:
                bonnie++ 2.00 fsyncs a file when it closes it) and closed;
    1 rewrite   the file opened again; each chunk read, dirtied (a byte
                changed), lseek'd back over and written, to the end; then
                flushed and closed. Its bytes are the bytes rewritten, as
                bonnie++'s K/sec counts the file once;
    2 input     the file opened again and read sequentially; closed;
    3 seeks     `seekers` threads (5) doing `seeks` random seeks in all
                (8000), each an lseek to a random chunk of the file and a
                read(2) of that chunk, one in ten of them dirtied and
                written back (lseek back, write); then one flush of the
                file as `fsync` asks. Every seek counts as a read, and the
                phase's rate is seeks per second; every write-back counts
                as a write; its bytes are those its seeks read (bs each),
                as its samples count them, so that the rate drawn and seen
                while it runs is the seeks per second too.

    Every phase after the first opens the file by its name in the
    directory held since prepare, and only if that name is still the file
    written (device and inode). The seekers are threads of the workload's
    own, each with its own descriptor (its own offset), its own buffer and
    its own random offsets; they are created at prepare and wait for the
    seeks phase to release them, so that none is created inside the timed
    part. Each measures its own CPU around its seeks, and their sum joins
    the stream's figures: bonnie++'s %CP is the CPU of the whole test over
    its elapsed time.

    The data written is random, drawn at prepare: a filesystem that
    compresses or deduplicates gains nothing from it.
*/
#include "workload.h"

#include "../../proto/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//  One seek in this many writes its chunk back, as bonnie++ does.
#define S_WRITE_BACK_ONE_IN 10

typedef struct _s_bonnie_t s_bonnie_t;

//  One seeker thread and what it did in the seeks phase. The thread
//  writes its figures; the stream reads them once every seeker finished.
typedef struct {
    s_bonnie_t *bonnie;             //  the stream's state it belongs to
    workload_thread_t thread;       //  valid when launched
    int fd;                         //  its own descriptor of the file, -1 for none
    unsigned char *buffer;          //  one chunk, page-aligned
    uint64_t seeks;                 //  seeks it does: its share of the job's
    uint64_t random;                //  splitmix64 state of its offsets
    uint64_t reads;                 //  seeks done (a read each)
    uint64_t writes;                //  write calls of its write-backs
    histogram_t latency [MSG_LATENCY_KINDS];    //  time of its read and write calls
    int64_t last_issue_ns;          //  when its last I/O call was issued, 0 if none
    int64_t last_io_ns;             //  end of that call, 0 if none
    int64_t usr_ns;                 //  user CPU of its seeks
    int64_t sys_ns;                 //  system CPU of its seeks
} s_seeker_t;

//  What one bonnie stream holds between prepare and cleanup.
struct _s_bonnie_t {
    workload_stream_t *ws;          //  the stream (the seekers read its spec, flag, bytes)
    workload_output_t out;          //  the file, and what removing it takes
    unsigned char *buffer;          //  one chunk for the stream's own phases
    uint64_t chunks;                //  chunks in the file, the last maybe short
    s_seeker_t *seekers;            //  spec->seekers of them
    size_t launched;                //  seekers whose thread runs
    pthread_mutex_t lock;           //  guards the fields below
    pthread_cond_t wakeup;          //  the seeks begin, a seeker finished, or cleanup
    bool go;                        //  the seeks phase began
    bool quit;                      //  cleanup: end without seeking
    size_t finished;                //  seekers done with their seeks
    int err_no;                     //  errno of the seekers' first failure, 0 if none
    char error [MSG_TEXT_MAX + 1];  //  and what it was
    atomic_bool failed;             //  a seeker failed: the others end too
};


//  A chunk for the stream, and for each seeker one and its histograms.
static uint64_t
s_bonnie_stream_memory (const jobspec_t *spec)
{
    return (1 + spec->seekers) * spec->bs_bytes + spec->seekers * sizeof (s_seeker_t);
}

//  --------------------------------------------------------------------
//  The seekers

//  Record the seekers' first failure, "what(path at offset): reason"
//  (strerror of err_no without a reason), and make the others end.
static void
s_seeker_fail (s_seeker_t *seeker, int err_no, const char *what, uint64_t offset,
               const char *reason)
{
    s_bonnie_t *bonnie = seeker->bonnie;
    pthread_mutex_lock (&bonnie->lock);
    if (!bonnie->err_no) {
        bonnie->err_no = err_no;
        snprintf (bonnie->error, sizeof (bonnie->error), "%s(%s at %llu): %s", what,
                  bonnie->ws->shown, (unsigned long long) offset,
                  reason? reason: strerror (err_no));
    }
    pthread_mutex_unlock (&bonnie->lock);
    atomic_store (&bonnie->failed, true);
}

//  One seek: lseek to the chunk at offset, read it, and if write_back,
//  dirty it, lseek back and write it. Returns 0, or -1 recorded.
static int
s_seek_once (s_seeker_t *seeker, uint64_t offset, bool write_back)
{
    s_bonnie_t *bonnie = seeker->bonnie;
    workload_stream_t *ws = bonnie->ws;
    const size_t bs_bytes = (size_t) ws->spec->bs_bytes;
    if (lseek (seeker->fd, (off_t) offset, SEEK_SET) == -1) {
        s_seeker_fail (seeker, errno, "lseek", offset, NULL);
        return -1;
    }
    ssize_t got;
    int64_t begin_ns, end_ns;
    do {
        begin_ns = clock_now_ns ();
        got = read (seeker->fd, seeker->buffer, bs_bytes);
        end_ns = clock_now_ns ();
    } while (got == -1 && errno == EINTR);
    seeker->reads++;
    histogram_record (&seeker->latency [MSG_LATENCY_READ], end_ns - begin_ns);
    seeker->last_issue_ns = begin_ns;
    seeker->last_io_ns = end_ns;
    if (got <= 0) {
        s_seeker_fail (seeker, got == 0? EIO: errno, "read", offset,
                       got == 0? "the file is shorter than it was written": NULL);
        return -1;
    }
    atomic_fetch_add_explicit (&ws->bytes, (uint64_t) got, memory_order_relaxed);
    if (!write_back)
        return 0;
    seeker->buffer [0]++;
    if (lseek (seeker->fd, (off_t) offset, SEEK_SET) == -1) {
        s_seeker_fail (seeker, errno, "lseek", offset, NULL);
        return -1;
    }
    size_t written_bytes = 0;
    while (written_bytes < (size_t) got) {
        begin_ns = clock_now_ns ();
        ssize_t written = write (seeker->fd, seeker->buffer + written_bytes,
                                 (size_t) got - written_bytes);
        end_ns = clock_now_ns ();
        if (written == -1 && errno == EINTR)
            continue;
        seeker->writes++;
        histogram_record (&seeker->latency [MSG_LATENCY_WRITE], end_ns - begin_ns);
        seeker->last_issue_ns = begin_ns;
        seeker->last_io_ns = end_ns;
        if (written <= 0) {
            s_seeker_fail (seeker, written == 0? EIO: errno, "write", offset + written_bytes,
                           written == 0? "wrote nothing": NULL);
            return -1;
        }
        written_bytes += (size_t) written;
    }
    return 0;
}

//  A seeker's share of the seeks, until done, stopped, or another failed.
static void
s_seek (s_seeker_t *seeker)
{
    s_bonnie_t *bonnie = seeker->bonnie;
    workload_stream_t *ws = bonnie->ws;
    for (uint64_t seek = 0; seek < seeker->seeks; seek++) {
        if (workload_stopping (ws) || atomic_load_explicit (&bonnie->failed, memory_order_relaxed))
            break;
        uint64_t chunk = workload_random_below (&seeker->random, bonnie->chunks);
        bool write_back = workload_random_below (&seeker->random, S_WRITE_BACK_ONE_IN) == 0;
        if (s_seek_once (seeker, chunk * ws->spec->bs_bytes, write_back) == -1)
            break;
    }
}

//  A seeker's thread: wait for the seeks phase (or cleanup), seek with its
//  own CPU measured, say it finished.
static void *
s_seeker_thread (void *arg)
{
    s_seeker_t *seeker = arg;
    s_bonnie_t *bonnie = seeker->bonnie;
    pthread_mutex_lock (&bonnie->lock);
    while (!bonnie->go && !bonnie->quit)
        pthread_cond_wait (&bonnie->wakeup, &bonnie->lock);
    bool seeks = bonnie->go;
    pthread_mutex_unlock (&bonnie->lock);

    if (seeks) {
        int64_t usr_before_ns, sys_before_ns;
        workload_thread_cpu (&usr_before_ns, &sys_before_ns);
        s_seek (seeker);
        workload_thread_cpu (&seeker->usr_ns, &seeker->sys_ns);
        seeker->usr_ns -= usr_before_ns;
        seeker->sys_ns -= sys_before_ns;
    }
    pthread_mutex_lock (&bonnie->lock);
    bonnie->finished++;
    pthread_cond_broadcast (&bonnie->wakeup);
    pthread_mutex_unlock (&bonnie->lock);
    return NULL;
}

//  Open, allocate and start every seeker; they wait for the seeks phase.
static int
s_seekers_launch (workload_stream_t *ws, s_bonnie_t *state, char *err, size_t errlen)
{
    const uint64_t count = ws->spec->seekers;
    const uint64_t seeks = ws->spec->seeks;
    state->seekers = calloc (count, sizeof (s_seeker_t));
    if (!state->seekers) {
        snprintf (err, errlen, "calloc(%llu seekers): %s", (unsigned long long) count,
                  strerror (ENOMEM));
        return -1;
    }
    for (uint64_t index = 0; index < count; index++)
        state->seekers [index].fd = -1;
    uint64_t seed = workload_random_seed ();
    int flags = O_RDWR | (ws->spec->direct? O_DIRECT: 0);
    for (uint64_t index = 0; index < count; index++) {
        s_seeker_t *seeker = &state->seekers [index];
        seeker->bonnie = state;
        seeker->seeks = seeks / count + (index < seeks % count? 1: 0);
        seeker->random = workload_random_next (&seed);
        seeker->fd = workload_output_reopen (ws, &state->out, flags, err, errlen);
        if (seeker->fd == -1
        ||  workload_buffer_new (&seeker->buffer, (size_t) ws->spec->bs_bytes, err, errlen) == -1)
            return -1;
        int rc = workload_thread_start (&seeker->thread, s_seeker_thread, seeker);
        if (rc != 0) {
            snprintf (err, errlen, "pthread_create(seeker %llu): %s",
                      (unsigned long long) index + 1, strerror (rc));
            return -1;
        }
        state->launched++;
    }
    return 0;
}

//  The seeks phase: release the seekers, wait for them all, gather their
//  figures into the stream's, flush once. The stream's thread only waits
//  meanwhile; the seekers check the stop flag between seeks.
static int
s_seeks_run (workload_stream_t *ws, s_bonnie_t *state)
{
    pthread_mutex_lock (&state->lock);
    state->go = true;
    pthread_cond_broadcast (&state->wakeup);
    while (state->finished < state->launched)
        pthread_cond_wait (&state->wakeup, &state->lock);
    pthread_mutex_unlock (&state->lock);

    uint64_t seeks = 0;
    for (size_t index = 0; index < state->launched; index++) {
        const s_seeker_t *seeker = &state->seekers [index];
        seeks += seeker->reads;
        ws->reads += seeker->reads;
        ws->writes += seeker->writes;
        //  Their latency is the stream's: each seeker's histograms join
        //  its own, exactly (a count of 2^64 is beyond any phase).
        for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
            histogram_merge (&ws->latency [kind], &seeker->latency [kind]);
        ws->extra_usr_ns += seeker->usr_ns;
        ws->extra_sys_ns += seeker->sys_ns;
        if (seeker->last_io_ns > ws->last_write_ns) {
            ws->last_issue_ns = seeker->last_issue_ns;
            ws->last_write_ns = seeker->last_io_ns;
        }
    }
    int status = STREAM_DONE;
    if (state->err_no) {
        workload_fail_message (ws, state->err_no, state->error);
        status = STREAM_FAILED;
    }
    else
    if (seeks < ws->spec->seeks)
        status = STREAM_STOPPED;      //  a seeker saw the stop flag
    //  Every seeker wrote through the same file: one flush covers them
    //  all. No bytes given, so that the end of the last write-back stays
    //  the seekers' own.
    return workload_output_end (ws, &state->seekers [0].fd, status);
}

//  --------------------------------------------------------------------
//  The stream's own phases

//  One read(2) of up to want_bytes at offset, timed and counted (its
//  bytes too if count_bytes). Returns the bytes read, or -1 with the
//  failure recorded: an error, or the end of the file before size (the
//  file is ours, and shorter than it was written).
static ssize_t
s_read_chunk (workload_stream_t *ws, int fd, unsigned char *buffer, size_t want_bytes,
              uint64_t offset, bool count_bytes)
{
    ssize_t got;
    int64_t begin_ns, end_ns;
    do {
        begin_ns = clock_now_ns ();
        got = read (fd, buffer, want_bytes);
        end_ns = clock_now_ns ();
    } while (got == -1 && errno == EINTR);
    int err_no = errno;
    workload_count (ws, MSG_LATENCY_READ, begin_ns, end_ns,
                    count_bytes && got > 0? (uint64_t) got: 0);
    if (got == -1)
        workload_fail (ws, err_no, "read(%s at %llu)", ws->shown, (unsigned long long) offset);
    else
    if (got == 0)
        workload_fail (ws, EIO, "read(%s): the file ended at %llu bytes, before %llu",
                       ws->shown, (unsigned long long) offset,
                       (unsigned long long) ws->spec->size_bytes);
    return got > 0? got: -1;
}

//  Open the file of prepare again for this phase. Returns the
//  descriptor, or -1 recorded.
static int
s_reopen (workload_stream_t *ws, s_bonnie_t *state, int flags)
{
    char err [MSG_TEXT_MAX + 1];
    int fd = workload_output_reopen (ws, &state->out, flags | (ws->spec->direct? O_DIRECT: 0),
                                     err, sizeof (err));
    if (fd == -1)
        workload_fail_message (ws, errno, err);
    return fd;
}

//  Rewrite and block input: the file read from the start, a chunk per
//  read(2). To rewrite, each chunk is dirtied, lseek'd back over and
//  written, and the file flushed at the end as `fsync` asks; the bytes
//  are those written. Block input only reads, and has nothing to flush.
static int
s_pass_run (workload_stream_t *ws, s_bonnie_t *state, bool rewrite)
{
    int fd = s_reopen (ws, state, rewrite? O_RDWR: O_RDONLY);
    if (fd == -1)
        return STREAM_FAILED;
    const uint64_t size_bytes = ws->spec->size_bytes;
    const uint64_t bs_bytes = ws->spec->bs_bytes;
    uint64_t offset = 0;
    uint64_t written_bytes = 0;
    int status = STREAM_DONE;
    while (offset < size_bytes && status == STREAM_DONE) {
        if (workload_stopping (ws)) {
            status = STREAM_STOPPED;
            break;
        }
        size_t want_bytes = (size_t) (size_bytes - offset < bs_bytes? size_bytes - offset: bs_bytes);
        ssize_t got = s_read_chunk (ws, fd, state->buffer, want_bytes, offset, !rewrite);
        if (got == -1) {
            status = STREAM_FAILED;
            break;
        }
        offset += (uint64_t) got;
        if (!rewrite)
            continue;
        state->buffer [0]++;
        if (lseek (fd, -(off_t) got, SEEK_CUR) == -1) {
            workload_fail (ws, errno, "lseek(%s at %llu)", ws->shown,
                           (unsigned long long) (offset - (uint64_t) got));
            status = STREAM_FAILED;
        }
        else
        if (workload_write_full (ws, fd, state->buffer, (size_t) got, &written_bytes) == -1)
            status = STREAM_FAILED;
    }
    if (rewrite)
        return workload_output_end (ws, &fd, status);
    close (fd);
    ws->end_ns = clock_now_ns ();
    return status;
}

//  --------------------------------------------------------------------
//  The ops

//  Create the file, draw the data, start the seekers.
static int
s_bonnie_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    s_bonnie_t *state = calloc (1, sizeof (s_bonnie_t));
    if (!state) {
        snprintf (err, errlen, "calloc: %s", strerror (ENOMEM));
        return -1;
    }
    state->ws = ws;
    workload_output_init (&state->out);
    pthread_mutex_init (&state->lock, NULL);
    pthread_cond_init (&state->wakeup, NULL);
    atomic_init (&state->failed, false);
    ws->data = state;

    const uint64_t bs_bytes = ws->spec->bs_bytes;
    state->chunks = (ws->spec->size_bytes + bs_bytes - 1) / bs_bytes;
    if (workload_open_output (ws, &state->out, err, errlen) == -1
    ||  workload_buffer_new (&state->buffer, (size_t) bs_bytes, err, errlen) == -1)
        return -1;
    uint64_t seed = workload_random_seed ();
    workload_random_fill (state->buffer, (size_t) bs_bytes, &seed);
    return s_seekers_launch (ws, state, err, errlen);
}

//  The timed part of one phase.
static int
s_bonnie_run (workload_stream_t *ws, uint32_t phase)
{
    s_bonnie_t *state = ws->data;
    if (phase == 0) {
        uint64_t done_bytes = 0;
        int status = workload_write_blocks (ws, state->out.fd, state->buffer, NULL, &done_bytes);
        return workload_output_end (ws, &state->out.fd, status);
    }
    if (phase == 1 || phase == 2)
        return s_pass_run (ws, state, phase == 1);
    return s_seeks_run (ws, state);
}

//  End the seekers (at once if the seeks never came), close, free, and
//  remove the file unless kept.
static void
s_bonnie_cleanup (workload_stream_t *ws, bool remove_files)
{
    s_bonnie_t *state = ws->data;
    if (!state)
        return;
    pthread_mutex_lock (&state->lock);
    state->quit = true;
    pthread_cond_broadcast (&state->wakeup);
    pthread_mutex_unlock (&state->lock);
    for (size_t index = 0; index < state->launched; index++)
        workload_thread_join (&state->seekers [index].thread);
    for (uint64_t index = 0; state->seekers && index < ws->spec->seekers; index++) {
        if (state->seekers [index].fd != -1)
            close (state->seekers [index].fd);
        free (state->seekers [index].buffer);
    }
    free (state->seekers);
    workload_output_release (ws, &state->out, remove_files);
    free (state->buffer);
    pthread_cond_destroy (&state->wakeup);
    pthread_mutex_destroy (&state->lock);
    free (state);
    ws->data = NULL;
}

const workload_ops_t workload_bonnie_ops = {
    .name = "bonnie",
    .stream_memory = s_bonnie_stream_memory,
    .prepare = s_bonnie_prepare,
    .run = s_bonnie_run,
    .stop = NULL,               //  the flag is checked after every chunk and every seek
    .cleanup = s_bonnie_cleanup,
};
