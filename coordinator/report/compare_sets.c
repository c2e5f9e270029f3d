/*  coordinator/report/compare_sets.c: result files read into the sets
    of `iofleet compare`, and their labels; see compare.h.

    Only the summaries are read, straight from the JSON, so that result
    files of other versions with more keys compare as well.
*/
#include "compare.h"
#include "../aggregate.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//  Add a value to a spread, unless it is not a number.
static void
s_spread_add (spread_t *spread, json_t *value)
{
    if (!json_is_number (value))
        return;
    double number = json_number_value (value);
    if (!isfinite (number))
        return;
    if (spread->count == 0 || number < spread->min)
        spread->min = number;
    if (spread->count == 0 || number > spread->max)
        spread->max = number;
    spread->sum += number;
    spread->count++;
}

//  The test of a set with a name, added if new; NULL when memory ran out.
static set_test_t *
s_set_test (set_t *set, const char *name)
{
    for (size_t nbr = 0; nbr < set->test_count; nbr++)
        if (!strcmp (set->tests [nbr].name, name))
            return &set->tests [nbr];
    set_test_t *tests = realloc (set->tests, (set->test_count + 1) * sizeof *tests);
    if (!tests)
        return NULL;
    set->tests = tests;
    set_test_t *test = &tests [set->test_count++];
    memset (test, 0, sizeof *test);
    snprintf (test->name, sizeof test->name, "%s", name);
    return test;
}

//  Join the distinct kernel releases of the agents: "6.1.0-18-amd64".
static void
s_kernels (set_t *set, json_t *agents)
{
    size_t used = 0;
    set->kernels [0] = 0;
    for (size_t nbr = 0; nbr < json_array_size (agents); nbr++) {
        const char *kernel = json_string_value (json_object_get (json_array_get (agents, nbr),
                                                                 "kernel"));
        if (!kernel || !kernel [0])
            continue;
        //  Each release once, however many agents run it.
        bool seen = false;
        for (size_t before = 0; before < nbr && !seen; before++) {
            const char *other = json_string_value (
                json_object_get (json_array_get (agents, before), "kernel"));
            seen = other && !strcmp (other, kernel);
        }
        if (!seen && used < sizeof set->kernels)
            used += (size_t) snprintf (set->kernels + used, sizeof set->kernels - used,
                                       "%s%s", used? "+": "", kernel);
    }
}

//  Read one results file's summaries into set.
int
compare_load (set_t *set, const char *path, char *err, size_t errlen)
{
    set->path = path;
    json_error_t error;
    json_t *root = json_load_file (path, 0, &error);
    if (!root) {
        if (error.line < 0 && errno)
            snprintf (err, errlen, "%s: %s", path, strerror (errno));
        else
            snprintf (err, errlen, "%s:%d:%d: %s", path, error.line, error.column, error.text);
        return -1;
    }
    int rc = -1;
    json_t *tests = json_object_get (root, "tests");
    json_t *agents = json_object_get (root, "agents");
    if (!json_is_object (root) || !json_is_array (tests) || !json_is_array (agents)) {
        snprintf (err, errlen, "%s: not an iofleet results file (no tests and agents arrays)",
                  path);
        goto done;
    }
    s_kernels (set, agents);
    for (size_t nbr = 0; nbr < json_array_size (tests); nbr++) {
        json_t *test = json_array_get (tests, nbr);
        const char *name = json_string_value (json_object_get (test, "name"));
        json_t *summary = json_object_get (test, "summary");
        if (!name || !json_is_object (summary)) {
            snprintf (err, errlen, "%s: tests[%zu]: expected a name and a summary", path, nbr);
            goto done;
        }
        if (strlen (name) > JOB_NAME_MAX) {
            snprintf (err, errlen, "%s: tests[%zu].name: longer than %d bytes",
                      path, nbr, JOB_NAME_MAX);
            goto done;
        }
        set_test_t *figures = s_set_test (set, name);
        if (!figures) {
            snprintf (err, errlen, "%s: %s", path, strerror (ENOMEM));
            goto done;
        }
        json_t *disk = json_object_get (summary, "disk");
        json_t *network = json_object_get (summary, "network");
        s_spread_add (&figures->figure [FIGURE_COMBINED], json_object_get (summary, "combined_mbps"));
        s_spread_add (&figures->figure [FIGURE_SYS], json_object_get (summary, "sys_pct"));
        if (json_integer_value (json_object_get (disk, "streams")) > 0
        &&  json_integer_value (json_object_get (network, "streams")) > 0) {
            figures->mixed = true;
            s_spread_add (&figures->figure [FIGURE_DISK], json_object_get (disk, "combined_mbps"));
            s_spread_add (&figures->figure [FIGURE_NETWORK],
                          json_object_get (network, "combined_mbps"));
        }
    }
    rc = 0;
done:
    json_decref (root);
    return rc;
}

//  Label the columns: the given labels, else the kernel releases, else
//  the file names; a label seen before gets " #2", " #3".
void
compare_label (set_t *sets, size_t count, const char *const *labels)
{
    for (size_t nbr = 0; nbr < count; nbr++) {
        const char *base = strrchr (sets [nbr].path, '/');
        const char *label = labels? labels [nbr]:
                            sets [nbr].kernels [0]? sets [nbr].kernels:
                            base? base + 1: sets [nbr].path;
        snprintf (sets [nbr].label, sizeof sets [nbr].label, "%s", label);
        size_t same = 1;
        for (size_t before = 0; before < nbr; before++) {
            const char *other = labels? labels [before]:
                                sets [before].kernels [0]? sets [before].kernels: NULL;
            if (other && !strcmp (other, label))
                same++;
        }
        if (same > 1) {
            char numbered [LABEL_MAX + 16];
            snprintf (numbered, sizeof numbered, "%s #%zu", label, same);
            snprintf (sets [nbr].label, sizeof sets [nbr].label, "%s", numbered);
        }
    }
}

