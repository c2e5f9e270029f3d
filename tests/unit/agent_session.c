/*  tests/unit/agent_session.c: the agent's session with a coordinator:
    hello, prepare, start, samples, results, abort, bye, leases. The
    in-process agent and its helpers are in session.h.
*/
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <msgpack.h>
#include <sys/utsname.h>

static void
test_probe_hello_gets_welcome (void **state)
{
    fixture_t *fx = *state;
    s_hello (fx->dealer, "probe@console", 0, true);
    msg_t *msg = s_expect (fx, fx->dealer, MSG_WELCOME);
    struct utsname names;
    assert_int_equal (uname (&names), 0);
    assert_string_equal (msg->u.welcome.name, "t1");
    assert_string_equal (msg->u.welcome.hostname, names.nodename);
    assert_string_equal (msg->u.welcome.kernel, names.release);
    assert_true (msg->u.welcome.cpus >= 1);
    assert_true (msg->u.welcome.mem_bytes > 0);
    assert_true (msg->u.welcome.insecure);
    assert_string_equal (msg->u.welcome.serving, "");

    //  The probe started nothing: another coordinator gets the session.
    s_open_session (fx, fx->other, "second");
}

static void
test_second_coordinator_is_busy (void **state)
{
    fixture_t *fx = *state;
    s_open_session (fx, fx->dealer, "alice@console pid=1");
    //  HELLO again from the session's own peer is welcome.
    s_open_session (fx, fx->dealer, "alice@console pid=1");

    s_hello (fx->other, "bob@laptop pid=2", 0, false);
    msg_t *msg = s_expect (fx, fx->other, MSG_ERROR);
    assert_string_equal (msg->u.error.code, "busy");
    assert_non_null (strstr (msg->u.error.text, "alice@console pid=1"));
    assert_non_null (strstr (msg->u.error.text, "t1"));

    //  A probe from the other one is answered and names whom the agent serves.
    s_hello (fx->other, "bob@laptop pid=2", 0, true);
    msg = s_expect (fx, fx->other, MSG_WELCOME);
    assert_string_equal (msg->u.welcome.serving, "alice@console pid=1");
}

static void
test_ping_pong_timestamps (void **state)
{
    fixture_t *fx = *state;
    for (uint32_t seq = 1; seq <= 3; seq++) {
        msg_t ping = { .type = MSG_PING };
        ping.u.ping.seq = seq;
        ping.u.ping.t1_ns = clock_now_ns ();
        s_send (fx->dealer, &ping);
        msg_t *msg = s_expect (fx, fx->dealer, MSG_PONG);
        int64_t t4_ns = clock_now_ns ();
        assert_int_equal (msg->u.pong.seq, seq);
        assert_int_equal (msg->u.pong.t1_ns, ping.u.ping.t1_ns);
        //  One host, one clock: the four instants are in order.
        assert_true (msg->u.pong.t1_ns <= msg->u.pong.t2_ns);
        assert_true (msg->u.pong.t2_ns <= msg->u.pong.t3_ns);
        assert_true (msg->u.pong.t3_ns <= t4_ns);
    }
}


static void
test_prepare_start_write_keep (void **state)
{
    fixture_t *fx = *state;
    s_open_session (fx, fx->dealer, "writer");
    jobspec_t spec = s_write_spec ("w", 2, MIB, true);
    s_prepare (fx->dealer, 1, 0, &spec);
    msg_t *msg = s_expect (fx, fx->dealer, MSG_READY);
    assert_int_equal (msg->u.ready.test_id, 1);
    assert_int_equal (msg->u.ready.job_id, 0);
    assert_int_equal (msg->u.ready.streams, 2);

    msg_result_t results [2];
    s_run_test (fx, 1, MIB, results, 2);
    //  The host's figures over the test follow: fdatasync left nothing
    //  dirty, so the settle period ends at once.
    int64_t give_up_ns = clock_now_ns () + 5 * NS_PER_SEC;
    while (fx->hosts == 0 && clock_now_ns () < give_up_ns) {
        s_sync (fx, fx->dealer);
        zclock_sleep (50);
    }
    assert_int_equal (fx->hosts, 1);
    assert_int_equal (fx->host.test_id, 1);
    assert_true (fx->host.mem_total_bytes > 0);     //  a 1 MiB window may last under a tick
    assert_true (fx->host.window_start_ns >= results [0].start_ns - NS_PER_MSEC);
    assert_true (fx->host.window_end_ns >= results [0].end_ns);
    //  The host's latency of the phase went out before its last result.
    assert_true (fx->intervals >= 1);
    for (int index = 0; index < 2; index++) {
        char expected [PATH_MAX];
        snprintf (expected, sizeof (expected), "%s/w.%d", fx->root, index + 1);
        assert_string_equal (results [index].path, expected);
        assert_int_equal (s_file_size (expected), MIB);
    }

    //  The test is over: the same session can run the next one, and a
    //  size that is not a multiple of bs ends with a short block.
    spec = s_write_spec ("sub/dir/odd", 1, 100000, true);
    s_prepare (fx->dealer, 2, 0, &spec);
    s_expect (fx, fx->dealer, MSG_READY);
    s_run_test (fx, 2, 100000, results, 1);
    char expected [PATH_MAX];
    snprintf (expected, sizeof (expected), "%s/sub/dir/odd", fx->root);
    assert_int_equal (s_file_size (expected), 100000);
}

