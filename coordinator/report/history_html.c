/*  coordinator/report/history_html.c: `iofleet history --format html`,
    one self-contained page (no network, no script) with a figure of a
    test across runs; see history.h.

    Runs stand side by side, grouped by kernel (the groups in the order
    their first run started, the runs of a group in the order they
    started), so that a kernel's runs and the step to the next kernel are
    seen together. Each run is drawn as its spread: a bar from the least
    to the greatest of iterations 2..N, a dot at their median, and a
    hollow diamond at its first run. The table under the figure has the
    numbers.
*/
#include "../archive/history.h"
#include "html_kit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_WIDTH      1100        //  the SVG, px
#define PLOT_HEIGHT     420
#define PLOT_LEFT       70          //  room for the y axis
#define PLOT_RIGHT      20
#define PLOT_TOP        20
#define PLOT_BOTTOM     90          //  room for run dates and kernel names

//  Colours of the kernel groups, in turn.
static const char *const s_colours [] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"
};
#define COLOURS (sizeof s_colours / sizeof s_colours [0])

//  The group of each run (index into the kernels in order of first run),
//  and the order runs are drawn in: by group, then by start.
static int
s_groups (const history_t *history, size_t *group, size_t *order, size_t *group_count)
{
    *group_count = 0;
    for (size_t nbr = 0; nbr < history->count; nbr++) {
        size_t before = 0;
        while (before < nbr && strcmp (history->runs [before].kernels, history->runs [nbr].kernels))
            before++;
        group [nbr] = before < nbr? group [before]: (*group_count)++;
    }
    size_t placed = 0;
    for (size_t g = 0; g < *group_count; g++)
        for (size_t nbr = 0; nbr < history->count; nbr++)
            if (group [nbr] == g)
                order [placed++] = nbr;
    return 0;
}
//  The figure of one test.
static int
s_figure (const history_t *history, const char *test, FILE *out)
{
    size_t *group = (size_t *) calloc (history->count + 1, sizeof (size_t));
    size_t *order = (size_t *) calloc (history->count + 1, sizeof (size_t));
    history_point_t *points = (history_point_t *) calloc (history->count + 1,
                                                          sizeof (history_point_t));
    if (!group || !order || !points) {
        free (group);
        free (order);
        free (points);
        return -1;
    }
    size_t group_count;
    s_groups (history, group, order, &group_count);
    double top = 0;
    size_t shown = 0;
    for (size_t nbr = 0; nbr < history->count; nbr++) {
        points [nbr] = history_point (history, &history->runs [nbr], test);
        shown += points [nbr].iterations > 0;
        if (isfinite (points [nbr].max) && points [nbr].max > top)
            top = points [nbr].max;
        if (isfinite (points [nbr].first) && points [nbr].first > top)
            top = points [nbr].first;
    }
    double step = html_tick_step (top * 1.05, 5);
    top = top > 0? ceil (top * 1.05 / step) * step: 1;
    double width = PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT;
    double height = PLOT_HEIGHT - PLOT_TOP - PLOT_BOTTOM;
    //  A slot per run shown and half a slot between groups.
    double slots = (double) shown + 0.5 * (double) (group_count? group_count - 1: 0);
    double slot = slots > 0? width / slots: width;
    fprintf (out, "<svg class=\"history\" data-test=\"");
    html_escaped (test, out);
    fprintf (out, "\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
             "xmlns=\"http://www.w3.org/2000/svg\" font-size=\"12\">\n",
             PLOT_WIDTH, PLOT_HEIGHT, PLOT_WIDTH, PLOT_HEIGHT);
    for (double tick = 0; tick <= top + step / 2; tick += step) {
        double y = PLOT_TOP + height - tick / top * height;
        char label [64];
        history->metric->format (tick, label, sizeof label);
        fprintf (out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                 "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                 PLOT_LEFT, PLOT_WIDTH - PLOT_RIGHT, y, y, PLOT_LEFT - 6, y + 4, label);
    }
    fprintf (out, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">"
             "%s (%s is better)</text>\n", PLOT_TOP + (int) height / 2, PLOT_TOP + (int) height / 2,
             history->metric->name,
             history->metric->better == METRIC_HIGHER_BETTER? "higher": "lower");
    double x = PLOT_LEFT + slot / 2;
    size_t current = (size_t) -1;
    double group_start = x;
    for (size_t at = 0; at < history->count; at++) {
        size_t nbr = order [at];
        const history_point_t *point = &points [nbr];
        if (point->iterations == 0)
            continue;
        if (current != (size_t) -1 && group [nbr] != current)
            x += slot / 2;
        if (group [nbr] != current)
            group_start = x;
        current = group [nbr];
        const char *colour = s_colours [current % COLOURS];
        const history_run_t *run = &history->runs [nbr];
        char when [32], median [64];
        history_utc (run->run.started_wall_ns, when, sizeof when);
        history->metric->format (point->median, median, sizeof median);
        fprintf (out, "<g class=\"run\" data-started=\"%s\" data-kernel=\"", when);
        html_escaped (run->kernels, out);
        fprintf (out, "\" data-median=\"%.6g\"><title>%s %s: median %s", point->median, when,
                 run->run.label, median);
        if (isfinite (point->first))
            fprintf (out, ", first run %.6g", point->first);
        fprintf (out, "</title>\n");
        if (isfinite (point->min) && point->max > point->min)
            fprintf (out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                     "stroke-width=\"4\" stroke-linecap=\"round\" opacity=\"0.55\"/>\n", x, x,
                     PLOT_TOP + height - point->min / top * height,
                     PLOT_TOP + height - point->max / top * height, colour);
        if (isfinite (point->median))
            fprintf (out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>\n", x,
                     PLOT_TOP + height - point->median / top * height, colour);
        if (isfinite (point->first)) {
            double y = PLOT_TOP + height - point->first / top * height;
            fprintf (out, "<path d=\"M%.1f %.1fl6 6l-6 6l-6 -6z\" fill=\"white\" stroke=\"%s\" "
                     "stroke-width=\"1.5\"/>\n", x, y - 6, colour);
        }
        fprintf (out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"10\" "
                 "transform=\"rotate(-45 %.1f %.1f)\">%.11s</text>\n</g>\n",
                 x, PLOT_TOP + height + 14, x, PLOT_TOP + height + 14, when + 5);
        //  The group's name under its last run.
        bool last = true;
        for (size_t later = at + 1; later < history->count && last; later++)
            last = group [order [later]] != current || points [order [later]].iterations == 0;
        if (last) {
            fprintf (out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                     "stroke-width=\"2\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                     "fill=\"%s\">", group_start - slot / 3, x + slot / 3,
                     PLOT_TOP + height + 62, PLOT_TOP + height + 62, colour,
                     (group_start + x) / 2, PLOT_TOP + height + 78, colour);
            html_escaped (run->kernels, out);
            fprintf (out, "</text>\n");
        }
        x += slot;
    }
    fprintf (out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n</svg>\n",
             PLOT_LEFT, PLOT_WIDTH - PLOT_RIGHT, PLOT_TOP + height, PLOT_TOP + height);
    free (group);
    free (order);
    free (points);
    return 0;
}

//  The numbers of one test, a row per run, oldest first.
static void
s_table (const history_t *history, const char *test, FILE *out)
{
    fprintf (out, "<table>\n<tr><th>started (UTC)</th><th>label</th><th>kernel</th>"
             "<th>hosts</th><th>iterations</th><th>first</th><th>median</th><th>min</th>"
             "<th>max</th><th>stddev</th><th>results</th></tr>\n");
    bool marked = false;            //  a figure is over a partial or failed run
    for (size_t nbr = 0; nbr < history->count; nbr++) {
        const history_run_t *run = &history->runs [nbr];
        history_point_t point = history_point (history, run, test);
        if (point.iterations == 0)
            continue;
        char when [32];
        history_utc (run->run.started_wall_ns, when, sizeof when);
        fprintf (out, "<tr><td>%s</td><td>", when);
        html_escaped (run->run.label [0]? run->run.label: "-", out);
        fputs ("</td><td>", out);
        html_escaped (run->kernels, out);
        fputs ("</td><td>", out);
        html_escaped (run->hosts, out);
        char iterations [64];
        history_iterations (&point, iterations, sizeof iterations);
        fprintf (out, "</td><td class=\"n\">%s</td>", iterations);
        double figures [] = { point.first, point.median, point.min, point.max, point.stddev };
        for (size_t figure = 0; figure < sizeof figures / sizeof figures [0]; figure++) {
            char value [64];
            history_value (history, &point, figures [figure], value, sizeof value);
            fprintf (out, "<td class=\"n\">%s</td>", value);
        }
        marked |= point.partial || point.failed || point.cut_short;
        fputs ("<td>", out);
        html_escaped (run->results_dir, out);
        fputs ("</td></tr>\n", out);
    }
    fputs ("</table>\n", out);
    if (marked)
        fprintf (out, "<p class=\"note\">%s</p>\n", HISTORY_PARTIAL_NOTE);
}

//  The page: per test its figure and its table.
int
history_print_html (const history_t *history, FILE *out)
{
    const html_page_t page = {
        .title = "iofleet history",
        .css = "body{font:14px/1.45 system-ui,'DejaVu Sans',sans-serif;margin:1.5em;color:#222}"
               "table{border-collapse:collapse;margin:1em 0 2em}th,td{padding:.2em .8em;"
               "border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}"
               "th{background:#f3f3f3}td.n{text-align:right}svg text{fill:#333}.note{color:#555}"
    };
    html_page_begin (&page, out);
    fputs ("<h1>iofleet history</h1>\n", out);
    for (size_t nbr = 0; nbr < history->test_count; nbr++) {
        fputs ("<h2>", out);
        html_escaped (history->tests [nbr], out);
        fprintf (out, ", %s</h2>\n", history->metric->name);
        if (s_figure (history, history->tests [nbr], out))
            return -1;
        fprintf (out, "<p class=\"note\">each run: the bar spans iterations 2..N (min to max), "
                 "the dot is their median, the hollow diamond the first run; a test run once "
                 "is a dot alone. Runs are grouped by kernel, oldest first.</p>\n");
        s_table (history, history->tests [nbr], out);
    }
    if (history->test_count == 0)
        fputs ("<p>No run of the archive has this test.</p>\n", out);
    html_page_end (out);
    return 0;
}
