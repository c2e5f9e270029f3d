/*  coordinator/report/html.c: the HTML report (report.html); see report.h.

    One page that needs nothing but itself: inline CSS, inline SVG, no
    script, no font or image from anywhere, so that it opens the same from
    a results directory copied to a laptop, from a mail, or on paper.

    Above: the run, its agents, the bar chart and every table and line of
    the text report, printed from the text's own models (text.h,
    html_text.c). Below: the latency, one timeline per test (timeline.c),
    then each test in detail as the text has it. Rates are in the run's
    units, as in the text report.
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
    "figure{margin:.3em 0 1em}svg.timeline,svg.heatmap,svg.latency,svg.percentiles{width:100%;height:auto;"
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
    "pre.lines{font:12px/1.35 ui-monospace,'DejaVu Sans Mono',monospace;background:#fafafa;"
    "border:1px solid #eee;padding:.4em .6em;overflow-x:auto}pre.failed{color:#b00}"
    "pre.wrap{white-space:pre-wrap}"
    "details>summary{cursor:pointer;color:#555;margin:.3em 0}"
    "section.test{break-inside:avoid;page-break-inside:avoid}"
    "@media print{body{max-width:none;margin:0}.pick{display:none}}";

//  The agents as the run met them: a fleet's in a few lines as the text
//  has them, then folded, every one.
static void
s_agents_table (const run_result_t *run, FILE *out)
{
    fputs ("<h2>Agents</h2>\n", out);
    html_capture_t capture;
    FILE *mem = html_capture_begin (&capture);
    if (mem)
        text_fleet_agents (run, mem);
    html_capture_end (&capture, NULL, "lines", out);
    table_t table;
    text_table_agents (run, &table);
    html_table_print (&table, "agents", out);
}

//  One row per test and iteration, the text's table.
static void
s_tests_table (const run_result_t *run, FILE *out)
{
    fputs ("<h2>Tests</h2>\n", out);
    table_t table;
    text_table_tests (run, &table);
    html_table_print (&table, NULL, out);
}


//  --------------------------------------------------------------------------
//  The page

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
    html_text_sections (run, out);
    html_rows_table ("Latency", &latency_head, latency_rows, run, out);
    html_rows_table ("Tail of requests", &tail_head, tail_rows, run, out);
    latency_timeline_html (run, out);
    fprintf (out, "<h2>Timelines</h2>\n<p class=\"meta\">%s (requests/s for a test "
                  "counted in requests, randrw's reads and writes or bonnie's seeks, its bytes "
                  "divided by its block size) of each sample interval, per "
                  "stream (thin lines) and per host running several streams (thick pale lines); "
                  "a series (a stream, a host's total, a monitor) of fewer than %d intervals has "
                  "no line; iterations of a test "
                  "share its chart, one dash pattern each. A test "
                  "of more than %d hosts or %d streams is a heat map instead: a row per host "
                  "(or stream), a column per interval, darker for faster. The axis is set by "
                  "whole intervals: a short one above it is drawn at its top, marked in red. "
                  "A test with fewer than %d intervals has no chart of its own: its bar above "
                  "says what it did.</p>\n",
             aggregate_units_name (run->units), HTML_CHART_INTERVALS_MIN, HTML_LINES_HOSTS_MAX,
             HTML_LINES_STREAMS_MAX, HTML_CHART_INTERVALS_MIN);
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
    html_test_details (run, out);
    fputs ("</body>\n</html>\n", out);
    return ferror (out)? -1: 0;
}
