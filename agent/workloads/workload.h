/*  agent/workloads/workload.h: how a workload plugs into the agent.

    A workload is one ops table, declared with designated initializers in
    the workload's own file (null.c, write.c, ...) as workload_NAME_ops, and
    found by the one table in workloads.c, which WORKLOAD_LIST (proto/
    workload_list.h) fills, indexed by workload_t. What
    the workload means (timed or not, its files, its phases) is its row in
    proto/workload.c; the ops are only how this agent does it.

    The agent calls the operations in this order, for every stream of a job:

        validate (spec)         once per job, in the agent's loop thread,
                                before anything is created: what only the
                                agent can check (workload_check has run)
        prepare (ws)            per stream, in the stream's own thread, as
                                soon as the job is accepted: open or create
                                files, allocate and fill buffers, lay files
                                out; everything that must not be timed. The
                                agent's loop goes on answering meanwhile.
        run (ws, phase)         per stream and phase, in the stream's
                                thread, after the phase's start instant:
                                the timed part of that phase
        stop (ws)               from the loop thread while run may be going,
                                after ws->stop was set; NULL when checking
                                the flag between calls is enough
        sample (ws, out)        from the loop thread every interval while
                                run goes on; NULL for a SAMPLE of ws->bytes
        cleanup (ws, remove)    per stream, in the loop thread, after the
                                thread ended: close, free, and remove the
                                stream's files if asked

    A workload whose streams work on one thing together (randrw's file
    set) has two operations more, per job, both in the loop thread:

        job_prepare (job)       before any stream is launched: make what
                                the streams share (job->data), no I/O
        job_cleanup (job, ok)   after every stream's cleanup: release it

    The stream state (workload_stream_t) is shared: the agent owns the
    fields above `data`, the workload owns `data`. While the thread runs,
    only it writes to ws; the loop reads `bytes` (an atomic, for samples)
    and writes `stop` (an atomic), nothing else. A workload with threads
    of its own (bonnie's seekers) lets them add to `bytes` atomically
    while the stream's thread waits for them, and gathers the rest of
    their figures into ws itself, their CPU time in extra_usr_ns and
    extra_sys_ns.

    Figures and time. A workload times every request of its timed part
    with the clock (clock_now_ns, the vDSO's: no system call) around the
    call and hands both instants to workload_count, which files the
    request under its kind (its histogram, reads, writes or fsyncs, and
    its bytes) unless it completed in the ramp; nothing on that path
    locks, allocates or calls the kernel. A time-bound phase (runtime)
    ends at ws->stop_ns, one instant for every stream of the test on
    every host: the clock read that begins each request is held against
    it (workload_may_issue), and once the instant has come no request is
    issued, so a stream's last request is the one in flight at the
    instant (or one that ended just before it); the flush after it is
    timed as usual. workload_count keeps when the last read or write was
    issued and when it ended, so that the report can tell how late each
    stream stopped, and why.
*/
#ifndef IOFLEET_WORKLOAD_H
#define IOFLEET_WORKLOAD_H

#include "../confine.h"
#include "../interval_latency.h"

#include "../../proto/clock.h"
#include "../../proto/jobspec.h"
#include "../../proto/msg.h"
#include "../../proto/workload.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

//  What run returns.
#define STREAM_DONE       0       //  did all it was asked to
#define STREAM_FAILED    -1       //  stopped on an error, recorded in ws->error
#define STREAM_STOPPED    1       //  left early because ws->stop was set

//  What a request helper returns when a time-bound phase's stop instant
//  came before it issued anything (workload_write_full, _source_read).
#define STREAM_TIME_UP   -2

//  One stream as a workload sees it. The figures of the timed part
//  (bytes .. end_ns) start again at zero with every phase.
struct _kept_t;

//  What the streams of one job share (a workload with job_prepare), and
//  where files the job laid out may go to outlive its test.
typedef struct {
    const jobspec_t *spec;                  //  the job's options, files resolved under the roots
    struct _kept_t *kept;                   //  the session's kept files (agent/kept.h), or NULL
    uint64_t session_id;                    //  the session the job belongs to, for kept_adopt
    void *data;                             //  the workload's shared state
} workload_job_t;

