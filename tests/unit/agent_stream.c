/*  tests/unit/agent_stream.c: streams and the workloads behind them,
    without the daemon: the null and write workloads through the stream
    API (prepare, launch, start, stop, results, cleanup), option
    validation, and a disk that fails on purpose (RLIMIT_FSIZE makes
    write fail with EFBIG past a limit).
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../agent/hostinfo.h"
#include "../../agent/stream.h"
#include "../../proto/clock.h"
#include "../../proto/workload.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define KIB 1024
#define MIB (1024 * 1024)

//  A scratch directory and a file path in it.
typedef struct {
    char dir [PATH_MAX];            //  scratch directory
    char path [PATH_MAX];           //  dir/stream.dat
} fixture_t;

//  Build the scratch directory of one case.
static int
s_setup (void **state)
{
    fixture_t *fx = calloc (1, sizeof (fixture_t));
    assert_non_null (fx);
    const char *tmp = getenv ("TMPDIR");
    snprintf (fx->dir, sizeof (fx->dir), "%s/iofleet-stream-XXXXXX", tmp? tmp: P_tmpdir);
    assert_non_null (mkdtemp (fx->dir));
    snprintf (fx->path, sizeof (fx->path), "%s/stream.dat", fx->dir);
    *state = fx;
    return 0;
}

//  Remove everything s_setup built.
static int
s_teardown (void **state)
{
    fixture_t *fx = *state;
    unlink (fx->path);
    assert_int_equal (rmdir (fx->dir), 0);      //  nothing else was left behind
    free (fx);
    return 0;
}

//  A job of workload writing size bytes in bs blocks.
static jobspec_t
s_spec (int workload, uint64_t size_bytes, uint64_t bs_bytes)
{
    jobspec_t spec;
    jobspec_defaults (&spec);
    spec.workload = workload;
    spec.size_bytes = size_bytes;
    spec.bs_bytes = bs_bytes;
    spec.streams = 1;
    spec.fsync_mode = FSYNC_NONE;
    return spec;
}

//  Launch one stream writing path (as if resolved from spec->path) and
//  wait for its prepare, in its thread, to be over. Returns its outcome
//  (1 ready, -1 failed) in *prepared.
static stream_t *
s_launch_prepared (jobspec_t *spec, const char *path, int *prepared)
{
    msg_strcpy (spec->path, path, sizeof (spec->path));
    const workload_ops_t *ops = workload_lookup (spec->workload);
    assert_non_null (ops);
    char err [MSG_TEXT_MAX + 1];
    stream_t *stream = stream_new (ops, spec, 0, path,
                                   workload_phase_count (workload_desc (spec->workload)),
                                   err, sizeof (err));
    if (!stream)
        fail_msg ("stream_new: %s", err);
    assert_int_equal (stream_launch (stream, -1, NULL, NULL, err, sizeof (err)), 0);
    while ((*prepared = stream_prepared (stream)) == 0)
        usleep (1000);
    return stream;
}

//  Launch a stream and fail the test if its prepare fails.
static stream_t *
s_launch (jobspec_t *spec, const char *path)
{
    const char *key;
    char err [MSG_TEXT_MAX + 1];
    msg_strcpy (spec->path, path, sizeof (spec->path));
    if (workload_check (spec, &key, err, sizeof (err)))
        fail_msg ("workload_check: %s: %s", key, err);
    int prepared;
    stream_t *stream = s_launch_prepared (spec, path, &prepared);
    if (prepared != 1)
        fail_msg ("prepare: %s", stream_prepare_error (stream));
    return stream;
}

//  Wait for a stream to end and take its result.
static void
s_finish (stream_t *stream, msg_result_t *result)
{
    stream_wait (stream);
    assert_true (stream_done (stream));
    memset (result, 0, sizeof (*result));
    assert_true (stream_take_result (stream, result));
    assert_false (stream_take_result (stream, result));     //  only once
}

//  Size of a file, -1 if it does not exist.
static long long
s_file_size (const char *path)
{
    struct stat st;
    return stat (path, &st) == 0? (long long) st.st_size: -1;
}

static void
test_registry (void **state)
{
    (void) state;
    assert_string_equal (workload_lookup (WORKLOAD_NULL)->name, "null");
    assert_string_equal (workload_lookup (WORKLOAD_WRITE)->name, "write");
    assert_null (workload_lookup (-1));
    assert_null (workload_lookup (99));
    for (int workload = WORKLOAD_NULL; workload <= WORKLOAD_WRITE; workload++) {
        const workload_ops_t *ops = workload_lookup (workload);
        assert_string_equal (ops->name, jobspec_workload_name (workload));
        assert_non_null (ops->prepare);
        assert_non_null (ops->run);
        assert_non_null (ops->cleanup);
    }
}

static void
test_null_counts_size (void **state)
{
    (void) state;
    jobspec_t spec = s_spec (WORKLOAD_NULL, 10 * MIB + 123, 4 * KIB);
    stream_t *stream = s_launch (&spec, "");
    assert_false (stream_done (stream));
    assert_false (stream_take_result (stream, &(msg_result_t) { 0 }));

    int64_t start_ns = clock_now_ns () + 5 * NS_PER_MSEC;
    stream_start (stream, 0, start_ns);
    msg_result_t result;
    s_finish (stream, &result);
    assert_int_equal (result.bytes, 10 * MIB + 123);
    assert_int_equal (stream_bytes (stream), 10 * MIB + 123);
    assert_int_equal (result.err_no, 0);
    assert_string_equal (result.error, "");
    assert_true (result.start_ns >= start_ns);
    assert_true (result.end_ns >= result.last_write_ns);
    assert_true (result.last_write_ns >= result.start_ns);
    assert_string_equal (result.path, "");
    stream_destroy (&stream);
    assert_null (stream);
    stream_destroy (&stream);           //  safe on NULL
}

static void
test_stop_before_start (void **state)
{
    (void) state;
    //  A stream stopped before it was given its instant ends without
    //  figures: for the coordinator, nothing began.
    jobspec_t spec = s_spec (WORKLOAD_NULL, MIB, 512);
    stream_t *stream = s_launch (&spec, "");
    stream_stop (stream, "no start for you");
    stream_stop (stream, "a later reason");
    stream_wait (stream);
    assert_true (stream_done (stream));
    msg_result_t result;
    assert_false (stream_take_result (stream, &result));
    //  Started afterwards, it says at once that it did not run.
    stream_start (stream, 0, clock_now_ns ());
    assert_true (stream_take_result (stream, &result));
    assert_non_null (strstr (result.error, "not run"));
    assert_int_equal (result.err_no, ECANCELED);
    assert_int_equal (result.bytes, 0);
    assert_int_equal (result.start_ns, 0);
    stream_destroy (&stream);
}

static void
test_stop_while_waiting_for_a_far_start (void **state)
{
    (void) state;
    jobspec_t spec = s_spec (WORKLOAD_NULL, MIB, 512);
    stream_t *stream = s_launch (&spec, "");
    //  An hour away: the stop must not wait for it.
    stream_start (stream, 0, clock_now_ns () + 3600 * NS_PER_SEC);
    int64_t before_ns = clock_now_ns ();
    stream_stop (stream, "changed my mind");
    msg_result_t result;
    s_finish (stream, &result);
    assert_true (clock_now_ns () - before_ns < NS_PER_SEC);
    assert_string_equal (result.error, "aborted: changed my mind");
    assert_int_equal (result.start_ns, 0);
    stream_destroy (&stream);
}

static void
test_stop_while_running (void **state)
{
    (void) state;
    jobspec_t spec = s_spec (WORKLOAD_NULL, 1ULL << 50, 512);
    stream_t *stream = s_launch (&spec, "");
    stream_start (stream, 0, clock_now_ns ());
    while (stream_bytes (stream) == 0)
        usleep (1000);
    stream_stop (stream, "enough");
    msg_result_t result;
    s_finish (stream, &result);
    assert_string_equal (result.error, "aborted: enough");
    assert_true (result.bytes > 0);
    assert_true (result.bytes < spec.size_bytes);
    assert_true (result.start_ns > 0);
    stream_destroy (&stream);
}

static void
test_write_exact_size_and_keep (void **state)
{
    fixture_t *fx = *state;
    //  Not a multiple of bs: the last block is shorter.
    jobspec_t spec = s_spec (WORKLOAD_WRITE, 3 * 4096 + 1000, 4096);
    spec.pattern = PATTERN_RANDOM;
    spec.fsync_mode = FSYNC_CLOSE;
    spec.keep = true;
    stream_t *stream = s_launch (&spec, fx->path);
    assert_int_equal (s_file_size (fx->path), 0);    //  created at prepare
    stream_start (stream, 0, clock_now_ns ());
    msg_result_t result;
    s_finish (stream, &result);
    assert_string_equal (result.error, "");
    assert_int_equal (result.bytes, spec.size_bytes);
    assert_string_equal (result.path, fx->path);
    stream_destroy (&stream);
    assert_int_equal (s_file_size (fx->path), (long long) spec.size_bytes);

    //  Random means not zeros.
    FILE *file = fopen (fx->path, "rb");
    assert_non_null (file);
    unsigned char block [4096];
    assert_int_equal (fread (block, 1, sizeof (block), file), sizeof (block));
    fclose (file);
    int nonzero = 0;
    for (size_t index = 0; index < sizeof (block); index++)
        nonzero += block [index] != 0;
    assert_true (nonzero > 3000);
}

//  rate = 4M: 1 MiB takes a quarter of a second, in 64 KiB blocks paced
//  along the way (the last write ends one block's pay before that); and
//  a stop during the pacing ends it at once.
static void
test_write_rate (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = s_spec (WORKLOAD_WRITE, 1024 * KIB, 64 * KIB);
    spec.rate_bytes = 4 * 1024 * KIB;
    spec.fsync_mode = FSYNC_NONE;
    stream_t *stream = s_launch (&spec, fx->path);
    stream_start (stream, 0, clock_now_ns ());
    msg_result_t result;
    s_finish (stream, &result);
    assert_int_equal (result.bytes, 1024 * KIB);
    double seconds = (double) (result.end_ns - result.start_ns) / NS_PER_SEC;
    assert_true (seconds >= 0.25 - 0.001);
    assert_true (seconds < 1.0);
    seconds = (double) (result.last_write_ns - result.start_ns) / NS_PER_SEC;
    assert_true (seconds >= 0.25 - 0.25 / 16 - 0.001);
    stream_destroy (&stream);

    spec.size_bytes = 1024 * 1024 * KIB;        //  1 GiB at 4 MiB/s: minutes
    stream = s_launch (&spec, fx->path);
    int64_t started_ns = clock_now_ns ();
    stream_start (stream, 0, started_ns);
    clock_sleep_until (started_ns + 200 * NS_PER_MSEC);
    stream_stop (stream, "enough");
    s_finish (stream, &result);
    assert_true (clock_now_ns () - started_ns < 2 * NS_PER_SEC);
    assert_true (result.bytes > 0 && result.bytes < 2 * 1024 * KIB);
    assert_non_null (strstr (result.error, "aborted: enough"));
    stream_destroy (&stream);
}

static void
test_write_removes_without_keep (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = s_spec (WORKLOAD_WRITE, 256 * KIB, 64 * KIB);
    spec.fsync_mode = FSYNC_END;
    stream_t *stream = s_launch (&spec, fx->path);
    stream_start (stream, 0, clock_now_ns ());
    msg_result_t result;
    s_finish (stream, &result);
    assert_int_equal (result.bytes, 256 * KIB);
    //  The file stays while the test is on (its dirty pages are part of
    //  the host's figures), and goes with the stream.
    assert_int_equal (s_file_size (fx->path), 256 * KIB);
    stream_destroy (&stream);
    assert_int_equal (s_file_size (fx->path), -1);

    //  A stream that never ran removes its file too.
    stream = s_launch (&spec, fx->path);
    assert_int_equal (s_file_size (fx->path), 0);
    stream_destroy (&stream);
    assert_int_equal (s_file_size (fx->path), -1);
}

static void
test_write_error_is_recorded (void **state)
{
    fixture_t *fx = *state;
    //  A "disk" that is full after 64 KiB: the process file size limit.
    struct rlimit saved, limited;
    assert_int_equal (getrlimit (RLIMIT_FSIZE, &saved), 0);
    limited = saved;
    limited.rlim_cur = 64 * KIB;
    void (*previous) (int) = signal (SIGXFSZ, SIG_IGN);
    assert_int_equal (setrlimit (RLIMIT_FSIZE, &limited), 0);

    jobspec_t spec = s_spec (WORKLOAD_WRITE, MIB, 4 * KIB);
    spec.fsync_mode = FSYNC_END;
    stream_t *stream = s_launch (&spec, fx->path);
    stream_start (stream, 0, clock_now_ns ());
    msg_result_t result;
    s_finish (stream, &result);

    assert_int_equal (setrlimit (RLIMIT_FSIZE, &saved), 0);
    signal (SIGXFSZ, previous);

    assert_int_equal (result.err_no, EFBIG);
    char expected [PATH_MAX + 64];
    snprintf (expected, sizeof (expected), "write(%s): %s", fx->path, strerror (EFBIG));
    assert_string_equal (result.error, expected);
    assert_int_equal (result.bytes, 64 * KIB);
    assert_true (result.end_ns > 0);
    stream_destroy (&stream);
    assert_int_equal (s_file_size (fx->path), -1);
}

static void
test_write_prepare_errors (void **state)
{
    fixture_t *fx = *state;
    const workload_ops_t *ops = workload_lookup (WORKLOAD_WRITE);
    char err [MSG_TEXT_MAX + 1];

    const char *key;
    jobspec_t spec = s_spec (WORKLOAD_WRITE, MIB, 4 * KIB);
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);   //  no path
    assert_string_equal (key, "path");
    msg_strcpy (spec.path, "x", sizeof (spec.path));
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), 0);
    spec.bs_bytes = 1000;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), 0);
    spec.direct = true;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "bs");
    spec.bs_bytes = 4096;
    spec.size_bytes = 5000;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "size");
    (void) ops;

    //  Open failures name the path; nothing is left behind.
    spec = s_spec (WORKLOAD_WRITE, MIB, 4 * KIB);
    char missing [PATH_MAX];
    snprintf (missing, sizeof (missing), "%s/no/such/dir/file", fx->dir);
    int prepared;
    stream_t *stream = s_launch_prepared (&spec, missing, &prepared);
    assert_int_equal (prepared, -1);
    assert_non_null (strstr (stream_prepare_error (stream), missing));
    stream_destroy (&stream);

    //  A directory where the file should be.
    stream = s_launch_prepared (&spec, fx->dir, &prepared);
    assert_int_equal (prepared, -1);
    assert_non_null (strstr (stream_prepare_error (stream), fx->dir));
    stream_destroy (&stream);

    //  A symlink as the file: O_NOFOLLOW refuses it.
    char target [PATH_MAX];
    snprintf (target, sizeof (target), "%s/target", fx->dir);
    assert_int_equal (symlink (target, fx->path), 0);
    stream = s_launch_prepared (&spec, fx->path, &prepared);
    assert_int_equal (prepared, -1);
    assert_non_null (strstr (stream_prepare_error (stream), "symbolic link"));
    stream_destroy (&stream);
    assert_int_equal (s_file_size (target), -1);
    assert_int_equal (unlink (fx->path), 0);
}

static void
test_hostinfo (void **state)
{
    (void) state;
    hostinfo_t *info = hostinfo_new ();
    assert_non_null (info);
    struct utsname names;
    assert_int_equal (uname (&names), 0);
    assert_string_equal (hostinfo_hostname (info), names.nodename);
    assert_string_equal (hostinfo_kernel (info), names.release);
    assert_int_equal (hostinfo_cpus (info), sysconf (_SC_NPROCESSORS_ONLN));
    assert_true (hostinfo_mem_bytes (info) > 16 * MIB);
    assert_int_equal (hostinfo_mem_bytes (info) % 1024, 0);
    hostinfo_destroy (&info);
    assert_null (info);
    hostinfo_destroy (&info);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_registry),
        cmocka_unit_test (test_null_counts_size),
        cmocka_unit_test (test_stop_before_start),
        cmocka_unit_test (test_stop_while_waiting_for_a_far_start),
        cmocka_unit_test (test_stop_while_running),
        cmocka_unit_test_setup_teardown (test_write_exact_size_and_keep, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_write_rate, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_write_removes_without_keep, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_write_error_is_recorded, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_write_prepare_errors, s_setup, s_teardown),
        cmocka_unit_test (test_hostinfo),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
