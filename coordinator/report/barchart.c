/*  coordinator/report/barchart.c: the picture at the top of the page, the
    tests table drawn; see html.h.

    One bar per report row (a test, or a phase of one) at the median of
    its iterations, each iteration a dot on it and a whisker from the
    least to the most; the first iteration is a hollow dot, apart from
    the others, since it is the one that meets cold caches and fresh
    files. A bar is split by class: the share of the row's bytes that
    its disk streams and its network streams moved. Rows counted in
    requests are drawn in requests/s, as the tests table counts them
    (N/s), on charts of their own: one axis never mixes bytes and
    requests. Bonnie's seeks (a read each, mostly of the page cache) and
    randrw's reads and writes are apart, so that the one does not flatten
    the other, each axis saying which. A workload that moves no data (its descriptor
    says no_io: the null workload's rate is the machinery's, often a
    hundred times a disk's) has no bar; the tests table has its figure.

    Each SVG carries its scale (data-x-origin-px, data-px-per-unit,
    data-units) and each bar, whisker and dot its row (data-test) and
    value (data-value, in the chart's units), so that a program can read
    the figures back.
*/
#include "html.h"
#include "../numbers/aggregate.h"
#include "../numbers/stats.h"
#include "../../proto/workload.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BARS_WIDTH      960
#define BARS_LEFT       230         //  room for the row names
#define BARS_RIGHT      70          //  room for the median's label
#define BARS_TOP        10
#define BARS_BOTTOM     40          //  room for the axis and its name
#define BARS_ROW        26          //  height of one row
#define BARS_TICKS      6
#define BARS_ITERATIONS 64          //  dots drawn per row at most

//  What one chart draws: rows counted in bytes, seeks or requests.
typedef enum { BARS_BYTES, BARS_SEEKS, BARS_REQUESTS } bars_kind_t;

//  One row of a chart: its iterations' figures, in run order.
typedef struct {
    const char *name;
    double values [BARS_ITERATIONS];
    uint32_t iterations [BARS_ITERATIONS];
    size_t count;
    double median, least, most;
    double disk_share;              //  of the bytes of all its iterations
} bars_row_t;

//  Whether a row is drawn: it moved data.
static bool
s_drawn (const test_result_t *test)
{
    const workload_desc_t *desc = workload_find (test->workload);
    return !desc || !desc->no_io;
}

static bars_kind_t
s_kind (const test_result_t *test)
{
    return !test->rate_ops? BARS_BYTES: test->rate_requests? BARS_REQUESTS: BARS_SEEKS;
}

static const char *
s_units_name (bars_kind_t kind, int units)
{
    return kind == BARS_BYTES? aggregate_units_name (units): "requests/s";
}

//  What the axis counts, after its units.
static const char *
s_counted (bars_kind_t kind)
{
    return kind == BARS_BYTES? "": kind == BARS_SEEKS? " of seeks (a read each)"
                                                      : " of reads and writes";
}

//  A test's figure in the chart's units: its combined rate.
static double
s_value (const test_result_t *test, int units)
{
    return test->rate_ops? test->summary.combined_ops_per_s
                         : aggregate_in_units (test->summary.combined_mbps, units);
}

//  The rows of one kind, in the order of their first run; returns how
//  many (0 when none of that kind has a figure).
static size_t
s_rows (const run_result_t *run, bars_kind_t kind, bars_row_t *rows)
{
    size_t count = 0;
    for (size_t t = 0; t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        if (s_kind (test) != kind || !s_drawn (test))
            continue;
        size_t nbr = 0;
        while (nbr < count && strcmp (rows [nbr].name, test->name))
            nbr++;
        if (nbr == count)
            rows [count++] = (bars_row_t) { .name = test->name };
        bars_row_t *row = &rows [nbr];
        double value = s_value (test, run->units);
        if (!isfinite (value) || row->count == BARS_ITERATIONS)
            continue;
        row->values [row->count] = value;
        row->iterations [row->count++] = test->iteration;
    }
    size_t kept = 0;
    for (size_t nbr = 0; nbr < count; nbr++) {
        bars_row_t *row = &rows [nbr];
        if (row->count == 0)
            continue;
        row->median = stats_median (row->values, row->count);
        row->least = row->most = row->values [0];
        for (size_t k = 1; k < row->count; k++) {
            row->least = fmin (row->least, row->values [k]);
            row->most = fmax (row->most, row->values [k]);
        }
        uint64_t disk = 0, all = 0;
        for (size_t t = 0; t < run->test_count; t++)
            if (!strcmp (run->tests [t].name, row->name)) {
                disk += run->tests [t].summary.disk.bytes;
                all += run->tests [t].summary.disk.bytes + run->tests [t].summary.network.bytes;
            }
        row->disk_share = all? (double) disk / (double) all: 1;
        rows [kept++] = *row;
    }
    return kept;
}

//  A figure as the text prints it: the rate's digits, or a whole count.
static void
s_figure (double value, bars_kind_t kind, char *buf, size_t buflen)
{
    if (kind == BARS_BYTES)
        aggregate_format_rate (value, buf, buflen);
    else
        snprintf (buf, buflen, "%.0f", value);
}

