/*  tests/unit/coord_stop.c: how the streams of a time-bound test stopped
    (aggregate_skews.c), on streams made by hand, and how the reports say
    it: the text report's line, the results file written and read back,
    the CSV's columns.

    Every stream is to stop at 2 s on the test's timeline; times are
    given in microseconds past it and the expected figures worked out
    beside them.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../coordinator/results/results_file.h"
#include "../../coordinator/numbers/aggregate.h"
#include "../../coordinator/report/report.h"
#include "render.h"
#include "../../proto/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define US (NS_PER_USEC)
#define STOP_NS (2 * NS_PER_SEC)

//  A finished stream of agent to stop at STOP_NS, whose last request
//  was issued and ended, and which ended, at those µs past the instant.
static void
s_stream (stream_result_t *stream, const char *agent, uint32_t index,
          int64_t issue_us, int64_t last_write_us, int64_t end_us)
{
    memset (stream, 0, sizeof *stream);
    snprintf (stream->agent, sizeof stream->agent, "%s", agent);
    snprintf (stream->job, sizeof stream->job, "r-%s", agent);
    stream->job_class = CLASS_DISK;
    stream->index = index;
    stream->finished = true;
    stream->bytes = 16384 * 1000;
    stream->writes = 1000;
    stream->bs_bytes = 16384;
    stream->start_ns = NS_PER_SEC / 2;
    stream->stop_ns = STOP_NS;
    stream->last_issue_ns = STOP_NS + issue_us * US;
    stream->last_write_ns = STOP_NS + last_write_us * US;
    stream->end_ns = STOP_NS + end_us * US;
    stream->clock_uncertainty_ns = 20 * US;
}

//  A run of one test on two agents over streams (taken), aggregated.
static void
s_run (run_result_t *run, stream_result_t *streams, size_t count)
{
    memset (run, 0, sizeof *run);
    snprintf (run->scenario_path, sizeof run->scenario_path, "time.ini");
    run->agents = calloc (2, sizeof (agent_info_t));
    run->tests = calloc (1, sizeof (test_result_t));
    assert_non_null (run->agents);
    assert_non_null (run->tests);
    run->agent_count = 2;
    for (int nbr = 0; nbr < 2; nbr++)
        snprintf (run->agents [nbr].name, sizeof run->agents [nbr].name, "a%d", nbr + 1);
    run->test_count = run->test_capacity = 1;
    test_result_t *test = &run->tests [0];
    snprintf (test->name, sizeof test->name, "randrw");
    snprintf (test->bound, sizeof test->bound, "time");
    test->iteration = 1;
    test->streams = streams;
    test->stream_count = count;
    aggregate_test (test);
}

//  Four streams on two hosts, one of which was aborted.
static void
s_four_streams (run_result_t *run)
{
    stream_result_t *streams = calloc (4, sizeof (stream_result_t));
    assert_non_null (streams);
    //  In flight at the instant: issued 400 µs before it, ended 100 µs
    //  after (late 100, in flight 500); its flush took 100 µs more.
    s_stream (&streams [0], "a1", 0, -400, 100, 200);
    //  Its last request ended 50 µs before the instant, then an fsync
    //  round crossed it and the final one: late -50, in flight at the
    //  instant none, tail 3050.
    s_stream (&streams [1], "a1", 1, -100, -50, 3000);
    //  The latest: late 400, in flight 700, tail 50.
    s_stream (&streams [2], "a2", 0, -300, 400, 450);
    //  Aborted: it stopped for another reason, and counts in none of the
    //  stop figures (a long request, late and a long tail).
    s_stream (&streams [3], "a2", 1, -9000, 50000, 60000);
    assert_int_equal (stream_result_set_error (&streams [3], "aborted: interrupted"), 0);
    s_run (run, streams, 4);
}

//  The figures, the latest and longest of the streams that ran to the
//  instant; and the end skew beside them, of every stream that ended.
static void
test_stop_figures (void **state)
{
    (void) state;
    run_result_t run;
    s_four_streams (&run);
    const test_summary_t *summary = &run.tests [0].summary;
    const stop_summary_t *stop = &summary->stop;
    assert_int_equal (stop->streams, 3);
    assert_int_equal (stop->instant_ns, STOP_NS);
    assert_int_equal (stop->late_ns, 400 * US);
    //  Issued 100 µs before the instant at the latest.
    assert_int_equal (stop->issue_late_ns, -100 * US);
    assert_int_equal (stop->in_flight_ns, 700 * US);
    assert_int_equal (stop->tail_ns, 3050 * US);
    //  Ends at 200, 3000, 450 and 60000 µs past the instant.
    assert_int_equal (summary->end_skew_ns, (60000 - 200) * US);

    //  Without the aborted stream the end skew is within the in flight
    //  and the tail: 3000 - 200 <= 700 + 3050.
    run.tests [0].stream_count = 3;
    aggregate_test (&run.tests [0]);
    assert_int_equal (summary->end_skew_ns, (3000 - 200) * US);
    assert_true (summary->end_skew_ns <= stop->in_flight_ns + stop->tail_ns);
    run.tests [0].stream_count = 4;         //  all of them freed
    run_result_clear (&run);
}

//  Streams of a job without a runtime, and a stream that issued nothing,
//  give no stop figures.
static void
test_no_stop_figures (void **state)
{
    (void) state;
    run_result_t run;
    stream_result_t *streams = calloc (2, sizeof (stream_result_t));
    assert_non_null (streams);
    s_stream (&streams [0], "a1", 0, -400, 100, 200);
    streams [0].stop_ns = 0;
    s_stream (&streams [1], "a2", 0, -400, 100, 200);
    streams [1].last_issue_ns = 0;
    s_run (&run, streams, 2);
    assert_int_equal (run.tests [0].summary.stop.streams, 0);
    run_result_clear (&run);
}

//  Below the end skew, how late the streams stopped and why; the
//  streams that did not run to the instant are said apart.
static void
test_stop_text (void **state)
{
    (void) state;
    run_result_t run;
    s_four_streams (&run);
    char *text = render_report (&run, REPORT_FORMAT_TEXT);
    assert_non_null (strstr (text, "\n  time-bound, streams ended 59.800 ms apart\n"
        "  the 3 streams that ran to it stopped within 0.400 ms of the stop instant, 2 s after "
        "the start (the request in flight then: up to 0.700 ms); fsync and close after it: "
        "up to 3.050 ms more\n"));
    free (text);

    //  Every stream, every last request ended by the instant: none was
    //  in flight then.
    run.tests [0].stream_count = 2;
    run.tests [0].streams [0].last_write_ns = STOP_NS - 10 * US;
    aggregate_test (&run.tests [0]);
    text = render_report (&run, REPORT_FORMAT_TEXT);
    assert_non_null (strstr (text, "\n  every stream stopped by the stop instant, 2 s after the "
        "start (no request in flight then); fsync and close after it: up to 3.050 ms more\n"));
    free (text);
    //  And one issued after it (a clock measured again in between): said.
    run.tests [0].streams [1].last_issue_ns = STOP_NS + 30 * US;
    run.tests [0].streams [1].last_write_ns = STOP_NS + 60 * US;
    aggregate_test (&run.tests [0]);
    text = render_report (&run, REPORT_FORMAT_TEXT);
    assert_non_null (strstr (text, "\n  every stream stopped within 0.060 ms of the stop instant, "
        "2 s after the start (the request in flight then: up to 0.030 ms; one issued 0.030 ms "
        "after the instant); fsync and close after it: up to 2.940 ms more\n"));
    free (text);
    run.tests [0].stream_count = 4;         //  all of them freed
    run_result_clear (&run);
}

//  The results file keeps every figure: read back, it renders the same,
//  and the CSV lists the streams' stop and last issue beside their
//  other times.
static void
test_stop_round_trip (void **state)
{
    (void) state;
    run_result_t run;
    s_four_streams (&run);
    char dir [64], path [96], err [256];
    snprintf (dir, sizeof dir, "%s/coord-stop.XXXXXX", getenv ("TMPDIR")? getenv ("TMPDIR"): "/tmp");
    assert_non_null (mkdtemp (dir));
    snprintf (path, sizeof path, "%s/results.json", dir);
    assert_int_equal (report_format_write (&report_formats [REPORT_FORMAT_JSON], &run, path,
                                           err, sizeof err), 0);
    run_result_t again;
    memset (&again, 0, sizeof again);
    assert_int_equal (results_read_no_samples (path, &again, err, sizeof err), 0);
    unlink (path);
    rmdir (dir);
    const stop_summary_t *stop = &again.tests [0].summary.stop;
    assert_memory_equal (stop, &run.tests [0].summary.stop, sizeof *stop);
    assert_int_equal (again.tests [0].streams [2].stop_ns, STOP_NS);
    assert_int_equal (again.tests [0].streams [2].last_issue_ns, STOP_NS - 300 * US);
    for (report_format_id_t format = 0; format < REPORT_FORMAT_COUNT; format++) {
        char *first = render_report (&run, format);
        char *second = render_report (&again, format);
        assert_string_equal (first, second);
        free (first);
        free (second);
    }
    char *csv = render_report (&run, REPORT_FORMAT_CSV);
    assert_non_null (strstr (csv, ",start_ns,stop_ns,last_issue_ns,last_write_ns,end_ns,"));
    assert_non_null (strstr (csv, ",500000000,2000000000,1999700000,2000400000,2000450000,"));
    free (csv);
    run_result_clear (&again);
    run_result_clear (&run);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_stop_figures),
        cmocka_unit_test (test_no_stop_figures),
        cmocka_unit_test (test_stop_text),
        cmocka_unit_test (test_stop_round_trip),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