static void
test_files_removed_without_keep (void **state)
{
    fixture_t *fx = *state;
    s_open_session (fx, fx->dealer, "writer");
    jobspec_t spec = s_write_spec ("gone", 2, MIB, false);
    spec.pattern = PATTERN_RANDOM;
    s_prepare (fx->dealer, 7, 3, &spec);
    msg_t *msg = s_expect (fx, fx->dealer, MSG_READY);
    assert_int_equal (msg->u.ready.job_id, 3);

    //  Prepared files exist before the start...
    char path [PATH_MAX];
    snprintf (path, sizeof (path), "%s/gone.1", fx->root);
    assert_int_equal (s_file_size (path), 0);

    //  ...and are gone once the test is over: the agent ends it when the
    //  last result is out and the host's figures went after the settle
    //  period (the files' dirty pages are part of them), before it
    //  answers the next message.
    msg_result_t results [2];
    s_run_test (fx, 7, MIB, results, 2);
    for (int tries = 0; fx->hosts == 0 && tries < 200; tries++) {
        usleep (50 * 1000);
        s_sync (fx, fx->dealer);
    }
    assert_true (fx->hosts > 0);
    s_sync (fx, fx->dealer);
    for (int index = 0; index < 2; index++) {
        assert_int_equal (results [index].job_id, 3);
        assert_int_equal (s_file_size (results [index].path), -1);
    }
}

//  PREPARE with path must fail naming it, and create nothing.
static void
s_assert_prepare_refused (fixture_t *fx, const char *path, const char *created)
{
    jobspec_t spec = s_write_spec (path, 1, MIB, true);
    s_prepare (fx->dealer, 1, 5, &spec);
    msg_t *msg = s_expect (fx, fx->dealer, MSG_ERROR);
    assert_string_equal (msg->u.error.code, "prepare");
    assert_int_equal (msg->u.error.test_id, 1);
    assert_int_equal (msg->u.error.job_id, 5);
    if (!strstr (msg->u.error.text, path))
        fail_msg ("error text '%s' does not name %s", msg->u.error.text, path);
    assert_int_equal (s_file_size (created), -1);
}

static void
test_prepare_refuses_paths_outside_root (void **state)
{
    fixture_t *fx = *state;
    s_open_session (fx, fx->dealer, "escaper");
    char created [PATH_MAX];
    snprintf (created, sizeof (created), "%s/escape", fx->base);
    s_assert_prepare_refused (fx, "../escape", created);
    s_assert_prepare_refused (fx, "/etc/iofleet-test", "/etc/iofleet-test");

    //  Refusals leave the root as it was.
    snprintf (created, sizeof (created), "%s/x", fx->root);
    s_assert_prepare_refused (fx, "/etc/iofleet-test", created);
    assert_int_equal (scratch_entries (fx->root), 0);

    //  A bad option is refused the same way.
    jobspec_t spec = s_write_spec ("fine", 1, 1000, true);
    spec.direct = true;
    s_prepare (fx->dealer, 1, 0, &spec);
    msg_t *msg = s_expect (fx, fx->dealer, MSG_ERROR);
    assert_string_equal (msg->u.error.code, "prepare");
    assert_non_null (strstr (msg->u.error.text, "multiple of 512"));
}

