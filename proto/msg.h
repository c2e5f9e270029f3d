/*  proto/msg.h: every message between coordinator and agent, defined once.

    A message is one msgpack map in one ZeroMQ frame. Every map carries
    "v" (protocol version, uint) and "t" (message type name, string); the
    other keys are the fields of the message, one list each below, which
    gives its struct and drives its encoding and decoding (msg.c, one
    walker for every message).

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
                   A -> C  INTERVAL, every interval of a phase: the
                           latency of the host's requests in it
           (START, SAMPLEs, RESULTs and HOST again for every further phase
           of the test: each phase starts once every agent reported the
           one before)
        C -> A  STOP       a phase is over everywhere: hosts without streams
                           of their own close its window; after the last
                           phase, monitors end
        C -> A  ABORT      A -> C  RESULT for every stream still running
        C -> A  BYE                agent goes back to idle
        C -> A  PREFLIGHT  A -> C  PREFLIGHT_REPLY (before the first test, one
                                   per job and agent; also without a session)
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
#define MSG_BOOT_ID_MAX 36          //  /proc/sys/kernel/random/boot_id, a UUID

//  --------------------------------------------------------------------------
//  The messages
//
//  Each message is one list of its fields, in wire order:
//
//      X (M, KIND, name, capacity)     /* what it is */
//
//  KIND is STR (a string of at most capacity - 1 bytes), U32, U64, I32,
//  I64, BOOL, SPEC (a jobspec_t, the "spec" map of proto/jobspec.c's
//  option table) or LATENCY (an array of MSG_LATENCY_KINDS histograms);
//  capacity is 0 but for strings. The key on the wire is the name. The
//  list gives the message's struct (below) and drives its encoder and
//  its decoder (msg.c), which walk the same rows, so adding a field is
//  one line here and its round-trip test. M is the message's struct,
//  passed through for those who need its layout. Every field is
//  required: a frame without one is malformed.

//  Coordinator introduces itself and asks for the agent.
#define MSG_HELLO_FIELDS(X, M) \
    X (M, STR,  coordinator, MSG_TEXT_MAX + 1)  /* "user@host pid=123", shown to a second coordinator */ \
    X (M, U32,  lease_ms, 0)            /* agent gives up on silence longer than this */ \
    X (M, BOOL, probe, 0)               /* only asking (iofleet ping): no session */

//  Agent accepts and says what it runs on.
#define MSG_WELCOME_FIELDS(X, M) \
    X (M, STR,  name, JOB_NAME_MAX + 1) /* --name of the agent */ \
    X (M, STR,  hostname, MSG_HOST_MAX + 1) /* uname nodename */ \
    X (M, STR,  kernel, MSG_HOST_MAX + 1)   /* uname release */ \
    X (M, U32,  cpus, 0)                /* online CPUs */ \
    X (M, U64,  mem_bytes, 0)           /* MemTotal */ \
    X (M, BOOL, insecure, 0)            /* running without CURVE */ \
    X (M, STR,  serving, MSG_TEXT_MAX + 1)  /* coordinator it serves, "" when idle */ \
    X (M, STR,  version, 32)            /* the agent's program version */ \
    X (M, STR,  boot_id, MSG_BOOT_ID_MAX + 1)   /* the kernel's boot id: agents that share \
                                           one are on one machine */ \
    X (M, U64,  session_id, 0)          /* names the session it opened or renewed, 0 for a \
                                           probe: PONGs carry it back */

//  Clock exchange (see proto/clock.h for t1..t4) and keepalive. A PONG
//  proves the session, not only the address: it carries the id of the
//  session the agent holds with the sender, 0 if none (an agent that was
//  restarted on the same endpoint answers, but with 0).
#define MSG_PING_FIELDS(X, M) \
    X (M, U32,  seq, 0)                 /* matches pong to ping, 0 for a keepalive */ \
    X (M, I64,  t1_ns, 0)               /* coordinator clock at send */ \
    X (M, U64,  session_id, 0)          /* the session the coordinator believes in, 0 none */ \
    X (M, U32,  lease_ms, 0)            /* a keepalive's: the session's lease from now on, 0 */ \
                                        /* unchanged (the coordinator's messages take longer */ \
                                        /* to reach its fleet than the lease it began with) */

