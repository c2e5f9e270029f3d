/*  tests/unit/agent_time_bound.c: time-bound phases of the write and
    read workloads through the stream API. No request is issued at or
    after the stop instant, even when a `rate` holds a stream back until
    that instant; the last request ended within its own time of it; and
    a stream reports when that request was issued beside when it ended.
    (randrw's runtime is in agent_randrw.c.)
*/
#include "streams.h"

#include <inttypes.h>

//  The stop instant of a phase started at start_at_ns.
static int64_t
s_stop_ns (const jobspec_t *spec, int64_t start_at_ns)
{
    return start_at_ns + spec->runtime_ns;
}

//  Run one time-bound phase of spec from now, and check what every
//  time-bound stream must say of its stop: its last request issued
//  before the instant, ended after it was issued, and not later than its
//  own time past the instant (plus a scheduler's wait, generous on a
//  shared machine).
static void
s_run_to_the_instant (jobspec_t *spec, const char *path, msg_result_t *result)
{
    stream_t *stream = streams_ready (spec, path);
    int64_t start_at_ns = clock_now_ns () + 10 * NS_PER_MSEC;
    stream_start (stream, 0, start_at_ns);
    streams_result (stream, result);
    stream_destroy (&stream);
    if (result->error [0])
        fail_msg ("%s", result->error);
    int64_t stop_ns = s_stop_ns (spec, start_at_ns);
    assert_true (result->last_issue_ns > start_at_ns);
    if (result->last_issue_ns >= stop_ns)
        fail_msg ("the last request was issued %" PRId64 " us after the stop instant",
                  (result->last_issue_ns - stop_ns) / NS_PER_USEC);
    assert_true (result->last_write_ns >= result->last_issue_ns);
    assert_true (result->end_ns >= result->last_write_ns);
    int64_t in_flight_ns = result->last_write_ns - result->last_issue_ns;
    int64_t late_ns = result->last_write_ns - stop_ns;
    assert_true (late_ns <= in_flight_ns);
    assert_true (late_ns < 50 * NS_PER_MSEC);
}

//  A write held back by a rate: 64 KiB blocks at 4 MiB/s, one every
//  15.6 ms, so the wait after the twentieth would end past the stop
//  instant at 300 ms and is cut there. The stream must then stop, not
//  issue one more write at the instant.
static void
test_write_rate_stops_before_the_instant (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = streams_spec (WORKLOAD_WRITE, 64 * MIB, 64 * KIB);
    spec.rate_bytes = 4 * MIB;
    spec.fsync_mode = FSYNC_NONE;
    spec.runtime_ns = 300 * NS_PER_MSEC;
    msg_result_t result;
    s_run_to_the_instant (&spec, fx->path, &result);
    //  Twenty blocks paid for by the instant, at most: the first is free.
    assert_true (result.writes >= 15 && result.writes <= 20);
    assert_int_equal (result.bytes, result.writes * 64 * KIB);
}

//  The same for reads.
static void
test_read_rate_stops_before_the_instant (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = streams_spec (WORKLOAD_READ, 4 * MIB, 64 * KIB);
    spec.rate_bytes = 4 * MIB;
    spec.runtime_ns = 300 * NS_PER_MSEC;
    msg_result_t result;
    s_run_to_the_instant (&spec, fx->path, &result);
    assert_true (result.reads >= 15 && result.reads <= 20);
}

//  Without a rate, blocks of random bytes drawn afresh before each
//  write: the drawing must not carry a write past the instant either.
static void
test_random_write_stops_before_the_instant (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = streams_spec (WORKLOAD_WRITE, 16 * MIB, MIB);
    spec.pattern = PATTERN_RANDOM;
    spec.fsync_mode = FSYNC_END;
    spec.runtime_ns = 200 * NS_PER_MSEC;
    msg_result_t result;
    s_run_to_the_instant (&spec, fx->path, &result);
    assert_true (result.writes > 0);
    assert_int_equal (result.fsyncs, 1);
}

int
main (void)
{
#define CASE(name) cmocka_unit_test_setup_teardown (name, streams_setup, streams_teardown)
    const struct CMUnitTest tests [] = {
        CASE (test_write_rate_stops_before_the_instant),
        CASE (test_read_rate_stops_before_the_instant),
        CASE (test_random_write_stops_before_the_instant),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
