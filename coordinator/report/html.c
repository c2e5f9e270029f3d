/*  coordinator/report/html.c: the HTML report (report.html); see report.h.

    One page that needs nothing but itself: inline CSS, inline SVG, no
    script, no font or image from anywhere, so that it opens the same from
    a results directory copied to a laptop, from a mail, or on paper.

    Above: the run, its agents and the tests table (the figures of the
    text report). Below: one timeline per test (timeline.c). Rates are in
    the run's units, as in the text report.
*/
#include "report.h"
#include "html.h"
#include "series.h"
#include "../numbers/latency.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"
#include "../../proto/printable.h"
#include "../../proto/version.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

//  --------------------------------------------------------------------------
//  Text

//  A table cell with escaped text.
static void
s_cell (const char *text, FILE *out)
{
    fputs ("<td>", out);
    html_escaped (text, out);
    fputs ("</td>", out);
}

//  A table cell with a rate (stored in MB/s) in units, right-aligned, and
//  a mark after it (or "").
static void
s_rate_cell (double rate_mbps, int units, const char *mark, FILE *out)
{
    char text [32];
    aggregate_format_rate (aggregate_in_units (rate_mbps, units), text, sizeof text);
    fprintf (out, "<td class=\"n\">%s%s</td>", text, mark);
}

//  A table cell with a share of CPU time, "-" when unknown.
static void
s_pct_cell (double pct, FILE *out)
{
    if (isfinite (pct))
        fprintf (out, "<td class=\"n\">%.1f</td>", pct);
    else
        fputs ("<td class=\"n\">-</td>", out);
}

//  A cell with a time in ms, or "-" when it means nothing.
static void
s_ms_cell (bool meaningful, int64_t time_ns, FILE *out)
{
    if (meaningful)
        fprintf (out, "<td class=\"n\">%.3f ms</td>", (double) time_ns / NS_PER_MSEC);
    else
        fputs ("<td class=\"n\">-</td>", out);
}


//  --------------------------------------------------------------------------
//  Page head and tables

