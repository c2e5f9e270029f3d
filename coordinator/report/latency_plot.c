/*  coordinator/report/latency_plot.c: each test's latency by percentile,
    as HDR histograms are read; see html.h.

    x: the percentile on a logarithmic scale of 1 / (1 - p), 0 to 99.99
    (90, 99, 99.9 and 99.99 a decade apart); y: the latency in ms, also
    logarithmic. One thick line per class of streams (disk, network), from
    the histogram of all their requests merged bucket for bucket, and a
    thin dashed one per host of the highest p99 (at most S_HOSTS), beside
    the fleet.

    The SVG carries its scale (data-left-px, data-px-per-decade-x,
    data-y-origin-px: y of 1 ms, data-px-per-decade-y) and each polyline
    what it draws (data-kind "class" or "host", data-class or data-agent)
    and its p99 in ms (data-p99-ms), so that a program can read it back.
*/
#include "html.h"
#include "../numbers/latency.h"
#include "../../proto/histogram.h"
#include "../../proto/jobspec.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_WIDTH     960
#define S_HEIGHT    280
#define S_LEFT      64
#define S_RIGHT     24
#define S_TOP       14
#define S_BOTTOM    46
#define S_DECADES   4           //  the x axis ends at 99.99
#define S_STEPS     80          //  points per line, 20 a decade
#define S_HOSTS     3           //  hosts drawn beside the fleet
#define S_LINES     (2 + S_HOSTS)

//  One line: what it draws and its latency at each step, in ns.
typedef struct {
    const char *kind;           //  "class" or "host"
    const char *name;           //  "disk", "network", or the agent
    const char *colour;
    int64_t value_ns [S_STEPS + 1];
    int64_t p99_ns;
} s_line_t;

static const char *const s_host_colours [S_HOSTS] = { "#ff7f0e", "#d62728", "#8c564b" };

//  The percentile of step k: 100 (1 - 10^-x), x = k / S_STEPS * S_DECADES.
static double
s_percentile (int k)
{
    return 100 * (1 - pow (10, -(double) k * S_DECADES / S_STEPS));
}

//  Fill line from the requests of streams of job_class (-1: any) whose
//  agent is agent (NULL: any). Returns false if they measured none.
static bool
s_fill (const test_result_t *test, int job_class, const char *agent, const stream_result_t **streams,
        histogram_t *merged, histogram_t *scratch, s_line_t *line)
{
    size_t count = 0;
    for (size_t s = 0; s < test->stream_count; s++)
        if (!agent || !strcmp (test->streams [s].agent, agent))
            streams [count++] = &test->streams [s];
    char err [128];
    if (latency_merge (streams, count, job_class, LATENCY_REQUESTS, merged, scratch,
                       err, sizeof err)
    ||  histogram_count (merged) == 0)
        return false;
    for (int k = 0; k <= S_STEPS; k++)
        line->value_ns [k] = histogram_percentile (merged, s_percentile (k));
    line->p99_ns = histogram_percentile (merged, 99);
    return true;
}

//  The lines of a test: its classes, then its hosts of the highest p99.
static size_t
s_lines (const test_result_t *test, s_line_t *lines)
{
    const stream_result_t **streams = malloc ((test->stream_count + 1) * sizeof *streams);
    histogram_t *merged = histogram_new (), *scratch = histogram_new ();
    size_t count = 0;
    if (!streams || !merged || !scratch)
        goto done;
    static const struct { int job_class; const char *colour; } classes [] = {
        { CLASS_DISK, "#1f77b4" }, { CLASS_NETWORK, "#17becf" }
    };
    for (size_t c = 0; c < 2; c++) {
        lines [count] = (s_line_t) { .kind = "class", .colour = classes [c].colour,
                                     .name = jobspec_class_name (classes [c].job_class) };
        count += s_fill (test, classes [c].job_class, NULL, streams, merged, scratch,
                         &lines [count]);
    }
    size_t shown = 0, measured = 0;
    const host_result_t **hosts = test->summary.hosts < 2? NULL:
        latency_hosts_listed (test, 0, S_HOSTS, &shown, &measured);
    for (size_t h = 0; hosts && h < shown && h < S_HOSTS; h++) {
        lines [count] = (s_line_t) { .kind = "host", .name = hosts [h]->agent,
                                     .colour = s_host_colours [h] };
        count += s_fill (test, -1, hosts [h]->agent, streams, merged, scratch, &lines [count]);
    }
    free (hosts);
done:
    histogram_destroy (&merged);
    histogram_destroy (&scratch);
    free (streams);
    return count;
}