typedef struct {
    const jobspec_t *spec;                  //  the job's options, owned by the job
    workload_job_t *job;                    //  what the job's streams share, NULL for nothing
    uint32_t index;                         //  0-based stream index within the job
    char path [JOB_PATH_MAX + 1];           //  resolved path under a root, "" if the job has none
    char shown [CONFINE_SHOWN_MAX];         //  path as messages show it (confine_shorten)
    uint64_t laid_out_bytes;                //  prepare: bytes written to lay a file out (untimed)
    _Atomic uint64_t bytes;                 //  progress of the phase, read by samples
    int64_t start_ns;                       //  when the phase began (for `rate`)
    int64_t paced_ns;                       //  `rate`, `rate_iops`: instant the requests so
                                            //  far are paid up to
    int64_t stop_ns;                        //  runtime: no request is issued at or after
                                            //  it; 0 without
    int64_t count_from_ns;                  //  ramp: requests done before it count nowhere;
                                            //  0 without
    bool ramp_over;                         //  a request was counted after the ramp
    int64_t ramp_usr_ns;                    //  then the thread's user CPU so far
    int64_t ramp_sys_ns;                    //  and its system CPU
    atomic_bool stop;                       //  set by the agent: end the timed part soon
    uint64_t counted_bytes;                 //  bytes of the requests counted (`bytes` shows it)
    uint64_t reads;                         //  read requests of the phase
    uint64_t writes;                        //  write requests of the phase
    uint64_t fsyncs;                        //  fsync and fdatasync calls of the phase
    histogram_t latency [MSG_LATENCY_KINDS];    //  time of each request counted, by kind
    interval_latency_t *interval;           //  the host's latency of the interval, shared
                                            //  with the test's other streams; NULL for none
    int64_t last_issue_ns;                  //  when the phase's last read or write call was
                                            //  issued, 0 if none
    int64_t last_write_ns;                  //  end of that call, 0 if none
    int64_t end_ns;                         //  after fsync and close, 0 if not reached
    uint64_t busy_ns;                       //  time of every read and write counted, summed:
                                            //  over the phase's length, the mean in flight
    uint32_t depth_max;                     //  most requests in flight at once (an engine's),
                                            //  0 for a workload without an engine
    uint32_t inflight_at_stop;              //  requests issued before the stop instant that
                                            //  ended at or after it
    int64_t extra_usr_ns;                   //  user CPU of the workload's own threads in the
                                            //  phase (bonnie's seekers), added to the stream's
    int64_t extra_sys_ns;                   //  and their system CPU
    int err_no;                             //  errno of the first failure, 0 if none
    char error [MSG_TEXT_MAX + 1];          //  "write(/data/x.1): No space left on device"
    void *data;                             //  the workload's private state
} workload_stream_t;

//  One workload: its name and its operations.
typedef struct {
    const char *name;                       //  as in proto/workload.c
    //  Check the options of a job. Returns 0, or -1 with a reason in err.
    int (*validate) (const jobspec_t *spec, char *err, size_t errlen);
    //  Bytes one stream of the job allocates for its run (its buffers),
    //  which the agent's bound on a test's memory counts; NULL for none.
    uint64_t (*stream_memory) (const jobspec_t *spec);
    //  Make one stream ready. Returns 0, or -1 with "what(path): reason"
    //  in err; cleanup is called afterwards either way.
    int (*prepare) (workload_stream_t *ws, char *err, size_t errlen);
    //  The timed part of one phase (0 for a workload without phases).
    //  Returns STREAM_DONE, _FAILED or _STOPPED.
    int (*run) (workload_stream_t *ws, uint32_t phase);
    //  Help run notice ws->stop sooner; may be NULL.
    void (*stop) (workload_stream_t *ws);
    //  Fill out with the stream's sample now (test_id and job_id are the
    //  caller's): NULL for a SAMPLE of the bytes done.
    void (*sample) (workload_stream_t *ws, msg_t *out);
    //  Release what prepare and run hold; remove files if remove_files.
    void (*cleanup) (workload_stream_t *ws, bool remove_files);
    //  Make what the streams of a job share (job->data), before any of
    //  them is launched, in the loop thread: nothing that blocks. Returns
    //  0, or -1 with a reason in err. NULL: the streams share nothing.
    int (*job_prepare) (workload_job_t *job, char *err, size_t errlen);
    //  Release it after every stream's cleanup. prepared: every stream
    //  of the job became ready, so what it laid out is whole and goes as
    //  keep and job->kept say; otherwise what the job created goes now.
    void (*job_cleanup) (workload_job_t *job, bool prepared);
} workload_ops_t;

