/*  tests/unit/agent_workloads.c: the read and rewrite workloads through
    the stream API: a read lays out what is missing and nothing else,
    reads exactly what it was asked, leaves other people's files as they
    were and removes only its own; a rewrite writes its file twice, the
    second time in place; and a copy, whose source is read as a read's
    file is, counts its reads.
*/
#include "streams.h"

#include <fcntl.h>
#include <sys/time.h>

//  True if all length bytes of data are zero.
static bool
s_all_zero (const unsigned char *data, size_t length)
{
    for (size_t index = 0; index < length; index++)
        if (data [index])
            return false;
    return true;
}

//  Bytes of data that are not zero.
static size_t
s_nonzero (const unsigned char *data, size_t length)
{
    size_t count = 0;
    for (size_t index = 0; index < length; index++)
        count += data [index] != 0;
    return count;
}

static void
test_registry (void **state)
{
    (void) state;
    //  Every workload of the descriptor has its ops, of its name; one
    //  that names files says what memory a stream of it needs.
    for (int workload = 0; workload < WORKLOAD_COUNT; workload++) {
        const workload_ops_t *ops = workload_lookup (workload);
        assert_non_null (ops);
        assert_string_equal (ops->name, jobspec_workload_name (workload));
        if (workload_desc (workload)->files [0].option)
            assert_non_null (ops->stream_memory);
    }
    //  What one stream allocates: its buffers, and for an nfs:// read what
    //  libnfs holds on the way; a random rewrite keeps data for each phase.
    jobspec_t spec = streams_spec (WORKLOAD_READ, MIB, 64 * KIB);
    strcpy (spec.path, "/data/file");
    assert_int_equal (workload_lookup (WORKLOAD_READ)->stream_memory (&spec), 64 * KIB);
    strcpy (spec.path, "nfs://server/export/file");
    assert_int_equal (workload_lookup (WORKLOAD_READ)->stream_memory (&spec), 128 * KIB);
    spec = streams_spec (WORKLOAD_REWRITE, MIB, 64 * KIB);
    assert_int_equal (workload_lookup (WORKLOAD_REWRITE)->stream_memory (&spec), 64 * KIB);
    spec.pattern = PATTERN_RANDOM;
    assert_int_equal (workload_lookup (WORKLOAD_REWRITE)->stream_memory (&spec), 128 * KIB);
}

//  A missing file is laid out at prepare with the pattern, up to size,
//  read to the byte, and removed with the stream.
static void
test_read_lays_out_missing_file (void **state)
{
    fixture_t *fx = *state;
    for (int pattern = PATTERN_ZERO; pattern <= PATTERN_RANDOM; pattern++) {
        //  Not a multiple of bs: the last block is shorter.
        jobspec_t spec = streams_spec (WORKLOAD_READ, MIB + 100, 64 * KIB);
        spec.pattern = pattern;
        stream_t *stream = streams_ready (&spec, fx->path);
        assert_int_equal (stream_laid_out_bytes (stream), MIB + 100);
        size_t length;
        unsigned char *data = streams_read_file (fx->path, &length);
        assert_int_equal (length, MIB + 100);
        if (pattern == PATTERN_ZERO)
            assert_true (s_all_zero (data, length));
        else {
            assert_true (s_nonzero (data, length) > length * 9 / 10);
            //  Drawn afresh for every block.
            assert_memory_not_equal (data, data + 64 * KIB, 64 * KIB);
        }
        free (data);

        msg_result_t result;
        streams_phase (stream, 0, &result);
        assert_int_equal (result.bytes, MIB + 100);
        assert_int_equal (result.reads, 17);        //  ceil (size / bs)
        assert_int_equal (result.writes, 0);
        assert_int_equal (result.fsyncs, 0);
        assert_string_equal (result.path, fx->path);
        assert_false (stream_take_result (stream, &result));
        //  Ours: it stays while the test is on and goes with the stream.
        assert_int_equal (streams_file_size (fx->path), MIB + 100);
        stream_destroy (&stream);
        assert_int_equal (streams_file_size (fx->path), -1);
    }
}