static const char s_style [] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
    "color:#222;margin:1.5em auto;max-width:1100px;padding:0 1em}"
    "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.6em;"
    "border-bottom:1px solid #ccc}h3{font-size:1.05em;margin:1.2em 0 .3em}"
    ".meta{color:#555}"
    "table{border-collapse:collapse;margin:.4em 0}"
    "th,td{padding:.2em .7em;border-bottom:1px solid #e4e4e4;text-align:left;white-space:nowrap}"
    "th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".failed{color:#b00}"
    "figure{margin:.3em 0 1em}svg.timeline,svg.heatmap,svg.latency{width:100%;height:auto;"
    "display:block}"
    "svg text{font:12px system-ui,'DejaVu Sans',sans-serif;fill:#333}"
    ".grid{stroke:#e6e6e6}.axis{stroke:#555}.zero{stroke:#999;stroke-dasharray:3 3}"
    ".series{fill:none;stroke-linejoin:round}.stream{stroke-width:1.6}"
    ".host{stroke-width:5;stroke-opacity:.35}.clipped{fill:#b00}"
    "svg.bars{width:100%;height:auto;display:block}.bar.disk{fill:#1f77b4}"
    ".bar.network{fill:#9ecae1}.whisker{stroke:#222;stroke-width:1.2}"
    ".iteration{fill:#222}.iteration.first{fill:#fff;stroke:#222;stroke-width:1.2}"
    ".legend{display:flex;flex-wrap:wrap;gap:.2em 1.2em;font-size:.9em;margin:.3em 0}"
    ".legend svg{vertical-align:middle;margin-right:.3em}"
    ".pick{font-size:.9em;margin:.2em 0}.pick label{margin-right:.8em}"
    "section.test{break-inside:avoid;page-break-inside:avoid}"
    "@media print{body{max-width:none;margin:0}.pick{display:none}}";

//  The agents as the run met them.
static void
s_agents_table (const run_result_t *run, FILE *out)
{
    //  A fleet's table is folded, so that the tests come first on the page.
    bool fleet = run->agent_count > HTML_LINES_HOSTS_MAX;
    fputs ("<h2>Agents</h2>\n", out);
    if (fleet)
        fprintf (out, "<details><summary>%zu agents</summary>\n", run->agent_count);
    fputs ("<table><tr><th>agent</th><th>host</th><th>kernel</th>"
           "<th>cpus</th><th>memory</th><th>clock offset</th><th>rtt</th></tr>\n", out);
    for (size_t nbr = 0; nbr < run->agent_count; nbr++) {
        const agent_info_t *agent = &run->agents [nbr];
        fputs ("<tr>", out);
        s_cell (agent->name, out);
        s_cell (agent->hostname [0]? agent->hostname: "-", out);
        s_cell (agent->kernel [0]? agent->kernel: "-", out);
        fprintf (out, "<td class=\"n\">%" PRIu32 "</td><td class=\"n\">%.1f GiB</td>"
                      "<td class=\"n\">%+.3f ms</td><td class=\"n\">%.3f ms</td></tr>\n",
                 agent->cpus, (double) agent->mem_bytes / (1024.0 * 1024 * 1024),
                 (double) agent->clock_offset_ns / NS_PER_MSEC,
                 (double) agent->clock_rtt_ns / NS_PER_MSEC);
    }
    fputs (fleet? "</table>\n</details>\n": "</table>\n", out);
}

//  One row per test and iteration, the figures of the text report.
static void
s_tests_table (const run_result_t *run, FILE *out)
{
    const char *units = aggregate_units_name (run->units);
    fprintf (out, "<h2>Tests</h2>\n<table><tr><th>test</th><th>streams</th><th>per stream</th>"
                  "<th>combined %s</th><th>all-running %s</th><th>%%sys</th><th>%%iowait</th>"
                  "<th>host skew</th><th>stream skew</th><th>clock ±</th><th>failed</th></tr>\n",
             units, units);
    for (size_t nbr = 0; nbr < run->test_count; nbr++) {
        const test_result_t *test = &run->tests [nbr];
        const test_summary_t *summary = &test->summary;
        char label [TEST_ROW_NAME_MAX + 16];
        if (test->iteration > 1)
            snprintf (label, sizeof label, "%s #%" PRIu32, test->name, test->iteration);
        else
            snprintf (label, sizeof label, "%s", test->name);
        char per_stream [300];
        aggregate_per_stream (test, run->units, per_stream, sizeof per_stream);
        if (test->rate_ops && strcmp (per_stream, "-") != 0)
            strncat (per_stream, "/s", sizeof per_stream - strlen (per_stream) - 1);
        fputs ("<tr>", out);
        s_cell (label, out);
        fprintf (out, "<td class=\"n\">%" PRIu32 "</td>", summary->streams);
        s_cell (per_stream, out);
        //  A stream that did not finish cleanly: the figure is partial.
        const char *partial = summary->failed_streams && isfinite (summary->combined_mbps)?
                              " partial": "";
        if (test->rate_ops) {
            //  A test of operations (bonnie's seeks) counts them per second.
            char ops [64];
            aggregate_combined (test, run->units, ops, sizeof ops);
            fprintf (out, "<td class=\"n\">%s%s</td><td class=\"n\">-</td>", ops, partial);
        }
        else {
            //  A mixed test: MB/s, and its requests per second beside.
            char combined [128];
            aggregate_combined (test, run->units, combined, sizeof combined);
            fprintf (out, "<td class=\"n\">%s%s</td>", combined, partial);
            s_rate_cell (summary->all_running_mbps, run->units, "", out);
        }
        s_pct_cell (summary->sys_pct, out);
        s_pct_cell (summary->iowait_pct, out);
        s_ms_cell (summary->hosts > 1, summary->host_skew_ns, out);
        s_ms_cell (summary->streams > 1, summary->stream_skew_ns, out);
        s_ms_cell (summary->hosts > 1, summary->clock_uncertainty_ns, out);
        fprintf (out, "<td class=\"n%s\">%" PRIu32 "</td></tr>\n",
                 summary->failed_streams? " failed": "", summary->failed_streams);
    }
    fputs ("</table>\n", out);
    for (size_t test_nbr = 0; test_nbr < run->test_count; test_nbr++) {
        const test_result_t *test = &run->tests [test_nbr];
        //  A fleet's failures are listed up to a few, then counted.
        uint32_t failed = test->summary.failed_streams, listed = 0;
        for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
            const stream_result_t *stream = &test->streams [nbr];
            if (stream->finished && !stream->error)
                continue;
            if (failed > HTML_LINES_STREAMS_MAX && listed++ == HTML_LINES_HOSTS_MAX) {
                fprintf (out, "<p class=\"failed\">failed: test ");
                html_escaped (test->name, out);
                fprintf (out, " #%" PRIu32 ": %" PRIu32 " streams more (results.json lists "
                              "every one)</p>\n", test->iteration, failed - HTML_LINES_HOSTS_MAX);
                break;
            }
            fprintf (out, "<p class=\"failed\">failed: test ");
            html_escaped (test->name, out);
            fprintf (out, " #%" PRIu32 " agent ", test->iteration);
            html_escaped (stream->agent, out);
            fputs (" job ", out);
            html_escaped (stream->job, out);
            fprintf (out, " stream %" PRIu32 ": ", stream->index);
            html_escaped (stream->error? stream->error: "no result from the agent", out);
            if (stream->bytes_sampled)
                fprintf (out, " (last sample %" PRIu64 " bytes at %.3f s)", stream->bytes,
                         (double) stream->sampled_ns / NS_PER_SEC);
            fputs ("</p>\n", out);
        }
        for (size_t nbr = 0; nbr < test->warning_count; nbr++) {
            long folded = text_warning_fold (test, nbr);
            if (folded > 0) {
                fprintf (out, "<p class=\"failed\">warning: test ");
                html_escaped (test->name, out);
                fprintf (out, " #%" PRIu32 ": %s%ld more %s warnings like these</p>\n",
                         test->iteration, test->warning_count == TEST_WARNINGS_MAX? "at least ": "",
                         folded, test->warnings [nbr].kind);
            }
            if (folded)
                continue;
            fprintf (out, "<p class=\"failed\">warning: test ");
            html_escaped (test->name, out);
            fprintf (out, " #%" PRIu32 ": ", test->iteration);
            html_escaped (test->warnings [nbr].text, out);
            fputs ("</p>\n", out);
        }
    }
}


