/*  tests/unit/coord_fleet_busy.c: an agent that serves another console
    is reported at once, not waited for in silence. A peer that plays the
    agent (a ROUTER on loopback, on a thread of its own) answers every
    HELLO with ERROR busy, naming a coordinator whose name is a terminal
    escape and a fake log line (any process may put anything in its
    hello): the console says once, as soon as the first refusal comes,
    that the agent is busy, for whom, and that it asks again until
    connect_timeout, with the name escaped; the session then fails with
    the refusal as its reason.
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
#include <unistd.h>

#define S_TIMEOUT_NS    (1500 * NS_PER_MSEC)    //  connect_timeout: several retries
#define S_BUSY_TEXT     "agent a1 serves coordinator evil\x1b[2J\nagent=s1 event=fake (since 3 s)"

//  The busy agent: every HELLO is refused, until $TERM.
static void
s_busy_agent (zsock_t *pipe, void *arg)
{
    zsock_t *router = (zsock_t *) arg;
    zsock_signal (pipe, 0);
    zpoller_t *poller = zpoller_new (pipe, router, NULL);
    while (true) {
        void *which = zpoller_wait (poller, -1);
        if (which != router)
            break;                  //  $TERM, or interrupted
        zmsg_t *in = zmsg_recv (router);
        zframe_t *identity = zmsg_pop (in);
        zframe_t *payload = zmsg_pop (in);
        msg_t msg;
        char err [256];
        if (payload && msg_decode (zframe_data (payload), zframe_size (payload), &msg,
                                   err, sizeof err) == MSG_OK && msg.type == MSG_HELLO) {
            msg_t busy = { .type = MSG_ERROR };
            msg_strcpy (busy.u.error.code, "busy", sizeof busy.u.error.code);
            msg_strcpy (busy.u.error.text, S_BUSY_TEXT, sizeof busy.u.error.text);
            busy.u.error.job_id = -1;
            char *data;
            size_t size;
            if (msg_encode (&busy, &data, &size) == 0) {
                zframe_send (&identity, router, ZFRAME_MORE | ZFRAME_REUSE);
                zframe_t *frame = zframe_new (data, size);
                zframe_send (&frame, router, 0);
                free (data);
            }
        }
        zframe_destroy (&identity);
        zframe_destroy (&payload);
        zmsg_destroy (&in);
    }
    zpoller_destroy (&poller);
}

//  How many times needle occurs in haystack.
static int
s_count (const char *haystack, const char *needle)
{
    int count = 0;
    for (const char *at = strstr (haystack, needle); at; at = strstr (at + 1, needle))
        count++;
    return count;
}

static void
test_a_busy_agent_is_reported_at_once_and_escaped (void **state)
{
    (void) state;
    zsock_t *router = zsock_new_router ("tcp://127.0.0.1:*");
    assert_non_null (router);
    char *endpoint = zsock_last_endpoint (router);
    zactor_t *agent = zactor_new (s_busy_agent, router);
    assert_non_null (agent);
    fleet_t *fleet = fleet_new ();
    fleet_set_lease (fleet, "console", NS_PER_SEC, S_TIMEOUT_NS);
    char err [256];
    session_t *session = fleet_add (fleet, "a1", endpoint, err, sizeof err);
    zstr_free (&endpoint);
    assert_non_null (session);

    //  What the fleet says goes to a file for the time of the hello.
    char path [] = "/tmp/iofleet-busy.XXXXXX";
    int fd = mkstemp (path);
    assert_true (fd >= 0);
    fflush (stderr);
    int saved = dup (2);
    dup2 (fd, 2);
    int64_t began_ns = clock_now_ns ();
    size_t ready = fleet_hello (fleet, NULL, 0, false, S_TIMEOUT_NS, NULL, NULL);
    int64_t took_ns = clock_now_ns () - began_ns;
    fflush (stderr);
    dup2 (saved, 2);
    close (saved);
    char said [4096] = "";
    ssize_t got = pread (fd, said, sizeof said - 1, 0);
    close (fd);
    unlink (path);
    said [got > 0? got: 0] = '\0';
    fprintf (stderr, "%s", said);

    assert_int_equal (ready, 0);
    assert_int_equal (session_state (session), SESSION_FAILED);
    assert_non_null (strstr (session_reason (session), "busy"));
    //  The whole connect_timeout was waited, the agent being asked again.
    assert_true (took_ns >= S_TIMEOUT_NS);
    //  Said once, at once (the line gives nearly all the timeout as still
    //  to wait), escaped, naming whom the agent serves.
    assert_int_equal (s_count (said, "event=busy"), 1);
    assert_non_null (strstr (said, "agent=a1 event=busy"));
    assert_non_null (strstr (said, "serves coordinator evil\\x1B[2J\\x0Aagent=s1 event=fake"));
    assert_non_null (strstr (said, "asking again until connect_timeout, 1."));
    assert_null (strchr (said, '\x1b'));
    assert_int_equal (s_count (said, "\n"), 1);

    fleet_destroy (&fleet);
    zactor_destroy (&agent);
    zsock_destroy (&router);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_a_busy_agent_is_reported_at_once_and_escaped),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
