/*  proto/msg.h: every message between coordinator and agent, defined once.

    A message is one msgpack map in one ZeroMQ frame. Every map carries
    "v" (protocol version, uint) and "t" (message type name, string); the
    other keys are the fields of the message's struct below. Encoding and
    decoding live in msg.c, one encoder and one decoder per message.

    The decoder never trusts its input: it requires the whole frame to be
    one map and nothing else, checks the type and bounds of every field,
    copies strings out with their length, ignores keys it does not know
    (a newer peer may add some) and tells a malformed frame from one of
    another protocol version. Required fields that are missing make the
    frame malformed.

    Conversation (coordinator C, agent A):

        C -> A  HELLO      A -> C  WELCOME, or ERROR "busy" naming the
                                   coordinator it serves (a probe HELLO
                                   always gets WELCOME and starts nothing)
        C -> A  PING       A -> C  PONG            (several: clock offset; and
                                   keepalives, which renew the lease)
        C -> A  PREPARE    A -> C  READY, or ERROR (one per job of the test)
        C -> A  DROP       A -> C  DROPPED, or ERROR (drop_caches: once per
                                   test run, after every job is prepared)
        C -> A  START      A -> C  SAMPLE ... RESULT (one per stream)
                   A -> C  MONITOR ... (monitor jobs: the host's counters)
                   A -> C  HOST, after the settle period
           (START, SAMPLEs, RESULTs and HOST again for every further phase
           of the test: each phase starts once every agent reported the
           one before)
        C -> A  STOP       a phase is over everywhere: hosts without streams
                           of their own close its window; after the last
                           phase, monitors end
        C -> A  ABORT      A -> C  RESULT for every stream still running
        C -> A  BYE                agent goes back to idle
*/
#ifndef IOFLEET_MSG_H
#define IOFLEET_MSG_H

#include "histogram.h"
#include "jobspec.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//  How much of a bad value an error message quotes, in bytes.
#define MSG_QUOTE_MAX 32

#define MSG_FRAME_MAX   (64 * 1024) //  largest frame either side accepts
#define MSG_TEXT_MAX    511         //  error texts, reasons, names of peers
#define MSG_HOST_MAX    255         //  host names, kernel releases

typedef enum {
    MSG_HELLO = 1,
    MSG_WELCOME,
    MSG_PING,
    MSG_PONG,
    MSG_PREPARE,
    MSG_READY,
    MSG_START,
    MSG_SAMPLE,
    MSG_RESULT,
    MSG_ABORT,
    MSG_BYE,
    MSG_ERROR,
    MSG_HOST,
    MSG_MONITOR,
    MSG_STOP,
    MSG_DROP,
    MSG_DROPPED,
    MSG_TYPE_COUNT              //  one past the last
} msg_type_t;

//  Coordinator introduces itself and asks for the agent.
typedef struct {
    char coordinator [MSG_TEXT_MAX + 1];    //  "user@host pid=123", shown to a second coordinator
    uint32_t lease_ms;                      //  agent gives up on silence longer than this
    bool probe;                             //  only asking (iofleet ping): no session
} msg_hello_t;

//  Agent accepts and says what it runs on.
typedef struct {
    char name [JOB_NAME_MAX + 1];           //  --name of the agent
    char hostname [MSG_HOST_MAX + 1];       //  uname nodename
    char kernel [MSG_HOST_MAX + 1];         //  uname release
    uint32_t cpus;                          //  online CPUs
    uint64_t mem_bytes;                     //  MemTotal
    bool insecure;                          //  running without CURVE
    char serving [MSG_TEXT_MAX + 1];        //  coordinator it serves, "" when idle
    char version [32];                      //  the agent's program version
    uint64_t session_id;                    //  names the session it opened or renewed,
                                            //  0 for a probe: PONGs carry it back
} msg_welcome_t;

//  Clock exchange (see proto/clock.h for t1..t4) and keepalive. A PONG
//  proves the session, not only the address: it carries the id of the
//  session the agent holds with the sender, 0 if none (an agent that was
//  restarted on the same endpoint answers, but with 0).
typedef struct {
    uint32_t seq;                           //  matches pong to ping, 0 for a keepalive
    int64_t t1_ns;                          //  coordinator clock at send
    uint64_t session_id;                    //  the session the coordinator believes in, 0 none
} msg_ping_t;

typedef struct {
    uint32_t seq;                           //  copied from the ping
    int64_t t1_ns;                          //  copied from the ping
    int64_t t2_ns;                          //  agent clock at receive
    int64_t t3_ns;                          //  agent clock at send
    uint64_t session_id;                    //  the agent's session with the sender, 0 none
} msg_pong_t;

//  One job of a test: validate, create and open files, fill buffers.
typedef struct {
    uint32_t test_id;                       //  counts tests within a session
    uint32_t job_id;                        //  index of the job within the test
    jobspec_t spec;                         //  what to run ("spec" map on the wire)
} msg_prepare_t;

