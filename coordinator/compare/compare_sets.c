/*  coordinator/compare/compare_sets.c: runs as the columns of `iofleet
    compare`, and the rows they make; see compare.h.

    A run comes from a results file or from the archive, read by the one
    reader (reader.c), so that the same checks apply whatever compare is
    given. Its tests are grouped by name: a test that ran N times is N
    entries, iteration 1 being its first run.
*/
#include "compare.h"
#include "../../proto/printable.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

//  Whether the distinct values before agent nbr include value.
static bool
s_seen (const run_result_t *run, size_t nbr, bool hosts, const char *value)
{
    for (size_t before = 0; before < nbr; before++) {
        const agent_info_t *agent = &run->agents [before];
        if (!strcmp (hosts? agent->hostname: agent->kernel, value))
            return true;
    }
    return false;
}

//  Join the distinct kernels (or host names) of the agents.
void
compare_join_agents (const run_result_t *run, bool hosts, char *buf, size_t buflen)
{
    size_t used = 0;
    buf [0] = 0;
    for (size_t nbr = 0; nbr < run->agent_count; nbr++) {
        const agent_info_t *agent = &run->agents [nbr];
        const char *value = hosts? agent->hostname: agent->kernel;
        if (!value [0] || s_seen (run, nbr, hosts, value) || used >= buflen)
            continue;
        used += (size_t) snprintf (buf + used, buflen - used, "%s%s", used? "+": "", value);
    }
}

//  What a set is called before numbering: the given label, else the
//  run's own (--label), else its kernel releases, else its file name.
static const char *
s_label (const set_t *set, const char *given)
{
    const char *base = strrchr (set->origin, '/');
    return given? given: set->run->label [0]? set->run->label:
           set->kernels [0]? set->kernels: base? base + 1: set->origin;
}

//  Label the columns, each as s_label says; a label seen before gets
//  " #2", " #3".
void
compare_sets (set_t *sets, const run_result_t *runs, const char *const *origins,
              const char *const *labels, size_t count)
{
    for (size_t nbr = 0; nbr < count; nbr++) {
        set_t *set = &sets [nbr];
        set->run = &runs [nbr];
        set->origin = origins [nbr];
        compare_join_agents (set->run, false, set->kernels, sizeof set->kernels);
        const char *label = s_label (set, labels? labels [nbr]: NULL);
        size_t same = 1;
        for (size_t before = 0; before < nbr; before++)
            same += !strcmp (s_label (&sets [before], labels? labels [before]: NULL), label);
        //  A heading comes from a file or the archive (a kernel release,
        //  a label): printable, wherever it is shown.
        char shown [LABEL_MAX];
        printable (label, shown, sizeof shown);
        if (same > 1)
            snprintf (set->label, sizeof set->label, "%.*s #%zu", LABEL_MAX - 8, shown, same);
        else
            snprintf (set->label, sizeof set->label, "%s", shown);
    }
}

//  Whether name is one of the tests, or a phase of one ("name/phase").
bool
compare_selected (const char *name, const char *const *tests, size_t test_count)
{
    if (test_count == 0)
        return true;
    for (size_t nbr = 0; nbr < test_count; nbr++) {
        size_t length = strlen (tests [nbr]);
        if (!strncmp (name, tests [nbr], length) && (name [length] == 0 || name [length] == '/'))
            return true;
    }
    return false;
}

//  The values of a row in one set.
size_t
compare_values (const set_t *set, const row_t *row, double *values)
{
    size_t count = 0;
    for (size_t nbr = 0; nbr < set->run->test_count; nbr++) {
        const test_result_t *test = &set->run->tests [nbr];
        if (strcmp (test->name, row->test))
            continue;
        bool first = test->iteration == 1;
        if (row->split && (row->kind == ROW_FIRST) != first)
            continue;
        double value = row->metric->get (test);
        if (isfinite (value))
            values [count++] = value;
    }
    return count;
}

//  How many values any set has for a row, at most.
static size_t
s_most_values (const set_t *sets, size_t count, const row_t *row)
{
    size_t most = 0;
    for (size_t nbr = 0; nbr < count; nbr++) {
        double *values = (double *) malloc ((sets [nbr].run->test_count + 1) * sizeof (double));
        size_t found = values? compare_values (&sets [nbr], row, values): 0;
        most = found > most? found: most;
        free (values);
    }
    return most;
}

