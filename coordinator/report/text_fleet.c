/*  coordinator/report/text_fleet.c: the text report of a fleet; see text.h.

    A thousand agents do not fit in a table one reads: their agents are
    said by what they have in common (kernels, CPUs, memory, the range of
    their clock offsets), a test by the spread of its hosts' rates and its
    slowest hosts, which are the ones to look at. Everything is sorted
    once, so that the report takes n log n in streams, not n squared.
*/
#include "report.h"
#include "text.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"
#include "../../proto/printable.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//  Kinds of a value a fleet's agents line names, the most common first.
#define S_KINDS_NAMED 3

//  One host of a test: its streams' figures, the test's entry for its
//  agent when it sent HOST figures, else computed here the same way
//  (aggregate_streams_figures) into an array of their own.
typedef struct {
    const char *agent;              //  its name (borrowed from a stream)
    uint64_t bytes;                 //  its streams moved
    const host_result_t *figures;   //  its figures
} s_host_t;

//  For qsort: strings by their text (pointers to char pointers).
static int
s_compare_text (const void *a, const void *b)
{
    return strcmp (*(const char *const *) a, *(const char *const *) b);
}

//  For qsort: host figures by agent.
static int
s_compare_figures_agent (const void *a, const void *b)
{
    return strcmp ((*(const host_result_t *const *) a)->agent,
                   (*(const host_result_t *const *) b)->agent);
}

//  For qsort: hosts slowest first; those without a rate before all.
static int
s_compare_slowest (const void *a, const void *b)
{
    double x = ((const s_host_t *) a)->figures->rate_mbps;
    double y = ((const s_host_t *) b)->figures->rate_mbps;
    if (isnan (x) || isnan (y))
        return isnan (y) - isnan (x);
    return (x > y) - (x < y);
}

//  --------------------------------------------------------------------------
//  The agents

//  The kinds among count values, the most common first, as "6.1.0 (1000),
//  6.8-rc1 (24)", into buf. values are sorted here.
static void
s_kinds (const char **values, size_t count, char *buf, size_t buflen)
{
    qsort (values, count, sizeof *values, s_compare_text);
    //  The kinds in sorted order, then the most common picked from them.
    size_t kinds = 0;
    const char *named [S_KINDS_NAMED] = { NULL };
    size_t named_count [S_KINDS_NAMED] = { 0 };
    for (size_t first = 0; first < count; kinds++) {
        size_t next = first + 1;
        while (next < count && strcmp (values [next], values [first]) == 0)
            next++;
        size_t run = next - first;
        for (size_t k = 0; k < S_KINDS_NAMED; k++)
            if (run > named_count [k]) {
                memmove (&named [k + 1], &named [k], (S_KINDS_NAMED - 1 - k) * sizeof *named);
                memmove (&named_count [k + 1], &named_count [k],
                         (S_KINDS_NAMED - 1 - k) * sizeof *named_count);
                named [k] = values [first];
                named_count [k] = run;
                break;
            }
        first = next;
    }
    size_t used = 0;
    buf [0] = '\0';
    for (size_t k = 0; k < S_KINDS_NAMED && named [k] && used < buflen; k++) {
        char shown [MSG_HOST_MAX * PRINTABLE_GROWTH + 1];
        used += (size_t) snprintf (buf + used, buflen - used, "%s%s (%zu)", k? ", ": "",
                                   printable (named [k], shown, sizeof shown), named_count [k]);
    }
    if (kinds > S_KINDS_NAMED && used < buflen)
        snprintf (buf + used, buflen - used, " and %zu more", kinds - S_KINDS_NAMED);
}

