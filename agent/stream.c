/*  agent/stream.c: one stream, one thread; see stream.h. */
#include "stream.h"

#include "../proto/clock.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

//  The thread waits on its condition variable until this long before the
//  start instant, then spins on the clock for the rest (clock_wait_until):
//  timer wake-ups here are often hundreds of microseconds late, and the
//  spin makes streams on every host start within microseconds of the
//  instant. The wait can be cut short by an abort; the spin is too short
//  to matter.
#define S_FINAL_SPIN_NS (5 * NS_PER_MSEC)

struct _stream_t {
    const workload_ops_t *ops;      //  the workload's operations
    workload_stream_t ws;           //  state shared with the workload
    bool remove_files;              //  cleanup removes the files (false with keep once launched)
    int notify_fd;                  //  eventfd written when the thread ends, -1 for none
    pthread_t thread;               //  the stream's thread, valid when launched
    bool launched;                  //  the thread was created
    bool joined;                    //  the thread was joined
    pthread_mutex_t lock;           //  guards the four fields below
    pthread_cond_t wakeup;          //  signalled on start and stop
    bool start_given;               //  stream_start was called
    int64_t start_at_ns;            //  the instant to start at
    bool stop_requested;            //  stream_stop was called
    char stop_reason [MSG_TEXT_MAX + 1];    //  its reason
    //  Written by the thread before it sets done, read after:
    int64_t start_ns;               //  instant it really began, 0 if never
    int64_t usr_ns;                 //  user CPU of the timed part
    int64_t sys_ns;                 //  system CPU of the timed part
    atomic_bool done;               //  the thread has ended: figures are final
    bool result_taken;              //  stream_take_result returned them
};

//  Prepare one stream through its workload.
stream_t *
stream_new (const workload_ops_t *ops, const jobspec_t *spec, uint32_t index,
            const char *path, char *err, size_t errlen)
{
    stream_t *self = calloc (1, sizeof (stream_t));
    if (!self) {
        snprintf (err, errlen, "stream %u: %s", index, strerror (ENOMEM));
        return NULL;
    }
    self->ops = ops;
    self->ws.spec = spec;
    self->ws.index = index;
    msg_strcpy (self->ws.path, path, sizeof (self->ws.path));
    confine_shorten (self->ws.path, self->ws.shown, sizeof (self->ws.shown));
    atomic_init (&self->ws.bytes, 0);
    atomic_init (&self->ws.stop, false);
    atomic_init (&self->done, false);
    self->remove_files = true;
    self->notify_fd = -1;

    pthread_condattr_t attr;
    pthread_condattr_init (&attr);
    pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
    pthread_cond_init (&self->wakeup, &attr);
    pthread_condattr_destroy (&attr);
    pthread_mutex_init (&self->lock, NULL);

    if (ops->prepare (&self->ws, err, errlen) == -1) {
        stream_destroy (&self);
        return NULL;
    }
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
    self->ops->cleanup (&self->ws, self->remove_files);
    pthread_cond_destroy (&self->wakeup);
    pthread_mutex_destroy (&self->lock);
    free (self);
    *self_p = NULL;
}

//  Block until the start instant is known and near, or a stop comes.
//  Returns the instant, or -1 if the stream was stopped first.
static int64_t
s_wait_for_start (stream_t *self)
{
    pthread_mutex_lock (&self->lock);
    while (!self->start_given && !self->stop_requested)
        pthread_cond_wait (&self->wakeup, &self->lock);

    int64_t wake_ns = self->start_at_ns - S_FINAL_SPIN_NS;
    struct timespec wake = {
        .tv_sec = wake_ns / NS_PER_SEC, .tv_nsec = wake_ns % NS_PER_SEC
    };
    while (!self->stop_requested && clock_now_ns () < wake_ns)
        if (pthread_cond_timedwait (&self->wakeup, &self->lock, &wake) == ETIMEDOUT)
            break;
    int64_t start_at_ns = self->stop_requested? -1: self->start_at_ns;
    pthread_mutex_unlock (&self->lock);
    return start_at_ns;
}

//  CPU time of a timeval, in ns.
static int64_t
s_timeval_ns (struct timeval tv)
{
    return (int64_t) tv.tv_sec * NS_PER_SEC + (int64_t) tv.tv_usec * NS_PER_USEC;
}

//  Mark the stream aborted with the reason given to stream_stop.
static void
s_record_abort (stream_t *self)
{
    if (self->ws.error [0])
        return;             //  an error came first: it is the better story
    pthread_mutex_lock (&self->lock);
    snprintf (self->ws.error, sizeof (self->ws.error), "aborted: %s", self->stop_reason);
    pthread_mutex_unlock (&self->lock);
    self->ws.err_no = ECANCELED;
}

