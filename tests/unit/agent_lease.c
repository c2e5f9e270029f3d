/*  tests/unit/agent_lease.c: the lease counts the coordinator's silence,
    not the agent's own absence.

    The agent runs in a child process, so that it can be stopped as a
    whole (SIGSTOP: its loop, its socket's I/O thread, its streams) while
    the test goes on talking to it, the way a host frozen or starved of
    CPU is. Its log goes to a pipe this process holds, so that the loop
    alone can be held too: a full pipe blocks its next log line while the
    socket's own thread goes on taking messages in. The child is forked
    before this process makes any ZeroMQ socket, and builds its agent
    itself.
*/
#include "session.h"

#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <sys/wait.h>

#define S_LEASE_MS      1000        //  the shortest lease the agent grants
#define S_STOPPED_MS    2000        //  two leases without the agent running
#define S_PINGS         8           //  one every quarter of the lease meanwhile

//  The agent's process and what it works in.
typedef struct {
    pid_t pid;                      //  the child running the agent
    char endpoint [256];            //  where it listens
    char base [PATH_MAX];           //  scratch directory
    char root [PATH_MAX];           //  base/root, its --root
    int log_fd;                     //  its stderr, read here (non-blocking)
    int fill_fd;                    //  the same pipe's write end, to fill it
} s_child_t;

static s_child_t s_child;

//  In the child: build an agent that logs every ping, tell the parent its
//  endpoint on fd, and serve until SIGTERM. Never returns.
static void
s_child_serve (int fd, int log_fd)
{
    dup2 (log_fd, STDERR_FILENO);
    close (log_fd);
    const char *roots [] = { s_child.root };
    agent_config_t config = {
        .bind_endpoint = "tcp://127.0.0.1:*", .name = "t1", .roots = roots, .root_count = 1,
        .verbose = true
    };
    char err [512];
    agent_t *agent = agent_new (&config, err, sizeof (err));
    if (!agent) {
        fprintf (stderr, "agent_new: %s\n", err);
        _exit (1);
    }
    dprintf (fd, "%s\n", agent_endpoint (agent));
    close (fd);
    agent_run (agent);
    agent_destroy (&agent);
    _exit (0);
}

//  Fork the agent's process and learn its endpoint.
static int
s_group_setup (void **state)
{
    (void) state;
    const char *tmp = getenv ("TMPDIR");
    char template [PATH_MAX];
    snprintf (template, sizeof (template), "%s/iofleet-lease-XXXXXX", tmp? tmp: P_tmpdir);
    assert_non_null (mkdtemp (template));
    assert_non_null (realpath (template, s_child.base));
    snprintf (s_child.root, sizeof (s_child.root), "%s/root", s_child.base);
    assert_int_equal (mkdir (s_child.root, 0755), 0);

    int fds [2], logs [2];
    assert_int_equal (pipe (fds), 0);
    assert_int_equal (pipe (logs), 0);
    s_child.pid = fork ();
    assert_true (s_child.pid != -1);
    if (s_child.pid == 0) {
        close (fds [0]);
        close (logs [0]);
        s_child_serve (fds [1], logs [1]);
    }
    close (fds [1]);
    //  The pipe is filled through a description of its own: O_NONBLOCK
    //  on the one the child writes to would make its writes fail rather
    //  than wait.
    char path [64];
    snprintf (path, sizeof (path), "/proc/self/fd/%d", logs [1]);
    s_child.fill_fd = open (path, O_WRONLY | O_NONBLOCK);
    assert_true (s_child.fill_fd != -1);
    close (logs [1]);
    s_child.log_fd = logs [0];
    assert_int_equal (fcntl (s_child.log_fd, F_SETFL, O_NONBLOCK), 0);
    FILE *reader = fdopen (fds [0], "r");
    assert_non_null (reader);
    if (!fgets (s_child.endpoint, sizeof (s_child.endpoint), reader))
        fail_msg ("the agent did not start");
    fclose (reader);
    s_child.endpoint [strcspn (s_child.endpoint, "\n")] = '\0';
    return 0;
}

//  Empty the agent's log pipe, so that its loop can write again.
static void
s_drain_log (void)
{
    char buffer [4096];
    while (read (s_child.log_fd, buffer, sizeof (buffer)) > 0)
        ;
}

//  Fill the agent's log pipe: its loop blocks at its next log line.
static void
s_fill_log (void)
{
    char buffer [4096];
    memset (buffer, '.', sizeof (buffer));
    while (write (s_child.fill_fd, buffer, sizeof (buffer)) > 0)
        ;
    while (write (s_child.fill_fd, buffer, 1) > 0)
        ;
}

//  Stop the agent's process (woken first if stopped) and remove its files.
static int
s_group_teardown (void **state)
{
    (void) state;
    kill (s_child.pid, SIGCONT);
    kill (s_child.pid, SIGTERM);
    int status = 0;
    for (int tries = 0; waitpid (s_child.pid, &status, WNOHANG) == 0; tries++) {
        if (tries == 100)
            kill (s_child.pid, SIGKILL);
        s_drain_log ();
        zclock_sleep (50);
    }
    close (s_child.log_fd);
    close (s_child.fill_fd);
    scratch_remove (s_child.base);
    return 0;
}

//  A coordinator: a DEALER connected to the agent, with a receive timeout.
static int
s_setup_dealer (void **state)
{
    fixture_t *fx = calloc (1, sizeof (fixture_t));
    assert_non_null (fx);
    fx->dealer = zsock_new (ZMQ_DEALER);
    assert_non_null (fx->dealer);
    zsock_set_rcvtimeo (fx->dealer, RECV_TIMEOUT_MS);
    zsock_set_linger (fx->dealer, 0);
    assert_int_equal (zsock_connect (fx->dealer, "%s", s_child.endpoint), 0);
    *state = fx;
    return 0;
}

