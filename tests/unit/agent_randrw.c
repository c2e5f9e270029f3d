/*  tests/unit/agent_randrw.c: the randrw workload as the agent runs it,
    a job at a time (job_new: the job's streams share one file set):
    requests split exactly among the streams, reads and writes in the
    ratio to the request, an fsync round after every fsync_every requests
    of a stream and a last one over the files it wrote, a latency count
    for every request counted; rndrd and rndwr; a ramp that leaves
    requests out and a runtime that stops every stream at one instant;
    a set laid out once and used again, kept for the session and removed
    when it ends; and what the agent refuses.
*/
#include "randrw_jobs.h"

#include "../../agent/kept.h"

#include <fcntl.h>
#include <inttypes.h>

//  Path of file `index` (0-based) of the set set/f under the root.
static void
s_set_file (const fixture_t *fx, uint64_t files, uint64_t index, char *path, size_t pathlen)
{
    if (files == 1)
        snprintf (path, pathlen, "%s/set/f", fx->dir);
    else
        snprintf (path, pathlen, "%s/set/f.%llu", fx->dir, (unsigned long long) index + 1);
}

//  Requests split exactly, reads in the ratio to the request, fsync rounds
//  of every file after every fsync_every requests of a stream and a last
//  one of every file the stream wrote, a latency for every request.
static void
test_requests_ratio_and_fsyncs (void **state)
{
    jobs_requests_exact (*state, JOB_ENGINE_PSYNC, 1, false);
}

//  Other ratios, exactly, whatever the count.
static void
test_ratios_are_exact (void **state)
{
    fixture_t *fx = *state;
    confine_t *confine = jobs_confine (fx);
    const uint64_t ratios [] = { 250000, 1000000, 3000000, 1, 999000000 };
    for (size_t nbr = 0; nbr < sizeof (ratios) / sizeof (ratios [0]); nbr++) {
        ledger_t *ledger = ledger_new (UINT64_MAX);
        jobspec_t spec = jobs_spec (1, 64 * KIB, 4 * KIB, 1, 997);
        spec.rwratio = ratios [nbr];
        spec.fsync_every = 0;
        job_t *job = jobs_ready (&spec, confine, ledger);
        jobs_run_t run;
        jobs_run (job, clock_now_ns (), &run);
        const msg_result_t *result = &run.results [0];
        assert_int_equal (result->reads + result->writes, 997);
        assert_int_equal (result->reads, jobs_reads_of (997, ratios [nbr]));
        //  fsync_every = 0: only the last fsync, of the one file, if written.
        assert_int_equal (result->fsyncs, result->writes? 1: 0);
        jobs_check_counts (result, 4 * KIB);
        jobs_end (&job, ledger);
        ledger_destroy (&ledger);
    }
    confine_destroy (&confine);
}

//  rndrd reads only and flushes nothing; rndwr writes only, and flushes
//  like rndrw.
static void
test_modes (void **state)
{
    fixture_t *fx = *state;
    confine_t *confine = jobs_confine (fx);
    for (int mode = RW_MODE_RNDRD; mode <= RW_MODE_RNDWR; mode++) {
        ledger_t *ledger = ledger_new (UINT64_MAX);
        jobspec_t spec = jobs_spec (2, 128 * KIB, 8 * KIB, 2, 400);
        spec.rw_mode = mode;
        spec.fsync_every = 30;
        job_t *job = jobs_ready (&spec, confine, ledger);
        jobs_run_t run;
        jobs_run (job, clock_now_ns (), &run);
        for (uint32_t index = 0; index < 2; index++) {
            const msg_result_t *result = &run.results [index];
            if (mode == RW_MODE_RNDRD) {
                assert_int_equal (result->reads, 200);
                assert_int_equal (result->writes, 0);
                assert_int_equal (result->fsyncs, 0);
            }
            else {
                assert_int_equal (result->reads, 0);
                assert_int_equal (result->writes, 200);
                assert_int_equal (result->fsyncs, 2 * ((200 - 1) / 30) + 2);
            }
            jobs_check_counts (result, 8 * KIB);
        }
        jobs_end (&job, ledger);
        ledger_destroy (&ledger);
    }
    confine_destroy (&confine);
}

