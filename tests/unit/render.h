/*  tests/unit/render.h: a run rendered in one of the report formats, in
    memory, for the tests of the coordinator's reports. Static, because
    each test program is one translation unit.
*/
#ifndef IOFLEET_TEST_RENDER_H
#define IOFLEET_TEST_RENDER_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../coordinator/report/report.h"

#include <stdio.h>

//  The run as format renders it, for the caller to free.
static inline char *
render_report (const run_result_t *run, report_format_id_t format)
{
    char *text = NULL;
    size_t length = 0;
    FILE *memory = open_memstream (&text, &length);
    assert_non_null (memory);
    assert_int_equal (report_formats [format].render (run, memory), 0);
    assert_int_equal (fclose (memory), 0);
    return text;
}

#endif
