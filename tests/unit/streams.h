/*  tests/unit/streams.h: workloads driven through the stream API, as the
    agent drives them, without the daemon: a scratch directory per case,
    a stream launched and prepared in its thread, each phase started and
    its figures taken. Shared by the unit tests of the workloads
    (agent_workloads.c, agent_bonnie.c); static, because each test
    program is one translation unit.
*/
#ifndef IOFLEET_TEST_STREAMS_H
#define IOFLEET_TEST_STREAMS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch.h"

#include "../../agent/stream.h"
#include "../../proto/clock.h"
#include "../../proto/workload.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KIB 1024
#define MIB (1024 * 1024)

//  A scratch directory and a file path in it.
typedef struct {
    char dir [PATH_MAX];            //  scratch directory
    char path [PATH_MAX];           //  dir/stream.dat
} fixture_t;

//  Build the scratch directory of one case.
static inline int
streams_setup (void **state)
{
    fixture_t *fx = calloc (1, sizeof (fixture_t));
    assert_non_null (fx);
    const char *tmp = getenv ("TMPDIR");
    snprintf (fx->dir, sizeof (fx->dir), "%s/iofleet-workloads-XXXXXX", tmp? tmp: P_tmpdir);
    assert_non_null (mkdtemp (fx->dir));
    snprintf (fx->path, sizeof (fx->path), "%s/stream.dat", fx->dir);
    *state = fx;
    return 0;
}

//  Remove the scratch directory and everything a case left in it.
static inline int
streams_teardown (void **state)
{
    fixture_t *fx = *state;
    assert_int_equal (scratch_remove (fx->dir), 0);
    free (fx);
    return 0;
}

//  A job of workload over size bytes in bs blocks, with the workload's
//  own defaults (bonnie's bs and fsync) unless bs_bytes is given.
static inline jobspec_t
streams_spec (int workload, uint64_t size_bytes, uint64_t bs_bytes)
{
    jobspec_t spec;
    jobspec_defaults (&spec);
    spec.workload = workload;
    const char *key;
    char err [256];
    assert_int_equal (workload_apply_defaults (&spec, NULL, NULL, &key, err, sizeof (err)), 0);
    spec.size_bytes = size_bytes;
    if (bs_bytes)
        spec.bs_bytes = bs_bytes;
    spec.streams = 1;
    return spec;
}

//  Launch one stream of spec on path (as if resolved from spec->path)
//  and wait for its prepare to be over; *prepared says how (1 ready, -1
//  failed). The spec is checked as the agent checks it.
static inline stream_t *
streams_launch (jobspec_t *spec, const char *path, int *prepared)
{
    const char *key;
    char err [MSG_TEXT_MAX + 1];
    msg_strcpy (spec->path, path, sizeof (spec->path));
    if (workload_check (spec, &key, err, sizeof (err)))
        fail_msg ("workload_check: %s: %s", key, err);
    const workload_ops_t *ops = workload_lookup (spec->workload);
    assert_non_null (ops);
    stream_t *stream = stream_new (ops, spec, 0, path,
                                   workload_phase_count (workload_desc (spec->workload)),
                                   err, sizeof (err));
    if (!stream)
        fail_msg ("stream_new: %s", err);
    assert_int_equal (stream_launch (stream, -1, NULL, NULL, err, sizeof (err)), 0);
    while ((*prepared = stream_prepared (stream)) == 0)
        usleep (1000);
    return stream;
}

//  Launch a stream and fail the case if its prepare fails.
static inline stream_t *
streams_ready (jobspec_t *spec, const char *path)
{
    int prepared;
    stream_t *stream = streams_launch (spec, path, &prepared);
    if (prepared != 1)
        fail_msg ("prepare: %s", stream_prepare_error (stream));
    return stream;
}

//  Wait (at most a minute) for the figures of the phase running.
static inline void
streams_result (stream_t *stream, msg_result_t *result)
{
    memset (result, 0, sizeof (*result));
    int64_t deadline_ns = clock_now_ns () + 60 * NS_PER_SEC;
    while (!stream_take_result (stream, result)) {
        assert_true (clock_now_ns () < deadline_ns);
        usleep (1000);
    }
}

//  Start phase at start_ns, wait for it, take its figures; fail the
//  case if the phase failed.
static inline void
streams_phase_at (stream_t *stream, uint32_t phase, int64_t start_ns, msg_result_t *result)
{
    stream_start (stream, phase, start_ns);
    streams_result (stream, result);
    if (result->error [0])
        fail_msg ("phase %u: %s", phase, result->error);
    assert_int_equal (result->phase, phase);
    assert_true (result->end_ns >= result->last_write_ns);
    assert_true (result->last_write_ns >= result->start_ns);
    assert_true (result->last_issue_ns <= result->last_write_ns);
}

//  Start phase now (streams_phase_at).
static inline void
streams_phase (stream_t *stream, uint32_t phase, msg_result_t *result)
{
    streams_phase_at (stream, phase, clock_now_ns (), result);
}

//  Size of a file, -1 if it does not exist.
static inline long long
streams_file_size (const char *path)
{
    struct stat st;
    return stat (path, &st) == 0? (long long) st.st_size: -1;
}

//  Write length bytes of data to a new file path.
static inline void
streams_write_file (const char *path, const unsigned char *data, size_t length)
{
    FILE *file = fopen (path, "wb");
    assert_non_null (file);
    assert_int_equal (fwrite (data, 1, length, file), length);
    assert_int_equal (fclose (file), 0);
}

//  The whole content of a file, malloc'd, its length in *length.
static inline unsigned char *
streams_read_file (const char *path, size_t *length)
{
    long long size = streams_file_size (path);
    assert_true (size >= 0);
    unsigned char *data = malloc ((size_t) size + 1);
    assert_non_null (data);
    FILE *file = fopen (path, "rb");
    assert_non_null (file);
    assert_int_equal (fread (data, 1, (size_t) size, file), (size_t) size);
    fclose (file);
    *length = (size_t) size;
    return data;
}

//  Length bytes of random data, malloc'd.
static inline unsigned char *
streams_random_data (size_t length)
{
    unsigned char *data = malloc (length);
    assert_non_null (data);
    uint64_t seed = workload_random_seed ();
    workload_random_fill (data, length, &seed);
    return data;
}

//  Threads of this process now.
static inline int
streams_threads (void)
{
    return scratch_entries ("/proc/self/task");
}

#endif
