/*  coordinator/report/bonnie.h: bonnie++'s figures of the bonnie tests of
    a run, for the renderers that print them in its notation: the text
    report's lines (seeds.c) and bonnie++'s own CSV (bonnie_csv.c).

    bonnie++ gives, per machine, K/sec (1024 bytes) and %CP (the test's
    CPU time over its elapsed time) for each of its tests, and the
    longest single operation as its latency. Here a machine is a host
    (an agent), a test is a phase of a test whose workload's descriptor
    names bonnie++'s notation (proto/workload.h): output, rewrite, input,
    seeks, the per-character tests being left out as bonnie++ -f does.
    Both renderers walk the same runs and hosts with the two iterators
    below, so that their figures are the same.
*/
#ifndef IOFLEET_REPORT_BONNIE_H
#define IOFLEET_REPORT_BONNIE_H

#include "../results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BONNIE_PHASES 4             //  bonnie++'s columns: output, rewrite, input, seeks
#define BONNIE_SEEKS  3             //  the phase counted in seeks per second

//  One run (iteration) of one bonnie test: its phase rows.
typedef struct {
    const test_result_t *phases [BONNIE_PHASES];   //  output, rewrite, input, seeks;
                                                    //  NULL for one that has no row
    const test_result_t *first;     //  the first that has a row
} bonnie_run_t;

//  One host's figures of one phase.
typedef struct {
    bool any;                       //  the host ran the phase
    double per_second;              //  KiB/s, or seeks/s for the seeks phase; NAN if none
    double cpu_pct;                 //  CPU time of its streams over the phase's window; NAN
                                    //  if none
    int64_t max_latency_ns;         //  its longest request of the phase, 0 if none measured
} bonnie_figure_t;

//  One host of one run: its figures per phase.
typedef struct {
    const char *agent;              //  the host's agent (borrowed from the run)
    const stream_result_t *stream;  //  its first stream of the run's first phase row
    uint32_t streams;               //  its streams in that row
    bonnie_figure_t figures [BONNIE_PHASES];   //  output, rewrite, input, seeks
} bonnie_host_t;

//  Walk the runs of the bonnie tests of run in the order they ran: start
//  with *cursor = 0; each call fills one and returns true, or returns
//  false when there are no more.
bool bonnie_next_run (const run_result_t *run, size_t *cursor, bonnie_run_t *bonnie);

//  Walk the hosts of one run of a bonnie test, in the order their first
//  stream appears in its first phase row: start with *cursor = 0; each
//  call fills one and returns true, or returns false when there are no
//  more.
bool bonnie_next_host (const bonnie_run_t *bonnie, size_t *cursor, bonnie_host_t *host);

//  A size as bonnie++ writes it: "2G", "512M", "64k", or bytes.
void bonnie_size (uint64_t bytes, char *buf, size_t buflen);

#endif
