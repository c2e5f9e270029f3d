/*  tests/unit/agent_procstat.c: the /proc parsers against copies of /proc
    from several kernels, odd ones included, and window arithmetic checked
    by hand.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../../agent/procstat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//  /proc/stat of a 6.x kernel: ten columns.
static const char *s_stat_6x =
    "cpu  41779 12 16672 343881 14001 5 733 3341 100 7\n"
    "cpu0 21026 0 7254 177246 3052 0 149 1407 0 0\n"
    "intr 1234 0 0\n"
    "ctxt 99\n";

//  Two seconds later on the same host.
static const char *s_stat_6x_later =
    "cpu  41979 12 17072 344081 14301 5 833 3441 100 7\n";

//  A 2.6.18 kernel: eight columns, no guest.
static const char *s_stat_old = "cpu  100 0 50 800 50 0 0 0\n";

//  A kernel that added a column nobody knows yet.
static const char *s_stat_new = "cpu  10 0 20 60 10 0 0 0 0 0 999\n";

static void
test_cpu_columns (void **state)
{
    (void) state;
    procstat_cpu_t cpu;
    char err [256];
    assert_int_equal (procstat_parse_cpu (s_stat_6x, &cpu, err, sizeof err), 0);
    //  user + nice; system + irq + softirq; guest inside user already
    assert_int_equal (cpu.user, 41779 + 12);
    assert_int_equal (cpu.system, 16672 + 5 + 733);
    assert_int_equal (cpu.idle, 343881);
    assert_int_equal (cpu.iowait, 14001);
    assert_int_equal (cpu.steal, 3341);
    assert_int_equal (cpu.total, 41791 + 17410 + 343881 + 14001 + 3341);

    assert_int_equal (procstat_parse_cpu (s_stat_old, &cpu, err, sizeof err), 0);
    assert_int_equal (cpu.total, 1000);
    assert_int_equal (cpu.steal, 0);
    assert_int_equal (procstat_parse_cpu (s_stat_new, &cpu, err, sizeof err), 0);
    assert_int_equal (cpu.total, 100);

    //  Not /proc/stat at all.
    assert_int_equal (procstat_parse_cpu ("intr 5\n", &cpu, err, sizeof err), -1);
    assert_non_null (strstr (err, "cpu"));
    assert_int_equal (procstat_parse_cpu ("cpu  1 2\n", &cpu, err, sizeof err), -1);
    //  "cpu0" alone is a per-CPU line, not the aggregate.
    assert_int_equal (procstat_parse_cpu ("cpu0 1 2 3 4\n", &cpu, err, sizeof err), -1);
}

static void
test_cpu_window (void **state)
{
    (void) state;
    procstat_cpu_t before, after;
    char err [256];
    procstat_parse_cpu (s_stat_6x, &before, err, sizeof err);
    procstat_parse_cpu (s_stat_6x_later, &after, err, sizeof err);
    //  By hand: user +200, system +400 +100 = 500, idle +200, iowait +300,
    //  steal +100; total 1300.
    procstat_cpu_pct_t pct = procstat_cpu_window (&before, &after);
    assert_true (fabs (pct.usr_pct - 100.0 * 200 / 1300) < 1e-9);
    assert_true (fabs (pct.sys_pct - 100.0 * 500 / 1300) < 1e-9);
    assert_true (fabs (pct.idle_pct - 100.0 * 200 / 1300) < 1e-9);
    assert_true (fabs (pct.iowait_pct - 100.0 * 300 / 1300) < 1e-9);
    assert_true (fabs (pct.steal_pct - 100.0 * 100 / 1300) < 1e-9);
    //  An empty window and one whose counters went backwards.
    pct = procstat_cpu_window (&after, &after);
    assert_true (pct.usr_pct == 0 && pct.idle_pct == 0);
    pct = procstat_cpu_window (&after, &before);
    assert_true (pct.usr_pct == 0 && pct.sys_pct == 0);
}

static void
test_meminfo (void **state)
{
    (void) state;
    const char *meminfo =
        "MemTotal:       24683656 kB\n"
        "MemFree:        20000000 kB\n"
        "Dirty:             17284 kB\n"
        "Writeback:            12 kB\n"
        "WritebackTmp:          0 kB\n";
    procstat_mem_t mem;
    char err [256];
    assert_int_equal (procstat_parse_meminfo (meminfo, &mem, err, sizeof err), 0);
    assert_int_equal (mem.total_bytes, 24683656ULL * 1024);
    assert_int_equal (mem.dirty_bytes, 17284ULL * 1024);
    //  WritebackTmp must not be taken for Writeback.
    assert_int_equal (mem.writeback_bytes, 12ULL * 1024);
    assert_int_equal (procstat_parse_meminfo ("MemFree: 5 kB\n", &mem, err, sizeof err), -1);
    assert_non_null (strstr (err, "MemTotal"));
}

//  diskstats of 4.18 (14 columns), 5.5 (18: discards) and 5.x (20: flush).
static const char *s_diskstats_mixed =
    "   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0\n"
    "   7       1 loop1 12 0 96 1 0 0 0 0 0 1 1\n"
    " 254       0 vda 1000 10 20000 500 3000 40 600000 900 0 1200 1400\n"
    " 254       1 vda1 900 10 18000 450 2900 40 590000 880 0 1100 1330 0 0 0 0\n"
    " 259       0 nvme0n1 5 0 40 1 7 0 56 2 0 3 3 0 0 0 0 1 1\n"
    "   1       0 ram0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

static void
test_diskstats (void **state)
{
    (void) state;
    procstat_disk_t disks [8];
    char err [256];
    int count = procstat_parse_diskstats (s_diskstats_mixed, disks, 8, err, sizeof err);
    //  loop0 and ram0 never did I/O and are skipped; loop1 did.
    assert_int_equal (count, 4);
    assert_string_equal (disks [0].name, "loop1");
    assert_string_equal (disks [1].name, "vda");
    assert_int_equal (disks [1].reads, 1000);
    assert_int_equal (disks [1].sectors_read, 20000);
    assert_int_equal (disks [1].writes, 3000);
    assert_int_equal (disks [1].sectors_written, 600000);
    assert_string_equal (disks [2].name, "vda1");
    assert_int_equal (disks [2].sectors_written, 590000);
    assert_string_equal (disks [3].name, "nvme0n1");
    assert_int_equal (disks [3].sectors_written, 56);

    //  Capacity is respected.
    assert_int_equal (procstat_parse_diskstats (s_diskstats_mixed, disks, 2, err, sizeof err), 2);
    //  Blank lines are fine, garbage is not.
    assert_int_equal (procstat_parse_diskstats ("\n\n", disks, 8, err, sizeof err), 0);
    assert_int_equal (procstat_parse_diskstats ("hello world\n", disks, 8, err, sizeof err), -1);
    assert_non_null (strstr (err, "line 1"));
    assert_int_equal (procstat_parse_diskstats (" 8 0 sda 1 2 3\n", disks, 8, err, sizeof err), -1);
    assert_non_null (strstr (err, "sda"));
}

static void
test_disk_window_devices_come_and_go (void **state)
{
    (void) state;
    procstat_t before = { .disk_count = 2 }, after = { .disk_count = 2 };
    char err [256];
    procstat_parse_diskstats (" 254 0 vda 10 0 100 0 20 0 1000 0 0 0 0\n"
                              "   8 0 sdb 1 0 8 0 1 0 8 0 0 0 0\n", before.disks, 8, err, sizeof err);
    //  sdb went away during the window, sdc appeared.
    procstat_parse_diskstats (" 254 0 vda 12 0 164 0 30 0 3048 0 0 0 0\n"
                              "   8 32 sdc 2 0 16 0 4 0 2048 0 0 0 0\n", after.disks, 8, err, sizeof err);
    uint64_t read_bytes, written_bytes;
    assert_true (procstat_disk_window (&before, &after, "vda", &read_bytes, &written_bytes));
    assert_int_equal (read_bytes, 64 * 512);
    assert_int_equal (written_bytes, 2048 * 512);
    assert_true (procstat_disk_window (&before, &after, "sdc", &read_bytes, &written_bytes));
    assert_int_equal (read_bytes, 16 * 512);
    assert_int_equal (written_bytes, 2048 * 512);
    assert_false (procstat_disk_window (&before, &after, "sdb", &read_bytes, &written_bytes));
    assert_int_equal (written_bytes, 0);
}

static void
test_nfs_counters (void **state)
{
    (void) state;
    //  A client with v3 and v4 mounts: proc3 READ is column 6, WRITE 7;
    //  the v4 client list starts null, read, write.
    const char *client =
        "net 0 0 0 0\n"
        "rpc 5000 2 0\n"
        "proc3 22 0 10 0 30 20 0 400 300 5 0 0 0 1 0 0 0 0 2 0 0 0 3\n"
        "proc4 69 0 40 50 1 0 0 0 0 0 0\n";
    procstat_nfs_t nfs;
    char err [256];
    assert_int_equal (procstat_parse_nfs (client, false, &nfs, err, sizeof err), 0);
    assert_true (nfs.present);
    assert_int_equal (nfs.rpc_calls, 5000);
    assert_int_equal (nfs.read_ops, 400 + 40);
    assert_int_equal (nfs.write_ops, 300 + 50);

    //  A server: io bytes, proc3, proc4ops with READ at 25 and WRITE at 38.
    char server [2048];
    int used = snprintf (server, sizeof server,
        "rc 0 0 0\nio 1048576 2097152\nth 8 0 0 0 0 0 0 0 0 0 0 0\n"
        "rpc 777 0 0 0 0\n"
        "proc3 22 0 1 0 2 0 0 7 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
        "proc4 2 0 100\nproc4ops 72");
    for (int op = 0; op < 72; op++)
        used += snprintf (server + used, sizeof server - used, " %d",
                          op == 25? 11: op == 38? 13: 0);
    snprintf (server + used, sizeof server - used, "\n");
    assert_int_equal (procstat_parse_nfs (server, true, &nfs, err, sizeof err), 0);
    assert_int_equal (nfs.rpc_calls, 777);
    assert_int_equal (nfs.read_ops, 7 + 11);
    assert_int_equal (nfs.write_ops, 9 + 13);
    assert_int_equal (nfs.read_bytes, 1048576);
    assert_int_equal (nfs.written_bytes, 2097152);

    //  A short proc3 line (an old kernel) counts what is there.
    assert_int_equal (procstat_parse_nfs ("rpc 1\nproc3 3 0 1 2\n", false, &nfs, err, sizeof err), 0);
    assert_int_equal (nfs.read_ops, 0);
    assert_int_equal (procstat_parse_nfs ("garbage\n", false, &nfs, err, sizeof err), -1);
    assert_false (nfs.present);
}

//  Write a file under dir.
static void
s_write (const char *dir, const char *name, const char *text)
{
    char path [512];
    snprintf (path, sizeof path, "%s/%s", dir, name);
    FILE *file = fopen (path, "w");
    assert_non_null (file);
    fputs (text, file);
    fclose (file);
}

static void
test_read_directory (void **state)
{
    (void) state;
    char dir [] = "/tmp/iofleet-procstat.XXXXXX";
    assert_non_null (mkdtemp (dir));
    procstat_t snapshot;
    char err [512];
    //  Missing files are named.
    assert_int_equal (procstat_read (dir, &snapshot, err, sizeof err), -1);
    assert_non_null (strstr (err, "stat"));

    s_write (dir, "stat", s_stat_6x);
    s_write (dir, "meminfo", "MemTotal: 1000 kB\nDirty: 10 kB\n");
    s_write (dir, "diskstats", s_diskstats_mixed);
    assert_int_equal (procstat_read (dir, &snapshot, err, sizeof err), 0);
    assert_int_equal (snapshot.mem.dirty_bytes, 10240);
    assert_int_equal (snapshot.disk_count, 4);
    assert_false (snapshot.nfs_client.present);
    assert_true (snapshot.t_ns > 0);

    //  A broken meminfo is named with its path.
    s_write (dir, "meminfo", "nothing\n");
    assert_int_equal (procstat_read (dir, &snapshot, err, sizeof err), -1);
    assert_non_null (strstr (err, "meminfo: no MemTotal"));

    char path [600];
    const char *names [] = { "stat", "meminfo", "diskstats" };
    for (size_t i = 0; i < 3; i++) {
        snprintf (path, sizeof path, "%s/%s", dir, names [i]);
        unlink (path);
    }
    rmdir (dir);

    //  And the real thing.
    assert_int_equal (procstat_read ("/proc", &snapshot, err, sizeof err), 0);
    assert_true (snapshot.mem.total_bytes > 0);
    assert_true (snapshot.cpu.total > 0);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_cpu_columns),
        cmocka_unit_test (test_cpu_window),
        cmocka_unit_test (test_meminfo),
        cmocka_unit_test (test_diskstats),
        cmocka_unit_test (test_disk_window_devices_come_and_go),
        cmocka_unit_test (test_nfs_counters),
        cmocka_unit_test (test_read_directory),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
