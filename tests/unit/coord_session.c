/*  tests/unit/coord_session.c: what a session says about itself. Its
    reason and its handshake error are texts it holds only while there is
    something to say: "" before and after, the text as given (cut where a
    message would cut it) while it lasts, and a reason may be set from
    itself.
*/
#include "../../coordinator/fleet/fleet.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  The fleet of the cases, made once by the setup.
static fleet_t *s_fleet;

//  A session named name to an endpoint nobody listens on: it never
//  connects, which is all these cases need.
static session_t *
s_session (const char *name)
{
    char err [256];
    session_t *session = fleet_add (s_fleet, name, "tcp://127.0.0.1:9", err, sizeof err);
    if (!session)
        fail_msg ("%s", err);
    return session;
}

static void
test_reason (void **state)
{
    (void) state;
    session_t *session = s_session ("a1");
    assert_string_equal (session_name (session), "a1");
    assert_string_equal (session_endpoint (session), "tcp://127.0.0.1:9");
    assert_string_equal (session_reason (session), "");
    session_set_state (session, SESSION_FAILED, "refused: busy with another coordinator");
    assert_int_equal (session_state (session), SESSION_FAILED);
    assert_string_equal (session_reason (session), "refused: busy with another coordinator");
    //  Its own reason again: the old text is not freed before it is read.
    session_set_state (session, SESSION_LOST, session_reason (session));
    assert_string_equal (session_reason (session), "refused: busy with another coordinator");
    //  A reason longer than a message carries is cut there.
    char longer [MSG_TEXT_MAX + 100];
    memset (longer, 'r', sizeof longer - 1);
    longer [sizeof longer - 1] = '\0';
    session_set_state (session, SESSION_FAILED, longer);
    assert_int_equal (strlen (session_reason (session)), MSG_TEXT_MAX);
    session_set_state (session, SESSION_READY, NULL);
    assert_string_equal (session_reason (session), "");
    session_set_state (session, SESSION_FAILED, "gone");
    session_set_state (session, SESSION_READY, "");
    assert_string_equal (session_reason (session), "");
}

static void
test_handshake_error (void **state)
{
    (void) state;
    session_t *session = s_session ("a2");
    bool definitive = true;
    assert_string_equal (session_handshake_error (session, &definitive), "");
    assert_false (definitive);
    //  Without keys, a refusal by the agent's ZAP handler: it wants keys.
    session_connection_event (session, ZMQ_EVENT_HANDSHAKE_FAILED_AUTH, 0);
    const char *error = session_handshake_error (session, &definitive);
    assert_true (definitive);
    if (strncmp (error, "agent a2 (tcp://127.0.0.1:9): security mismatch", 47) != 0)
        fail_msg ("got '%s'", error);
    //  The disconnection after it says less and leaves it be.
    session_connection_event (session, ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL, 0);
    assert_non_null (strstr (session_handshake_error (session, NULL), "security mismatch"));
    //  A handshake that succeeds since takes it back.
    session_connection_event (session, ZMQ_EVENT_HANDSHAKE_SUCCEEDED, 0);
    assert_string_equal (session_handshake_error (session, &definitive), "");
    assert_false (definitive);
}

static int
s_setup (void **state)
{
    (void) state;
    s_fleet = fleet_new ();
    return s_fleet? 0: -1;
}

static int
s_teardown (void **state)
{
    (void) state;
    fleet_destroy (&s_fleet);
    return 0;
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_reason),
        cmocka_unit_test (test_handshake_error),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