static void
test_malformed_and_wrong_version (void **state)
{
    fixture_t *fx = *state;
    s_send_raw (fx->dealer, "\xc1garbage", 8);
    msg_t *msg = s_expect (fx, fx->dealer, MSG_ERROR);
    assert_string_equal (msg->u.error.code, "malformed");
    assert_int_equal (msg->u.error.job_id, -1);

    //  A map that claims protocol version 7.
    msgpack_sbuffer buffer;
    msgpack_sbuffer_init (&buffer);
    msgpack_packer pk;
    msgpack_packer_init (&pk, &buffer, msgpack_sbuffer_write);
    msgpack_pack_map (&pk, 2);
    msgpack_pack_str_with_body (&pk, "v", 1);
    msgpack_pack_uint64 (&pk, IOFLEET_PROTOCOL_VERSION + 6);
    msgpack_pack_str_with_body (&pk, "t", 1);
    msgpack_pack_str_with_body (&pk, "hello", 5);
    s_send_raw (fx->dealer, buffer.data, buffer.size);
    msgpack_sbuffer_destroy (&buffer);
    msg = s_expect (fx, fx->dealer, MSG_ERROR);
    assert_string_equal (msg->u.error.code, "version");
    char version_text [32];
    snprintf (version_text, sizeof (version_text), "protocol version %d,",
              IOFLEET_PROTOCOL_VERSION + 6);
    assert_non_null (strstr (msg->u.error.text, version_text));

    //  An empty frame, and a message the agent never takes.
    s_send_raw (fx->dealer, "", 0);
    assert_string_equal (s_expect (fx, fx->dealer, MSG_ERROR)->u.error.code, "malformed");
    msg_t ready = { .type = MSG_READY };
    s_send (fx->dealer, &ready);
    assert_string_equal (s_expect (fx, fx->dealer, MSG_ERROR)->u.error.code, "unexpected");

    //  Through all of it the agent still answers.
    s_sync (fx, fx->dealer);
}

static void
test_bye_frees_the_agent (void **state)
{
    fixture_t *fx = *state;
    s_open_session (fx, fx->dealer, "first");
    msg_t bye = { .type = MSG_BYE };
    msg_strcpy (bye.u.bye.reason, "done", sizeof (bye.u.bye.reason));
    s_send (fx->dealer, &bye);
    //  The BYE is handled before the PING that follows it.
    s_sync (fx, fx->dealer);
    s_open_session (fx, fx->other, "second");

    //  The first one no longer has a session.
    jobspec_t spec = s_write_spec ("w", 1, MIB, true);
    s_prepare (fx->dealer, 1, 0, &spec);
    assert_string_equal (s_expect (fx, fx->dealer, MSG_ERROR)->u.error.code, "no-session");
}

static void
test_no_session_and_unknown_test (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = s_write_spec ("w", 1, MIB, true);
    s_prepare (fx->dealer, 1, 0, &spec);
    assert_string_equal (s_expect (fx, fx->dealer, MSG_ERROR)->u.error.code, "no-session");
    char path [PATH_MAX];
    snprintf (path, sizeof (path), "%s/w", fx->root);
    assert_int_equal (s_file_size (path), -1);

    s_open_session (fx, fx->dealer, "c");
    s_start (fx->dealer, 9, clock_now_ns ());
    msg_t *msg = s_expect (fx, fx->dealer, MSG_ERROR);
    assert_string_equal (msg->u.error.code, "start");
    assert_int_equal (msg->u.error.test_id, 9);
}


static void
test_samples_then_abort (void **state)
{
    fixture_t *fx = *state;
    s_open_session (fx, fx->dealer, "aborter");
    //  A petabyte in 512-byte steps: runs until aborted.
    jobspec_t spec = s_null_spec (2, 1ULL << 50);
    s_prepare (fx->dealer, 3, 0, &spec);
    s_expect (fx, fx->dealer, MSG_READY);
    int64_t start_ns = clock_now_ns () + 20 * NS_PER_MSEC;
    s_start (fx->dealer, 3, start_ns);

    //  Samples come every 10 ms from start + 10 ms, with growing bytes.
    uint64_t last_bytes [2] = { 0, 0 };
    for (int count = 0; count < 6; count++) {
        msg_t *msg = s_expect (fx, fx->dealer, MSG_SAMPLE);
        msg_sample_t *sample = &msg->u.sample;
        assert_int_equal (sample->test_id, 3);
        assert_true (sample->stream < 2);
        assert_true (sample->t_ns >= start_ns + 10 * NS_PER_MSEC);
        assert_true (sample->bytes >= last_bytes [sample->stream]);
        last_bytes [sample->stream] = sample->bytes;
    }
    assert_true (last_bytes [0] > 0 || last_bytes [1] > 0);

    msg_t abort_msg = { .type = MSG_ABORT };
    abort_msg.u.abort.test_id = 3;
    msg_strcpy (abort_msg.u.abort.reason, "operator pressed ^C", sizeof (abort_msg.u.abort.reason));
    s_send (fx->dealer, &abort_msg);
    for (int count = 0; count < 2; count++) {
        msg_t *msg = s_recv_skip_samples (fx, fx->dealer, NULL);
        assert_int_equal (msg->type, MSG_RESULT);
        assert_string_equal (msg->u.result.error, "aborted: operator pressed ^C");
        assert_int_not_equal (msg->u.result.err_no, 0);
        assert_true (msg->u.result.bytes < spec.size_bytes);
        assert_true (msg->u.result.start_ns >= start_ns);
    }
    //  The test is over; the next one may be prepared.
    spec = s_null_spec (1, MIB);
    s_prepare (fx->dealer, 4, 0, &spec);
    s_expect (fx, fx->dealer, MSG_READY);
}

