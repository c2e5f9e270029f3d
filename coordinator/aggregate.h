/*  coordinator/aggregate.h: the arithmetic behind every number in a report.

    Kept apart from the run engine and the writers so that it can be
    checked against hand-computed cases. Rates are MB/s = 10^6 bytes per
    second; times come from results.h (coordinator timeline, ns).
*/
#ifndef IOFLEET_AGGREGATE_H
#define IOFLEET_AGGREGATE_H

#include "results.h"

//  bytes / (end - start): the stream's rate including its fsync when fsync
//  is on. NAN when the stream never ran (no start or end).
double aggregate_stream_rate_mbps (const stream_result_t *stream);

//  bytes / (last write - start): the rate up to the last write call.
double aggregate_stream_write_rate_mbps (const stream_result_t *stream);

//  Bytes a stream had done at instant t, interpolated linearly between its
//  known points: (start, 0), its samples, (last write, bytes), and flat
//  outside them.
double aggregate_bytes_at (const stream_result_t *stream, int64_t t_ns);

//  Rates as engineers write them: "96" for one, "2x44.5" when every rate
//  is within 5% of their mean, else "30.1+27.0+28.4". Three significant
//  figures, at least no decimals for 100 and above. Writes into buf.
void aggregate_notation (const double *rates_mbps, size_t count, char *buf, size_t buflen);

//  Format one rate with the same precision rules ("1309", "44.5", "3.27").
void aggregate_format_rate (double rate_mbps, char *buf, size_t buflen);

//  Fill test->summary from its streams.
void aggregate_test (test_result_t *test);

#endif