#define MSG_PONG_FIELDS(X, M) \
    X (M, U32,  seq, 0)                 /* copied from the ping */ \
    X (M, I64,  t1_ns, 0)               /* copied from the ping */ \
    X (M, I64,  t2_ns, 0)               /* agent clock at receive */ \
    X (M, I64,  t3_ns, 0)               /* agent clock at send */ \
    X (M, U64,  session_id, 0)          /* the agent's session with the sender, 0 none */

//  One job of a test: validate, create and open files, fill buffers.
#define MSG_PREPARE_FIELDS(X, M) \
    X (M, U32,  test_id, 0)             /* counts tests within a session */ \
    X (M, U32,  job_id, 0)              /* index of the job within the test */ \
    X (M, SPEC, spec, 0)                /* what to run */

//  A job is prepared; its streams wait for START.
#define MSG_READY_FIELDS(X, M) \
    X (M, U32,  test_id, 0) \
    X (M, U32,  job_id, 0) \
    X (M, U32,  streams, 0)             /* streams prepared */ \
    X (M, U32,  job_class, 0)           /* class as the agent found it (a source path on an \
                                           NFS mount is network), CLASS_AUTO = no opinion */ \
    X (M, U64,  fill_bytes, 0)          /* fill jobs: bytes written before READY (0: reused) */ \
    X (M, I64,  fill_ns, 0)             /* fill jobs: how long that took (untimed, shown apart) */

//  Start a phase of every prepared job of the test at one instant.
#define MSG_START_FIELDS(X, M) \
    X (M, U32,  test_id, 0) \
    X (M, U32,  phase, 0)               /* 0, then 1 .. for a test with phases */ \
    X (M, U32,  phase_count, 0)         /* phases the test has, 1 without */ \
    X (M, I64,  start_ns, 0)            /* absolute, in the agent's own clock */

//  Progress of one stream: bytes done at an instant (agent clock).
#define MSG_SAMPLE_FIELDS(X, M) \
    X (M, U32,  test_id, 0) \
    X (M, U32,  job_id, 0) \
    X (M, U32,  stream, 0)              /* 0-based stream index */ \
    X (M, U32,  phase, 0)               /* the phase it runs */ \
    X (M, I64,  t_ns, 0) \
    X (M, U64,  bytes, 0)               /* since the phase began */

//  The kinds of request whose latency a RESULT carries, in wire order.
typedef enum {
    MSG_LATENCY_READ = 0,
    MSG_LATENCY_WRITE = 1,
    MSG_LATENCY_FSYNC = 2,
    MSG_LATENCY_KINDS = 3
} msg_latency_kind_t;

//  Final figures of one stream. Times are agent clock; 0 if never
//  reached. latency holds the time of every request of the timed part
//  after the ramp, one histogram per kind (read calls, write calls, fsync
//  and fdatasync calls); empty for a kind the stream did not do.
#define MSG_RESULT_FIELDS(X, M) \
    X (M, U32,  test_id, 0) \
    X (M, U32,  job_id, 0) \
    X (M, U32,  stream, 0) \
    X (M, U32,  phase, 0)               /* the phase these figures are of */ \
    X (M, U64,  bytes, 0)               /* bytes written (or read) in the timed part */ \
    X (M, U64,  reads, 0)               /* read requests (bonnie's seeks, randrw's reads) */ \
    X (M, U64,  writes, 0)              /* write requests */ \
    X (M, U64,  fsyncs, 0)              /* fsync and fdatasync calls */ \
    X (M, I64,  start_ns, 0)            /* instant the stream really began */ \
    X (M, I64,  last_issue_ns, 0)       /* when the last read or write call was issued */ \
    X (M, I64,  last_write_ns, 0)       /* end of that call: the last write (or read) */ \
    X (M, I64,  end_ns, 0)              /* after fsync and close */ \
    X (M, U64,  busy_ns, 0)             /* time of its reads and writes, summed: over */ \
                                        /* the phase's length, the mean depth reached */ \
    X (M, U32,  depth_max, 0)           /* most requests in flight at once, 0: no engine */ \
    X (M, U32,  inflight_at_stop, 0)    /* issued before the stop instant, ended after */ \
    X (M, I64,  usr_ns, 0)              /* user CPU of the stream's thread */ \
    X (M, I64,  sys_ns, 0)              /* system CPU of the stream's thread */ \
    X (M, I32,  err_no, 0)              /* errno of the failure, 0 if none */ \
    X (M, STR,  error, MSG_TEXT_MAX + 1)    /* "write(/data/x.1): No space left on device" */ \
    X (M, STR,  path, JOB_PATH_MAX + 1)     /* file the stream wrote */ \
    X (M, LATENCY, latency, 0)          /* per kind, in msg_latency_kind_t order */