bool
text_fleet_agents (const run_result_t *run, FILE *out)
{
    size_t count = run->agent_count;
    if (count <= TEXT_FLEET_ROWS)
        return false;
    const char **values = calloc (count, sizeof *values);
    char (*numbers) [2][32] = calloc (count, sizeof *numbers);
    if (!values || !numbers) {
        free (values);
        free (numbers);
        fprintf (out, "%zu agents (results.json lists every one)\n", count);
        return true;
    }
    int64_t offset_min = INT64_MAX, offset_max = INT64_MIN, rtt_min = INT64_MAX, rtt_max = 0;
    for (size_t i = 0; i < count; i++) {
        const agent_info_t *agent = &run->agents [i];
        offset_min = agent->clock_offset_ns < offset_min? agent->clock_offset_ns: offset_min;
        offset_max = agent->clock_offset_ns > offset_max? agent->clock_offset_ns: offset_max;
        rtt_min = agent->clock_rtt_ns < rtt_min? agent->clock_rtt_ns: rtt_min;
        rtt_max = agent->clock_rtt_ns > rtt_max? agent->clock_rtt_ns: rtt_max;
    }
    char kernels [512], cpus [256], memory [256];
    for (size_t i = 0; i < count; i++)
        values [i] = run->agents [i].kernel [0]? run->agents [i].kernel: "-";
    s_kinds (values, count, kernels, sizeof kernels);
    for (size_t i = 0; i < count; i++) {
        snprintf (numbers [i][0], sizeof numbers [i][0], "%" PRIu32, run->agents [i].cpus);
        values [i] = numbers [i][0];
    }
    s_kinds (values, count, cpus, sizeof cpus);
    for (size_t i = 0; i < count; i++) {
        snprintf (numbers [i][1], sizeof numbers [i][1], "%.1f GiB",
                  (double) run->agents [i].mem_bytes / (1024.0 * 1024 * 1024));
        values [i] = numbers [i][1];
    }
    s_kinds (values, count, memory, sizeof memory);
    fprintf (out, "%zu agents (results.json lists every one)\n  kernel  %s\n  cpus    %s\n"
                  "  memory  %s\n  clock offsets %+.3f .. %+.3f ms, round trips %.3f .. %.3f ms\n",
             count, kernels, cpus, memory, (double) offset_min / NS_PER_MSEC,
             (double) offset_max / NS_PER_MSEC, (double) rtt_min / NS_PER_MSEC,
             (double) rtt_max / NS_PER_MSEC);
    free (values);
    free (numbers);
    return true;
}

//  --------------------------------------------------------------------------
//  A test

//  Gather the hosts of a test from its streams (sorted by agent) and its
//  host figures (likewise), merged by name; the figures of those without
//  go to *own (for the caller to free). Returns the number of hosts
//  filled into hosts (room for stream_count), or 0 if memory ran out.
static size_t
s_gather_hosts (const test_result_t *test, s_host_t *hosts, host_result_t **own)
{
    const stream_result_t **streams = aggregate_streams_by_agent (test);
    const host_result_t **figures = calloc (test->host_count + 1, sizeof *figures);
    size_t count = 0, owned = 0;
    if (!streams || !figures)
        goto done;
    for (size_t h = 0; h < test->host_count; h++)
        figures [h] = &test->hosts [h];
    qsort (figures, test->host_count, sizeof *figures, s_compare_figures_agent);
    size_t next_figures = 0;
    for (size_t s = 0; s < test->stream_count; ) {
        s_host_t *host = &hosts [count++];
        host->agent = streams [s]->agent;
        host->bytes = 0;
        size_t first = s;
        for (; s < test->stream_count && strcmp (streams [s]->agent, host->agent) == 0; s++)
            host->bytes += streams [s]->bytes;
        while (next_figures < test->host_count
        &&     strcmp (figures [next_figures]->agent, host->agent) < 0)
            next_figures++;
        if (next_figures < test->host_count
        &&  strcmp (figures [next_figures]->agent, host->agent) == 0) {
            host->figures = figures [next_figures];
            continue;
        }
        if (!*own && !(*own = calloc (test->stream_count + 1, sizeof **own))) {
            count = 0;
            goto done;
        }
        aggregate_streams_figures (streams + first, s - first, &(*own) [owned]);
        host->figures = &(*own) [owned++];
    }
done:
    free (streams);
    free (figures);
    return count;
}