//  --------------------------------------------------------------------------
//  The page

//  One row of the latency table; the table's head before the first.
static void
s_latency_row (const test_result_t *test, const char *set_name, const latency_summary_t *l,
               bool *header, FILE *out)
{
    if (!*header)
        fputs ("<h2>Latency</h2>\n<p class=\"meta\">ms; every request of every host "
               "merged, bucket for bucket: no average of percentiles</p>\n<table><tr>"
               "<th>test</th><th>requests</th><th>count</th><th>min</th><th>mean</th>"
               "<th>p50</th><th>p95</th><th>p99</th><th>p99.9</th><th>max</th>"
               "</tr>\n", out);
    *header = true;
    char label [TEST_ROW_NAME_MAX + 16];
    snprintf (label, sizeof label, test->iteration > 1? "%s #%" PRIu32: "%s",
              test->name, test->iteration);
    fputs ("<tr>", out);
    s_cell (label, out);
    s_cell (set_name, out);
    fprintf (out, "<td class=\"n\">%" PRIu64 "</td>", l->count);
    const double figures [] = { l->min_ns, l->mean_ns, l->p50_ns, l->p95_ns,
                                l->p99_ns, l->p999_ns, l->max_ns };
    for (size_t f = 0; f < sizeof figures / sizeof figures [0]; f++)
        fprintf (out, "<td class=\"n\">%.3f</td>", figures [f] / 1e6);
    fputs ("</tr>\n", out);
}

//  The latency of the tests that measured it: a row per test and set of
//  requests, every host merged, and one per host of a test on several
//  (of a fleet, its slowest by p99: results.json has every host).
static void
s_latency_table (const run_result_t *run, FILE *out)
{
    bool header = false;
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        const test_summary_t *summary = &test->summary;
        for (int set = 0; set < LATENCY_SETS; set++) {
            //  Requests repeat reads or writes when only one of them ran.
            bool repeats = set == LATENCY_REQUESTS
                && (summary->latency [LATENCY_READ].count == 0
                    || summary->latency [LATENCY_WRITE].count == 0);
            if (summary->latency [set].count > 0 && !repeats)
                s_latency_row (test, latency_set_name (set), &summary->latency [set],
                               &header, out);
        }
        size_t shown, measured;
        const host_result_t **hosts = summary->hosts < 2? NULL:
            latency_hosts_listed (test, HTML_FLEET_HOSTS, HTML_SLOWEST_HOSTS, &shown, &measured);
        for (size_t h = 0; hosts && h < shown; h++) {
            char set_name [JOB_NAME_MAX + 2];
            snprintf (set_name, sizeof set_name, "@%s", hosts [h]->agent);
            s_latency_row (test, set_name, &hosts [h]->latency, &header, out);
        }
        if (hosts && shown < measured)
            fprintf (out, "<tr><td></td><td colspan=\"9\">%zu more hosts, by p99 below these "
                          "(every host in results.json)</td></tr>\n", measured - shown);
        free (hosts);
    }
    if (header)
        fputs ("</table>\n", out);
}

