/*  tests/unit/coord_fleet_keepalive.c: keepalives leave on time whatever
    arrives. A peer that plays the agent (a ROUTER on loopback) floods the
    fleet with samples that its handler is slow to take (a results
    directory on a slow disk, a host short of CPU); the PINGs the peer
    receives meanwhile must still be a third of the lease apart, not a
    wake's worth of samples. And the lease grows when keepalives take long
    to come back (a peer that answers each one late), and only then.
*/
#include "../../coordinator/fleet/fleet.h"
#include "../../proto/clock.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_LEASE_NS      NS_PER_SEC                  //  keepalives every 333 ms
#define S_SAMPLES       1000                        //  the flood
#define S_HANDLE_MS     3                           //  what each sample costs the handler
#define S_SLACK_NS      (100 * NS_PER_MSEC)         //  lateness allowed a keepalive

//  A slow consumer of samples: counts them.
static int
s_on_message (session_t *session, const msg_t *msg, int64_t received_ns, void *arg)
{
    (void) session;
    (void) received_ns;
    if (msg->type == MSG_SAMPLE)
        (*(int *) arg)++;
    zclock_sleep (S_HANDLE_MS);
    return 0;
}

//  Send msg to the peer that identity names.
static void
s_send (zsock_t *router, zframe_t *identity, const msg_t *msg)
{
    char *data;
    size_t size;
    assert_int_equal (msg_encode (msg, &data, &size), 0);
    assert_int_equal (zframe_send (&identity, router, ZFRAME_MORE | ZFRAME_REUSE), 0);
    zframe_t *frame = zframe_new (data, size);
    assert_int_equal (zframe_send (&frame, router, 0), 0);
    free (data);
}

//  A peer on loopback that the fleet takes for a welcomed agent.
typedef struct {
    zsock_t *router;
    zframe_t *identity;
    fleet_t *fleet;
    session_t *session;
} s_peer_t;

static void
s_peer_open (s_peer_t *peer, int64_t lease_ns)
{
    peer->router = zsock_new_router ("tcp://127.0.0.1:*");
    assert_non_null (peer->router);
    zsock_set_sndhwm (peer->router, 0);
    char *endpoint = zsock_last_endpoint (peer->router);
    peer->fleet = fleet_new ();
    fleet_set_lease (peer->fleet, "console", lease_ns, NS_PER_SEC);
    char err [256];
    peer->session = fleet_add (peer->fleet, "a1", endpoint, err, sizeof err);
    zstr_free (&endpoint);
    assert_non_null (peer->session);
    msg_t ping = { .type = MSG_PING };
    assert_int_equal (session_send (peer->session, &ping), 0);
    zsock_set_rcvtimeo (peer->router, 5000);
    zmsg_t *first = zmsg_recv (peer->router);
    assert_non_null (first);
    zsock_set_rcvtimeo (peer->router, 0);
    peer->identity = zmsg_pop (first);
    zmsg_destroy (&first);
    session_set_state (peer->session, SESSION_READY, "taken as welcomed");
    session_heard (peer->session, clock_now_ns ());
}

static void
s_peer_close (s_peer_t *peer)
{
    zframe_destroy (&peer->identity);
    fleet_destroy (&peer->fleet);
    zsock_destroy (&peer->router);
}

//  For run_ns, the fleet polls and the peer answers every keepalive
//  late_ns after it came, as an agent far away (or one of thousands on
//  a console short of CPU) would: it reads it half that late and its
//  answer takes the other half. After each round the console is busy
//  elsewhere for busy_ns (writing a test's results). Returns the lease
//  the last keepalive asked for, in ms.
static uint32_t
s_peer_answer_late (s_peer_t *peer, int64_t late_ns, int64_t busy_ns, int64_t run_ns)
{
    enum { S_HELD = 64 };
    msg_t held [S_HELD];
    int64_t due_ns [S_HELD];
    size_t count = 0;
    uint32_t lease_ms = 0;
    int64_t end_ns = clock_now_ns () + run_ns;
    while (clock_now_ns () < end_ns) {
        fleet_poll (peer->fleet, clock_now_ns () + 10 * NS_PER_MSEC, NULL, NULL);
        zmsg_t *received;
        while ((received = zmsg_recv (peer->router))) {
            zframe_t *payload = zmsg_last (received);
            msg_t msg;
            char err [256];
            assert_int_equal (msg_decode (zframe_data (payload), zframe_size (payload), &msg,
                                          err, sizeof err), MSG_OK);
            zmsg_destroy (&received);
            if (msg.type != MSG_PING || msg.u.ping.seq != 0)
                continue;
            lease_ms = msg.u.ping.lease_ms;
            assert_true (count < S_HELD);
            held [count] = (msg_t) { .type = MSG_PONG };
            held [count].u.pong.t1_ns = msg.u.ping.t1_ns;
            held [count].u.pong.t2_ns = held [count].u.pong.t3_ns = clock_now_ns () + late_ns / 2;
            due_ns [count++] = clock_now_ns () + late_ns;
            if (busy_ns)
                zclock_sleep ((int) (busy_ns / NS_PER_MSEC));
        }
        while (count > 0 && clock_now_ns () >= due_ns [0]) {
            s_send (peer->router, peer->identity, &held [0]);
            memmove (held, held + 1, --count * sizeof held [0]);
            memmove (due_ns, due_ns + 1, count * sizeof due_ns [0]);
        }
    }
    return lease_ms;
}

