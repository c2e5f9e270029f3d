/*  coordinator/metrics/metrics_figures.c: the boundaries and the arithmetic
    of snapshots; see metrics_figures.h.
*/
#include "metrics_figures.h"

#include <stdlib.h>

const metrics_bound_t metrics_bounds [METRICS_BOUNDS] = {
    { 1000, "0.000001" }, { 2000, "0.000002" }, { 5000, "0.000005" },
    { 10000, "0.00001" }, { 20000, "0.00002" }, { 50000, "0.00005" },
    { 100000, "0.0001" }, { 200000, "0.0002" }, { 500000, "0.0005" },
    { 1000000, "0.001" }, { 2000000, "0.002" }, { 5000000, "0.005" },
    { 10000000, "0.01" }, { 20000000, "0.02" }, { 50000000, "0.05" },
    { 100000000, "0.1" }, { 200000000, "0.2" }, { 500000000, "0.5" },
    { 1000000000, "1" }, { 2000000000, "2" }, { 5000000000, "5" },
    { 10000000000, "10" }
};

void
metrics_snapshot_free (metrics_snapshot_t *snapshot)
{
    if (!snapshot)
        return;
    free (snapshot->hosts);
    free (snapshot);
}

void
metrics_latency_add_bucket (metrics_latency_t *latency, int64_t low_ns, int64_t high_ns,
                            uint64_t count)
{
    //  The midpoint, computed without overflow for the last bucket.
    int64_t mid_ns = low_ns + (high_ns - low_ns) / 2;
    size_t slot = 0;
    while (slot < METRICS_BOUNDS && mid_ns > metrics_bounds [slot].ns)
        slot++;
    latency->buckets [slot] += count;
    latency->count += count;
}

void
metrics_flow_add (metrics_flow_t *a, const metrics_flow_t *b)
{
    a->bytes += b->bytes;
    a->requests += b->requests;
    a->bytes_per_s += b->bytes_per_s;
    a->requests_per_s += b->requests_per_s;
    for (size_t slot = 0; slot <= METRICS_BOUNDS; slot++)
        a->latency.buckets [slot] += b->latency.buckets [slot];
    a->latency.count += b->latency.count;
    a->latency.sum_s += b->latency.sum_s;
}

const char *
metrics_state_name (metrics_state_t state)
{
    static const char *names [METRICS_STATES] = {
        [METRICS_RUNNING] = "running", [METRICS_DONE] = "done",
        [METRICS_FAILED] = "failed", [METRICS_LOST] = "lost"
    };
    return state < METRICS_STATES? names [state]: "?";
}
