/*  agent/agent.c: the daemon, its session with one coordinator, message
    dispatch and the poll loop; see agent.h.

    State, in short. The agent is idle or in a session with one peer (a
    routing id on the ROUTER socket). It holds at most one test: a set of
    prepared jobs, which START turns into running streams. A test is over
    when every stream's RESULT has been taken; a test whose session ended
    (BYE, lease expired) while it ran is "orphaned": its streams are told
    to stop, and their results are only logged as they come in.
*/
#include "agent.h"

#include "auth.h"
#include "confine.h"
#include "hostinfo.h"
#include "hostwatch.h"
#include "job.h"
#include "log.h"
#include "procstat.h"

#include "../proto/clock.h"
#include "../proto/keys.h"
#include "../proto/msg.h"
#include "../proto/version.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <unistd.h>

#define S_LEASE_DEFAULT_MS      10000       //  HELLO with lease_ms = 0
#define S_LEASE_MIN_MS          1000
#define S_LEASE_MAX_MS          3600000
#define S_TEST_STREAMS_MAX      1024        //  threads one test may ask of this agent
#define S_TEST_JOBS_MAX         256         //  jobs one test may hold on this agent
#define S_LINGER_MS             500         //  time the last results get to leave at exit
#define S_HEARTBEAT_IVL_MS      5000        //  ZMTP heartbeats find dead connections
#define S_HEARTBEAT_TIMEOUT_MS  15000
#define S_START_LEAD_MAX_NS     (3600 * NS_PER_SEC)    //  START instants further off are refused
#define S_QUOTED_MAX            (2 * MSG_TEXT_MAX + 3)
//  The buffers of one test may take MemTotal / S_MEMORY_SHARE unless
//  --max-memory says otherwise: they stay resident for the whole test,
//  and the rest is the page cache the test measures, the kernel and the
//  host's own work (an NFS server, a second agent); a quarter leaves
//  them three, and still holds 256 streams of 16M on a 24 GiB host.
#define S_MEMORY_SHARE          4           //  logged as from=MemTotal/4
#define S_MEMORY_FALLBACK_BYTES (1ULL << 30)    //  when MemTotal cannot be read

//  A job of the current test and when its next sample is due.
typedef struct {
    job_t *job;                         //  the prepared job
    int64_t next_sample_ns;             //  INT64_MAX when it takes no samples
} s_slot_t;

//  The one test an agent holds.
typedef struct {
    bool active;                        //  a test is held (fields below are valid)
    uint32_t test_id;                   //  PREPARE's test_id
    char name [JOB_NAME_MAX + 1];       //  its name (the jobs' spec.test) as a log token
    bool started;                       //  START came
    int64_t start_ns;                   //  the start instant it named
    bool host_begun;                    //  the host's window opened at start_ns
    bool orphaned;                      //  its session ended: stopping, results go nowhere
    s_slot_t *slots;                    //  its jobs
    size_t slot_count;                  //  how many
    size_t slot_capacity;               //  room in slots
    size_t stream_count;                //  streams of all its jobs
} s_test_t;

struct _agent_t {
    char name [JOB_NAME_MAX + 1];       //  --name
    char *endpoint;                     //  endpoint actually bound
    bool insecure;                      //  serving without CURVE (no --keys)
    keys_t *keys;                       //  --keys: our pair and the trusted coordinators
    zactor_t *auth;                     //  the ZAP handler that checks them (auth.h)
    bool verbose;                       //  log pings and samples too
    zsock_t *router;                    //  the socket coordinators talk to
    int notify_fd;                      //  eventfd stream threads write when they end
    confine_t *confine;                 //  the --root directories
    hostinfo_t *hostinfo;               //  what WELCOME says about the host
    hostwatch_t *hostwatch;             //  the host's figures over a test (HOST)
    ledger_t *ledger;                   //  what the held test's jobs claimed (memory, files, dirs)
    uint32_t caches_dropped_test_id;    //  test whose prepare dropped the caches, 0 none
    agent_lograte_t malformed;          //  frames that did not decode: counted, logged sparingly
    zframe_t *peer;                     //  routing id of the session's coordinator, NULL when idle
    char coordinator [MSG_TEXT_MAX + 1];    //  its name, from HELLO
    int64_t lease_ns;                   //  silence after which the session ends
    uint64_t session_id;                //  names the session in WELCOME and PONG, 0 when idle
    int64_t session_start_ns;           //  when the session began
    int64_t last_heard_ns;              //  when the peer last sent anything
    s_test_t test;                      //  the test held, if any
    msg_t in;                           //  the message being handled
    msg_t out;                          //  the message being sent
};

//  --------------------------------------------------------------------------
//  Logs

//  Write one log line, "agent=NAME " and the formatted rest, with a single
//  write so that lines from one process never interleave.
static void
s_log (agent_t *self, const char *format, ...)
    __attribute__ ((format (printf, 2, 3)));

static void
s_log (agent_t *self, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    agent_logv (self->name, format, args);
    va_end (args);
}

//  Quote text for a log value: "..." with quotes and backslashes escaped
//  and control characters replaced, so that text from the wire cannot
//  break the one-event-per-line rule. Returns buf.
static const char *
s_quote (const char *text, char *buf, size_t buflen)
{
    size_t used = 0;
    buf [used++] = '"';
    for (const char *cursor = text; *cursor && used + 4 < buflen; cursor++) {
        unsigned char c = (unsigned char) *cursor;
        if (c == '"' || c == '\\')
            buf [used++] = '\\';
        buf [used++] = c < 0x20 || c == 0x7f? '?': (char) c;
    }
    buf [used++] = '"';
    buf [used] = '\0';
    return buf;
}

//  A name from the wire as a bare log value: anything but letters,
//  digits and ".-_@:" becomes '_', and an empty name "-". Returns buf.
static const char *
s_token (const char *text, char *buf, size_t buflen)
{
    size_t used = 0;
    for (const char *cursor = text; *cursor && used + 1 < buflen; cursor++) {
        unsigned char c = (unsigned char) *cursor;
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                  || (c >= '0' && c <= '9') || strchr (".-_@:", c);
        buf [used++] = plain? (char) c: '_';
    }
    if (used == 0 && buflen > 1)
        buf [used++] = '-';
    buf [used] = '\0';
    return buf;
}

