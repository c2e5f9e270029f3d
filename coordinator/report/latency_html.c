/*  coordinator/report/latency_html.c: the page's latency over time; see
    html.h. (The tail attribution is the text's table: tail_text.c.)

    One chart per test (and iteration) whose agents sent intervals: the
    fleet's p50, p99 and p99.9 of every interval (thick lines), and the
    p99 of the hosts first in the tail attribution (thin dashed lines),
    on a logarithmic axis of milliseconds, against seconds since the
    announced start; a point sits at the middle of its interval.

    Each SVG carries its scale (data-x-origin-px, data-px-per-s,
    data-y-origin-px: y of 1 ms, data-px-per-decade) and each polyline
    says what it draws (data-kind "fleet" or "host", data-percentile,
    data-agent), so that a program can read the figures back.
*/
#include "html.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define S_WIDTH     960
#define S_HEIGHT    300
#define S_LEFT      64
#define S_RIGHT     16
#define S_TOP       14
#define S_BOTTOM    46
#define S_HOSTS     3           //  hosts drawn beside the fleet

//  The fleet's lines: percentile, colour, and its field of a summary.
typedef struct {
    const char *name;           //  "p99"
    const char *colour;
    size_t offset;              //  of its int64_t in latency_summary_t
} s_line_t;

static const s_line_t s_lines [] = {
    { "p50", "#2ca02c", offsetof (latency_summary_t, p50_ns) },
    { "p99", "#d62728", offsetof (latency_summary_t, p99_ns) },
    { "p99.9", "#9467bd", offsetof (latency_summary_t, p999_ns) },
};
#define S_LINES (sizeof s_lines / sizeof s_lines [0])

static const char *const s_host_colours [S_HOSTS] = { "#ff7f0e", "#1f77b4", "#8c564b" };

//  The scale of one chart.
typedef struct {
    double x_origin_px;         //  x of t = 0
    double px_per_s;
    double decade_low;          //  log10 of the lowest ms on the axis
    double decades;             //  decades the axis spans
    double px_per_decade;
} s_scale_t;

static double
s_x (const s_scale_t *scale, double t_s)
{
    return scale->x_origin_px + t_s * scale->px_per_s;
}

static double
s_y (const s_scale_t *scale, int64_t value_ns)
{
    double ms = value_ns > 0? value_ns / 1e6: 1e-6;
    return S_HEIGHT - S_BOTTOM - (log10 (ms) - scale->decade_low) * scale->px_per_decade;
}

//  The hosts of the test drawn beside the fleet: first in the tail
//  attribution with points enough for a line, at most S_HOSTS.
static size_t
s_hosts_drawn (const test_result_t *test, const timeline_host_t *drawn [S_HOSTS])
{
    size_t count = 0;
    for (size_t t = 0; t < test->tail.host_count && count < S_HOSTS; t++)
        for (size_t h = 0; h < test->timeline.host_count; h++)
            if (!strcmp (test->timeline.hosts [h].agent, test->tail.hosts [t].agent)
            &&  test->timeline.hosts [h].point_count >= HTML_CHART_INTERVALS_MIN) {
                drawn [count++] = &test->timeline.hosts [h];
                break;
            }
    return count;
}

//  The axes: ms on a log scale with a tick per decade, seconds below.
static void
s_axes (const s_scale_t *scale, double t_max_s, FILE *out)
{
    static const char *const labels [] = { "0.001", "0.01", "0.1", "1", "10", "100", "1000",
                                           "10000", "100000" };
    for (int d = 0; d <= (int) scale->decades; d++) {
        int decade = (int) scale->decade_low + d;
        double y = S_HEIGHT - S_BOTTOM - d * scale->px_per_decade;
        fprintf (out, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
                      "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                 S_LEFT, S_WIDTH - S_RIGHT, y, y, S_LEFT - 6, y + 4,
                 decade >= -3 && decade <= 5? labels [decade + 3]: "?");
    }
    double step = html_tick_step (t_max_s, 8);
    for (double t = 0; t <= t_max_s + step / 1e6; t += step)
        fprintf (out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
                 s_x (scale, t), S_HEIGHT - S_BOTTOM + 16, t);
    fprintf (out, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>"
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">seconds since the start; "
                  "latency in ms (log)</text>\n", S_LEFT, S_WIDTH - S_RIGHT,
             S_HEIGHT - S_BOTTOM, S_HEIGHT - S_BOTTOM, (S_LEFT + S_WIDTH) / 2, S_HEIGHT - 8);
}

//  The decades the values of the chart need: from the fleet's lowest p50
//  to its highest p99.9 and the hosts' p99.
static void
s_range (const test_result_t *test, const timeline_host_t *const *hosts, size_t host_count,
         double *low, double *high)
{
    int64_t min_ns = INT64_MAX, max_ns = 1;
    for (size_t k = 0; k < test->timeline.interval_count; k++) {
        const latency_summary_t *l = &test->timeline.intervals [k].latency;
        if (l->p50_ns > 0 && l->p50_ns < min_ns)
            min_ns = l->p50_ns;
        if (l->p999_ns > max_ns)
            max_ns = l->p999_ns;
    }
    for (size_t h = 0; h < host_count; h++)
        for (size_t p = 0; p < hosts [h]->point_count; p++)
            if (hosts [h]->points [p].p99_ns > max_ns)
                max_ns = hosts [h]->points [p].p99_ns;
    if (min_ns == INT64_MAX || min_ns > max_ns)
        min_ns = max_ns;
    *low = floor (log10 (min_ns / 1e6));
    *high = ceil (log10 (max_ns / 1e6));
    if (*low < -3)
        *low = -3;
    if (*high > 5)
        *high = 5;
    if (*high <= *low)
        *high = *low + 1;
}