//  The ops of a workload_t value, or NULL if this agent does not know it.
const workload_ops_t *workload_lookup (int workload);

//  Record the first failure of a stream: err_no and "what(path): strerror"
//  built from the printf-style prefix (name paths by ws->shown). Later failures are not recorded, so
//  the report shows the cause rather than its consequences.
void workload_fail (workload_stream_t *ws, int err_no, const char *format, ...)
    __attribute__ ((format (printf, 3, 4)));

//  Record the first failure of a stream with a message already complete
//  (from a helper that wrote "open(path): reason" into an err buffer).
void workload_fail_message (workload_stream_t *ws, int err_no, const char *message);

//  --------------------------------------------------------------------
//  Helpers the workloads share (workloads.c)

//  Threads of the agent's own (streams, bonnie's seekers) run with a
//  stack of this size rather than glibc's default of 8 MiB: a thousand
//  streams of a test must fit in the address space and in memory even
//  under the sanitizers, and no workload keeps much on its stack.
#define WORKLOAD_STACK_BYTES (256 * 1024)

//  A thread of the agent's own, on a stack the agent maps and unmaps
//  itself. glibc keeps the stacks it makes for threads that ended, up to
//  40 MiB of them, with every page their threads touched: an idle agent
//  would hold a few kilobytes for each stream of the largest test it ran.
typedef struct {
    pthread_t id;                   //  the thread, valid once started
    void *stack;                    //  its guard page and stack, unmapped by the join
    size_t stack_bytes;             //  the size of that mapping
} workload_thread_t;

//  pthread_create on a stack of WORKLOAD_STACK_BYTES below a guard page,
//  with every signal blocked in the new thread (signals belong to the
//  agent's loop). Returns 0, or an errno value as pthread_create does.
int workload_thread_start (workload_thread_t *thread, void *(*run) (void *), void *arg);

//  Wait for a thread of workload_thread_start to end, and unmap its stack.
void workload_thread_join (workload_thread_t *thread);

//  User and system CPU time of the calling thread so far, in ns, exact
//  to the moment of the call (for a phase's figures, measured around it).
void workload_thread_cpu (int64_t *usr_ns, int64_t *sys_ns);

//  A new seed for workload_random_fill, from the kernel.
uint64_t workload_random_seed (void);

//  The next pseudo-random number after *state (splitmix64).
uint64_t workload_random_next (uint64_t *state);

//  A pseudo-random number in 0 .. bound - 1 (bound > 0), from *state.
uint64_t workload_random_below (uint64_t *state, uint64_t bound);

//  Fill size_bytes of buffer with pseudo-random bytes (splitmix64),
//  continuing from *state: incompressible data at memory speed.
void workload_random_fill (unsigned char *buffer, size_t size_bytes, uint64_t *state);

//  Memory of a stream with one buffer of bs bytes (write, fill): bs.
uint64_t workload_one_buffer (const jobspec_t *spec);

//  A page-aligned buffer of size_bytes in *buffer_p. Returns 0, or -1
//  with "posix_memalign(bs=N): reason" in err.
int workload_buffer_new (unsigned char **buffer_p, size_t size_bytes,
                         char *err, size_t errlen);

//  A page-aligned buffer of bs in *buffer_p, filled with the job's
//  pattern (random bytes continue from *seed). Returns 0, or -1 with the
//  reason in err.
int workload_pattern_buffer (workload_stream_t *ws, unsigned char **buffer_p, uint64_t *seed,
                             char *err, size_t errlen);

//  Fill bs bytes of buffer with the job's pattern (random bytes continue
//  from *seed).
void workload_pattern_fill (workload_stream_t *ws, unsigned char *buffer, uint64_t *seed);

//  A file a stream writes, and what removing it safely takes: the
//  directory it was opened in, held open, and the identity of the file
//  in it. Removal goes through that descriptor and only while the name
//  there is still this file, so a directory renamed and replaced by a
//  symlink meanwhile cannot turn it into the removal of another file.
typedef struct {
    int fd;                     //  the open file, -1 once closed
    int dir_fd;                 //  O_PATH descriptor of its directory, -1 for none
    dev_t dev;                  //  the file's device
    ino_t ino;                  //  and inode, checked before removing its name
    bool ours;                  //  a regular file of one link, emptied by us: ours to remove
} workload_output_t;