//  Stop the test now (Ctrl-C, a lost peer): agents stop and report.
#define MSG_ABORT_FIELDS(X, M) \
    X (M, U32,  test_id, 0) \
    X (M, STR,  reason, MSG_TEXT_MAX + 1)

//  Session over: the agent cleans up and goes idle.
#define MSG_BYE_FIELDS(X, M) \
    X (M, STR,  reason, MSG_TEXT_MAX + 1)

//  Something failed. job_id is -1 when no job is concerned.
#define MSG_ERROR_FIELDS(X, M) \
    X (M, U32,  test_id, 0) \
    X (M, I32,  job_id, 0) \
    X (M, STR,  code, 32)               /* "busy", "version", "prepare", "malformed", ... */ \
    X (M, STR,  text, MSG_TEXT_MAX + 1) /* for a human */

//  The counters of a HOST message, every one a U64, in the order they go
//  on the wire. A window runs from the start instant to the end of the
//  last stream; the settle period after it lasts until Dirty is back
//  near its level at the start, or a bound passes. Raw figures: the
//  coordinator turns them into percentages, rates and warnings.
#define MSG_HOST_COUNTER_FIELDS(X, M) \
    X (M, U64, cpu_total_ticks, 0)      /* CPU time of every kind, all CPUs, in the window */ \
    X (M, U64, cpu_user_ticks, 0)       /* user and nice */ \
    X (M, U64, cpu_system_ticks, 0)     /* system, irq and softirq */ \
    X (M, U64, cpu_iowait_ticks, 0) \
    X (M, U64, cpu_idle_ticks, 0) \
    X (M, U64, cpu_steal_ticks, 0)      /* taken by the hypervisor */ \
    X (M, U64, mem_total_bytes, 0)      /* MemTotal */ \
    X (M, U64, dirty_start_bytes, 0)    /* Dirty at the start instant */ \
    X (M, U64, dirty_end_bytes, 0)      /* Dirty when the last stream ended */ \
    X (M, U64, writeback_end_bytes, 0)  /* Writeback when the last stream ended */ \
    X (M, U64, dirty_settled_bytes, 0)  /* Dirty at the end of the settle period */ \
    X (M, U64, disk_read_bytes, 0)      /* read from whole block devices in the window */ \
    X (M, U64, disk_written_bytes, 0)   /* written to whole block devices in the window */ \
    X (M, U64, settle_written_bytes, 0) /* written to them during the settle period */ \
    X (M, U64, nfs_read_ops, 0)         /* NFS client READs in the window */ \
    X (M, U64, nfs_write_ops, 0)        /* NFS client WRITEs in the window */ \
    X (M, U64, nfsd_read_ops, 0)        /* NFS server READs in the window */ \
    X (M, U64, nfsd_write_ops, 0)       /* NFS server WRITEs in the window */

//  The counters by name alone, X (name), for those who make a figure of
//  each (the results file, the archive).
#define MSG_NAME_OF(m, kind, name, capacity) m (name)
#define MSG_HOST_COUNTERS(X) MSG_HOST_COUNTER_FIELDS (MSG_NAME_OF, X)

