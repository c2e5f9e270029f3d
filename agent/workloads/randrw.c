/*  agent/workloads/randrw.c: random reads and writes over a set of files,
    what `sysbench fileio --file-test-mode=rndrw` measures (and rndrd,
    rndwr for its neighbours: mode =), or the same in order (access =).

    The file set. A job has `files` files (128) that total `size`: each
    holds size / files bytes, rounded down, and is named path itself for
    one file, path.1 .. path.N for more, all in path's directory. The
    job's streams share the set as sysbench's threads do: it is opened
    once for the job, one descriptor per file (pread and pwrite carry
    their own offset, so streams need nothing more between them), by the
    first stream to prepare, while the others wait for it.

    Layout, at prepare and untimed (sysbench prepare). A file missing or
    shorter than its size is written with the pattern up to its size
    (random data drawn afresh for every block), then fdatasync'd; a file
    that long already is used as it is, whatever it holds, so that a set
    laid out once serves every later test and iteration that asks for it
    (sysbench prepares once and runs many times). Before anything is
    written, what the set still needs is weighed against the free space
    of its file system: a set larger than the disk is refused at
    prepare, naming the path and the sizes, and nothing starts. A file
    the job created is its own: when the test is over it goes to the
    session (agent/kept.h), which removes it when the session ends, or
    stays for good with keep = yes; a job that never became ready
    removes it at once. A file that was there is never removed nor
    truncated, only extended when short, and refused if it has other
    hard links, as every file the agent writes.

    The timed part. Each stream does its share of `requests` (stream k of
    n: requests / n, and one more for k < requests % n), or runs to the
    runtime's stop instant: a read or a write of bs bytes at a random
    bs-aligned offset of the set (over every whole block of every file,
    uniform or as random_distribution says; a tail shorter than bs is
    never touched), drawn from the stream's own generator, seeded from
    the kernel, or with randseed from the seed, the job and the stream.
    With access = sequential (fio's rw=rw) a stream's reads walk the
    set's blocks in order instead, from the first block of its first
    file to the last of its last, and so do its writes, each going round
    again at the end; the streams walk the set each on its own. Which
    of the two is not drawn: with r reads per write (rwratio), after n
    requests a stream has done round (n r / (1 + r)) reads exactly, kept
    by a running error term. After every fsync_every requests of a stream
    (reads and writes alike, sysbench's --file-fsync-freq) that another
    request follows, the stream fsyncs every file of the set, and at its
    end once more every file it wrote (fsync_end, --file-fsync-end), each
    call timed and counted; fsync_call = fdatasync makes every one of
    them an fdatasync (--file-fsync-mode), which skips the inode's times:
    a set laid out before the run keeps its size, so a write in place
    needs no journal commit of its inode. rndrd writes nothing, so it
    flushes nothing either (as sysbench). direct = yes turns the set's
    descriptors to O_DIRECT once it is laid out (the layout goes through
    the page cache); its bs and offsets are multiples of 512 then, and
    the buffers are page-aligned.

    With rate (bytes per second) or rate_iops (requests per second) a
    stream issues each request once the ones before it are paid for
    (pace.c: no burst after a stall), reaping completions meanwhile.
    Every read, write and fsync call lands in the stream's histogram of
    its kind. The phase's rate counts operations; its bytes are those
    read and written together.
*/
#include "randrw_set.h"

#include "../engines/engine.h"

#include "../../proto/clock.h"
#include "../../proto/distribution.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

//  Descriptors an agent keeps for itself beyond a file set's: its
//  sockets, the streams' directories, the eventfd, the logs.
#define S_SPARE_FDS     64

