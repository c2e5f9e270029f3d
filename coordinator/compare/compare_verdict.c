/*  coordinator/compare/compare_verdict.c: each cell of `iofleet compare`
    against the same row of the first set; see compare.h.

    A test that ran more than once counts as iterations 2..N, and its
    first run is a row of its own: the first run after a boot or on a new
    file is often much slower, and mixed in it would be read as noise.
    The value shown is the median of the iterations; the change is the
    median's, in percent of the first set's.

    Whether a change is real is stats.h's verdict: with three values a
    side or more, the Mann-Whitney U test at 10% and its interval; with
    fewer, the old min..max rule, said to be weak. Spread rows (the
    stddev of the main row's values) and first-run rows (one value each)
    show their change but get no verdict.
*/
#include "compare.h"
#include "../numbers/aggregate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//  A row's values in one set, in a new array for the caller to free.
static double *
s_values (const set_t *set, const row_t *row, size_t *count)
{
    row_t values_row = *row;
    if (row->kind == ROW_SPREAD)
        values_row.kind = ROW_MAIN;
    double *values = (double *) malloc ((set->run->test_count + 1) * sizeof (double));
    *count = values? compare_values (set, &values_row, values): 0;
    return values;
}

//  The change from base to value in percent of base; NAN from 0 to
//  anything else.
static double
s_change_pct (double base, double value)
{
    if (base == 0 && value == 0)
        return 0;
    return base != 0 && isfinite (base) && isfinite (value)?
           (value - base) / fabs (base) * 100: NAN;
}

//  The cell of a row in set nbr.
int
compare_cell (const set_t *sets, size_t nbr, const row_t *row, cell_t *cell)
{
    memset (cell, 0, sizeof *cell);
    cell->missing = true;
    cell->median = cell->min = cell->max = cell->stddev = cell->change_pct = NAN;
    size_t count, base_count = 0;
    double *values = s_values (&sets [nbr], row, &count);
    double *base = s_values (&sets [0], row, &base_count);
    if (!values || !base) {
        free (values);
        free (base);
        return -1;
    }
    aggregate_stats_t stats = aggregate_stats (values, count);
    aggregate_stats_t base_stats = aggregate_stats (base, base_count);
    //  A spread needs two values.
    size_t least = row->kind == ROW_SPREAD? 2: 1;
    if (count >= least) {
        cell->missing = false;
        cell->count = count;
        cell->median = row->kind == ROW_SPREAD? stats.stddev: stats.median;
        cell->min = stats.min;
        cell->max = stats.max;
        cell->stddev = stats.stddev;
    }
    if (nbr > 0 && !cell->missing && base_count >= least) {
        cell->compared = true;
        if (row->kind == ROW_MAIN) {
            cell->judged = true;
            cell->verdict = stats_compare (base, base_count, values, count);
            cell->change_pct = cell->verdict.change_pct;
            //  Every figure compared is 0 or more: it cannot fall by more
            //  than all of it. An interval of the ratio never does; one
            //  of the shift (a sample with a 0 in it) may, and is cut.
            if (cell->verdict.low_pct < -100)
                cell->verdict.low_pct = -100;
            if (cell->verdict.high_pct < -100)
                cell->verdict.high_pct = -100;
        }
        else
        if (row->kind == ROW_SPREAD)
            cell->change_pct = s_change_pct (base_stats.stddev, stats.stddev);
        else
            cell->change_pct = s_change_pct (base_stats.median, stats.median);
    }
    free (values);
    free (base);
    return 0;
}

//  "dd1", or "dd1 first run".
void
compare_row_test (const row_t *row, char *buf, size_t buflen)
{
    snprintf (buf, buflen, "%s%s", row->test, row->kind == ROW_FIRST? " first run": "");
}

//  "MB/s", "p99 ms", or "MB/s stddev": the figure with its unit.
void
compare_row_figure (const row_t *row, char *buf, size_t buflen)
{
    const metric_t *metric = row->metric;
    bool named = strstr (metric->name, metric->unit) != NULL;
    snprintf (buf, buflen, "%s%s%s%s", metric->name, named? "": " ", named? "": metric->unit,
              row->kind == ROW_SPREAD? " stddev": "");
}