void
latency_percentiles_draw (const test_result_t *test, FILE *out)
{
    s_line_t lines [S_LINES];
    size_t count = s_lines (test, lines);
    if (count == 0)
        return;
    //  y: whole decades of ms around every value drawn.
    double low = INFINITY, high = -INFINITY;
    for (size_t l = 0; l < count; l++)
        for (int k = 0; k <= S_STEPS; k++) {
            double ms = fmax (lines [l].value_ns [k], 1) / 1e6;
            low = fmin (low, log10 (ms));
            high = fmax (high, log10 (ms));
        }
    low = floor (low);
    high = fmax (ceil (high), low + 1);
    double plot_w = S_WIDTH - S_LEFT - S_RIGHT, plot_h = S_HEIGHT - S_TOP - S_BOTTOM;
    double px_x = plot_w / S_DECADES, px_y = plot_h / (high - low);
    double y_1ms = S_HEIGHT - S_BOTTOM + low * px_y;
    fprintf (out, "<figure><svg class=\"percentiles\" viewBox=\"0 0 %d %d\" role=\"img\" "
                  "data-left-px=\"%d\" data-px-per-decade-x=\"%.3f\" data-y-origin-px=\"%.3f\" "
                  "data-px-per-decade-y=\"%.3f\" aria-label=\"latency by percentile\">\n",
             S_WIDTH, S_HEIGHT, S_LEFT, px_x, y_1ms, px_y);
    //  The grid: a decade of ms per line, and the percentiles a decade apart.
    for (double d = low; d <= high + 1e-9; d++) {
        double y = S_HEIGHT - S_BOTTOM - (d - low) * px_y;
        fprintf (out, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
                      "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                 S_LEFT, y, S_WIDTH - S_RIGHT, y, S_LEFT - 6, y + 4, pow (10, d));
    }
    static const struct { double x; const char *label; } ticks [] = {
        { 0, "0" }, { 0.30103, "50" }, { 1, "90" }, { 2, "99" }, { 3, "99.9" }, { 4, "99.99" }
    };
    for (size_t t = 0; t < sizeof ticks / sizeof ticks [0]; t++) {
        double x = S_LEFT + ticks [t].x * px_x;
        fprintf (out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
                      "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                 x, S_TOP, x, S_HEIGHT - S_BOTTOM, x, S_HEIGHT - S_BOTTOM + 16, ticks [t].label);
    }
    fprintf (out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">percentile (log scale of "
                  "1 / (1 - p))</text>\n<text transform=\"translate(14,%.1f) rotate(-90)\" "
                  "text-anchor=\"middle\">latency, ms</text>\n",
             S_LEFT + plot_w / 2, S_HEIGHT - 8, S_TOP + plot_h / 2);
    for (size_t l = 0; l < count; l++) {
        bool host = !strcmp (lines [l].kind, "host");
        fprintf (out, "<polyline class=\"series\" stroke=\"%s\" stroke-width=\"%s\"%s "
                      "data-kind=\"%s\" data-%s=\"", lines [l].colour, host? "1.4": "2.4",
                 host? " stroke-dasharray=\"5 3\"": "", lines [l].kind, host? "agent": "class");
        html_escaped (lines [l].name, out);
        fprintf (out, "\" data-p99-ms=\"%.6f\" points=\"", lines [l].p99_ns / 1e6);
        for (int k = 0; k <= S_STEPS; k++) {
            double ms = fmax (lines [l].value_ns [k], 1) / 1e6;
            fprintf (out, "%s%.1f,%.1f", k? " ": "", S_LEFT + (double) k * plot_w / S_STEPS,
                     y_1ms - log10 (ms) * px_y);
        }
        fputs ("\"/>\n", out);
    }
    fputs ("</svg>\n<div class=\"legend\">", out);
    for (size_t l = 0; l < count; l++) {
        bool host = !strcmp (lines [l].kind, "host");
        fprintf (out, "<span><svg width=\"24\" height=\"10\"><line x1=\"0\" y1=\"5\" x2=\"24\" "
                      "y2=\"5\" stroke=\"%s\" stroke-width=\"%s\"%s/></svg>%s", lines [l].colour,
                 host? "1.4": "2.4", host? " stroke-dasharray=\"5 3\"": "",
                 host? "host ": "all ");
        html_escaped (lines [l].name, out);
        fprintf (out, " (p99 %.3f ms)</span>", lines [l].p99_ns / 1e6);
    }
    fputs ("</div></figure>\n", out);
}
