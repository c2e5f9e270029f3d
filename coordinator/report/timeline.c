/*  coordinator/report/timeline.c: the charts of the HTML report, one per
    test, as inline SVG; see html.h.

    Every iteration of a test is on its chart. A series is a polyline of
    the rate per sample interval: (bytes of a sample - bytes of the one
    before) / (time between them), drawn at the end of the interval.
    Streams are thin lines coloured per stream; a host that runs several
    streams also gets a thick pale line for its total, computed on a
    regular grid from the streams' progress interpolated between their
    samples (series.c computes the figures). A series of fewer than
    HTML_CHART_INTERVALS_MIN points is no line: a few points joined say
    nothing of how a rate went, and the bar chart has the stream's test,
    so it is left off and its legend says so. Iterations differ by dash
    pattern and can be shown one at a time with radio buttons that work
    by CSS alone. The time axis is seconds since the announced start: 0
    is the instant every agent was told to begin.

    Each SVG carries its scale (data-x-origin-px, data-px-per-s,
    data-y-origin-px, data-px-per-mbps: always MB/s, whatever the units
    of the labels, which data-units names; a chart of requests, in
    requests/s, also data-bytes-per-request: the block size its bytes are
    divided by) and each polyline says what it draws (data-kind,
    data-test, data-iteration, data-agent, data-job, data-stream), so that
    a program can read the figures back from the points.
*/
#include "html.h"
#include "series.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

//  The chart's geometry in SVG units; it scales to the page's width.
#define CHART_WIDTH         960
#define CHART_HEIGHT        340
#define CHART_LEFT          64      //  room for the rate labels
#define CHART_RIGHT         44      //  room for the %sys labels of a monitor
#define CHART_TOP           14
#define CHART_BOTTOM        46      //  room for the time labels
#define CHART_TICKS         6       //  about this many ticks on an axis

//  Colours that stay apart on screen and on a grey printer.
static const char *const s_colours [] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
    "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"
};
#define COLOURS (sizeof s_colours / sizeof s_colours [0])

//  Dash patterns of iterations 1, 2, 3, ...: solid first.
static const char *const s_dashes [] = { "", "7 3", "2 3", "10 3 2 3", "4 4" };
#define DASHES (sizeof s_dashes / sizeof s_dashes [0])

//  The scale of one chart: data to SVG units.
typedef struct {
    double t_min_s;                 //  left end of the time axis
    double t_max_s;                 //  right end
    double per_mbps;                //  the labels' units per MB/s; the scale itself is MB/s
    const char *units_name;         //  the labels' units: MB/s, MiB/s or requests/s
    uint64_t request_bytes;         //  a chart of requests: the bytes of each, else 0
    double rate_max_mbps;           //  top of the rate axis
    double rate_step;               //  between two ticks of it, in units
    double x_origin_px;             //  x of t = 0
    double px_per_s;                //  x units per second
    double y_origin_px;             //  y of 0 MB/s
    double px_per_mbps;             //  y units per MB/s (y grows downwards)
} scale_t;

//  --------------------------------------------------------------------------
//  Charts

//  x of a time, y of a rate.
static double
s_x (const scale_t *scale, int64_t t_ns)
{
    return scale->x_origin_px + (double) t_ns / NS_PER_SEC * scale->px_per_s;
}

static double
s_y (const scale_t *scale, double rate_mbps)
{
    return scale->y_origin_px - rate_mbps * scale->px_per_mbps;
}

//  y of a rate on a line: a rate above the axis is drawn at its top.
static double
s_y_clipped (const scale_t *scale, double rate_mbps)
{
    return s_y (scale, rate_mbps > scale->rate_max_mbps? scale->rate_max_mbps: rate_mbps);
}

