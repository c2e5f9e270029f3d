/*  coordinator/report/series.h: the figures the page's charts draw,
    computed from a test's results (series.c); the drawing is
    timeline.c's. Private to coordinator/report/.
*/
#ifndef IOFLEET_REPORT_SERIES_H
#define IOFLEET_REPORT_SERIES_H

#include "../results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//  Rate of a stream over the interval that ends at its sample nbr (the
//  first from the stream's start); NAN when there is no point before it
//  or time does not go forward.
double series_interval_mbps (const stream_result_t *stream, size_t nbr);

//  Whether the interval that ends at sample nbr is a whole one (at least
//  half the stream's longest): only whole intervals set a chart's scale.
bool series_interval_full (const stream_result_t *stream, size_t nbr);
//  The same for a monitor's interval that ends at point k (k >= 1).
bool series_monitor_full (const monitor_result_t *monitor, size_t k);

//  The intervals with a rate of a stream, and of a monitor's disk writes
//  and %sys: the points their lines would have.
size_t series_stream_points (const stream_result_t *stream);
size_t series_monitor_points (const monitor_result_t *monitor, bool sys);

//  The most intervals with a rate that any stream or monitor of the count
//  iterations at tests has: a test with few gets no chart of its own.
size_t series_interval_count (const test_result_t *tests, size_t count);

//  A monitor's disk write MB/s, and its %sys, over the interval that ends
//  at point k (k >= 1); NAN when nothing can be said.
double series_monitor_mbps (const monitor_result_t *monitor, size_t k);
double series_monitor_sys_pct (const monitor_result_t *monitor, size_t k);

//  Whether agent runs more than one stream in the test: then it gets a
//  line for its total.
bool series_host_has_several (const test_result_t *test, const char *agent);

//  Whether stream nbr is the first of its agent in the test.
bool series_first_of_host (const test_result_t *test, size_t nbr);

//  The grid of a host's total: from its first sample to its last, with
//  the smallest sample interval of its streams as step (coarser if that
//  would take too many points). False when the host has too few samples
//  for a rate.
bool series_host_grid (const test_result_t *test, const char *agent,
                       int64_t *from_ns, int64_t *to_ns, int64_t *step_ns);

//  Bytes a host had done at an instant: its streams' progress summed.
double series_host_bytes_at (const test_result_t *test, const char *agent, int64_t t_ns);

#endif