//  With keep, a file laid out stays.
static void
test_read_keeps_its_file (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = streams_spec (WORKLOAD_READ, 256 * KIB, 64 * KIB);
    spec.keep = true;
    stream_t *stream = streams_ready (&spec, fx->path);
    stream_destroy (&stream);
    assert_int_equal (streams_file_size (fx->path), 256 * KIB);
}

//  Without a size, the whole file, and nothing laid out.
static void
test_read_whole_file (void **state)
{
    fixture_t *fx = *state;
    unsigned char *data = streams_random_data (300 * KIB + 5);
    streams_write_file (fx->path, data, 300 * KIB + 5);
    free (data);
    jobspec_t spec = streams_spec (WORKLOAD_READ, 0, 64 * KIB);
    stream_t *stream = streams_ready (&spec, fx->path);
    assert_int_equal (stream_laid_out_bytes (stream), 0);
    msg_result_t result;
    streams_phase (stream, 0, &result);
    assert_int_equal (result.bytes, 300 * KIB + 5);
    assert_int_equal (result.reads, 5);
    stream_destroy (&stream);
    assert_int_equal (streams_file_size (fx->path), 300 * KIB + 5);
}

//  A file that is there and long enough is read, not touched: same
//  content, same mtime, still there after the stream (not ours).
static void
test_read_leaves_existing_file (void **state)
{
    fixture_t *fx = *state;
    unsigned char *data = streams_random_data (256 * KIB);
    streams_write_file (fx->path, data, 256 * KIB);
    struct timespec past [2] = { { .tv_sec = 1000000000 }, { .tv_sec = 1000000000 } };
    assert_int_equal (utimensat (AT_FDCWD, fx->path, past, 0), 0);

    jobspec_t spec = streams_spec (WORKLOAD_READ, 128 * KIB, 16 * KIB);
    stream_t *stream = streams_ready (&spec, fx->path);
    assert_int_equal (stream_laid_out_bytes (stream), 0);
    msg_result_t result;
    streams_phase (stream, 0, &result);
    assert_int_equal (result.bytes, 128 * KIB);
    assert_int_equal (result.reads, 8);
    stream_destroy (&stream);

    struct stat st;
    assert_int_equal (stat (fx->path, &st), 0);
    assert_int_equal (st.st_mtim.tv_sec, 1000000000);
    size_t length;
    unsigned char *after = streams_read_file (fx->path, &length);
    assert_int_equal (length, 256 * KIB);
    assert_memory_equal (after, data, length);
    free (after);
    free (data);
}

//  A short file is extended (its content kept) and stays, not ours; one
//  with other hard links is not written through.
static void
test_read_extends_short_file (void **state)
{
    fixture_t *fx = *state;
    unsigned char *data = streams_random_data (100 * KIB);
    streams_write_file (fx->path, data, 100 * KIB);
    char other [PATH_MAX + 8];
    snprintf (other, sizeof (other), "%s/other", fx->dir);
    assert_int_equal (link (fx->path, other), 0);

    jobspec_t spec = streams_spec (WORKLOAD_READ, 256 * KIB, 64 * KIB);
    int prepared;
    stream_t *stream = streams_launch (&spec, fx->path, &prepared);
    assert_int_equal (prepared, -1);
    assert_non_null (strstr (stream_prepare_error (stream), "hard links"));
    stream_destroy (&stream);
    assert_int_equal (streams_file_size (fx->path), 100 * KIB);
    assert_int_equal (unlink (other), 0);

    stream = streams_ready (&spec, fx->path);
    assert_int_equal (stream_laid_out_bytes (stream), 156 * KIB);
    msg_result_t result;
    streams_phase (stream, 0, &result);
    assert_int_equal (result.bytes, 256 * KIB);
    stream_destroy (&stream);
    size_t length;
    unsigned char *after = streams_read_file (fx->path, &length);
    assert_int_equal (length, 256 * KIB);
    assert_memory_equal (after, data, 100 * KIB);
    assert_true (s_all_zero (after + 100 * KIB, 156 * KIB));
    free (after);
    free (data);
}