//  An output with nothing open yet.
void workload_output_init (workload_output_t *out);

//  Open ws->path for writing: its directory with confine_open (no symlink
//  on the way), the file relative to it (created if missing, O_DIRECT if
//  spec->direct, never a symlink). Only a regular file with one link is
//  written: a file with other hard links may be someone else's file
//  outside the roots. It is emptied (ftruncate) once it passed those
//  checks, and then it is ours to remove. Returns 0, or -1 with
//  "open(path): reason" in err, e.g. "open(/srv/a/hl): has 2 hard
//  links; refusing to write through it".
int workload_open_output (workload_stream_t *ws, workload_output_t *out,
                          char *err, size_t errlen);

//  Open ws->path to lay it out without emptying it: created if missing
//  (then out->ours), else opened as it is; refused like an output if it
//  is not a regular file of one link. Never O_DIRECT. Returns 0, or -1
//  with "open(path): reason" in err.
int workload_open_layout (workload_stream_t *ws, workload_output_t *out,
                          char *err, size_t errlen);

//  Open the file of out again (flags O_RDONLY, O_WRONLY or O_RDWR, with
//  O_DIRECT if wanted; never created or truncated) by its name in the
//  directory held since it was opened, checking that the name is still
//  the same file (device and inode) and, to write, still of one link.
//  Returns a descriptor the caller closes, or -1 with "open(path):
//  reason" in err and errno set (ESTALE if the file was replaced).
int workload_output_reopen (workload_stream_t *ws, workload_output_t *out, int flags,
                            char *err, size_t errlen);

//  The directory part of a resolved path (the path itself for a name
//  without one), opened O_PATH with confine_open: no symlink on the
//  way. shown names the path in messages. Returns the descriptor, or -1
//  with "open(shown): reason" in err and errno set.
int workload_open_dir (const char *path, const char *shown, char *err, size_t errlen);

//  Open name in the directory dir_fd with flags (O_NOFOLLOW and
//  O_CLOEXEC added; mode 0644 if it creates), as every file a workload
//  writes is opened: never through a symlink, never blocking on a FIFO,
//  only a regular file, and to write only one of a single link. Fills
//  *st. Returns the descriptor, or -1 with "open(shown): reason" in err
//  and errno set (EEXIST for O_EXCL on a file that is there).
int workload_open_at (int dir_fd, const char *name, const char *shown, int flags,
                      struct stat *st, char *err, size_t errlen);

//  The last component of a resolved path: the file's name in its
//  directory (borrowed from path).
const char *workload_file_name (const char *path);

//  Pacing (pace.c). With spec->rate or spec->rate_iops, wait until a
//  call of call_bytes, just made, is paid for; returns at once without
//  either or once stopped.
void workload_pace (workload_stream_t *ws, uint64_t call_bytes);

//  True if the job paces its streams (rate or rate_iops).
bool workload_paced (const workload_stream_t *ws);

//  The instant the next request may be issued, paid for the ones
//  before, if it is still to come; 0 if it may go now (no pacing, paid
//  up, or the stop instant passed: workload_may_issue then says no). A
//  stream with requests in flight waits for their completions until
//  then rather than sleeping.
int64_t workload_pace_wanted (const workload_stream_t *ws);

//  A request of call_bytes was issued: pay for it.
void workload_pace_paid (workload_stream_t *ws, uint64_t call_bytes);

//  Sleep until until_ns (or the stop instant, or a stop), in slices.
void workload_pace_wait (workload_stream_t *ws, int64_t until_ns);

//  Write all length_bytes of buffer to fd (short writes continue where
//  they stopped), adding to *done_bytes; every call is timed and counted
//  (workload_count). Returns 0; STREAM_TIME_UP if the phase's stop
//  instant came before the first call (nothing written: a block begun
//  is written whole); or -1 with the failure recorded in ws.
int workload_write_full (workload_stream_t *ws, int fd, const unsigned char *buffer,
                         size_t length_bytes, uint64_t *done_bytes);

