/*  tests/unit/coord_status.c: the live status's arithmetic (status_plan.c)
    and its lines (status.c), on streams made by hand: the plan from job
    specs, percent done and ETA from whichever bound a job has, the last
    interval's rate rather than the average since the start, requests/s
    where a job counts requests, the ramp, the hosts' standings and the
    worst named. Every expected figure is worked out beside its samples.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../coordinator/engine/status.h"
#include "../../proto/clock.h"
#include "../../proto/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MB 1000000.0
#define SEC NS_PER_SEC

//  A job of workload with streams, size per stream, runtime and ramp.
static jobspec_t
s_spec (int workload, uint64_t streams, uint64_t size_bytes, int64_t runtime_ns, int64_t ramp_ns)
{
    jobspec_t spec;
    jobspec_defaults (&spec);
    spec.workload = workload;
    spec.streams = streams;
    spec.size_bytes = size_bytes;
    spec.runtime_ns = runtime_ns;
    spec.ramp_ns = ramp_ns;
    spec.interval_ns = SEC;
    spec.requests = 0;
    return spec;
}

//  Samples of a stream: count of them, one a second, bytes [i] at i + 1 s.
static void
s_samples (stream_result_t *stream, const double *bytes, size_t count)
{
    for (size_t i = 0; i < count; i++)
        assert_int_equal (stream_result_add_sample (stream, (int64_t) (i + 1) * SEC,
                                                    (uint64_t) bytes [i]), 0);
}

//  A result of count streams, none finished.
static test_result_t
s_result (stream_result_t *streams, size_t count)
{
    memset (streams, 0, count * sizeof *streams);
    test_result_t result;
    memset (&result, 0, sizeof result);
    result.streams = streams;
    result.stream_count = count;
    return result;
}

static void
s_free_samples (stream_result_t *streams, size_t count)
{
    for (size_t s = 0; s < count; s++)
        free (streams [s].samples);
}

static const status_host_t s_hosts [] = { { "a1", false }, { "a2", false }, { "a3", false } };

//  A 10 s time-bound write with a 2 s ramp, two streams on two hosts at
//  20 MB/s each once the ramp is over (what they did in it counts
//  nowhere: their samples say 0): percent and ETA follow the clock, the
//  ramp shows as such, with no rate yet rather than 0, and past it the
//  rate is the last interval's 40 MB/s, not the 13.3 MB/s average since
//  the start.
static void
test_time_bound (void **state)
{
    (void) state;
    jobspec_t spec = s_spec (WORKLOAD_WRITE, 2, 1000 * 1000 * 1000, 10 * SEC, 2 * SEC);
    const jobspec_t *specs [] = { &spec };
    size_t first [] = { 0 };
    status_plan_t plan;
    assert_int_equal (status_plan_init (&plan, specs, first, 1, 0, 2), 0);
    assert_int_equal (plan.job_count, 1);
    assert_int_equal (plan.interval_ns, SEC);
    plan.test = "w";
    plan.iteration = 1;
    stream_result_t streams [2];
    test_result_t result = s_result (streams, 2);
    size_t stream_host [] = { 0, 1 };
    double bytes [] = { 0, 0, 20 * MB };

    s_samples (&streams [0], bytes, 1);
    s_samples (&streams [1], bytes, 1);
    status_plan_tally (&plan, &result, s_hosts, stream_host, 1500 * NS_PER_MSEC);
    const status_figures_t *f = status_plan_figures (&plan);
    assert_true (f->ramp);
    assert_false (f->done);
    assert_float_equal (f->pct, 15.0, 1e-9);
    assert_float_equal (f->eta_s, 8.5, 1e-9);
    assert_true (isnan (f->mbps));                  //  no sample past the ramp yet
    assert_true (isnan (f->rps));                   //  a write counts no requests
    char line [STATUS_LINE_MAX];
    status_line (line, sizeof line, &plan, s_hosts, false);
    assert_non_null (strstr (line, "w #1  ramp  15%  eta 8.5 s  1.5 s  - MB/s  hosts 2: 2 running"));
    assert_null (strstr (line, "req/s"));

    free (streams [0].samples);
    free (streams [1].samples);
    streams [0].samples = streams [1].samples = NULL;
    streams [0].sample_count = streams [1].sample_count = 0;
    streams [0].sample_capacity = streams [1].sample_capacity = 0;
    s_samples (&streams [0], bytes, 3);
    s_samples (&streams [1], bytes, 3);
    status_plan_tally (&plan, &result, s_hosts, stream_host, 3200 * NS_PER_MSEC);
    assert_false (f->ramp);
    assert_float_equal (f->pct, 32.0, 1e-9);
    assert_float_equal (f->eta_s, 6.8, 1e-9);
    assert_float_equal (f->mbps, 40.0, 1e-9);
    assert_int_equal (f->running, 2);
    assert_int_equal (f->hosts, 2);
    status_line (line, sizeof line, &plan, s_hosts, true);
    assert_string_equal (line, "status test=w iteration=1 phase=- state=run elapsed_s=3.2 "
                         "pct=32.0 eta_s=6.8 mbps=40.0 iops=- hosts=2 running=2 slow=0 lost=0 "
                         "done=0 worst=a1,a2");
    status_line (line, sizeof line, &plan, s_hosts, false);
    assert_non_null (strstr (line, "  run  32%  eta 6.8 s  3.2 s  40.0 MB/s  hosts 2: 2 running, "
                                   "0 slow, 0 lost, 0 done; a1 20.0 MB/s, a2 20.0 MB/s"));

    //  Both finished: done, whatever the clock says.
    streams [0].finished = streams [1].finished = true;
    status_plan_tally (&plan, &result, s_hosts, stream_host, 4 * SEC);
    assert_true (f->done);
    assert_float_equal (f->pct, 100.0, 1e-9);
    assert_float_equal (f->eta_s, 0.0, 1e-9);
    assert_int_equal (f->finished, 2);
    s_free_samples (streams, 2);
    status_plan_clear (&plan);
    status_plan_clear (&plan);

    //  A ramp of 1.5 s: the interval from 1 s to 2 s began at its end,
    //  5 MB in 0.5 s.
    spec.ramp_ns = 1500 * NS_PER_MSEC;
    assert_int_equal (status_plan_init (&plan, specs, first, 1, 0, 2), 0);
    result = s_result (streams, 2);
    double straddling [] = { 0, 5 * MB };
    s_samples (&streams [0], straddling, 2);
    status_plan_tally (&plan, &result, s_hosts, stream_host, 2100 * NS_PER_MSEC);
    f = status_plan_figures (&plan);
    assert_false (f->ramp);
    assert_float_equal (f->mbps, 10.0, 1e-9);
    s_free_samples (streams, 2);
    status_plan_clear (&plan);
}

//  Bound by size: 100 MB on one stream at 20 MB/s, 40 MB done: 40 %,
//  and 60 MB left at the last interval's rate is 3 s. With a runtime
//  too, whichever comes first: 10 s of runtime against 50 MB/s over
//  100 MB, half done after 1 s, 1 s to go.
static void
test_size_bound (void **state)
{
    (void) state;
    jobspec_t spec = s_spec (WORKLOAD_WRITE, 1, 100 * 1000 * 1000, 0, 0);
    const jobspec_t *specs [] = { &spec };
    size_t first [] = { 0 };
    status_plan_t plan;
    assert_int_equal (status_plan_init (&plan, specs, first, 1, 0, 1), 0);
    stream_result_t streams [1];
    test_result_t result = s_result (streams, 1);
    size_t stream_host [] = { 0 };
    double bytes [] = { 20 * MB, 40 * MB };
    s_samples (&streams [0], bytes, 2);
    status_plan_tally (&plan, &result, s_hosts, stream_host, 2100 * NS_PER_MSEC);
    const status_figures_t *f = status_plan_figures (&plan);
    assert_float_equal (f->pct, 40.0, 1e-9);
    assert_float_equal (f->eta_s, 3.0, 1e-9);
    assert_float_equal (f->mbps, 20.0, 1e-9);
    s_free_samples (streams, 1);
    status_plan_clear (&plan);

    spec.runtime_ns = 10 * SEC;
    assert_int_equal (status_plan_init (&plan, specs, first, 1, 0, 1), 0);
    result = s_result (streams, 1);
    double fast [] = { 50 * MB };
    s_samples (&streams [0], fast, 1);
    status_plan_tally (&plan, &result, s_hosts, stream_host, SEC);
    f = status_plan_figures (&plan);
    assert_float_equal (f->pct, 50.0, 1e-9);
    assert_float_equal (f->eta_s, 1.0, 1e-9);
    s_free_samples (streams, 1);
    status_plan_clear (&plan);
}

//  Requests: a randrw of 1000 requests of 16 KiB, 100 done in the first
//  second and 200 more in the next: 200 requests/s and their 3.2768
//  MB/s, 30 % done, 700 left at 200/s is 3.5 s.
static void
test_requests (void **state)
{
    (void) state;
    jobspec_t spec = s_spec (WORKLOAD_RANDRW, 1, 16 * 1024 * 1024, 0, 0);
    spec.bs_bytes = 16384;
    spec.requests = 1000;
    const jobspec_t *specs [] = { &spec };
    size_t first [] = { 0 };
    status_plan_t plan;
    assert_int_equal (status_plan_init (&plan, specs, first, 1, 0, 1), 0);
    assert_true (plan.jobs [0].counts_bytes && plan.jobs [0].counts_requests);
    stream_result_t streams [1];
    test_result_t result = s_result (streams, 1);
    size_t stream_host [] = { 0 };
    double bytes [] = { 100 * 16384.0, 300 * 16384.0 };
    s_samples (&streams [0], bytes, 2);
    status_plan_tally (&plan, &result, s_hosts, stream_host, 2 * SEC);
    const status_figures_t *f = status_plan_figures (&plan);
    assert_float_equal (f->rps, 200.0, 1e-9);
    assert_float_equal (f->mbps, 3.2768, 1e-9);
    assert_float_equal (f->pct, 30.0, 1e-9);
    assert_float_equal (f->eta_s, 3.5, 1e-9);
    char line [STATUS_LINE_MAX];
    status_line (line, sizeof line, &plan, s_hosts, false);
    assert_non_null (strstr (line, "  3.3 MB/s  200 req/s  "));
    s_free_samples (streams, 1);
    status_plan_clear (&plan);
}

//  bonnie's seeks phase: its seeks bound it (as its samples count them,
//  bs each), not the file's size: 8000 seeks of 8K, 2000 done, the last
//  second 1000 seeks/s: 25%, 6 s to go, in seeks per second.
static void
test_seeks_phase (void **state)
{
    (void) state;
    jobspec_t spec = s_spec (WORKLOAD_BONNIE, 1, 64 * 1024 * 1024, 0, 0);
    spec.bs_bytes = 8192;
    spec.seeks = 8000;
    const jobspec_t *specs [] = { &spec };
    size_t first [] = { 0 };
    status_plan_t plan;
    assert_int_equal (status_plan_init (&plan, specs, first, 1, 3, 1), 0);
    assert_false (plan.jobs [0].counts_bytes);
    stream_result_t streams [1];
    test_result_t result = s_result (streams, 1);
    size_t stream_host [] = { 0 };
    double bytes [] = { 1000 * 8192.0, 2000 * 8192.0 };
    s_samples (&streams [0], bytes, 2);
    status_plan_tally (&plan, &result, s_hosts, stream_host, 2 * SEC);
    const status_figures_t *f = status_plan_figures (&plan);
    assert_float_equal (f->rps, 1000.0, 1e-9);
    assert_float_equal (f->pct, 25.0, 1e-9);
    assert_float_equal (f->eta_s, 6.0, 1e-9);
    //  Its output phase is bound by the file's size.
    status_plan_clear (&plan);
    assert_int_equal (status_plan_init (&plan, specs, first, 1, 0, 1), 0);
    assert_float_equal (plan.jobs [0].planned_bytes, 64.0 * 1024 * 1024, 1e-9);
    s_free_samples (streams, 1);
    status_plan_clear (&plan);
}

//  Two jobs and a job of no known size: the phase is as far as its
//  least advanced open job, ends with its latest, and a copy of a whole
//  file leaves both unknown; a finished job no longer counts. A monitor
//  has no place in the plan.
static void
test_jobs (void **state)
{
    (void) state;
    jobspec_t quick = s_spec (WORKLOAD_WRITE, 1, 0, 4 * SEC, 0);
    jobspec_t slow = s_spec (WORKLOAD_WRITE, 1, 0, 10 * SEC, 0);
    jobspec_t copy = s_spec (WORKLOAD_COPY, 1, 0, 0, 0);
    jobspec_t monitor = s_spec (WORKLOAD_MONITOR, 1, 0, 0, 0);
    const jobspec_t *specs [] = { &quick, &monitor, &slow, &copy };
    size_t first [] = { 0, 1, 1, 2 };
    status_plan_t plan;
    assert_int_equal (status_plan_init (&plan, specs, first, 4, 0, 1), 0);
    assert_int_equal (plan.job_count, 3);
    stream_result_t streams [3];
    test_result_t result = s_result (streams, 3);
    size_t stream_host [] = { 0, 0, 0 };
    status_plan_tally (&plan, &result, s_hosts, stream_host, 2 * SEC);
    const status_figures_t *f = status_plan_figures (&plan);
    assert_true (isnan (f->pct));
    assert_true (isnan (f->eta_s));
    streams [2].finished = true;                    //  the copy is done
    status_plan_tally (&plan, &result, s_hosts, stream_host, 2 * SEC);
    assert_float_equal (f->pct, 20.0, 1e-9);        //  the slow one's 2 of 10 s
    assert_float_equal (f->eta_s, 8.0, 1e-9);
    char line [STATUS_LINE_MAX];
    status_line (line, sizeof line, &plan, s_hosts, true);
    assert_non_null (strstr (line, " pct=20.0 eta_s=8.0 mbps=- iops=- "));
    s_free_samples (streams, 3);
    status_plan_clear (&plan);
}

//  Hosts: a3 lost, a2 silent for more than two of its intervals, a1
//  running: a3 named first, then a2, then a1; the line says so.
static void
test_hosts (void **state)
{
    (void) state;
    jobspec_t spec = s_spec (WORKLOAD_WRITE, 3, 0, 20 * SEC, 0);
    const jobspec_t *specs [] = { &spec };
    size_t first [] = { 0 };
    status_plan_t plan;
    assert_int_equal (status_plan_init (&plan, specs, first, 1, 0, 3), 0);
    plan.test = "w";
    stream_result_t streams [3];
    test_result_t result = s_result (streams, 3);
    size_t stream_host [] = { 0, 1, 2 };
    double bytes [] = { 10 * MB, 20 * MB, 30 * MB, 40 * MB, 50 * MB, 60 * MB };
    s_samples (&streams [0], bytes, 6);
    s_samples (&streams [1], bytes, 2);
    s_samples (&streams [2], bytes, 6);
    status_host_t hosts [] = { { "a1", false }, { "a2", false }, { "a3", true } };
    status_plan_tally (&plan, &result, hosts, stream_host, 6 * SEC);
    const status_figures_t *f = status_plan_figures (&plan);
    assert_int_equal (f->running, 1);
    assert_int_equal (f->slow, 1);
    assert_int_equal (f->lost, 1);
    assert_int_equal (plan.worst_named, 3);
    char line [STATUS_LINE_MAX];
    status_line (line, sizeof line, &plan, hosts, true);
    assert_non_null (strstr (line, " running=1 slow=1 lost=1 done=0 worst=a3,a2,a1"));
    status_line (line, sizeof line, &plan, hosts, false);
    assert_non_null (strstr (line, "; a1 10.0 MB/s, a2 10.0 MB/s slow, a3 10.0 MB/s LOST"));
    s_free_samples (streams, 3);
    status_plan_clear (&plan);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_time_bound),
        cmocka_unit_test (test_size_bound),
        cmocka_unit_test (test_requests),
        cmocka_unit_test (test_seeks_phase),
        cmocka_unit_test (test_jobs),
        cmocka_unit_test (test_hosts),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
