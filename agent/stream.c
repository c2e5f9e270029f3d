/*  agent/stream.c: one stream, one thread; see stream.h. */
#include "stream.h"

#include "../proto/clock.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

//  The thread waits on its condition variable until CLOCK_START_SPIN_NS
//  before the start instant, then spins on the clock for the rest
//  (clock_wait_until): timer wake-ups here are often hundreds of
//  microseconds late, and the spin makes streams on every host start
//  within microseconds of the instant. The wait can be cut short by an
//  abort; the spin is too short to matter.

//  Where the thread stands, as the loop reads it.
typedef enum {
    S_PREPARING,                    //  in the workload's prepare
    S_WAITING,                      //  ready, waiting for a phase's instant
    S_RUNNING,                      //  in the timed part of a phase
    S_DONE                          //  the thread has ended
} s_state_t;

//  The figures of one phase, written by the thread before it counts the
//  phase done, read by the loop after.
typedef struct {
    uint32_t phase;                 //  which phase
    uint64_t bytes;                 //  bytes of its timed part
    uint64_t reads;                 //  its read requests
    uint64_t writes;                //  its write requests
    uint64_t fsyncs;                //  its fsync and fdatasync calls
    int64_t start_ns;               //  instant it really began, 0 if never
    int64_t last_issue_ns;          //  when its last read or write call was issued
    int64_t last_write_ns;          //  end of that call
    int64_t end_ns;                 //  after fsync and close
    uint64_t busy_ns;               //  time of its reads and writes, summed
    uint32_t depth_max;             //  most requests in flight at once, 0 without an engine
    uint32_t inflight_at_stop;      //  requests in flight at the stop instant
    int64_t usr_ns;                 //  user CPU of the thread (and the workload's own) during it
    int64_t sys_ns;                 //  system CPU of the thread (and the workload's own) during it
    int err_no;                     //  errno of its failure, ECANCELED if aborted
    char error [MSG_TEXT_MAX + 1];  //  why it failed, "" if it did not
} s_figures_t;

struct _stream_t {
    const workload_ops_t *ops;      //  the workload's operations
    workload_stream_t ws;           //  state shared with the workload
    uint32_t phase_count;           //  phases it runs
    bool remove_files;              //  cleanup removes the files (false with keep once ready)
    int notify_fd;                  //  eventfd written at every step, -1 for none
    stream_prepared_fn *prepared_fn;    //  told in the thread when prepare is over
    void *prepared_arg;             //  its argument
    workload_thread_t thread;       //  the stream's thread, valid when launched
    bool launched;                  //  the thread was created
    bool joined;                    //  the thread was joined
    pthread_mutex_t lock;           //  guards the fields down to stop_reason
    pthread_cond_t wakeup;          //  signalled on start and stop
    uint32_t starts_given;          //  phases whose instant is known
    int64_t start_at_ns;            //  the instant of the last of them
    bool stop_requested;            //  stream_stop was called
    char stop_reason [MSG_TEXT_MAX + 1];    //  its reason
    //  Published by the thread (release), read by the loop (acquire):
    atomic_int prepared;            //  0 preparing, 1 ready, -1 failed
    atomic_int state;               //  s_state_t
    atomic_uint phases_done;        //  phases whose figures are in `figures`
    char prepare_error [MSG_TEXT_MAX + 1];  //  why prepare failed
    s_figures_t figures;            //  the last phase done
    uint32_t results_taken;         //  phases whose figures the loop took
};

_Static_assert (sizeof (stream_t) <= STREAM_FIGURES_BYTES,
                "the bound on a test's memory counts a stream's figures as this");

//  Create a stream; its thread comes with stream_launch.
stream_t *
stream_new (const workload_ops_t *ops, const jobspec_t *spec, uint32_t index,
            const char *path, uint32_t phase_count, char *err, size_t errlen)
{
    assert (phase_count >= 1 && phase_count <= PHASES_MAX);
    stream_t *self = calloc (1, sizeof (stream_t));
    if (!self) {
        snprintf (err, errlen, "stream %u: %s", index, strerror (ENOMEM));
        return NULL;
    }
    self->ops = ops;
    self->phase_count = phase_count;
    self->ws.spec = spec;
    self->ws.index = index;
    msg_strcpy (self->ws.path, path, sizeof (self->ws.path));
    confine_shorten (path, self->ws.shown, sizeof (self->ws.shown));
    atomic_init (&self->ws.bytes, 0);
    atomic_init (&self->ws.stop, false);
    atomic_init (&self->prepared, 0);
    atomic_init (&self->state, S_PREPARING);
    atomic_init (&self->phases_done, 0);
    self->remove_files = true;
    self->notify_fd = -1;

    pthread_condattr_t attr;
    pthread_condattr_init (&attr);
    pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
    pthread_cond_init (&self->wakeup, &attr);
    pthread_condattr_destroy (&attr);
    pthread_mutex_init (&self->lock, NULL);
    return self;
}