//  A job is prepared; its streams wait for START.
typedef struct {
    uint32_t test_id;
    uint32_t job_id;
    uint32_t streams;                       //  streams prepared
    uint32_t job_class;                     //  class as the agent found it (a source path on an
                                            //  NFS mount is network), CLASS_AUTO = no opinion
    uint64_t fill_bytes;                    //  fill jobs: bytes written before READY (0: reused)
    int64_t fill_ns;                        //  fill jobs: how long that took (untimed, shown apart)
} msg_ready_t;

//  Start a phase of every prepared job of the test at one instant.
typedef struct {
    uint32_t test_id;
    uint32_t phase;                         //  0, then 1 .. for a test with phases
    uint32_t phase_count;                   //  phases the test has, 1 without
    int64_t start_ns;                       //  absolute, in the agent's own clock
} msg_start_t;

//  Progress of one stream: bytes done at an instant (agent clock).
typedef struct {
    uint32_t test_id;
    uint32_t job_id;
    uint32_t stream;                        //  0-based stream index
    uint32_t phase;                         //  the phase it runs
    int64_t t_ns;
    uint64_t bytes;                         //  since the phase began
} msg_sample_t;

//  The kinds of request whose latency a RESULT carries, in wire order.
typedef enum {
    MSG_LATENCY_READ = 0,
    MSG_LATENCY_WRITE = 1,
    MSG_LATENCY_FSYNC = 2,
    MSG_LATENCY_KINDS = 3
} msg_latency_kind_t;

//  Final figures of one stream. Times are agent clock; 0 if never reached.
typedef struct {
    uint32_t test_id;
    uint32_t job_id;
    uint32_t stream;
    uint32_t phase;                         //  the phase these figures are of
    uint64_t bytes;                         //  bytes written (or read) in the timed part
    uint64_t reads;                         //  read requests (bonnie's seeks, randrw's reads)
    uint64_t writes;                        //  write requests
    uint64_t fsyncs;                        //  fsync and fdatasync calls
    int64_t start_ns;                       //  instant the stream really began
    int64_t last_issue_ns;                  //  when the last read or write call was issued
    int64_t last_write_ns;                  //  end of that call: the last write (or read)
    int64_t end_ns;                         //  after fsync and close
    int64_t usr_ns;                         //  user CPU of the stream's thread
    int64_t sys_ns;                         //  system CPU of the stream's thread
    int32_t err_no;                         //  errno of the failure, 0 if none
    char error [MSG_TEXT_MAX + 1];          //  "write(/data/x.1): No space left on device"
    char path [JOB_PATH_MAX + 1];           //  file the stream wrote
    //  The time of every request of the timed part after the ramp, one
    //  histogram per kind (read calls, write calls, fsync and fdatasync
    //  calls); empty for a kind the stream did not do. On the wire, the
    //  key "latency" holds an array of the three in this order.
    histogram_t latency [MSG_LATENCY_KINDS];
} msg_result_t;

//  Stop the test now (Ctrl-C, a lost peer): agents stop and report.
typedef struct {
    uint32_t test_id;
    char reason [MSG_TEXT_MAX + 1];
} msg_abort_t;

//  Session over: the agent cleans up and goes idle.
typedef struct {
    char reason [MSG_TEXT_MAX + 1];
} msg_bye_t;

//  Something failed. job_id is -1 when no job is concerned.
typedef struct {
    uint32_t test_id;
    int32_t job_id;
    char code [32];                         //  "busy", "version", "prepare", "malformed", ...
    char text [MSG_TEXT_MAX + 1];           //  for a human
} msg_error_t;

//  The counters of a HOST message, every one a uint64_t, in the order
//  they go on the wire. A window runs from the start instant to the end
//  of the last stream; the settle period after it lasts until Dirty is
//  back near its level at the start, or a bound passes. Raw figures: the
//  coordinator turns them into percentages, rates and warnings.
#define MSG_HOST_COUNTERS(X) \
    X (cpu_total_ticks)         /* CPU time of every kind, all CPUs, in the window */ \
    X (cpu_user_ticks)          /* user and nice */ \
    X (cpu_system_ticks)        /* system, irq and softirq */ \
    X (cpu_iowait_ticks) \
    X (cpu_idle_ticks) \
    X (cpu_steal_ticks)         /* taken by the hypervisor */ \
    X (mem_total_bytes)         /* MemTotal */ \
    X (dirty_start_bytes)       /* Dirty at the start instant */ \
    X (dirty_end_bytes)         /* Dirty when the last stream ended */ \
    X (writeback_end_bytes)     /* Writeback when the last stream ended */ \
    X (dirty_settled_bytes)     /* Dirty at the end of the settle period */ \
    X (disk_read_bytes)         /* read from whole block devices in the window */ \
    X (disk_written_bytes)      /* written to whole block devices in the window */ \
    X (settle_written_bytes)    /* written to them during the settle period */ \
    X (nfs_read_ops)            /* NFS client READs in the window */ \
    X (nfs_write_ops)           /* NFS client WRITEs in the window */ \
    X (nfsd_read_ops)           /* NFS server READs in the window */ \
    X (nfsd_write_ops)          /* NFS server WRITEs in the window */

