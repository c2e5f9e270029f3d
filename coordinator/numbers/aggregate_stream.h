/*  coordinator/numbers/aggregate_stream.h: the figures of one stream, from
    its results alone (aggregate_stream.c).

    Rates are MB/s = 10^6 bytes per second; times come from results.h
    (coordinator timeline, ns).
*/
#ifndef IOFLEET_AGGREGATE_STREAM_H
#define IOFLEET_AGGREGATE_STREAM_H

#include "../results/results.h"

//  later - earlier in ns, saturated to the int64_t range: times come
//  from agents, and absurd ones give absurd figures, not an overflow.
int64_t aggregate_difference_ns (int64_t later_ns, int64_t earlier_ns);

//  The stream's window in *start_ns .. *end_ns on the test's timeline;
//  false if it has none (no RESULT, or an end not after its start). An
//  end after fsync never reached (the fsync failed) closes it at the
//  last write.
bool aggregate_stream_window (const stream_result_t *stream, int64_t *start_ns, int64_t *end_ns);

//  Bytes over a nanosecond interval, in MB/s; NAN for an empty interval.
double aggregate_rate_mbps (double bytes, int64_t from_ns, int64_t to_ns);

//  Whether a test of bytes has streams of requests too (a write beside a
//  randrw): its figures are MB/s, and those streams' requests/s beside.
bool aggregate_test_mixed (const test_result_t *test);

//  The operations its rate counts: its reads (bonnie's seeks), and its
//  writes too where they are operations of their own (randrw).
static inline uint64_t
aggregate_stream_ops (const stream_result_t *stream)
{
    return stream->reads + (stream->ops_writes? stream->writes: 0);
}

//  bytes / (end - start): the stream's rate including its fsync when fsync
//  is on. NAN when the stream never ran (no start or end).
double aggregate_stream_rate_mbps (const stream_result_t *stream);

//  bytes / (last write - start): the rate up to the last write call.
double aggregate_stream_write_rate_mbps (const stream_result_t *stream);

//  operations / (end - start): a stream's operations per second, for a
//  test whose rate counts operations (seeks, randrw's requests). NAN when
//  it never ran.
double aggregate_stream_ops_per_s (const stream_result_t *stream);

//  sysbench's figures of one stream (aggregate_requests.c): its reads,
//  writes and fsyncs per second of its window, MB/s read and written
//  (requests x bs), the window and reads and writes per minute; NANs
//  for a stream without a window. streams is 1 for a stream of requests.
void aggregate_stream_requests (const stream_result_t *stream, requests_summary_t *requests);

//  System CPU seconds the stream's thread spent per GB (10^9 bytes) it
//  moved: what a smaller block or a new kernel costs. NAN without bytes.
double aggregate_stream_sys_s_per_gb (const stream_result_t *stream);

//  Bytes a stream had done at instant t, interpolated linearly between its
//  known points: (start, 0), its samples, (last write, bytes), and flat
//  outside them.
double aggregate_bytes_at (const stream_result_t *stream, int64_t t_ns);

#endif