//  The mark of a point drawn at the top of the axis in place of its
//  rate, which its title and data-rate-mbps give.
static void
s_clipped_mark (const scale_t *scale, int64_t t_ns, double rate_mbps, const char *what, FILE *out)
{
    char rate [32];
    aggregate_format_rate (rate_mbps * scale->per_mbps, rate, sizeof rate);
    fprintf (out, "<path class=\"clipped\" d=\"M%.1f,%.1f l-4,7 h8 z\" data-rate-mbps=\"%.6f\">"
                  "<title>", s_x (scale, t_ns), s_y (scale, scale->rate_max_mbps), rate_mbps);
    html_escaped (what, out);
    fprintf (out, ": %s %s over a short interval, above the axis</title></path>\n", rate,
             scale->units_name);
}

//  The units of a chart: a test counted in requests (randrw's reads and
//  writes, bonnie's seeks: a read each) whose streams all move one block
//  size a request is drawn in requests/s, its bytes per interval divided
//  by that size, as the tests table counts them (N/s); any other in the
//  run's units.
static void
s_units (const test_result_t *tests, size_t count, int units, scale_t *scale)
{
    uint64_t bs = 0;
    bool one_size = tests [0].rate_ops;
    for (size_t t = 0; t < count && one_size; t++)
        for (size_t nbr = 0; nbr < tests [t].stream_count && one_size; nbr++) {
            uint64_t stream_bs = tests [t].streams [nbr].bs_bytes;
            one_size = stream_bs > 0 && (bs == 0 || stream_bs == bs);
            bs = stream_bs;
        }
    scale->request_bytes = one_size? bs: 0;
    scale->per_mbps = one_size? 1e6 / (double) bs: aggregate_in_units (1, units);
    scale->units_name = one_size? "requests/s": aggregate_units_name (units);
}

//  Whether a stream's series is drawn: it has points enough for a line.
static bool
s_stream_drawn (const stream_result_t *stream)
{
    return series_stream_points (stream) >= HTML_CHART_INTERVALS_MIN;
}

//  The points of the total of a host of the test, its grid in from_ns,
//  to_ns and step_ns; 0 for a host of one stream or of too few samples.
//  Drawn from HTML_CHART_INTERVALS_MIN points.
static size_t
s_host_points (const test_result_t *test, const char *agent,
               int64_t *from_ns, int64_t *to_ns, int64_t *step_ns)
{
    if (!series_host_has_several (test, agent)
    ||  !series_host_grid (test, agent, from_ns, to_ns, step_ns))
        return 0;
    return (size_t) ((*to_ns - *from_ns) / *step_ns);
}

