/*  tests/unit/coord_fleet_reuse.c: fleets made one after another in one
    process (a run after a run) each get their socket and its monitor,
    though the allocator hands the next fleet the memory of the last.
*/
#include "../../coordinator/fleet/fleet.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#define S_FLEETS 20

static void
test_fleet_after_fleet (void **state)
{
    (void) state;
    zsock_t *router = zsock_new_router ("tcp://127.0.0.1:*");
    assert_non_null (router);
    char *endpoint = zsock_last_endpoint (router);
    for (int i = 0; i < S_FLEETS; i++) {
        fleet_t *fleet = fleet_new ();
        assert_non_null (fleet);
        char err [256] = "";
        session_t *session = fleet_add (fleet, "a1", endpoint, err, sizeof err);
        if (!session)
            fail_msg ("fleet %d of %d: %s", i + 1, S_FLEETS, err);
        //  A message each way through the fleet's socket, as a run has.
        msg_t ping = { .type = MSG_PING };
        assert_int_equal (session_send (session, &ping), 0);
        zmsg_t *got = zmsg_recv (router);
        assert_non_null (got);
        zmsg_destroy (&got);
        fleet_destroy (&fleet);
        assert_null (fleet);
    }
    zstr_free (&endpoint);
    zsock_destroy (&router);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_fleet_after_fleet),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