//  Stop and join the thread, clean up, free the stream.
void
stream_destroy (stream_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    stream_t *self = *self_p;
    if (self->launched && !self->joined) {
        stream_stop (self, "discarded");
        stream_wait (self);
    }
    //  A stream that never became ready leaves nothing behind, keep or not.
    bool remove_files = self->remove_files
                     || atomic_load_explicit (&self->prepared, memory_order_acquire) != 1;
    self->ops->cleanup (&self->ws, remove_files);
    pthread_cond_destroy (&self->wakeup);
    pthread_mutex_destroy (&self->lock);
    free (self);
    *self_p = NULL;
}

//  Tell the loop that something changed.
static void
s_notify (stream_t *self)
{
    if (self->notify_fd == -1)
        return;
    uint64_t one = 1;
    //  An eventfd write only fails if the counter would overflow, and
    //  then the loop has a wake-up pending anyway.
    ssize_t rc = write (self->notify_fd, &one, sizeof (one));
    (void) rc;
}

//  Block until the instant of phase is known and near, or a stop comes.
//  Returns the instant, or -1 if the stream was stopped first; then
//  *announced says whether the phase had been given its instant (else it
//  never began, for anyone, and has no figures).
static int64_t
s_wait_for_start (stream_t *self, uint32_t phase, bool *announced)
{
    pthread_mutex_lock (&self->lock);
    while (self->starts_given <= phase && !self->stop_requested)
        pthread_cond_wait (&self->wakeup, &self->lock);

    int64_t wake_ns = self->start_at_ns - CLOCK_START_SPIN_NS;
    struct timespec wake = {
        .tv_sec = wake_ns / NS_PER_SEC, .tv_nsec = wake_ns % NS_PER_SEC
    };
    while (!self->stop_requested && clock_now_ns () < wake_ns)
        if (pthread_cond_timedwait (&self->wakeup, &self->lock, &wake) == ETIMEDOUT)
            break;
    int64_t start_at_ns = self->stop_requested? -1: self->start_at_ns;
    *announced = self->starts_given > phase;
    pthread_mutex_unlock (&self->lock);
    return start_at_ns;
}

//  Publish the figures of phase: the phase is done.
static void
s_publish (stream_t *self, uint32_t phase)
{
    self->figures.phase = phase;
    atomic_store_explicit (&self->phases_done, phase + 1, memory_order_release);
}

//  Record phase as aborted with the reason given to stream_stop, unless
//  an error of the workload's came first: it is the better story.
static void
s_record_abort (stream_t *self)
{
    s_figures_t *figures = &self->figures;
    if (figures->error [0])
        return;
    pthread_mutex_lock (&self->lock);
    snprintf (figures->error, sizeof (figures->error), "aborted: %s", self->stop_reason);
    pthread_mutex_unlock (&self->lock);
    figures->err_no = ECANCELED;
}

//  Every figure of the workload's side back to zero, for a new phase (or
//  one reported as not run).
static void
s_reset_figures (workload_stream_t *ws)
{
    atomic_store_explicit (&ws->bytes, 0, memory_order_relaxed);
    ws->counted_bytes = 0;
    ws->reads = ws->writes = ws->fsyncs = 0;
    for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
        histogram_init (&ws->latency [kind]);
    ws->last_issue_ns = ws->last_write_ns = 0;
    ws->end_ns = 0;
    ws->busy_ns = 0;
    ws->depth_max = ws->inflight_at_stop = 0;
    ws->extra_usr_ns = ws->extra_sys_ns = 0;
    ws->ramp_over = false;
}

