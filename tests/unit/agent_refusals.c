/*  tests/unit/agent_refusals.c: what the agent refuses from a careless
    or hostile coordinator, and how it says so: start instants no clock
    can mean, floods of frames that are not messages, paths too long for
    a message, tests that ask for more memory than the agent grants,
    jobs of one test that would write the same file. The in-process
    agent and its helpers are in session.h.
*/
#include "session.h"

#include "../../agent/job.h"
#include "../../agent/log.h"

#include <errno.h>
#include <fcntl.h>

static void
test_start_instants_out_of_range (void **state)
{
    fixture_t *fx = *state;
    s_open_session (fx, fx->dealer, "clockless");
    jobspec_t spec = s_null_spec (1, MIB);
    s_prepare (fx->dealer, 1, 0, &spec);
    s_expect (fx, fx->dealer, MSG_READY);

    //  Instants at the ends of the range (where a subtraction from the
    //  clock overflows) and just beyond the hour the agent accepts.
    int64_t now_ns = clock_now_ns ();
    const int64_t wild [] = {
        INT64_MIN, INT64_MIN + 1, INT64_MAX, INT64_MAX - 1,
        now_ns + 3601 * NS_PER_SEC, now_ns - 3601 * NS_PER_SEC
    };
    for (size_t index = 0; index < sizeof (wild) / sizeof (wild [0]); index++) {
        s_start (fx->dealer, 1, wild [index]);
        msg_t *msg = s_expect (fx, fx->dealer, MSG_ERROR);
        assert_string_equal (msg->u.error.code, "start");
        assert_int_equal (msg->u.error.test_id, 1);
        if (!strstr (msg->u.error.text, "start instant"))
            fail_msg ("error text '%s' does not name the start instant", msg->u.error.text);
    }
    //  The agent still serves, and the test it holds still runs.
    s_sync (fx, fx->dealer);
    msg_result_t result;
    s_run_test (fx, 1, MIB, &result, 1);
}

//  A spec that did not come through the decoder is checked all the same:
//  the agent's arithmetic on intervals, settle periods and rates needs
//  the table's bounds.
static void
test_job_checks_numbers_itself (void **state)
{
    fixture_t *fx = *state;
    confine_t *confine = confine_new ();
    assert_non_null (confine);
    char err [512];
    assert_int_equal (confine_add_root (confine, fx->root, err, sizeof (err)), 0);
    ledger_t *ledger = ledger_new (MIB);
    assert_non_null (ledger);
    jobspec_t spec = s_null_spec (1, MIB);
    spec.interval_ns = -1;
    assert_null (job_new (1, 0, &spec, confine, ledger, -1, err, sizeof (err)));
    assert_string_equal (err, "interval: -1ns is outside 10000000 .. 3600000000000");
    spec = s_null_spec (1, MIB);
    spec.settle_ns = INT64_MAX;
    assert_null (job_new (1, 0, &spec, confine, ledger, -1, err, sizeof (err)));
    assert_non_null (strstr (err, "settle: 9223372036854775807ns is outside"));
    spec = s_null_spec (1, MIB);
    spec.rate_bytes = UINT64_MAX;
    assert_null (job_new (1, 0, &spec, confine, ledger, -1, err, sizeof (err)));
    assert_non_null (strstr (err, "rate: 18446744073709551615 is outside"));
    ledger_destroy (&ledger);
    confine_destroy (&confine);
}

//  Send count frames that are not messages and take every answer.
static void
s_flood (fixture_t *fx, int count)
{
    for (int index = 0; index < count; index++)
        s_send_raw (fx->dealer, "\xc1garbage", 8);
    for (int index = 0; index < count; index++)
        assert_string_equal (s_expect (fx, fx->dealer, MSG_ERROR)->u.error.code, "malformed");
}