//  What the agent's host did during a phase of a test (agent clock).
#define MSG_HOST_FIELDS(X, M) \
    X (M, U32,  test_id, 0) \
    X (M, U32,  phase, 0)               /* the phase the window covered */ \
    X (M, I64,  window_start_ns, 0)     /* first snapshot */ \
    X (M, I64,  window_end_ns, 0)       /* when the last stream ended */ \
    X (M, I64,  settle_end_ns, 0)       /* end of the settle period */ \
    MSG_HOST_COUNTER_FIELDS (X, M)

//  The counters of a MONITOR message, every one a U64: cumulative since
//  boot, as /proc has them; the coordinator takes differences between
//  consecutive messages.
#define MSG_MONITOR_COUNTER_FIELDS(X, M) \
    X (M, U64, cpu_total_ticks, 0)      /* CPU time of every kind, all CPUs */ \
    X (M, U64, cpu_user_ticks, 0)       /* user and nice */ \
    X (M, U64, cpu_system_ticks, 0)     /* system, irq and softirq */ \
    X (M, U64, cpu_iowait_ticks, 0) \
    X (M, U64, cpu_idle_ticks, 0) \
    X (M, U64, dirty_bytes, 0)          /* Dirty now */ \
    X (M, U64, writeback_bytes, 0)      /* Writeback now */ \
    X (M, U64, disk_read_bytes, 0)      /* read from whole block devices */ \
    X (M, U64, disk_written_bytes, 0)   /* written to them */ \
    X (M, U64, nfs_read_ops, 0)         /* NFS client READs */ \
    X (M, U64, nfs_write_ops, 0)        /* NFS client WRITEs */ \
    X (M, U64, nfsd_read_ops, 0)        /* NFS server READs */ \
    X (M, U64, nfsd_write_ops, 0)       /* NFS server WRITEs */ \
    X (M, U64, nfsd_read_bytes, 0)      /* NFS server bytes read for clients */ \
    X (M, U64, nfsd_written_bytes, 0)   /* NFS server bytes written for clients */

#define MSG_MONITOR_COUNTERS(X) MSG_MONITOR_COUNTER_FIELDS (MSG_NAME_OF, X)

//  A monitor job's sample: the host's counters at an instant (agent clock).
#define MSG_MONITOR_FIELDS(X, M) \
    X (M, U32,  test_id, 0) \
    X (M, U32,  job_id, 0)              /* the monitor job */ \
    X (M, I64,  t_ns, 0) \
    MSG_MONITOR_COUNTER_FIELDS (X, M)

//  Every timed stream of a phase has reported, on every host.
#define MSG_STOP_FIELDS(X, M) \
    X (M, U32,  test_id, 0) \
    X (M, U32,  phase, 0)               /* the phase that is over */

//  Write the page cache back and drop it, now that every job of the test
//  on this agent is prepared (its files laid out): the timed part starts
//  cold. Answered with DROPPED once done, or ERROR.
#define MSG_DROP_FIELDS(X, M) \
    X (M, U32,  test_id, 0)

#define MSG_DROPPED_FIELDS(X, M) \
    X (M, U32,  test_id, 0)
//  Before the first test, the console asks about every job the run will
//  give the agent: would its prepare accept it (paths within the roots,
//  nfs servers allowed, memory within the bound, engine, directories
//  writable, space for what it writes)? Nothing is created; the agent
//  needs no session for it. test_id is the test's index in the scenario:
//  the jobs of one test are checked together (memory, files), in order,
//  from the one marked first.
#define MSG_PREFLIGHT_FIELDS(X, M) \
    X (M, U32,  test_id, 0)             /* the test's index in the scenario */ \
    X (M, U32,  job_id, 0)              /* index of the job within the test */ \
    X (M, BOOL, first, 0)               /* the test's first job asked of this agent: its \
                                           claims start afresh */ \
    X (M, SPEC, spec, 0)                /* what prepare would get */
