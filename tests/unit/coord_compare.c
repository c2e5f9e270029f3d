/*  tests/unit/coord_compare.c: `iofleet compare` on runs built by hand
    (coordinator/report/compare*.c): the rows (first runs apart, spreads,
    figures a test lacks), the verdicts in the table, and the gate.

    Rates are chosen so that the verdicts are known: a base of 100 110 90
    105 95 after a first run of 40, a 5% shift of it (inside the noise:
    the samples interleave) and a 50% fall (every value below every one of
    the base: p = 2/252).
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../coordinator/compare/compare.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITERATIONS_MAX 8

//  One test of a hand-made run: its MB/s per iteration (0 ends the list).
typedef struct {
    const char *name;               //  test name
    double mbps [ITERATIONS_MAX];   //  iteration 1 first
    double sys_pct;                 //  %sys of every iteration
    double p99_ns;                  //  p99 of every iteration, NAN for none
    uint32_t lost;                  //  lost streams in its last iteration
} s_test_t;

//  Fill run with one agent on kernel and the tests given.
static void
s_run (run_result_t *run, const char *kernel, const s_test_t *tests, size_t count)
{
    memset (run, 0, sizeof *run);
    run->agents = calloc (1, sizeof (agent_info_t));
    run->tests = calloc (count * ITERATIONS_MAX, sizeof (test_result_t));
    assert_non_null (run->agents);
    assert_non_null (run->tests);
    run->agent_count = 1;
    snprintf (run->agents [0].name, sizeof run->agents [0].name, "a1");
    snprintf (run->agents [0].kernel, sizeof run->agents [0].kernel, "%s", kernel);
    for (size_t nbr = 0; nbr < count; nbr++)
        for (int it = 0; it < ITERATIONS_MAX && tests [nbr].mbps [it] > 0; it++) {
            test_result_t *test = &run->tests [run->test_count++];
            snprintf (test->name, sizeof test->name, "%s", tests [nbr].name);
            test->iteration = (uint32_t) it + 1;
            test->summary.streams = test->summary.disk.streams = 1;
            test->summary.combined_mbps = tests [nbr].mbps [it];
            test->summary.sys_pct = tests [nbr].sys_pct;
            test->summary.latency_p99_ns = tests [nbr].p99_ns;
            bool last = it + 1 == ITERATIONS_MAX || tests [nbr].mbps [it + 1] <= 0;
            test->summary.lost_streams = test->summary.failed_streams = last? tests [nbr].lost: 0;
        }
    run->test_capacity = count * ITERATIONS_MAX;
}

//  What compare_run printed and returned.
typedef struct {
    char *out;                      //  the table
    char *log;                      //  the gate's lines
    int status;                     //  its return
} s_output_t;

//  Compare two runs with the options given.
static s_output_t
s_compare (const run_result_t *runs, size_t count, const compare_options_t *options)
{
    static const char *const origins [] = { "base.json", "new.json", "third.json" };
    s_output_t output = { NULL, NULL, 0 };
    size_t out_length, log_length;
    FILE *out = open_memstream (&output.out, &out_length);
    FILE *log = open_memstream (&output.log, &log_length);
    assert_non_null (out);
    assert_non_null (log);
    char err [256] = "";
    output.status = compare_run (runs, origins, NULL, count, options, out, log, err, sizeof err);
    fclose (out);
    fclose (log);
    return output;
}

static void
s_output_free (s_output_t *output)
{
    free (output->out);
    free (output->log);
}

//  The line of the table whose first two columns are test and figure:
//  its cells after them, or NULL.
static const char *
s_find (const char *table, const char *test, const char *figure, char *buf, size_t buflen)
{
    const char *line = table;
    while (line && *line) {
        const char *end = strchr (line, '\n');
        size_t length = end? (size_t) (end - line): strlen (line);
        snprintf (buf, buflen, "%.*s", (int) length, line);
        char head [256];
        snprintf (head, sizeof head, "%s ", test);
        if (!strncmp (buf, head, strlen (head))) {
            const char *rest = buf + strlen (test);
            while (*rest == ' ')
                rest++;
            if (!strncmp (rest, figure, strlen (figure)) && rest [strlen (figure)] == ' ') {
                rest += strlen (figure);
                while (*rest == ' ')
                    rest++;
                return rest;
            }
        }
        line = end? end + 1: NULL;
    }
    return NULL;
}

//  s_find, failing when there is no such line.
static const char *
s_line (const char *table, const char *test, const char *figure, char *buf, size_t buflen)
{
    const char *cells = s_find (table, test, figure, buf, buflen);
    if (!cells)
        fail_msg ("no line \"%s  %s\" in:\n%s", test, figure, table);
    return cells;
}

//  The base and its two changes, first run 40 in each.
static const s_test_t s_base [] = {
    { "dd1", { 40, 100, 110, 90, 105, 95 }, 20, NAN, 0 },
};
static const s_test_t s_noisy [] = {
    { "dd1", { 42, 105, 115.5, 94.5, 110.25, 99.75 }, 20, NAN, 0 },
};
static const s_test_t s_slower [] = {
    { "dd1", { 40, 50, 55, 45, 52.5, 47.5 }, 30, NAN, 0 },
};

//  The first run is a row of its own; the main row is iterations 2..6.
static void
test_first_run_rows (void **state)
{
    (void) state;
    run_result_t runs [2];
    s_run (&runs [0], "6.1", s_base, 1);
    s_run (&runs [1], "6.2", s_noisy, 1);
    compare_options_t options = { .format = REPORT_FORMAT_TEXT };
    s_output_t output = s_compare (runs, 2, &options);
    assert_int_equal (output.status, EXIT_STATUS_OK);
    char line [512];
    assert_string_equal (s_line (output.out, "dd1 first run", "MB/s", line, sizeof line),
                         "40    42 +5.0%");
    //  Median 100 of 100 110 90 105 95, not the mean 88 with the first run.
    const char *main_row = s_line (output.out, "dd1", "MB/s", line, sizeof line);
    assert_true (!strncmp (main_row, "100   105 +5.0%~ [", 18));
    assert_non_null (strstr (output.out, "iterations 2..N"));
    //  A spread row: the stddev of 100 110 90 105 95 is 7.91.
    assert_string_equal (s_line (output.out, "dd1", "MB/s stddev", line, sizeof line),
                         "7.91  8.3 +5.0%");
    s_output_free (&output);
    run_result_clear (&runs [0]);
    run_result_clear (&runs [1]);

    //  One iteration each: no first-run row, no spread, a weak verdict.
    static const s_test_t once_a [] = { { "dd1", { 100 }, 20, NAN, 0 } };
    static const s_test_t once_b [] = { { "dd1", { 150 }, 20, NAN, 0 } };
    s_run (&runs [0], "6.1", once_a, 1);
    s_run (&runs [1], "6.2", once_b, 1);
    output = s_compare (runs, 2, &options);
    assert_null (s_find (output.out, "dd1 first run", "MB/s", line, sizeof line));
    assert_null (s_find (output.out, "dd1", "MB/s stddev", line, sizeof line));
    assert_string_equal (s_line (output.out, "dd1", "MB/s", line, sizeof line),
                         "100   150 +50.0% weak");
    s_output_free (&output);
    run_result_clear (&runs [0]);
    run_result_clear (&runs [1]);
}

//  5% inside the noise is "~" with its interval; 50% is real with its.
static void
test_verdicts (void **state)
{
    (void) state;
    run_result_t runs [3];
    s_run (&runs [0], "6.1", s_base, 1);
    s_run (&runs [1], "6.2", s_noisy, 1);
    s_run (&runs [2], "6.3", s_slower, 1);
    compare_options_t options = { .format = REPORT_FORMAT_TEXT };
    s_output_t output = s_compare (runs, 3, &options);
    char line [512];
    //  5 vs 5 at 90%: the 5th smallest and largest of the 25 ratios, as
    //  changes: noisy 99.75 / 105 .. 110.25 / 95, slower 47.5 / 105 .. 52.5 / 95.
    assert_string_equal (s_line (output.out, "dd1", "MB/s", line, sizeof line),
                         "100   105 +5.0%~ [-5.0, +16.1]  50 -50.0% [-54.8, -44.7]");
    s_output_free (&output);

    //  The same in JSON, with the p-values.
    options.format = REPORT_FORMAT_JSON;
    output = s_compare (runs, 3, &options);
    json_t *root = json_loads (output.out, 0, NULL);
    assert_non_null (root);
    json_t *row = json_array_get (json_object_get (root, "rows"), 0);
    assert_string_equal (json_string_value (json_object_get (row, "figure")), "MB/s");
    assert_string_equal (json_string_value (json_object_get (row, "kind")), "main");
    json_t *cells = json_object_get (row, "cells");
    json_t *noisy = json_array_get (cells, 1), *slower = json_array_get (cells, 2);
    assert_string_equal (json_string_value (json_object_get (noisy, "verdict")), "noise");
    assert_string_equal (json_string_value (json_object_get (slower, "verdict")), "real");
    assert_true (json_is_true (json_object_get (slower, "strong")));
    assert_float_equal (json_real_value (json_object_get (slower, "p_value")), 2.0 / 252, 1e-12);
    assert_float_equal (json_real_value (json_object_get (slower, "interval_low_pct")),
                        (47.5 / 105 - 1) * 100, 1e-9);
    assert_true (json_is_null (json_object_get (json_array_get (cells, 0), "verdict")));
    json_decref (root);
    s_output_free (&output);
    for (int nbr = 0; nbr < 3; nbr++)
        run_result_clear (&runs [nbr]);
}

//  A figure a test lacks has no row; one a set lacks is missing there.
static void
test_figures (void **state)
{
    (void) state;
    static const s_test_t with_p99 [] = {
        { "rnd", { 10, 10, 10, 10 }, 5, 2e6, 0 },
        { "dd1", { 10 }, 5, NAN, 0 },
    };
    static const s_test_t without [] = { { "rnd", { 10, 10, 10, 10 }, 5, NAN, 0 } };
    run_result_t runs [2];
    s_run (&runs [0], "6.1", with_p99, 2);
    s_run (&runs [1], "6.2", without, 1);
    compare_options_t options = { .format = REPORT_FORMAT_TEXT };
    s_output_t output = s_compare (runs, 2, &options);
    char line [512];
    assert_string_equal (s_line (output.out, "rnd", "p99 ms", line, sizeof line), "2    missing");
    assert_null (s_find (output.out, "dd1", "p99 ms", line, sizeof line));
    assert_non_null (s_find (output.out, "rnd first run", "p99 ms", line, sizeof line));
    assert_string_equal (s_line (output.out, "dd1", "MB/s", line, sizeof line), "10   missing");
    s_output_free (&output);

    //  --test keeps one test.
    const char *tests [] = { "rnd" };
    options.tests = tests;
    options.test_count = 1;
    output = s_compare (runs, 2, &options);
    assert_null (strstr (output.out, "dd1"));
    s_output_free (&output);
    run_result_clear (&runs [0]);
    run_result_clear (&runs [1]);
}

//  The bounds' parser.
static void
test_bounds (void **state)
{
    (void) state;
    compare_bound_t bound;
    char err [256];
    assert_int_equal (compare_bound_parse ("MB/s<-5%", &bound, err, sizeof err), 0);
    assert_string_equal (bound.metric, "MB/s");
    assert_int_equal (bound.op, '<');
    assert_float_equal (bound.pct, -5, 0);
    assert_int_equal (compare_bound_parse ("%sys>+5%", &bound, err, sizeof err), 0);
    assert_string_equal (bound.metric, "%sys");
    assert_int_equal (compare_bound_parse ("p99>+10%", &bound, err, sizeof err), 0);
    assert_float_equal (bound.pct, 10, 0);
    assert_int_equal (compare_bound_parse ("IOPS<-5%", &bound, err, sizeof err), -1);
    assert_non_null (strstr (err, "no figure \"IOPS\"; figures are MB/s, ops/s, disk MB/s"));
    assert_int_equal (compare_bound_parse ("MB/s<-5", &bound, err, sizeof err), -1);
    assert_non_null (strstr (err, "expected a change in percent"));
    assert_int_equal (compare_bound_parse ("MB/s-5%", &bound, err, sizeof err), -1);
    assert_int_equal (compare_bound_parse ("MB/s<<5%", &bound, err, sizeof err), -1);
    assert_int_equal (compare_bound_parse ("MB/s<x%", &bound, err, sizeof err), -1);
    //  Blanks around the figure and the change, as people type them.
    assert_int_equal (compare_bound_parse (" MB/s < -5 % ", &bound, err, sizeof err), 0);
    assert_string_equal (bound.metric, "MB/s");
    assert_float_equal (bound.pct, -5, 0);
    assert_int_equal (compare_bound_parse ("MB/s < -5% x", &bound, err, sizeof err), -1);
}

//  Columns are labelled by the runs' own labels unless --labels says
//  otherwise; a change's interval never falls below -100% (no figure
//  compared is negative); a base cell has no verdict's figures.
static void
test_labels_and_intervals (void **state)
{
    (void) state;
    //  Base values far apart: their differences to 1 reach past -100% of
    //  the base median (39 of 10), their ratios do not (1 / 40: -97.5%).
    static const s_test_t base [] = { { "dd1", { 9, 10, 10, 10, 40, 40 }, 5, NAN, 0 } };
    static const s_test_t fallen [] = { { "dd1", { 1, 1, 1, 1, 1, 1 }, 5, NAN, 0 } };
    run_result_t runs [2];
    s_run (&runs [0], "6.1", base, 1);
    s_run (&runs [1], "6.1", fallen, 1);
    snprintf (runs [0].label, sizeof runs [0].label, "base");
    snprintf (runs [1].label, sizeof runs [1].label, "capped");
    compare_options_t options = { .format = REPORT_FORMAT_TEXT };
    s_output_t output = s_compare (runs, 2, &options);
    assert_non_null (strstr (output.out, "base"));
    assert_non_null (strstr (output.out, "capped"));
    assert_null (strstr (output.out, "6.1 #2"));
    char line [512];
    assert_non_null (s_find (output.out, "dd1", "MB/s", line, sizeof line));
    assert_non_null (strstr (line, "[-97.5, -90.0]"));
    s_output_free (&output);

    options.format = REPORT_FORMAT_CSV;
    output = s_compare (runs, 2, &options);
    //  The base's row: no change, no verdict, no p-value, no interval.
    assert_non_null (strstr (output.out, "\r\ndd1,MB/s,main,1,base,5,10.000000,10.000000,40.000000,"));
    assert_non_null (strstr (output.out, ",,,,,,,,false\r\n"));
    s_output_free (&output);
    run_result_clear (&runs [0]);
    run_result_clear (&runs [1]);
}

//  The gate: 0, 1 and 125, each from a real case.
static void
test_gate (void **state)
{
    (void) state;
    compare_bound_t bounds [3];
    char err [256];
    assert_int_equal (compare_bound_parse ("MB/s<-5%", &bounds [0], err, sizeof err), 0);
    assert_int_equal (compare_bound_parse ("%sys>+5%", &bounds [1], err, sizeof err), 0);
    assert_int_equal (compare_bound_parse ("p99>+10%", &bounds [2], err, sizeof err), 0);
    compare_options_t options = { .format = REPORT_FORMAT_CSV, .bounds = bounds, .bound_count = 3 };
    run_result_t runs [2];

    //  5% up, inside the noise: passes (and p99, absent, checks nothing).
    s_run (&runs [0], "6.1", s_base, 1);
    s_run (&runs [1], "6.2", s_noisy, 1);
    s_output_t output = s_compare (runs, 2, &options);
    assert_int_equal (output.status, EXIT_STATUS_OK);
    assert_non_null (strstr (output.log, "--fail-on p99>+10%: no test has p99 figures"));
    s_output_free (&output);
    run_result_clear (&runs [1]);

    //  50% down, real: fails, and says which bound and by how much. The
    //  %sys rose by 50% too but is the same in every run: 20 20 20 20 20
    //  against 30 30 30 30 30 is as separated as samples get.
    s_run (&runs [1], "6.2", s_slower, 1);
    output = s_compare (runs, 2, &options);
    assert_int_equal (output.status, EXIT_STATUS_FAILED);
    assert_non_null (strstr (output.log, "fail: dd1 MB/s 6.2: -50.0% [-54.8, -44.7], past MB/s<-5%"));
    assert_non_null (strstr (output.log, "fail: dd1 %sys 6.2: +50.0% [+50.0, +50.0], past %sys>+5%"));
    s_output_free (&output);
    run_result_clear (&runs [1]);

    //  The same fall, but an agent was lost in the last iteration: that
    //  run cannot be judged, whatever it shows.
    static const s_test_t partial [] = { { "dd1", { 40, 50, 55, 45, 52.5, 47.5 }, 30, NAN, 1 } };
    s_run (&runs [1], "6.2", partial, 1);
    output = s_compare (runs, 2, &options);
    assert_int_equal (output.status, EXIT_STATUS_SKIP);
    assert_non_null (strstr (output.log, "cannot judge: 6.2 (new.json): test dd1 #6 is partial"));
    s_output_free (&output);
    run_result_clear (&runs [1]);

    //  A test the new set lacks.
    static const s_test_t other [] = { { "dd2", { 40, 100, 110, 90, 105, 95 }, 20, NAN, 0 } };
    s_run (&runs [1], "6.2", other, 1);
    output = s_compare (runs, 2, &options);
    assert_int_equal (output.status, EXIT_STATUS_SKIP);
    assert_non_null (strstr (output.log, "cannot judge: 6.2 (new.json) has no test dd1"));
    s_output_free (&output);
    run_result_clear (&runs [1]);
    run_result_clear (&runs [0]);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_first_run_rows),
        cmocka_unit_test (test_verdicts),
        cmocka_unit_test (test_figures),
        cmocka_unit_test (test_bounds),
        cmocka_unit_test (test_labels_and_intervals),
        cmocka_unit_test (test_gate),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