//  The scale of the chart of the count iterations at tests: every sample
//  and every stream's end fits, and t = 0 is always on it. The rate axis
//  is set by the whole intervals (series_interval_full) of the lines
//  drawn: a short first or last interval's spike is drawn at the top,
//  clipped and marked, and does not flatten every other line.
static scale_t
s_scale (const test_result_t *tests, size_t count, int units)
{
    scale_t scale;
    s_units (tests, count, units, &scale);
    int64_t t_min_ns = 0, t_max_ns = 0;
    double rate_max_mbps = 0;
    for (size_t test_nbr = 0; test_nbr < count; test_nbr++) {
        const test_result_t *test = &tests [test_nbr];
        for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
            const stream_result_t *stream = &test->streams [nbr];
            if (stream->finished && stream->end_ns > t_max_ns)
                t_max_ns = stream->end_ns;
            bool drawn = s_stream_drawn (stream);
            for (size_t k = 0; k < stream->sample_count; k++) {
                int64_t t_ns = stream->samples [k].t_ns;
                t_min_ns = t_ns < t_min_ns? t_ns: t_min_ns;
                t_max_ns = t_ns > t_max_ns? t_ns: t_max_ns;
                double rate_mbps = !drawn || !series_interval_full (stream, k)?
                                   NAN: series_interval_mbps (stream, k);
                if (isfinite (rate_mbps) && rate_mbps > rate_max_mbps)
                    rate_max_mbps = rate_mbps;
            }
        }
        //  A monitored host's disks may write faster than any stream (a
        //  chart of requests does not draw them).
        for (size_t m = 0; m < test->monitor_count && !scale.request_bytes; m++)
            for (size_t k = 1; k < test->monitors [m].point_count; k++) {
                if (series_monitor_points (&test->monitors [m], false) < HTML_CHART_INTERVALS_MIN
                ||  !series_monitor_full (&test->monitors [m], k))
                    continue;
                double rate_mbps = series_monitor_mbps (&test->monitors [m], k);
                if (isfinite (rate_mbps) && rate_mbps > rate_max_mbps)
                    rate_max_mbps = rate_mbps;
            }
        //  Host totals can be above any stream's rate.
        for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
            const char *agent = test->streams [nbr].agent;
            int64_t from_ns, to_ns, step_ns;
            if (!series_first_of_host (test, nbr)
            ||  s_host_points (test, agent, &from_ns, &to_ns, &step_ns) < HTML_CHART_INTERVALS_MIN)
                continue;
            double before = series_host_bytes_at (test, agent, from_ns);
            for (int64_t t_ns = from_ns + step_ns; t_ns <= to_ns; t_ns += step_ns) {
                double now = series_host_bytes_at (test, agent, t_ns);
                double rate_mbps = (now - before) * 1e3 / (double) step_ns;
                if (rate_mbps > rate_max_mbps)
                    rate_max_mbps = rate_mbps;
                before = now;
            }
        }
    }
    scale.t_min_s = (double) t_min_ns / NS_PER_SEC;
    scale.t_max_s = (double) t_max_ns / NS_PER_SEC;
    if (scale.t_max_s - scale.t_min_s < 1e-3)
        scale.t_max_s = scale.t_min_s + 1;
    //  The top of the axis and its ticks are round in the units shown.
    double top = rate_max_mbps > 0? rate_max_mbps * scale.per_mbps * 1.05: 1;
    scale.rate_step = html_tick_step (top, CHART_TICKS);
    scale.rate_max_mbps = ceil (top / scale.rate_step) * scale.rate_step / scale.per_mbps;
    double plot_width = CHART_WIDTH - CHART_LEFT - CHART_RIGHT;
    double plot_height = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM;
    scale.px_per_s = plot_width / (scale.t_max_s - scale.t_min_s);
    scale.x_origin_px = CHART_LEFT - scale.t_min_s * scale.px_per_s;
    scale.px_per_mbps = plot_height / scale.rate_max_mbps;
    scale.y_origin_px = CHART_TOP + plot_height;
    return scale;
}

//  A number for an axis label, with no more decimals than the step needs.
static void
s_tick_label (double value, double step, char *buf, size_t buflen)
{
    int decimals = step >= 1? 0: (int) ceil (-log10 (step) - 1e-9);
    snprintf (buf, buflen, "%.*f", decimals, fabs (value) < step / 1e6? 0.0: value);
}

//  Grid, axes, ticks and their labels.
static void
s_axes (const scale_t *scale, FILE *out)
{
    double left = CHART_LEFT, right = CHART_WIDTH - CHART_RIGHT;
    double top = CHART_TOP, bottom = scale->y_origin_px;
    char label [32];
    double per_mbps = scale->per_mbps;
    double top_rate = scale->rate_max_mbps * per_mbps;
    for (double rate = 0; rate <= top_rate * (1 + 1e-9); rate += scale->rate_step) {
        double y = s_y (scale, rate / per_mbps);
        s_tick_label (rate, scale->rate_step, label, sizeof label);
        fprintf (out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                 left, right, y, y, left - 6, y + 4, label);
    }
    double time_step = html_tick_step (scale->t_max_s - scale->t_min_s, CHART_TICKS);
    for (double t = ceil (scale->t_min_s / time_step) * time_step;
         t <= scale->t_max_s * (1 + 1e-9) + 1e-12; t += time_step) {
        double x = scale->x_origin_px + t * scale->px_per_s;
        s_tick_label (t, time_step, label, sizeof label);
        fprintf (out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                 x, x, top, bottom, x, bottom + 16, label);
    }
    fprintf (out, "<line class=\"zero\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
             scale->x_origin_px, scale->x_origin_px, top, bottom);
    fprintf (out, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                  "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
             left, right, bottom, bottom, left, left, top, bottom);
    fprintf (out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">seconds since the "
                  "announced start (0 = every agent told to begin)</text>\n",
             (left + right) / 2, CHART_HEIGHT - 6);
    fprintf (out, "<text transform=\"translate(14 %.1f) rotate(-90)\" text-anchor=\"middle\">"
                  "%s per interval</text>\n", (top + bottom) / 2,
             scale->units_name);
}