static void
test_lease_expiry_frees_the_agent (void **state)
{
    fixture_t *fx = *state;
    s_hello (fx->dealer, "sleepy", 1000, false);
    s_expect (fx, fx->dealer, MSG_WELCOME);
    jobspec_t spec = s_write_spec ("leased", 1, MIB, false);
    s_prepare (fx->dealer, 1, 0, &spec);
    s_expect (fx, fx->dealer, MSG_READY);
    char path [PATH_MAX];
    snprintf (path, sizeof (path), "%s/leased", fx->root);
    assert_int_equal (s_file_size (path), 0);

    //  Still busy within the lease...
    s_hello (fx->other, "eager", 0, false);
    assert_string_equal (s_expect (fx, fx->other, MSG_ERROR)->u.error.code, "busy");
    //  ...free after it, with the prepared file removed.
    zclock_sleep (1300);
    s_open_session (fx, fx->other, "eager");
    assert_int_equal (s_file_size (path), -1);
}

//  A keepalive that asks for a longer lease (its console's messages take
//  long to reach its fleet) keeps the session that much longer.
static void
test_keepalive_lengthens_the_lease (void **state)
{
    fixture_t *fx = *state;
    s_hello (fx->dealer, "far away", 1000, false);
    s_expect (fx, fx->dealer, MSG_WELCOME);
    msg_t ping = { .type = MSG_PING };
    ping.u.ping.lease_ms = 3000;
    s_send (fx->dealer, &ping);
    s_expect (fx, fx->dealer, MSG_PONG);
    //  Past the lease it began with, within the one it holds now...
    zclock_sleep (1500);
    s_hello (fx->other, "eager", 0, false);
    assert_string_equal (s_expect (fx, fx->other, MSG_ERROR)->u.error.code, "busy");
    //  ...and free after that one.
    zclock_sleep (2000);
    s_open_session (fx, fx->other, "eager");
}

static void
test_loopback_endpoints (void **state)
{
    (void) state;
    assert_true (agent_endpoint_is_loopback ("tcp://127.0.0.1:7654"));
    assert_true (agent_endpoint_is_loopback ("tcp://127.1.2.3:*"));
    assert_true (agent_endpoint_is_loopback ("tcp://localhost:7654"));
    assert_true (agent_endpoint_is_loopback ("tcp://[::1]:7654"));
    assert_true (agent_endpoint_is_loopback ("ipc:///run/iofleet.sock"));
    assert_false (agent_endpoint_is_loopback ("tcp://*:7654"));
    assert_false (agent_endpoint_is_loopback ("tcp://0.0.0.0:7654"));
    assert_false (agent_endpoint_is_loopback ("tcp://192.0.2.10:7654"));
    assert_false (agent_endpoint_is_loopback ("tcp://127.0.0.1.example.com:7654"));
    assert_false (agent_endpoint_is_loopback ("tcp://eth0:7654"));
    assert_false (agent_endpoint_is_loopback ("tcp://127.0.0.1"));

    //  agent_new refuses a non-loopback bind without --insecure, and a
    //  root that does not exist.
    const char *roots [] = { "/" };
    agent_config_t config = {
        .bind_endpoint = "tcp://*:*", .name = "x", .roots = roots, .root_count = 1
    };
    char err [512];
    assert_null (agent_new (&config, err, sizeof (err)));
    assert_non_null (strstr (err, "--insecure"));
    const char *missing [] = { "/nonexistent-iofleet-root" };
    config.bind_endpoint = "tcp://127.0.0.1:*";
    config.roots = missing;
    assert_null (agent_new (&config, err, sizeof (err)));
    assert_non_null (strstr (err, "/nonexistent-iofleet-root"));
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test_setup_teardown (test_probe_hello_gets_welcome, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_second_coordinator_is_busy, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_ping_pong_timestamps, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_keepalive_lengthens_the_lease, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_prepare_start_write_keep, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_files_removed_without_keep, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_prepare_refuses_paths_outside_root, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_malformed_and_wrong_version, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_bye_frees_the_agent, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_no_session_and_unknown_test, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_samples_then_abort, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_lease_expiry_frees_the_agent, s_setup, s_teardown),
        cmocka_unit_test (test_loopback_endpoints),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
