/*  tests/unit/coord_fleet_keepalive.c: keepalives leave on time whatever
    arrives. A peer that plays the agent (a ROUTER on loopback) floods the
    fleet with samples that its handler is slow to take (a results
    directory on a slow disk, a host short of CPU); the PINGs the peer
    receives meanwhile must still be a third of the lease apart, not a
    wake's worth of samples.
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
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