//  What a read refuses at prepare, naming the file, leaving nothing.
static void
test_read_prepare_errors (void **state)
{
    fixture_t *fx = *state;
    int prepared;
    jobspec_t spec = streams_spec (WORKLOAD_READ, 0, 64 * KIB);
    stream_t *stream = streams_launch (&spec, fx->path, &prepared);
    assert_int_equal (prepared, -1);
    assert_non_null (strstr (stream_prepare_error (stream), "needs a size to lay the file out"));
    assert_non_null (strstr (stream_prepare_error (stream), fx->path));
    stream_destroy (&stream);
    assert_int_equal (scratch_entries (fx->dir), 0);

    //  An empty file, without a size.
    streams_write_file (fx->path, (const unsigned char *) "", 0);
    stream = streams_launch (&spec, fx->path, &prepared);
    assert_int_equal (prepared, -1);
    assert_non_null (strstr (stream_prepare_error (stream), "empty"));
    stream_destroy (&stream);
    assert_int_equal (streams_file_size (fx->path), 0);      //  not ours: still there
    assert_int_equal (unlink (fx->path), 0);

    //  A symbolic link is not followed, to read or to lay out.
    char target [PATH_MAX + 8];
    snprintf (target, sizeof (target), "%s/target", fx->dir);
    unsigned char *data = streams_random_data (64 * KIB);
    streams_write_file (target, data, 64 * KIB);
    free (data);
    assert_int_equal (symlink (target, fx->path), 0);
    spec.size_bytes = 256 * KIB;
    stream = streams_launch (&spec, fx->path, &prepared);
    assert_int_equal (prepared, -1);
    assert_non_null (strstr (stream_prepare_error (stream), "symbolic link"));
    stream_destroy (&stream);
    assert_int_equal (streams_file_size (target), 64 * KIB);
}

//  O_DIRECT reads on this file system, a whole file of any size included.
static void
test_read_direct (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = streams_spec (WORKLOAD_READ, MIB, 64 * KIB);
    spec.direct = true;
    stream_t *stream = streams_ready (&spec, fx->path);
    msg_result_t result;
    streams_phase (stream, 0, &result);
    assert_int_equal (result.bytes, MIB);
    assert_int_equal (result.reads, 16);
    stream_destroy (&stream);

    unsigned char *data = streams_random_data (10000);
    streams_write_file (fx->path, data, 10000);
    free (data);
    spec.size_bytes = 0;
    stream = streams_ready (&spec, fx->path);
    streams_phase (stream, 0, &result);
    assert_int_equal (result.bytes, 10000);
    stream_destroy (&stream);
}

//  rate = 4M: 1 MiB takes a quarter of a second.
static void
test_read_rate (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = streams_spec (WORKLOAD_READ, MIB, 64 * KIB);
    spec.rate_bytes = 4 * MIB;
    stream_t *stream = streams_ready (&spec, fx->path);
    msg_result_t result;
    streams_phase (stream, 0, &result);
    assert_int_equal (result.bytes, MIB);
    double seconds = (double) (result.end_ns - result.start_ns) / NS_PER_SEC;
    assert_true (seconds >= 0.25 - 0.001);
    assert_true (seconds < 1.0);
    stream_destroy (&stream);
}

//  Two jobs reading one missing file lay it out once between them: the
//  second waits for the first and finds the file there.
static void
test_read_layouts_take_turns (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = streams_spec (WORKLOAD_READ, 64 * MIB, MIB);
    spec.pattern = PATTERN_RANDOM;
    msg_strcpy (spec.path, fx->path, sizeof (spec.path));
    const workload_ops_t *ops = workload_lookup (WORKLOAD_READ);
    char err [MSG_TEXT_MAX + 1];
    stream_t *streams [2];
    for (int index = 0; index < 2; index++) {
        streams [index] = stream_new (ops, &spec, 0, fx->path, 1, err, sizeof (err));
        assert_non_null (streams [index]);
    }
    for (int index = 0; index < 2; index++)
        assert_int_equal (stream_launch (streams [index], -1, NULL, NULL, err, sizeof (err)), 0);
    for (int index = 0; index < 2; index++) {
        while (stream_prepared (streams [index]) == 0)
            usleep (1000);
        assert_int_equal (stream_prepared (streams [index]), 1);
    }
    assert_int_equal (stream_laid_out_bytes (streams [0]) + stream_laid_out_bytes (streams [1]),
                      64 * MIB);
    for (int index = 0; index < 2; index++) {
        msg_result_t result;
        streams_phase (streams [index], 0, &result);
        assert_int_equal (result.bytes, 64 * MIB);
    }
    for (int index = 0; index < 2; index++)
        stream_destroy (&streams [index]);
    assert_int_equal (streams_file_size (fx->path), -1);
}