//  A round is for the requests after it: 100 requests with fsync_every
//  50 make one round over the set, then fsync_end's over the files
//  written, or none with fsync_end = no; fdatasync counts as fsync does.
static void
test_last_round (void **state)
{
    fixture_t *fx = *state;
    confine_t *confine = jobs_confine (fx);
    for (int end = 0; end < 2; end++) {
        ledger_t *ledger = ledger_new (UINT64_MAX);
        jobspec_t spec = jobs_spec (2, 128 * KIB, 8 * KIB, 1, 100);
        spec.rw_mode = RW_MODE_RNDWR;
        spec.fsync_every = 50;
        spec.fsync_end = end;
        spec.fsync_call = end? FSYNC_CALL_FSYNC: FSYNC_CALL_FDATASYNC;
        job_t *job = jobs_ready (&spec, confine, ledger);
        jobs_run_t run;
        jobs_run (job, clock_now_ns (), &run);
        const msg_result_t *result = &run.results [0];
        assert_int_equal (result->writes, 100);
        assert_int_equal (result->fsyncs, end? 2 + 2: 2);
        jobs_check_counts (result, 8 * KIB);
        jobs_end (&job, ledger);
        ledger_destroy (&ledger);
    }
    confine_destroy (&confine);
}

//  A runtime ends every stream at the instant given plus the runtime,
//  whenever each began; requests or not, the first to come ends it.
static void
test_runtime_stops_at_the_instant (void **state)
{
    fixture_t *fx = *state;
    confine_t *confine = jobs_confine (fx);
    ledger_t *ledger = ledger_new (UINT64_MAX);
    jobspec_t spec = jobs_spec (4, MIB, 4 * KIB, 3, 0);
    spec.rw_mode = RW_MODE_RNDRD;
    spec.runtime_ns = 300 * NS_PER_MSEC;
    job_t *job = jobs_ready (&spec, confine, ledger);
    jobs_run_t run;
    //  An instant already past: the streams start at once, and still stop
    //  at that instant plus the runtime, not the runtime after they began.
    int64_t start_at_ns = clock_now_ns () - 100 * NS_PER_MSEC;
    jobs_run (job, start_at_ns, &run);
    int64_t stop_ns = start_at_ns + spec.runtime_ns;
    for (uint32_t index = 0; index < 3; index++) {
        const msg_result_t *result = &run.results [index];
        assert_true (result->reads > 0);
        //  No request was issued at or after the instant; the last ended
        //  within one request (a read from the page cache) and a wait for
        //  a CPU of it: three streams on two cores, beside whatever else
        //  runs.
        if (result->last_issue_ns >= stop_ns)
            fail_msg ("stream %u issued its last request %" PRId64 " ns after the stop instant"
                      " (ended %" PRId64 " ns after)", index, result->last_issue_ns - stop_ns,
                      result->last_write_ns - stop_ns);
        assert_true (result->last_issue_ns <= result->last_write_ns);
        int64_t late_ns = result->last_write_ns - stop_ns;
        if (late_ns >= 50 * NS_PER_MSEC)
            fail_msg ("stream %u ended %" PRId64 " us after the stop instant", index,
                      late_ns / NS_PER_USEC);
        jobs_check_counts (result, 4 * KIB);
    }
    jobs_end (&job, ledger);

    //  Requests as well: whichever comes first.
    spec.requests = 30;
    spec.runtime_ns = 60 * NS_PER_SEC;
    job = jobs_ready (&spec, confine, ledger);
    jobs_run (job, clock_now_ns (), &run);
    for (uint32_t index = 0; index < 3; index++)
        assert_int_equal (run.results [index].reads, 10);
    jobs_end (&job, ledger);
    ledger_destroy (&ledger);
    confine_destroy (&confine);
}

