/*  tests/unit/session.h: an agent in-process, driven over real ZeroMQ
    sockets the way a coordinator drives it; shared by the unit tests of
    the agent's session (agent_session.c, agent_refusals.c).

    Every case builds its own agent on tcp://127.0.0.1:* with a scratch
    root, runs it as an actor, and talks to it with DEALER sockets and the
    proto codec. Every receive has a timeout, so a broken agent fails the
    case instead of hanging it. Static, because each test program is one
    translation unit.
*/
#ifndef IOFLEET_TEST_SESSION_H
#define IOFLEET_TEST_SESSION_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch.h"

#include "../../agent/agent.h"
#include "../../proto/clock.h"
#include "../../proto/msg.h"
#include "../../proto/workload.h"
#include "../../proto/version.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECV_TIMEOUT_MS 5000        //  longest any reply may take
#define MIB             (1024 * 1024)

//  One agent and the scratch directory it works in.
typedef struct {
    char base [PATH_MAX];           //  scratch directory, realpath'd
    char root [PATH_MAX];           //  base/root, the agent's --root
    agent_t *agent;                 //  the agent under test
    zactor_t *actor;                //  its loop
    zsock_t *dealer;                //  the first coordinator
    zsock_t *other;                 //  a second coordinator
    msg_t msg;                      //  last message received
    msg_host_t host;                //  last HOST message, which comes when it comes
    size_t hosts;                   //  HOST messages received
    size_t intervals;               //  INTERVAL messages received
} fixture_t;

//  A DEALER connected to the agent, with a receive timeout.
static inline zsock_t *
s_dealer (fixture_t *fx)
{
    zsock_t *dealer = zsock_new (ZMQ_DEALER);
    assert_non_null (dealer);
    zsock_set_rcvtimeo (dealer, RECV_TIMEOUT_MS);
    zsock_set_linger (dealer, 0);
    assert_int_equal (zsock_connect (dealer, "%s", agent_endpoint (fx->agent)), 0);
    return dealer;
}

//  Build the scratch root, the agent (with --max-memory max_memory_bytes,
//  0 for its default), its actor and two coordinators.
static inline int
s_setup_agent (void **state, uint64_t max_memory_bytes)
{
    fixture_t *fx = calloc (1, sizeof (fixture_t));
    assert_non_null (fx);
    const char *tmp = getenv ("TMPDIR");
    char template [PATH_MAX];
    snprintf (template, sizeof (template), "%s/iofleet-session-XXXXXX", tmp? tmp: P_tmpdir);
    assert_non_null (mkdtemp (template));
    assert_non_null (realpath (template, fx->base));
    snprintf (fx->root, sizeof (fx->root), "%s/root", fx->base);
    assert_int_equal (mkdir (fx->root, 0755), 0);

    const char *roots [] = { fx->root };
    agent_config_t config = {
        .bind_endpoint = "tcp://127.0.0.1:*",
        .name = "t1",
        .roots = roots,
        .root_count = 1,
        .max_memory_bytes = max_memory_bytes,
    };
    char err [512];
    fx->agent = agent_new (&config, err, sizeof (err));
    if (!fx->agent)
        fail_msg ("agent_new: %s", err);
    assert_non_null (strstr (agent_endpoint (fx->agent), "tcp://127.0.0.1:"));
    assert_string_equal (agent_name (fx->agent), "t1");
    fx->actor = zactor_new (agent_actor, fx->agent);
    assert_non_null (fx->actor);
    fx->dealer = s_dealer (fx);
    fx->other = s_dealer (fx);
    *state = fx;
    return 0;
}

//  The same with the agent's defaults.
static inline int
s_setup (void **state)
{
    return s_setup_agent (state, 0);
}

//  Remove everything s_setup built.
static inline int
s_teardown (void **state)
{
    fixture_t *fx = *state;
    zsock_destroy (&fx->dealer);
    zsock_destroy (&fx->other);
    zactor_destroy (&fx->actor);
    agent_destroy (&fx->agent);
    assert_null (fx->agent);
    scratch_remove (fx->base);
    free (fx);
    return 0;
}

//  Send raw bytes as one frame.
static inline void
s_send_raw (zsock_t *dealer, const void *data, size_t size)
{
    zframe_t *frame = zframe_new (data, size);
    assert_non_null (frame);
    assert_int_equal (zframe_send (&frame, dealer, 0), 0);
}

//  Encode and send msg.
static inline void
s_send (zsock_t *dealer, const msg_t *msg)
{
    char *data;
    size_t size;
    assert_int_equal (msg_encode (msg, &data, &size), 0);
    s_send_raw (dealer, data, size);
    free (data);
}

//  Receive and decode one message into fx->msg, failing on timeout.
static inline msg_t *
s_recv (fixture_t *fx, zsock_t *dealer)
{
    //  A test's HOST figures follow its settle period, and its INTERVALs
    //  its clock, whatever the test script is waiting for at that
    //  moment: keep them aside.
    while (true) {
        zframe_t *frame = zframe_recv (dealer);
        if (!frame)
            fail_msg ("no reply from the agent within %d ms", RECV_TIMEOUT_MS);
        char err [256];
        int rc = msg_decode (zframe_data (frame), zframe_size (frame), &fx->msg, err, sizeof (err));
        zframe_destroy (&frame);
        if (rc != MSG_OK)
            fail_msg ("agent sent an undecodable frame: %s", err);
        if (fx->msg.type == MSG_INTERVAL) {
            fx->intervals++;
            continue;
        }
        if (fx->msg.type != MSG_HOST)
            return &fx->msg;
        fx->host = fx->msg.u.host;
        fx->hosts++;
    }
}