//  A stop while a large file is laid out ends the prepare at once, and
//  the partial file goes.
static void
test_read_stop_during_layout (void **state)
{
    fixture_t *fx = *state;
    //  4 GiB: seconds to lay out, were the stop not seen.
    jobspec_t spec = streams_spec (WORKLOAD_READ, 4ULL * 1024 * MIB, MIB);
    const workload_ops_t *ops = workload_lookup (WORKLOAD_READ);
    char err [MSG_TEXT_MAX + 1];
    msg_strcpy (spec.path, fx->path, sizeof (spec.path));
    stream_t *stream = stream_new (ops, &spec, 0, fx->path, 1, err, sizeof (err));
    assert_non_null (stream);
    assert_int_equal (stream_launch (stream, -1, NULL, NULL, err, sizeof (err)), 0);
    while (streams_file_size (fx->path) < 8 * MIB) {
        assert_int_equal (stream_prepared (stream), 0);
        usleep (1000);
    }
    int64_t stop_ns = clock_now_ns ();
    stream_stop (stream, "enough");
    stream_wait (stream);
    assert_true (clock_now_ns () - stop_ns < 2 * NS_PER_SEC);
    assert_int_equal (stream_prepared (stream), -1);
    assert_non_null (strstr (stream_prepare_error (stream), "stopped"));
    assert_true (streams_file_size (fx->path) < 4LL * 1024 * MIB);
    stream_destroy (&stream);
    assert_int_equal (streams_file_size (fx->path), -1);
}

//  Write, then rewrite in place: the same inode, size bytes each time,
//  the second phase's data over the first's, nothing truncated (a tail
//  added between the phases survives).
static void
s_rewrite_in_place (const fixture_t *fx, int engine, uint64_t depth)
{
    jobspec_t spec = streams_spec (WORKLOAD_REWRITE, MIB + 512, 64 * KIB);
    spec.engine = engine;
    spec.iodepth = depth;
    spec.pattern = PATTERN_RANDOM;
    spec.fsync_mode = FSYNC_END;
    stream_t *stream = streams_ready (&spec, fx->path);
    struct stat before;
    assert_int_equal (stat (fx->path, &before), 0);

    msg_result_t result;
    streams_phase (stream, 0, &result);
    assert_int_equal (result.bytes, MIB + 512);
    assert_int_equal (result.writes, 17);
    assert_int_equal (result.fsyncs, 1);
    size_t length;
    unsigned char *written = streams_read_file (fx->path, &length);
    assert_int_equal (length, MIB + 512);
    FILE *file = fopen (fx->path, "ab");
    assert_non_null (file);
    assert_int_equal (fwrite ("tail", 1, 4, file), 4);
    fclose (file);

    streams_phase (stream, 1, &result);
    assert_int_equal (result.bytes, MIB + 512);
    assert_int_equal (result.writes, 17);
    assert_int_equal (result.fsyncs, 1);
    struct stat after;
    assert_int_equal (stat (fx->path, &after), 0);
    assert_int_equal (after.st_ino, before.st_ino);
    unsigned char *rewritten = streams_read_file (fx->path, &length);
    assert_int_equal (length, MIB + 512 + 4);
    assert_memory_equal (rewritten + MIB + 512, "tail", 4);
    for (size_t offset = 0; offset < MIB + 512; offset += 64 * KIB) {
        size_t block = MIB + 512 - offset < 64 * KIB? MIB + 512 - offset: 64 * KIB;
        assert_memory_not_equal (written + offset, rewritten + offset, block);
    }
    free (written);
    free (rewritten);
    stream_destroy (&stream);
    assert_int_equal (streams_file_size (fx->path), -1);
}

static void
test_rewrite_in_place (void **state)
{
    s_rewrite_in_place (*state, JOB_ENGINE_PSYNC, 1);
}

