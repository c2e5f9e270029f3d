/*  tests/unit/proto_jobspec.c: the job option table, option text parsing
    and formatting, stream paths and the jobspec wire codec.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../proto/jobspec.h"
#include "../../proto/workload.h"
#include "../../proto/clock.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KIB ((uint64_t) 1 << 10)
#define MIB ((uint64_t) 1 << 20)
#define GIB ((uint64_t) 1 << 30)
#define TIB ((uint64_t) 1 << 40)
#define PIB ((uint64_t) 1 << 50)

//  A struct of our own, to show opt_parse works on any base its rows
//  point into, with rows that have no bounds at all.
typedef struct {
    uint64_t bytes;             //  OPT_SIZE, unbounded
    uint64_t count;             //  OPT_COUNT, unbounded
    int64_t ns;                 //  OPT_DURATION, unbounded
    bool flag;                  //  OPT_BOOL
    int choice;                 //  OPT_ENUM
    char text [8];              //  OPT_STRING, 7 characters at most
} sample_t;

static const char *const s_colours [] = { "red", "green", "blue", NULL };

static const opt_def_t s_rows [] = {
    { .name = "bytes", .type = OPT_SIZE, .offset = offsetof (sample_t, bytes) },
    { .name = "count", .type = OPT_COUNT, .offset = offsetof (sample_t, count) },
    { .name = "ns", .type = OPT_DURATION, .offset = offsetof (sample_t, ns) },
    { .name = "flag", .type = OPT_BOOL, .offset = offsetof (sample_t, flag) },
    { .name = "choice", .type = OPT_ENUM, .offset = offsetof (sample_t, choice),
      .choices = s_colours },
    { .name = "text", .type = OPT_STRING, .offset = offsetof (sample_t, text),
      .capacity = sizeof (((sample_t *) 0)->text) },
    { .name = NULL }
};
#define ROW_BYTES  (&s_rows [0])
#define ROW_COUNT  (&s_rows [1])
#define ROW_NS     (&s_rows [2])
#define ROW_FLAG   (&s_rows [3])
#define ROW_CHOICE (&s_rows [4])
#define ROW_TEXT   (&s_rows [5])

//  Parse text with opt into a fresh sample and expect success.
static sample_t
s_parse_ok (const opt_def_t *opt, const char *text)
{
    sample_t sample;
    memset (&sample, 0, sizeof (sample));
    char err [256] = "";
    int rc = opt_parse (opt, text, &sample, err, sizeof (err));
    if (rc != 0)
        fail_msg ("%s = '%s' refused: %s", opt->name, text, err);
    return sample;
}

//  Parse text with opt and expect a refusal whose message contains
//  `expect` (if not NULL); the target must be left untouched.
static void
s_parse_bad (const opt_def_t *opt, const char *text, const char *expect)
{
    unsigned char before [sizeof (jobspec_t)];
    jobspec_t spec;
    memset (&spec, 0xA5, sizeof (spec));
    memcpy (before, &spec, sizeof (spec));
    char err [256] = "";
    int rc = opt_parse (opt, text, &spec, err, sizeof (err));
    if (rc != -1)
        fail_msg ("%s = '%s' was accepted", opt->name, text);
    assert_true (strlen (err) > 0);
    if (expect && !strstr (err, expect))
        fail_msg ("%s = '%s': message '%s' lacks '%s'", opt->name, text, err, expect);
    assert_memory_equal (before, &spec, sizeof (spec));
}

//  Parse text with a jobspec option and expect success.
static jobspec_t
s_spec_ok (const char *name, const char *text)
{
    jobspec_t spec;
    jobspec_defaults (&spec);
    const opt_def_t *opt = jobspec_option (name);
    assert_non_null (opt);
    char err [256] = "";
    if (opt_parse (opt, text, &spec, err, sizeof (err)) != 0)
        fail_msg ("%s = '%s' refused: %s", name, text, err);
    return spec;
}

//  --------------------------------------------------------------------

static void
test_table (void **state)
{
    (void) state;
    const char *keys [] = {
        "name", "test", "agent", "workload", "path", "src", "dst", "size", "bs",
        "streams", "direct", "fsync", "pattern", "class", "keep", "refill", "interval", "rate", "rate_iops", "drop_caches", "settle",
        "seekers", "seeks", "runtime", "ramp", "files", "mode", "rwratio", "read_pct",
        "fsync_every", "fsync_call", "fsync_end", "requests", "access",
        "random_distribution", "randseed", "engine", "iodepth", "iomem"
    };
    size_t rows = 0;
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++) {
        rows++;
        assert_non_null (opt->help);
        assert_true (strlen (opt->help) > 10);
        //  --help puts the workloads that take an option before its
        //  help, from their descriptors: the help names none itself.
        for (const char *const *workload = jobspec_workload_names; *workload; workload++) {
            size_t length = strlen (*workload);
            bool named = strncmp (opt->help, *workload, length) == 0
                      && (opt->help [length] == ':' || opt->help [length] == ',');
            if (named)
                fail_msg ("option %s: its help begins with \"%s\"", opt->name, *workload);
        }
        assert_ptr_equal (jobspec_option (opt->name), opt);
        if (opt->type == OPT_STRING)
            assert_true (opt->capacity > 1);
        if (opt->type == OPT_ENUM)
            assert_non_null (opt->choices);
        if (opt->type == OPT_SIZE || opt->type == OPT_COUNT || opt->type == OPT_DURATION
        ||  opt->type == OPT_DECIMAL) {
            assert_true (opt->min <= opt->max);
            assert_true (opt->max > 0);
        }
    }
    assert_int_equal (rows, sizeof (keys) / sizeof (keys [0]));
    for (size_t i = 0; i < rows; i++)
        assert_non_null (jobspec_option (keys [i]));

    assert_null (jobspec_option ("colour"));
    assert_null (jobspec_option (""));
    assert_null (jobspec_option (NULL));
    assert_null (jobspec_option ("BS"));

    //  Flags as the scenario parser and the codec rely on them.
    assert_int_equal (jobspec_option ("name")->flags, OPT_WIRE | OPT_HEADER);
    assert_int_equal (jobspec_option ("test")->flags, OPT_WIRE);
    assert_int_equal (jobspec_option ("agent")->flags, 0);
    assert_int_equal (jobspec_option ("path")->flags, OPT_WIRE);
    assert_int_equal (jobspec_option ("class")->flags, OPT_WIRE);
    assert_int_equal (jobspec_option ("bs")->flags, OPT_WIRE | OPT_GLOBAL);
    assert_int_equal (jobspec_option ("interval")->flags, OPT_WIRE | OPT_GLOBAL);
    assert_int_equal (jobspec_option ("settle")->flags, OPT_WIRE | OPT_GLOBAL);
    assert_int_equal (jobspec_option ("path")->capacity, JOB_PATH_MAX + 1);
    assert_int_equal (jobspec_option ("name")->capacity, JOB_NAME_MAX + 1);
    assert_int_equal (jobspec_option ("size")->min, 0);     //  0: not given (copy: all)
    assert_int_equal (jobspec_option ("size")->max, PIB);
    assert_null (jobspec_option ("size")->default_text);
    assert_int_equal (jobspec_option ("bs")->min, 512);
    assert_int_equal (jobspec_option ("bs")->max, 64 * MIB);
    assert_int_equal (jobspec_option ("streams")->max, JOB_STREAMS_MAX);
    assert_int_equal (jobspec_option ("interval")->min, 10 * NS_PER_MSEC);
    assert_int_equal (jobspec_option ("interval")->max, 3600 * NS_PER_SEC);
}

static void
test_defaults (void **state)
{
    (void) state;
    jobspec_t spec;
    memset (&spec, 0x5A, sizeof (spec));
    jobspec_defaults (&spec);
    assert_string_equal (spec.name, "");
    assert_string_equal (spec.test, "");
    assert_string_equal (spec.agent, "");
    assert_string_equal (spec.path, "");
    assert_string_equal (spec.src, "");
    assert_string_equal (spec.dst, "");
    assert_int_equal (spec.workload, WORKLOAD_WRITE);
    assert_int_equal (spec.size_bytes, 0);
    assert_int_equal (spec.bs_bytes, MIB);
    assert_int_equal (spec.streams, 1);
    assert_false (spec.direct);
    assert_int_equal (spec.fsync_mode, FSYNC_END);
    assert_int_equal (spec.fsync_call, FSYNC_CALL_FSYNC);
    assert_int_equal (spec.iomem, JOB_IOMEM_MALLOC);
    assert_true (spec.fsync_end);
    assert_int_equal (spec.pattern, PATTERN_ZERO);
    assert_int_equal (spec.job_class, CLASS_AUTO);
    assert_false (spec.keep);
    assert_int_equal (spec.interval_ns, NS_PER_SEC);

    //  Every default reads back as itself.
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++) {
        if (!opt->default_text)
            continue;
        char text [64];
        assert_int_equal (opt_format (opt, &spec, text, sizeof (text)), 0);
        assert_string_equal (text, opt->default_text);
    }
}

static void
test_parse_size (void **state)
{
    (void) state;
    static const struct { const char *text; uint64_t bytes; } good [] = {
        { "0", 0 }, { "1", 1 }, { "4096", 4096 }, { "4K", 4096 }, { "4k", 4096 },
        { "4KiB", 4096 }, { "4KB", 4096 }, { "4kib", 4096 }, { "4kb", 4096 },
        { "1M", MIB }, { "1MB", MIB }, { "1MiB", MIB }, { "3G", 3 * GIB },
        { "1T", TIB }, { "2P", 2 * PIB }, { "512B", 512 }, { "512b", 512 },
        { "1.5K", 1536 }, { "0.5M", MIB / 2 }, { "0.25G", GIB / 4 },
        //  5.2 * 2^30 = 5583457484.8, rounded to the byte
        { "5.2G", 5583457485ULL },
        //  1.0001 * 1024 = 1024.1024
        { "1.0001K", 1024 }, { "1.0005K", 1025 }, { "1.5", 2 }, { "2.4", 2 },
        { "0.0000000000000000001P", 0 },
        { "18446744073709551615", UINT64_MAX }, { "15.99999999P", 18014398498222985ULL },
        { "16383.999999999999999999999T", 16384 * TIB },
        { "007K", 7 * KIB }
    };
    for (size_t i = 0; i < sizeof (good) / sizeof (good [0]); i++) {
        sample_t sample = s_parse_ok (ROW_BYTES, good [i].text);
        if (sample.bytes != good [i].bytes)
            fail_msg ("'%s' gave %" PRIu64 ", want %" PRIu64,
                      good [i].text, sample.bytes, good [i].bytes);
    }
    const char *junk [] = {
        "-1", "K", "4Q", "4 K", "1.", ".5K", "4KiBB", "4Ki", "4iB", "1e3", "0x10",
        "+4K", "4K4", "4KK", "1,5G", "1..5G", "4M B", "inf", "nan",
        "4Kb!", "five"
    };
    for (size_t i = 0; i < sizeof (junk) / sizeof (junk [0]); i++)
        s_parse_bad (ROW_BYTES, junk [i], "is not a size");
    s_parse_bad (ROW_BYTES, "", "empty value");
    s_parse_bad (ROW_BYTES, " 4K", "blanks");
    s_parse_bad (ROW_BYTES, "4K ", "blanks");
    s_parse_bad (ROW_BYTES, "\t4K", "blanks");
    s_parse_bad (ROW_BYTES, "1G\n", "blanks");
    s_parse_bad (ROW_BYTES, "18446744073709551616", "too large");
    s_parse_bad (ROW_BYTES, "99999999999999999999999K", "too large");
    s_parse_bad (ROW_BYTES, "16384P", "too large");
    s_parse_bad (ROW_BYTES, "17179869184T", "too large");
    s_parse_bad (ROW_BYTES, "16383.9999999999999999999999999P", "too large");
    s_parse_bad (ROW_BYTES, "'quoted'", "''quoted'' is not a size (use 4096, 4K, 1M, 5.2G)");

    //  Bounds, said in the form of the bound.
    jobspec_t spec = s_spec_ok ("bs", "512");
    assert_int_equal (spec.bs_bytes, 512);
    spec = s_spec_ok ("bs", "64M");
    assert_int_equal (spec.bs_bytes, 64 * MIB);
    spec = s_spec_ok ("bs", "0.5K");
    assert_int_equal (spec.bs_bytes, 512);
    s_parse_bad (jobspec_option ("bs"), "0", "'0' is below the minimum 512");
    s_parse_bad (jobspec_option ("bs"), "511", "'511' is below the minimum 512");
    s_parse_bad (jobspec_option ("bs"), "128M", "'128M' is above the maximum 64M");
    s_parse_bad (jobspec_option ("bs"), "65537K", "'65537K' is above the maximum 64M");
    spec = s_spec_ok ("size", "1P");
    assert_int_equal (spec.size_bytes, PIB);
    spec = s_spec_ok ("size", "1");
    assert_int_equal (spec.size_bytes, 1);
    //  0 is "no size given": only copy takes it (the whole source).
    spec = s_spec_ok ("size", "0");
    assert_int_equal (spec.size_bytes, 0);
    s_parse_bad (jobspec_option ("size"), "1025T", "'1025T' is above the maximum 1P");
    spec = s_spec_ok ("size", "0.4");
    assert_int_equal (spec.size_bytes, 0);
}

//  Decimals (rwratio) are read exactly as millionths, written back the
//  shortest way, and refused when negative or not a number.
static void
test_parse_decimal (void **state)
{
    (void) state;
    const opt_def_t *opt = jobspec_option ("rwratio");
    assert_non_null (opt);
    assert_int_equal (opt->type, OPT_DECIMAL);
    static const struct { const char *text; uint64_t millionths; const char *back; } cases [] = {
        { "1.5", 1500000, "1.5" }, { "2", 2000000, "2" }, { "0.25", 250000, "0.25" },
        { "0.000001", 1, "0.000001" }, { "3.0000004", 3000000, "3" },
        { "3.0000005", 3000001, "3.000001" }, { "1000000", 1000000ULL * 1000000, "1000000" },
    };
    for (size_t i = 0; i < sizeof (cases) / sizeof (cases [0]); i++) {
        jobspec_t spec;
        jobspec_defaults (&spec);
        char err [256] = "";
        if (opt_parse (opt, cases [i].text, &spec, err, sizeof (err)))
            fail_msg ("rwratio = %s refused: %s", cases [i].text, err);
        assert_int_equal (spec.rwratio, cases [i].millionths);
        char back [64];
        assert_int_equal (opt_format (opt, &spec, back, sizeof (back)), 0);
        assert_string_equal (back, cases [i].back);
    }
    s_parse_bad (opt, "-1", "'-1' is not a decimal number");
    s_parse_bad (opt, "1.5x", "is not a decimal number");
    s_parse_bad (opt, ".5", "is not a decimal number");
    s_parse_bad (opt, "0", "'0' is below the minimum 0.000001");
    s_parse_bad (opt, "1000000.1", "is above the maximum 1000000");
    s_parse_bad (opt, "99999999999999999999", "is too large");
}

static void
test_parse_duration (void **state)
{
    (void) state;
    static const struct { const char *text; int64_t ns; } good [] = {
        { "250ms", 250 * NS_PER_MSEC }, { "1s", NS_PER_SEC }, { "1.5s", 1500 * NS_PER_MSEC },
        { "2m", 120 * NS_PER_SEC }, { "100us", 100 * NS_PER_USEC }, { "1h", 3600 * NS_PER_SEC },
        { "3", 3 * NS_PER_SEC }, { "0.5", 500 * NS_PER_MSEC }, { "10ns", 10 }, { "0", 0 },
        { "0.001ms", 1000 }, { "1.0000000005s", 1000000001 }, { "1.0000000004s", 1000000000 },
        { "2.5m", 150 * NS_PER_SEC }, { "9223372036854775807ns", INT64_MAX },
        { "9223372036.854775807", INT64_MAX }
    };
    for (size_t i = 0; i < sizeof (good) / sizeof (good [0]); i++) {
        sample_t sample = s_parse_ok (ROW_NS, good [i].text);
        if (sample.ns != good [i].ns)
            fail_msg ("'%s' gave %" PRId64 ", want %" PRId64,
                      good [i].text, sample.ns, good [i].ns);
    }
    const char *junk [] = {
        "ms", "-1s", "1d", "1.s", "1S", "1MS", "1 s", "1sec", "1min", "s1", "1ss",
        "1ms5", "1m30s", "1e3ms", "1K"
    };
    for (size_t i = 0; i < sizeof (junk) / sizeof (junk [0]); i++)
        s_parse_bad (ROW_NS, junk [i], "is not a duration");
    s_parse_bad (ROW_NS, "", "empty");
    s_parse_bad (ROW_NS, "1s ", "blanks");
    s_parse_bad (ROW_NS, "9999999999h", "too large");
    s_parse_bad (ROW_NS, "9223372036854775808ns", "too large");
    s_parse_bad (ROW_NS, "9223372037", "too large");

    jobspec_t spec = s_spec_ok ("interval", "10ms");
    assert_int_equal (spec.interval_ns, 10 * NS_PER_MSEC);
    spec = s_spec_ok ("interval", "1h");
    assert_int_equal (spec.interval_ns, 3600 * NS_PER_SEC);
    spec = s_spec_ok ("interval", "0.01");
    assert_int_equal (spec.interval_ns, 10 * NS_PER_MSEC);
    s_parse_bad (jobspec_option ("interval"), "5ms", "'5ms' is below the minimum 10ms");
    s_parse_bad (jobspec_option ("interval"), "100us", "'100us' is below the minimum 10ms");
    s_parse_bad (jobspec_option ("interval"), "2h", "'2h' is above the maximum 3600s");
    s_parse_bad (jobspec_option ("interval"), "61m", "above the maximum");
}

static void
test_parse_bool_enum_count_string (void **state)
{
    (void) state;
    const char *yes [] = { "yes", "YES", "Yes", "true", "True", "on", "ON", "1" };
    const char *no [] = { "no", "No", "false", "FALSE", "off", "Off", "0" };
    for (size_t i = 0; i < sizeof (yes) / sizeof (yes [0]); i++)
        assert_true (s_parse_ok (ROW_FLAG, yes [i]).flag);
    for (size_t i = 0; i < sizeof (no) / sizeof (no [0]); i++) {
        sample_t sample;
        memset (&sample, 0, sizeof (sample));
        sample.flag = true;
        char err [128];
        assert_int_equal (opt_parse (ROW_FLAG, no [i], &sample, err, sizeof (err)), 0);
        assert_false (sample.flag);
    }
    const char *not_bool [] = { "maybe", "2", "y", "n", "yess", "t", "01", "-1" };
    for (size_t i = 0; i < sizeof (not_bool) / sizeof (not_bool [0]); i++)
        s_parse_bad (ROW_FLAG, not_bool [i], "is not yes or no");
    s_parse_bad (ROW_FLAG, " yes", "blanks");

    //  Enums, in any case.
    assert_int_equal (s_parse_ok (ROW_CHOICE, "red").choice, 0);
    assert_int_equal (s_parse_ok (ROW_CHOICE, "GREEN").choice, 1);
    assert_int_equal (s_parse_ok (ROW_CHOICE, "Blue").choice, 2);
    s_parse_bad (ROW_CHOICE, "purple", "'purple' is not one of red, green, blue");
    s_parse_bad (ROW_CHOICE, "re", "is not one of");
    s_parse_bad (ROW_CHOICE, "redd", "is not one of");
    jobspec_t spec = s_spec_ok ("fsync", "CLOSE");
    assert_int_equal (spec.fsync_mode, FSYNC_CLOSE);
    spec = s_spec_ok ("fsync", "none");
    assert_int_equal (spec.fsync_mode, FSYNC_NONE);
    spec = s_spec_ok ("workload", "null");
    assert_int_equal (spec.workload, WORKLOAD_NULL);
    spec = s_spec_ok ("pattern", "random");
    assert_int_equal (spec.pattern, PATTERN_RANDOM);
    spec = s_spec_ok ("class", "network");
    assert_int_equal (spec.job_class, CLASS_NETWORK);
    s_parse_bad (jobspec_option ("fsync"), "sometimes",
                 "'sometimes' is not one of none, end, close");
    s_parse_bad (jobspec_option ("workload"), "randwrite", "is not one of null, write, copy, fill");

    //  Counts.
    assert_int_equal (s_parse_ok (ROW_COUNT, "0").count, 0);
    assert_int_equal (s_parse_ok (ROW_COUNT, "42").count, 42);
    assert_true (s_parse_ok (ROW_COUNT, "18446744073709551615").count == UINT64_MAX);
    const char *not_count [] = { "1.5", "3x", "+3", "-1", "1K", "x", "1 2", "0x3" };
    for (size_t i = 0; i < sizeof (not_count) / sizeof (not_count [0]); i++)
        s_parse_bad (ROW_COUNT, not_count [i], "is not a whole number");
    s_parse_bad (ROW_COUNT, "18446744073709551616", "too large");
    spec = s_spec_ok ("streams", "256");
    assert_int_equal (spec.streams, 256);
    s_parse_bad (jobspec_option ("streams"), "0", "'0' is below the minimum 1");
    s_parse_bad (jobspec_option ("streams"), "1025", "'1025' is above the maximum 1024");

    //  Strings fit capacity - 1 and are not empty.
    assert_string_equal (s_parse_ok (ROW_TEXT, "abc").text, "abc");
    assert_string_equal (s_parse_ok (ROW_TEXT, "1234567").text, "1234567");
    assert_string_equal (s_parse_ok (ROW_TEXT, "a b").text, "a b");
    s_parse_bad (ROW_TEXT, "12345678", "8 bytes, longer than the limit 7");
    s_parse_bad (ROW_TEXT, "", "empty value");
    s_parse_bad (ROW_TEXT, " a", "blanks");
    s_parse_bad (ROW_TEXT, "a\n", "blanks");

    char path [JOB_PATH_MAX + 2];
    memset (path, 'p', sizeof (path));
    path [JOB_PATH_MAX] = 0;
    spec = s_spec_ok ("path", path);
    assert_int_equal (strlen (spec.path), JOB_PATH_MAX);
    path [JOB_PATH_MAX] = 'p';
    path [JOB_PATH_MAX + 1] = 0;
    s_parse_bad (jobspec_option ("path"), path, "1024 bytes, longer than the limit 1023");

    //  A long bad value is quoted only in part.
    char err [256];
    jobspec_t target;
    assert_int_equal (opt_parse (jobspec_option ("bs"), path, &target, err, sizeof (err)), -1);
    assert_non_null (strstr (err, "...'"));
    assert_true (strlen (err) < 120);

    //  A tiny error buffer is still terminated.
    char tiny [8];
    assert_int_equal (opt_parse (jobspec_option ("bs"), "0", &target, tiny, sizeof (tiny)), -1);
    assert_int_equal (strlen (tiny), sizeof (tiny) - 1);
}

//  Format the value in sample with opt and compare.
static void
s_format_is (const opt_def_t *opt, const sample_t *sample, const char *expect)
{
    char text [64];
    assert_int_equal (opt_format (opt, sample, text, sizeof (text)), 0);
    assert_string_equal (text, expect);
}

static void
test_format (void **state)
{
    (void) state;
    static const struct { uint64_t bytes; const char *text; } sizes [] = {
        { 0, "0" }, { 1, "1" }, { 1000, "1000" }, { 1023, "1023" }, { 1024, "1K" },
        { 1536, "1.5K" }, { 4096, "4K" }, { MIB, "1M" }, { 3 * MIB / 2, "1.5M" },
        { 5583457485ULL, "5.2G" }, { GIB + 1, "1073741825" }, { TIB, "1T" },
        { PIB, "1P" }, { 1024 * PIB, "1024P" }, { 64 * MIB, "64M" }, { 512, "512" },
        { 1025, "1025" }, { 10 * GIB + 512 * MIB, "10.5G" }
    };
    sample_t sample;
    memset (&sample, 0, sizeof (sample));
    for (size_t i = 0; i < sizeof (sizes) / sizeof (sizes [0]); i++) {
        sample.bytes = sizes [i].bytes;
        s_format_is (ROW_BYTES, &sample, sizes [i].text);
    }
    static const struct { int64_t ns; const char *text; } durations [] = {
        { NS_PER_SEC, "1s" }, { 250 * NS_PER_MSEC, "250ms" }, { 1500 * NS_PER_MSEC, "1500ms" },
        { 100 * NS_PER_USEC, "100us" }, { 7, "7ns" }, { 0, "0" },
        { 3600 * NS_PER_SEC, "3600s" }, { NS_PER_SEC + 1, "1000000001ns" }
    };
    for (size_t i = 0; i < sizeof (durations) / sizeof (durations [0]); i++) {
        sample.ns = durations [i].ns;
        s_format_is (ROW_NS, &sample, durations [i].text);
    }
    sample.count = 12345;
    s_format_is (ROW_COUNT, &sample, "12345");
    sample.flag = true;
    s_format_is (ROW_FLAG, &sample, "yes");
    sample.flag = false;
    s_format_is (ROW_FLAG, &sample, "no");
    sample.choice = 2;
    s_format_is (ROW_CHOICE, &sample, "blue");
    strcpy (sample.text, "hello");
    s_format_is (ROW_TEXT, &sample, "hello");

    //  Refusals: no room, an enum out of range, a string without its NUL.
    char text [8];
    sample.bytes = 5583457485ULL;
    assert_int_equal (opt_format (ROW_BYTES, &sample, text, 5), 0);
    assert_string_equal (text, "5.2G");
    assert_int_equal (opt_format (ROW_BYTES, &sample, text, 4), -1);
    assert_int_equal (opt_format (ROW_TEXT, &sample, text, 5), -1);
    assert_int_equal (opt_format (ROW_TEXT, &sample, text, 6), 0);
    sample.choice = 3;
    assert_int_equal (opt_format (ROW_CHOICE, &sample, text, sizeof (text)), -1);
    sample.choice = -1;
    assert_int_equal (opt_format (ROW_CHOICE, &sample, text, sizeof (text)), -1);
    memset (sample.text, 'x', sizeof (sample.text));
    assert_int_equal (opt_format (ROW_TEXT, &sample, text, sizeof (text)), -1);

    //  opt_format is the inverse of opt_parse: random values come back
    //  exactly, and their text is never longer than the plain digits.
    srandom (12345);
    for (int i = 0; i < 20000; i++) {
        uint64_t bytes = ((uint64_t) random () << 33) ^ ((uint64_t) random () << 2) ^ (uint64_t) random ();
        bytes >>= random () % 64;
        if (i % 3 == 0)
            bytes = (bytes % 100000) << (10 * (random () % 5));
        char buf [64], digits [32];
        sample.bytes = bytes;
        assert_int_equal (opt_format (ROW_BYTES, &sample, buf, sizeof (buf)), 0);
        snprintf (digits, sizeof (digits), "%" PRIu64, bytes);
        assert_true (strlen (buf) <= strlen (digits));
        sample_t back = s_parse_ok (ROW_BYTES, buf);
        if (back.bytes != bytes)
            fail_msg ("%" PRIu64 " formatted as '%s' reads back as %" PRIu64, bytes, buf, back.bytes);

        int64_t ns = (int64_t) (bytes >> 1);
        if (i % 2)
            ns = (ns % 100000) * (i % 4 == 1? NS_PER_MSEC: NS_PER_SEC) % INT64_MAX;
        sample.ns = ns;
        assert_int_equal (opt_format (ROW_NS, &sample, buf, sizeof (buf)), 0);
        back = s_parse_ok (ROW_NS, buf);
        assert_true (back.ns == ns);
    }
}

static void
test_names_and_paths (void **state)
{
    (void) state;
    assert_string_equal (jobspec_workload_name (WORKLOAD_NULL), "null");
    assert_string_equal (jobspec_workload_name (WORKLOAD_WRITE), "write");
    assert_string_equal (jobspec_workload_name (WORKLOAD_COPY), "copy");
    assert_string_equal (jobspec_workload_name (WORKLOAD_FILL), "fill");
    assert_string_equal (jobspec_workload_name (WORKLOAD_MONITOR), "monitor");
    assert_string_equal (jobspec_workload_name (WORKLOAD_BONNIE), "bonnie");
    assert_string_equal (jobspec_workload_name (WORKLOAD_COUNT), "?");
    jobspec_t spec;
    jobspec_defaults (&spec);
    assert_int_equal (workload_job_class (&spec), CLASS_DISK);
    spec.workload = WORKLOAD_COPY;
    strcpy (spec.src, "nfs://server/export/file");
    assert_int_equal (workload_job_class (&spec), CLASS_NETWORK);
    spec.job_class = CLASS_DISK;
    assert_int_equal (workload_job_class (&spec), CLASS_DISK);
    strcpy (spec.src, "/mnt/share/file");
    spec.job_class = CLASS_AUTO;
    assert_int_equal (workload_job_class (&spec), CLASS_DISK);
    //  Whatever option names the file read: a read's path.
    spec.workload = WORKLOAD_READ;
    strcpy (spec.path, "nfs://server/export/file");
    assert_int_equal (workload_job_class (&spec), CLASS_NETWORK);
    //  A workload that reads no URL is disk, whatever its other strings say.
    spec.workload = WORKLOAD_WRITE;
    strcpy (spec.src, "nfs://server/export/file");
    assert_int_equal (workload_job_class (&spec), CLASS_DISK);
    assert_string_equal (jobspec_fsync_name (FSYNC_NONE), "none");
    assert_string_equal (jobspec_fsync_name (FSYNC_END), "end");
    assert_string_equal (jobspec_fsync_name (FSYNC_CLOSE), "close");
    assert_string_equal (jobspec_fsync_name (-1), "?");
    assert_string_equal (jobspec_pattern_name (PATTERN_ZERO), "zero");
    assert_string_equal (jobspec_pattern_name (PATTERN_RANDOM), "random");
    assert_string_equal (jobspec_pattern_name (99), "?");
    assert_string_equal (jobspec_class_name (CLASS_AUTO), "auto");
    assert_string_equal (jobspec_class_name (CLASS_DISK), "disk");
    assert_string_equal (jobspec_class_name (CLASS_NETWORK), "network");
    assert_string_equal (jobspec_class_name (3), "?");

    char buf [32];
    assert_int_equal (jobspec_stream_path ("/data/dd1", 1, 0, buf, sizeof (buf)), 0);
    assert_string_equal (buf, "/data/dd1");
    assert_int_equal (jobspec_stream_path ("/data/dd1", 1, 1, buf, sizeof (buf)), -1);
    assert_int_equal (jobspec_stream_path ("/data/dd3", 3, 0, buf, sizeof (buf)), 0);
    assert_string_equal (buf, "/data/dd3.1");
    assert_int_equal (jobspec_stream_path ("/data/dd3", 3, 1, buf, sizeof (buf)), 0);
    assert_string_equal (buf, "/data/dd3.2");
    assert_int_equal (jobspec_stream_path ("/data/dd3", 3, 2, buf, sizeof (buf)), 0);
    assert_string_equal (buf, "/data/dd3.3");
    assert_int_equal (jobspec_stream_path ("/data/dd3", 3, 3, buf, sizeof (buf)), -1);
    assert_int_equal (jobspec_stream_path ("/d", 256, 255, buf, sizeof (buf)), 0);
    assert_string_equal (buf, "/d.256");
    //  Exactly fitting, and one byte short.
    assert_int_equal (jobspec_stream_path ("/d", 12, 11, buf, 6), 0);
    assert_string_equal (buf, "/d.12");
    assert_int_equal (jobspec_stream_path ("/d", 12, 11, buf, 5), -1);
    assert_int_equal (jobspec_stream_path ("/data/dd1", 1, 0, buf, 9), -1);
    //  An URL's query stays at its end; a local path's '?' is a character.
    assert_int_equal (jobspec_stream_path ("nfs://h/e/f?version=4", 2, 1, buf, sizeof (buf)), 0);
    assert_string_equal (buf, "nfs://h/e/f.2?version=4");
    assert_int_equal (jobspec_stream_path ("nfs://h/e/f", 2, 0, buf, sizeof (buf)), 0);
    assert_string_equal (buf, "nfs://h/e/f.1");
    assert_int_equal (jobspec_stream_path ("/d/what?", 2, 0, buf, sizeof (buf)), 0);
    assert_string_equal (buf, "/d/what?.1");
    assert_int_equal (jobspec_stream_path ("nfs://h/e/f?v=4", 12, 11, buf, 16), -1);
    assert_int_equal (jobspec_stream_path ("/data/dd1", 1, 0, buf, 10), 0);
}

//  --------------------------------------------------------------------
//  Wire codec

//  Unpack buffer as one object into unpacked (the caller destroys it).
static const msgpack_object *
s_unpack (msgpack_unpacked *unpacked, const msgpack_sbuffer *buffer)
{
    size_t offset = 0;
    msgpack_unpacked_init (unpacked);
    assert_int_equal (msgpack_unpack_next (unpacked, buffer->data, buffer->size, &offset),
                      MSGPACK_UNPACK_SUCCESS);
    assert_int_equal (offset, buffer->size);
    return &unpacked->data;
}

//  A spec with every field away from its default.
static void
s_full_spec (jobspec_t *spec)
{
    jobspec_defaults (spec);
    strcpy (spec->name, "mix3-net");
    strcpy (spec->test, "mix3");
    strcpy (spec->agent, "client");
    spec->workload = WORKLOAD_NULL;
    strcpy (spec->path, "/data/iofleet/mix3");
    strcpy (spec->src, "nfs://192.0.2.20/export/src5g");
    strcpy (spec->dst, "/data/iofleet/mix3-net");
    spec->size_bytes = 5583457485ULL;
    spec->bs_bytes = 4 * KIB;
    spec->streams = 3;
    spec->direct = true;
    spec->fsync_mode = FSYNC_CLOSE;
    spec->pattern = PATTERN_RANDOM;
    spec->job_class = CLASS_NETWORK;
    spec->keep = true;
    spec->interval_ns = 250 * NS_PER_MSEC;
}

static void
test_codec_round_trip (void **state)
{
    (void) state;
    jobspec_t sent, got;
    s_full_spec (&sent);

    msgpack_sbuffer buffer;
    msgpack_sbuffer_init (&buffer);
    msgpack_packer pk;
    msgpack_packer_init (&pk, &buffer, msgpack_sbuffer_write);
    jobspec_encode (&sent, &pk);

    msgpack_unpacked unpacked;
    const msgpack_object *object = s_unpack (&unpacked, &buffer);
    assert_int_equal (object->type, MSGPACK_OBJECT_MAP);

    //  Every wire option is a key, and nothing else; enums are names.
    size_t wire = 0;
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++)
        wire += (opt->flags & OPT_WIRE)? 1: 0;
    assert_int_equal (object->via.map.size, wire);
    bool saw_fsync = false;
    for (uint32_t i = 0; i < object->via.map.size; i++) {
        const msgpack_object_kv *kv = &object->via.map.ptr [i];
        assert_int_equal (kv->key.type, MSGPACK_OBJECT_STR);
        assert_false (kv->key.via.str.size == 5 && memcmp (kv->key.via.str.ptr, "agent", 5) == 0);
        if (kv->key.via.str.size == 5 && memcmp (kv->key.via.str.ptr, "fsync", 5) == 0) {
            assert_int_equal (kv->val.type, MSGPACK_OBJECT_STR);
            assert_int_equal (kv->val.via.str.size, 5);
            assert_memory_equal (kv->val.via.str.ptr, "close", 5);
            saw_fsync = true;
        }
    }
    assert_true (saw_fsync);

    char err [256] = "";
    memset (&got, 0x77, sizeof (got));
    if (jobspec_decode (object, &got, err, sizeof (err)) != 0)
        fail_msg ("decode: %s", err);
    assert_string_equal (got.name, sent.name);
    assert_string_equal (got.test, sent.test);
    assert_string_equal (got.agent, "");       //  not a wire option
    assert_int_equal (got.workload, sent.workload);
    assert_string_equal (got.path, sent.path);
    assert_string_equal (got.src, sent.src);
    assert_string_equal (got.dst, sent.dst);
    assert_true (got.size_bytes == sent.size_bytes);
    assert_int_equal (got.bs_bytes, sent.bs_bytes);
    assert_int_equal (got.streams, sent.streams);
    assert_int_equal (got.direct, sent.direct);
    assert_int_equal (got.fsync_mode, sent.fsync_mode);
    assert_int_equal (got.pattern, sent.pattern);
    assert_int_equal (got.job_class, sent.job_class);
    assert_int_equal (got.keep, sent.keep);
    assert_int_equal (got.interval_ns, sent.interval_ns);

    //  Field by field above; all of it at once on zeroed copies.
    jobspec_t a, b;
    memset (&a, 0, sizeof (a));
    memset (&b, 0, sizeof (b));
    a = sent;
    b = got;
    memset (a.agent, 0, sizeof (a.agent));
    memset (b.agent, 0, sizeof (b.agent));
    assert_memory_equal (&a, &b, sizeof (a));

    msgpack_unpacked_destroy (&unpacked);
    msgpack_sbuffer_destroy (&buffer);

    //  Longest strings and bounds' edges survive too.
    memset (sent.path, 'q', JOB_PATH_MAX);
    sent.path [JOB_PATH_MAX] = 0;
    memset (sent.name, 'n', JOB_NAME_MAX);
    sent.name [JOB_NAME_MAX] = 0;
    sent.size_bytes = PIB;
    sent.bs_bytes = 64 * MIB;
    sent.streams = JOB_STREAMS_MAX;
    sent.interval_ns = 3600 * NS_PER_SEC;
    msgpack_sbuffer_init (&buffer);
    msgpack_packer_init (&pk, &buffer, msgpack_sbuffer_write);
    jobspec_encode (&sent, &pk);
    object = s_unpack (&unpacked, &buffer);
    assert_int_equal (jobspec_decode (object, &got, err, sizeof (err)), 0);
    assert_string_equal (got.path, sent.path);
    assert_string_equal (got.name, sent.name);
    assert_true (got.size_bytes == PIB);
    assert_int_equal (got.streams, JOB_STREAMS_MAX);
    assert_int_equal (got.interval_ns, 3600 * NS_PER_SEC);
    msgpack_unpacked_destroy (&unpacked);
    msgpack_sbuffer_destroy (&buffer);
}

//  The value packers for hand-built maps.
typedef enum { V_UINT, V_INT, V_STR, V_BOOL, V_FLOAT, V_NIL, V_ARRAY, V_BIN } value_kind_t;

//  One key and value for a hand-built spec map.
typedef struct {
    const char *key;            //  NULL: an integer key 7
    value_kind_t kind;
    uint64_t u;                 //  V_UINT, V_BOOL
    int64_t i;                  //  V_INT
    const char *s;              //  V_STR, V_BIN
    size_t len;                 //  V_STR, V_BIN: bytes of s
} entry_t;

//  Pack entries as a map, decode it as a spec, and return the decoder's
//  result with its message in err.
static int
s_decode_entries (const entry_t *entries, size_t count, jobspec_t *spec,
                  char *err, size_t errlen)
{
    msgpack_sbuffer buffer;
    msgpack_sbuffer_init (&buffer);
    msgpack_packer pk;
    msgpack_packer_init (&pk, &buffer, msgpack_sbuffer_write);
    msgpack_pack_map (&pk, count);
    for (size_t i = 0; i < count; i++) {
        const entry_t *e = &entries [i];
        if (e->key)
            msgpack_pack_str_with_body (&pk, e->key, strlen (e->key));
        else
            msgpack_pack_uint8 (&pk, 7);
        switch (e->kind) {
            case V_UINT:  msgpack_pack_uint64 (&pk, e->u); break;
            case V_INT:   msgpack_pack_int64 (&pk, e->i); break;
            case V_STR:   msgpack_pack_str_with_body (&pk, e->s, e->len); break;
            case V_BOOL:  e->u? msgpack_pack_true (&pk): msgpack_pack_false (&pk); break;
            case V_FLOAT: msgpack_pack_double (&pk, 1.5); break;
            case V_NIL:   msgpack_pack_nil (&pk); break;
            case V_ARRAY: msgpack_pack_array (&pk, 1); msgpack_pack_uint8 (&pk, 1); break;
            case V_BIN:   msgpack_pack_bin_with_body (&pk, e->s, e->len); break;
        }
    }
    msgpack_unpacked unpacked;
    const msgpack_object *object = s_unpack (&unpacked, &buffer);
    err [0] = 0;
    int rc = jobspec_decode (object, spec, err, errlen);
    msgpack_unpacked_destroy (&unpacked);
    msgpack_sbuffer_destroy (&buffer);
    return rc;
}

#define UINT(k, v)   { .key = k, .kind = V_UINT, .u = (v) }
#define INT(k, v)    { .key = k, .kind = V_INT, .i = (v) }
#define STR(k, v)    { .key = k, .kind = V_STR, .s = (v), .len = strlen (v) }
#define BOOL(k, v)   { .key = k, .kind = V_BOOL, .u = (v) }
#define KIND(k, v)   { .key = k, .kind = (v) }

//  Expect one entry to make the decoder refuse with `expect` in its message.
static void
s_decode_bad (entry_t entry, const char *expect)
{
    jobspec_t spec;
    char err [256];
    if (s_decode_entries (&entry, 1, &spec, err, sizeof (err)) != -1)
        fail_msg ("key '%s' was accepted", entry.key);
    if (!strstr (err, expect))
        fail_msg ("key '%s': message '%s' lacks '%s'", entry.key, err, expect);
}

static void
test_codec_refusals (void **state)
{
    (void) state;
    s_decode_bad ((entry_t) UINT ("bs", 0), "bs: 0 is below the minimum 512");
    s_decode_bad ((entry_t) UINT ("bs", 128 * MIB), "bs: 128M is above the maximum 64M");
    s_decode_bad ((entry_t) UINT ("streams", 100000), "streams: 100000 is above the maximum 1024");
    s_decode_bad ((entry_t) UINT ("streams", 0), "streams: 0 is below the minimum 1");
    s_decode_bad ((entry_t) UINT ("size", PIB + 1), "size: ");
    s_decode_bad ((entry_t) UINT ("size", UINT64_MAX), "above the maximum 1P");
    s_decode_bad ((entry_t) UINT ("interval", 0), "interval: 0 is below the minimum 10ms");
    s_decode_bad ((entry_t) UINT ("interval", 3600 * NS_PER_SEC + 1), "interval: ");
    s_decode_bad ((entry_t) UINT ("interval", UINT64_MAX), "interval: ");
    s_decode_bad ((entry_t) INT ("interval", -5), "interval: -5ns is negative");
    s_decode_bad ((entry_t) STR ("fsync", "sometimes"), "fsync: unknown value 'sometimes'");
    s_decode_bad ((entry_t) STR ("workload", "randwrite"), "workload: unknown value 'randwrite'");
    s_decode_bad ((entry_t) STR ("class", ""), "class: unknown value ''");
    s_decode_bad ((entry_t) { .key = "pattern", .kind = V_STR, .s = "zero\0", .len = 5 },
                  "pattern: unknown value 'zero\\x00'");

    //  Wrong types, one per kind of option.
    s_decode_bad ((entry_t) STR ("bs", "1M"), "bs: wrong type");
    s_decode_bad ((entry_t) INT ("streams", -1), "streams: wrong type");
    s_decode_bad ((entry_t) KIND ("size", V_FLOAT), "size: wrong type");
    s_decode_bad ((entry_t) UINT ("direct", 1), "direct: wrong type");
    s_decode_bad ((entry_t) KIND ("keep", V_NIL), "keep: wrong type");
    s_decode_bad ((entry_t) UINT ("fsync", 1), "fsync: wrong type");
    s_decode_bad ((entry_t) UINT ("path", 1), "path: wrong type");
    s_decode_bad ((entry_t) { .key = "path", .kind = V_BIN, .s = "/x", .len = 2 }, "path: wrong type");
    s_decode_bad ((entry_t) KIND ("name", V_ARRAY), "name: wrong type");
    s_decode_bad ((entry_t) STR ("interval", "1s"), "interval: wrong type");
    s_decode_bad ((entry_t) KIND ("interval", V_FLOAT), "interval: wrong type");

    //  Strings: bounded, and no NUL inside.
    char long_path [JOB_PATH_MAX + 1];
    memset (long_path, 'a', sizeof (long_path));
    s_decode_bad ((entry_t) { .key = "path", .kind = V_STR, .s = long_path, .len = JOB_PATH_MAX + 1 },
                  "path: 1024 bytes, longer than the limit 1023");
    s_decode_bad ((entry_t) { .key = "test", .kind = V_STR, .s = long_path, .len = JOB_NAME_MAX + 1 },
                  "test: 64 bytes, longer than the limit 63");
    s_decode_bad ((entry_t) { .key = "src", .kind = V_STR, .s = "/a\0b", .len = 4 },
                  "src: contains a NUL byte");

    //  A key given twice.
    jobspec_t spec;
    char err [256];
    entry_t twice [] = { UINT ("bs", 4096), UINT ("bs", 4096) };
    assert_int_equal (s_decode_entries (twice, 2, &spec, err, sizeof (err)), -1);
    assert_string_equal (err, "bs: given twice");

    //  Unknown keys, keys that are not strings, and the coordinator-only
    //  `agent` are ignored; what is missing keeps its default.
    entry_t extra [] = {
        STR ("colour", "red"), KIND (NULL, V_NIL), UINT ("bs", 4096), STR ("agent", "nfs1"),
        KIND ("future", V_ARRAY), STR ("fsync", "none"), UINT ("BS", 3),
        { .key = "path", .kind = V_STR, .s = long_path, .len = JOB_PATH_MAX },
        STR ("test", ""), BOOL ("direct", 1), STR ("name", "j"), STR ("src", ""),
        STR ("dst", ""), UINT ("size", 1)
    };
    assert_int_equal (s_decode_entries (extra, sizeof (extra) / sizeof (extra [0]),
                                        &spec, err, sizeof (err)), 0);
    assert_int_equal (spec.bs_bytes, 4096);
    assert_int_equal (spec.fsync_mode, FSYNC_NONE);
    assert_string_equal (spec.agent, "");
    assert_string_equal (spec.test, "");
    assert_int_equal (strlen (spec.path), JOB_PATH_MAX);
    assert_true (spec.direct);
    assert_int_equal (spec.streams, 1);
    assert_int_equal (spec.interval_ns, NS_PER_SEC);

    //  Options without a default must be given; with just those, the
    //  rest are defaults.
    entry_t required [] = {
        STR ("name", ""), STR ("test", ""), STR ("path", ""), STR ("src", ""),
        STR ("dst", ""), UINT ("size", 0)
    };
    const size_t nrequired = sizeof (required) / sizeof (required [0]);
    required [nrequired - 1].u = 1;
    assert_int_equal (s_decode_entries (required, nrequired, &spec, err, sizeof (err)), 0);
    jobspec_t defaults;
    jobspec_defaults (&defaults);
    defaults.size_bytes = 1;
    assert_memory_equal (&spec, &defaults, sizeof (spec));
    for (size_t skip = 0; skip < nrequired; skip++) {
        entry_t some [8];
        size_t count = 0;
        for (size_t i = 0; i < nrequired; i++)
            if (i != skip)
                some [count++] = required [i];
        assert_int_equal (s_decode_entries (some, count, &spec, err, sizeof (err)), -1);
        char expect [32];
        snprintf (expect, sizeof (expect), "%s: missing", required [skip].key);
        assert_string_equal (err, expect);
    }
    assert_int_equal (s_decode_entries (NULL, 0, &spec, err, sizeof (err)), -1);
    assert_string_equal (err, "name: missing");

    //  A non-map is refused.
    msgpack_object not_map = { .type = MSGPACK_OBJECT_POSITIVE_INTEGER, .via.u64 = 3 };
    assert_int_equal (jobspec_decode (&not_map, &spec, err, sizeof (err)), -1);
    assert_string_equal (err, "job spec is not a map");
    assert_int_equal (jobspec_decode (NULL, &spec, err, sizeof (err)), -1);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_table),
        cmocka_unit_test (test_defaults),
        cmocka_unit_test (test_parse_size),
        cmocka_unit_test (test_parse_duration),
        cmocka_unit_test (test_parse_decimal),
        cmocka_unit_test (test_parse_bool_enum_count_string),
        cmocka_unit_test (test_format),
        cmocka_unit_test (test_names_and_paths),
        cmocka_unit_test (test_codec_round_trip),
        cmocka_unit_test (test_codec_refusals),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