static const char *const s_slowest_header [] = {
    "slowest hosts", "streams", "failed", "MB", "MB/s", "slowest stream MB/s", "%sys", "%iowait"
};
#define SLOWEST_COLUMNS (sizeof (s_slowest_header) / sizeof (s_slowest_header [0]))

//  What the slowest hosts' table reads.
typedef struct {
    const s_host_t *hosts;          //  slowest first
    int units;                      //  of the run
} s_slowest_t;

//  A row of the slowest hosts' table.
static void
s_slowest_row (const void *data, size_t row, table_row_t *cells)
{
    const s_slowest_t *view = data;
    if (row == 0) {
        text_table_header (cells, s_slowest_header, SLOWEST_COLUMNS, view->units);
        return;
    }
    const s_host_t *host = &view->hosts [row - 1];
    const host_result_t *figures = host->figures;
    printable (host->agent, cells->cell [0], TABLE_CELL_MAX);
    snprintf (cells->cell [1], TABLE_CELL_MAX, "%" PRIu32, figures->streams);
    snprintf (cells->cell [2], TABLE_CELL_MAX, "%" PRIu32, figures->failed_streams);
    snprintf (cells->cell [3], TABLE_CELL_MAX, "%.1f", (double) host->bytes / 1e6);
    aggregate_format_rate (aggregate_in_units (figures->rate_mbps, view->units), cells->cell [4],
                           TABLE_CELL_MAX);
    aggregate_format_rate (aggregate_in_units (figures->slowest_stream_mbps, view->units),
                           cells->cell [5], TABLE_CELL_MAX);
    bool received = figures->received;
    text_format_pct (received? figures->sys_pct: NAN, cells->cell [6], TABLE_CELL_MAX);
    text_format_pct (received? figures->iowait_pct: NAN, cells->cell [7], TABLE_CELL_MAX);
}

bool
text_fleet_test (const test_result_t *test, int units, FILE *out)
{
    if (test->stream_count <= TEXT_FLEET_ROWS && test->host_count <= TEXT_FLEET_ROWS)
        return false;
    s_host_t *hosts = calloc (test->stream_count + 1, sizeof *hosts);
    double *rates = calloc (test->stream_count + 1, sizeof *rates);
    host_result_t *own = NULL;
    size_t count = hosts && rates? s_gather_hosts (test, hosts, &own): 0;
    if (count == 0) {
        fprintf (out, "  (results.json and report.csv list every stream and host)\n");
        goto done;
    }
    for (size_t h = 0; h < count; h++)
        rates [h] = hosts [h].figures->rate_mbps;
    aggregate_stats_t spread = aggregate_stats (rates, count);
    char low [32], middle [32], high [32];
    aggregate_format_rate (aggregate_in_units (spread.min, units), low, sizeof low);
    aggregate_format_rate (aggregate_in_units (spread.median, units), middle, sizeof middle);
    aggregate_format_rate (aggregate_in_units (spread.max, units), high, sizeof high);
    fprintf (out, "  hosts %s %s .. %s, median %s", aggregate_units_name (units), low, high,
             middle);
    if (spread.count < count)
        fprintf (out, ", %zu without a rate", count - spread.count);
    fputc ('\n', out);
    qsort (hosts, count, sizeof *hosts, s_compare_slowest);
    s_slowest_t view = { .hosts = hosts, .units = units };
    table_t table = {
        .columns = SLOWEST_COLUMNS, .rows = count < TEXT_SLOWEST_HOSTS? count: TEXT_SLOWEST_HOSTS,
        .fill = s_slowest_row, .data = &view, .indent = "  "
    };
    text_table_print (&table, out);
    fprintf (out, "  (the %zu slowest of %zu hosts; results.json and report.csv list every "
                  "stream and host)\n", table.rows, count);
done:
    free (hosts);
    free (rates);
    free (own);
    return true;
}
