/*  coordinator/report/compare_verdict.c: the rows of `iofleet compare`,
    and each cell against the first set; see compare.h.

    The table the mailing-list threads were made of: a row per test, a
    column per result set (a kernel, usually), each figure with its change
    against the first column in percent. A test that ran N times counts
    as the mean of its iterations, and the iterations' range (min..max) is
    its run-to-run spread. A change is marked "~" when it lies within the
    spread of either side: the other column's mean inside the first
    column's range, or the first column's mean inside the other's. A side
    with one iteration has no spread. Tests one set lacks are shown as
    missing, never dropped.

    Rows: the combined MB/s of each test; for a test that mixes disk and
    network streams, the two classes' combined MB/s (one "disk/network"
    row in text, as the threads wrote "96/35"); and system CPU in percent
    when the results carry it (summary.sys_pct), skipped otherwise.
*/
#include "compare.h"
#include "../aggregate.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//  The mean of a spread.
double
compare_mean (const spread_t *spread)
{
    return spread->count? spread->sum / (double) spread->count: NAN;
}

//  Whether value lies within a spread of at least two iterations.
static bool
s_inside (const spread_t *spread, double value)
{
    return spread->count > 1 && value >= spread->min && value <= spread->max;
}

//  The cell of a row in set nbr, against the same row in set 0.
cell_t
compare_cell (const set_t *sets, size_t nbr, const row_t *row)
{
    cell_t cell = { .missing = true, .change_pct = NAN };
    const spread_t *base = NULL;
    for (size_t test = 0; test < sets [0].test_count; test++)
        if (!strcmp (sets [0].tests [test].name, row->test))
            base = &sets [0].tests [test].figure [row->figure];
    for (size_t test = 0; test < sets [nbr].test_count; test++)
        if (!strcmp (sets [nbr].tests [test].name, row->test)) {
            cell.spread = sets [nbr].tests [test].figure [row->figure];
            cell.missing = cell.spread.count == 0;
        }
    if (nbr == 0 || cell.missing || !base || base->count == 0)
        return cell;
    double first = compare_mean (base);
    double mean = compare_mean (&cell.spread);
    if (first != 0)
        cell.change_pct = (mean - first) / first * 100;
    cell.within_spread = s_inside (base, mean) || s_inside (&cell.spread, first);
    return cell;
}

//  Whether any set has a figure for a test.
static bool
s_any (const set_t *sets, size_t count, const char *test, figure_t figure)
{
    for (size_t nbr = 0; nbr < count; nbr++)
        for (size_t t = 0; t < sets [nbr].test_count; t++)
            if (!strcmp (sets [nbr].tests [t].name, test)
            &&  sets [nbr].tests [t].figure [figure].count)
                return true;
    return false;
}

//  The rows: every test of every set, in the order of the first set and
//  then of those that follow; its figures in a fixed order. A test that
//  no set has a combined rate for is still listed: as missing everywhere.
row_t *
compare_rows (const set_t *sets, size_t count, size_t *row_count)
{
    size_t capacity = 0;
    for (size_t nbr = 0; nbr < count; nbr++)
        capacity += sets [nbr].test_count * FIGURES;
    row_t *rows = (row_t *) calloc (capacity? capacity: 1, sizeof (row_t));
    *row_count = 0;
    if (!rows)
        return NULL;
    for (size_t nbr = 0; nbr < count; nbr++)
        for (size_t t = 0; t < sets [nbr].test_count; t++) {
            const char *name = sets [nbr].tests [t].name;
            bool listed = false;
            for (size_t row = 0; row < *row_count && !listed; row++)
                listed = !strcmp (rows [row].test, name);
            if (listed)
                continue;
            for (int figure = 0; figure < FIGURES; figure++)
                if (figure == FIGURE_COMBINED || s_any (sets, count, name, (figure_t) figure))
                    rows [(*row_count)++] = (row_t) { name, (figure_t) figure };
        }
    return rows;
}

