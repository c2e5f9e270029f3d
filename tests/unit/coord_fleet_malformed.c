/*  tests/unit/coord_fleet_malformed.c: a flood of frames that do not
    decode, from a peer that plays the agent (a ROUTER on loopback). They
    are counted against the agent and in all, and logged within bounds:
    the first few lines, then one a second with the frames since.
*/
#include "../../coordinator/fleet/fleet.h"
#include "../../proto/clock.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FLOOD 300

//  Well-formed messages: none are expected.
static int
s_on_message (session_t *session, const msg_t *msg, int64_t received_ns, void *arg)
{
    (void) session;
    (void) msg;
    (void) received_ns;
    (*(int *) arg)++;
    return 0;
}

//  Send count frames of garbage to the peer that identity names.
static void
s_flood (zsock_t *router, zframe_t *identity, int count)
{
    for (int nbr = 0; nbr < count; nbr++) {
        assert_int_equal (zframe_send (&identity, router, ZFRAME_MORE | ZFRAME_REUSE), 0);
        assert_int_equal (zstr_send (router, "\xc1 not msgpack"), 0);
    }
}

//  Poll the fleet until it counted total malformed frames (or 5 s).
static void
s_poll_until (fleet_t *fleet, uint64_t total, int *messages)
{
    int64_t deadline_ns = clock_now_ns () + 5 * NS_PER_SEC;
    while (fleet_malformed (fleet) < total && clock_now_ns () < deadline_ns)
        fleet_poll (fleet, clock_now_ns () + 100 * NS_PER_MSEC, s_on_message, messages);
}

//  The lines of a file that hold text, for the caller to free.
static char *
s_grep (const char *path, const char *text, int *count)
{
    FILE *file = fopen (path, "r");
    assert_non_null (file);
    char *found = NULL;
    size_t length = 0;
    FILE *memory = open_memstream (&found, &length);
    assert_non_null (memory);
    char line [1024];
    *count = 0;
    while (fgets (line, sizeof line, file))
        if (strstr (line, text)) {
            fputs (line, memory);
            (*count)++;
        }
    fclose (file);
    assert_int_equal (fclose (memory), 0);
    return found;
}

static void
test_flood_counted_and_logged_within_bounds (void **state)
{
    (void) state;
    zsock_t *router = zsock_new_router ("tcp://127.0.0.1:*");
    assert_non_null (router);
    char *endpoint = zsock_last_endpoint (router);
    fleet_t *fleet = fleet_new ();
    char err [256];
    session_t *session = fleet_add (fleet, "a1", endpoint, err, sizeof err);
    zstr_free (&endpoint);
    assert_non_null (session);
    //  Whatever the session says first tells the peer who it is.
    msg_t ping = { .type = MSG_PING };
    assert_int_equal (session_send (session, &ping), 0);
    zmsg_t *first = zmsg_recv (router);
    assert_non_null (first);
    zframe_t *identity = zmsg_pop (first);
    zmsg_destroy (&first);

    //  stderr into a file while the flood comes.
    const char *tmp = getenv ("TMPDIR");
    char log_path [256];
    snprintf (log_path, sizeof log_path, "%s/coord_fleet_malformed.XXXXXX",
              tmp && *tmp? tmp: "/tmp");
    int log_fd = mkstemp (log_path);
    assert_true (log_fd >= 0);
    fflush (stderr);
    int saved_stderr = dup (2);
    assert_int_equal (dup2 (log_fd, 2), 2);

    int messages = 0;
    int64_t started_ns = clock_now_ns ();
    s_flood (router, identity, FLOOD);
    s_poll_until (fleet, FLOOD, &messages);
    int64_t flood_ns = clock_now_ns () - started_ns;
    //  A second later, one more: its line counts every frame since the
    //  last line.
    zclock_sleep (1100);
    s_flood (router, identity, 1);
    s_poll_until (fleet, FLOOD + 1, &messages);

    fflush (stderr);
    assert_int_equal (dup2 (saved_stderr, 2), 2);
    close (saved_stderr);
    close (log_fd);

    assert_int_equal (messages, 0);
    assert_int_equal (fleet_malformed (fleet), FLOOD + 1);
    assert_int_equal (session_info (session)->malformed_frames, FLOOD + 1);
    int lines;
    char *logged = s_grep (log_path, "agent=a1 event=malformed ", &lines);
    //  The first five lines, at most one more a second of the flood, and
    //  the one after the pause.
    int most = 5 + (int) (flood_ns / NS_PER_SEC) + 1 + 1;
    if (lines < 6 || lines > most)
        fail_msg ("%d lines about malformed frames, expected 6 to %d:\n%s", lines, most, logged);
    assert_non_null (strstr (logged, "agent=a1 event=malformed frames=1 reason=\""));
    //  Every frame is in some line's count.
    uint64_t counted = 0;
    for (const char *at = logged; (at = strstr (at, "frames=")); at++)
        counted += strtoull (at + strlen ("frames="), NULL, 10);
    assert_int_equal (counted, FLOOD + 1);
    free (logged);
    unlink (log_path);
    zframe_destroy (&identity);
    fleet_destroy (&fleet);
    zsock_destroy (&router);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_flood_counted_and_logged_within_bounds),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