//  The same on io_uring, 8 records in flight: the engine's slots take
//  the rewrite's own data at its phase, and the file opened again.
static void
test_rewrite_queued (void **state)
{
    s_rewrite_in_place (*state, JOB_ENGINE_IO_URING, 8);
}

//  O_DIRECT both times, on this file system.
static void
test_rewrite_direct (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = streams_spec (WORKLOAD_REWRITE, MIB, 64 * KIB);
    spec.direct = true;
    stream_t *stream = streams_ready (&spec, fx->path);
    msg_result_t result;
    streams_phase (stream, 0, &result);
    assert_int_equal (result.bytes, MIB);
    streams_phase (stream, 1, &result);
    assert_int_equal (result.bytes, MIB);
    stream_destroy (&stream);
}

//  The rewrite writes only the file the write wrote: not one put in its
//  place between the phases (which stays), nor one given a hard link.
static void
test_rewrite_refuses_another_file (void **state)
{
    fixture_t *fx = *state;
    char other [PATH_MAX + 8];
    snprintf (other, sizeof (other), "%s/other", fx->dir);
    for (int replace = 0; replace <= 1; replace++) {
        jobspec_t spec = streams_spec (WORKLOAD_REWRITE, 256 * KIB, 64 * KIB);
        stream_t *stream = streams_ready (&spec, fx->path);
        msg_result_t result;
        streams_phase (stream, 0, &result);
        if (replace) {
            streams_write_file (other, (const unsigned char *) "mine", 4);
            assert_int_equal (rename (other, fx->path), 0);
        }
        else
            assert_int_equal (link (fx->path, other), 0);
        stream_start (stream, 1, clock_now_ns ());
        streams_result (stream, &result);
        assert_non_null (strstr (result.error, replace? "no longer the file": "hard links"));
        assert_int_equal (result.bytes, 0);
        stream_destroy (&stream);
        if (replace) {
            assert_int_equal (streams_file_size (fx->path), 4);
            assert_int_equal (unlink (fx->path), 0);
        }
        else {
            assert_int_equal (streams_file_size (other), 256 * KIB);
            unlink (fx->path);
            assert_int_equal (unlink (other), 0);
        }
    }
}

//  A copy counts its reads as well as its writes: one per call.
static void
test_copy_counts_reads (void **state)
{
    fixture_t *fx = *state;
    char source [PATH_MAX + 8];
    snprintf (source, sizeof (source), "%s/source", fx->dir);
    unsigned char *data = streams_random_data (300 * KIB + 5);
    streams_write_file (source, data, 300 * KIB + 5);
    jobspec_t spec = streams_spec (WORKLOAD_COPY, 0, 64 * KIB);
    msg_strcpy (spec.src, source, sizeof (spec.src));
    msg_strcpy (spec.dst, fx->path, sizeof (spec.dst));
    spec.keep = true;
    stream_t *stream = streams_ready (&spec, fx->path);
    msg_result_t result;
    streams_phase (stream, 0, &result);
    assert_int_equal (result.bytes, 300 * KIB + 5);
    assert_int_equal (result.reads, 5);
    assert_int_equal (result.writes, 5);
    stream_destroy (&stream);
    size_t length;
    unsigned char *copied = streams_read_file (fx->path, &length);
    assert_int_equal (length, 300 * KIB + 5);
    assert_memory_equal (copied, data, length);
    free (copied);
    free (data);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_registry),
#define CASE(name) cmocka_unit_test_setup_teardown (name, streams_setup, streams_teardown)
        CASE (test_read_lays_out_missing_file),
        CASE (test_read_keeps_its_file),
        CASE (test_read_whole_file),
        CASE (test_read_leaves_existing_file),
        CASE (test_read_extends_short_file),
        CASE (test_read_prepare_errors),
        CASE (test_read_direct),
        CASE (test_read_rate),
        CASE (test_read_layouts_take_turns),
        CASE (test_read_stop_during_layout),
        CASE (test_rewrite_in_place),
        CASE (test_rewrite_queued),
        CASE (test_rewrite_direct),
        CASE (test_rewrite_refuses_another_file),
        CASE (test_copy_counts_reads),
#undef CASE
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