//  A routing id as hex, for logs. Returns buf.
static const char *
s_peer_text (zframe_t *peer, char *buf, size_t buflen)
{
    const unsigned char *data = zframe_data (peer);
    size_t size = zframe_size (peer);
    size_t used = 0;
    buf [0] = '\0';
    for (size_t index = 0; index < size && used + 3 < buflen; index++)
        used += (size_t) snprintf (buf + used, buflen - used, "%02x", data [index]);
    return buf;
}

//  --------------------------------------------------------------------------
//  Sending

//  Encode msg and send it to peer. A message that cannot be sent (out of
//  memory, a peer gone) is logged and dropped: the coordinator's lease and
//  timeouts deal with lost messages.
static void
s_send (agent_t *self, zframe_t *peer, msg_t *msg)
{
    char *data = NULL;
    size_t size = 0;
    if (msg_encode (msg, &data, &size) == -1) {
        s_log (self, "event=send-failed type=%s reason=encode", msg_type_name (msg->type));
        return;
    }
    zmsg_t *zmsg = zmsg_new ();
    zframe_t *routing_id = zframe_dup (peer);
    if (!zmsg || !routing_id || zmsg_append (zmsg, &routing_id) == -1
    ||  zmsg_addmem (zmsg, data, size) == -1
    ||  zmsg_send (&zmsg, self->router) == -1)
        s_log (self, "event=send-failed type=%s reason=%s", msg_type_name (msg->type),
               zmq_strerror (zmq_errno ()));
    zframe_destroy (&routing_id);
    zmsg_destroy (&zmsg);
    free (data);
}

//  Start building a message of type in self->out. Returns it.
static msg_t *
s_reply (agent_t *self, msg_type_t type)
{
    memset (&self->out, 0, sizeof (self->out));
    self->out.type = type;
    return &self->out;
}

//  Send ERROR {test_id, job_id, code, text} to peer.
static void
s_send_error (agent_t *self, zframe_t *peer, uint32_t test_id, int32_t job_id,
              const char *code, const char *format, ...)
    __attribute__ ((format (printf, 6, 7)));

static void
s_send_error (agent_t *self, zframe_t *peer, uint32_t test_id, int32_t job_id,
              const char *code, const char *format, ...)
{
    msg_t *out = s_reply (self, MSG_ERROR);
    out->u.error.test_id = test_id;
    out->u.error.job_id = job_id;
    msg_strcpy (out->u.error.code, code, sizeof (out->u.error.code));
    va_list args;
    va_start (args, format);
    vsnprintf (out->u.error.text, sizeof (out->u.error.text), format, args);
    va_end (args);
    s_send (self, peer, out);
}

//  Send WELCOME to peer: who this agent is, whom it serves, and the
//  session it opened with peer (0 for a probe, which opens none).
static void
s_send_welcome (agent_t *self, zframe_t *peer, uint64_t session_id)
{
    msg_t *out = s_reply (self, MSG_WELCOME);
    msg_welcome_t *welcome = &out->u.welcome;
    msg_strcpy (welcome->name, self->name, sizeof (welcome->name));
    msg_strcpy (welcome->hostname, hostinfo_hostname (self->hostinfo), sizeof (welcome->hostname));
    msg_strcpy (welcome->kernel, hostinfo_kernel (self->hostinfo), sizeof (welcome->kernel));
    welcome->cpus = hostinfo_cpus (self->hostinfo);
    welcome->mem_bytes = hostinfo_mem_bytes (self->hostinfo);
    welcome->insecure = self->insecure;
    msg_strcpy (welcome->serving, self->peer? self->coordinator: "", sizeof (welcome->serving));
    msg_strcpy (welcome->version, IOFLEET_VERSION, sizeof (welcome->version));
    welcome->session_id = session_id;
    s_send (self, peer, out);
}

//  --------------------------------------------------------------------------
//  The test

//  a + b without overflow, for deadlines built from wire values.
static int64_t
s_add_saturated (int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b)
        return INT64_MAX;
    return a + b;
}

//  Stop every stream of the test with reason.
static void
s_test_stop (agent_t *self, const char *reason)
{
    for (size_t index = 0; index < self->test.slot_count; index++)
        job_stop (self->test.slots [index].job, reason);
}

//  Destroy the test's jobs (stopping, joining and cleaning up what is
//  left) and forget the test.
static void
s_test_clear (agent_t *self)
{
    for (size_t index = 0; index < self->test.slot_count; index++)
        job_destroy (&self->test.slots [index].job);
    //  Its files are gone: now the directories it made can go too.
    ledger_clear (self->ledger);
    free (self->test.slots);
    memset (&self->test, 0, sizeof (self->test));
}

//  Drop the test held without reporting its streams (a new test replaces
//  it, or its session ended before START).
static void
s_test_discard (agent_t *self, const char *reason)
{
    char quoted [S_QUOTED_MAX];
    s_log (self, "event=discard test_id=%" PRIu32 " test=%s reason=%s",
           self->test.test_id, self->test.name, s_quote (reason, quoted, sizeof (quoted)));
    s_test_clear (self);
}

//  Add a prepared job to the test (making it the held test if none is).
//  Returns 0, or -1 if out of memory.
static int
s_test_add_job (agent_t *self, uint32_t test_id, job_t *job)
{
    s_test_t *test = &self->test;
    if (test->slot_count == test->slot_capacity) {
        size_t capacity = test->slot_capacity? 2 * test->slot_capacity: 4;
        s_slot_t *slots = realloc (test->slots, capacity * sizeof (s_slot_t));
        if (!slots)
            return -1;
        test->slots = slots;
        test->slot_capacity = capacity;
    }
    if (!test->active) {
        test->active = true;
        test->test_id = test_id;
        s_token (job_spec (job)->test, test->name, sizeof (test->name));
    }
    test->slots [test->slot_count].job = job;
    test->slots [test->slot_count].next_sample_ns = INT64_MAX;
    test->slot_count++;
    test->stream_count += job_stream_count (job);
    return 0;
}

//  Remove job job_id from the test, if it holds it (a PREPARE repeated).
static void
s_test_remove_job (agent_t *self, uint32_t wanted_job_id)
{
    s_test_t *test = &self->test;
    for (size_t index = 0; index < test->slot_count; index++) {
        if (job_id (test->slots [index].job) != wanted_job_id)
            continue;
        test->stream_count -= job_stream_count (test->slots [index].job);
        job_destroy (&test->slots [index].job);
        ledger_forget_job (self->ledger, wanted_job_id);
        memmove (test->slots + index, test->slots + index + 1,
                 (test->slot_count - index - 1) * sizeof (s_slot_t));
        test->slot_count--;
        return;
    }
}

