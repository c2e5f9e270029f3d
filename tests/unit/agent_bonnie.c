/*  tests/unit/agent_bonnie.c: the bonnie workload through the stream
    API: its four phases and what each counts, the rewrite's changes in
    place, the seekers' share of the seeks and of the CPU, and stops that
    end every seeker.
*/
#include "streams.h"

#include <sys/resource.h>

//  CPU time of the whole process so far, user and system, in ns.
static int64_t
s_process_cpu_ns (void)
{
    struct rusage usage;
    assert_int_equal (getrusage (RUSAGE_SELF, &usage), 0);
    return ((int64_t) usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * NS_PER_SEC
         + ((int64_t) usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * NS_PER_USEC;
}

//  A phase's CPU is nearly all the process spent while it ran: the rest
//  is this thread polling for the result, a millisecond at most.
static void
s_assert_counted (uint32_t phase, int64_t phase_ns, int64_t process_ns)
{
    if (phase_ns + NS_PER_MSEC < process_ns * 3 / 4)
        fail_msg ("phase %u counts %.2f ms of CPU, the process spent %.2f ms meanwhile",
                  phase, phase_ns / 1e6, process_ns / 1e6);
}

//  Run phases 0 .. 2 of a bonnie stream of size bytes, checking each.
static void
s_first_phases (stream_t *stream, uint64_t size_bytes, uint64_t chunks)
{
    msg_result_t result;
    streams_phase (stream, 0, &result);
    assert_int_equal (result.bytes, size_bytes);
    assert_int_equal (result.writes, chunks);
    assert_int_equal (result.reads, 0);
    streams_phase (stream, 1, &result);
    assert_int_equal (result.bytes, size_bytes);
    assert_int_equal (result.reads, chunks);
    assert_int_equal (result.writes, chunks);
    streams_phase (stream, 2, &result);
    assert_int_equal (result.bytes, size_bytes);
    assert_int_equal (result.reads, chunks);
    assert_int_equal (result.writes, 0);
    assert_int_equal (result.fsyncs, 0);
}

static void
test_defaults_and_memory (void **state)
{
    (void) state;
    jobspec_t spec = streams_spec (WORKLOAD_BONNIE, MIB, 0);
    assert_int_equal (spec.bs_bytes, 8 * KIB);
    assert_int_equal (spec.fsync_mode, FSYNC_CLOSE);
    assert_int_equal (spec.seekers, 5);
    assert_int_equal (spec.seeks, 8192);
    //  A chunk for the stream, and one for each seeker with its latency
    //  histograms.
    uint64_t memory = workload_lookup (WORKLOAD_BONNIE)->stream_memory (&spec);
    assert_true (memory >= 6 * 8 * KIB + 5 * MSG_LATENCY_KINDS * HISTOGRAM_BYTES);
    assert_true (memory < 6 * 8 * KIB + 5 * (MSG_LATENCY_KINDS * HISTOGRAM_BYTES + 256));
}

//  The four phases with bonnie++'s defaults: output writes the file,
//  rewrite reads and writes every chunk back with a byte changed, input
//  reads it, the seeks are all done with about one in ten written back,
//  and the seekers' CPU is the phase's.
static void
test_phases (void **state)
{
    fixture_t *fx = *state;
    const uint64_t size_bytes = 16 * MIB;
    const uint64_t chunks = size_bytes / (8 * KIB);
    int threads = streams_threads ();
    jobspec_t spec = streams_spec (WORKLOAD_BONNIE, size_bytes, 0);
    spec.seeks = 20000;
    stream_t *stream = streams_ready (&spec, fx->path);
    //  The stream's thread, and its seekers waiting already.
    assert_int_equal (streams_threads (), threads + 1 + 5);

    msg_result_t result;
    streams_phase (stream, 0, &result);
    assert_int_equal (result.bytes, size_bytes);
    assert_int_equal (result.writes, chunks);
    assert_int_equal (result.fsyncs, 1);            //  fsync = close
    size_t length;
    unsigned char *output = streams_read_file (fx->path, &length);
    assert_int_equal (length, size_bytes);

    //  The stream's own CPU, exact even over a phase shorter than a tick:
    //  nearly all the process spent meanwhile.
    int64_t cpu_before_ns = s_process_cpu_ns ();
    streams_phase (stream, 1, &result);
    int64_t process_ns = s_process_cpu_ns () - cpu_before_ns;
    s_assert_counted (1, result.usr_ns + result.sys_ns, process_ns);
    assert_int_equal (result.bytes, size_bytes);
    assert_int_equal (result.reads, chunks);
    assert_int_equal (result.writes, chunks);
    assert_int_equal (result.fsyncs, 1);
    unsigned char *rewritten = streams_read_file (fx->path, &length);
    assert_int_equal (length, size_bytes);
    for (uint64_t chunk = 0; chunk < chunks; chunk++) {
        const unsigned char *before = output + chunk * 8 * KIB;
        const unsigned char *after = rewritten + chunk * 8 * KIB;
        assert_int_equal (after [0], (unsigned char) (before [0] + 1));
        assert_memory_equal (after + 1, before + 1, 8 * KIB - 1);
    }
    free (output);
    free (rewritten);

    streams_phase (stream, 2, &result);
    assert_int_equal (result.bytes, size_bytes);
    assert_int_equal (result.reads, chunks);
    assert_int_equal (result.writes, 0);
    assert_int_equal (result.fsyncs, 0);

    cpu_before_ns = s_process_cpu_ns ();
    streams_phase (stream, 3, &result);
    process_ns = s_process_cpu_ns () - cpu_before_ns;
    assert_int_equal (result.reads, 20000);
    assert_true (result.writes >= 1600 && result.writes <= 2400);
    //  Its bytes are its seeks' (as its samples count them): the
    //  write-backs are writes, not bytes.
    assert_int_equal (result.bytes, result.reads * 8 * KIB);
    assert_int_equal (result.fsyncs, 1);
    //  The stream's thread only waited: nearly all the CPU the process
    //  spent meanwhile was the seekers', and the phase counts it.
    int64_t phase_ns = result.usr_ns + result.sys_ns;
    print_message ("seeks: %.1f ms of CPU, %.1f ms for the process, %.1f ms elapsed\n",
                   phase_ns / 1e6, process_ns / 1e6,
                   (result.end_ns - result.start_ns) / 1e6);
    assert_true (process_ns > NS_PER_MSEC);
    s_assert_counted (3, phase_ns, process_ns);
    assert_true (phase_ns <= process_ns + 10 * NS_PER_MSEC);

    stream_destroy (&stream);
    assert_int_equal (streams_threads (), threads);
    assert_int_equal (streams_file_size (fx->path), -1);
}

//  Every seek is done once, however the seeks split among the seekers.
static void
test_seeks_split (void **state)
{
    fixture_t *fx = *state;
    const uint64_t cases [][2] = { { 3, 10 }, { 5, 2 }, { 1, 7 } };     //  seekers, seeks
    for (size_t c = 0; c < sizeof (cases) / sizeof (cases [0]); c++) {
        jobspec_t spec = streams_spec (WORKLOAD_BONNIE, 256 * KIB, 0);
        spec.seekers = cases [c][0];
        spec.seeks = cases [c][1];
        spec.fsync_mode = FSYNC_NONE;
        stream_t *stream = streams_ready (&spec, fx->path);
        s_first_phases (stream, 256 * KIB, 32);
        msg_result_t result;
        streams_phase (stream, 3, &result);
        assert_int_equal (result.reads, cases [c][1]);
        assert_int_equal (result.fsyncs, 0);
        stream_destroy (&stream);
    }
}

//  O_DIRECT in every phase, on this file system; a last chunk shorter
//  than bs included.
static void
test_direct (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = streams_spec (WORKLOAD_BONNIE, MIB + 4 * KIB, 0);
    spec.direct = true;
    spec.seeks = 500;
    stream_t *stream = streams_ready (&spec, fx->path);
    s_first_phases (stream, MIB + 4 * KIB, 129);
    msg_result_t result;
    streams_phase (stream, 3, &result);
    assert_int_equal (result.reads, 500);
    stream_destroy (&stream);
}

//  A stop in the seeks phase ends every seeker promptly.
static void
test_stop_during_seeks (void **state)
{
    fixture_t *fx = *state;
    int threads = streams_threads ();
    jobspec_t spec = streams_spec (WORKLOAD_BONNIE, MIB, 0);
    spec.seeks = 1000000000;
    stream_t *stream = streams_ready (&spec, fx->path);
    s_first_phases (stream, MIB, 128);
    stream_start (stream, 3, clock_now_ns ());
    while (stream_bytes (stream) < 4 * MIB)
        usleep (1000);
    int64_t stop_ns = clock_now_ns ();
    stream_stop (stream, "enough");
    msg_result_t result;
    streams_result (stream, &result);
    assert_true (clock_now_ns () - stop_ns < 2 * NS_PER_SEC);
    assert_string_equal (result.error, "aborted: enough");
    assert_true (result.reads >= 4 * MIB / (8 * KIB) / 2);
    assert_true (result.reads < spec.seeks);
    stream_destroy (&stream);
    assert_int_equal (streams_threads (), threads);
}

//  Seekers that were never released end with the stream: stopped before
//  the seeks, or right after prepare.
static void
test_seekers_end_unreleased (void **state)
{
    fixture_t *fx = *state;
    int threads = streams_threads ();
    jobspec_t spec = streams_spec (WORKLOAD_BONNIE, 256 * KIB, 0);
    stream_t *stream = streams_ready (&spec, fx->path);
    assert_int_equal (streams_threads (), threads + 1 + 5);
    stream_destroy (&stream);
    assert_int_equal (streams_threads (), threads);
    assert_int_equal (streams_file_size (fx->path), -1);

    stream = streams_ready (&spec, fx->path);
    s_first_phases (stream, 256 * KIB, 32);
    stream_destroy (&stream);
    assert_int_equal (streams_threads (), threads);
    assert_int_equal (streams_file_size (fx->path), -1);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_defaults_and_memory),
#define CASE(name) cmocka_unit_test_setup_teardown (name, streams_setup, streams_teardown)
        CASE (test_phases),
        CASE (test_seeks_split),
        CASE (test_direct),
        CASE (test_stop_during_seeks),
        CASE (test_seekers_end_unreleased),
#undef CASE
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