static void
test_lease_grows_with_a_late_fleet (void **state)
{
    (void) state;
    //  Answered at once: the lease stays what it was.
    s_peer_t peer;
    s_peer_open (&peer, 2 * NS_PER_SEC);
    assert_int_equal (s_peer_answer_late (&peer, 0, 0, 3 * NS_PER_SEC), 2000);
    assert_int_equal (session_state (peer.session), SESSION_READY);
    s_peer_close (&peer);
    //  Answered at once while the console is away for long (stopped):
    //  the time it did not listen is not the fleet's reach.
    s_peer_open (&peer, 2 * NS_PER_SEC);
    assert_int_equal (s_peer_answer_late (&peer, 0, 1500 * NS_PER_MSEC, 4 * NS_PER_SEC), 2000);
    assert_int_equal (session_state (peer.session), SESSION_READY);
    s_peer_close (&peer);
    //  Answered 400 ms late: ten times that, rounded up to the second;
    //  and the same with a console busy elsewhere after every round.
    for (int busy = 0; busy <= 1; busy++) {
        s_peer_open (&peer, 2 * NS_PER_SEC);
        uint32_t lease_ms = s_peer_answer_late (&peer, 400 * NS_PER_MSEC,
                                                busy * 100 * NS_PER_MSEC, 4 * NS_PER_SEC);
        if (lease_ms < 4000 || lease_ms > 6000)
            fail_msg ("keepalives answered 400 ms late%s: the lease asked is %u ms, not 4-6 s",
                      busy? " to a busy console": "", lease_ms);
        assert_int_equal (session_state (peer.session), SESSION_READY);
        s_peer_close (&peer);
    }
}

static void
test_keepalives_leave_on_time_during_a_flood (void **state)
{
    (void) state;
    zsock_t *router = zsock_new_router ("tcp://127.0.0.1:*");
    assert_non_null (router);
    zsock_set_sndhwm (router, 0);
    zsock_set_rcvtimeo (router, 0);
    char *endpoint = zsock_last_endpoint (router);
    fleet_t *fleet = fleet_new ();
    fleet_set_lease (fleet, "console", S_LEASE_NS, NS_PER_SEC);
    char err [256];
    session_t *session = fleet_add (fleet, "a1", endpoint, err, sizeof err);
    zstr_free (&endpoint);
    assert_non_null (session);
    //  Whatever the session says first tells the peer who it is; then the
    //  session is taken as welcomed, just now, without a session id to
    //  check.
    msg_t ping = { .type = MSG_PING };
    assert_int_equal (session_send (session, &ping), 0);
    zsock_set_rcvtimeo (router, 5000);
    zmsg_t *first = zmsg_recv (router);
    assert_non_null (first);
    zsock_set_rcvtimeo (router, 0);
    zframe_t *identity = zmsg_pop (first);
    zmsg_destroy (&first);
    session_set_state (session, SESSION_READY, "taken as welcomed");
    session_heard (session, clock_now_ns ());

    msg_t sample = { .type = MSG_SAMPLE };
    for (int nbr = 0; nbr < S_SAMPLES; nbr++)
        s_send (router, identity, &sample);
    int samples = 0;
    while (samples < S_SAMPLES)
        fleet_poll (fleet, clock_now_ns () + 100 * NS_PER_MSEC, s_on_message, &samples);

    //  The keepalives sent meanwhile, by their send instants: the fleet
    //  sends no more, so a pause ends the last of them on its way.
    zsock_set_rcvtimeo (router, 500);
    int64_t last_ns = 0, widest_ns = 0;
    int keepalives = 0;
    zmsg_t *received;
    while ((received = zmsg_recv (router))) {
        zframe_t *payload = zmsg_last (received);
        msg_t msg;
        assert_int_equal (msg_decode (zframe_data (payload), zframe_size (payload), &msg,
                                      err, sizeof err), MSG_OK);
        zmsg_destroy (&received);
        if (msg.type != MSG_PING)
            continue;
        if (last_ns && msg.u.ping.t1_ns - last_ns > widest_ns)
            widest_ns = msg.u.ping.t1_ns - last_ns;
        last_ns = msg.u.ping.t1_ns;
        keepalives++;
    }
    if (widest_ns > S_LEASE_NS / 3 + S_SLACK_NS)
        fail_msg ("keepalives %.0f ms apart while samples were read (due every %.0f ms)",
                  (double) widest_ns / NS_PER_MSEC, (double) S_LEASE_NS / 3 / NS_PER_MSEC);
    //  The flood took S_SAMPLES x S_HANDLE_MS = 3 s: about nine keepalives.
    if (keepalives < 6)
        fail_msg ("%d keepalives while samples were read for 3 s", keepalives);
    zframe_destroy (&identity);
    fleet_destroy (&fleet);
    zsock_destroy (&router);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_keepalives_leave_on_time_during_a_flood),
        cmocka_unit_test (test_lease_grows_with_a_late_fleet),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
