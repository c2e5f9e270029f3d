/*  coordinator/report/tail_text.c: the tail attribution, a table of the
    text report and of the page (one model: text.h's rows); see report.h.

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
#include "../../proto/append.h"
#include "../../proto/printable.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

//  Hosts of a tail the text shows at most, ranked; results.json keeps more.
#define S_HOSTS_SHOWN 5

//  The table's head: as wide as the latency table's first column.
const text_rows_head_t tail_head = {
    .caption = "tail of requests: the hosts that sent those slower than the fleet's p99 and "
               "p99.9, ranked",
    .where = "host",
    .figure = { "requests", "share", ">p99", "share", ">p99.9", "share", "" },
    .name_width = 24, .where_width = 16,
    .width = { 10, 7, 8, 7, 8, 7, 6 }
};

//  One host's row.
static void
s_host_row (const char *name, const tail_host_t *host, text_row_fn *fn, void *sink)
{
    char agent [JOB_NAME_MAX * PRINTABLE_GROWTH + 2] = "@";
    printable (host->agent, agent + 1, sizeof agent - 1);
    text_row_t row = { .name = name, .where = agent };
    snprintf (row.cell [0], sizeof row.cell [0], "%" PRIu64, host->requests);
    snprintf (row.cell [1], sizeof row.cell [1], "%.1f%%", 100 * host->requests_share);
    snprintf (row.cell [2], sizeof row.cell [2], "%" PRIu64, host->over_p99);
    snprintf (row.cell [3], sizeof row.cell [3], "%.1f%%", 100 * host->p99_share);
    snprintf (row.cell [4], sizeof row.cell [4], "%" PRIu64, host->over_p999);
    snprintf (row.cell [5], sizeof row.cell [5], "%.1f%%", 100 * host->p999_share);
    snprintf (row.cell [6], sizeof row.cell [6], "%s", host->cause? "cause": "");
    fn (sink, &row);
}

//  How many of the ranked hosts of tail the text shows.
static size_t
s_shown (const latency_tail_t *tail)
{
    size_t shown = 0;
    for (size_t h = 0; h < tail->host_count && h < S_HOSTS_SHOWN; h++)
        if (tail->hosts [h].cause)
            shown = h + 1;
    size_t least = tail->hosts_ranked > TEXT_FLEET_ROWS? 1: 3;
    if (shown < least)
        shown = least;
    return shown < tail->host_count? shown: tail->host_count;
}

//  The line below a test's hosts: the hosts left out, the two
//  percentiles, and the cause in words.
static void
s_summary_row (const latency_tail_t *tail, size_t shown, text_row_fn *fn, void *sink)
{
    text_row_t row = { .name = "", .note = "" };
    char *text = row.text;
    size_t size = sizeof row.text, used = 0;
    if (shown < tail->hosts_ranked)
        append_printf (text, size, &used, "%" PRIu64 " more hosts below; ",
                       tail->hosts_ranked - shown);
    append_printf (text, size, &used, "p99 %.3f ms, p99.9 %.3f ms:",
                   tail->p99_ns / 1e6, tail->p999_ns / 1e6);
    bool named = false;
    for (size_t h = 0; h < tail->host_count; h++)
        if (tail->hosts [h].cause) {
            char agent [JOB_NAME_MAX * PRINTABLE_GROWTH + 1];
            printable (tail->hosts [h].agent, agent, sizeof agent);
            append_printf (text, size, &used, "%s %s", named? ",": " the cause is", agent);
            named = true;
        }
    if (!named)
        append_printf (text, size, &used, " no host stands out");
    row.note = text;
    fn (sink, &row);
}

void
tail_rows (const run_result_t *run, text_row_fn *fn, void *sink)
{
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        const latency_tail_t *tail = &test->tail;
        if (tail->host_count < 2)
            continue;               //  one host is all of its tail
        char name [TEST_ROW_NAME_MAX * PRINTABLE_GROWTH + 16];
        printable (test->name, name, sizeof name);
        if (run->test_count > 1 && test->iteration > 1) {
            size_t len = strlen (name);
            snprintf (name + len, sizeof name - len, " #%" PRIu32, test->iteration);
        }
        size_t shown = s_shown (tail);
        for (size_t h = 0; h < shown; h++)
            s_host_row (h == 0? name: "", &tail->hosts [h], fn, sink);
        s_summary_row (tail, shown, fn, sink);
    }
}

void
tail_text (const run_result_t *run, FILE *out)
{
    text_rows_print (&tail_head, tail_rows, run, out);
}
