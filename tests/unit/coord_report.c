/*  tests/unit/coord_report.c: the text and JSON writers on a run built by
    hand: two agents and three tests (one with a failed stream, one mixing
    disk and network on two hosts, one whose agent was lost).

    The figures the report prints are worked out in the comments of the
    fixture, so that a change in the arithmetic or the layout shows here.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../coordinator/results/results_file.h"
#include "../../coordinator/numbers/aggregate.h"
#include "../../coordinator/report/html_kit.h"
#include "../../coordinator/report/report.h"
#include "../../proto/clock.h"
#include "../../proto/version.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MS (NS_PER_MSEC)
#define US (NS_PER_USEC)
#define SEC (NS_PER_SEC)
#define GIB (1024ULL * 1024 * 1024)

#define LINES_MAX 128


//  --------------------------------------------------------------------------
//  Fixture

//  Set a stream's identity and figures; it is finished unless told.
static void
s_stream_set (stream_result_t *stream, const char *agent, const char *job, int job_class,
              uint32_t index, uint64_t bytes,
              int64_t start_ns, int64_t last_write_ns, int64_t end_ns, int64_t uncertainty_ns)
{
    memset (stream, 0, sizeof (*stream));
    snprintf (stream->agent, sizeof (stream->agent), "%s", agent);
    snprintf (stream->job, sizeof (stream->job), "%s", job);
    char path [JOB_PATH_MAX + 1];
    snprintf (path, sizeof path, "/x/%s.%u", job, index);
    assert_int_equal (stream_result_set_path (stream, path), 0);
    stream->job_class = job_class;
    stream->index = index;
    stream->finished = true;
    stream->bytes = bytes;
    stream->start_ns = start_ns;
    stream->last_write_ns = last_write_ns;
    stream->end_ns = end_ns;
    stream->usr_ns = 10 * MS;
    stream->sys_ns = 190 * MS;
    stream->clock_uncertainty_ns = uncertainty_ns;
}

//  2026-11-30 03:10:00 UTC in ns since the epoch.
static int64_t
s_started_wall_ns (void)
{
    struct tm utc = {
        .tm_year = 2026 - 1900, .tm_mon = 10, .tm_mday = 30,
        .tm_hour = 3, .tm_min = 10, .tm_sec = 0
    };
    return (int64_t) timegm (&utc) * SEC;
}

//  Set a test's name and allocate its streams.
static test_result_t *
s_test_set (test_result_t *test, const char *name, uint32_t iteration, size_t streams)
{
    memset (test, 0, sizeof (*test));
    snprintf (test->name, sizeof (test->name), "%s", name);
    test->iteration = iteration;
    test->announced_wall_ns = s_started_wall_ns () + 250 * MS;
    test->streams = calloc (streams, sizeof (stream_result_t));
    assert_non_null (test->streams);
    test->stream_count = streams;
    return test;
}

//  The run every test here reads.
static void
s_run_build (run_result_t *run)
{
    memset (run, 0, sizeof (*run));
    snprintf (run->scenario_path, sizeof (run->scenario_path), "configs/demo.ini");
    run->started_wall_ns = s_started_wall_ns ();

    run->agents = calloc (2, sizeof (agent_info_t));
    assert_non_null (run->agents);
    run->agent_count = 2;
    agent_info_t *a1 = &run->agents [0];
    snprintf (a1->name, sizeof (a1->name), "a1");
    snprintf (a1->endpoint, sizeof (a1->endpoint), "tcp://192.0.2.10:7654");
    snprintf (a1->hostname, sizeof (a1->hostname), "deb12");
    snprintf (a1->kernel, sizeof (a1->kernel), "6.1.0-18-amd64");
    a1->cpus = 2;
    a1->mem_bytes = 25125558682ULL;             //  23.4 GiB
    a1->clock_offset_ns = 4 * US;
    a1->clock_rtt_ns = 61 * US;
    agent_info_t *a2 = &run->agents [1];
    snprintf (a2->name, sizeof (a2->name), "a2");
    snprintf (a2->endpoint, sizeof (a2->endpoint), "tcp://192.0.2.20:7654");
    snprintf (a2->hostname, sizeof (a2->hostname), "nfs-server-1");
    snprintf (a2->kernel, sizeof (a2->kernel), "6.12.0-rc3-test");
    a2->cpus = 16;
    a2->mem_bytes = 64 * GIB;
    a2->insecure = true;
    a2->clock_offset_ns = -1234567;             //  -1.235 ms
    a2->clock_rtt_ns = 50 * US;

    run->tests = calloc (3, sizeof (test_result_t));
    assert_non_null (run->tests);
    run->test_count = run->test_capacity = 3;

    //  dd2: two streams on a1, the second ran out of space.
    //    s0: 268435456 B, 0.003 .. 410.2 ms (last write 398.0 ms):
    //        268435456 / 0.410197 s = 654.4 MB/s, to last write
    //        268435456 / 0.397997 s = 674.5 MB/s
    //    s1: 1048576 B, 0.012 .. 21 ms: 1048576 / 0.020988 s = 49.96 MB/s
    //        ("50", but "50.0" in a list), to last write 52.46 MB/s
    //    combined: 269484032 B / (410.2 - 0.003) ms = 657.0 MB/s
    //    stream skew 12 - 3 us = 0.009 ms
    test_result_t *dd2 = s_test_set (&run->tests [0], "dd2", 1, 2);
    s_stream_set (&dd2->streams [0], "a1", "dd2", CLASS_DISK, 0, 268435456,
                  3 * US, 398 * MS, 410200 * US, 20 * US);
    s_stream_set (&dd2->streams [1], "a1", "dd2", CLASS_DISK, 1, 1048576,
                  12 * US, 20 * MS, 21 * MS, 20 * US);
    assert_int_equal (stream_result_set_error (&dd2->streams [1],
                                               "write(/x/dd2.2): No space left on device"), 0);
    assert_int_equal (stream_result_add_sample (&dd2->streams [0], 100 * MS, 67108864), 0);
    assert_int_equal (stream_result_add_sample (&dd2->streams [0], 200 * MS, 134217728), 0);
    assert_int_equal (stream_result_add_sample (&dd2->streams [1], 10 * MS, 524288), 0);

    //  mix3, second iteration: a1 writes to its disk, a2 copies twice
    //  from the network.
    //    disk: 96e6 B, 1.000 .. 1001.000 ms = 96 MB/s
    //    net:  35e6 B each, 1.021 .. 2001.021 ms and 1.030 .. 2001.030 ms
    //          = 17.5 MB/s each
    //    combined: 166e6 B / 2000.03 ms = 83.0 MB/s
    //    all-running [1.030, 1001.000] ms = 999.97 ms: disk 95.99712e6 B,
    //      net0 bends at its sample (1 s, 17.5 MB): 17.5 MB less its
    //      first 9 us at 17.5 / 998.979 MB/ms, plus 1 ms at 17.5 / 1001.021
    //      MB/ms = 17.517324 MB; net1 17.5 * 0.99997 = 17.499475 MB;
    //      131.013919 MB / 0.99997 s = 131.0179 MB/s
    //    host skew 1.021 - 1.000 = 0.021 ms, stream skew 0.030 ms,
    //    clock bound 20 + 25 us = 0.045 ms
    test_result_t *mix3 = s_test_set (&run->tests [1], "mix3", 2, 3);
    s_stream_set (&mix3->streams [0], "a1", "mix3-disk", CLASS_DISK, 0, 96000000,
                  1000 * US, 1001 * MS, 1001 * MS, 20 * US);
    s_stream_set (&mix3->streams [1], "a2", "mix3-net", CLASS_NETWORK, 0, 35000000,
                  1021 * US, 2001021 * US, 2001021 * US, 25 * US);
    s_stream_set (&mix3->streams [2], "a2", "mix3-net", CLASS_NETWORK, 1, 35000000,
                  1030 * US, 2001030 * US, 2001030 * US, 25 * US);
    assert_int_equal (stream_result_add_sample (&mix3->streams [1], 1 * SEC, 17500000), 0);

    //  lost1: a2 vanished before its RESULT; nothing can be computed. Its
    //  path is not UTF-8, as a path on disk may well be.
    test_result_t *lost1 = s_test_set (&run->tests [2], "lost1", 1, 1);
    s_stream_set (&lost1->streams [0], "a2", "lost1", CLASS_DISK, 0, 0, 0, 0, 0, 0);
    lost1->streams [0].finished = false;
    assert_int_equal (stream_result_set_path (&lost1->streams [0], "/x/lost\xff.0"), 0);
    assert_int_equal (stream_result_set_error (&lost1->streams [0], "agent a2 lost"), 0);

    for (size_t nbr = 0; nbr < run->test_count; nbr++)
        aggregate_test (&run->tests [nbr]);
}


//  --------------------------------------------------------------------------
//  Reading the text back

//  The report as text, split into lines (empty lines kept).
typedef struct {
    char *text;                     //  the whole report
    char *lines [LINES_MAX];        //  pointers into text
    size_t count;
} report_lines_t;

//  Render the run and split it.
static void
s_render (const run_result_t *run, report_lines_t *report)
{
    size_t length = 0;
    report->text = NULL;
    FILE *memory = open_memstream (&report->text, &length);
    assert_non_null (memory);
    text_report (run, memory);
    assert_int_equal (fclose (memory), 0);
    report->count = 0;
    char *line = report->text;
    while (*line) {
        assert_true (report->count < LINES_MAX);
        char *newline = strchr (line, '\n');
        assert_non_null (newline);          //  every line is terminated
        *newline = 0;
        report->lines [report->count++] = line;
        line = newline + 1;
    }
}

//  Index of the first line at or after from that begins with prefix.
static size_t
s_find_line (const report_lines_t *report, size_t from, const char *prefix)
{
    for (size_t nbr = from; nbr < report->count; nbr++)
        if (strncmp (report->lines [nbr], prefix, strlen (prefix)) == 0)
            return nbr;
    fail_msg ("no line begins with '%s'", prefix);
    return 0;
}

//  A table found in the report: its header line, rows and column starts.
typedef struct {
    size_t header;                  //  line index of the header
    size_t rows;                    //  data rows after it
    size_t columns;
    size_t starts [16];             //  byte offset where each column begins
} table_view_t;

//  Locate a table by its header names and check its alignment: every row
//  has a cell beginning at each column start, after at least two blanks,
//  and each column is exactly as wide as its widest cell. Rows end at a
//  line that is empty or begins with "FAILED".
static table_view_t
s_check_table (const report_lines_t *report, size_t from, const char *indent,
               const char *const *names, size_t columns)
{
    table_view_t table = { .columns = columns };
    char prefix [64];
    snprintf (prefix, sizeof (prefix), "%s%s  ", indent, names [0]);
    table.header = s_find_line (report, from, prefix);
    const char *header = report->lines [table.header];
    const char *at = header;
    for (size_t column = 0; column < columns; column++) {
        const char *name = strstr (at, names [column]);
        assert_non_null (name);
        table.starts [column] = (size_t) (name - header);
        at = name + strlen (names [column]);
    }
    //  The last header cell ends the line: no trailing blanks.
    assert_string_equal (header + table.starts [columns - 1], names [columns - 1]);

    size_t last = table.header;
    while (last + 1 < report->count && report->lines [last + 1][0]
    &&     strncmp (report->lines [last + 1], "FAILED", 6) != 0)
        last++;
    table.rows = last - table.header;
    assert_true (table.rows > 0);

    bool tight [16] = { false };
    for (size_t nbr = table.header; nbr <= last; nbr++) {
        const char *line = report->lines [nbr];
        size_t length = strlen (line);
        assert_true (strncmp (line, indent, strlen (indent)) == 0);
        assert_true (line [length - 1] != ' ');
        for (size_t column = 1; column < columns; column++) {
            size_t start = table.starts [column];
            if (length <= start)
                fail_msg ("line '%s' ends before column %zu", line, column);
            if (line [start] == ' ' || line [start - 1] != ' ' || line [start - 2] != ' ')
                fail_msg ("line '%s' is not aligned at column %zu", line, column);
            //  A cell ending right before the gap makes the column tight.
            if (line [start - 3] != ' ')
                tight [column - 1] = true;
        }
    }
    for (size_t column = 0; column + 1 < columns; column++)
        if (!tight [column])
            fail_msg ("column %zu is wider than its widest cell", column);
    return table;
}

//  Cell (row, column) of a table, blanks around it trimmed, in buf.
static const char *
s_cell (const report_lines_t *report, const table_view_t *table, size_t row, size_t column,
        char *buf, size_t buflen)
{
    const char *line = report->lines [table->header + row];
    size_t start = table->starts [column];
    size_t end = column + 1 < table->columns? table->starts [column + 1]: strlen (line);
    while (end > start && line [end - 1] == ' ')
        end--;
    snprintf (buf, buflen, "%.*s", (int) (end - start), line + start);
    return buf;
}

static const char *const s_agent_names [] = {
    "agent", "host", "kernel", "cpus", "memory", "clock offset", "rtt"
};
static const char *const s_test_names [] = {
    "test", "streams", "per stream", "combined", "all-running", "%sys", "%iowait",
    "host skew", "stream skew", "clock ±"
};
static const char *const s_stream_names [] = {
    "agent", "job", "stream", "bytes", "start ms", "last write ms", "end ms",
    "MB/s", "MB/s to last write", "usr s", "sys s", "sys s/GB"
};

//  Assert that a table row reads as expected, cell by cell.
static void
s_assert_row (const report_lines_t *report, const table_view_t *table, size_t row,
              const char *const *expected)
{
    char buf [256];
    for (size_t column = 0; column < table->columns; column++)
        assert_string_equal (s_cell (report, table, row, column, buf, sizeof (buf)),
                             expected [column]);
}


//  --------------------------------------------------------------------------
//  Text

//  --units MiB: every rate shown in MiB/s, the notation written again from
//  the streams; what is stored stays MB/s.
static void
test_text_in_mib (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    run.units = UNITS_MIB;
    report_lines_t report;
    s_render (&run, &report);
    assert_string_equal (report.lines [1],
        "rates in MiB/s (2^20 bytes/s); a stream's window ends after its fsync when fsync is on");
    static const char *const mib_stream_names [] = {
        "agent", "job", "stream", "bytes", "start ms", "last write ms", "end ms",
        "MiB/s", "MiB/s to last write", "usr s", "sys s", "sys s/GB"
    };
    size_t line = s_find_line (&report, 0, "dd2: ");
    table_view_t dd2 = s_check_table (&report, line, "  ", mib_stream_names, 12);
    char buf [64];
    //  268435456 bytes in 0.410197 s: 654.4 MB/s = 624.1 MiB/s
    char expected [64];
    aggregate_format_rate (aggregate_stream_rate_mbps (&run.tests [0].streams [0]) * 1e6 / 1048576,
                           expected, sizeof expected);
    assert_string_equal (s_cell (&report, &dd2, 1, 7, buf, sizeof buf), expected);
    assert_string_equal (expected, "624");
    table_view_t tests = s_check_table (&report, 0, "", s_test_names, 10);
    //  mix3's streams: 96/2x17.5 MB/s are 91.6/2x16.7 MiB/s
    assert_string_equal (s_cell (&report, &tests, 2, 2, buf, sizeof buf), "91.6/2x16.7");
    assert_string_equal (run.tests [1].summary.disk.notation, "96");
    assert_int_equal (aggregate_units_parse ("MiB"), UNITS_MIB);
    assert_int_equal (aggregate_units_parse ("MB/s"), UNITS_MB);
    assert_int_equal (aggregate_units_parse ("GB"), -1);
    free (report.text);
    run_result_clear (&run);
}

static void
test_text_header_and_agents (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    report_lines_t report;
    s_render (&run, &report);

    assert_string_equal (report.lines [0],
        "iofleet " IOFLEET_VERSION "  scenario configs/demo.ini  started 2026-11-30 03:10:00 UTC");
    assert_string_equal (report.lines [1],
        "rates in MB/s (10^6 bytes/s); a stream's window ends after its fsync when fsync is on");
    assert_string_equal (report.lines [2], "");

    table_view_t agents = s_check_table (&report, 0, "", s_agent_names, 7);
    assert_int_equal (agents.rows, 2);
    const char *a1 [] = { "a1", "deb12", "6.1.0-18-amd64", "2", "23.4 GiB", "+0.004 ms", "0.061 ms" };
    const char *a2 [] = { "a2", "nfs-server-1", "6.12.0-rc3-test", "16", "64.0 GiB", "-1.235 ms", "0.050 ms" };
    s_assert_row (&report, &agents, 1, a1);
    s_assert_row (&report, &agents, 2, a2);
    free (report.text);
    run_result_clear (&run);
}

static void
test_text_tests_table (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    report_lines_t report;
    s_render (&run, &report);

    table_view_t tests = s_check_table (&report, 0, "", s_test_names, 10);
    assert_int_equal (tests.rows, 3);
    char all_running [32];
    aggregate_format_rate (run.tests [0].summary.all_running_mbps, all_running, sizeof (all_running));
    //  No host sent its figures in this run: the CPU columns say "-".
    //  One of dd2's streams failed: its combined figure is partial.
    const char *dd2 [] = { "dd2", "2", "654+50.0", "657 partial", all_running, "-", "-", "-",
                           "0.009 ms", "-" };
    const char *mix3 [] = { "mix3 #2", "3", "96/2x17.5", "83", "131", "-", "-", "0.021 ms",
                            "0.030 ms", "0.045 ms" };
    const char *lost1 [] = { "lost1", "1", "-", "-", "-", "-", "-", "-", "-", "-" };
    s_assert_row (&report, &tests, 1, dd2);
    s_assert_row (&report, &tests, 2, mix3);
    s_assert_row (&report, &tests, 3, lost1);
    //  dd2's all-running is a number: both its streams have a window.
    assert_true (isfinite (run.tests [0].summary.all_running_mbps));

    //  The failed streams, right under the table.
    size_t failed = tests.header + tests.rows + 1;
    assert_string_equal (report.lines [failed],
        "FAILED  test dd2 agent a1 job dd2 stream 1: write(/x/dd2.2): No space left on device (bytes 1048576)");
    assert_string_equal (report.lines [failed + 1],
        "FAILED  test lost1 agent a2 job lost1 stream 0: agent a2 lost (bytes 0)");
    assert_string_equal (report.lines [failed + 2], "");
    free (report.text);
    run_result_clear (&run);
}

static void
test_text_details (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    report_lines_t report;
    s_render (&run, &report);

    size_t line = s_find_line (&report, 0, "dd2: ");
    assert_string_equal (report.lines [line],
        "dd2: 2 streams on 1 host (1 failed), 269484032 bytes, window 0.003 .. 410.2 ms");
    table_view_t dd2 = s_check_table (&report, line, "  ", s_stream_names, 12);
    assert_int_equal (dd2.rows, 2);
    //  sys s/GB: 0.19 s / 0.268435456 GB = 0.708; / 0.001048576 GB = 181.198
    const char *s0 [] = { "a1", "dd2", "0", "268435456", "0.003", "398.0", "410.2",
                          "654", "674", "0.01", "0.19", "0.708" };
    const char *s1 [] = { "a1", "dd2", "1", "1048576", "0.012", "20.00", "21.00",
                          "50", "52.5", "0.01", "0.19", "181.198" };
    s_assert_row (&report, &dd2, 1, s0);
    s_assert_row (&report, &dd2, 2, s1);

    line = s_find_line (&report, 0, "mix3 #2: ");
    assert_string_equal (report.lines [line],
        "mix3 #2: 3 streams on 2 hosts, 166000000 bytes, window 1.000 .. 2001 ms");
    table_view_t mix3 = s_check_table (&report, line, "  ", s_stream_names, 12);
    assert_int_equal (mix3.rows, 3);
    const char *net1 [] = { "a2", "mix3-net", "1", "35000000", "1.030", "2001", "2001",
                            "17.5", "17.5", "0.01", "0.19", "5.429" };
    s_assert_row (&report, &mix3, 3, net1);

    //  A stream that never reported shows only what is known of it.
    line = s_find_line (&report, 0, "lost1: ");
    assert_string_equal (report.lines [line],
        "lost1: 1 stream on 1 host (1 failed), 0 bytes, window -");
    table_view_t lost1 = s_check_table (&report, line, "  ", s_stream_names, 12);
    const char *lost [] = { "a2", "lost1", "0", "0", "-", "-", "-", "-", "-", "-", "-", "-" };
    s_assert_row (&report, &lost1, 1, lost);
    //  The report ends with that table.
    assert_int_equal (lost1.header + lost1.rows + 1, report.count);
    free (report.text);
    run_result_clear (&run);
}

static void
test_text_widens_columns (void **state)
{
    (void) state;
    //  A long test name and kernel release widen their columns; the
    //  alignment checks inside s_check_table still hold.
    run_result_t run;
    s_run_build (&run);
    snprintf (run.tests [1].name, sizeof (run.tests [1].name), "a-rather-long-test-name");
    snprintf (run.agents [0].kernel, sizeof (run.agents [0].kernel), "6.1.0-18-amd64+very-long-local-build");
    report_lines_t report;
    s_render (&run, &report);
    table_view_t tests = s_check_table (&report, 0, "", s_test_names, 10);
    assert_int_equal (tests.starts [1], strlen ("a-rather-long-test-name #2") + 2);
    table_view_t agents = s_check_table (&report, 0, "", s_agent_names, 7);
    assert_int_equal (agents.starts [3], agents.starts [2] + strlen ("6.1.0-18-amd64+very-long-local-build") + 2);
    free (report.text);
    run_result_clear (&run);
}


//  --------------------------------------------------------------------------
//  Files

//  A fresh scratch directory, for the caller to remove.
static char *
s_scratch_dir (void)
{
    const char *base = getenv ("TMPDIR");
    char *path = NULL;
    assert_true (asprintf (&path, "%s/coord_report.XXXXXX", base && *base? base: "/tmp") > 0);
    assert_non_null (mkdtemp (path));
    return path;
}

//  Names in a directory, joined by spaces, in buf.
static const char *
s_dir_listing (const char *path, char *buf, size_t buflen)
{
    DIR *dir = opendir (path);
    assert_non_null (dir);
    buf [0] = 0;
    struct dirent *entry;
    while ((entry = readdir (dir)))
        if (entry->d_name [0] != '.') {
            strncat (buf, entry->d_name, buflen - strlen (buf) - 1);
            strncat (buf, " ", buflen - strlen (buf) - 1);
        }
    closedir (dir);
    return buf;
}

//  Remove a scratch directory and the files in it.
static void
s_scratch_remove (char *path)
{
    DIR *dir = opendir (path);
    assert_non_null (dir);
    struct dirent *entry;
    while ((entry = readdir (dir)))
        if (entry->d_name [0] != '.') {
            char *file = NULL;
            assert_true (asprintf (&file, "%s/%s", path, entry->d_name) > 0);
            unlink (file);
            free (file);
        }
    closedir (dir);
    assert_int_equal (rmdir (path), 0);
    free (path);
}

//  A member of an object, which must be there.
static json_t *
s_get (json_t *object, const char *key)
{
    json_t *value = json_object_get (object, key);
    if (!value)
        fail_msg ("no key '%s'", key);
    return value;
}

static void
test_json_write_and_read_back (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    char *dir = s_scratch_dir ();
    char *path = NULL;
    assert_true (asprintf (&path, "%s/results.json", dir) > 0);
    char err [512] = "";
    assert_int_equal (report_format_write (&report_formats [REPORT_FORMAT_JSON], &run, path, err, sizeof (err)), 0);
    //  Written twice: the second replaces the first the same way.
    assert_int_equal (report_format_write (&report_formats [REPORT_FORMAT_JSON], &run, path, err, sizeof (err)), 0);
    char listing [256];
    assert_string_equal (s_dir_listing (dir, listing, sizeof (listing)), "results.json ");

    json_error_t error;
    json_t *root = json_load_file (path, 0, &error);
    if (!root)
        fail_msg ("results.json: %s at line %d", error.text, error.line);
    assert_string_equal (json_string_value (s_get (root, "iofleet_version")), IOFLEET_VERSION);
    assert_int_equal (json_integer_value (s_get (root, "protocol_version")), IOFLEET_PROTOCOL_VERSION);
    assert_string_equal (json_string_value (s_get (root, "scenario")), "configs/demo.ini");
    assert_string_equal (json_string_value (s_get (root, "started_utc")), "2026-11-30T03:10:00.000Z");
    assert_string_equal (json_string_value (s_get (root, "units")), "MB/s = 10^6 bytes/s");

    json_t *agents = s_get (root, "agents");
    assert_int_equal (json_array_size (agents), 2);
    json_t *a2 = json_array_get (agents, 1);
    assert_string_equal (json_string_value (s_get (a2, "name")), "a2");
    assert_string_equal (json_string_value (s_get (a2, "endpoint")), "tcp://192.0.2.20:7654");
    assert_string_equal (json_string_value (s_get (a2, "hostname")), "nfs-server-1");
    assert_string_equal (json_string_value (s_get (a2, "kernel")), "6.12.0-rc3-test");
    assert_int_equal (json_integer_value (s_get (a2, "cpus")), 16);
    assert_int_equal (json_integer_value (s_get (a2, "mem_bytes")), 64 * GIB);
    assert_true (json_is_true (s_get (a2, "insecure")));
    assert_int_equal (json_integer_value (s_get (a2, "clock_offset_ns")), -1234567);
    assert_int_equal (json_integer_value (s_get (a2, "clock_rtt_ns")), 50 * US);

    json_t *tests = s_get (root, "tests");
    assert_int_equal (json_array_size (tests), 3);
    json_t *mix3 = json_array_get (tests, 1);
    assert_string_equal (json_string_value (s_get (mix3, "name")), "mix3");
    assert_int_equal (json_integer_value (s_get (mix3, "iteration")), 2);
    assert_string_equal (json_string_value (s_get (mix3, "announced_utc")), "2026-11-30T03:10:00.250Z");
    json_t *summary = s_get (mix3, "summary");
    assert_int_equal (json_integer_value (s_get (summary, "streams")), 3);
    assert_int_equal (json_integer_value (s_get (summary, "hosts")), 2);
    assert_int_equal (json_integer_value (s_get (summary, "failed_streams")), 0);
    assert_int_equal (json_integer_value (s_get (summary, "bytes")), 166000000);
    assert_int_equal (json_integer_value (s_get (summary, "first_start_ns")), 1000 * US);
    assert_int_equal (json_integer_value (s_get (summary, "last_end_ns")), 2001030 * US);
    assert_float_equal (json_real_value (s_get (summary, "combined_mbps")), 166e6 * 1e3 / 2000030000.0, 1e-9);
    assert_float_equal (json_real_value (s_get (summary, "all_running_mbps")), 131.0179, 1e-4);
    assert_int_equal (json_integer_value (s_get (summary, "all_running_ns")), 999970 * US);
    assert_int_equal (json_integer_value (s_get (summary, "host_skew_ns")), 21 * US);
    assert_int_equal (json_integer_value (s_get (summary, "stream_skew_ns")), 30 * US);
    assert_int_equal (json_integer_value (s_get (summary, "clock_uncertainty_ns")), 45 * US);
    json_t *network = s_get (summary, "network");
    assert_int_equal (json_integer_value (s_get (network, "streams")), 2);
    assert_int_equal (json_integer_value (s_get (network, "bytes")), 70000000);
    assert_string_equal (json_string_value (s_get (network, "notation")), "2x17.5");
    assert_string_equal (json_string_value (s_get (s_get (summary, "disk"), "notation")), "96");

    json_t *streams = s_get (mix3, "streams");
    assert_int_equal (json_array_size (streams), 3);
    json_t *net0 = json_array_get (streams, 1);
    assert_string_equal (json_string_value (s_get (net0, "agent")), "a2");
    assert_string_equal (json_string_value (s_get (net0, "job")), "mix3-net");
    assert_string_equal (json_string_value (s_get (net0, "class")), "network");
    assert_int_equal (json_integer_value (s_get (net0, "index")), 0);
    assert_string_equal (json_string_value (s_get (net0, "path")), "/x/mix3-net.0");
    assert_true (json_is_true (s_get (net0, "finished")));
    assert_int_equal (json_integer_value (s_get (net0, "bytes")), 35000000);
    assert_int_equal (json_integer_value (s_get (net0, "start_ns")), 1021 * US);
    assert_int_equal (json_integer_value (s_get (net0, "last_write_ns")), 2001021 * US);
    assert_int_equal (json_integer_value (s_get (net0, "end_ns")), 2001021 * US);
    assert_float_equal (json_real_value (s_get (net0, "rate_mbps")), 17.5, 1e-9);
    assert_float_equal (json_real_value (s_get (net0, "write_rate_mbps")), 17.5, 1e-9);
    assert_float_equal (json_real_value (s_get (net0, "usr_s")), 0.01, 1e-12);
    assert_float_equal (json_real_value (s_get (net0, "sys_s")), 0.19, 1e-12);
    assert_int_equal (json_integer_value (s_get (net0, "clock_uncertainty_ns")), 25 * US);
    assert_string_equal (json_string_value (s_get (net0, "error")), "");
    assert_int_equal (json_integer_value (s_get (net0, "samples")), 1);

    //  The failed stream keeps its error and its partial bytes.
    json_t *dd2_s1 = json_array_get (s_get (json_array_get (tests, 0), "streams"), 1);
    assert_string_equal (json_string_value (s_get (dd2_s1, "error")),
                         "write(/x/dd2.2): No space left on device");
    assert_int_equal (json_integer_value (s_get (dd2_s1, "bytes")), 1048576);

    //  NAN becomes null: lost1 has no rate of any kind.
    json_t *lost1 = json_array_get (tests, 2);
    json_t *lost_summary = s_get (lost1, "summary");
    assert_true (json_is_null (s_get (lost_summary, "combined_mbps")));
    assert_true (json_is_null (s_get (lost_summary, "all_running_mbps")));
    assert_true (json_is_null (s_get (s_get (lost_summary, "disk"), "combined_mbps")));
    assert_true (json_is_null (s_get (s_get (lost_summary, "network"), "combined_mbps")));
    json_t *lost_stream = json_array_get (s_get (lost1, "streams"), 0);
    assert_true (json_is_false (s_get (lost_stream, "finished")));
    assert_true (json_is_null (s_get (lost_stream, "rate_mbps")));
    assert_true (json_is_null (s_get (lost_stream, "write_rate_mbps")));
    //  A path that is not UTF-8 is kept, its odd byte replaced.
    assert_string_equal (json_string_value (s_get (lost_stream, "path")), "/x/lost?.0");

    json_decref (root);
    free (path);
    s_scratch_remove (dir);
    run_result_clear (&run);
}

static void
test_text_write (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    char *dir = s_scratch_dir ();
    char *path = NULL;
    assert_true (asprintf (&path, "%s/report.txt", dir) > 0);
    char err [512] = "";
    assert_int_equal (report_format_write (&report_formats [REPORT_FORMAT_TEXT], &run, path, err, sizeof (err)), 0);
    char listing [256];
    assert_string_equal (s_dir_listing (dir, listing, sizeof (listing)), "report.txt ");

    //  The file holds exactly what text_report prints.
    char *expected = NULL;
    size_t expected_length = 0;
    FILE *memory = open_memstream (&expected, &expected_length);
    assert_non_null (memory);
    text_report (&run, memory);
    assert_int_equal (fclose (memory), 0);
    FILE *file = fopen (path, "r");
    assert_non_null (file);
    char *written = calloc (1, expected_length + 2);
    assert_non_null (written);
    size_t written_length = fread (written, 1, expected_length + 1, file);
    fclose (file);
    assert_int_equal (written_length, expected_length);
    assert_memory_equal (written, expected, expected_length);

    free (written);
    free (expected);
    free (path);
    s_scratch_remove (dir);
    run_result_clear (&run);
}

static void
test_write_errors_name_the_path (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    char *dir = s_scratch_dir ();
    char err [512];

    //  A directory that does not exist.
    char *missing = NULL;
    assert_true (asprintf (&missing, "%s/missing/results.json", dir) > 0);
    err [0] = 0;
    assert_int_equal (report_format_write (&report_formats [REPORT_FORMAT_JSON], &run, missing, err, sizeof (err)), -1);
    char *expected = NULL;
    assert_true (asprintf (&expected, "open(%s.tmp): %s", missing, strerror (ENOENT)) > 0);
    assert_string_equal (err, expected);
    free (expected);

    //  A regular file where a directory should be (this also fails for
    //  root, to whom no permission bit says no).
    char *blocker = NULL, *under_file = NULL;
    assert_true (asprintf (&blocker, "%s/blocker", dir) > 0);
    assert_true (asprintf (&under_file, "%s/report.txt", blocker) > 0);
    FILE *file = fopen (blocker, "w");
    assert_non_null (file);
    fclose (file);
    err [0] = 0;
    assert_int_equal (report_format_write (&report_formats [REPORT_FORMAT_TEXT], &run, under_file, err, sizeof (err)), -1);
    assert_non_null (strstr (err, under_file));
    assert_non_null (strstr (err, strerror (ENOTDIR)));

    //  A directory that denies writing, where that means something.
    if (geteuid () != 0) {
        char *locked = NULL, *in_locked = NULL;
        assert_true (asprintf (&locked, "%s/locked", dir) > 0);
        assert_true (asprintf (&in_locked, "%s/results.json", locked) > 0);
        assert_int_equal (mkdir (locked, 0500), 0);
        assert_int_equal (report_format_write (&report_formats [REPORT_FORMAT_JSON], &run, in_locked, err, sizeof (err)), -1);
        assert_non_null (strstr (err, in_locked));
        assert_non_null (strstr (err, strerror (EACCES)));
        rmdir (locked);
        free (locked);
        free (in_locked);
    }

    //  Nothing was left behind but the blocker.
    char listing [256];
    assert_string_equal (s_dir_listing (dir, listing, sizeof (listing)), "blocker ");
    free (missing);
    free (blocker);
    free (under_file);
    s_scratch_remove (dir);
    run_result_clear (&run);
}

static void
test_samples_lines (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    //  A name that needs escaping in JSON.
    snprintf (run.tests [0].streams [1].job, sizeof (run.tests [0].streams [1].job), "dd\"2\\x");

    char *text = NULL;
    size_t length = 0;
    FILE *memory = open_memstream (&text, &length);
    assert_non_null (memory);
    assert_int_equal (results_json_samples_append (&run.tests [0], memory), 0);
    assert_int_equal (results_json_samples_append (&run.tests [1], memory), 0);
    assert_int_equal (fclose (memory), 0);

    //  dd2 has 2 + 1 samples, mix3 has 1: four lines, in that order.
    struct {
        const char *test; int iteration; const char *agent; const char *job;
        int stream; int64_t t_ns; int64_t bytes;
    } expected [] = {
        { "dd2", 1, "a1", "dd2", 0, 100 * MS, 67108864 },
        { "dd2", 1, "a1", "dd2", 0, 200 * MS, 134217728 },
        { "dd2", 1, "a1", "dd\"2\\x", 1, 10 * MS, 524288 },
        { "mix3", 2, "a2", "mix3-net", 0, 1 * SEC, 17500000 },
    };
    assert_true (length > 0);
    assert_int_equal (text [length - 1], '\n');
    size_t lines = 0;
    char *save = NULL;
    for (char *line = strtok_r (text, "\n", &save); line; line = strtok_r (NULL, "\n", &save)) {
        assert_true (lines < 4);
        json_error_t error;
        json_t *sample = json_loads (line, 0, &error);
        if (!sample)
            fail_msg ("line '%s': %s", line, error.text);
        assert_int_equal (json_object_size (sample), 7);
        assert_string_equal (json_string_value (s_get (sample, "test")), expected [lines].test);
        assert_int_equal (json_integer_value (s_get (sample, "iteration")), expected [lines].iteration);
        assert_string_equal (json_string_value (s_get (sample, "agent")), expected [lines].agent);
        assert_string_equal (json_string_value (s_get (sample, "job")), expected [lines].job);
        assert_int_equal (json_integer_value (s_get (sample, "stream")), expected [lines].stream);
        assert_int_equal (json_integer_value (s_get (sample, "t_ns")), expected [lines].t_ns);
        assert_int_equal (json_integer_value (s_get (sample, "bytes")), expected [lines].bytes);
        json_decref (sample);
        lines++;
    }
    assert_int_equal (lines, 4);
    free (text);
    run_result_clear (&run);
}

static void
test_empty_run (void **state)
{
    (void) state;
    //  A run that met no agent and ran nothing still reports and writes.
    run_result_t run;
    memset (&run, 0, sizeof (run));
    report_lines_t report;
    s_render (&run, &report);
    assert_int_equal (report.count, 6);
    assert_string_equal (report.lines [3], "no agents");
    assert_string_equal (report.lines [5], "no test ran");
    free (report.text);

    char *json = results_json_text (&run);
    assert_non_null (json);
    json_error_t error;
    json_t *root = json_loads (json, 0, &error);
    assert_non_null (root);
    assert_int_equal (json_array_size (s_get (root, "tests")), 0);
    assert_int_equal (json_array_size (s_get (root, "agents")), 0);
    json_decref (root);
    free (json);
}

//  One escaper for every page: what HTML gives meaning to, and control
//  and stray bytes as \xNN, never raw; lines kept where asked.
static void
test_html_kit_escapes (void **state)
{
    (void) state;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream (&text, &size);
    assert_non_null (out);
    html_escaped ("a'b\"<c>&\x1B[2J\a\x80\n", out);
    fputc ('|', out);
    html_escaped_lines ("one's\ntwo\x07\n", out);
    fputc ('|', out);
    html_escaped_lines ("", out);
    fclose (out);
    assert_string_equal (text, "a&#39;b&quot;&lt;c&gt;&amp;\\x1B[2J\\x07\\x80\\x0A"
                               "|one&#39;s\ntwo\\x07\n|");
    free (text);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_text_header_and_agents),
        cmocka_unit_test (test_text_tests_table),
        cmocka_unit_test (test_text_details),
        cmocka_unit_test (test_text_in_mib),
        cmocka_unit_test (test_text_widens_columns),
        cmocka_unit_test (test_json_write_and_read_back),
        cmocka_unit_test (test_text_write),
        cmocka_unit_test (test_write_errors_name_the_path),
        cmocka_unit_test (test_samples_lines),
        cmocka_unit_test (test_empty_run),
        cmocka_unit_test (test_html_kit_escapes),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
