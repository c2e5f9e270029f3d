/*  coordinator/report/html.h: what the page (html.c) and its timelines
    (timeline.c) share. Private to coordinator/report/.
*/
#ifndef IOFLEET_REPORT_HTML_H
#define IOFLEET_REPORT_HTML_H

#include "../results.h"

#include <stddef.h>
#include <stdio.h>

//  Text with the characters HTML gives meaning to escaped, and control
//  bytes and stray bytes written \xNN (proto/printable.h).
void html_escaped (const char *text, FILE *out);

//  One test's section of the page: a chart of the count iterations at
//  tests (which share the test's name), rates in units (units_t), its
//  legend and, for several iterations, the buttons that pick one.
void html_timeline (size_t section, const test_result_t *tests, size_t count, int units,
                    FILE *out);

#endif