//  Run the timed part of one phase, announced for start_at_ns and begun
//  at started_ns, and record it. A runtime ends it at the announced
//  instant plus the runtime, the same for every stream of the test
//  whenever each of them woke; a ramp leaves out what completes before
//  the announced instant plus the ramp, which becomes the phase's start.
//  Returns the workload's status.
static int
s_run_phase (stream_t *self, uint32_t phase, int64_t start_at_ns, int64_t started_ns)
{
    workload_stream_t *ws = &self->ws;
    s_figures_t *figures = &self->figures;
    const jobspec_t *spec = ws->spec;
    s_reset_figures (ws);
    ws->start_ns = started_ns;
    ws->paced_ns = 0;
    //  START keeps its instant within an hour of now, and the options'
    //  bounds keep runtime within a week: no overflow.
    ws->stop_ns = spec->runtime_ns? start_at_ns + spec->runtime_ns: 0;
    ws->count_from_ns = spec->ramp_ns? start_at_ns + spec->ramp_ns: 0;
    atomic_store_explicit (&self->state, S_RUNNING, memory_order_release);

    int64_t usr_before_ns, sys_before_ns, usr_after_ns, sys_after_ns;
    workload_thread_cpu (&usr_before_ns, &sys_before_ns);
    int status = self->ops->run (ws, phase);
    workload_thread_cpu (&usr_after_ns, &sys_after_ns);
    if (ws->end_ns == 0)
        ws->end_ns = clock_now_ns ();

    figures->bytes = atomic_load_explicit (&ws->bytes, memory_order_relaxed);
    figures->reads = ws->reads;
    figures->writes = ws->writes;
    figures->fsyncs = ws->fsyncs;
    //  After a ramp the phase's figures begin where the ramp ended, or
    //  where the stream ended if it did not last that long (0 of all).
    figures->start_ns = started_ns;
    if (ws->count_from_ns > started_ns)
        figures->start_ns = ws->count_from_ns < ws->end_ns? ws->count_from_ns: ws->end_ns;
    //  A write that ended in the ramp is no figure's.
    bool in_ramp = ws->last_write_ns != 0 && ws->last_write_ns <= figures->start_ns;
    figures->last_issue_ns = in_ramp? figures->start_ns: ws->last_issue_ns;
    figures->last_write_ns = in_ramp? figures->start_ns: ws->last_write_ns;
    figures->end_ns = ws->end_ns;
    figures->busy_ns = ws->busy_ns;
    figures->depth_max = ws->depth_max;
    figures->inflight_at_stop = ws->inflight_at_stop;
    //  The ramp's CPU is left out with its requests: counted from the
    //  first request after it, none at all if the ramp outlasted them.
    if (ws->ramp_over) {
        usr_before_ns = ws->ramp_usr_ns;
        sys_before_ns = ws->ramp_sys_ns;
    }
    else
    if (ws->count_from_ns) {
        usr_before_ns = usr_after_ns;
        sys_before_ns = sys_after_ns;
    }
    //  The workload's own threads (bonnie's seekers) worked for the phase too.
    figures->usr_ns = usr_after_ns - usr_before_ns + ws->extra_usr_ns;
    figures->sys_ns = sys_after_ns - sys_before_ns + ws->extra_sys_ns;
    if (status == STREAM_FAILED || ws->err_no) {
        figures->err_no = ws->err_no? ws->err_no: EIO;
        msg_strcpy (figures->error, ws->error [0]? ws->error: "failed", sizeof (figures->error));
        status = STREAM_FAILED;
    }
    else
    if (status == STREAM_STOPPED)
        s_record_abort (self);
    return status;
}