//  Receive the next message that is not a SAMPLE.
static inline msg_t *
s_recv_skip_samples (fixture_t *fx, zsock_t *dealer, int *samples)
{
    while (true) {
        msg_t *msg = s_recv (fx, dealer);
        if (msg->type != MSG_SAMPLE)
            return msg;
        if (samples)
            (*samples)++;
    }
}

//  Receive a message of the given type.
static inline msg_t *
s_expect (fixture_t *fx, zsock_t *dealer, msg_type_t type)
{
    msg_t *msg = s_recv (fx, dealer);
    if (msg->type != type)
        fail_msg ("expected %s, got %s%s%s", msg_type_name (type), msg_type_name (msg->type),
                  msg->type == MSG_ERROR? ": ": "",
                  msg->type == MSG_ERROR? msg->u.error.text: "");
    return msg;
}

//  Send HELLO (lease in ms, probe or not).
static inline void
s_hello (zsock_t *dealer, const char *coordinator, uint32_t lease_ms, bool probe)
{
    msg_t msg = { .type = MSG_HELLO };
    msg_strcpy (msg.u.hello.coordinator, coordinator, sizeof (msg.u.hello.coordinator));
    msg.u.hello.lease_ms = lease_ms;
    msg.u.hello.probe = probe;
    s_send (dealer, &msg);
}

//  HELLO and expect WELCOME: the dealer now holds the session.
static inline void
s_open_session (fixture_t *fx, zsock_t *dealer, const char *coordinator)
{
    s_hello (dealer, coordinator, 0, false);
    msg_t *msg = s_expect (fx, dealer, MSG_WELCOME);
    assert_string_equal (msg->u.welcome.serving, coordinator);
}

//  A round trip on dealer: everything it sent before has been handled.
static inline void
s_sync (fixture_t *fx, zsock_t *dealer)
{
    msg_t msg = { .type = MSG_PING };
    msg.u.ping.seq = 4242;
    s_send (dealer, &msg);
    assert_int_equal (s_expect (fx, dealer, MSG_PONG)->u.pong.seq, 4242);
}

//  Send PREPARE for one job.
static inline void
s_prepare (zsock_t *dealer, uint32_t test_id, uint32_t job_id, const jobspec_t *spec)
{
    msg_t msg = { .type = MSG_PREPARE };
    msg.u.prepare.test_id = test_id;
    msg.u.prepare.job_id = job_id;
    msg.u.prepare.spec = *spec;
    s_send (dealer, &msg);
}

//  Send START.
static inline void
s_start (zsock_t *dealer, uint32_t test_id, int64_t start_ns)
{
    msg_t msg = { .type = MSG_START };
    msg.u.start.test_id = test_id;
    msg.u.start.start_ns = start_ns;
    msg.u.start.phase_count = 1;
    s_send (dealer, &msg);
}

//  A write job: streams files named path(.k), size bytes each.
static inline jobspec_t
s_write_spec (const char *path, uint64_t streams, uint64_t size_bytes, bool keep)
{
    jobspec_t spec;
    jobspec_defaults (&spec);
    msg_strcpy (spec.name, "w", sizeof (spec.name));
    msg_strcpy (spec.test, "t", sizeof (spec.test));
    spec.workload = WORKLOAD_WRITE;
    msg_strcpy (spec.path, path, sizeof (spec.path));
    spec.streams = streams;
    spec.size_bytes = size_bytes;
    spec.bs_bytes = 64 * 1024;
    spec.fsync_mode = FSYNC_END;
    spec.keep = keep;
    return spec;
}

//  Size of a file, -1 if it does not exist.
static inline long long
s_file_size (const char *path)
{
    struct stat st;
    return stat (path, &st) == 0? (long long) st.st_size: -1;
}

//  Run a prepared test: START at now + 50 ms, collect one RESULT per
//  stream into results, check the common figures.
static inline void
s_run_test (fixture_t *fx, uint32_t test_id, uint64_t size_bytes, msg_result_t *results,
            size_t streams)
{
    int64_t start_ns = clock_now_ns () + 50 * NS_PER_MSEC;
    s_start (fx->dealer, test_id, start_ns);
    bool seen [8] = { false };
    for (size_t count = 0; count < streams; count++) {
        msg_t *msg = s_recv_skip_samples (fx, fx->dealer, NULL);
        if (msg->type != MSG_RESULT)
            fail_msg ("expected result, got %s", msg_type_name (msg->type));
        msg_result_t *result = &msg->u.result;
        assert_int_equal (result->test_id, test_id);
        assert_true (result->stream < streams);
        assert_false (seen [result->stream]);
        seen [result->stream] = true;
        if (result->err_no != 0)
            fail_msg ("stream %u failed: %s", result->stream, result->error);
        assert_string_equal (result->error, "");
        assert_int_equal (result->bytes, size_bytes);
        assert_true (result->start_ns >= start_ns);
        assert_true (result->last_write_ns >= result->start_ns);
        assert_true (result->end_ns >= result->last_write_ns);
        assert_true (result->usr_ns >= 0 && result->sys_ns >= 0);
        results [result->stream] = *result;
    }
}

//  A null job: counts size in bs steps without I/O.
static inline jobspec_t
s_null_spec (uint64_t streams, uint64_t size_bytes)
{
    jobspec_t spec;
    jobspec_defaults (&spec);
    msg_strcpy (spec.name, "n", sizeof (spec.name));
    msg_strcpy (spec.test, "t", sizeof (spec.test));
    spec.workload = WORKLOAD_NULL;
    spec.streams = streams;
    spec.size_bytes = size_bytes;
    spec.bs_bytes = 512;
    spec.interval_ns = 10 * NS_PER_MSEC;
    return spec;
}

#endif