//  The attributes every series of a test iteration carries.
static void
s_series_attributes (const test_result_t *test, const char *kind, FILE *out)
{
    fprintf (out, " data-kind=\"%s\" data-test=\"", kind);
    html_escaped (test->name, out);
    fprintf (out, "\" data-iteration=\"%" PRIu32 "\"", test->iteration);
}

//  The dash pattern of an iteration, as an attribute (or nothing).
static void
s_dash (uint32_t iteration, FILE *out)
{
    const char *dash = s_dashes [(iteration - 1) % DASHES];
    if (dash [0])
        fprintf (out, " stroke-dasharray=\"%s\"", dash);
}

//  One stream's series: its rate per interval, when it has points enough
//  for a line. Returns whether it drew it.
static bool
s_stream_series (const scale_t *scale, const test_result_t *test, size_t nbr, FILE *out)
{
    const stream_result_t *stream = &test->streams [nbr];
    if (!s_stream_drawn (stream))
        return false;
    fprintf (out, "<polyline class=\"series stream\" stroke=\"%s\"", s_colours [nbr % COLOURS]);
    s_dash (test->iteration, out);
    s_series_attributes (test, "stream", out);
    fputs (" data-agent=\"", out);
    html_escaped (stream->agent, out);
    fputs ("\" data-job=\"", out);
    html_escaped (stream->job, out);
    fprintf (out, "\" data-stream=\"%" PRIu32 "\" points=\"", stream->index);
    bool first = true;
    for (size_t k = 0; k < stream->sample_count; k++) {
        double rate_mbps = series_interval_mbps (stream, k);
        if (!isfinite (rate_mbps))
            continue;
        fprintf (out, "%s%.1f,%.1f", first? "": " ", s_x (scale, stream->samples [k].t_ns),
                 s_y_clipped (scale, rate_mbps));
        first = false;
    }
    fputs ("\"><title>", out);
    html_escaped (stream->agent, out);
    fputs (" ", out);
    html_escaped (stream->job, out);
    fprintf (out, " stream %" PRIu32 " #%" PRIu32 "</title></polyline>\n", stream->index,
             test->iteration);
    for (size_t k = 0; k < stream->sample_count; k++) {
        double rate_mbps = series_interval_mbps (stream, k);
        if (isfinite (rate_mbps) && rate_mbps > scale->rate_max_mbps) {
            char what [2 * JOB_NAME_MAX + 32];
            snprintf (what, sizeof what, "%s %s stream %" PRIu32, stream->agent, stream->job,
                      stream->index);
            s_clipped_mark (scale, stream->samples [k].t_ns, rate_mbps, what, out);
        }
    }
    return true;
}