//  True if the live session's test is test_id.
static bool
s_test_is_current (agent_t *self, uint32_t test_id)
{
    return self->test.active && !self->test.orphaned && self->test.test_id == test_id;
}

//  When every stream of a fill job has ended, take their figures, log
//  them, and answer the job's PREPARE (if answer): READY with the bytes
//  and time the fill took, or ERROR with the first stream's error. A fill
//  stopped by an abort answers nothing: the coordinator gave up on it.
static void
s_finish_fill (agent_t *self, job_t *job, bool answer)
{
    if (job_finished (job))
        return;
    for (size_t index = 0; index < job_stream_count (job); index++)
        if (!stream_done (job_stream (job, index)))
            return;
    uint64_t fill_bytes = 0;
    int64_t first_start_ns = INT64_MAX, last_end_ns = 0;
    char error [MSG_TEXT_MAX + 1] = "";
    bool aborted = false;
    msg_result_t result;
    uint32_t test_id = 0;
    while (job_take_result (job, &result)) {
        test_id = result.test_id;
        fill_bytes += result.bytes;
        if (result.start_ns && result.start_ns < first_start_ns)
            first_start_ns = result.start_ns;
        if (result.end_ns > last_end_ns)
            last_end_ns = result.end_ns;
        if (result.error [0] && !error [0]) {
            msg_strcpy (error, result.error, sizeof (error));
            aborted = result.err_no == ECANCELED;
        }
    }
    int64_t fill_ns = last_end_ns > first_start_ns? last_end_ns - first_start_ns: 0;
    char quoted [S_QUOTED_MAX];
    s_log (self, "event=fill test_id=%" PRIu32 " job_id=%" PRIu32 " bytes=%" PRIu64
           " reused=%s fill_ms=%" PRId64 " error=%s", test_id, job_id (job), fill_bytes,
           fill_bytes? "no": "yes", (int64_t) (fill_ns / NS_PER_MSEC), s_quote (error, quoted, sizeof (quoted)));
    if (!answer || aborted)
        return;
    if (error [0]) {
        s_send_error (self, self->peer, test_id, (int32_t) job_id (job), "prepare", "%s", error);
        return;
    }
    msg_t *out = s_reply (self, MSG_READY);
    out->u.ready.test_id = test_id;
    out->u.ready.job_id = job_id (job);
    out->u.ready.streams = 0;           //  no timed streams: no RESULTs will follow
    out->u.ready.job_class = (uint32_t) job_class (job);
    out->u.ready.fill_bytes = fill_bytes;
    out->u.ready.fill_ns = fill_ns;
    s_log (self, "event=ready test_id=%" PRIu32 " job_id=%" PRIu32 " streams=0 fill=yes",
           test_id, job_id (job));
    s_send (self, self->peer, out);
}

//  Take every stream result that is ready: log it, send it to the session
//  (unless the test is orphaned), and when the last one is in, end the
//  test. Each stream has removed its files before its result is taken.
static void
s_collect_results (agent_t *self)
{
    s_test_t *test = &self->test;
    if (!test->active)
        return;
    bool deliver = !test->orphaned && self->peer;
    bool has_untimed = false;
    for (size_t index = 0; index < test->slot_count; index++) {
        if (job_untimed (test->slots [index].job)) {
            has_untimed = true;
            s_finish_fill (self, test->slots [index].job, deliver && !test->started);
            continue;
        }
        while (true) {
            msg_t *out = s_reply (self, MSG_RESULT);
            msg_result_t *result = &out->u.result;
            if (!job_take_result (test->slots [index].job, result))
                break;
            char quoted [S_QUOTED_MAX];
            s_log (self, "event=result test_id=%" PRIu32 " job_id=%" PRIu32 " stream=%" PRIu32
                   " bytes=%" PRIu64 " start_ns=%" PRId64 " end_ns=%" PRId64 " error=%s%s",
                   result->test_id, result->job_id, result->stream, result->bytes,
                   result->start_ns, result->end_ns, s_quote (result->error, quoted, sizeof (quoted)),
                   deliver? "": " delivered=no");
            if (deliver)
                s_send (self, self->peer, out);
        }
    }
    for (size_t index = 0; index < test->slot_count; index++)
        if (!job_finished (test->slots [index].job))
            return;
    //  Fills end before START; the test they belong to is still to run.
    if (has_untimed && !test->started)
        return;
    //  The window closes with the last stream; the host's figures follow
    //  after the settle period (s_handle_timers).
    if (test->host_begun && !test->orphaned) {
        int64_t settle_ns = 0;
        for (size_t index = 0; index < test->slot_count; index++)
            if (job_spec (test->slots [index].job)->settle_ns > settle_ns)
                settle_ns = job_spec (test->slots [index].job)->settle_ns;
        char err [256];
        if (hostwatch_end (self->hostwatch, settle_ns, err, sizeof (err)))
            s_log (self, "event=host-figures test_id=%" PRIu32 " error=\"%s\"", test->test_id, err);
    }
    s_log (self, "event=test-over test_id=%" PRIu32 " test=%s%s", test->test_id, test->name,
           test->orphaned? " orphaned=yes": "");
    s_test_clear (self);
}

//  A monitor job's sample: the host's counters now.
static void
s_send_monitor (agent_t *self, job_t *job)
{
    if (job_finished (job) || stream_done (job_stream (job, 0)))
        return;
    msg_t *out = s_reply (self, MSG_MONITOR);
    char err [256];
    if (hostwatch_sample (self->hostwatch, &out->u.monitor, err, sizeof (err))) {
        s_log (self, "event=monitor test_id=%" PRIu32 " error=\"%s\"", self->test.test_id, err);
        return;
    }
    out->u.monitor.test_id = self->test.test_id;
    out->u.monitor.job_id = job_id (job);
    s_send (self, self->peer, out);
}

//  A SAMPLE for every running stream of a job: bytes done now.
static void
s_send_stream_samples (agent_t *self, job_t *job)
{
    for (size_t stream_nbr = 0; stream_nbr < job_stream_count (job); stream_nbr++) {
        stream_t *stream = job_stream (job, stream_nbr);
        if (stream_done (stream))
            continue;
        msg_t *out = s_reply (self, MSG_SAMPLE);
        out->u.sample.test_id = self->test.test_id;
        out->u.sample.job_id = job_id (job);
        out->u.sample.stream = stream_index (stream);
        out->u.sample.t_ns = clock_now_ns ();
        out->u.sample.bytes = stream_bytes (stream);
        if (self->verbose)
            s_log (self, "event=sample test_id=%" PRIu32 " job_id=%" PRIu32 " stream=%" PRIu32
                   " bytes=%" PRIu64, self->test.test_id, job_id (job), stream_index (stream),
                   out->u.sample.bytes);
        s_send (self, self->peer, out);
    }
}