//  A ramp leaves out what completes before the instant plus the ramp:
//  the figures start there, and count only what came after; a ramp that
//  outlasts the stream (its requests done first) leaves nothing.
static void
test_ramp_leaves_requests_out (void **state)
{
    fixture_t *fx = *state;
    confine_t *confine = jobs_confine (fx);
    ledger_t *ledger = ledger_new (UINT64_MAX);
    jobspec_t spec = jobs_spec (2, MIB, 4 * KIB, 2, 0);
    spec.runtime_ns = 400 * NS_PER_MSEC;
    spec.ramp_ns = 200 * NS_PER_MSEC;
    spec.fsync_every = 0;
    job_t *job = jobs_ready (&spec, confine, ledger);
    jobs_run_t run;
    int64_t start_at_ns = clock_now_ns () + 20 * NS_PER_MSEC;
    //  During the ramp the samples show nothing.
    job_start (job, 0, start_at_ns);
    clock_sleep_until (start_at_ns + 100 * NS_PER_MSEC);
    for (size_t index = 0; index < 2; index++) {
        assert_true (stream_running (job_stream (job, index)));
        assert_int_equal (stream_bytes (job_stream (job, index)), 0);
    }
    clock_sleep_until (start_at_ns + 300 * NS_PER_MSEC);
    for (size_t index = 0; index < 2; index++)
        assert_true (stream_bytes (job_stream (job, index)) > 0);
    //  (jobs_run starts the phase again: a start already given is kept.)
    jobs_run (job, start_at_ns, &run);
    for (uint32_t index = 0; index < 2; index++) {
        const msg_result_t *result = &run.results [index];
        assert_int_equal (result->start_ns, start_at_ns + spec.ramp_ns);
        assert_true (result->reads > 0 && result->writes > 0);
        assert_int_equal (result->fsyncs, 2);
        jobs_check_counts (result, 4 * KIB);
        //  Every request counted ended after the ramp, none lasted longer
        //  than the phase.
        assert_true (histogram_max (&result->latency [MSG_LATENCY_READ])
                     < result->last_write_ns - start_at_ns);
        //  The ramp's CPU is left out too: one thread cannot have spent
        //  more than the figures' window on a CPU (the ramp kept it busy
        //  for as long again).
        assert_true (result->usr_ns + result->sys_ns
                     <= result->end_ns - result->start_ns + NS_PER_MSEC);
    }
    jobs_end (&job, ledger);

    //  (A ramp needs a runtime; the requests end the stream long before.)
    spec.runtime_ns = 7200 * NS_PER_SEC;
    spec.requests = 100;
    spec.ramp_ns = 3600 * NS_PER_SEC;
    job = jobs_ready (&spec, confine, ledger);
    jobs_run (job, clock_now_ns (), &run);
    for (uint32_t index = 0; index < 2; index++) {
        const msg_result_t *result = &run.results [index];
        assert_int_equal (result->reads + result->writes + result->fsyncs + result->bytes, 0);
        assert_int_equal (result->start_ns, result->end_ns);
        assert_int_equal (result->usr_ns + result->sys_ns, 0);
        jobs_check_counts (result, 4 * KIB);
    }
    jobs_end (&job, ledger);
    ledger_destroy (&ledger);
    confine_destroy (&confine);
}

