/*  tests/unit/coord_fleet_monitor.c: the socket monitor never holds up
    libzmq's I/O thread. A fleet of 1200 sessions connects to one peer (a
    DEALER on loopback, which takes every connection whatever its routing
    id) and each sends one PING, while nobody polls the fleet: the
    monitor's events (a connection and a handshake each, 2400, past the
    pipe's high-water mark of 2000) pile up unread. Every PING must still
    reach the peer, and destroying the fleet must return at once; a
    monitor that blocks the I/O thread stalls every message and leaves
    the destruction waiting for ever.
*/
#include "../../coordinator/fleet/fleet.h"
#include "../../proto/clock.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#define S_SESSIONS      1200
#define S_DEADLINE_NS   (20 * NS_PER_SEC)

//  The fleet to destroy, and whether that has returned.
static fleet_t *s_fleet;
static volatile int s_destroyed;

//  Destroy the fleet on a thread of its own, which may hang.
static void *
s_destroy (void *arg)
{
    (void) arg;
    fleet_destroy (&s_fleet);
    s_destroyed = 1;
    return NULL;
}

static void
test_unread_monitor_events_hold_nothing_up (void **state)
{
    (void) state;
    //  Both ends of every connection live in this process.
    struct rlimit limit;
    assert_int_equal (getrlimit (RLIMIT_NOFILE, &limit), 0);
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < 4 * S_SESSIONS)
        skip ();
    limit.rlim_cur = 4 * S_SESSIONS;
    assert_int_equal (setrlimit (RLIMIT_NOFILE, &limit), 0);
    zsys_set_max_sockets (0);

    zsock_t *peer = zsock_new (ZMQ_DEALER);
    assert_non_null (peer);
    //  Room for every connection at once: past libzmq's backlog of 100 a
    //  connection can fail and be made again, and a ping queued in the
    //  first is lost with it, which is not what this test is about.
    zsock_set_backlog (peer, 2 * S_SESSIONS);
    assert_true (zsock_bind (peer, "tcp://127.0.0.1:*") > 0);
    char *endpoint = zsock_last_endpoint (peer);
    s_fleet = fleet_new ();
    assert_non_null (s_fleet);
    msg_t ping = { .type = MSG_PING };
    for (int i = 0; i < S_SESSIONS; i++) {
        char name [32], err [256];
        snprintf (name, sizeof name, "a%d", i);
        session_t *session = fleet_add (s_fleet, name, endpoint, err, sizeof err);
        if (!session)
            fail_msg ("fleet_add: %s", err);
        assert_int_equal (session_send (session, &ping), 0);
    }
    zstr_free (&endpoint);

    int64_t deadline_ns = clock_now_ns () + S_DEADLINE_NS;
    int received = 0;
    zsock_set_rcvtimeo (peer, 100);
    while (received < S_SESSIONS && clock_now_ns () < deadline_ns) {
        zframe_t *frame = zframe_recv (peer);
        if (frame)
            received++;
        zframe_destroy (&frame);
    }
    if (received < S_SESSIONS)
        fail_msg ("%d of %d pings arrived: the I/O thread stalled", received, S_SESSIONS);

    pthread_t thread;
    assert_int_equal (pthread_create (&thread, NULL, s_destroy, NULL), 0);
    deadline_ns = clock_now_ns () + 5 * NS_PER_SEC;
    while (!s_destroyed && clock_now_ns () < deadline_ns)
        zclock_sleep (10);
    if (!s_destroyed) {
        fprintf (stderr, "fleet_destroy has not returned after 5 s\n");
        _exit (1);              //  it never will: no clean way out
    }
    pthread_join (thread, NULL);
    zsock_destroy (&peer);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_unread_monitor_events_hold_nothing_up),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