//  One host's total series, for a host with several streams.
static void
s_host_series (const scale_t *scale, const test_result_t *test, const char *agent,
               size_t host_nbr, FILE *out)
{
    int64_t from_ns, to_ns, step_ns;
    if (s_host_points (test, agent, &from_ns, &to_ns, &step_ns) < HTML_CHART_INTERVALS_MIN)
        return;
    fprintf (out, "<polyline class=\"series host\" stroke=\"%s\"",
             s_colours [(COLOURS - 1 - host_nbr % COLOURS)]);
    s_dash (test->iteration, out);
    s_series_attributes (test, "host", out);
    fputs (" data-agent=\"", out);
    html_escaped (agent, out);
    fputs ("\" points=\"", out);
    double before = series_host_bytes_at (test, agent, from_ns);
    for (int64_t t_ns = from_ns + step_ns; t_ns <= to_ns; t_ns += step_ns) {
        double now = series_host_bytes_at (test, agent, t_ns);
        fprintf (out, "%s%.1f,%.1f", t_ns == from_ns + step_ns? "": " ", s_x (scale, t_ns),
                 s_y_clipped (scale, (now - before) * 1e3 / (double) step_ns));
        before = now;
    }
    fputs ("\"><title>", out);
    html_escaped (agent, out);
    fprintf (out, " total #%" PRIu32 "</title></polyline>\n", test->iteration);
}

//  A monitor's two series: its host's disk writes on the left
//  axis, and its %sys on the right one (0 to 100 over the same height),
//  each when it has points enough for a line.
static void
s_monitor_series (const scale_t *scale, const test_result_t *test, const monitor_result_t *monitor,
                  FILE *out)
{
    for (int kind = 0; kind < 2; kind++) {
        if (series_monitor_points (monitor, kind == 1) < HTML_CHART_INTERVALS_MIN)
            continue;
        fprintf (out, "<polyline class=\"series monitor\" stroke=\"%s\"",
                 kind == 0? "#555": "#b35806");
        s_dash (test->iteration, out);
        s_series_attributes (test, kind == 0? "monitor-disk": "monitor-sys", out);
        fputs (" data-agent=\"", out);
        html_escaped (monitor->agent, out);
        fputs ("\" data-job=\"", out);
        html_escaped (monitor->job, out);
        fputs ("\" points=\"", out);
        bool first = true;
        for (size_t k = 1; k < monitor->point_count; k++) {
            double value = kind == 0? series_monitor_mbps (monitor, k): series_monitor_sys_pct (monitor, k);
            if (!isfinite (value))
                continue;
            double y = kind == 0? s_y_clipped (scale, value):
                       scale->y_origin_px - value / 100.0 * (scale->y_origin_px - CHART_TOP);
            fprintf (out, "%s%.1f,%.1f", first? "": " ", s_x (scale, monitor->points [k].t_ns), y);
            first = false;
        }
        fputs ("\"><title>", out);
        html_escaped (monitor->agent, out);
        if (kind == 0)
            fprintf (out, " disk write %s (monitor)", scale->units_name);
        else
            fputs (" %sys (monitor)", out);
        fprintf (out, " #%" PRIu32 "</title></polyline>\n", test->iteration);
    }
    bool disk_drawn = series_monitor_points (monitor, false) >= HTML_CHART_INTERVALS_MIN;
    for (size_t k = 1; k < monitor->point_count && disk_drawn; k++) {
        double rate_mbps = series_monitor_mbps (monitor, k);
        if (isfinite (rate_mbps) && rate_mbps > scale->rate_max_mbps) {
            char what [JOB_NAME_MAX + 32];
            snprintf (what, sizeof what, "%s disk write (monitor)", monitor->agent);
            s_clipped_mark (scale, monitor->points [k].t_ns, rate_mbps, what, out);
        }
    }
}

//  The right axis of %sys, for charts with a monitor.
static void
s_pct_axis (const scale_t *scale, FILE *out)
{
    double right = CHART_WIDTH - CHART_RIGHT;
    for (int pct = 0; pct <= 100; pct += 25) {
        double y = scale->y_origin_px - pct / 100.0 * (scale->y_origin_px - CHART_TOP);
        fprintf (out, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#b35806\">%d%%</text>\n",
                 right + 4, y + 4, pct);
    }
}

