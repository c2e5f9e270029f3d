/*  coordinator/compare/compare_gate.c: `iofleet compare --fail-on`, the
    table as a verdict for CI and `git bisect run`; see compare.h.

    `--fail-on 'MB/s<-5%'` fails when a test's MB/s fell by more than 5%
    against the first column and the fall is real (compare_verdict.c).
    Only main rows are judged: a first run is one value, and a spread has
    no verdict. The status says what a bisect must do:

        0    no change past its bound is real: good
        1    a real change past a bound: bad
        125  cannot tell: a set lacks a test or a figure a bound names, or
             a test of it was partial (an agent lost) or failed (a stream
             failed); `git bisect run` skips such a commit

    The cannot-tell checks come first: a regression measured on a partial
    run is not evidence.
*/
#include "compare.h"
#include "../../proto/printable.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//  Parse "NAME<PCT%" or "NAME>PCT%".
int
compare_bound_parse (const char *text, compare_bound_t *bound, char *err, size_t errlen)
{
    memset (bound, 0, sizeof *bound);
    snprintf (bound->text, sizeof bound->text, "%s", text);
    const char *op = strpbrk (text, "<>");
    if (!op || strpbrk (op + 1, "<>")) {
        snprintf (err, errlen, "%s: expected FIGURE<PCT%% or FIGURE>PCT%%, e.g. 'MB/s<-5%%'",
                  text);
        return -1;
    }
    //  Blanks around the figure and the change are allowed: 'MB/s < -5%'.
    const char *start = text + strspn (text, " \t");
    const char *stop = op;
    while (stop > start && (stop [-1] == ' ' || stop [-1] == '\t'))
        stop--;
    snprintf (bound->metric, sizeof bound->metric, "%.*s", (int) (stop - start), start);
    if (!compare_metric (bound->metric)) {
        int used = snprintf (err, errlen, "%s: no figure \"%s\"; figures are", text,
                             bound->metric);
        for (size_t nbr = 0; nbr < compare_metric_count && used > 0 && (size_t) used < errlen; nbr++)
            used += snprintf (err + used, errlen - (size_t) used, "%s %s",
                              nbr? ",": "", compare_metrics [nbr].name);
        return -1;
    }
    bound->op = *op;
    char *end;
    errno = 0;
    bound->pct = strtod (op + 1, &end);
    const char *after = end + strspn (end, " \t");
    if (end == op + 1 || errno || !isfinite (bound->pct) || after [0] != '%'
    ||  after [1 + strspn (after + 1, " \t")] != 0) {
        snprintf (err, errlen, "%s: expected a change in percent after '%c', e.g. -5%%",
                  text, *op);
        return -1;
    }
    return 0;
}

//  Whether a test cannot be judged in set nbr: it is not there, or one of
//  its runs was partial or failed. Says why on log.
static bool
s_cannot_judge (const set_t *set, const char *test, FILE *log)
{
    //  Names and paths come from results files or the archive.
    char shown [CELL_MAX], origin [CELL_MAX];
    printable (test, shown, sizeof shown);
    printable (set->origin, origin, sizeof origin);
    bool found = false;
    for (size_t nbr = 0; nbr < set->run->test_count; nbr++) {
        const test_result_t *run = &set->run->tests [nbr];
        if (strcmp (run->name, test))
            continue;
        found = true;
        const test_summary_t *summary = &run->summary;
        if (summary->lost_streams || summary->failed_streams) {
            fprintf (log, "iofleet compare: cannot judge: %s (%s): test %s #%u is %s "
                     "(%u of %u streams %s)\n", set->label, origin, shown, run->iteration,
                     summary->lost_streams? "partial": "failed",
                     summary->lost_streams? summary->lost_streams: summary->failed_streams,
                     summary->streams, summary->lost_streams? "lost": "failed");
            return true;
        }
    }
    if (!found)
        fprintf (log, "iofleet compare: cannot judge: %s (%s) has no test %s\n",
                 set->label, origin, shown);
    return !found;
}

//  Whether a bound names the metric of a row.
static bool
s_bound_on (const compare_bound_t *bounds, size_t bound_count, const row_t *row)
{
    for (size_t nbr = 0; nbr < bound_count; nbr++)
        if (!strcmp (bounds [nbr].metric, row->metric->name))
            return true;
    return false;
}

//  Whether a cell's change is real and past a bound.
static bool
s_past (const compare_bound_t *bound, const cell_t *cell)
{
    if (!cell->judged || !cell->verdict.real || !isfinite (cell->change_pct))
        return false;
    return bound->op == '<'? cell->change_pct < bound->pct: cell->change_pct > bound->pct;
}

//  Check every bound on every main row of every set.
int
compare_gate (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
              const compare_bound_t *bounds, size_t bound_count, FILE *log)
{
    if (bound_count == 0)
        return EXIT_STATUS_OK;
    bool *unjudged = (bool *) calloc (count, sizeof (bool));
    if (!unjudged)
        return -1;
    bool skip = false, fail = false;
    for (size_t row = 0; row < row_count; row++) {
        if (rows [row].kind != ROW_MAIN)
            continue;
        //  Each test once, on its first row: is it there and whole?
        if (row == 0 || strcmp (rows [row - 1].test, rows [row].test))
            for (size_t nbr = 0; nbr < count; nbr++) {
                unjudged [nbr] = s_cannot_judge (&sets [nbr], rows [row].test, log);
                skip |= unjudged [nbr];
            }
        if (!s_bound_on (bounds, bound_count, &rows [row]))
            continue;
        for (size_t nbr = 0; nbr < count; nbr++) {
            cell_t cell;
            if (unjudged [nbr])
                continue;
            if (compare_cell (sets, nbr, &rows [row], &cell)) {
                free (unjudged);
                return -1;
            }
            char test [CELL_MAX], origin [CELL_MAX];
            printable (rows [row].test, test, sizeof test);
            printable (sets [nbr].origin, origin, sizeof origin);
            if (cell.missing) {
                fprintf (log, "iofleet compare: cannot judge: %s (%s) has no %s for test %s\n",
                         sets [nbr].label, origin, rows [row].metric->name, test);
                skip = true;
                continue;
            }
            for (size_t bound = 0; nbr > 0 && bound < bound_count; bound++) {
                if (strcmp (bounds [bound].metric, rows [row].metric->name)
                ||  !s_past (&bounds [bound], &cell))
                    continue;
                char interval [64] = " (weak: fewer than 3 values a side)";
                if (cell.verdict.strong)
                    snprintf (interval, sizeof interval, " [%+.1f, %+.1f]",
                              cell.verdict.low_pct, cell.verdict.high_pct);
                fprintf (log, "iofleet compare: fail: %s %s %s: %+.1f%%%s, past %s\n",
                         test, rows [row].metric->name, sets [nbr].label,
                         cell.change_pct, interval, bounds [bound].text);
                fail = true;
            }
        }
    }
    free (unjudged);
    //  A bound on a figure no test has checks nothing: say so.
    for (size_t bound = 0; bound < bound_count; bound++) {
        bool used = false;
        for (size_t row = 0; row < row_count && !used; row++)
            used = rows [row].kind == ROW_MAIN
                && !strcmp (bounds [bound].metric, rows [row].metric->name);
        if (!used)
            fprintf (log, "iofleet compare: note: --fail-on %s: no test has %s figures; "
                     "the bound checks nothing\n", bounds [bound].text, bounds [bound].metric);
    }
    return skip? EXIT_STATUS_SKIP: fail? EXIT_STATUS_FAILED: EXIT_STATUS_OK;
}
