/*  coordinator/archive/history.c: the runs of the archive as `iofleet
    history` lists them, and one test's figure in each, counted as compare
    counts them; see history.h.
*/
#include "history.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

//  "2026-12-01 09:32:07".
void
history_utc (int64_t wall_ns, char *buf, size_t buflen)
{
    time_t seconds = (time_t) (wall_ns / NS_PER_SEC);
    struct tm utc;
    if (wall_ns < 0 || !gmtime_r (&seconds, &utc) || !strftime (buf, buflen, "%Y-%m-%d %H:%M:%S", &utc))
        snprintf (buf, buflen, "-");
}

//  The figure of test in one run.
history_point_t
history_point (const history_t *history, const history_run_t *run, const char *test)
{
    history_point_t point = { .first = NAN, .median = NAN, .min = NAN, .max = NAN,
                              .stddev = NAN };
    point.cut_short = run->run.cut_short;
    set_t set = { .run = &run->run, .origin = run->results_dir };
    row_t row = { test, history->metric, ROW_MAIN, false };
    for (size_t nbr = 0; nbr < run->run.test_count; nbr++)
        if (!strcmp (run->run.tests [nbr].name, test)) {
            const test_summary_t *summary = &run->run.tests [nbr].summary;
            point.iterations++;
            point.partial += summary->lost_streams > 0;
            point.failed += summary->lost_streams == 0 && summary->failed_streams > 0;
            row.split |= run->run.tests [nbr].iteration > 1;
        }
    double *values = (double *) malloc ((run->run.test_count + 1) * sizeof (double));
    if (!values)
        return point;
    point.count = compare_values (&set, &row, values);
    aggregate_stats_t stats = aggregate_stats (values, point.count);
    if (point.count) {
        point.median = stats.median;
        point.min = stats.min;
        point.max = stats.max;
    }
    if (point.count > 1)
        point.stddev = stats.stddev;
    row.kind = ROW_FIRST;
    if (row.split && compare_values (&set, &row, values) == 1)
        point.first = values [0];
    free (values);
    return point;
}

void
history_value (const history_t *history, const history_point_t *point, double value,
               char *buf, size_t buflen)
{
    if (!isfinite (value)) {
        snprintf (buf, buflen, "-");
        return;
    }
    history->metric->format (value, buf, buflen);
    if (point->partial || point->failed || point->cut_short) {
        size_t used = strlen (buf);
        snprintf (buf + used, buflen - used, "%s", HISTORY_PARTIAL_MARK);
    }
}

void
history_iterations (const history_point_t *point, char *buf, size_t buflen)
{
    int used = snprintf (buf, buflen, "%zu", point->iterations);
    if (point->partial && used >= 0 && (size_t) used < buflen)
        used += snprintf (buf + used, buflen - (size_t) used, ", %zu partial", point->partial);
    if (point->failed && used >= 0 && (size_t) used < buflen)
        used += snprintf (buf + used, buflen - (size_t) used, ", %zu failed", point->failed);
    if (point->cut_short && used >= 0 && (size_t) used < buflen)
        snprintf (buf + used, buflen - (size_t) used, ", run cut short");
}

//  The distinct test names of the runs that --test selects, in the order
//  they first ran: the test itself, or its phases.
static int
s_test_names (history_t *history, const char *test)
{
    size_t capacity = 0;
    for (size_t nbr = 0; nbr < history->count; nbr++)
        capacity += history->runs [nbr].run.test_count;
    history->tests = (const char **) calloc (capacity + 1, sizeof (char *));
    if (!history->tests)
        return -1;
    for (size_t nbr = 0; nbr < history->count; nbr++) {
        const run_result_t *run = &history->runs [nbr].run;
        for (size_t t = 0; t < run->test_count; t++) {
            const char *name = run->tests [t].name;
            bool seen = !compare_selected (name, &test, 1);
            for (size_t before = 0; before < history->test_count && !seen; before++)
                seen = !strcmp (history->tests [before], name);
            if (!seen)
                history->tests [history->test_count++] = name;
        }
    }
    return 0;
}

//  Load the runs of the archive that match filter, and with a test, the
//  names it selects.
int
history_load (archive_t *archive, const archive_filter_t *filter, const char *test,
              history_t *history, char *err, size_t errlen)
{
    int64_t *ids;
    if (archive_find (archive, filter, &ids, &history->count, err, errlen))
        return -1;
    history->runs = (history_run_t *) calloc (history->count + 1, sizeof (history_run_t));
    if (!history->runs) {
        snprintf (err, errlen, "history: out of memory");
        free (ids);
        history->count = 0;
        return -1;
    }
    for (size_t nbr = 0; nbr < history->count; nbr++) {
        history_run_t *run = &history->runs [nbr];
        if (archive_load (archive, ids [nbr], &run->run, &run->results_dir, err, errlen)) {
            history->count = nbr;
            free (ids);
            return -1;
        }
        compare_join_agents (&run->run, false, run->kernels, sizeof run->kernels);
        compare_join_agents (&run->run, true, run->hosts, sizeof run->hosts);
    }
    free (ids);
    return test? s_test_names (history, test): 0;
}

//  Free what history_load made.
void
history_clear (history_t *history)
{
    for (size_t nbr = 0; nbr < history->count; nbr++) {
        run_result_clear (&history->runs [nbr].run);
        free (history->runs [nbr].results_dir);
    }
    free (history->runs);
    free (history->tests);
    history->runs = NULL;
    history->tests = NULL;
    history->count = history->test_count = 0;
}