//  Write spec->size_bytes to fd, bs at a time (the last block may be
//  shorter), checking the stop flag before every block; with random_state,
//  the buffer gets fresh random bytes before every block. With a runtime
//  the file is written again from its start each time it is whole, until
//  the stop instant: no block is begun at or after it. Counts into *done_bytes. Returns STREAM_DONE,
//  _FAILED (recorded) or _STOPPED.
int workload_write_blocks (workload_stream_t *ws, int fd, unsigned char *buffer,
                           uint64_t *random_state, uint64_t *done_bytes);

//  Write (op ENGINE_WRITE) or read (ENGINE_READ) size_bytes of a file
//  from offset 0 through engine (its descriptor 0), bs a block, as many
//  in flight as the engine has slots (to write, every slot's buffer
//  holds what is written); with a runtime over and over from the start
//  until the stop instant (no block is begun at or after it); paced by
//  `rate`; every block counted once (queued.c). A read that finds the
//  file ended before size_bytes fails. Counts into *done_bytes. Returns
//  STREAM_DONE, _FAILED (recorded) or _STOPPED, with nothing in flight.
struct _engine_t;
int workload_queued_pass (workload_stream_t *ws, struct _engine_t *engine, int op,
                          uint64_t size_bytes, uint64_t *done_bytes);

//  Whether a read request of want_bytes, come back from engine, is whole:
//  0, or -1 with the stream failed, in the engine's own words where it
//  has them, or saying where the file ended short of size_bytes
//  (queued.c). The caller counts the request and gives its slot back.
struct _engine_request_t;
int workload_read_whole (workload_stream_t *ws, struct _engine_t *engine,
                         const struct _engine_request_t *request, uint64_t want_bytes,
                         uint64_t size_bytes);

//  The engine itself failed (not a request: its ring, its connection):
//  the stream fails with the engine's own account, or errno's (queued.c).
void workload_engine_failed (workload_stream_t *ws, struct _engine_t *engine);

//  End of a timed part that wrote to *fd_p: flush as spec->fsync asks
//  (only when status is STREAM_DONE: an aborted or failed stream must
//  answer promptly), the flush timed and counted, close, note the end.
//  Returns status, or STREAM_FAILED if the flush or close failed.
int workload_output_end (workload_stream_t *ws, int *fd_p, int status);

//  Cleanup of an output: close what is open, and if remove_file and the
//  file is ours, remove its name from the directory it was opened in,
//  if that name is still the same file (device and inode).
void workload_output_release (workload_stream_t *ws, workload_output_t *out, bool remove_file);

//  --------------------------------------------------------------------
//  A file read from start to end: a local path or an nfs:// URL read
//  over the wire with libnfs (source.c; copy's src, read's path)

struct nfs_context;
struct nfsfh;

//  One file being read.
typedef struct {
    const char *role;               //  what messages call it: "source", "file"
    char shown [CONFINE_SHOWN_MAX]; //  its path or URL as messages show it
    int fd;                         //  a local file, -1 for none
    dev_t dev;                      //  a local file's device
    ino_t ino;                      //  and inode
    struct nfs_context *nfs;        //  an NFS file: its context (connection), or NULL
    struct nfsfh *nfsfh;            //  the open NFS file, or NULL
    uint64_t size_bytes;            //  its size when it was opened
} workload_source_t;

//  Nothing open yet; role and name are for messages ("source", the URL).
void workload_source_init (workload_source_t *source, const char *role, const char *name);

//  Open a local file already resolved under a root (confine_open: no
//  symlink on the way, nor as the file) for reading, with O_DIRECT among
//  extra_flags if wanted, and check that it is a regular file. Returns 0,
//  or -1 with "open(path): reason" in err and errno as open(2) left it
//  (ENOENT for a missing file).
int workload_source_open_local (workload_source_t *source, const char *path, int extra_flags,
                                char *err, size_t errlen);

//  Connect to the server of an nfs:// URL, mount its export, open and
//  check the file. Every error names the server and the path. Returns 0,
//  or -1 with the reason in err.
int workload_source_open_nfs (workload_source_t *source, const char *url,
                              char *err, size_t errlen);

//  Whether this host reads name as the job asks (a job's validate): an
//  nfs:// URL always (the nfs engine, whatever `engine` says), a local
//  file if the host runs the job's engine. Returns 0, or -1 with the
//  reason in err.
int workload_source_check (const jobspec_t *spec, const char *name, char *err, size_t errlen);