//  Send a SAMPLE for every running stream of every job whose sample is
//  due, and schedule its next one on the grid start + k * interval
//  (skipping instants the loop missed rather than bursting).
static void
s_send_samples (agent_t *self, int64_t now_ns)
{
    s_test_t *test = &self->test;
    if (!test->active || !test->started || test->orphaned || !self->peer)
        return;
    for (size_t index = 0; index < test->slot_count; index++) {
        s_slot_t *slot = &test->slots [index];
        if (now_ns < slot->next_sample_ns)
            continue;
        job_t *job = slot->job;
        if (job_samples_host (job))
            s_send_monitor (self, job);
        else
            s_send_stream_samples (self, job);
        //  START keeps start_ns within an hour of now, so this cannot overflow.
        int64_t interval_ns = job_spec (job)->interval_ns;
        int64_t periods = (now_ns - test->start_ns) / interval_ns + 1;
        slot->next_sample_ns = s_add_saturated (test->start_ns, periods * interval_ns);
    }
}

//  --------------------------------------------------------------------------
//  The session

//  A fresh session id: random, so that an agent restarted on the same
//  endpoint never hands out the id of the session it lost; never 0,
//  which means "no session".
static uint64_t
s_new_session_id (void)
{
    uint64_t id = 0;
    while (id == 0)
        if (getrandom (&id, sizeof (id), 0) != (ssize_t) sizeof (id))
            id = (uint64_t) clock_now_ns () ^ ((uint64_t) getpid () << 32);
    return id;
}

//  End the session (BYE, lease expired): a prepared test is dropped, a
//  running one is told to stop and finishes orphaned.
static void
s_end_session (agent_t *self, const char *event, const char *reason)
{
    char quoted [S_QUOTED_MAX];
    s_log (self, "event=%s coordinator=%s", event,
           s_quote (self->coordinator, quoted, sizeof (quoted)));
    if (self->test.active && !self->test.orphaned) {
        if (self->test.started) {
            s_test_stop (self, reason);
            self->test.orphaned = true;
        }
        else
            s_test_discard (self, reason);
    }
    zframe_destroy (&self->peer);
    self->session_id = 0;
    self->coordinator [0] = '\0';
}

//  HELLO: a probe is always welcome; otherwise start (or renew) the
//  session, or refuse a second coordinator naming the first.
static void
s_handle_hello (agent_t *self, zframe_t *peer, bool from_peer)
{
    msg_hello_t *hello = &self->in.u.hello;
    char quoted [S_QUOTED_MAX];
    if (hello->probe) {
        if (self->verbose)
            s_log (self, "event=probe coordinator=%s",
                   s_quote (hello->coordinator, quoted, sizeof (quoted)));
        s_send_welcome (self, peer, 0);
        return;
    }
    if (self->peer && !from_peer) {
        int64_t since_s = (clock_now_ns () - self->session_start_ns) / NS_PER_SEC;
        char serving [S_QUOTED_MAX];
        s_log (self, "event=refused reason=busy coordinator=%s serving=%s",
               s_quote (hello->coordinator, quoted, sizeof (quoted)),
               s_quote (self->coordinator, serving, sizeof (serving)));
        s_send_error (self, peer, 0, -1, "busy", "agent %s serves coordinator %s (since %" PRId64 " s)",
                      self->name, self->coordinator, since_s);
        return;
    }
    uint32_t lease_ms = hello->lease_ms? hello->lease_ms: S_LEASE_DEFAULT_MS;
    if (lease_ms < S_LEASE_MIN_MS)
        lease_ms = S_LEASE_MIN_MS;
    if (lease_ms > S_LEASE_MAX_MS)
        lease_ms = S_LEASE_MAX_MS;
    bool renewed = self->peer != NULL;
    if (!renewed) {
        self->peer = zframe_dup (peer);
        self->session_id = s_new_session_id ();
        self->session_start_ns = clock_now_ns ();
        self->caches_dropped_test_id = 0;   //  test ids start again with a session
        self->last_heard_ns = self->session_start_ns;
    }
    msg_strcpy (self->coordinator, hello->coordinator, sizeof (self->coordinator));
    self->lease_ns = (int64_t) lease_ms * NS_PER_MSEC;
    s_log (self, "event=%s coordinator=%s lease_ms=%" PRIu32, renewed? "session-renewed": "session",
           s_quote (self->coordinator, quoted, sizeof (quoted)), lease_ms);
    s_send_welcome (self, peer, self->session_id);
}

//  PING: answer at once with the receive and send instants, and the
//  session we hold with the sender (0 for anyone else), so that a
//  coordinator that lost its session to a restart learns it at once.
static void
s_handle_ping (agent_t *self, zframe_t *peer, bool from_peer, int64_t received_ns)
{
    msg_ping_t ping = self->in.u.ping;
    msg_t *out = s_reply (self, MSG_PONG);
    out->u.pong.seq = ping.seq;
    out->u.pong.t1_ns = ping.t1_ns;
    out->u.pong.t2_ns = received_ns;
    out->u.pong.session_id = from_peer? self->session_id: 0;
    out->u.pong.t3_ns = clock_now_ns ();
    s_send (self, peer, out);
    if (self->verbose)
        s_log (self, "event=ping seq=%" PRIu32, ping.seq);
}