//  One test's chart and its legend.
static void
s_chart (const test_result_t *test, FILE *out)
{
    const latency_timeline_t *timeline = &test->timeline;
    const timeline_host_t *hosts [S_HOSTS];
    size_t host_count = s_hosts_drawn (test, hosts);
    double interval_s = timeline->interval_ns / 1e9;
    double t_max_s = (timeline->intervals [timeline->interval_count - 1].index + 1) * interval_s;
    s_scale_t scale = { .x_origin_px = S_LEFT,
                        .px_per_s = (S_WIDTH - S_LEFT - S_RIGHT) / (t_max_s > 0? t_max_s: 1) };
    double high;
    s_range (test, hosts, host_count, &scale.decade_low, &high);
    scale.decades = high - scale.decade_low;
    scale.px_per_decade = (S_HEIGHT - S_TOP - S_BOTTOM) / scale.decades;
    fprintf (out, "<figure><svg class=\"latency\" viewBox=\"0 0 %d %d\" "
                  "data-x-origin-px=\"%.3f\" data-px-per-s=\"%.6f\" data-y-origin-px=\"%.3f\" "
                  "data-px-per-decade=\"%.6f\" role=\"img\">\n", S_WIDTH, S_HEIGHT,
             scale.x_origin_px, scale.px_per_s, s_y (&scale, 1000000), scale.px_per_decade);
    s_axes (&scale, t_max_s, out);
    for (size_t line = 0; line < S_LINES; line++) {
        fprintf (out, "<polyline class=\"series\" data-kind=\"fleet\" data-percentile=\"%s\" "
                      "stroke=\"%s\" stroke-width=\"2.2\" points=\"", s_lines [line].name,
                 s_lines [line].colour);
        for (size_t k = 0; k < timeline->interval_count; k++) {
            const timeline_interval_t *interval = &timeline->intervals [k];
            fprintf (out, "%s%.1f,%.1f", k? " ": "",
                     s_x (&scale, (interval->index + .5) * interval_s),
                     s_y (&scale, *(const int64_t *) ((const char *) &interval->latency
                                                      + s_lines [line].offset)));
        }
        fputs ("\"/>\n", out);
    }
    for (size_t h = 0; h < host_count; h++) {
        fputs ("<polyline class=\"series\" data-kind=\"host\" data-percentile=\"p99\" "
               "data-agent=\"", out);
        html_escaped (hosts [h]->agent, out);
        fprintf (out, "\" stroke=\"%s\" stroke-width=\"1.3\" stroke-dasharray=\"5 3\" points=\"",
                 s_host_colours [h]);
        for (size_t p = 0; p < hosts [h]->point_count; p++)
            fprintf (out, "%s%.1f,%.1f", p? " ": "",
                     s_x (&scale, (hosts [h]->points [p].index + .5) * interval_s),
                     s_y (&scale, hosts [h]->points [p].p99_ns));
        fputs ("\"/>\n", out);
    }
    fputs ("</svg>\n<figcaption class=\"legend\">", out);
    for (size_t line = 0; line < S_LINES; line++)
        fprintf (out, "<span><svg width=\"22\" height=\"8\"><line x1=\"0\" x2=\"22\" y1=\"4\" "
                      "y2=\"4\" stroke=\"%s\" stroke-width=\"3\"/></svg>fleet %s</span>",
                 s_lines [line].colour, s_lines [line].name);
    for (size_t h = 0; h < host_count; h++) {
        fprintf (out, "<span><svg width=\"22\" height=\"8\"><line x1=\"0\" x2=\"22\" y1=\"4\" "
                      "y2=\"4\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>"
                      "</svg>p99 of ", s_host_colours [h]);
        html_escaped (hosts [h]->agent, out);
        fputs ("</span>", out);
    }
    fputs ("</figcaption></figure>\n", out);
}

void
latency_timeline_html (const run_result_t *run, FILE *out)
{
    bool header = false;
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        //  A line needs points: a test of fewer intervals has its
        //  percentile plot and its tables only.
        bool chart = test->timeline.interval_count >= HTML_CHART_INTERVALS_MIN
                  && test->timeline.interval_ns > 0;
        if (!chart)
            continue;
        if (!header)
            fputs ("<h2>Latency over time</h2>\n<p class=\"meta\">every interval's requests "
                   "(reads and writes) of every host merged, bucket for bucket: the fleet's "
                   "p50, p99 and p99.9, and the p99 of the hosts first in the tail of "
                   "requests above (a host whose share of a tail is more than 3 times its "
                   "share of the requests is marked as the cause)</p>\n", out);
        header = true;
        fputs ("<h3>", out);
        html_escaped (test->name, out);
        if (test->iteration > 1)
            fprintf (out, " #%" PRIu32, test->iteration);
        fputs ("</h3>\n", out);
        s_chart (test, out);
    }
}
