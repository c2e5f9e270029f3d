/*  coordinator/numbers/aggregate.h: the arithmetic behind every number in a report
    (aggregate.c), and how a rate is written (aggregate_notation.c); a
    stream's own figures are aggregate_stream.h's.

    Kept apart from the run engine and the writers so that it can be
    checked against hand-computed cases. Rates are MB/s = 10^6 bytes per
    second; times come from results.h (coordinator timeline, ns).
*/
#ifndef IOFLEET_AGGREGATE_H
#define IOFLEET_AGGREGATE_H

#include "aggregate_stats.h"
#include "aggregate_stream.h"
#include "../results/results.h"

//  Requests a stream had in flight on the mean: the time of its reads
//  and writes summed, over its window of requests (start to the end of
//  the last). NAN for a stream whose agent reports no depth.
double aggregate_stream_depth (const stream_result_t *stream);

//  Rates as engineers write them: "96" for one, "2x44.5" when every rate
//  is within 5% of their mean, else "30.1+27.0+28.4" ("30.1+-" for one
//  that has none; "-" when none has), and for more than eight streams
//  "256: 3.73..133, median 44.5" (", 3 without" a rate). Three
//  significant figures, no decimals for 100 and above. Writes into buf.
void aggregate_notation (const double *rates_mbps, size_t count, char *buf, size_t buflen);

//  Format one rate with the same precision rules ("1309", "44.5", "3.27").
void aggregate_format_rate (double rate_mbps, char *buf, size_t buflen);

//  Units a report shows rates in. Everything is measured and stored in
//  MB/s (10^6 bytes/s, as dd prints and the mailing lists write);
//  `--units MiB` shows MiB/s (2^20 bytes/s) instead.
typedef enum {
    UNITS_MB = 0,
    UNITS_MIB = 1
} units_t;

//  Units from a flag: "MB" or "MB/s", "MiB" or "MiB/s"; -1 otherwise.
int aggregate_units_parse (const char *text);

//  A rate in MB/s expressed in units, and the units' name ("MiB/s").
double aggregate_in_units (double rate_mbps, int units);
const char *aggregate_units_name (int units);

//  The notation of one class's stream rates in a test, in units.
void aggregate_class_notation (const test_result_t *test, int job_class, int units,
                               char *buf, size_t buflen);

//  The per-stream figure of a test: one class's notation, or
//  "disk/network" ("96/35") for a mixed test, "-" without streams. In
//  MB/s it is the notation as recorded (a re-rendered report shows what
//  the run did); in other units it is written again from the streams'
//  rates.
void aggregate_per_stream (const test_result_t *test, int units, char *buf, size_t buflen);

//  The combined rate of a test in units: MB/s, requests/s for a test of
//  operations ("62230/s"), both for a mixed test ("516 & 62230/s"), "-"
//  for none.
void aggregate_combined (const test_result_t *test, int units, char *buf, size_t buflen);

//  What each host's streams add up to, per entry of test->hosts.
typedef struct {
    uint64_t bytes;                 //  bytes its streams moved
    uint64_t written_bytes;         //  of which by streams that do not read
    uint64_t cached_bytes;          //  written with neither O_DIRECT nor fsync
    uint64_t cached_read_bytes;     //  read from a local file, not O_DIRECT, cache not dropped
    uint64_t set_bytes;             //  file sets (randrw) used without O_DIRECT, each once
} aggregate_host_sums_t;

//  Add one stream to its host's sums.
void aggregate_host_add (aggregate_host_sums_t *sum, const stream_result_t *stream);

//  The sums of every host's streams, one entry per test->hosts, each
//  host's streams found in the streams sorted by agent: n log n for a
//  fleet, where a pass over the streams per host would be n squared
//  (aggregate_hosts.c). NULL if memory ran out; the caller frees it.
aggregate_host_sums_t *aggregate_host_sums (const test_result_t *test);

//  Pointers to the test's streams in agent order, for the caller to free;
//  NULL if memory ran out.
const stream_result_t **aggregate_streams_by_agent (const test_result_t *test);

//  In streams[0..count) sorted by agent, where agent's streams begin, and
//  how many they are (*length, 0 for none): a binary search.
size_t aggregate_agent_run (const stream_result_t *const *streams, size_t count,
                            const char *agent, size_t *length);

//  What the streams of each host did together (host_result_t: streams
//  to requests), and the test's requests (summary.requests), from its
//  streams (aggregate_requests.c): aggregate_test's, and a results
//  file's reader's, which computes them again from the streams it read,
//  as it does every figure derived from a stream.
void aggregate_host_figures (test_result_t *test);

//  The same figures of a set of streams (those of one host) into host,
//  for a host whose agent sent no HOST figures (a workload without
//  them) and so has no entry in test->hosts.
void aggregate_streams_figures (const stream_result_t *const *streams, size_t count,
                                host_result_t *host);

//  A host's Dirty and Writeback at the end of the window, in bytes: what
//  its page cache still held to write; and the seconds it was watched
//  after the window (its settle period).
double aggregate_host_dirty_end_bytes (const host_result_t *host);
double aggregate_host_settle_s (const host_result_t *host);

//  The hosts, the skews with the bound on their error, and the stop
//  figures of summary, from the test's streams (aggregate_skews.c).
void aggregate_skews (const test_result_t *test, test_summary_t *summary);

//  Fill test->summary from its streams and hosts, then test->warnings
//  (warnings.h). A stream without a RESULT but with samples first gets its last sample's
//  bytes (bytes_sampled): counted in the test's bytes and combined rates
//  over the span from 0 to that sample, which the summary's
//  failed_streams marks as partial.
void aggregate_test (test_result_t *test);

//  The iterations of one test, first run apart from the rest: the first
//  run after a boot or a new file is often several times slower, and
//  mixing it in would hide that. Figures are the combined rate of each
//  iteration of test `name` in the run, in iteration order: MB/s, or
//  operations per second for a test of operations (rate_ops).
typedef struct {
    bool rate_ops;                  //  the figures count operations per second
    double first_mbps;              //  iteration 1, NAN if it did not run
    aggregate_stats_t rest;         //  iterations 2..N
    aggregate_stats_t rest_sys_pct; //  %sys of iterations 2..N
} aggregate_iterations_t;

aggregate_iterations_t aggregate_iterations (const run_result_t *run, const char *name);

#endif
