/*  tests/unit/agent_hostwatch.c: a test's host figures from three
    snapshots of a /proc and /sys laid out in a scratch directory, checked
    against numbers worked out by hand.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../../agent/hostwatch.h"
#include "../../proto/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char s_root [64];

static void
s_write (const char *name, const char *text)
{
    char path [256];
    snprintf (path, sizeof path, "%s/%s", s_root, name);
    FILE *file = fopen (path, "w");
    assert_non_null (file);
    fputs (text, file);
    fclose (file);
}

static void
s_mkdir (const char *name)
{
    char path [256];
    snprintf (path, sizeof path, "%s/%s", s_root, name);
    assert_int_equal (mkdir (path, 0755), 0);
}

//  /proc with given CPU ticks, dirty KiB and sectors written on vda, its
//  partition vda1 and the device-mapper volume dm-0 stacked on vda.
static void
s_proc (uint64_t user, uint64_t system, uint64_t idle, uint64_t dirty_kib,
        uint64_t vda_sectors)
{
    char text [512];
    snprintf (text, sizeof text, "cpu  %lu 0 %lu %lu 0 0 0 0 0 0\n",
              (unsigned long) user, (unsigned long) system, (unsigned long) idle);
    s_write ("proc/stat", text);
    snprintf (text, sizeof text, "MemTotal: 1048576 kB\nDirty: %lu kB\nWriteback: 0 kB\n",
              (unsigned long) dirty_kib);
    s_write ("proc/meminfo", text);
    snprintf (text, sizeof text,
              " 254 0 vda 0 0 0 0 1 0 %lu 0 0 0 0\n"
              " 254 1 vda1 0 0 0 0 1 0 %lu 0 0 0 0\n"
              " 253 0 dm-0 0 0 0 0 1 0 %lu 0 0 0 0\n",
              (unsigned long) vda_sectors, (unsigned long) vda_sectors,
              (unsigned long) vda_sectors);
    s_write ("proc/diskstats", text);
}

static int
s_setup (void **state)
{
    (void) state;
    snprintf (s_root, sizeof s_root, "/tmp/iofleet-hostwatch.XXXXXX");
    assert_non_null (mkdtemp (s_root));
    s_mkdir ("proc");
    s_mkdir ("sys");
    s_mkdir ("sys/block");
    s_mkdir ("sys/block/vda");
    s_mkdir ("sys/block/vda/slaves");
    s_mkdir ("sys/block/dm-0");
    s_mkdir ("sys/block/dm-0/slaves");
    s_mkdir ("sys/block/dm-0/slaves/vda");
    return 0;
}

static int
s_teardown (void **state)
{
    (void) state;
    char command [128];
    snprintf (command, sizeof command, "rm -rf '%s'", s_root);
    return system (command) == 0? 0: -1;
}

static hostwatch_t *
s_watch (void)
{
    char proc [128], sys [128];
    snprintf (proc, sizeof proc, "%s/proc", s_root);
    snprintf (sys, sizeof sys, "%s/sys", s_root);
    hostwatch_t *watch = hostwatch_new (proc, sys);
    assert_non_null (watch);
    return watch;
}

static void
test_window_and_settle (void **state)
{
    (void) state;
    hostwatch_t *watch = s_watch ();
    char err [256];
    msg_host_t host;

    s_proc (1000, 500, 8000, 1024, 100);
    assert_int_equal (hostwatch_begin (watch, 7, err, sizeof err), 0);
    assert_false (hostwatch_settled (watch, &host));      //  still in the window
    assert_int_equal (hostwatch_next_ns (watch), 0);

    //  The window: user +100, system +300, idle +600 ticks; 200 MiB dirty;
    //  20480 sectors (10 MiB) written on vda.
    s_proc (1100, 800, 8600, 1024 + 200 * 1024, 100 + 20480);
    assert_int_equal (hostwatch_end (watch, 5 * NS_PER_SEC, err, sizeof err), 0);
    assert_true (hostwatch_next_ns (watch) > 0);
    //  Still 200 MiB dirty: not settled.
    assert_false (hostwatch_settled (watch, &host));

    //  The page cache drains: 200 MiB more written, Dirty back to start.
    s_proc (1150, 820, 8700, 1024, 100 + 20480 + 409600);
    usleep (150 * 1000);                    //  the next poll is 100 ms later
    assert_true (hostwatch_settled (watch, &host));
    assert_int_equal (host.test_id, 7);
    assert_int_equal (host.cpu_total_ticks, 1000);
    assert_int_equal (host.cpu_user_ticks, 100);
    assert_int_equal (host.cpu_system_ticks, 300);
    assert_int_equal (host.cpu_idle_ticks, 600);
    assert_int_equal (host.mem_total_bytes, 1048576ULL * 1024);
    assert_int_equal (host.dirty_start_bytes, 1024ULL * 1024);
    assert_int_equal (host.dirty_end_bytes, (1024ULL + 200 * 1024) * 1024);
    assert_int_equal (host.dirty_settled_bytes, 1024ULL * 1024);
    //  Only vda counts: vda1 is a partition, dm-0 sits on vda.
    assert_int_equal (host.disk_written_bytes, 20480ULL * 512);
    assert_int_equal (host.settle_written_bytes, 409600ULL * 512);
    assert_true (host.window_start_ns <= host.window_end_ns);
    assert_true (host.window_end_ns <= host.settle_end_ns);
    //  Reported once.
    assert_false (hostwatch_settled (watch, &host));
    hostwatch_destroy (&watch);
    assert_null (watch);
}

static void
test_settle_bound (void **state)
{
    (void) state;
    hostwatch_t *watch = s_watch ();
    char err [256];
    msg_host_t host;
    s_proc (0, 0, 100, 0, 0);
    assert_int_equal (hostwatch_begin (watch, 1, err, sizeof err), 0);
    s_proc (10, 10, 180, 500 * 1024, 0);
    assert_int_equal (hostwatch_end (watch, 200 * NS_PER_MSEC, err, sizeof err), 0);
    //  Dirty never drains: the bound ends the period.
    int64_t give_up_ns = clock_now_ns () + 2 * NS_PER_SEC;
    while (!hostwatch_settled (watch, &host) && clock_now_ns () < give_up_ns)
        usleep (20 * 1000);
    assert_int_equal (host.test_id, 1);
    assert_int_equal (host.dirty_settled_bytes, 500ULL * 1024 * 1024);
    assert_true (host.settle_end_ns - host.window_end_ns >= 200 * NS_PER_MSEC);
    hostwatch_destroy (&watch);
}

static void
test_errors (void **state)
{
    (void) state;
    hostwatch_t *watch = hostwatch_new ("/nonexistent-proc", "/sys");
    char err [256];
    assert_int_equal (hostwatch_begin (watch, 1, err, sizeof err), -1);
    assert_non_null (strstr (err, "/nonexistent-proc/stat"));
    assert_int_equal (hostwatch_end (watch, NS_PER_SEC, err, sizeof err), -1);
    hostwatch_destroy (&watch);
    hostwatch_destroy (&watch);             //  safe on NULL
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_window_and_settle),
        cmocka_unit_test (test_settle_bound),
        cmocka_unit_test (test_errors),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
