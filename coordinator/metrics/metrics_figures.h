/*  coordinator/metrics/metrics_figures.h: one snapshot of a run's live
    figures, as --metrics serves them.

    The run loop fills a snapshot from the phase under way (metrics_collect.c)
    and hands it to the HTTP thread (metrics.c), which renders it for each
    scrape (metrics_render.c). A snapshot is a plain copy of the figures:
    nothing in it points into the run's results, so the run loop never waits
    for a scrape, nor a scrape for the run loop, beyond swapping a pointer.

    Latency is a Prometheus histogram with a fixed set of boundaries,
    METRICS_BOUNDS of them in a 1-2-5 sequence from 1 us to 10 s, and +Inf.
    A bucket of our log-linear histograms (proto/histogram.h, at most 1/64
    of its low edge wide) is counted under the first boundary at or above
    its midpoint, the value the reports give its requests: a request is
    counted under a boundary up to 0.78% away from where it belongs.
*/
#ifndef IOFLEET_METRICS_FIGURES_H
#define IOFLEET_METRICS_FIGURES_H

#include "../../proto/jobspec.h"

#include <stddef.h>
#include <stdint.h>

#define METRICS_BOUNDS      22      //  finite `le` boundaries: 1 us .. 10 s, 1-2-5
#define METRICS_HOSTS_MAX   4096    //  hosts that get series of their own

//  A boundary: its value and its `le` label, written once.
typedef struct {
    int64_t ns;                     //  the boundary in nanoseconds
    const char *le;                 //  as the `le` label says it, in seconds
} metrics_bound_t;

extern const metrics_bound_t metrics_bounds [METRICS_BOUNDS];

//  How an agent stands in the phase under way.
typedef enum {
    METRICS_RUNNING = 0,            //  a stream of it runs (or the phase is not over)
    METRICS_DONE,                   //  every stream of it finished
    METRICS_FAILED,                 //  a stream of it failed
    METRICS_LOST,                   //  lost, or absent from the test
    METRICS_STATES
} metrics_state_t;

//  Latency of a set of requests, binned on the boundaries.
typedef struct {
    uint64_t buckets [METRICS_BOUNDS + 1];  //  per boundary, not cumulative; the last is +Inf
    uint64_t count;                 //  requests
    double sum_s;                   //  their latency added up, seconds
} metrics_latency_t;

//  What a host, a class or the fleet moved.
typedef struct {
    double bytes;                   //  bytes written or read, from the samples
    double requests;                //  requests: bytes / bs while running, exact once finished
    double bytes_per_s;             //  over each stream's last sample interval, summed
    double requests_per_s;          //  the same in requests
    metrics_latency_t latency;      //  of the streams finished so far
} metrics_flow_t;

//  One host's figures.
typedef struct {
    char name [JOB_NAME_MAX + 1];   //  its agent's name
    metrics_state_t state;          //  how it stands
    metrics_flow_t flow;            //  its streams
    double user_ratio;              //  share of its CPU time in user mode, NAN if not known
    double system_ratio;            //  in system mode (and interrupts)
    double iowait_ratio;            //  waiting for I/O
    double dirty_bytes;             //  Dirty, NAN if not known
    double writeback_bytes;         //  Writeback, NAN if not known
} metrics_host_t;

//  Everything a scrape shows.
typedef struct {
    char test [JOB_NAME_MAX + 1];   //  the test's name
    char phase [JOB_NAME_MAX + 1];  //  its phase's, "" for a test without phases
    uint32_t iteration;             //  1-based
    int64_t as_of_ms;               //  wall clock (ms) the counters and rates are of, 0: none
    metrics_flow_t fleet;           //  every stream of the phase
    metrics_flow_t classes [2];     //  disk, network
    uint32_t agents [METRICS_STATES];   //  hosts by state
    metrics_host_t *hosts;          //  the first METRICS_HOSTS_MAX hosts of the test
    size_t host_count;              //  how many
    size_t hosts_omitted;           //  past METRICS_HOSTS_MAX: in the fleet's figures only
} metrics_snapshot_t;

//  Free a snapshot and what it holds; safe on NULL.
void metrics_snapshot_free (metrics_snapshot_t *snapshot);

//  Count one latency bucket of ours ([low_ns, high_ns), count requests);
//  the sum is the caller's (the histograms' exact one).
void metrics_latency_add_bucket (metrics_latency_t *latency, int64_t low_ns, int64_t high_ns,
                                 uint64_t count);

//  Add b into a.
void metrics_flow_add (metrics_flow_t *a, const metrics_flow_t *b);

//  "running", "done", "failed", "lost".
const char *metrics_state_name (metrics_state_t state);

#endif
