/*  coordinator/compare/compare_metrics.c: the figures `iofleet compare`
    shows and `--fail-on` names; see compare.h.

    One row per figure: its name, where the results keep it, which way is
    better, its unit, how to read it from one run of a test, and how to
    print it. A figure added to the results (operations per minute,
    another percentile) is one more row here, and compare, the gate and
    history know it.
*/
#include "compare.h"
#include "../numbers/aggregate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

//  Whether a test mixes disk and network streams: only then are the two
//  classes figures of their own.
static bool
s_mixed (const test_result_t *test)
{
    return test->summary.disk.streams > 0 && test->summary.network.streams > 0;
}

//  The combined MB/s of the test.
static double
s_combined_mbps (const test_result_t *test)
{
    return test->summary.combined_mbps;
}

//  Operations per second, for a test that counts them (bonnie's seeks,
//  random I/O).
static double
s_ops_per_s (const test_result_t *test)
{
    return test->rate_ops? test->summary.combined_ops_per_s: NAN;
}

//  The disk streams' combined MB/s, in a mixed test.
static double
s_disk_mbps (const test_result_t *test)
{
    return s_mixed (test)? test->summary.disk.combined_mbps: NAN;
}

//  The network streams' combined MB/s, in a mixed test.
static double
s_network_mbps (const test_result_t *test)
{
    return s_mixed (test)? test->summary.network.combined_mbps: NAN;
}

//  System CPU of the test's hosts, %.
static double
s_sys_pct (const test_result_t *test)
{
    return test->summary.sys_pct;
}

//  The 99th percentile of request latency, when measured.
static double
s_latency_p99_ns (const test_result_t *test)
{
    return test->summary.latency_p99_ns;
}

//  A percentage with one decimal.
static void
s_format_pct (double value, char *buf, size_t buflen)
{
    snprintf (buf, buflen, "%.1f", value);
}

//  Nanoseconds as milliseconds, three significant figures like rates.
static void
s_format_ms (double value_ns, char *buf, size_t buflen)
{
    aggregate_format_rate (value_ns / 1e6, buf, buflen);
}

const metric_t compare_metrics [] = {
    { .name = "MB/s", .source = "summary.combined_mbps", .better = METRIC_HIGHER_BETTER,
      .unit = "MB/s", .get = s_combined_mbps, .format = aggregate_format_rate, .always = true },
    { .name = "ops/s", .source = "summary.combined_ops_per_s", .better = METRIC_HIGHER_BETTER,
      .unit = "/s", .get = s_ops_per_s, .format = aggregate_format_rate },
    { .name = "disk MB/s", .source = "summary.disk.combined_mbps",
      .better = METRIC_HIGHER_BETTER, .unit = "MB/s", .get = s_disk_mbps,
      .format = aggregate_format_rate, .joined = "disk/network" },
    { .name = "network MB/s", .source = "summary.network.combined_mbps",
      .better = METRIC_HIGHER_BETTER, .unit = "MB/s", .get = s_network_mbps,
      .format = aggregate_format_rate },
    { .name = "%sys", .source = "summary.sys_pct", .better = METRIC_LOWER_BETTER,
      .unit = "%", .get = s_sys_pct, .format = s_format_pct },
    { .name = "p99", .source = "summary.latency_p99_ns", .better = METRIC_LOWER_BETTER,
      .unit = "ms", .get = s_latency_p99_ns, .format = s_format_ms },
};

const size_t compare_metric_count = sizeof compare_metrics / sizeof compare_metrics [0];

//  The metric named name.
const metric_t *
compare_metric (const char *name)
{
    for (size_t nbr = 0; nbr < compare_metric_count; nbr++)
        if (!strcmp (compare_metrics [nbr].name, name))
            return &compare_metrics [nbr];
    return NULL;
}
