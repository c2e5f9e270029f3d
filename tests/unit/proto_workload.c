/*  tests/unit/proto_workload.c: the workload descriptor table and the
    rules both sides derive from it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../proto/workload.h"

#include <stdio.h>
#include <string.h>

//  A job of workload with every default and the given path.
static jobspec_t
s_job (int workload, const char *path)
{
    jobspec_t spec;
    jobspec_defaults (&spec);
    spec.workload = workload;
    snprintf (spec.path, sizeof (spec.path), "%s", path);
    spec.size_bytes = 1 << 20;
    return spec;
}

//  Every row is complete and names only options the table has: a key,
//  a required option, a file option and a default that does not exist
//  would be a rule that can never apply.
static void
test_rows_name_real_options (void **state)
{
    (void) state;
    for (int w = 0; w < WORKLOAD_COUNT; w++) {
        const workload_desc_t *desc = workload_desc (w);
        assert_non_null (desc);
        assert_string_equal (desc->name, jobspec_workload_names [w]);
        assert_non_null (desc->help);
        //  Only timed workloads can report streams or sample the host.
        if (desc->stream_results || desc->samples_host)
            assert_true (desc->timed);
        for (size_t i = 0; i < WORKLOAD_KEYS_MAX && desc->keys [i]; i++)
            assert_non_null (jobspec_option (desc->keys [i]));
        for (size_t i = 0; i < 4 && desc->required [i]; i++) {
            const opt_def_t *opt = jobspec_option (desc->required [i]);
            assert_non_null (opt);
            assert_int_equal (opt->type, OPT_STRING);
            assert_true (workload_uses_key (desc, desc->required [i]));
        }
        const workload_file_t *file;
        for (size_t f = 0; (file = workload_file (desc, f)); f++) {
            const opt_def_t *opt = jobspec_option (file->option);
            assert_non_null (opt);
            assert_int_equal (opt->type, OPT_STRING);
            assert_true (workload_uses_key (desc, file->option));
        }
        for (size_t d = 0; d < WORKLOAD_DEFAULTS_MAX && desc->defaults [d].option; d++) {
            assert_true (workload_uses_key (desc, desc->defaults [d].option));
            if (desc->defaults [d].unless)
                assert_true (workload_uses_key (desc, desc->defaults [d].unless));
        }
        assert_true (workload_phase_count (desc) >= 1);
    }
    assert_null (jobspec_workload_names [WORKLOAD_COUNT]);
    assert_null (workload_desc (-1));
    assert_null (workload_desc (WORKLOAD_COUNT));
}

//  The phases of rewrite and bonnie, and the one phase of write.
static void
test_phases (void **state)
{
    (void) state;
    const workload_desc_t *write = workload_desc (WORKLOAD_WRITE);
    assert_int_equal (workload_phase_count (write), 1);
    assert_null (workload_phase_name (write, 0));
    const workload_desc_t *rewrite = workload_desc (WORKLOAD_REWRITE);
    assert_int_equal (workload_phase_count (rewrite), 2);
    assert_string_equal (workload_phase_name (rewrite, 0), "write");
    assert_string_equal (workload_phase_name (rewrite, 1), "rewrite");
    const workload_desc_t *bonnie = workload_desc (WORKLOAD_BONNIE);
    assert_int_equal (workload_phase_count (bonnie), 4);
    assert_string_equal (workload_phase_name (bonnie, 3), "seeks");
    assert_int_equal (workload_phase_rate (bonnie, 3), RATE_OPS);
    assert_int_equal (workload_phase_rate (bonnie, 0), RATE_BYTES);
}

//  Which keys a workload takes: the common ones, and its own.
static void
test_keys (void **state)
{
    (void) state;
    const workload_desc_t *write = workload_desc (WORKLOAD_WRITE);
    assert_true (workload_uses_key (write, "path"));
    assert_true (workload_uses_key (write, "interval"));
    assert_false (workload_uses_key (write, "src"));
    assert_false (workload_uses_key (write, "seekers"));
    const workload_desc_t *monitor = workload_desc (WORKLOAD_MONITOR);
    assert_false (workload_uses_key (monitor, "path"));
    assert_false (workload_uses_key (monitor, "size"));
    assert_true (workload_uses_key (workload_desc (WORKLOAD_BONNIE), "seekers"));
}

//  A job option's help names the workloads that take it, from their
//  rows; an option of every job names none.
static void
test_option_help (void **state)
{
    (void) state;
    char help [1024];
    workload_option_help (jobspec_option ("files"), help, sizeof help);
    assert_string_equal (help, "randrw: files in the job's file set, which size is the total "
                               "of; one file is path itself, more are path.1 .. path.N "
                               "(sysbench --file-num)");
    workload_option_help (jobspec_option ("streams"), help, sizeof help);
    assert_string_equal (help, jobspec_option ("streams")->help);
    //  Every workload listed takes the option, and every one that takes
    //  it is listed.
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++) {
        workload_option_help (opt, help, sizeof help);
        for (int workload = 0; workload < WORKLOAD_COUNT; workload++) {
            const workload_desc_t *desc = workload_desc (workload);
            const char *name = desc->name;
            size_t length = strlen (name);
            bool listed = false;
            for (const char *at = help; (at = strstr (at, name)); at += length)
                if ((at == help || (at >= help + 2 && at [-2] == ','))
                &&  (at [length] == ',' || at [length] == ':'))
                    listed = true;
            bool common = workload_uses_key (workload_desc (WORKLOAD_NULL), opt->name)
                       && workload_uses_key (workload_desc (WORKLOAD_MONITOR), opt->name);
            if (!common && workload_uses_key (desc, opt->name) != listed)
                fail_msg ("%s: %s: %s", opt->name, desc->name, help);
        }
    }
}

//  The seed tools' notations: found by the workload's name, with their
//  phases.
static void
test_notation (void **state)
{
    (void) state;
    assert_null (workload_find ("nonesuch"));
    for (int workload = 0; workload < WORKLOAD_COUNT; workload++)
        assert_ptr_equal (workload_find (workload_desc (workload)->name), workload_desc (workload));
    assert_int_equal (workload_desc (WORKLOAD_BONNIE)->notation, NOTATION_BONNIE);
    assert_int_equal (workload_phase_count (workload_desc (WORKLOAD_BONNIE)), 4);
    assert_int_equal (workload_desc (WORKLOAD_REWRITE)->notation, NOTATION_IOZONE);
    assert_int_equal (workload_desc (WORKLOAD_WRITE)->notation, NOTATION_NONE);
}

//  Each rule names the option at fault.
static void
test_check (void **state)
{
    (void) state;
    const char *key = NULL;
    char err [256];

    jobspec_t spec = s_job (WORKLOAD_WRITE, "");
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "path");
    assert_string_equal (err, "the write workload needs a path");

    spec = s_job (WORKLOAD_WRITE, "dd1");
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), 0);
    spec.size_bytes = 0;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "size");

    //  psync has one request in flight: a depth needs io_uring.
    spec = s_job (WORKLOAD_WRITE, "dd1");
    spec.iodepth = 8;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "iodepth");
    assert_non_null (strstr (err, "needs engine = io_uring"));
    spec.engine = JOB_ENGINE_IO_URING;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), 0);

    //  A copy and a read without a size take the whole file.
    spec = s_job (WORKLOAD_COPY, "");
    strcpy (spec.src, "nfs://srv/export/src");
    strcpy (spec.dst, "dst");
    spec.size_bytes = 0;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), 0);
    strcpy (spec.dst, "nfs://srv/export/dst");
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "dst");
    assert_non_null (strstr (err, "cannot be written"));
    strcpy (spec.dst, "dst");
    strcpy (spec.src, "nfs://srv");
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "src");
    strcpy (spec.src, "http://srv/x");
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "src");

    //  A depth on psync is READ calls in flight for an nfs:// source
    //  only: a local one needs io_uring.
    strcpy (spec.src, "nfs://srv/export/src");
    spec.iodepth = 8;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), 0);
    assert_true (workload_reads_nfs (&spec));
    strcpy (spec.src, "src");
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "iodepth");
    assert_false (workload_reads_nfs (&spec));

    spec = s_job (WORKLOAD_READ, "nfs://srv/export/f?version=4");
    spec.size_bytes = 0;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), 0);
    spec.iodepth = 8;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), 0);

    spec = s_job (WORKLOAD_MONITOR, "");
    spec.streams = 2;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "streams");

    spec = s_job (WORKLOAD_WRITE, "dd1");
    spec.direct = true;
    spec.bs_bytes = 1000;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "bs");
    spec.bs_bytes = 4096;
    spec.size_bytes = 4097;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "size");
}

//  The files a job names: a copy's source is shared, its destinations
//  one per stream; an nfs:// source is no local file.
static void
test_files (void **state)
{
    (void) state;
    jobspec_t spec = s_job (WORKLOAD_COPY, "");
    strcpy (spec.src, "src");
    strcpy (spec.dst, "out");
    spec.streams = 3;
    assert_int_equal (workload_file_count (&spec, 0), 1);
    assert_int_equal (workload_file_count (&spec, 1), 3);
    assert_int_equal (workload_file_count (&spec, 2), 0);
    char path [64];
    assert_int_equal (workload_file_path (&spec, 0, 0, path, sizeof (path)), 0);
    assert_string_equal (path, "src");
    assert_int_equal (workload_file_path (&spec, 1, 2, path, sizeof (path)), 0);
    assert_string_equal (path, "out.3");
    strcpy (spec.src, "nfs://srv/export/src");
    assert_int_equal (workload_file_count (&spec, 0), 0);

    spec = s_job (WORKLOAD_WRITE, "one");
    assert_int_equal (workload_file_count (&spec, 0), 1);
    assert_int_equal (workload_file_path (&spec, 0, 0, path, sizeof (path)), 0);
    assert_string_equal (path, "one");
    assert_int_equal (workload_file_path (&spec, 0, 0, path, 3), -1);
}

//  workload_apply_defaults, with the reason printed should it fail.
static int
s_defaults (jobspec_t *spec, workload_given_fn *given)
{
    const char *key = NULL;
    char err [256] = "";
    int rc = workload_apply_defaults (spec, given, NULL, &key, err, sizeof (err));
    if (rc)
        print_message ("defaults: %s: %s\n", key, err);
    return rc;
}

//  Which options the scenario set, for the defaults test.
static bool
s_given_fsync (const char *option, void *arg)
{
    (void) arg;
    return strcmp (option, "fsync") == 0;
}

//  A workload's own defaults apply only to options nobody set.
static void
test_defaults (void **state)
{
    (void) state;
    jobspec_t spec = s_job (WORKLOAD_BONNIE, "b");
    assert_int_equal (spec.bs_bytes, 1 << 20);
    assert_int_equal (s_defaults (&spec, NULL), 0);
    assert_int_equal (spec.bs_bytes, 8192);
    assert_int_equal (spec.fsync_mode, FSYNC_CLOSE);

    spec = s_job (WORKLOAD_BONNIE, "b");
    spec.fsync_mode = FSYNC_NONE;
    assert_int_equal (s_defaults (&spec, s_given_fsync), 0);
    assert_int_equal (spec.bs_bytes, 8192);
    assert_int_equal (spec.fsync_mode, FSYNC_NONE);

    spec = s_job (WORKLOAD_WRITE, "w");
    assert_int_equal (s_defaults (&spec, NULL), 0);
    assert_int_equal (spec.bs_bytes, 1 << 20);
}

//  The options a randrw scenario set, named in arg as "a,b,c".
static bool
s_given_list (const char *option, void *arg)
{
    const char *list = (const char *) arg;
    size_t len = strlen (option);
    for (const char *p = list; p && *p; ) {
        const char *comma = strchr (p, ',');
        size_t n = comma? (size_t) (comma - p): strlen (p);
        if (n == len && strncmp (p, option, n) == 0)
            return true;
        p = comma? comma + 1: NULL;
    }
    return false;
}

//  randrw: sysbench's defaults (16K blocks, 10000 requests unless a
//  runtime ends the run), read_pct turned into mode and ratio, and its
//  own rules.
static void
test_randrw (void **state)
{
    (void) state;
    const char *key = NULL;
    char err [256] = "";
    jobspec_t spec = s_job (WORKLOAD_RANDRW, "set");
    spec.size_bytes = 128 << 20;
    assert_int_equal (workload_apply_defaults (&spec, s_given_list, (void *) "size", &key,
                                               err, sizeof (err)), 0);
    assert_int_equal (spec.bs_bytes, 16384);
    assert_int_equal (spec.requests, 10000);
    assert_int_equal (spec.files, 128);
    assert_int_equal (spec.rw_mode, RW_MODE_RNDRW);
    assert_int_equal (spec.rwratio, 1500000);
    assert_int_equal (spec.fsync_every, 100);
    assert_int_equal (workload_bound (&spec), BOUND_REQUESTS);
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), 0);
    assert_int_equal (workload_phase_rate (workload_desc (WORKLOAD_RANDRW), 0), RATE_REQUESTS);

    //  A runtime leaves requests at 0: the clock ends the run.
    spec = s_job (WORKLOAD_RANDRW, "set");
    spec.size_bytes = 128 << 20;
    spec.runtime_ns = 30000000000LL;
    assert_int_equal (workload_apply_defaults (&spec, s_given_list, (void *) "runtime", &key,
                                               err, sizeof (err)), 0);
    assert_int_equal (spec.requests, 0);
    assert_int_equal (workload_bound (&spec), BOUND_TIME);
    spec.runtime_ns = 0;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "requests");

    //  read_pct: 70 is 7 reads per 3 writes; 100 reads only; 0 writes only.
    static const struct { uint64_t pct; int mode; uint64_t ratio; } cases [] = {
        { 70, RW_MODE_RNDRW, 2333333 }, { 50, RW_MODE_RNDRW, 1000000 },
        { 100, RW_MODE_RNDRD, 1500000 }, { 0, RW_MODE_RNDWR, 1500000 },
    };
    for (size_t i = 0; i < sizeof (cases) / sizeof (cases [0]); i++) {
        spec = s_job (WORKLOAD_RANDRW, "set");
        spec.read_pct = cases [i].pct;
        assert_int_equal (workload_apply_defaults (&spec, s_given_list, (void *) "read_pct",
                                                   &key, err, sizeof (err)), 0);
        assert_int_equal (spec.rw_mode, cases [i].mode);
        assert_int_equal (spec.rwratio, cases [i].ratio);
    }
    spec = s_job (WORKLOAD_RANDRW, "set");
    assert_int_equal (workload_apply_defaults (&spec, s_given_list, (void *) "read_pct,rwratio",
                                               &key, err, sizeof (err)), -1);
    assert_string_equal (key, "read_pct");
    assert_non_null (strstr (err, "not both"));
    spec = s_job (WORKLOAD_RANDRW, "set");
    spec.read_pct = 100;
    spec.rw_mode = RW_MODE_RNDWR;
    assert_int_equal (workload_apply_defaults (&spec, s_given_list, (void *) "read_pct,mode",
                                               &key, err, sizeof (err)), -1);
    assert_non_null (strstr (err, "means mode rndrd, not rndwr"));

    //  A block larger than a file of the set is refused, naming both.
    spec = s_job (WORKLOAD_RANDRW, "set");
    spec.size_bytes = 1 << 20;              //  128 files of 8K
    spec.bs_bytes = 16384;
    spec.requests = 10;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "bs");
    assert_non_null (strstr (err, "holds 8192 bytes"));

    //  A walk in order has no distribution of offsets to follow.
    spec = s_job (WORKLOAD_RANDRW, "set");
    spec.requests = 10;
    spec.bs_bytes = 4096;
    spec.access = ACCESS_SEQUENTIAL;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), 0);
    snprintf (spec.random_distribution, sizeof spec.random_distribution, "zipf:1.2");
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "random_distribution");
    assert_non_null (strstr (err, "access = sequential walks the blocks in order"));

    //  The set's files: the path itself for one, path.1 .. path.N for more.
    spec = s_job (WORKLOAD_RANDRW, "set");
    spec.files = 3;
    spec.streams = 16;
    char path [64];
    assert_int_equal (workload_file_count (&spec, 0), 3);
    assert_int_equal (workload_file_path (&spec, 0, 2, path, sizeof (path)), 0);
    assert_string_equal (path, "set.3");
    assert_int_equal (workload_file_path (&spec, 0, 3, path, sizeof (path)), -1);
    spec.files = 1;
    assert_int_equal (workload_file_path (&spec, 0, 0, path, sizeof (path)), 0);
    assert_string_equal (path, "set");

    //  A ramp must leave some of the runtime.
    spec = s_job (WORKLOAD_WRITE, "w");
    spec.runtime_ns = 5000000000LL;
    spec.ramp_ns = 5000000000LL;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "ramp");
    assert_string_equal (workload_bound_name (workload_bound (&spec)), "time");
    //  And a ramp needs a runtime: a size-bound job has no window to
    //  leave its first seconds out of.
    spec.runtime_ns = 0;
    spec.ramp_ns = 10 * 1000000000LL;
    assert_int_equal (workload_check (&spec, &key, err, sizeof (err)), -1);
    assert_string_equal (key, "ramp");
    assert_non_null (strstr (err, "give a runtime"));
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_rows_name_real_options),
        cmocka_unit_test (test_phases),
        cmocka_unit_test (test_keys),
        cmocka_unit_test (test_option_help),
        cmocka_unit_test (test_notation),
        cmocka_unit_test (test_check),
        cmocka_unit_test (test_files),
        cmocka_unit_test (test_defaults),
        cmocka_unit_test (test_randrw),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