//  A small line sample for the legend.
static void
s_swatch (const char *colour, const char *dash, const char *class_name, FILE *out)
{
    fprintf (out, "<span><svg width=\"28\" height=\"10\" aria-hidden=\"true\">"
                  "<line class=\"series %s\" x1=\"1\" x2=\"27\" y1=\"5\" y2=\"5\" stroke=\"%s\"",
             class_name, colour);
    if (dash [0])
        fprintf (out, " stroke-dasharray=\"%s\"", dash);
    fputs ("/></svg>", out);
}

//  A legend's entry of a series that no iteration draws: its name and
//  why, without a swatch. Ends the span s_swatch opened otherwise.
static void
s_undrawn (FILE *out)
{
    fprintf (out, ": under %d intervals, no line</span>", HTML_CHART_INTERVALS_MIN);
}

//  The legend: streams by colour, host totals, iterations by dash; a
//  series of too few points in every iteration is named without a line.
static void
s_legend (const test_result_t *tests, size_t count, const scale_t *scale, FILE *out)
{
    const test_result_t *first = &tests [0];
    fputs ("<figcaption class=\"legend\">", out);
    for (size_t nbr = 0; nbr < first->stream_count; nbr++) {
        const stream_result_t *stream = &first->streams [nbr];
        bool drawn = false;
        for (size_t t = 0; t < count && !drawn; t++)
            drawn = nbr < tests [t].stream_count && s_stream_drawn (&tests [t].streams [nbr]);
        if (drawn)
            s_swatch (s_colours [nbr % COLOURS], "", "stream", out);
        else
            fputs ("<span class=\"undrawn\">", out);
        html_escaped (stream->agent, out);
        fputs (" ", out);
        html_escaped (stream->job, out);
        fprintf (out, " stream %" PRIu32, stream->index);
        if (drawn)
            fputs ("</span>", out);
        else
            s_undrawn (out);
    }
    size_t host_nbr = 0;
    for (size_t nbr = 0; nbr < first->stream_count; nbr++) {
        const char *agent = first->streams [nbr].agent;
        if (!series_first_of_host (first, nbr))
            continue;
        //  A total is drawn in the iterations where the host has samples
        //  enough; the legend names it if any of them does.
        bool drawn = false;
        for (size_t test_nbr = 0; test_nbr < count && !drawn; test_nbr++) {
            int64_t from_ns, to_ns, step_ns;
            drawn = s_host_points (&tests [test_nbr], agent, &from_ns, &to_ns, &step_ns)
                    >= HTML_CHART_INTERVALS_MIN;
        }
        if (drawn) {
            s_swatch (s_colours [COLOURS - 1 - host_nbr % COLOURS], "", "host", out);
            html_escaped (agent, out);
            fputs (" total</span>", out);
        }
        host_nbr++;
    }
    for (size_t m = 0; m < first->monitor_count && !scale->request_bytes; m++)
        for (int kind = 0; kind < 2; kind++) {
            bool drawn = false;
            for (size_t t = 0; t < count && !drawn; t++)
                drawn = m < tests [t].monitor_count
                     && series_monitor_points (&tests [t].monitors [m], kind == 1)
                        >= HTML_CHART_INTERVALS_MIN;
            if (drawn)
                s_swatch (kind? "#b35806": "#555", "", "monitor", out);
            else
                fputs ("<span class=\"undrawn\">", out);
            html_escaped (first->monitors [m].agent, out);
            if (kind)
                fputs (" %sys, right axis (monitor)", out);
            else
                fprintf (out, " disk write %s (monitor)", scale->units_name);
            if (drawn)
                fputs ("</span>", out);
            else
                s_undrawn (out);
        }
    if (count > 1)
        for (size_t nbr = 0; nbr < count; nbr++) {
            s_swatch ("#333", s_dashes [(tests [nbr].iteration - 1) % DASHES], "stream", out);
            fprintf (out, "iteration %" PRIu32 "</span>", tests [nbr].iteration);
        }
    fputs ("</figcaption>\n", out);
}