//  What the agent's host did during a phase of a test (agent clock).
typedef struct {
    uint32_t test_id;
    uint32_t phase;                         //  the phase the window covered
    int64_t window_start_ns;                //  first snapshot
    int64_t window_end_ns;                  //  when the last stream ended
    int64_t settle_end_ns;                  //  end of the settle period
#define MSG_HOST_FIELD(name) uint64_t name;
    MSG_HOST_COUNTERS (MSG_HOST_FIELD)
#undef MSG_HOST_FIELD
} msg_host_t;

//  The counters of a MONITOR message, every one a uint64_t: cumulative
//  since boot, as /proc has them; the coordinator takes differences
//  between consecutive messages.
#define MSG_MONITOR_COUNTERS(X) \
    X (cpu_total_ticks)         /* CPU time of every kind, all CPUs */ \
    X (cpu_user_ticks)          /* user and nice */ \
    X (cpu_system_ticks)        /* system, irq and softirq */ \
    X (cpu_iowait_ticks) \
    X (cpu_idle_ticks) \
    X (dirty_bytes)             /* Dirty now */ \
    X (writeback_bytes)         /* Writeback now */ \
    X (disk_read_bytes)         /* read from whole block devices */ \
    X (disk_written_bytes)      /* written to them */ \
    X (nfs_read_ops)            /* NFS client READs */ \
    X (nfs_write_ops)           /* NFS client WRITEs */ \
    X (nfsd_read_ops)           /* NFS server READs */ \
    X (nfsd_write_ops)          /* NFS server WRITEs */ \
    X (nfsd_read_bytes)         /* NFS server bytes read for clients */ \
    X (nfsd_written_bytes)      /* NFS server bytes written for clients */

//  A monitor job's sample: the host's counters at an instant (agent clock).
typedef struct {
    uint32_t test_id;
    uint32_t job_id;                        //  the monitor job
    int64_t t_ns;
#define MSG_MONITOR_FIELD(name) uint64_t name;
    MSG_MONITOR_COUNTERS (MSG_MONITOR_FIELD)
#undef MSG_MONITOR_FIELD
} msg_monitor_t;

//  Every timed stream of a phase has reported, on every host.
typedef struct {
    uint32_t test_id;
    uint32_t phase;                         //  the phase that is over
} msg_stop_t;

//  Write the page cache back and drop it, now that every job of the test
//  on this agent is prepared (its files laid out): the timed part starts
//  cold. Answered with DROPPED once done, or ERROR.
typedef struct {
    uint32_t test_id;
} msg_drop_t;

typedef struct {
    uint32_t test_id;
} msg_dropped_t;

typedef struct {
    msg_type_t type;
    union {
        msg_hello_t hello;
        msg_welcome_t welcome;
        msg_ping_t ping;
        msg_pong_t pong;
        msg_prepare_t prepare;
        msg_ready_t ready;
        msg_start_t start;
        msg_sample_t sample;
        msg_result_t result;
        msg_abort_t abort;
        msg_bye_t bye;
        msg_error_t error;
        msg_host_t host;
        msg_monitor_t monitor;
        msg_stop_t stop;
        msg_drop_t drop;
        msg_dropped_t dropped;
    } u;
} msg_t;

//  Decoder outcomes.
#define MSG_OK          0
#define MSG_EMALFORMED  -1          //  not a valid message of any version
#define MSG_EVERSION    -2          //  a map with another protocol version

//  Name of a message type ("hello"), or "?" for an unknown value.
const char *msg_type_name (msg_type_t type);

//  Encode msg into a new buffer the caller frees. Returns 0, or -1 if
//  out of memory. The result is at most MSG_FRAME_MAX bytes for any
//  message whose strings respect their bounds.
int msg_encode (const msg_t *msg, char **data_p, size_t *size_p);

//  Decode one frame into msg. Returns MSG_OK, MSG_EMALFORMED or
//  MSG_EVERSION, with a reason in err on failure ("wrong type for key
//  'bytes'", "protocol version 7, this side speaks 1").
int msg_decode (const void *data, size_t size, msg_t *msg, char *err, size_t errlen);

//  The check msg_decode makes before it unpacks anything: size bytes of
//  data are exactly one msgpack object, not nested too deep, whose
//  containers could hold what they announce, so that unpacking it
//  allocates only for entries that are there. Returns 0, or -1 with a
//  reason in err. For tests and fuzz targets of the parts of a message.
int msg_check_frame (const void *data, size_t size, char *err, size_t errlen);

//  Make msg an ERROR {test_id, job_id, code, text}, the text from a
//  printf format (cut at MSG_TEXT_MAX).
void msg_make_error (msg_t *msg, uint32_t test_id, int32_t job_id, const char *code,
                     const char *format, va_list args);

//  Copy at most dstsize-1 bytes of src into dst and NUL-terminate
//  (a strlcpy, since glibc 2.36 has none worth relying on).
void msg_strcpy (char *dst, const char *src, size_t dstsize);

#endif
