/*  tests/unit/coord_exports.c: the exports for other tools' readers,
    fio's json+ and bonnie++'s CSV, on a run built by hand: a randrw test
    on two hosts (one stream failed), a copy, and a bonnie test's four
    phases. The figures expected are worked out beside each check.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "render.h"
#include "../../coordinator/numbers/aggregate.h"
#include "../../coordinator/numbers/latency.h"
#include "../../proto/clock.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define SEC (NS_PER_SEC)
#define MS (NS_PER_MSEC)

//  Store the values given (ending in -1) as a stream's histogram of kind.
static void
s_latency (stream_result_t *stream, int kind, const int64_t *values)
{
    histogram_t *h = histogram_new ();
    assert_non_null (h);
    for (; *values >= 0; values++)
        histogram_record (h, *values);
    assert_int_equal (latency_store (&stream->latency [kind], h), 0);
    histogram_destroy (&h);
}

//  A finished stream of 2 s.
static stream_result_t *
s_stream (test_result_t *test, const char *agent, const char *job, uint64_t bytes,
          uint64_t reads, uint64_t writes, uint64_t bs_bytes)
{
    stream_result_t *stream = &test->streams [test->stream_count++];
    snprintf (stream->agent, sizeof stream->agent, "%s", agent);
    snprintf (stream->job, sizeof stream->job, "%s", job);
    stream->finished = true;
    stream->bytes = bytes;
    stream->reads = reads;
    stream->writes = writes;
    stream->bs_bytes = bs_bytes;
    stream->end_ns = 2 * SEC;
    stream->usr_ns = 100 * MS;
    stream->sys_ns = 300 * MS;
    return stream;
}

//  A row of the run, with room for streams and hosts.
static test_result_t *
s_test (run_result_t *run, const char *test, const char *phase, uint32_t phase_index,
        const char *workload)
{
    test_result_t *row = &run->tests [run->test_count++];
    snprintf (row->test, sizeof row->test, "%s", test);
    snprintf (row->phase, sizeof row->phase, "%s", phase);
    snprintf (row->name, sizeof row->name, "%s%s%s", test, *phase? "/": "", phase);
    snprintf (row->workload, sizeof row->workload, "%s", workload);
    row->phase_index = phase_index;
    row->iteration = 1;
    row->announced_wall_ns = 1796196443LL * SEC;
    row->streams = calloc (2, sizeof (stream_result_t));
    row->hosts = calloc (2, sizeof (host_result_t));
    assert_true (row->streams && row->hosts);
    row->summary.last_end_ns = 2 * SEC;
    return row;
}

//  The run: rnd (randrw, a1 and a2), cp (copy), bon (bonnie, a1).
static void
s_run_build (run_result_t *run)
{
    memset (run, 0, sizeof *run);
    run->started_wall_ns = 1796196443LL * SEC;
    snprintf (run->scenario_path, sizeof run->scenario_path, "x.ini");
    run->tests = calloc (8, sizeof (test_result_t));
    assert_non_null (run->tests);
    run->test_capacity = 8;

    test_result_t *rnd = s_test (run, "rnd", "", 0, "randrw");
    rnd->rate_requests = true;
    stream_result_t *a = s_stream (rnd, "a1", "r", 4 * 4096, 3, 1, 4096);
    a->fsyncs = 1;
    s_latency (a, MSG_LATENCY_READ, (const int64_t []) { 50, 50, 1000, -1 });
    s_latency (a, MSG_LATENCY_WRITE, (const int64_t []) { 300000, -1 });
    s_latency (a, MSG_LATENCY_FSYNC, (const int64_t []) { 2000000, -1 });
    stream_result_t *b = s_stream (rnd, "a2", "r", 4096, 1, 0, 4096);
    assert_int_equal (stream_result_set_error (b, "pread: EIO"), 0);
    s_latency (b, MSG_LATENCY_READ, (const int64_t []) { 5000, -1 });
    rnd->summary.failed_streams = 1;

    //  A copy: its bytes are written, and read in blocks of the same bytes.
    test_result_t *cp = s_test (run, "cp", "", 0, "copy");
    s_stream (cp, "a1", "c", 1500000, 2, 2, 1 << 20);

    static const char *const phases [] = { "output", "rewrite", "input", "seeks" };
    static const int64_t longest_ns [] = { 5766000, 150000000, 0, 200LL * SEC };
    for (uint32_t p = 0; p < 4; p++) {
        test_result_t *phase = s_test (run, "bon", phases [p], p, "bonnie");
        phase->rate_ops = p == 3;
        s_stream (phase, "a1", "b", 4 << 20, p == 3? 1000: 64, 64, 64 << 10);
        phase->host_count = 1;
        snprintf (phase->hosts [0].agent, sizeof phase->hosts [0].agent, "a1");
        phase->hosts [0].latency.count = longest_ns [p]? 10: 0;
        phase->hosts [0].latency.max_ns = longest_ns [p];
        //  What the host's streams did, as aggregate_test fills it.
        aggregate_host_figures (phase);
    }
}

//  The member path of root ("jobs", 0, "read", "clat_ns", NULL).
static json_t *
s_job (json_t *root, const char *array, size_t nbr)
{
    json_t *job = json_array_get (json_object_get (root, array), nbr);
    assert_non_null (job);
    return job;
}

//  An integer member of a section's latency.
static json_int_t
s_integer (json_t *job, const char *section, const char *latency, const char *key)
{
    json_t *object = json_object_get (json_object_get (job, section), latency);
    json_t *value = json_object_get (object, key);
    assert_true (json_is_integer (value));
    return json_integer_value (value);
}

//  An integer of a section.
static json_int_t
s_figure (json_t *job, const char *section, const char *key)
{
    json_t *value = json_object_get (json_object_get (job, section), key);
    assert_true (json_is_integer (value));
    return json_integer_value (value);
}

static void
test_fio_json (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    char *text = render_report (&run, REPORT_FORMAT_FIO_JSON);
    json_error_t error;
    json_t *root = json_loads (text, 0, &error);
    assert_non_null (root);
    assert_string_equal (json_string_value (json_object_get (root, "fio version")), "fio-3.33");
    assert_int_equal (json_array_size (json_object_get (root, "jobs")), 7);
    //  client_stats: each test's jobs, then its All clients.
    assert_int_equal (json_array_size (json_object_get (root, "client_stats")), 7 + 6);

    //  a1's stream: 3 reads of 4K, 1 write; bins at the values (50 is a
    //  bucket of its own; 1000's bucket [1000, 1007] has its midpoint 1003
    //  clamped to the max, 1000); percentiles of 3 values: rank 2 is 50.
    json_t *job = s_job (root, "jobs", 0);
    assert_string_equal (json_string_value (json_object_get (job, "hostname")), "a1");
    assert_int_equal (json_integer_value (json_object_get (job, "error")), 0);
    assert_int_equal (s_figure (job, "read", "io_bytes"), 3 * 4096);
    assert_int_equal (s_figure (job, "write", "io_bytes"), 4096);
    assert_int_equal (s_figure (job, "read", "total_ios"), 3);
    json_t *options = json_object_get (job, "job options");
    assert_string_equal (json_string_value (json_object_get (options, "rw")), "randrw");
    assert_string_equal (json_string_value (json_object_get (options, "bs")), "4096");
    assert_int_equal (s_figure (job, "read", "runtime"), 2000);
    assert_int_equal (s_figure (job, "read", "bw"), 3 * 4096 / 2 / 1024);
    json_t *bins = json_object_get (json_object_get (json_object_get (job, "read"), "clat_ns"),
                                    "bins");
    assert_int_equal (json_object_size (bins), 2);
    assert_int_equal (json_integer_value (json_object_get (bins, "50")), 2);
    assert_int_equal (json_integer_value (json_object_get (bins, "1000")), 1);
    json_t *percentile = json_object_get (json_object_get (json_object_get (job, "read"),
                                                           "clat_ns"), "percentile");
    assert_int_equal (json_integer_value (json_object_get (percentile, "50.000000")), 50);
    assert_int_equal (json_integer_value (json_object_get (percentile, "99.000000")), 1000);
    assert_int_equal (s_integer (job, "read", "clat_ns", "N"), 3);
    assert_int_equal (s_integer (job, "read", "clat_ns", "min"), 50);
    assert_int_equal (s_integer (job, "read", "lat_ns", "max"), 1000);
    assert_null (json_object_get (json_object_get (json_object_get (job, "read"), "lat_ns"), "bins"));
    assert_int_equal (s_integer (job, "trim", "clat_ns", "N"), 0);
    assert_int_equal (s_figure (job, "sync", "total_ios"), 1);
    assert_int_equal (s_integer (job, "sync", "lat_ns", "max"), 2000000);
    //  100 + 300 ms of CPU over 2 s.
    assert_true (json_real_value (json_object_get (job, "usr_cpu")) == 5.0);
    assert_true (json_real_value (json_object_get (job, "sys_cpu")) == 15.0);

    //  a2's failed stream: fio's EIO, our text beside it.
    job = s_job (root, "jobs", 1);
    assert_int_equal (json_integer_value (json_object_get (job, "error")), 5);
    assert_string_equal (json_string_value (json_object_get (json_object_get (job, "iofleet"),
                                                             "error")), "pread: EIO");

    //  All clients of rnd: the histograms merged, so 1000's bucket is at
    //  its midpoint now that the max is 5000's.
    job = s_job (root, "client_stats", 2);
    assert_string_equal (json_string_value (json_object_get (job, "jobname")), "All clients");
    assert_int_equal (json_integer_value (json_object_get (job, "error")), 5);
    assert_int_equal (s_figure (job, "read", "total_ios"), 4);
    assert_int_equal (s_figure (job, "read", "io_bytes"), 4 * 4096);
    bins = json_object_get (json_object_get (json_object_get (job, "read"), "clat_ns"), "bins");
    assert_int_equal (json_integer_value (json_object_get (bins, "1003")), 1);
    assert_int_equal (json_integer_value (json_object_get (bins, "5000")), 1);
    assert_int_equal (s_integer (job, "read", "clat_ns", "max"), 5000);

    //  The copy: written bytes, and read in blocks of those bytes.
    job = s_job (root, "jobs", 2);
    assert_int_equal (json_integer_value (json_object_get (job, "groupid")), 1);
    assert_int_equal (s_figure (job, "write", "io_bytes"), 1500000);
    assert_int_equal (s_figure (job, "read", "io_bytes"), 1500000);
    assert_string_equal (json_string_value (json_object_get (json_object_get (job, "job options"),
                                                             "rw")), "rw");
    //  Seeks: a block per request.
    job = s_job (root, "jobs", 6);
    assert_int_equal (s_figure (job, "read", "io_bytes"), 1000 * (64 << 10));

    json_decref (root);
    free (text);
    run_result_clear (&run);
}

static void
test_bonnie_csv (void **state)
{
    (void) state;
    run_result_t run;
    s_run_build (&run);
    char *text = render_report (&run, REPORT_FORMAT_BONNIE_CSV);
    //  Output: 4 MiB in 2 s is 2048 K/sec, 400 ms of CPU in 2 s is 20 %CP;
    //  the seeks 1000 in 2 s. The latencies: 5766 us; 150000 us has six
    //  digits, so 150 ms; the input's none; 200 s.
    assert_string_equal (text,
        "1.98,iofleet-,a1,1,1796196443,4M,64k,1000,1,,,2048,20,2048,20,,,2048,20,500.0,20,"
        ",,,,,,,,,,,,,,,,,,5766us,150ms,,,200s,,,,,,\n");
    free (text);
    run_result_clear (&run);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_fio_json),
        cmocka_unit_test (test_bonnie_csv),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
