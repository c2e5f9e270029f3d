/*  coordinator/numbers/aggregate_stats.c: the statistics of one figure
    over runs of a test; see aggregate_stats.h.
*/
#include "aggregate_stats.h"

#include <math.h>
#include <stdlib.h>

//  For qsort: ascending doubles.
static int
s_compare_doubles (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

aggregate_stats_t
aggregate_stats (const double *values, size_t count)
{
    aggregate_stats_t stats = { .min = NAN, .median = NAN, .max = NAN, .mean = NAN, .stddev = NAN };
    double *sorted = (double *) malloc ((count? count: 1) * sizeof (double));
    if (!sorted)
        return stats;
    for (size_t i = 0; i < count; i++)
        if (!isnan (values [i]))
            sorted [stats.count++] = values [i];
    size_t n = stats.count;
    if (n > 0) {
        qsort (sorted, n, sizeof (double), s_compare_doubles);
        stats.min = sorted [0];
        stats.max = sorted [n - 1];
        stats.median = n % 2? sorted [n / 2]: (sorted [n / 2 - 1] + sorted [n / 2]) / 2;
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += sorted [i];
        stats.mean = sum / (double) n;
        double squares = 0;
        for (size_t i = 0; i < n; i++)
            squares += (sorted [i] - stats.mean) * (sorted [i] - stats.mean);
        stats.stddev = n > 1? sqrt (squares / (double) (n - 1)): 0;
    }
    free (sorted);
    return stats;
}
