/*  coordinator/report/html.h: what the page (html.c) and its timelines
    (timeline.c) share. Private to coordinator/report/.
*/
#ifndef IOFLEET_REPORT_HTML_H
#define IOFLEET_REPORT_HTML_H

#include "../results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

//  Text with the characters HTML gives meaning to escaped, and control
//  bytes and stray bytes written \xNN (proto/printable.h).
void html_escaped (const char *text, FILE *out);

//  A test draws one line per stream up to this many streams and hosts;
//  past either, a heat map (heatmap.c).
#define HTML_LINES_STREAMS_MAX  32
#define HTML_LINES_HOSTS_MAX    16

//  The latency table lists a test's hosts up to this many; past it, the
//  slowest ones by p99.
#define HTML_FLEET_HOSTS        16
#define HTML_SLOWEST_HOSTS      8

//  The opening of a test's section of the page: its name and iterations.
void html_section_head (const test_result_t *tests, size_t count, FILE *out);

//  A round step for about six ticks over range: 1, 2 or 5 x 10^n.
double html_tick_step (double range);

//  Whether the count iterations at tests are drawn as heat maps.
bool html_as_heatmap (const test_result_t *tests, size_t count);

//  One test's section as heat maps, one per iteration: rows of hosts (or
//  of streams, with few hosts), columns of time, rates in units.
void html_heatmap (size_t section, const test_result_t *tests, size_t count, int units,
                   FILE *out);

//  One test's section of the page: a chart of the count iterations at
//  tests (which share the test's name), rates in units (units_t), its
//  legend and, for several iterations, the buttons that pick one.
void html_timeline (size_t section, const test_result_t *tests, size_t count, int units,
                    FILE *out);

#endif