//  PREPARE: make one job of a test ready, or say exactly why not.
static void
s_handle_prepare (agent_t *self, zframe_t *peer, bool from_peer)
{
    msg_prepare_t *prepare = &self->in.u.prepare;
    const jobspec_t *spec = &prepare->spec;
    int32_t job_id = (int32_t) prepare->job_id;
    if (!from_peer) {
        s_send_error (self, peer, prepare->test_id, job_id, "no-session",
                      "agent %s has no session with you: send HELLO first", self->name);
        return;
    }
    if (s_test_is_current (self, prepare->test_id)) {
        if (self->test.started) {
            s_send_error (self, peer, prepare->test_id, job_id, "prepare",
                          "test %" PRIu32 " has already started", prepare->test_id);
            return;
        }
        s_test_remove_job (self, prepare->job_id);
    }
    else
    if (self->test.active) {
        char reason [64];
        snprintf (reason, sizeof (reason), "replaced by test %" PRIu32, prepare->test_id);
        s_test_discard (self, reason);
    }
    if (self->test.slot_count >= S_TEST_JOBS_MAX) {
        s_send_error (self, peer, prepare->test_id, job_id, "prepare",
                      "job %s: test %" PRIu32 " already holds %d jobs on agent %s, its limit",
                      spec->name, prepare->test_id, S_TEST_JOBS_MAX, self->name);
        return;
    }
    if (spec->streams > S_TEST_STREAMS_MAX
    ||  self->test.stream_count + spec->streams > S_TEST_STREAMS_MAX) {
        s_send_error (self, peer, prepare->test_id, job_id, "prepare",
                      "job %s: %" PRIu64 " streams would exceed this agent's limit of %d per test",
                      spec->name, spec->streams, S_TEST_STREAMS_MAX);
        return;
    }

    char quoted [S_QUOTED_MAX];
    char test_name [JOB_NAME_MAX + 1], job_name [JOB_NAME_MAX + 1];
    s_log (self, "event=prepare test=%s job=%s test_id=%" PRIu32 " job_id=%" PRIu32
           " workload=%s streams=%" PRIu64 " path=%s",
           s_token (spec->test, test_name, sizeof (test_name)),
           s_token (spec->name, job_name, sizeof (job_name)),
           prepare->test_id, prepare->job_id, jobspec_workload_name (spec->workload),
           spec->streams, s_quote (spec->path, quoted, sizeof (quoted)));
    char err [MSG_TEXT_MAX + 1] = "";
    //  A cold cache for the timed part, once per test: after the fills,
    //  which come first, so that their sources are not in memory either.
    if (spec->drop_caches && spec->workload != WORKLOAD_FILL
    &&  self->caches_dropped_test_id != prepare->test_id) {
        char reason [MSG_TEXT_MAX + 1];
        if (procstat_drop_caches ("/proc", reason, sizeof (reason))) {
            s_send_error (self, peer, prepare->test_id, job_id, "prepare",
                          "job %s: drop_caches = yes needs root on agent %s: %s",
                          spec->name, self->name, reason);
            return;
        }
        self->caches_dropped_test_id = prepare->test_id;
        s_log (self, "event=caches-dropped test_id=%" PRIu32, prepare->test_id);
    }
    job_t *job = job_new (prepare->test_id, prepare->job_id, spec, self->confine,
                          self->ledger, self->notify_fd, err, sizeof (err));
    if (job && s_test_add_job (self, prepare->test_id, job) == -1) {
        job_destroy (&job);
        snprintf (err, sizeof (err), "job %s: %s", spec->name, strerror (ENOMEM));
    }
    if (!job) {
        s_log (self, "event=prepare-failed test_id=%" PRIu32 " job_id=%" PRIu32 " reason=%s",
               prepare->test_id, prepare->job_id, s_quote (err, quoted, sizeof (quoted)));
        s_send_error (self, peer, prepare->test_id, job_id, "prepare", "%s", err);
        return;
    }
    if (job_untimed (job)) {
        //  A fill works in its stream threads now; s_collect_results
        //  answers READY (or ERROR) when it is done.
        s_log (self, "event=fill-started test_id=%" PRIu32 " job_id=%" PRIu32 " streams=%zu",
               prepare->test_id, prepare->job_id, job_stream_count (job));
        return;
    }
    msg_t *out = s_reply (self, MSG_READY);
    out->u.ready.test_id = prepare->test_id;
    out->u.ready.job_id = prepare->job_id;
    out->u.ready.streams = (uint32_t) job_stream_count (job);
    out->u.ready.job_class = (uint32_t) job_class (job);
    s_log (self, "event=ready test_id=%" PRIu32 " job_id=%" PRIu32 " streams=%" PRIu32
           " class=%s", out->u.ready.test_id, out->u.ready.job_id, out->u.ready.streams,
           jobspec_class_name (job_class (job)));
    s_send (self, peer, out);
}

//  START: hand every prepared stream of the test its start instant.
static void
s_handle_start (agent_t *self, zframe_t *peer, bool from_peer)
{
    msg_start_t *start = &self->in.u.start;
    if (!from_peer) {
        s_send_error (self, peer, start->test_id, -1, "no-session",
                      "agent %s has no session with you: send HELLO first", self->name);
        return;
    }
    if (!s_test_is_current (self, start->test_id)) {
        s_send_error (self, peer, start->test_id, -1, "start",
                      "test %" PRIu32 " is not prepared on agent %s", start->test_id, self->name);
        return;
    }
    if (self->test.started) {
        s_send_error (self, peer, start->test_id, -1, "start",
                      "test %" PRIu32 " has already started", start->test_id);
        return;
    }
    //  A start instant hours away is a clock mapped wrong, not a plan.
    //  The instant is any int64 the wire carries: compare it with the
    //  window around now before subtracting anything from it.
    int64_t now_ns = clock_now_ns ();
    if (start->start_ns > now_ns + S_START_LEAD_MAX_NS
    ||  start->start_ns < now_ns - S_START_LEAD_MAX_NS) {
        s_send_error (self, peer, start->test_id, -1, "start",
                      "start instant %" PRId64 " ns is more than %" PRId64 " s from this "
                      "agent's clock (now %" PRId64 " ns)", start->start_ns,
                      (int64_t) (S_START_LEAD_MAX_NS / NS_PER_SEC), now_ns);
        return;
    }
    int64_t lead_ns = start->start_ns - now_ns;
    s_test_t *test = &self->test;
    test->started = true;
    test->start_ns = start->start_ns;
    for (size_t index = 0; index < test->slot_count; index++) {
        s_slot_t *slot = &test->slots [index];
        job_start (slot->job, start->start_ns);
        int64_t interval_ns = job_spec (slot->job)->interval_ns;
        slot->next_sample_ns = interval_ns > 0?
                               s_add_saturated (start->start_ns, interval_ns): INT64_MAX;
        //  A monitor's series starts at the start instant itself: its
        //  first counters are the base of every difference after.
        if (job_samples_host (slot->job))
            slot->next_sample_ns = start->start_ns;
    }
    s_log (self, "event=start test_id=%" PRIu32 " test=%s start_ns=%" PRId64 " lead_us=%" PRId64,
           test->test_id, test->name, start->start_ns, (int64_t) (lead_ns / NS_PER_USEC));
    //  A test without streams is over as soon as it starts.
    s_collect_results (self);
}