//  What one stream holds between prepare and cleanup.
typedef struct {
    randrw_set_t *set;              //  the job's set
    unsigned char *buffer;          //  bs bytes, page-aligned: what prepare lays out with
    engine_t *engine;               //  how it issues its requests; its slots' buffers hold
                                    //  what it writes and take what it reads
    uint64_t random;                //  splitmix64 state of its offsets
    distribution_t distribution;    //  where its requests land (random_distribution)
    uint64_t next [2];              //  access = sequential: the block of the next read
                                    //  ([0]) and of the next write ([1]) in the set
    bool bounded;                   //  the job has a number of requests
    uint64_t requests;              //  and this is the stream's share of them
    unsigned char *written;         //  a bit per file the stream wrote in the phase
} s_stream_t;

//  The buffer, a bit per file, and a share of the set's table.
static uint64_t
s_randrw_stream_memory (const jobspec_t *spec)
{
    uint64_t streams = spec->streams? spec->streams: 1;
    uint64_t table_bytes = spec->files * (sizeof (randrw_file_t) + sizeof (int));
    return spec->bs_bytes + engine_memory (spec) + (spec->files + 7) / 8
         + (table_bytes + streams - 1) / streams;
}

//  A set needs a descriptor per file, open while the test lasts: within
//  the agent's limit, with room for the rest; and the engine must run.
static int
s_randrw_validate (const jobspec_t *spec, char *err, size_t errlen)
{
    struct rlimit limit;
    if (getrlimit (RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
    &&  spec->files + S_SPARE_FDS > (uint64_t) limit.rlim_cur) {
        snprintf (err, errlen, "files: a set of %" PRIu64 " files keeps as many open, over "
                  "this agent's limit of %llu descriptors (less %d of its own)", spec->files,
                  (unsigned long long) limit.rlim_cur, S_SPARE_FDS);
        return -1;
    }
    //  A host that refuses the engine refuses the job before its set
    //  is laid out.
    return engine_check (spec, err, errlen);
}

//  --------------------------------------------------------------------
//  The streams

//  With randseed, the state of stream index's offsets: from the seed,
//  the job's name (a job on a group is one job per member, JOB.MEMBER:
//  the host) and the index, the same on every run.
static uint64_t
s_stream_seed (const jobspec_t *spec, uint32_t index)
{
    uint64_t state = spec->randseed;
    for (const char *c = spec->name; *c; c++) {
        state ^= (unsigned char) *c;
        workload_random_next (&state);
    }
    state ^= (uint64_t) index * 0x9e3779b97f4a7c15ULL;
    return workload_random_next (&state);
}

//  The buffer, the generator, the share of requests; and the set, laid
//  out by whichever stream comes first.
static int
s_randrw_prepare (workload_stream_t *ws, char *err, size_t errlen)
{
    if (!ws->job || !ws->job->data) {
        snprintf (err, errlen, "randrw(%s): a stream needs its job's file set", ws->shown);
        return -1;
    }
    s_stream_t *stream = calloc (1, sizeof (s_stream_t));
    if (!stream) {
        snprintf (err, errlen, "calloc: %s", strerror (ENOMEM));
        return -1;
    }
    ws->data = stream;
    const jobspec_t *spec = ws->spec;
    randrw_set_t *set = ws->job->data;
    stream->set = set;
    stream->written = calloc ((size_t) (set->count + 7) / 8, 1);
    if (!stream->written) {
        snprintf (err, errlen, "calloc(%" PRIu64 " files): %s", set->count, strerror (ENOMEM));
        return -1;
    }
    uint64_t seed = workload_random_seed ();
    stream->random = workload_random_next (&seed);
    if (spec->randseed)
        stream->random = s_stream_seed (spec, ws->index);
    int kind;
    double param;
    if (distribution_parse (spec->random_distribution, &kind, &param, err, errlen) == -1)
        return -1;
    distribution_init (&stream->distribution, kind, param, set->count * set->file_blocks);
    if (workload_pattern_buffer (ws, &stream->buffer, &seed, err, errlen) == -1)
        return -1;
    stream->bounded = spec->requests > 0;
    stream->requests = spec->requests / spec->streams
                     + (ws->index < spec->requests % spec->streams? 1: 0);

    pthread_mutex_lock (&set->lock);
    if (set->state == 0) {
        set->state = randrw_set_open (set, ws, stream->buffer, err, errlen) == 0? 1: -1;
        if (set->state == -1)
            msg_strcpy (set->error, err, sizeof (set->error));
    }
    else
    if (set->state == -1)
        snprintf (err, errlen, "%s", set->error);
    int rc = set->state == 1? 0: -1;
    pthread_mutex_unlock (&set->lock);
    if (rc == -1)
        return -1;
    //  The engine's slots write what the layout left in the buffer, as
    //  the one buffer of old did.
    stream->engine = engine_new (spec->engine, engine_slots (spec), set->fds,
                                 (uint32_t) set->count, spec->direct, err, errlen);
    if (!stream->engine)
        return -1;
    engine_fill (stream->engine, stream->buffer);
    free (stream->buffer);
    stream->buffer = NULL;
    return 0;
}

//  Record a read or write of file `index` at offset that failed or moved
//  fewer than bs bytes (moved, -1 for an error with err_no).
static void
s_request_failed (workload_stream_t *ws, randrw_set_t *set, bool read, uint64_t index,
                  uint64_t offset, ssize_t moved, int err_no)
{
    char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
    randrw_file_path (ws->spec, index, path, sizeof (path), shown, sizeof (shown));
    const char *call = read? "pread": "pwrite";
    if (moved == -1)
        workload_fail (ws, err_no, "%s(%s at %" PRIu64 ")", call, shown, offset);
    else {
        char message [MSG_TEXT_MAX + 1];
        snprintf (message, sizeof (message), "%s(%s at %" PRIu64 "): moved %zd of %" PRIu64
                  " bytes (the file is shorter than the set's %" PRIu64 ")", call, shown,
                  offset, moved, ws->spec->bs_bytes, set->file_bytes);
        workload_fail_message (ws, EIO, message);
    }
}

//  fsync the files of the set (with only_written, those the stream wrote
//  in the phase), each call timed and counted. Returns 0, or -1 with the
//  failure recorded.
static int
s_fsync_files (workload_stream_t *ws, s_stream_t *stream, bool only_written)
{
    randrw_set_t *set = stream->set;
    //  An fsync covers the writes issued before it: they are all back.
    assert (engine_in_flight (stream->engine) == 0);
    for (uint64_t index = 0; index < set->count; index++) {
        if (only_written && !(stream->written [index / 8] & (1u << (index % 8))))
            continue;
        int64_t begin_ns = clock_now_ns ();
        int fd = set->files [index].fd;
        bool data = ws->spec->fsync_call == FSYNC_CALL_FDATASYNC;
        int rc = data? fdatasync (fd): fsync (fd);
        int err_no = errno;
        workload_count (ws, MSG_LATENCY_FSYNC, begin_ns, clock_now_ns (), 0);
        if (rc == -1) {
            char path [JOB_PATH_MAX + 1], shown [CONFINE_SHOWN_MAX];
            randrw_file_path (ws->spec, index, path, sizeof (path), shown, sizeof (shown));
            workload_fail (ws, err_no, "%s(%s)", data? "fdatasync": "fsync", shown);
            return -1;
        }
    }
    return 0;
}

//  The next request: a read if the error term says so. With r reads per
//  write in millionths, the term gains r per request and a read spends
//  1 + r of it; starting at half of that, the reads after n requests are
//  round (n r / (1 + r)), halves rounded up.
static inline bool
s_next_is_read (uint64_t *term, uint64_t ratio, uint64_t period)
{
    *term += ratio;
    if (*term < period)
        return false;
    *term -= period;
    return true;
}

//  What a stream's timed part goes through, request by request.
typedef struct {
    const uint64_t blocks;          //  whole blocks of the set
    const uint64_t ratio;           //  reads per write, in millionths
    const uint64_t period;          //  1 + ratio, in millionths
    const int mode;                 //  rw_mode_t
    const uint64_t fsync_every;     //  requests between fsync rounds, 0 none
    uint64_t term;                  //  the reads' error term
    uint64_t issued;                //  requests issued
    uint64_t since_fsync;           //  issued since the last fsync round
    bool fsync_due;                 //  a round is due once what is in flight is back
    int64_t due_ns;                 //  paced: the next request waits for this instant, 0 none
    bool issuing;                   //  more requests may be issued
    int status;                     //  STREAM_DONE, _FAILED or _STOPPED so far
} s_run_t;

//  Issue the next request into a free slot of the engine, if one is due
//  and may be: not past the requests, the stop flag, the stop instant,
//  nor over an fsync round that waits for the queue to drain. Returns
//  true if it queued one.
static bool
s_issue (workload_stream_t *ws, s_stream_t *stream, s_run_t *run)
{
    if (run->fsync_due || !run->issuing)
        return false;
    if (stream->bounded && run->issued >= stream->requests) {
        run->issuing = false;
        return false;
    }
    if (workload_stopping (ws)) {
        run->status = STREAM_STOPPED;
        run->issuing = false;
        return false;
    }
    //  rate, rate_iops: the next request goes when the ones before are
    //  paid for; meanwhile completions are reaped.
    if ((run->due_ns = workload_pace_wanted (ws)))
        return false;
    engine_request_t *request = engine_slot (stream->engine);
    if (!request)
        return false;
    randrw_set_t *set = stream->set;
    bool read = run->mode == RW_MODE_RNDRD
             || (run->mode == RW_MODE_RNDRW && s_next_is_read (&run->term, run->ratio,
                                                               run->period));
    uint64_t block;
    if (ws->spec->access == ACCESS_SEQUENTIAL) {
        uint64_t *next = &stream->next [read? 0: 1];
        block = *next;
        *next = block + 1 < run->blocks? block + 1: 0;
    }
    else
    if (stream->distribution.kind == DISTRIBUTION_RANDOM)
        block = workload_random_below (&stream->random, run->blocks);
    else {
        uint64_t random1 = workload_random_next (&stream->random);
        uint64_t random2 = workload_random_next (&stream->random);
        block = distribution_pick (&stream->distribution, random1, random2);
    }
    request->op = read? ENGINE_READ: ENGINE_WRITE;
    request->file = (uint32_t) (block / set->file_blocks);
    request->offset = (block % set->file_blocks) * ws->spec->bs_bytes;
    request->length_bytes = (size_t) ws->spec->bs_bytes;
    //  No request is issued at or after the stop instant (an fsync
    //  round may have crossed it).
    if (!workload_may_issue (ws, &request->begin_ns)) {
        engine_release (stream->engine, request);
        run->issuing = false;
        return false;
    }
    engine_queue (stream->engine, request);
    workload_pace_paid (ws, request->length_bytes);
    run->issued++;
    if (run->fsync_every && ++run->since_fsync == run->fsync_every) {
        run->since_fsync = 0;
        run->fsync_due = true;
    }
    return true;
}

//  True if another request may follow those issued. A round is for the
//  requests after it, as fio's flush is made before the next write:
//  none is due after the stream's last request (its requests are done,
//  or the stop flag or the stop instant came), where the round at the
//  end, if any, is its last (fsync_end).
static bool
s_more_follow (workload_stream_t *ws, const s_stream_t *stream, const s_run_t *run)
{
    int64_t now_ns;
    return run->issuing && !(stream->bounded && run->issued >= stream->requests)
        && !workload_stopping (ws) && workload_may_issue (ws, &now_ns);
}

//  Count a completed request; a failed or short one fails the stream
//  (what is in flight still comes back and is counted).
static void
s_complete (workload_stream_t *ws, s_stream_t *stream, s_run_t *run,
            engine_request_t *request)
{
    bool read = request->op == ENGINE_READ;
    ssize_t moved = request->result < 0? -1: request->result;
    workload_count (ws, read? MSG_LATENCY_READ: MSG_LATENCY_WRITE, request->begin_ns,
                    request->end_ns, moved > 0? (uint64_t) moved: 0);
    if (moved != (ssize_t) request->length_bytes) {
        if (run->status != STREAM_FAILED)
            s_request_failed (ws, stream->set, read, request->file, request->offset, moved,
                              (int) -request->result);
        run->status = STREAM_FAILED;
        run->issuing = false;
        run->fsync_due = false;
    }
    else
    if (!read)
        stream->written [request->file / 8] |= (unsigned char) (1u << (request->file % 8));
    engine_release (stream->engine, request);
}

//  The timed part: the stream's requests, or until the stop instant,
//  then (fsync_end) a last fsync of the files it wrote. The queue is
//  kept full (iodepth requests; psync's is one); an fsync round waits
//  for every request before it to complete (sysbench's order: an fsync
//  covers the writes issued before it), and nothing is issued meanwhile.
static int
s_randrw_run (workload_stream_t *ws, uint32_t phase)
{
    (void) phase;
    s_stream_t *stream = ws->data;
    randrw_set_t *set = stream->set;
    const jobspec_t *spec = ws->spec;
    const bool writes = spec->rw_mode != RW_MODE_RNDRD;
    s_run_t run = {
        .blocks = set->count * set->file_blocks,
        .ratio = spec->rwratio,
        .period = OPT_DECIMAL_ONE + spec->rwratio,
        .mode = spec->rw_mode,
        .fsync_every = writes? spec->fsync_every: 0,
        .term = (OPT_DECIMAL_ONE + spec->rwratio) / 2,
        .issuing = true,
        .status = STREAM_DONE,
    };
    memset (stream->written, 0, (size_t) (set->count + 7) / 8);
    stream->next [0] = stream->next [1] = 0;
    engine_t *engine = stream->engine;

    for (;;) {
        run.due_ns = 0;
        while (s_issue (ws, stream, &run))
            ;
        if (engine_in_flight (engine) == 0) {
            if (run.fsync_due) {
                run.fsync_due = false;
                if (s_more_follow (ws, stream, &run)
                &&  s_fsync_files (ws, stream, false) == -1) {
                    run.status = STREAM_FAILED;
                    break;
                }
            }
            else
            if (run.due_ns)
                workload_pace_wait (ws, run.due_ns);
            else
                break;
            continue;
        }
        //  Wait for a completion when nothing more can go out now (a
        //  paced stream until its next request is due).
        engine_request_t *request = run.due_ns? engine_reap_until (engine, run.due_ns)
                                              : engine_reap (engine, true);
        if (!request) {
            if (engine_failed (engine)) {
                workload_engine_failed (ws, engine);
                run.status = STREAM_FAILED;
                break;
            }
            continue;
        }
        //  The rest of the batch, then the slots are filled again and
        //  handed over with the next wait: one system call a batch.
        do
            s_complete (ws, stream, &run, request);
        while ((request = engine_reaped (engine)));
    }
    ws->depth_max = engine_depth_max (engine);
    if (run.status == STREAM_DONE && writes && spec->fsync_end
    &&  s_fsync_files (ws, stream, true) == -1)
        run.status = STREAM_FAILED;
    ws->end_ns = clock_now_ns ();
    return run.status;
}

//  Free what the stream holds; the set is the job's.
static void
s_randrw_cleanup (workload_stream_t *ws, bool remove_files)
{
    (void) remove_files;        //  the job's cleanup decides for the set
    s_stream_t *stream = ws->data;
    if (!stream)
        return;
    free (stream->buffer);
    free (stream->written);
    engine_destroy (&stream->engine);
    free (stream);
    ws->data = NULL;
}

const workload_ops_t workload_randrw_ops = {
    .name = "randrw",
    .validate = s_randrw_validate,
    .stream_memory = s_randrw_stream_memory,
    .prepare = s_randrw_prepare,
    .run = s_randrw_run,
    .stop = NULL,               //  the flag is checked before every request
    .cleanup = s_randrw_cleanup,
    .job_prepare = randrw_set_new,
    .job_cleanup = randrw_set_destroy,
};