static void
s_chart (const bars_row_t *rows, size_t count, bars_kind_t kind, int units, FILE *out)
{
    double top = 0;
    for (size_t nbr = 0; nbr < count; nbr++)
        top = fmax (top, rows [nbr].most);
    top = top > 0? top * 1.05: 1;
    double step = html_tick_step (top, BARS_TICKS);
    top = ceil (top / step) * step;
    double plot_width = BARS_WIDTH - BARS_LEFT - BARS_RIGHT;
    double per_unit = plot_width / top;
    int height = BARS_TOP + (int) count * BARS_ROW + BARS_BOTTOM;
    double bottom = BARS_TOP + (double) count * BARS_ROW;
    const char *units_name = s_units_name (kind, units);

    fprintf (out, "<figure>\n<svg class=\"bars\" xmlns=\"http://www.w3.org/2000/svg\" "
                  "viewBox=\"0 0 %d %d\" role=\"img\" data-units=\"%s\" "
                  "data-x-origin-px=\"%d\" data-px-per-unit=\"%.9f\">\n",
             BARS_WIDTH, height, units_name, BARS_LEFT, per_unit);
    for (double value = 0; value <= top * (1 + 1e-9); value += step) {
        double x = BARS_LEFT + value * per_unit;
        char label [32];
        s_figure (value, kind, label, sizeof label);
        fprintf (out, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.1f\"/>"
                      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                 x, x, BARS_TOP, bottom, x, bottom + 16, label);
    }
    fprintf (out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s%s, the median of the "
                  "iterations (dots; hollow: the first)</text>\n",
             BARS_LEFT + plot_width / 2, height - 6, units_name, s_counted (kind));
    for (size_t nbr = 0; nbr < count; nbr++) {
        const bars_row_t *row = &rows [nbr];
        double y = BARS_TOP + (double) nbr * BARS_ROW, middle = y + BARS_ROW / 2.0;
        double disk_width = row->median * per_unit * row->disk_share;
        double network_width = row->median * per_unit - disk_width;
        char figure [32];
        s_figure (row->median, kind, figure, sizeof figure);
        fputs ("<g class=\"bar-row\" data-test=\"", out);
        html_escaped (row->name, out);
        fprintf (out, "\">\n<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", BARS_LEFT - 8,
                 middle + 4);
        html_escaped (row->name, out);
        fputs ("</text>\n", out);
        if (disk_width > 0)
            fprintf (out, "<rect class=\"bar disk\" x=\"%d\" y=\"%.1f\" width=\"%.2f\" "
                          "height=\"%d\" data-value=\"%.6f\"><title>disk: %.0f%% of the bytes"
                          "</title></rect>\n", BARS_LEFT, y + 5, disk_width, BARS_ROW - 10,
                     row->median, 100 * row->disk_share);
        if (network_width > 0)
            fprintf (out, "<rect class=\"bar network\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
                          "height=\"%d\" data-value=\"%.6f\"><title>network: %.0f%% of the "
                          "bytes</title></rect>\n", BARS_LEFT + disk_width, y + 5,
                     network_width, BARS_ROW - 10, row->median, 100 * (1 - row->disk_share));
        if (row->count > 1)
            fprintf (out, "<line class=\"whisker\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" "
                          "y2=\"%.1f\" data-least=\"%.6f\" data-most=\"%.6f\"/>\n",
                     BARS_LEFT + row->least * per_unit, BARS_LEFT + row->most * per_unit,
                     middle, middle, row->least, row->most);
        for (size_t k = 0; k < row->count; k++) {
            char value [32];
            s_figure (row->values [k], kind, value, sizeof value);
            fprintf (out, "<circle class=\"iteration%s\" cx=\"%.2f\" cy=\"%.1f\" r=\"3.5\" "
                          "data-iteration=\"%" PRIu32 "\" data-value=\"%.6f\"><title>#%" PRIu32
                          ": %s %s</title></circle>\n",
                     row->iterations [k] == 1? " first": "", BARS_LEFT + row->values [k] * per_unit,
                     middle, row->iterations [k], row->values [k], row->iterations [k], value,
                     units_name);
        }
        fprintf (out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n</g>\n",
                 BARS_LEFT + fmax (row->median, row->most) * per_unit + 6, middle + 4, figure);
    }
    fputs ("</svg>\n</figure>\n", out);
}

void
barchart_draw (const run_result_t *run, FILE *out)
{
    bars_row_t *rows = (bars_row_t *) calloc (run->test_count? run->test_count: 1,
                                              sizeof (bars_row_t));
    if (!rows)
        return;
    bool any = false;
    for (bars_kind_t kind = BARS_BYTES; kind <= BARS_REQUESTS; kind++) {
        size_t count = s_rows (run, kind, rows);
        if (count == 0)
            continue;
        if (!any)
            fputs ("<h2>Tests at a glance</h2>\n<p class=\"meta\">A bar per test and phase at "
                   "the median of its iterations' combined rate, dark for what disk streams "
                   "moved, light for network streams; a dot per iteration (hollow: the first) "
                   "and a line from the least to the most.</p>\n", out);
        any = true;
        s_chart (rows, count, kind, run->units, out);
    }
    free (rows);
}
