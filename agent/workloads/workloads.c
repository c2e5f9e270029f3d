/*  agent/workloads/workloads.c: the one table of workloads this agent runs.

    Adding a workload: write its file with its ops table, declare the table
    here and give it its row, indexed by its workload_t value. No
    constructor tricks, no registration at start-up: this table is all.
*/
#include "workload.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

extern const workload_ops_t workload_null_ops;
extern const workload_ops_t workload_write_ops;

static const workload_ops_t *const s_workloads [] = {
    [WORKLOAD_NULL] = &workload_null_ops,
    [WORKLOAD_WRITE] = &workload_write_ops,
};

#define S_WORKLOAD_COUNT (sizeof (s_workloads) / sizeof (s_workloads [0]))

//  The ops table of a workload_t value, or NULL.
const workload_ops_t *
workload_lookup (int workload)
{
    if (workload < 0 || (size_t) workload >= S_WORKLOAD_COUNT)
        return NULL;
    return s_workloads [workload];
}

//  Record the first failure of a stream as "what: strerror".
void
workload_fail (workload_stream_t *ws, int err_no, const char *format, ...)
{
    if (ws->err_no != 0 || ws->error [0])
        return;
    char what [MSG_TEXT_MAX + 1];
    va_list args;
    va_start (args, format);
    vsnprintf (what, sizeof (what), format, args);
    va_end (args);
    ws->err_no = err_no;
    snprintf (ws->error, sizeof (ws->error), "%s: %s", what, strerror (err_no));
}
