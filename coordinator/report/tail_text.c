/*  coordinator/report/tail_text.c: the tail attribution of the text
    report; see report.h.

    For each test on several hosts, the hosts that sent the requests
    slower than the fleet's p99 and p99.9, ranked (latency_tail.h): each
    with its requests and its share of them, its count and share of each
    tail, and "cause" where its share of a tail is far above its share
    of the requests. A line names the cause in words, so that a reader
    who skims sees it. The hosts shown are the first of the ranking down
    to the last cause among the first S_HOSTS_SHOWN, and at least the
    first three, or of a fleet (past TEXT_FLEET_ROWS hosts) the first:
    the report of a fleet stays a page.
*/
#include "report.h"
#include "text.h"
#include "../numbers/latency_tail.h"
#include "../../proto/printable.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

//  Hosts of a tail the text shows at most, ranked; results.json keeps more.
#define S_HOSTS_SHOWN 5

//  Width of the first column, as latency_text's.
#define S_NAME_WIDTH 24

//  One host's line.
static void
s_host_line (const char *name, const tail_host_t *host, FILE *out)
{
    char agent [JOB_NAME_MAX * PRINTABLE_GROWTH + 2] = "@";
    printable (host->agent, agent + 1, sizeof agent - 1);
    fprintf (out, "%-*s %-16s %10" PRIu64 " %6.1f%% %8" PRIu64 " %6.1f%% %8" PRIu64
                  " %6.1f%%%s\n", S_NAME_WIDTH, name, agent, host->requests,
             100 * host->requests_share, host->over_p99, 100 * host->p99_share,
             host->over_p999, 100 * host->p999_share, host->cause? "  cause": "");
}

//  How many of the ranked hosts of tail the text shows.
static size_t
s_shown (const latency_tail_t *tail)
{
    size_t shown = 0;
    for (size_t h = 0; h < tail->host_count && h < S_HOSTS_SHOWN; h++)
        if (tail->hosts [h].cause)
            shown = h + 1;
    size_t least = tail->host_count > TEXT_FLEET_ROWS? 1: 3;
    if (shown < least)
        shown = least;
    return shown < tail->host_count? shown: tail->host_count;
}

void
tail_text (const run_result_t *run, FILE *out)
{
    bool header = false;
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        const latency_tail_t *tail = &test->tail;
        if (tail->host_count < 2)
            continue;               //  one host is all of its tail
        if (!header) {
            fprintf (out, "\ntail of requests: the hosts that sent those slower than the "
                          "fleet's p99 and p99.9, ranked:\n");
            fprintf (out, "%-*s %-16s %10s %7s %8s %7s %8s %7s\n", S_NAME_WIDTH, "test", "host",
                     "requests", "share", ">p99", "share", ">p99.9", "share");
            header = true;
        }
        char name [TEST_ROW_NAME_MAX * PRINTABLE_GROWTH + 16];
        printable (test->name, name, sizeof name);
        if (run->test_count > 1 && test->iteration > 1) {
            size_t len = strlen (name);
            snprintf (name + len, sizeof name - len, " #%" PRIu32, test->iteration);
        }
        size_t shown = s_shown (tail);
        for (size_t h = 0; h < shown; h++)
            s_host_line (h == 0? name: "", &tail->hosts [h], out);
        fprintf (out, "%-*s ", S_NAME_WIDTH, "");
        if (shown < tail->host_count)
            fprintf (out, "%zu more hosts below; ", tail->host_count - shown);
        fprintf (out, "p99 %.3f ms, p99.9 %.3f ms:", tail->p99_ns / 1e6, tail->p999_ns / 1e6);
        bool named = false;
        for (size_t h = 0; h < tail->host_count; h++)
            if (tail->hosts [h].cause) {
                char agent [JOB_NAME_MAX * PRINTABLE_GROWTH + 1];
                printable (tail->hosts [h].agent, agent, sizeof agent);
                fprintf (out, "%s %s", named? ",": " the cause is", agent);
                named = true;
            }
        fprintf (out, "%s\n", named? "": " no host stands out");
    }
}