//  The stream's thread: prepare, then for each phase wait for its
//  instant, run it, publish its figures, tell the loop.
static void *
s_stream_thread (void *args)
{
    stream_t *self = args;
    //  The default slack of 50 us would be the floor of our start skew.
    prctl (PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);

    int rc = self->ops->prepare (&self->ws, self->prepare_error, sizeof (self->prepare_error));
    if (rc == -1 && !self->prepare_error [0])
        snprintf (self->prepare_error, sizeof (self->prepare_error), "prepare failed");
    if (self->prepared_fn)
        self->prepared_fn (self->prepared_arg, self, rc);
    atomic_store_explicit (&self->state, S_WAITING, memory_order_release);
    atomic_store_explicit (&self->prepared, rc == 0? 1: -1, memory_order_release);
    s_notify (self);

    for (uint32_t phase = 0; rc == 0 && phase < self->phase_count; phase++) {
        //  Every stream of the host must be on a CPU at the start instant,
        //  not just the first few: a thread woken elsewhere (a kworker,
        //  another stream still waking up) would otherwise hold one back
        //  by a scheduler slice, milliseconds. Where the agent may (root,
        //  CAP_SYS_NICE), the thread waits and spins under SCHED_FIFO,
        //  yielding to its peers at each turn, so that the first to see
        //  the instant starts and the others take the CPUs at once; each
        //  goes back to normal scheduling as it starts, before its first
        //  I/O call.
        struct sched_param realtime = { .sched_priority = 1 };
        bool raised = pthread_setschedparam (pthread_self (), SCHED_FIFO, &realtime) == 0;
        bool announced;
        int64_t start_at_ns = s_wait_for_start (self, phase, &announced);
        int64_t started_ns = 0;
        if (start_at_ns != -1)
            started_ns = clock_wait_until (start_at_ns, CLOCK_START_SPIN_NS, raised);
        if (raised) {
            struct sched_param normal = { .sched_priority = 0 };
            pthread_setschedparam (pthread_self (), SCHED_OTHER, &normal);
        }
        if (!announced)
            break;              //  stopped between phases: nothing began
        memset (&self->figures, 0, sizeof (self->figures));
        int status = STREAM_STOPPED;
        if (start_at_ns == -1 || workload_stopping (&self->ws)) {
            s_reset_figures (&self->ws);
            s_record_abort (self);
        }
        else
            status = s_run_phase (self, phase, start_at_ns, started_ns);
        atomic_store_explicit (&self->state, S_WAITING, memory_order_release);
        s_publish (self, phase);
        s_notify (self);
        if (status != STREAM_DONE)
            break;              //  the later phases are reported not run
    }
    atomic_store_explicit (&self->state, S_DONE, memory_order_release);
    s_notify (self);
    return NULL;
}

//  Start the thread, which prepares and waits for the start instants.
int
stream_launch (stream_t *self, int notify_fd, stream_prepared_fn *prepared, void *arg,
               char *err, size_t errlen)
{
    assert (!self->launched);
    self->notify_fd = notify_fd;
    self->prepared_fn = prepared;
    self->prepared_arg = arg;

    //  Signals belong to the loop thread: a SIGTERM taken by a stream
    //  thread would not interrupt the loop's poll. A small stack, so that
    //  a thousand streams cost little.
    int rc = workload_thread_start (&self->thread, s_stream_thread, self);
    if (rc != 0) {
        snprintf (err, errlen, "pthread_create(stream %u): %s", self->ws.index, strerror (rc));
        return -1;
    }
    self->launched = true;
    self->remove_files = !self->ws.spec->keep;
    return 0;
}

int
stream_prepared (stream_t *self)
{
    return atomic_load_explicit (&self->prepared, memory_order_acquire);
}

const char *
stream_prepare_error (stream_t *self)
{
    return stream_prepared (self) == -1? self->prepare_error: "";
}

uint64_t
stream_laid_out_bytes (stream_t *self)
{
    return stream_prepared (self) == 1? self->ws.laid_out_bytes: 0;
}

//  Hand the thread the instant of a phase, once. A stream whose thread
//  has ended (it failed or was stopped before) answers the phase at
//  once: not run.
void
stream_start (stream_t *self, uint32_t phase, int64_t start_ns)
{
    if (phase >= self->phase_count)
        return;
    if (stream_done (self)) {
        uint32_t done = atomic_load_explicit (&self->phases_done, memory_order_acquire);
        if (phase < done)
            return;             //  already reported
        //  The loop takes a phase's figures before it starts the next.
        assert (self->results_taken >= done);
        char cause [MSG_TEXT_MAX + 1];
        msg_strcpy (cause, self->figures.error [0]? self->figures.error: self->prepare_error,
                    sizeof (cause));
        memset (&self->figures, 0, sizeof (self->figures));
        s_reset_figures (&self->ws);
        self->figures.err_no = ECANCELED;
        snprintf (self->figures.error, sizeof (self->figures.error),
                  "not run: the stream stopped before (%s)", cause);
        s_publish (self, phase);
        s_notify (self);
        return;
    }
    pthread_mutex_lock (&self->lock);
    if (self->starts_given == phase) {
        self->starts_given = phase + 1;
        self->start_at_ns = start_ns;
        pthread_cond_broadcast (&self->wakeup);
    }
    pthread_mutex_unlock (&self->lock);
}

