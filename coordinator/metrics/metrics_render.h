/*  coordinator/metrics/metrics_render.h: a snapshot as Prometheus text
    (format 0.0.4) or OpenMetrics 1.0.0, the format a scraper's Accept
    header asks for.

    Families, one table (metrics_render.c) for both formats; every series
    carries test, phase and iteration labels:

        iofleet_{fleet,class,host}_bytes_total              counter
        iofleet_{fleet,class,host}_requests_total           counter
        iofleet_{fleet,class,host}_interval_bytes_per_second     gauge
        iofleet_{fleet,class,host}_interval_requests_per_second  gauge
        iofleet_{fleet,class,host}_latency_seconds          histogram
        iofleet_host_cpu_{user,system,iowait}_ratio         gauge
        iofleet_host_{dirty,writeback}_bytes                gauge
        iofleet_agents{state}                               gauge
        iofleet_hosts_omitted                               gauge

    class is disk or network; host the agent's name. Counters and rates
    carry the instant they are true of as their timestamp. A histogram's
    `le` buckets are cumulative (metrics_figures.h has the boundaries).
    Host gauges not known yet are left out.
*/
#ifndef IOFLEET_METRICS_RENDER_H
#define IOFLEET_METRICS_RENDER_H

#include "metrics_figures.h"

#include <stddef.h>

typedef enum {
    METRICS_PROMETHEUS = 0,         //  text/plain; version=0.0.4
    METRICS_OPENMETRICS             //  application/openmetrics-text; version=1.0.0
} metrics_format_t;

//  Series per host, and series besides the hosts' (at most): the
//  cardinality the manual states.
#define METRICS_SERIES_PER_HOST   (4 + METRICS_BOUNDS + 3 + 5)
#define METRICS_SERIES_FIXED      (3 * (4 + METRICS_BOUNDS + 3) + 4 + 1)

//  The format an Accept header prefers of the two (NULL: Prometheus text).
metrics_format_t metrics_format_for (const char *accept);

//  The Content-Type of a format.
const char *metrics_content_type (metrics_format_t format);

//  Render snapshot (NULL: nothing published yet) in format. Returns a
//  buffer the caller frees, its length in *size; NULL if memory ran out.
char *metrics_render (const metrics_snapshot_t *snapshot, metrics_format_t format, size_t *size);

#endif