//  The radio buttons that show one iteration at a time, and their CSS.
static void
s_iteration_picker (size_t section, const test_result_t *tests, size_t count, FILE *out)
{
    fputs ("<style>", out);
    for (size_t nbr = 0; nbr < count; nbr++)
        fprintf (out, "#t%zu-i%" PRIu32 ":checked~figure .series[data-iteration]"
                      ":not([data-iteration=\"%" PRIu32 "\"]){display:none}",
                 section, tests [nbr].iteration, tests [nbr].iteration);
    fputs ("</style>\n", out);
    fprintf (out, "<input type=\"radio\" name=\"t%zu\" id=\"t%zu-all\" checked>"
                  "<label class=\"pick\" for=\"t%zu-all\">all iterations</label>\n",
             section, section, section);
    for (size_t nbr = 0; nbr < count; nbr++)
        fprintf (out, "<input type=\"radio\" name=\"t%zu\" id=\"t%zu-i%" PRIu32 "\">"
                      "<label class=\"pick\" for=\"t%zu-i%" PRIu32 "\">#%" PRIu32 "</label>\n",
                 section, section, tests [nbr].iteration, section, tests [nbr].iteration,
                 tests [nbr].iteration);
}

//  A test's section: its iterations are the count tests from tests on
//  that share its name and run one after the other.
void
timeline_draw (size_t section, const test_result_t *tests, size_t count, int units, FILE *out)
{
    scale_t scale = s_scale (tests, count, units);
    html_section_head (tests, count, out);
    if (count > 1)
        s_iteration_picker (section, tests, count, out);
    fprintf (out, "<figure>\n<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" "
                  "viewBox=\"0 0 %d %d\" role=\"img\" data-test=\"",
             CHART_WIDTH, CHART_HEIGHT);
    html_escaped (tests [0].name, out);
    fprintf (out, "\" data-x-origin-px=\"%.6f\" data-px-per-s=\"%.6f\" "
                  "data-y-origin-px=\"%.6f\" data-px-per-mbps=\"%.9f\" data-units=\"%s\"",
             scale.x_origin_px, scale.px_per_s, scale.y_origin_px, scale.px_per_mbps,
             scale.units_name);
    if (scale.request_bytes)
        fprintf (out, " data-bytes-per-request=\"%" PRIu64 "\"", scale.request_bytes);
    fputs (">\n", out);
    s_axes (&scale, out);
    bool any_drawn = false;
    for (size_t test_nbr = 0; test_nbr < count; test_nbr++) {
        const test_result_t *test = &tests [test_nbr];
        size_t host_nbr = 0;
        for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
            if (!series_first_of_host (test, nbr))
                continue;
            if (series_host_has_several (test, test->streams [nbr].agent))
                s_host_series (&scale, test, test->streams [nbr].agent, host_nbr, out);
            host_nbr++;
        }
        for (size_t nbr = 0; nbr < test->stream_count; nbr++)
            any_drawn |= s_stream_series (&scale, test, nbr, out);
        for (size_t m = 0; m < test->monitor_count && !scale.request_bytes; m++)
            s_monitor_series (&scale, test, &test->monitors [m], out);
    }
    if (tests [0].monitor_count && !scale.request_bytes)
        s_pct_axis (&scale, out);
    if (!any_drawn)
        fprintf (out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no stream has %d "
                      "intervals with a rate: none is drawn</text>\n", CHART_WIDTH / 2,
                 CHART_HEIGHT / 2, HTML_CHART_INTERVALS_MIN);
    fputs ("</svg>\n", out);
    s_legend (tests, count, &scale, out);
    fputs ("</figure>\n</section>\n", out);
}