//  Whether some set ran a test more than once.
static bool
s_split (const set_t *sets, size_t count, const char *test)
{
    for (size_t nbr = 0; nbr < count; nbr++)
        for (size_t t = 0; t < sets [nbr].run->test_count; t++)
            if (sets [nbr].run->tests [t].iteration > 1
            &&  !strcmp (sets [nbr].run->tests [t].name, test))
                return true;
    return false;
}

//  Append the rows of one test: per figure its main row and its spread,
//  except that a pair of figures shown as one ("disk/network") keeps its
//  two main rows together, then its two spreads; then the first runs.
static void
s_test_rows (const set_t *sets, size_t count, const char *test, row_t *rows, size_t *row_count)
{
    bool split = s_split (sets, count, test);
    row_t held [2];                 //  spreads waiting for the end of a pair
    size_t held_count = 0;
    for (size_t metric = 0; metric < compare_metric_count; metric++) {
        row_t row = { test, &compare_metrics [metric], ROW_MAIN, split };
        size_t most = s_most_values (sets, count, &row);
        if (most > 0 || row.metric->always)
            rows [(*row_count)++] = row;
        if (most > 1)
            held [held_count++] = (row_t) { test, row.metric, ROW_SPREAD, split };
        if (row.metric->joined && most > 0)
            continue;               //  its spread after its partner's row
        for (size_t nbr = 0; nbr < held_count; nbr++)
            rows [(*row_count)++] = held [nbr];
        held_count = 0;
    }
    for (size_t nbr = 0; nbr < held_count; nbr++)
        rows [(*row_count)++] = held [nbr];
    for (size_t metric = 0; split && metric < compare_metric_count; metric++) {
        row_t row = { test, &compare_metrics [metric], ROW_FIRST, split };
        if (s_most_values (sets, count, &row) > 0)
            rows [(*row_count)++] = row;
    }
}

//  Whether some set has phases of a test: "name/phase".
static bool
s_has_phases (const set_t *sets, size_t count, const char *test)
{
    size_t length = strlen (test);
    for (size_t nbr = 0; nbr < count; nbr++)
        for (size_t t = 0; t < sets [nbr].run->test_count; t++) {
            const char *name = sets [nbr].run->tests [t].name;
            if (!strncmp (name, test, length) && name [length] == '/')
                return true;
        }
    return false;
}

//  The rows: every test, in the order of the sets.
row_t *
compare_rows (const set_t *sets, size_t count, const char *const *tests, size_t test_count,
              size_t *row_count)
{
    size_t names = test_count;
    for (size_t nbr = 0; nbr < count; nbr++)
        names += sets [nbr].run->test_count;
    //  At most three rows per figure of each distinct test.
    row_t *rows = (row_t *) calloc (names * compare_metric_count * 3 + 1, sizeof (row_t));
    const char **listed = (const char **) calloc (names + 1, sizeof (char *));
    *row_count = 0;
    if (!rows || !listed) {
        free (rows);
        free (listed);
        return NULL;
    }
    size_t listed_count = 0;
    //  Tests asked for come first, in the order asked, even if no set has
    //  them (a test a set lacks is missing, never dropped), unless they
    //  are tests of phases: then their phases are the rows.
    for (size_t nbr = 0; nbr < test_count; nbr++)
        if (!s_has_phases (sets, count, tests [nbr]))
            listed [listed_count++] = tests [nbr];
    for (size_t nbr = 0; nbr < count; nbr++)
        for (size_t t = 0; t < sets [nbr].run->test_count; t++) {
            const char *name = sets [nbr].run->tests [t].name;
            bool seen = !compare_selected (name, tests, test_count);
            for (size_t before = 0; before < listed_count && !seen; before++)
                seen = !strcmp (listed [before], name);
            if (!seen)
                listed [listed_count++] = name;
        }
    for (size_t nbr = 0; nbr < listed_count; nbr++)
        s_test_rows (sets, count, listed [nbr], rows, row_count);
    free (listed);
    return rows;
}