//  ABORT: stop the test's streams; their RESULTs follow as they end.
static void
s_handle_abort (agent_t *self, zframe_t *peer, bool from_peer)
{
    msg_abort_t *abort_msg = &self->in.u.abort;
    char quoted [S_QUOTED_MAX];
    if (!from_peer) {
        s_send_error (self, peer, abort_msg->test_id, -1, "no-session",
                      "agent %s has no session with you: send HELLO first", self->name);
        return;
    }
    if (!s_test_is_current (self, abort_msg->test_id)) {
        //  Most likely the test ended while the ABORT was on its way.
        s_log (self, "event=abort-ignored test_id=%" PRIu32 " reason=%s", abort_msg->test_id,
               s_quote (abort_msg->reason, quoted, sizeof (quoted)));
        return;
    }
    s_log (self, "event=abort test_id=%" PRIu32 " reason=%s", abort_msg->test_id,
           s_quote (abort_msg->reason, quoted, sizeof (quoted)));
    s_test_stop (self, abort_msg->reason);
}

//  One decoded message from peer.
static void
s_dispatch (agent_t *self, zframe_t *peer, bool from_peer, int64_t received_ns)
{
    char quoted [S_QUOTED_MAX];
    char peer_text [64];
    switch (self->in.type) {
        case MSG_HELLO:
            s_handle_hello (self, peer, from_peer);
            break;
        case MSG_PING:
            s_handle_ping (self, peer, from_peer, received_ns);
            break;
        case MSG_PREPARE:
            s_handle_prepare (self, peer, from_peer);
            break;
        case MSG_START:
            s_handle_start (self, peer, from_peer);
            break;
        case MSG_ABORT:
            s_handle_abort (self, peer, from_peer);
            break;
        case MSG_STOP:
            //  The timed streams are over everywhere: monitors take a last
            //  sample, so that their series ends with the test, and end.
            if (from_peer && s_test_is_current (self, self->in.u.stop.test_id))
                for (size_t index = 0; index < self->test.slot_count; index++)
                    if (job_samples_host (self->test.slots [index].job)) {
                        s_send_monitor (self, self->test.slots [index].job);
                        job_stop (self->test.slots [index].job, "test over");
                    }
            break;
        case MSG_BYE:
            if (from_peer)
                s_end_session (self, "bye", "session ended by the coordinator");
            else
                s_log (self, "event=bye-ignored from=%s",
                       s_peer_text (peer, peer_text, sizeof (peer_text)));
            break;
        case MSG_ERROR:
            //  Never answered: two programs trading errors would not stop.
            s_log (self, "event=peer-error from=%s code=%s text=%s",
                   s_peer_text (peer, peer_text, sizeof (peer_text)), self->in.u.error.code,
                   s_quote (self->in.u.error.text, quoted, sizeof (quoted)));
            break;
        default:
            s_log (self, "event=unexpected from=%s type=%s",
                   s_peer_text (peer, peer_text, sizeof (peer_text)),
                   msg_type_name (self->in.type));
            s_send_error (self, peer, 0, -1, "unexpected",
                          "agent %s does not accept %s messages", self->name,
                          msg_type_name (self->in.type));
            break;
    }
}

//  Count, log and answer a frame that is not a message. Anyone who
//  reaches the socket can send them as fast as they like, so the log
//  gets the first few and then a line a second, saying how many it did
//  not show. Every frame is still answered: the ROUTER socket drops what
//  a peer does not read rather than wait for it, so answers cost only
//  the encoding, and a coordinator that sent one bad frame among good
//  ones learns which.
static void
s_reject_malformed (agent_t *self, zframe_t *peer, const char *reason)
{
    char quoted [S_QUOTED_MAX];
    char peer_text [64];
    uint64_t unlogged;
    if (agent_lograte_pass (&self->malformed, clock_now_ns (), &unlogged))
        s_log (self, "event=malformed from=%s reason=%s count=%" PRIu64 " unlogged=%" PRIu64,
               s_peer_text (peer, peer_text, sizeof (peer_text)),
               s_quote (reason, quoted, sizeof (quoted)), self->malformed.count, unlogged);
    s_send_error (self, peer, 0, -1, "malformed", "%s", reason);
}

//  Read one message from the socket and handle it. Its receive instant is
//  taken first thing, for PONG's t2.
static void
s_handle_router (agent_t *self)
{
    zmsg_t *zmsg = zmsg_recv (self->router);
    int64_t received_ns = clock_now_ns ();
    if (!zmsg)
        return;
    zframe_t *peer = zmsg_pop (zmsg);
    zframe_t *payload = zmsg_pop (zmsg);
    if (!peer)
        goto done;

    bool from_peer = self->peer && zframe_eq (peer, self->peer);
    if (from_peer)
        self->last_heard_ns = received_ns;
    if (!payload || zmsg_size (zmsg) != 0) {
        s_reject_malformed (self, peer, "expected exactly one frame after the routing id");
        goto done;
    }
    char err [MSG_TEXT_MAX + 1] = "";
    int rc = msg_decode (zframe_data (payload), zframe_size (payload), &self->in,
                         err, sizeof (err));
    if (rc == MSG_EVERSION) {
        char quoted [S_QUOTED_MAX];
        char peer_text [64];
        s_log (self, "event=refused reason=version from=%s detail=%s",
               s_peer_text (peer, peer_text, sizeof (peer_text)),
               s_quote (err, quoted, sizeof (quoted)));
        s_send_error (self, peer, 0, -1, "version", "%s", err);
    }
    else
    if (rc != MSG_OK)
        s_reject_malformed (self, peer, err [0]? err: "not a message");
    else
        s_dispatch (self, peer, from_peer, received_ns);

done:
    zframe_destroy (&peer);
    zframe_destroy (&payload);
    zmsg_destroy (&zmsg);
}

//  Streams ended: reset the eventfd and take their results.
static void
s_handle_stream_events (agent_t *self)
{
    uint64_t count;
    ssize_t rc = read (self->notify_fd, &count, sizeof (count));
    (void) rc;
    s_collect_results (self);
}

//  The host's window opens at the start instant (the loop wakes for it
//  after the streams, which spin for it, have started) and its figures go
//  out once the settle period after the test is over.
static void
s_watch_host (agent_t *self, int64_t now_ns)
{
    s_test_t *test = &self->test;
    if (test->active && test->started && !test->host_begun && now_ns >= test->start_ns) {
        char err [256];
        if (hostwatch_begin (self->hostwatch, test->test_id, err, sizeof (err)))
            s_log (self, "event=host-figures test_id=%" PRIu32 " error=\"%s\"", test->test_id, err);
        test->host_begun = true;
    }
    msg_t *out = s_reply (self, MSG_HOST);
    if (hostwatch_settled (self->hostwatch, &out->u.host) && self->peer)
        s_send (self, self->peer, out);
}

