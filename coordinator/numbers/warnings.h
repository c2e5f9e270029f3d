/*  coordinator/numbers/warnings.h: what an engineer would otherwise raise on the
    mailing list about a test's figures.

    A rate that measured the page cache and not the disk (data still dirty
    when the window closed, physical writes after it, a working set the
    page cache holds, a read the disks never saw), a count of requests
    that measured something else (no request at all, or streams that
    spent most of their window outside their requests, in their fsyncs),
    a start that was not one (streams started far apart), and work done
    outside the timed window (files laid out at prepare). Each warning names its kind, the
    host it is about and what was measured, with the way out.
*/
#ifndef IOFLEET_WARNINGS_H
#define IOFLEET_WARNINGS_H

#include "aggregate.h"
#include "../results/results.h"

//  When the report warns (shares of the bytes a host's streams wrote, of
//  the test's length): data still dirty when the window closed, physical
//  writes after it, and a start skew.
#define WARNINGS_DIRTY_SHARE       0.05
#define WARNINGS_DIRTY_FLOOR_BYTES (16ULL * 1000 * 1000)
#define WARNINGS_SETTLE_SHARE      0.10
#define WARNINGS_SKEW_SHARE        0.01
//  A read that found less than this share of its bytes on the disks read
//  the page cache.
#define WARNINGS_READ_SHARE        0.5
//  A test counted in requests whose streams spent less than this share
//  of their windows in their reads and writes measured something else
//  (their fsyncs, mostly): its requests/s says so.
#define WARNINGS_BUSY_SHARE        0.5

//  Fill test->warnings from the test's streams, hosts and summary
//  (aggregate_test calls it once the summary is filled). sums are the
//  hosts' stream sums (aggregate_host_sums); NULL, when memory ran out,
//  sums each host's streams in a pass of their own.
void warnings_fill (test_result_t *test, const aggregate_host_sums_t *sums);

//  True if a warning is a notice: work done outside the timed window
//  (files laid out at prepare), which the reader should know of but
//  which does not put a figure in doubt.
bool warnings_is_notice (const warning_t *warning);

#endif
