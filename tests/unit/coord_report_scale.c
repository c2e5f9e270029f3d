/*  tests/unit/coord_report_scale.c: the reports and the status line at the
    size of a fleet.

    Every writer, the aggregation and the status line take time linear in
    the streams: ten times the streams (and hosts) take about ten times as
    long, not a hundred. The page of 256 hosts of 120 samples is a heat
    map under 2 MB; the text report names the slowest hosts; the status
    line of a fleet is one line that counts and names the worst.
*/
#include "../../coordinator/results/results_file.h"
#include "../../coordinator/numbers/aggregate.h"
#include "../../coordinator/numbers/latency.h"
#include "../../coordinator/engine/status.h"
#include "../../coordinator/report/report.h"
#include "../../proto/clock.h"
#include "../../proto/workload.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Ten times the streams may take at most this many times as long: ten
//  for a linear writer, with room for caches and a loaded machine; a
//  quadratic one takes a hundred.
#define S_RATIO_MAX 30

//  A run of one test: streams spread over hosts (stream k on host k %
//  hosts, named c00000...), each with samples one second apart at a rate
//  of its own and a latency histogram of its writes, and every host's
//  figures.
static void
s_make_run (run_result_t *run, size_t streams, size_t hosts, size_t samples)
{
    memset (run, 0, sizeof *run);
    snprintf (run->scenario_path, sizeof run->scenario_path, "fleet.ini");
    run->agents = calloc (hosts, sizeof (agent_info_t));
    run->tests = calloc (1, sizeof (test_result_t));
    assert_non_null (run->agents);
    assert_non_null (run->tests);
    run->agent_count = hosts;
    run->test_count = run->test_capacity = 1;
    for (size_t h = 0; h < hosts; h++) {
        agent_info_t *agent = &run->agents [h];
        snprintf (agent->name, sizeof agent->name, "c%05zu", h);
        snprintf (agent->kernel, sizeof agent->kernel, "6.1.%zu", h % 3);
        agent->cpus = 2;
        agent->mem_bytes = 8ULL << 30;
    }
    test_result_t *test = &run->tests [0];
    snprintf (test->name, sizeof test->name, "dd");
    snprintf (test->test, sizeof test->test, "dd");
    test->iteration = 1;
    test->streams = calloc (streams, sizeof (stream_result_t));
    test->hosts = calloc (hosts, sizeof (host_result_t));
    assert_non_null (test->streams);
    assert_non_null (test->hosts);
    test->stream_count = streams;
    test->host_count = hosts;
    histogram_t *latency = histogram_new ();
    assert_non_null (latency);
    for (size_t s = 0; s < streams; s++) {
        stream_result_t *stream = &test->streams [s];
        histogram_init (latency);
        for (int64_t k = 1; k <= 4; k++)
            histogram_record (latency, k * 1000 * (int64_t) (1 + s % 97));
        assert_int_equal (latency_store (&stream->latency [MSG_LATENCY_WRITE], latency), 0);
        snprintf (stream->agent, sizeof stream->agent, "c%05zu", s % hosts);
        snprintf (stream->job, sizeof stream->job, "dd.c%05zu", s % hosts);
        char path [JOB_PATH_MAX + 1];
        snprintf (path, sizeof path, "/data/dd-c%05zu", s % hosts);
        assert_int_equal (stream_result_set_path (stream, path), 0);
        stream->index = (uint32_t) (s / hosts);
        stream->finished = true;
        //  A rate of its own, which wanders from interval to interval.
        uint64_t rate = 40000000 + 1000 * (uint64_t) ((s * 7919) % 5000);     //  B/s
        uint64_t done = 0;
        for (size_t k = 1; k <= samples; k++) {
            done += rate / 10 * (6 + (s * 31 + k * 17) % 9);
            assert_int_equal (stream_result_add_sample (stream, (int64_t) k * NS_PER_SEC,
                                                        done), 0);
        }
        stream->bytes = done + rate;
        stream->start_ns = 1000;
        stream->last_write_ns = stream->end_ns = (int64_t) (samples + 1) * NS_PER_SEC;
    }
    histogram_destroy (&latency);
    for (size_t h = 0; h < hosts; h++) {
        host_result_t *host = &test->hosts [h];
        snprintf (host->agent, sizeof host->agent, "c%05zu", h);
        host->received = true;
        host->counters.cpu_total_ticks = 1000;
        host->counters.cpu_system_ticks = 100 + h % 50;
        host->counters.mem_total_bytes = 8ULL << 30;
    }
    aggregate_test (test);
}

//  Render run with render into memory: the text, the caller's to free.
static char *
s_render_text (report_render_fn *render, const run_result_t *run)
{
    char *text = NULL;
    size_t length = 0;
    FILE *memory = open_memstream (&text, &length);
    assert_non_null (memory);
    assert_int_equal (render (run, memory), 0);
    assert_int_equal (fclose (memory), 0);
    return text;
}