//  Deadlines: the session's lease, then samples.
static void
s_handle_timers (agent_t *self)
{
    int64_t now_ns = clock_now_ns ();
    if (self->peer && now_ns - self->last_heard_ns >= self->lease_ns)
        s_end_session (self, "lease-expired", "the coordinator went silent (lease expired)");
    s_send_samples (self, now_ns);
    s_watch_host (self, now_ns);
}

//  Milliseconds until the next deadline, rounded up so that the loop
//  wakes at or after it, never just before; -1 for none.
static int
s_timeout_ms (agent_t *self)
{
    int64_t deadline_ns = INT64_MAX;
    if (self->peer)
        deadline_ns = s_add_saturated (self->last_heard_ns, self->lease_ns);
    s_test_t *test = &self->test;
    if (test->active && test->started && !test->host_begun && test->start_ns < deadline_ns)
        deadline_ns = test->start_ns;
    int64_t settle_ns = hostwatch_next_ns (self->hostwatch);
    if (settle_ns && settle_ns < deadline_ns)
        deadline_ns = settle_ns;
    if (test->active && test->started && !test->orphaned && self->peer)
        for (size_t index = 0; index < test->slot_count; index++)
            if (test->slots [index].next_sample_ns < deadline_ns)
                deadline_ns = test->slots [index].next_sample_ns;
    if (deadline_ns == INT64_MAX)
        return -1;
    int64_t wait_ns = deadline_ns - clock_now_ns ();
    if (wait_ns <= 0)
        return 0;
    int64_t wait_ms = (wait_ns + NS_PER_MSEC - 1) / NS_PER_MSEC;
    return wait_ms > INT_MAX? INT_MAX: (int) wait_ms;
}

//  Stop what runs, wait for it, report it if a session is there to hear,
//  and remove what the test created (unless keep).
static void
s_shutdown (agent_t *self)
{
    if (self->test.active) {
        s_test_stop (self, "agent stopping");
        for (size_t index = 0; index < self->test.slot_count; index++)
            job_wait (self->test.slots [index].job);
        s_collect_results (self);
    }
    s_log (self, "event=exit malformed=%" PRIu64, self->malformed.count);
}

//  The loop: one poller over the stream eventfd, the actor pipe (if any)
//  and the socket, woken by the next deadline. Ends on $TERM from the
//  pipe, or on SIGINT/SIGTERM when there is no pipe.
static void
s_loop (agent_t *self, zsock_t *pipe)
{
    zpoller_t *poller = zpoller_new (&self->notify_fd, NULL);
    if (!poller) {
        s_log (self, "event=exit reason=\"zpoller_new failed\"");
        return;
    }
    if (pipe)
        zpoller_add (poller, pipe);
    zpoller_add (poller, self->router);
    s_log (self, "event=listening");

    while (pipe || !zsys_interrupted) {
        void *which = zpoller_wait (poller, s_timeout_ms (self));
        if (which == &self->notify_fd)
            s_handle_stream_events (self);
        else
        if (pipe && which == pipe) {
            char *command = zstr_recv (pipe);
            bool terminate = !command || streq (command, "$TERM");
            zstr_free (&command);
            if (terminate)
                break;
        }
        else
        if (which == self->router)
            s_handle_router (self);
        else
        if (zpoller_terminated (poller) && (zsys_interrupted || zmq_errno () == ETERM))
            break;
        s_handle_timers (self);
    }
    zpoller_destroy (&poller);
    s_shutdown (self);
}

//  --------------------------------------------------------------------------
//  Public

//  True for endpoints only this host can reach.
bool
agent_endpoint_is_loopback (const char *endpoint)
{
    if (strncmp (endpoint, "ipc://", 6) == 0 || strncmp (endpoint, "inproc://", 9) == 0)
        return true;
    if (strncmp (endpoint, "tcp://", 6) != 0)
        return false;
    const char *host = endpoint + 6;
    const char *colon = strrchr (host, ':');
    if (!colon)
        return false;
    size_t host_len = (size_t) (colon - host);
    if ((host_len == 9 && strncmp (host, "localhost", 9) == 0)
    ||  (host_len == 5 && strncmp (host, "[::1]", 5) == 0))
        return true;

    char address [INET_ADDRSTRLEN];
    struct in_addr in;
    if (host_len >= sizeof (address))
        return false;
    memcpy (address, host, host_len);
    address [host_len] = '\0';
    return inet_pton (AF_INET, address, &in) == 1
        && (ntohl (in.s_addr) >> 24) == 127;
}

//  An agent's keys directory: its own pair and at least one coordinator.
keys_t *
agent_keys_new (const char *dir, char *err, size_t errlen)
{
    keys_t *keys = keys_new (dir, err, errlen);
    if (keys && keys_peer_count (keys) == 0) {
        snprintf (err, errlen, "keys %s: no coordinator public key (*" KEYS_PUBLIC_SUFFIX
                  ") beside the agent's own: copy in the NAME" KEYS_PUBLIC_SUFFIX
                  " of every coordinator to trust", dir);
        keys_destroy (&keys);
    }
    return keys;
}

//  Every stream holds its file and that file's directory open (a copy its
//  source too): three descriptors for each of up to S_TEST_STREAMS_MAX
//  streams is more than the usual soft limit of 1024. Raise the soft limit
//  to the hard one, which is the administrator's to set.
static void
s_raise_fd_limit (agent_t *self)
{
    struct rlimit limit;
    if (getrlimit (RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        rlim_t before = limit.rlim_cur;
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit (RLIMIT_NOFILE, &limit) == 0)
            s_log (self, "event=fd-limit soft=%llu was=%llu",
                   (unsigned long long) limit.rlim_cur, (unsigned long long) before);
    }
}

