/*  coordinator/report/text_warnings.c: the text report's warnings and
    notices; see text.h.

    A warning repeated per host and per iteration says one thing: it is
    printed once per test (and phase) and kind, its first occurrence's
    text followed by how many there are and where (the hosts, the
    iterations). Notices (warnings_is_notice: work done outside the
    window, such as files laid out at prepare) are grouped the same way
    under a heading of their own, after the warnings.
*/
#include "text.h"
#include "../numbers/warnings.h"
#include "../../proto/printable.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

//  A group names this many hosts, then counts the rest.
#define S_HOSTS_NAMED 8
//  A group lists this many iterations at most.
#define S_ITERATIONS_NAMED 64

//  One warning: the test it is of and its place there.
typedef struct {
    const test_result_t *test;
    const warning_t *warning;
} s_item_t;

//  Whether two warnings are of one group: the same test (and phase)
//  and kind, whatever the iteration and host.
static bool
s_alike (const s_item_t *a, const s_item_t *b)
{
    return strcmp (a->test->name, b->test->name) == 0
        && strcmp (a->warning->kind, b->warning->kind) == 0;
}

//  Whether the warning at (test t, warning w) has one of its group
//  before it in the report's order.
static bool
s_seen (const run_result_t *run, size_t t, size_t w)
{
    s_item_t item = { &run->tests [t], &run->tests [t].warnings [w] };
    for (size_t ot = 0; ot <= t; ot++) {
        const test_result_t *other = &run->tests [ot];
        size_t end = ot == t? w: other->warning_count;
        for (size_t ow = 0; ow < end; ow++) {
            s_item_t before = { other, &other->warnings [ow] };
            if (s_alike (&item, &before))
                return true;
        }
    }
    return false;
}

//  Whether a host name is among the group's before (t, w).
static bool
s_host_before (const run_result_t *run, const s_item_t *first, size_t t, size_t w)
{
    const char *agent = run->tests [t].warnings [w].agent;
    for (size_t ot = 0; ot <= t; ot++) {
        const test_result_t *other = &run->tests [ot];
        size_t end = ot == t? w: other->warning_count;
        for (size_t ow = 0; ow < end; ow++) {
            s_item_t before = { other, &other->warnings [ow] };
            if (s_alike (first, &before) && strcmp (other->warnings [ow].agent, agent) == 0)
                return true;
        }
    }
    return false;
}

//  Iterations as ranges, "1-3, 5", into buf.
static void
s_ranges (const uint32_t *values, size_t count, char *buf, size_t buflen)
{
    buf [0] = '\0';
    for (size_t i = 0; i < count; ) {
        size_t j = i;
        while (j + 1 < count && values [j + 1] == values [j] + 1)
            j++;
        size_t used = strlen (buf);
        if (j > i)
            snprintf (buf + used, buflen - used, "%s%" PRIu32 "-%" PRIu32, i? ", ": "",
                      values [i], values [j]);
        else
            snprintf (buf + used, buflen - used, "%s%" PRIu32, i? ", ": "", values [i]);
        i = j + 1;
    }
}

//  Where a group stands, as " (N KIND warnings alike: on a1, a2, in
//  iterations 1-3)", into buf; "" for a group of one. Returns how many
//  iterations it spans.
static size_t
s_where (const run_result_t *run, const s_item_t *first, size_t first_test, char *buf,
         size_t buflen)
{
    size_t count = 0, hosts = 0, iterations = 0;
    uint32_t iteration [S_ITERATIONS_NAMED];
    char host_list [512] = "";
    for (size_t t = first_test; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        for (size_t w = 0; w < test->warning_count; w++) {
            s_item_t item = { test, &test->warnings [w] };
            if (!s_alike (first, &item))
                continue;
            count++;
            if (test->warnings [w].agent [0] && !s_host_before (run, first, t, w)) {
                if (hosts < S_HOSTS_NAMED) {
                    char name [JOB_NAME_MAX * PRINTABLE_GROWTH + 1];
                    size_t used = strlen (host_list);
                    snprintf (host_list + used, sizeof host_list - used, "%s%s",
                              hosts? ", ": "", printable (test->warnings [w].agent, name,
                                                          sizeof name));
                }
                hosts++;
            }
            //  Iterations come in order.
            if ((!iterations || iteration [iterations - 1] != test->iteration)
            &&  iterations < S_ITERATIONS_NAMED)
                iteration [iterations++] = test->iteration;
        }
    }
    buf [0] = '\0';
    if (count < 2)
        return iterations;
    char more [64] = "", iteration_list [512];
    if (hosts > S_HOSTS_NAMED)
        snprintf (more, sizeof more, " and %zu more", hosts - S_HOSTS_NAMED);
    s_ranges (iteration, iterations, iteration_list, sizeof iteration_list);
    snprintf (buf, buflen, " (%zu %s %s alike%s%s%s%s%s%s)", count, first->warning->kind,
              warnings_is_notice (first->warning)? "notices": "warnings",
              hosts || iterations > 1? ":": "", hosts? " on ": "", host_list, more,
              iterations > 1? (hosts? ", in iterations ": " in iterations "): "",
              iterations > 1? iteration_list: "");
    return iterations;
}

//  The warnings (notices false) or the notices of every test, one line
//  per group, under their heading.
static void
s_print (const run_result_t *run, bool notices, FILE *out)
{
    bool any = false;
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        for (size_t w = 0; w < test->warning_count; w++) {
            const warning_t *warning = &test->warnings [w];
            if (warnings_is_notice (warning) != notices || s_seen (run, t, w))
                continue;
            if (!any)
                fprintf (out, "\n%s\n", notices? "notices": "warnings");
            any = true;
            s_item_t first = { test, warning };
            char where [1024];
            size_t iterations = s_where (run, &first, t, where, sizeof where);
            char name [JOB_NAME_MAX * PRINTABLE_GROWTH + 1];
            char text [MSG_TEXT_MAX * PRINTABLE_GROWTH + 1];
            printable (test->name, name, sizeof name);
            if (test->iteration > 1 && iterations == 1)
                fprintf (out, "  %s #%" PRIu32 ": ", name, test->iteration);
            else
                fprintf (out, "  %s: ", name);
            fprintf (out, "%s%s\n", printable (warning->text, text, sizeof text), where);
        }
    }
}

void
text_warnings (const run_result_t *run, FILE *out)
{
    s_print (run, false, out);
    s_print (run, true, out);
}