//  A flood of garbage: every frame is answered and counted, the log gets
//  the first few lines and then one a second that says how many it left
//  out, so that the lines still add up to every frame.
static void
test_malformed_flood_is_logged_sparingly (void **state)
{
    fixture_t *fx = *state;
    char log_path [PATH_MAX];
    snprintf (log_path, sizeof (log_path), "%s/agent.log", fx->base);
    fflush (stderr);
    int saved_fd = dup (STDERR_FILENO);
    int log_fd = open (log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    assert_true (saved_fd >= 0 && log_fd >= 0);
    assert_int_equal (dup2 (log_fd, STDERR_FILENO), STDERR_FILENO);

    int64_t flood_start_ns = clock_now_ns ();
    s_flood (fx, 300);
    int64_t flood_ns = clock_now_ns () - flood_start_ns;
    zclock_sleep (1100);
    s_flood (fx, 1);                 //  a second later: logged, with the count left out
    s_sync (fx, fx->dealer);         //  its line is written before the PONG goes out

    fflush (stderr);
    assert_int_equal (dup2 (saved_fd, STDERR_FILENO), STDERR_FILENO);
    close (saved_fd);
    close (log_fd);

    FILE *log = fopen (log_path, "r");
    assert_non_null (log);
    char line [4096];
    int lines = 0;
    unsigned long long covered = 0, count = 0, unlogged = 0;
    while (fgets (line, sizeof (line), log)) {
        if (!strstr (line, "event=malformed"))
            continue;
        const char *at = strstr (line, " count=");
        assert_non_null (at);
        unlogged = 0;
        assert_true (sscanf (at, " count=%llu unlogged=%llu", &count, &unlogged) >= 1);
        covered += 1 + unlogged;
        lines++;
    }
    fclose (log);
    //  The first five, at most one more per second of flood, the last.
    int most = AGENT_LOGRATE_BURST + 1 + (int) (flood_ns / NS_PER_SEC) + 1;
    if (lines > most)
        fail_msg ("%d lines for 301 malformed frames; at most %d expected", lines, most);
    assert_int_equal (count, 301);
    assert_true (unlogged > 0);
    assert_int_equal (covered, 301);
}

//  PREPARE a write of path and return the error text it gets.
static const char *
s_prepare_error (fixture_t *fx, const char *path)
{
    jobspec_t spec = s_write_spec (path, 1, MIB, false);
    s_prepare (fx->dealer, 1, 0, &spec);
    msg_t *msg = s_expect (fx, fx->dealer, MSG_ERROR);
    assert_string_equal (msg->u.error.code, "prepare");
    assert_true (strlen (msg->u.error.text) <= MSG_TEXT_MAX);
    return msg->u.error.text;
}

//  True if text ends with tail.
static bool
s_ends_with (const char *text, const char *tail)
{
    size_t length = strlen (text), tail_length = strlen (tail);
    return length >= tail_length && strcmp (text + length - tail_length, tail) == 0;
}

//  Errors read "what(path): reason": a path of 1000 characters is
//  shortened in the middle, and the reason is there whole.
static void
test_long_paths_leave_room_for_the_reason (void **state)
{
    fixture_t *fx = *state;
    s_open_session (fx, fx->dealer, "long");

    //  Refused by the confinement: outside the roots.
    char path [1001];
    memset (path, 'o', sizeof (path) - 1);
    path [0] = '/';
    path [sizeof (path) - 1] = '\0';
    const char *text = s_prepare_error (fx, path);
    char expected [PATH_MAX + 64];
    snprintf (expected, sizeof (expected), "is outside the agent's roots (%s)", fx->root);
    if (!s_ends_with (text, expected) || !strstr (text, "..."))
        fail_msg ("'%s' does not end with the reason, or was not shortened", text);

    //  Refused by the workload: five directories of 190 characters under
    //  the root, the last one where the file should be.
    size_t used = (size_t) snprintf (path, sizeof (path), "%s", fx->root);
    for (int level = 0; level < 5; level++) {
        path [used++] = '/';
        memset (path + used, 'a' + level, 190);
        used += 190;
        path [used] = '\0';
        assert_int_equal (mkdir (path, 0755), 0);
    }
    text = s_prepare_error (fx, path);
    if (!s_ends_with (text, "eeeeeeeeee): Is a directory") || !strstr (text, "..."))
        fail_msg ("'%s' does not end with the reason, or was not shortened", text);
}

//  An agent whose tests may hold 8 MiB of buffers.
static int
s_setup_small (void **state)
{
    return s_setup_agent (state, 9 * MIB);
}

//  PREPARE job job_id of test 1 with spec renamed name; expect READY.
static void
s_prepare_ready (fixture_t *fx, uint32_t job_id, const char *name, jobspec_t spec)
{
    msg_strcpy (spec.name, name, sizeof (spec.name));
    s_prepare (fx->dealer, 1, job_id, &spec);
    s_expect (fx, fx->dealer, MSG_READY);
}

//  PREPARE job job_id of test 1 with spec renamed name; expect an error
//  of prepare whose text is expected.
static void
s_prepare_refused (fixture_t *fx, uint32_t job_id, const char *name, jobspec_t spec,
                   const char *expected)
{
    msg_strcpy (spec.name, name, sizeof (spec.name));
    s_prepare (fx->dealer, 1, job_id, &spec);
    msg_t *msg = s_expect (fx, fx->dealer, MSG_ERROR);
    assert_string_equal (msg->u.error.code, "prepare");
    assert_int_equal (msg->u.error.job_id, (int32_t) job_id);
    assert_string_equal (msg->u.error.text, expected);
}

//  A write spec with bs = 1 MiB.
static jobspec_t
s_mib_blocks (const char *path, uint64_t streams)
{
    jobspec_t spec = s_write_spec (path, streams, MIB, false);
    spec.bs_bytes = MIB;
    return spec;
}

//  A copy of src to dst, the whole source.
static jobspec_t
s_copy_spec (const char *src, const char *dst)
{
    jobspec_t spec = s_write_spec ("", 1, 0, false);
    spec.workload = WORKLOAD_COPY;
    msg_strcpy (spec.src, src, sizeof (spec.src));
    msg_strcpy (spec.dst, dst, sizeof (spec.dst));
    return spec;
}

//  The buffers of one test (streams x bs over its jobs) are bounded:
//  the job that would go beyond is refused, naming itself, what it asks
//  and the bound, and creates nothing; the others stay, and a job that
//  fits is still taken.
static void
test_memory_of_a_test_is_bounded (void **state)
{
    fixture_t *fx = *state;
    s_open_session (fx, fx->dealer, "hungry");
    //  A copy from an NFS server counts its bs twice (libnfs's buffers).
    jobspec_t spec = s_copy_spec ("nfs://192.0.2.1/export/f", "dst");
    spec.streams = 5;
    spec.bs_bytes = MIB;
    //  Every stream holds its figures too: its state and latency histograms.
    s_prepare_refused (fx, 0, "netcopy", spec, "job netcopy: its streams need 10560K (5 streams "
                       "of 2M of buffers and 64K of figures), over this agent's bound of 9M "
                       "per test (--max-memory)");
    //  At a depth, twice for every READ in flight, and the queue's slots.
    spec.streams = 2;
    spec.iodepth = 4;
    s_prepare_refused (fx, 0, "netcopy4", spec, "job netcopy4: its streams need 16908992 (2 "
                       "streams of 8388960 of buffers and 64K of figures), over this agent's "
                       "bound of 9M per test (--max-memory)");

    s_prepare_ready (fx, 0, "first", s_mib_blocks ("m", 4));
    s_prepare_ready (fx, 1, "second", s_mib_blocks ("n", 3));
    s_prepare_refused (fx, 2, "big", s_mib_blocks ("o", 2),
                       "job big: its streams need 2176K (2 streams of 1M of buffers and 64K "
                       "of figures), and the test holds 7616K already, over this agent's bound "
                       "of 9M per test (--max-memory)");
    char path [PATH_MAX];
    snprintf (path, sizeof (path), "%s/o.1", fx->root);
    assert_int_equal (s_file_size (path), -1);
    s_prepare_ready (fx, 3, "fits", s_mib_blocks ("p", 1));
    //  A PREPARE repeated gives back what the job held before it asks again.
    s_prepare_ready (fx, 0, "first", s_mib_blocks ("m", 4));
}

//  Without --max-memory the bound is a quarter of the host's memory.
static void
test_memory_bound_defaults_to_a_quarter (void **state)
{
    fixture_t *fx = *state;
    FILE *meminfo = fopen ("/proc/meminfo", "r");
    assert_non_null (meminfo);
    unsigned long long total_kib = 0;
    assert_int_equal (fscanf (meminfo, "MemTotal: %llu kB", &total_kib), 1);
    fclose (meminfo);
    //  The largest job there is: 256 streams of 64M and their figures.
    if (total_kib * 1024 / 4 >= 16400ULL << 20)
        skip ();
    s_open_session (fx, fx->dealer, "greedy");
    jobspec_t spec = s_write_spec ("huge", 256, MIB, false);
    spec.bs_bytes = 64 * MIB;
    msg_strcpy (spec.name, "huge", sizeof (spec.name));
    s_prepare (fx->dealer, 1, 0, &spec);
    msg_t *msg = s_expect (fx, fx->dealer, MSG_ERROR);
    if (!strstr (msg->u.error.text, "job huge: its streams need 16400M (256 streams of 64M of "
                                    "buffers and 64K of figures), over "
                                    "this agent's bound of "))
        fail_msg ("unexpected refusal: %s", msg->u.error.text);
    char path [PATH_MAX];
    snprintf (path, sizeof (path), "%s/huge.1", fx->root);
    assert_int_equal (s_file_size (path), -1);
}

//  One file under two names is one file: the relative and the absolute
//  form, a path through a symlinked directory, a stream's path.k. A copy
//  may not read what another job writes, nor another job write what a
//  copy reads; the file a fill makes is there to be read.
static void
test_same_file_twice_in_a_test (void **state)
{
    fixture_t *fx = *state;
    s_open_session (fx, fx->dealer, "twice");
    char path [PATH_MAX], expected [PATH_MAX + 128];

    s_prepare_ready (fx, 0, "a", s_mib_blocks ("same", 1));
    snprintf (path, sizeof (path), "%s/same", fx->root);
    snprintf (expected, sizeof (expected), "job b: writes the same file as job a (%s)", path);
    s_prepare_refused (fx, 1, "b", s_mib_blocks (path, 1), expected);

    snprintf (path, sizeof (path), "%s/real", fx->root);
    assert_int_equal (mkdir (path, 0755), 0);
    snprintf (path, sizeof (path), "%s/alias", fx->root);
    assert_int_equal (symlink ("real", path), 0);
    s_prepare_ready (fx, 2, "c", s_mib_blocks ("real/f", 1));
    snprintf (expected, sizeof (expected), "job d: writes the same file as job c (%s/real/f)",
              fx->root);
    s_prepare_refused (fx, 3, "d", s_mib_blocks ("alias/f", 1), expected);

    s_prepare_ready (fx, 4, "e", s_mib_blocks ("multi", 2));
    snprintf (expected, sizeof (expected), "job f: writes the same file as job e (%s/multi.2)",
              fx->root);
    s_prepare_refused (fx, 5, "f", s_mib_blocks ("multi.2", 1), expected);

    snprintf (path, sizeof (path), "%s/src", fx->root);
    FILE *source = fopen (path, "w");
    assert_non_null (source);
    fputs ("the source", source);
    fclose (source);
    s_prepare_ready (fx, 6, "g", s_copy_spec ("src", "copied"));
    snprintf (expected, sizeof (expected), "job h: writes the file job g reads (%s)", path);
    s_prepare_refused (fx, 7, "h", s_mib_blocks (path, 1), expected);
    snprintf (expected, sizeof (expected), "job i: reads the file job a writes (%s/same)", fx->root);
    s_prepare_refused (fx, 8, "i", s_copy_spec ("same", "copied2"), expected);
    assert_int_equal (s_file_size (path), 10);      //  the refused job truncated nothing

    jobspec_t fill = s_mib_blocks ("filled", 1);
    fill.workload = WORKLOAD_FILL;
    s_prepare_ready (fx, 9, "fill", fill);
    s_prepare_ready (fx, 10, "reader", s_copy_spec ("filled", "copied3"));
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test_setup_teardown (test_start_instants_out_of_range, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_job_checks_numbers_itself, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_malformed_flood_is_logged_sparingly, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_long_paths_leave_room_for_the_reason, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_memory_of_a_test_is_bounded, s_setup_small, s_teardown),
        cmocka_unit_test_setup_teardown (test_memory_bound_defaults_to_a_quarter, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_same_file_twice_in_a_test, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