//  Print the HTML report of a run.
int
html_report (const run_result_t *run, FILE *out)
{
    assert (run);
    assert (out);
    char started [64] = "-";
    time_t seconds = (time_t) (run->started_wall_ns / NS_PER_SEC);
    struct tm utc;
    if (gmtime_r (&seconds, &utc))
        strftime (started, sizeof started, "%Y-%m-%d %H:%M:%S UTC", &utc);

    const html_page_t page = {
        .title = "iofleet: ", .title_text = run->scenario_path [0]? run->scenario_path: "run",
        .css = s_style, .viewport = true
    };
    html_page_begin (&page, out);
    fputs ("<h1>iofleet report</h1>\n<p class=\"meta\">scenario ", out);
    html_escaped (run->scenario_path [0]? run->scenario_path: "-", out);
    fprintf (out, " &middot; started %s &middot; iofleet %s<br>rates in %s; a stream's window "
                  "ends after its fsync when fsync is on</p>\n", started, IOFLEET_VERSION,
             run->units == UNITS_MIB? "MiB/s (2<sup>20</sup> bytes/s)"
                                    : "MB/s (10<sup>6</sup> bytes/s)");
    s_agents_table (run, out);
    if (run->test_count == 0) {
        fputs ("<p>no test ran</p>\n</body>\n</html>\n", out);
        return ferror (out)? -1: 0;
    }
    barchart_draw (run, out);
    s_tests_table (run, out);
    s_latency_table (run, out);
    latency_timeline_html (run, out);
    fprintf (out, "<h2>Timelines</h2>\n<p class=\"meta\">%s (requests/s or seeks/s for a "
                  "test counted in requests, its bytes divided by its block size) of each "
                  "sample interval, per "
                  "stream (thin lines) and per host running several streams (thick pale lines); "
                  "a stream with fewer than two intervals, as a bar of its rate over its whole "
                  "window; iterations of a test share its chart, one dash pattern each. A test "
                  "of more than %d hosts or %d streams is a heat map instead: a row per host "
                  "(or stream), a column per interval, darker for faster. The axis is set by "
                  "whole intervals: a short one above it is drawn at its top, marked in red. "
                  "A test with fewer than %d intervals has no chart of its own: its bar above "
                  "says what it did.</p>\n",
             aggregate_units_name (run->units), HTML_LINES_HOSTS_MAX, HTML_LINES_STREAMS_MAX,
             HTML_CHART_INTERVALS_MIN);
    //  The iterations of a row share its chart. They need not be next to
    //  each other (the phases of a test alternate with its iterations),
    //  so each chart gets a shallow copy of its rows, in run order.
    test_result_t *rows = (test_result_t *) malloc (run->test_count * sizeof (test_result_t));
    if (!rows)
        return -1;
    size_t section = 0;
    for (size_t first = 0; first < run->test_count; first++) {
        bool charted = false;
        for (size_t before = 0; before < first && !charted; before++)
            charted = !strcmp (run->tests [before].name, run->tests [first].name);
        if (charted)
            continue;
        size_t count = 0;
        for (size_t t = first; t < run->test_count; t++)
            if (!strcmp (run->tests [t].name, run->tests [first].name))
                rows [count++] = run->tests [t];
        if (series_interval_count (rows, count) < HTML_CHART_INTERVALS_MIN)
            continue;
        if (heatmap_chosen (rows, count))
            heatmap_draw (section++, rows, count, run->units, out);
        else
            timeline_draw (section++, rows, count, run->units, out);
    }
    free (rows);
    fputs ("</body>\n</html>\n", out);
    return ferror (out)? -1: 0;
}