//  Raise the stop flag and wake a waiting thread; the first reason stays.
void
stream_stop (stream_t *self, const char *reason)
{
    pthread_mutex_lock (&self->lock);
    if (!self->stop_requested) {
        self->stop_requested = true;
        msg_strcpy (self->stop_reason, reason, sizeof (self->stop_reason));
        atomic_store_explicit (&self->ws.stop, true, memory_order_relaxed);
        pthread_cond_broadcast (&self->wakeup);
    }
    pthread_mutex_unlock (&self->lock);
    if (self->ops->stop)
        self->ops->stop (&self->ws);
}

//  Join the thread if it was launched.
void
stream_wait (stream_t *self)
{
    if (self->launched && !self->joined) {
        workload_thread_join (&self->thread);
        self->joined = true;
    }
}

//  True once the thread has ended.
bool
stream_done (stream_t *self)
{
    return atomic_load_explicit (&self->state, memory_order_acquire) == S_DONE
        || !self->launched;
}

//  True while a phase's timed part goes on.
bool
stream_running (stream_t *self)
{
    return atomic_load_explicit (&self->state, memory_order_acquire) == S_RUNNING;
}

//  Bytes done so far.
uint64_t
stream_bytes (stream_t *self)
{
    return atomic_load_explicit (&self->ws.bytes, memory_order_relaxed);
}

//  What the job's streams share, before the stream is launched.
void
stream_set_job (stream_t *self, workload_job_t *job)
{
    assert (!self->launched);
    self->ws.job = job;
}

//  Where the stream records the host's latency per interval. Under the
//  lock its thread takes to see a START, so that a phase started after
//  this records there.
void
stream_set_interval (stream_t *self, interval_latency_t *interval)
{
    pthread_mutex_lock (&self->lock);
    self->ws.interval = interval;
    pthread_mutex_unlock (&self->lock);
}

//  Index of the stream within its job.
uint32_t
stream_index (stream_t *self)
{
    return self->ws.index;
}

//  The stream's sample now.
void
stream_sample (stream_t *self, msg_t *out)
{
    if (self->ops->sample) {
        self->ops->sample (&self->ws, out);
        return;
    }
    out->type = MSG_SAMPLE;
    out->u.sample.stream = self->ws.index;
    out->u.sample.phase = atomic_load_explicit (&self->phases_done, memory_order_acquire);
    out->u.sample.t_ns = clock_now_ns ();
    out->u.sample.bytes = stream_bytes (self);
}

//  True while a phase's figures wait for stream_take_result.
bool
stream_result_waiting (stream_t *self)
{
    return self->results_taken < atomic_load_explicit (&self->phases_done, memory_order_acquire);
}

//  Hand out the figures of the last phase done, once. Its files stay
//  until stream_destroy: removing a file drops its dirty pages, and the
//  host's figures at the end of the window (agent/hostwatch.h) must
//  still see what the test left in the page cache.
bool
stream_take_result (stream_t *self, msg_result_t *result)
{
    uint32_t done = atomic_load_explicit (&self->phases_done, memory_order_acquire);
    if (self->results_taken >= done)
        return false;
    self->results_taken = done;
    if (stream_done (self))
        stream_wait (self);

    const s_figures_t *figures = &self->figures;
    result->stream = self->ws.index;
    result->phase = figures->phase;
    result->bytes = figures->bytes;
    result->reads = figures->reads;
    result->writes = figures->writes;
    result->fsyncs = figures->fsyncs;
    result->start_ns = figures->start_ns;
    result->last_issue_ns = figures->last_issue_ns;
    result->last_write_ns = figures->last_write_ns;
    result->end_ns = figures->end_ns;
    result->busy_ns = figures->busy_ns;
    result->depth_max = figures->depth_max;
    result->inflight_at_stop = figures->inflight_at_stop;
    result->usr_ns = figures->usr_ns;
    result->sys_ns = figures->sys_ns;
    result->err_no = figures->err_no;
    msg_strcpy (result->error, figures->error, sizeof (result->error));
    msg_strcpy (result->path, self->ws.path, sizeof (result->path));
    memcpy (result->latency, self->ws.latency, sizeof (result->latency));
    return true;
}
