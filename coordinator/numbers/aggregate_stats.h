/*  coordinator/numbers/aggregate_stats.h: the statistics of one figure over
    runs of a test (aggregate_stats.c).
*/
#ifndef IOFLEET_AGGREGATE_STATS_H
#define IOFLEET_AGGREGATE_STATS_H

#include <stddef.h>

//  Statistics of one figure over runs of a test.
typedef struct {
    size_t count;                   //  runs with a value (NAN runs are left out)
    double min;                     //  NAN when count is 0
    double median;
    double max;
    double mean;
    double stddev;                  //  sample standard deviation (n - 1); 0 for one run
} aggregate_stats_t;

//  Statistics of count values (NANs skipped).
aggregate_stats_t aggregate_stats (const double *values, size_t count);

#endif
