/*  coordinator/metrics/metrics.h: `iofleet run --metrics HOST:PORT`, the live
    figures of a run over HTTP for a Prometheus (or anything that reads
    OpenMetrics) to scrape.

    libmicrohttpd serves GET /metrics (and /) from its own thread. The run
    loop publishes a snapshot of the phase under way (metrics_collect.h) at
    most every METRICS_PERIOD_NS, and at the end of each phase; a scrape
    takes the current snapshot (a pointer and a count, under a mutex) and
    renders it on the HTTP thread (metrics_render.h), in the format its
    Accept header prefers. The run loop never waits on a scrape longer
    than that pointer swap. The last snapshot stays up until the next
    phase's first, and for metrics_linger after the run.
*/
#ifndef IOFLEET_METRICS_H
#define IOFLEET_METRICS_H

#include "../results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define METRICS_PERIOD_NS  (250 * 1000 * 1000)     //  publish at most this often

typedef struct _metrics_t metrics_t;

//  Listen on address, "HOST:PORT" ("[v6]:PORT"; port 0 takes a free one)
//  and serve. NULL with the reason in err when the address is bad or
//  cannot be bound.
metrics_t *metrics_new (const char *address, char *err, size_t errlen);

//  Where it serves: "http://HOST:PORT/metrics".
const char *metrics_url (const metrics_t *self);

//  Publish result (the phase under way, over once recorded): at most
//  every METRICS_PERIOD_NS while it runs, always when over. Does nothing
//  on a NULL self or a phase not started.
void metrics_publish (metrics_t *self, const test_result_t *result, bool over);

//  Keep serving the last figures for linger_ns (Ctrl-C ends it early),
//  if any were published.
void metrics_linger (metrics_t *self, int64_t linger_ns);

//  Stop serving and free; safe on NULL, NULLs the pointer.
void metrics_destroy (metrics_t **self_p);

#endif