//  Close the coordinator's socket.
static int
s_teardown_dealer (void **state)
{
    fixture_t *fx = *state;
    s_drain_log ();
    zsock_destroy (&fx->dealer);
    free (fx);
    return 0;
}

//  Open a session with the shortest lease. Returns its id.
static uint64_t
s_open (fixture_t *fx)
{
    s_hello (fx->dealer, "watchful", S_LEASE_MS, false);
    msg_t *msg = s_expect (fx, fx->dealer, MSG_WELCOME);
    assert_true (msg->u.welcome.session_id != 0);
    return msg->u.welcome.session_id;
}

//  Send PING seq.
static void
s_ping (zsock_t *dealer, uint32_t seq)
{
    msg_t ping = { .type = MSG_PING };
    ping.u.ping.seq = seq;
    ping.u.ping.t1_ns = clock_now_ns ();
    s_send (dealer, &ping);
}

//  The session the agent holds with this coordinator, as a PONG names it
//  (0: none).
static uint64_t
s_held (fixture_t *fx, uint32_t seq)
{
    s_ping (fx->dealer, seq);
    msg_t *msg = s_expect (fx, fx->dealer, MSG_PONG);
    assert_int_equal (msg->u.pong.seq, seq);
    return msg->u.pong.session_id;
}

//  Pings first..last, spread over S_STOPPED_MS: well within the lease.
static void
s_ping_meanwhile (fixture_t *fx, uint32_t first, uint32_t last)
{
    for (uint32_t seq = first; seq <= last; seq++) {
        zclock_sleep (S_STOPPED_MS / S_PINGS);
        s_ping (fx->dealer, seq);
    }
}

//  The PONGs of pings first..last, each naming the session: the agent
//  kept it.
static void
s_expect_kept (fixture_t *fx, uint32_t first, uint32_t last, uint64_t session)
{
    for (uint32_t seq = first; seq <= last; seq++) {
        msg_t *msg = s_expect (fx, fx->dealer, MSG_PONG);
        assert_int_equal (msg->u.pong.seq, seq);
        if (msg->u.pong.session_id != session)
            fail_msg ("PONG %" PRIu32 " names session %" PRIu64 ", not %" PRIu64 ": the "
                      "agent ended the session though the pings were waiting", seq,
                      msg->u.pong.session_id, session);
    }
}

//  End the session.
static void
s_bye (fixture_t *fx)
{
    msg_t bye = { .type = MSG_BYE };
    s_send (fx->dealer, &bye);
    assert_true (s_held (fx, 999) == 0);
}

static void
test_pings_queued_while_stopped_keep_the_session (void **state)
{
    fixture_t *fx = *state;
    uint64_t session = s_open (fx);
    assert_true (s_held (fx, 100) == session);

    //  The coordinator goes on pinging, well within the lease, while the
    //  agent does not run: it was never silent, and its pings wait in
    //  the agent's socket. Woken up, the agent must read them before it
    //  judges the silence, and keep the session.
    assert_int_equal (kill (s_child.pid, SIGSTOP), 0);
    s_ping_meanwhile (fx, 1, S_PINGS);
    assert_int_equal (kill (s_child.pid, SIGCONT), 0);
    s_expect_kept (fx, 1, S_PINGS, session);
    assert_true (s_held (fx, 200) == session);
    s_bye (fx);
}

static void
test_pings_queued_behind_a_held_loop_keep_the_session (void **state)
{
    fixture_t *fx = *state;
    uint64_t session = s_open (fx);

    //  The loop answers PING 1 and blocks logging it, for two leases;
    //  the socket's thread meanwhile takes in the pings that follow. Let
    //  go, the loop must read them before it judges the silence.
    s_fill_log ();
    assert_true (s_held (fx, 1) == session);
    s_ping_meanwhile (fx, 2, S_PINGS + 1);
    s_drain_log ();
    s_expect_kept (fx, 2, S_PINGS + 1, session);
    s_bye (fx);
}

static void
test_silence_while_stopped_still_ends_the_session (void **state)
{
    fixture_t *fx = *state;
    uint64_t session = s_open (fx);
    assert_true (s_held (fx, 1) == session);

    //  The coordinator says nothing while the agent is stopped, nor after:
    //  once the agent has listened a lease through, the session is over.
    //  (Three leases: a loaded host may make the agent's own wakes late,
    //  and the lease does not count that time either.)
    assert_int_equal (kill (s_child.pid, SIGSTOP), 0);
    zclock_sleep (S_STOPPED_MS);
    assert_int_equal (kill (s_child.pid, SIGCONT), 0);
    zclock_sleep (S_LEASE_MS * 3);
    assert_true (s_held (fx, 2) == 0);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test_setup_teardown (test_pings_queued_while_stopped_keep_the_session,
                                         s_setup_dealer, s_teardown_dealer),
        cmocka_unit_test_setup_teardown (test_pings_queued_behind_a_held_loop_keep_the_session,
                                         s_setup_dealer, s_teardown_dealer),
        cmocka_unit_test_setup_teardown (test_silence_while_stopped_still_ends_the_session,
                                         s_setup_dealer, s_teardown_dealer),
    };
    return cmocka_run_group_tests (tests, s_group_setup, s_group_teardown);
}