//  The stream's thread: wait for the instant, run the timed part, record
//  the figures, tell the loop.
static void *
s_stream_thread (void *args)
{
    stream_t *self = args;
    //  The default slack of 50 us would be the floor of our start skew.
    prctl (PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);

    //  Every stream of the host must be on a CPU at the start instant,
    //  not just the first few: a thread woken elsewhere (a kworker,
    //  another stream still waking up) would otherwise hold one back by a
    //  scheduler slice, milliseconds. Where the agent may (root,
    //  CAP_SYS_NICE), the thread waits and spins under SCHED_FIFO,
    //  yielding to its peers at each turn, so that the first to see the
    //  instant starts and the others take the CPUs at once; each goes
    //  back to normal scheduling as it starts, before its first write.
    struct sched_param realtime = { .sched_priority = 1 };
    bool raised = pthread_setschedparam (pthread_self (), SCHED_FIFO, &realtime) == 0;
    int64_t start_at_ns = s_wait_for_start (self);
    int64_t started_ns = 0;
    if (start_at_ns != -1)
        started_ns = clock_wait_until (start_at_ns, S_FINAL_SPIN_NS, raised);
    if (raised) {
        struct sched_param normal = { .sched_priority = 0 };
        pthread_setschedparam (pthread_self (), SCHED_OTHER, &normal);
    }

    if (start_at_ns == -1 || workload_stopping (&self->ws))
        s_record_abort (self);
    else {
        self->start_ns = started_ns;
        self->ws.start_ns = started_ns;
        struct rusage before, after;
        getrusage (RUSAGE_THREAD, &before);
        int status = self->ops->run (&self->ws);
        getrusage (RUSAGE_THREAD, &after);
        self->usr_ns = s_timeval_ns (after.ru_utime) - s_timeval_ns (before.ru_utime);
        self->sys_ns = s_timeval_ns (after.ru_stime) - s_timeval_ns (before.ru_stime);
        if (self->ws.end_ns == 0)
            self->ws.end_ns = clock_now_ns ();
        if (status == WORKLOAD_STOPPED)
            s_record_abort (self);
    }
    atomic_store_explicit (&self->done, true, memory_order_release);
    if (self->notify_fd != -1) {
        uint64_t one = 1;
        //  An eventfd write only fails if the counter would overflow,
        //  and then the loop has a wake-up pending anyway.
        ssize_t rc = write (self->notify_fd, &one, sizeof (one));
        (void) rc;
    }
    return NULL;
}

//  Start the thread that waits for the start instant.
int
stream_launch (stream_t *self, int notify_fd, char *err, size_t errlen)
{
    assert (!self->launched);
    self->notify_fd = notify_fd;

    //  Signals belong to the loop thread: a SIGTERM taken by a stream
    //  thread would not interrupt the loop's poll.
    sigset_t all, previous;
    sigfillset (&all);
    pthread_sigmask (SIG_SETMASK, &all, &previous);
    int rc = pthread_create (&self->thread, NULL, s_stream_thread, self);
    pthread_sigmask (SIG_SETMASK, &previous, NULL);
    if (rc != 0) {
        snprintf (err, errlen, "pthread_create(stream %u): %s", self->ws.index, strerror (rc));
        return -1;
    }
    self->launched = true;
    self->remove_files = !self->ws.spec->keep;
    return 0;
}

//  Hand the thread its start instant, once.
void
stream_start (stream_t *self, int64_t start_ns)
{
    pthread_mutex_lock (&self->lock);
    if (!self->start_given) {
        self->start_given = true;
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
        pthread_join (self->thread, NULL);
        self->joined = true;
    }
}

//  True once the thread has published its figures.
bool
stream_done (stream_t *self)
{
    return atomic_load_explicit (&self->done, memory_order_acquire);
}

//  Bytes done so far.
uint64_t
stream_bytes (stream_t *self)
{
    return atomic_load_explicit (&self->ws.bytes, memory_order_relaxed);
}

//  Index of the stream within its job.
uint32_t
stream_index (stream_t *self)
{
    return self->ws.index;
}

//  Hand out the finished stream's figures, once. Its files stay until
//  stream_destroy: removing a file drops its dirty pages, and the host's
//  figures at the end of the window (agent/hostwatch.h) must still see
//  what the test left in the page cache.
bool
stream_take_result (stream_t *self, msg_result_t *result)
{
    if (self->result_taken || !stream_done (self))
        return false;
    self->result_taken = true;
    stream_wait (self);

    result->stream = self->ws.index;
    result->bytes = atomic_load_explicit (&self->ws.bytes, memory_order_relaxed);
    result->start_ns = self->start_ns;
    result->last_write_ns = self->ws.last_write_ns;
    result->end_ns = self->ws.end_ns;
    result->usr_ns = self->usr_ns;
    result->sys_ns = self->sys_ns;
    result->err_no = self->ws.err_no;
    msg_strcpy (result->error, self->ws.error, sizeof (result->error));
    msg_strcpy (result->path, self->ws.path, sizeof (result->path));
    return true;
}