//  Render run with render into memory; returns its length.
static size_t
s_render (report_render_fn *render, const run_result_t *run)
{
    char *text = s_render_text (render, run);
    size_t length = strlen (text);
    free (text);
    return length;
}

//  The status line of run's test at 2.5 s.
static void
s_status (const run_result_t *run, char *line, size_t linelen)
{
    const test_result_t *test = &run->tests [0];
    status_host_t *hosts = calloc (run->agent_count, sizeof *hosts);
    size_t *stream_host = calloc (test->stream_count, sizeof *stream_host);
    assert_non_null (hosts);
    assert_non_null (stream_host);
    for (size_t h = 0; h < run->agent_count; h++)
        hosts [h].name = run->agents [h].name;
    for (size_t s = 0; s < test->stream_count; s++)
        stream_host [s] = s % run->agent_count;
    jobspec_t spec;
    jobspec_defaults (&spec);
    spec.workload = WORKLOAD_WRITE;
    spec.streams = test->stream_count;
    const jobspec_t *specs [] = { &spec };
    size_t first_stream [] = { 0 };
    status_plan_t plan;
    assert_int_equal (status_plan_init (&plan, specs, first_stream, 1, 0, run->agent_count), 0);
    plan.test = test->name;
    status_plan_tally (&plan, test, hosts, stream_host, 5 * NS_PER_SEC / 2);
    status_line (line, linelen, &plan, hosts, false);
    status_plan_clear (&plan);
    free (hosts);
    free (stream_host);
}

//  What is timed: 0 aggregation, 1..4 the formats, 5 the status line.
#define S_STEPS 6
static const char *const s_step_names [S_STEPS] = {
    "aggregate", "text", "json", "csv", "html", "status"
};

//  Do one step on a run, repeats times.
static void
s_step (run_result_t *run, int step, size_t repeats)
{
    for (size_t n = 0; n < repeats; n++)
        if (step == 0)
            aggregate_test (&run->tests [0]);
        else
        if (step <= 4)
            s_render (report_formats [step - 1].render, run);
        else {
            char line [STATUS_LINE_MAX];
            s_status (run, line, sizeof line);
        }
}

//  The best of three timings of a step done repeats times.
static int64_t
s_time_step (run_result_t *run, int step, size_t repeats)
{
    int64_t best = INT64_MAX;
    for (int round = 0; round < 3; round++) {
        int64_t began = clock_now_ns ();
        s_step (run, step, repeats);
        int64_t took = clock_now_ns () - began;
        if (took < best)
            best = took;
    }
    return best;
}

//  How often a step must be done on run to take 5 ms at least, so that
//  the clock's grain and the caches do not decide the ratio.
static size_t
s_repeats (run_result_t *run, int step)
{
    size_t repeats = 1;
    while (repeats < 100000 && s_time_step (run, step, repeats) < 5 * NS_PER_MSEC)
        repeats *= 2;
    return repeats;
}

static void
test_linear_in_streams (void **state)
{
    (void) state;
    //  One stream per host: a writer that passes over the streams per
    //  host is quadratic in both.
    run_result_t small, large;
    s_make_run (&small, 1000, 1000, 10);
    s_make_run (&large, 10000, 10000, 10);
    for (int step = 0; step < S_STEPS; step++) {
        size_t repeats = s_repeats (&small, step);
        int64_t small_ns = s_time_step (&small, step, repeats);
        int64_t large_ns = s_time_step (&large, step, repeats);
        double ratio = (double) large_ns / (double) (small_ns > 0? small_ns: 1);
        printf ("%-10s x%-5zu 1k streams %8.2f ms  10k streams %8.2f ms  ratio %.1f\n",
                s_step_names [step], repeats, small_ns / 1e6, large_ns / 1e6, ratio);
        if (ratio > S_RATIO_MAX)
            fail_msg ("%s: 10k streams took %.1f times as long as 1k", s_step_names [step], ratio);
    }
    run_result_clear (&small);
    run_result_clear (&large);
}

static void
test_page_of_a_fleet_is_small (void **state)
{
    (void) state;
    run_result_t run;
    s_make_run (&run, 256, 256, 120);
    size_t one = s_render (html_report, &run);
    printf ("page of 256 hosts x 120 samples: %zu bytes\n", one);
    assert_true (one < 2 * 1000 * 1000);
    char *text = s_render_text (html_report, &run);
    assert_non_null (strstr (text, "data-kind=\"heatmap\""));
    assert_non_null (strstr (text, "data-rows=\"256\""));
    assert_null (strstr (text, "<polyline class=\"series stream\""));
    //  Nothing stalled: no red cell.
    assert_null (strstr (text, "<path data-level=\"8\""));
    free (text);
    //  A host that moves nothing for a whole cell (three samples here,
    //  cells being a little over one) is a red cell.
    stream_result_t *stalled = &run.tests [0].streams [40];
    for (size_t k = 60; k < 63; k++)
        stalled->samples [k].bytes = stalled->samples [59].bytes;
    text = s_render_text (html_report, &run);
    assert_non_null (strstr (text, "<path data-level=\"8\""));
    free (text);
    run_result_clear (&run);
    //  Four streams on each of 256 hosts: still a row per host.
    s_make_run (&run, 1024, 256, 120);
    size_t four = s_render (html_report, &run);
    printf ("page of 256 hosts x 4 streams x 120 samples: %zu bytes\n", four);
    assert_true (four < 2 * 1000 * 1000);
    run_result_clear (&run);
}