//  A set laid out by a job goes to the session when the test is over, a
//  later job finds it laid out and writes nothing, and it goes when the
//  session ends; without a session it goes with the job, with keep it
//  stays; a short file of someone else's is extended, never removed.
static void
test_layout_reused_and_kept (void **state)
{
    fixture_t *fx = *state;
    confine_t *confine = jobs_confine (fx);
    kept_t *kept = kept_new ();
    kept_begin (kept, 42);
    jobspec_t spec = jobs_spec (3, 3 * 64 * KIB + 100, 16 * KIB, 2, 100);
    char path [PATH_MAX];
    for (int round = 0; round < 2; round++) {
        ledger_t *ledger = ledger_new (UINT64_MAX);
        ledger_keep_in (ledger, kept);
        job_t *job = jobs_ready (&spec, confine, ledger);
        //  Each file size / files bytes, laid out once.
        assert_int_equal (job_laid_out_bytes (job), round == 0? 3 * (64 * KIB + 33): 0);
        for (uint64_t index = 0; index < 3; index++) {
            s_set_file (fx, 3, index, path, sizeof (path));
            assert_int_equal (streams_file_size (path), 64 * KIB + 33);
        }
        jobs_run_t run;
        jobs_run (job, clock_now_ns (), &run);
        jobs_end (&job, ledger);
        ledger_destroy (&ledger);
        assert_int_equal (kept_file_count (kept), 3);
        s_set_file (fx, 3, 2, path, sizeof (path));
        assert_int_equal (streams_file_size (path), 64 * KIB + 33);
    }
    //  The session ends: the files go, and the directory made for them.
    assert_int_equal (kept_end (kept), 3);
    char dir [PATH_MAX];
    snprintf (dir, sizeof (dir), "%s/set", fx->dir);
    assert_int_equal (streams_file_size (dir), -1);

    //  No session: the files go with the job.
    ledger_t *ledger = ledger_new (UINT64_MAX);
    job_t *job = jobs_ready (&spec, confine, ledger);
    jobs_end (&job, ledger);
    s_set_file (fx, 3, 0, path, sizeof (path));
    assert_int_equal (streams_file_size (path), -1);

    //  keep = yes: they stay for good.
    spec.keep = true;
    ledger_keep_in (ledger, kept);
    job = jobs_ready (&spec, confine, ledger);
    jobs_end (&job, ledger);
    assert_int_equal (kept_file_count (kept), 0);
    assert_int_equal (streams_file_size (path), 64 * KIB + 33);
    kept_end (kept);
    assert_int_equal (streams_file_size (path), 64 * KIB + 33);

    //  Someone's short file (they are not the job's now) is extended, and
    //  stays with the others.
    spec.keep = false;
    assert_int_equal (truncate (path, 1000), 0);
    job = jobs_ready (&spec, confine, ledger);
    assert_int_equal (job_laid_out_bytes (job), 64 * KIB + 33 - 1000);
    assert_int_equal (streams_file_size (path), 64 * KIB + 33);
    jobs_end (&job, ledger);
    assert_int_equal (streams_file_size (path), 64 * KIB + 33);
    s_set_file (fx, 3, 1, path, sizeof (path));
    assert_int_equal (streams_file_size (path), 64 * KIB + 33);
    kept_begin (kept, 43);
    assert_int_equal (kept_end (kept), 0);
    assert_int_equal (streams_file_size (path), 64 * KIB + 33);
    s_set_file (fx, 3, 0, path, sizeof (path));
    unlink (path);
    s_set_file (fx, 3, 1, path, sizeof (path));
    unlink (path);
    s_set_file (fx, 3, 2, path, sizeof (path));
    unlink (path);

    //  A file of the set with a second link is not written through.
    jobspec_t one = jobs_spec (1, 64 * KIB, 16 * KIB, 1, 10);
    s_set_file (fx, 1, 0, path, sizeof (path));
    streams_write_file (path, (const unsigned char *) "x", 1);
    char link_path [PATH_MAX];
    snprintf (link_path, sizeof (link_path), "%s/other", fx->dir);
    assert_int_equal (link (path, link_path), 0);
    char err [MSG_TEXT_MAX + 1];
    int prepared;
    job = jobs_job (&one, confine, ledger, &prepared, err, sizeof (err));
    assert_int_equal (prepared, -1);
    assert_non_null (strstr (err, "has 2 hard links"));
    jobs_end (&job, ledger);
    assert_int_equal (streams_file_size (path), 1);
    unlink (link_path);
    unlink (path);
    ledger_destroy (&ledger);
    kept_destroy (&kept);
    confine_destroy (&confine);
}

//  What the agent refuses: options outside their bounds, a file that
//  holds less than a block, a set larger than its disk (nothing is
//  created), and a stream without its job.
static void
test_bad_input (void **state)
{
    fixture_t *fx = *state;
    confine_t *confine = jobs_confine (fx);
    ledger_t *ledger = ledger_new (UINT64_MAX);
    char err [MSG_TEXT_MAX + 1];
    jobspec_t spec = jobs_spec (0, MIB, 16 * KIB, 1, 10);
    assert_null (job_new (1, 0, &spec, confine, ledger, -1, err, sizeof (err)));
    assert_string_equal (err, "files: 0 is outside 1 .. 65536");
    spec = jobs_spec (4, MIB, 16 * KIB, 1, 10);
    spec.rwratio = 0;
    assert_null (job_new (1, 0, &spec, confine, ledger, -1, err, sizeof (err)));
    assert_non_null (strstr (err, "rwratio: 0 is outside 1 .."));
    spec = jobs_spec (128, MIB, 16 * KIB, 1, 10);
    assert_null (job_new (1, 0, &spec, confine, ledger, -1, err, sizeof (err)));
    assert_string_equal (err, "bs: a file of the set holds 8192 bytes (size 1048576 over 128 "
                              "files), less than one block of bs 16384");
    spec = jobs_spec (4, MIB, 16 * KIB, 1, 0);
    assert_null (job_new (1, 0, &spec, confine, ledger, -1, err, sizeof (err)));
    assert_non_null (strstr (err, "requests: the randrw workload ends after requests or at "
                                  "runtime"));

    //  Larger than the disk: refused at prepare, nothing written.
    spec = jobs_spec (4, 1ULL << 50, 16 * KIB, 2, 10);
    int prepared;
    job_t *job = jobs_job (&spec, confine, ledger, &prepared, err, sizeof (err));
    assert_int_equal (prepared, -1);
    char expected [256];
    snprintf (expected, sizeof (expected), "file set %s/set/f: laying it out needs 1P more "
              "(4 files of 256T), and its file system has ", fx->dir);
    if (strncmp (err, expected, strlen (expected)) != 0 || !strstr (err, " free"))
        fail_msg ("refusal: %s", err);
    jobs_end (&job, ledger);
    assert_int_equal (scratch_entries (fx->dir), 0);

    //  A stream of randrw without its job has no set to work on.
    spec = jobs_spec (1, MIB, 16 * KIB, 1, 10);
    int outcome;
    char path [PATH_MAX];
    snprintf (path, sizeof (path), "%s/alone", fx->dir);
    stream_t *stream = streams_launch (&spec, path, &outcome);
    assert_int_equal (outcome, -1);
    assert_non_null (strstr (stream_prepare_error (stream), "needs its job's file set"));
    stream_destroy (&stream);
    ledger_destroy (&ledger);
    confine_destroy (&confine);
}