//  The engine that reads source, iodepth slots of bs: the nfs engine on
//  an nfs:// file's context, else the job's engine on the file's
//  descriptor (O_DIRECT if direct says so). Every request reads at most
//  bs from the slot's offset into its buffer. While requests may be in
//  flight (a failed engine), close the source before destroying the
//  engine. Returns NULL with the reason in err.
struct _engine_t *workload_source_engine (workload_stream_t *ws, workload_source_t *source,
                                          bool direct, char *err, size_t errlen);

//  Close what is open.
void workload_source_close (workload_source_t *source);

//  Memory of a stream reading name (a path or an nfs:// URL) through
//  workload_source_engine: its engine's (iodepth buffers of bs), and for
//  an URL as much again, a bound on what libnfs holds of the replies on
//  their way.
uint64_t workload_source_memory (const jobspec_t *spec, const char *name);

//  True once the agent asked the stream to stop.
static inline bool
workload_stopping (workload_stream_t *ws)
{
    return atomic_load_explicit (&ws->stop, memory_order_relaxed);
}

//  Publish the bytes done so far (by the stream's thread).
static inline void
workload_set_bytes (workload_stream_t *ws, uint64_t bytes)
{
    atomic_store_explicit (&ws->bytes, bytes, memory_order_relaxed);
}

//  The first request after the ramp: the CPU the stream's thread spent
//  so far is the ramp's, left out of the phase's figures. Once a phase.
void workload_ramp_over (workload_stream_t *ws);

//  One request of kind (MSG_LATENCY_READ, _WRITE, _FSYNC) that began at
//  begin_ns and ended at end_ns (clock_now_ns around the call), moving
//  bytes: its time goes into the kind's histogram, and it counts among
//  the phase's reads, writes or fsyncs and bytes, unless it completed
//  before the end of the ramp. The hot path of every workload: no lock,
//  no allocation, no system call (the host's interval takes it with one
//  relaxed atomic add).
static inline void
workload_count (workload_stream_t *ws, msg_latency_kind_t kind, int64_t begin_ns,
                int64_t end_ns, uint64_t bytes)
{
    if (kind != MSG_LATENCY_FSYNC) {
        //  With requests in flight (an engine's iodepth) they complete
        //  in any order: the last issued and the last ended are kept.
        if (begin_ns > ws->last_issue_ns)
            ws->last_issue_ns = begin_ns;
        if (end_ns > ws->last_write_ns)
            ws->last_write_ns = end_ns;
        if (ws->stop_ns && begin_ns < ws->stop_ns && end_ns >= ws->stop_ns)
            ws->inflight_at_stop++;
    }
    if (end_ns < ws->count_from_ns)
        return;
    if (kind != MSG_LATENCY_FSYNC)
        ws->busy_ns += (uint64_t) (end_ns - begin_ns);
    if (ws->count_from_ns && !ws->ramp_over)
        workload_ramp_over (ws);
    histogram_record (&ws->latency [kind], end_ns - begin_ns);
    if (ws->interval)
        interval_latency_record (ws->interval, kind, end_ns - begin_ns);
    if (kind == MSG_LATENCY_READ)
        ws->reads++;
    else
    if (kind == MSG_LATENCY_WRITE)
        ws->writes++;
    else
        ws->fsyncs++;
    if (bytes) {
        ws->counted_bytes += bytes;
        workload_set_bytes (ws, ws->counted_bytes);
    }
}

//  The instant a request is issued, in *begin_ns: the clock read once,
//  both for the request's time and to hold it against the stop instant.
//  False once a time-bound phase's instant has come (never without a
//  runtime): the caller then issues nothing, so that no request begins
//  at or after the instant, whatever held the stream up before it (a
//  wait for a `rate`, a block drawn afresh, the scheduler).
static inline bool
workload_may_issue (const workload_stream_t *ws, int64_t *begin_ns)
{
    *begin_ns = clock_now_ns ();
    return !ws->stop_ns || *begin_ns < ws->stop_ns;
}

//  True if the phase ends on the clock (a runtime) rather than when its
//  bytes or requests are done.
static inline bool
workload_time_bound (const workload_stream_t *ws)
{
    return ws->stop_ns != 0;
}

#endif