static void
test_text_of_a_fleet (void **state)
{
    (void) state;
    run_result_t run;
    s_make_run (&run, 64, 64, 5);
    //  c00007 is the slowest, c00011 never reported.
    test_result_t *test = &run.tests [0];
    test->streams [7].bytes /= 4;
    test->streams [11].finished = false;
    assert_int_equal (stream_result_set_error (&test->streams [11], "agent lost"), 0);
    aggregate_test (test);
    char *text = s_render_text (text_report, &run);
    assert_non_null (strstr (text, "64 agents (results.json lists every one)"));
    assert_non_null (strstr (text, "  kernel  6.1.0 (22), 6.1.1 (21), 6.1.2 (21)"));
    assert_non_null (strstr (text, "  slowest hosts  "));
    //  The one without a rate first, then the slowest.
    const char *without = strstr (text, "\n  c00011 ");
    const char *slowest = strstr (text, "\n  c00007 ");
    assert_non_null (without);
    assert_non_null (slowest);
    assert_true (without < slowest);
    assert_non_null (strstr (text, "(the 8 slowest of 64 hosts;"));
    //  The per-stream column: count, range, median, and the one without.
    assert_non_null (strstr (text, "  64: "));
    assert_non_null (strstr (text, ", 1 without"));
    //  No table of every stream.
    assert_null (strstr (text, "MB/s to last write"));
    free (text);
    run_result_clear (&run);
}

static void
test_status_of_a_fleet (void **state)
{
    (void) state;
    run_result_t run;
    s_make_run (&run, 64, 64, 2);
    test_result_t *test = &run.tests [0];
    for (size_t s = 0; s < test->stream_count; s++)
        test->streams [s].finished = false;
    //  c00003 is slower than the others; the rest all run.
    test->streams [3].samples [1].bytes = test->streams [3].samples [0].bytes + 1;
    char line [STATUS_LINE_MAX];
    s_status (&run, line, sizeof line);
    assert_null (strchr (line, '\n'));
    if (!strstr (line, "hosts 64: 64 running, 0 slow, 0 lost, 0 done; worst c00003 "))
        fail_msg ("status line: %s", line);
    run_result_clear (&run);
}

//  results.json written one test at a time is the text of the whole
//  document's tree, byte for byte, with tests and without.
static void
test_json_streamed_is_the_document (void **state)
{
    (void) state;
    run_result_t run;
    s_make_run (&run, 40, 20, 3);
    for (size_t tests = 0; tests <= 3; tests++) {
        if (tests > 1) {
            //  More tests: copies of the first, other iterations.
            test_result_t *grown = realloc (run.tests, tests * sizeof *grown);
            assert_non_null (grown);
            run.tests = grown;
            run.tests [tests - 1] = run.tests [0];
            run.tests [tests - 1].iteration = (uint32_t) tests;
        }
        size_t kept = run.test_count;
        run.test_count = tests;
        char *whole = results_json_text (&run);
        char *streamed = s_render_text (results_json_write, &run);
        assert_non_null (whole);
        assert_string_equal (streamed, whole);
        free (whole);
        free (streamed);
        run.test_count = kept;
    }
    //  A test without streams or hosts: empty arrays, as jansson writes them.
    run.test_count = 1;
    size_t streams = run.tests [0].stream_count, hosts = run.tests [0].host_count;
    run.tests [0].stream_count = 0;
    run.tests [0].host_count = 0;
    char *whole = results_json_text (&run);
    char *streamed = s_render_text (results_json_write, &run);
    assert_non_null (whole);
    assert_non_null (strstr (whole, "\"streams\": [],"));
    assert_string_equal (streamed, whole);
    free (whole);
    free (streamed);
    run.tests [0].stream_count = streams;
    run.tests [0].host_count = hosts;
    //  The copies share the first test's arrays: only one is freed.
    run_result_clear (&run);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_linear_in_streams),
        cmocka_unit_test (test_page_of_a_fleet_is_small),
        cmocka_unit_test (test_text_of_a_fleet),
        cmocka_unit_test (test_status_of_a_fleet),
        cmocka_unit_test (test_json_streamed_is_the_document),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