//  Two jobs of a test may not write one set; a job may not write a file
//  of another's set, by any of its names.
static void
test_sets_in_the_ledger (void **state)
{
    (void) state;
    ledger_t *ledger = ledger_new (UINT64_MAX);
    char err [256];
    assert_int_equal (ledger_claim_set (ledger, 0, "a", LEDGER_WRITES, "/r/set", 12, err,
                                        sizeof (err)), 0);
    assert_int_equal (ledger_claim_set (ledger, 1, "b", LEDGER_WRITES, "/r/set", 3, err,
                                        sizeof (err)), -1);
    assert_string_equal (err, "job b: writes the same file as job a (/r/set)");
    assert_int_equal (ledger_claim_file (ledger, 2, "c", LEDGER_WRITES, "/r/set.12", err,
                                         sizeof (err)), -1);
    assert_string_equal (err, "job c: writes the same file as job a (/r/set.12)");
    assert_int_equal (ledger_claim_file (ledger, 2, "c", LEDGER_READS, "/r/set.7", err,
                                         sizeof (err)), -1);
    assert_string_equal (err, "job c: reads the file job a writes (/r/set.7)");
    //  Not files of the set: past its count, other spellings, the base.
    const char *apart [] = { "/r/set.13", "/r/set.012", "/r/set.0", "/r/set", "/r/set.1x",
                             "/r/set.", "/r/settle.1" };
    for (size_t index = 0; index < sizeof (apart) / sizeof (apart [0]); index++)
        assert_int_equal (ledger_claim_file (ledger, 3 + (uint32_t) index, "d", LEDGER_WRITES,
                                             apart [index], err, sizeof (err)), 0);
    //  A set of one file is the file itself.
    assert_int_equal (ledger_claim_set (ledger, 20, "e", LEDGER_WRITES, "/r/one", 1, err,
                                        sizeof (err)), 0);
    assert_int_equal (ledger_claim_file (ledger, 21, "f", LEDGER_WRITES, "/r/one", err,
                                         sizeof (err)), -1);
    ledger_destroy (&ledger);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test_setup_teardown (test_requests_ratio_and_fsyncs, streams_setup,
                                         streams_teardown),
        cmocka_unit_test_setup_teardown (test_ratios_are_exact, streams_setup, streams_teardown),
        cmocka_unit_test_setup_teardown (test_modes, streams_setup, streams_teardown),
        cmocka_unit_test_setup_teardown (test_last_round, streams_setup, streams_teardown),
        cmocka_unit_test_setup_teardown (test_runtime_stops_at_the_instant, streams_setup,
                                         streams_teardown),
        cmocka_unit_test_setup_teardown (test_ramp_leaves_requests_out, streams_setup,
                                         streams_teardown),
        cmocka_unit_test_setup_teardown (test_layout_reused_and_kept, streams_setup,
                                         streams_teardown),
        cmocka_unit_test_setup_teardown (test_bad_input, streams_setup, streams_teardown),
        cmocka_unit_test (test_sets_in_the_ledger),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