//  Create, configure and bind the socket. Returns 0, or -1 with err.
static int
s_bind (agent_t *self, const char *endpoint, char *err, size_t errlen)
{
    self->router = zsock_new (ZMQ_ROUTER);
    if (!self->router) {
        snprintf (err, errlen, "zsock_new(ROUTER): %s", zmq_strerror (zmq_errno ()));
        return -1;
    }
    //  libzmq drops any frame larger than this (and the connection that
    //  sent it) before the decoder sees it.
    zsock_set_maxmsgsize (self->router, MSG_FRAME_MAX);
    zsock_set_heartbeat_ivl (self->router, S_HEARTBEAT_IVL_MS);
    zsock_set_heartbeat_timeout (self->router, S_HEARTBEAT_TIMEOUT_MS);
    //  With keys: a CURVE server (encrypted, and every client asked of the
    //  ZAP handler, which is already running).
    if (self->keys) {
        zcert_apply (keys_own (self->keys), self->router);
        zsock_set_curve_server (self->router, 1);
        zsock_set_zap_domain (self->router, "iofleet");
    }
    if (zsock_bind (self->router, "%s", endpoint) == -1) {
        snprintf (err, errlen, "bind(%s): %s", endpoint, zmq_strerror (zmq_errno ()));
        return -1;
    }
    self->endpoint = zsock_last_endpoint (self->router);
    if (!self->endpoint) {
        snprintf (err, errlen, "bind(%s): cannot read the bound endpoint", endpoint);
        return -1;
    }
    return 0;
}

//  Build an agent: roots, security rule, eventfd, bound socket.
agent_t *
agent_new (const agent_config_t *config, char *err, size_t errlen)
{
    agent_t *self = calloc (1, sizeof (agent_t));
    if (!self) {
        snprintf (err, errlen, "agent: %s", strerror (ENOMEM));
        goto fail;
    }
    self->notify_fd = -1;
    self->verbose = config->verbose;
    self->insecure = !config->keys_dir;
    self->hostinfo = hostinfo_new ();
    self->hostwatch = hostwatch_new ("/proc", "/sys");
    self->confine = confine_new ();
    uint64_t mem_bytes = self->hostinfo? hostinfo_mem_bytes (self->hostinfo): 0;
    uint64_t memory_bound_bytes = config->max_memory_bytes? config->max_memory_bytes
                                : mem_bytes? mem_bytes / S_MEMORY_SHARE: S_MEMORY_FALLBACK_BYTES;
    self->ledger = ledger_new (memory_bound_bytes);
    if (!self->hostinfo || !self->hostwatch || !self->confine || !self->ledger) {
        snprintf (err, errlen, "agent: %s", strerror (ENOMEM));
        goto fail;
    }
    const char *name = config->name && config->name [0]?
                       config->name: hostinfo_hostname (self->hostinfo);
    if (strlen (name) > JOB_NAME_MAX) {
        snprintf (err, errlen, "name %s: longer than %d characters", name, JOB_NAME_MAX);
        goto fail;
    }
    msg_strcpy (self->name, name, sizeof (self->name));

    if (config->root_count == 0) {
        snprintf (err, errlen, "no --root given: the agent needs a directory to work in");
        goto fail;
    }
    for (size_t index = 0; index < config->nfs_host_count; index++)
        if (confine_allow_nfs (self->confine, config->nfs_hosts [index], err, errlen) == -1)
            goto fail;
    for (size_t index = 0; index < config->root_count; index++)
        if (confine_add_root (self->confine, config->roots [index], err, errlen) == -1)
            goto fail;

    if (config->keys_dir) {
        self->keys = agent_keys_new (config->keys_dir, err, errlen);
        if (!self->keys)
            goto fail;
        self->auth = auth_new (self->keys, self->name, err, errlen);
        if (!self->auth)
            goto fail;
    }
    bool loopback = agent_endpoint_is_loopback (config->bind_endpoint);
    if (!loopback && self->insecure && !config->insecure) {
        snprintf (err, errlen, "bind(%s): refusing to serve a non-loopback address "
                  "without encryption; give --keys DIR, or --insecure to do it anyway",
                  config->bind_endpoint);
        goto fail;
    }
    s_raise_fd_limit (self);
    self->notify_fd = eventfd (0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (self->notify_fd == -1) {
        snprintf (err, errlen, "eventfd: %s", strerror (errno));
        goto fail;
    }
    if (s_bind (self, config->bind_endpoint, err, errlen) == -1)
        goto fail;

    s_log (self, "event=bound endpoint=%s version=%s protocol=%d", self->endpoint,
           IOFLEET_VERSION, IOFLEET_PROTOCOL_VERSION);
    for (size_t index = 0; index < confine_root_count (self->confine); index++)
        s_log (self, "event=root dir=%s", confine_root (self->confine, index));
    s_log (self, "event=memory-bound test_bytes=%" PRIu64 " from=%s", memory_bound_bytes,
           config->max_memory_bytes? "--max-memory": mem_bytes? "MemTotal/4": "fallback");
    if (self->keys) {
        char key_text [48];
        s_log (self, "event=security security=curve key=%s trusted=%zu keys=%s",
               keys_key_text (zcert_public_key (keys_own (self->keys)), key_text, sizeof (key_text)),
               keys_peer_count (self->keys), keys_dir (self->keys));
    }
    else
    if (loopback && !config->insecure)
        s_log (self, "event=note security=none text=\"the socket is unauthenticated; "
               "only this host can reach it\"");
    else
        s_log (self, "event=warning security=none text=\"serving %s without authentication "
               "or encryption (--insecure): anyone who reaches it can write under the roots\"",
               self->endpoint);
    return self;

fail:
    agent_destroy (&self);
    return NULL;
}

//  Drop any test, close the socket and free the agent.
void
agent_destroy (agent_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    agent_t *self = *self_p;
    if (self->test.active)
        s_test_discard (self, "agent destroyed");
    zframe_destroy (&self->peer);
    if (self->router)
        zsock_set_linger (self->router, S_LINGER_MS);
    zsock_destroy (&self->router);
    auth_destroy (&self->auth);
    keys_destroy (&self->keys);
    zstr_free (&self->endpoint);
    if (self->notify_fd != -1)
        close (self->notify_fd);
    confine_destroy (&self->confine);
    hostinfo_destroy (&self->hostinfo);
    hostwatch_destroy (&self->hostwatch);
    ledger_destroy (&self->ledger);
    free (self);
    *self_p = NULL;
}

//  The endpoint actually bound.
const char *
agent_endpoint (agent_t *self)
{
    return self->endpoint;
}

//  The agent's name.
const char *
agent_name (agent_t *self)
{
    return self->name;
}

//  Serve until SIGINT or SIGTERM.
int
agent_run (agent_t *self)
{
    s_loop (self, NULL);
    return 0;
}

//  Serve as a CZMQ actor until $TERM.
void
agent_actor (zsock_t *pipe, void *args)
{
    agent_t *self = args;
    zsock_signal (pipe, 0);
    s_loop (self, pipe);
}