//  The agent's answer: problem "" if prepare would accept the job, else
//  what kind of problem (MSG_PREFLIGHT_PROBLEMS), the path or server it
//  concerns, and the reason as prepare would give it.
#define MSG_PREFLIGHT_REPLY_FIELDS(X, M) \
    X (M, U32,  test_id, 0) \
    X (M, U32,  job_id, 0) \
    X (M, STR,  problem, 16)            /* "", "roots", "nfs", "memory", "engine", ... */ \
    X (M, STR,  subject, JOB_PATH_MAX + 1)  /* the path or nfs server concerned, or "" */ \
    X (M, STR,  text, MSG_TEXT_MAX + 1) /* prepare's reason */

//  The latency of the requests of every stream of the test on this host
//  that completed in one interval of a phase, merged on the agent, one
//  histogram per kind. Interval k of a phase spans [start + k * length,
//  start + (k + 1) * length) from the phase's START instant: every host
//  has the same instant and length, so the console merges interval k of
//  every host into the fleet's. Sent at the end of every interval of the
//  timed part (after the ramp), and once more, for what is left, when
//  the host's last stream of the phase ends; an interval without
//  requests is not sent. Empty histograms pack into a few bytes and a
//  typical one into a few hundred.
#define MSG_INTERVAL_FIELDS(X, M) \
    X (M, U32,  test_id, 0) \
    X (M, U32,  phase, 0)               /* the phase the interval is of */ \
    X (M, U32,  index, 0)               /* k: the interval's number in its phase */ \
    X (M, I64,  length_ns, 0)           /* the interval's length (the jobs' interval) */ \
    X (M, LATENCY, latency, 0)          /* per kind, in msg_latency_kind_t order */

//  Every message: MSG_ID (its msg_type_t, from 1), its name on the wire
//  ("t"), which is also its member of msg_t's union and its struct's
//  name, msg_NAME_t.
#define MSG_LIST(X) \
    X (HELLO, hello) \
    X (WELCOME, welcome) \
    X (PING, ping) \
    X (PONG, pong) \
    X (PREPARE, prepare) \
    X (READY, ready) \
    X (START, start) \
    X (SAMPLE, sample) \
    X (RESULT, result) \
    X (ABORT, abort) \
    X (BYE, bye) \
    X (ERROR, error) \
    X (HOST, host) \
    X (MONITOR, monitor) \
    X (STOP, stop) \
    X (DROP, drop) \
    X (DROPPED, dropped) \
    X (PREFLIGHT, preflight) \
    X (PREFLIGHT_REPLY, preflight_reply) \
    X (INTERVAL, interval)

typedef enum {
    MSG_NONE = 0,               //  no message: types count from 1
#define MSG_ENUM(id, name) MSG_##id,
    MSG_LIST (MSG_ENUM)
#undef MSG_ENUM
    MSG_TYPE_COUNT              //  one past the last
} msg_type_t;

//  A field's member in its struct.
#define MSG_MEMBER(m, kind, name, capacity) MSG_MEMBER_##kind (name, capacity)
#define MSG_MEMBER_STR(name, capacity)      char name [capacity];
#define MSG_MEMBER_U32(name, capacity)      uint32_t name;
#define MSG_MEMBER_U64(name, capacity)      uint64_t name;
#define MSG_MEMBER_I32(name, capacity)      int32_t name;
#define MSG_MEMBER_I64(name, capacity)      int64_t name;
#define MSG_MEMBER_BOOL(name, capacity)     bool name;
#define MSG_MEMBER_SPEC(name, capacity)     jobspec_t name;
#define MSG_MEMBER_LATENCY(name, capacity)  histogram_t name [MSG_LATENCY_KINDS];

//  The structs: msg_hello_t, msg_welcome_t, ... each its list's members.
#define MSG_STRUCT(id, name) \
    typedef struct { MSG_##id##_FIELDS (MSG_MEMBER, _) } msg_##name##_t;
MSG_LIST (MSG_STRUCT)
#undef MSG_STRUCT

typedef struct {
    msg_type_t type;
    union {
#define MSG_UNION_MEMBER(id, name) msg_##name##_t name;
        MSG_LIST (MSG_UNION_MEMBER)
#undef MSG_UNION_MEMBER
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
