/*  coordinator/report/heatmap.c: a fleet's timeline as a heat map, rows
    by time, in the HTML report; see html.h.

    Lines for a thousand streams are a smear, and a page of them weighs
    megabytes. A heat map draws each host as a row and time as columns
    (at most HEAT_COLUMNS, and HEAT_ROWS rows, consecutive hosts sharing
    one past that), each cell coloured by the rate its streams moved in
    that interval, relative to the fastest cell: a slow host is a pale row,
    a stall a red gap. With few hosts but many streams, each stream is a
    row instead.

    A cell's rate is the bytes of its row's streams in its interval (each
    stream's progress spread evenly between its samples, as the lines
    draw it) over the part of the interval in which the row ran. Cells of
    one colour that follow each other in a row are one rectangle, and
    rectangles of a colour are one path, in the units of a grid of cells,
    so that the page stays small: under 2 MB for 256 hosts of 120 samples.

    The top of the colour scale is the rate of the 99th percentile of the
    cells, so that one burst does not pale every other cell; faster cells
    take the darkest colour.

    The SVG says what it draws (data-kind="heatmap", its columns' origin
    and width in seconds, the top of its scale in MB/s, the names of its
    rows in order), so that a program can read the figures back.
*/
#include "html.h"
#include "series.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAT_COLUMNS        120     //  time columns at most
#define HEAT_ROWS           512     //  rows at most
#define HEAT_WIDTH          960     //  the chart's geometry in SVG units
#define HEAT_LEFT           90      //  room for the row names
#define HEAT_RIGHT          16
#define HEAT_TOP            10
#define HEAT_BOTTOM         40      //  room for the time labels
#define HEAT_ROW_HEIGHT_MAX 14      //  a row's height with few rows
#define HEAT_LABELS         24      //  row names written at most
#define HEAT_TICKS          6       //  about this many ticks on the time axis

//  From pale (slow) to dark (fast); a cell that moved nothing is red.
static const char *const s_levels [] = {
    "#ffffd9", "#edf8b1", "#c7e9b4", "#7fcdbb", "#41b6c4", "#1d91c0", "#225ea8", "#0c2c84"
};
#define LEVELS (sizeof s_levels / sizeof s_levels [0])
#define STALL_COLOUR "#d62728"

//  The rows and cells of one test iteration.
typedef struct {
    size_t rows;                    //  rows drawn
    size_t series;                  //  hosts or streams, before rows were merged
    bool by_host;                   //  rows are hosts, not streams
    size_t columns;                 //  time columns
    int64_t t0_ns;                  //  start of column 0, on the test's timeline
    int64_t column_ns;              //  width of a column
    double *bytes;                  //  rows x columns: bytes moved
    int64_t *active_ns;             //  rows x columns: time its row ran in the cell
    size_t *row_of_stream;          //  per stream: its row
    const char **first_name;        //  per row: the name of its first series
    const char **last_name;         //  per row: the name of its last series
    double max_mbps;                //  the top of the colour scale
} s_map_t;

//  The top of the colour scale is this share of the cells from the
//  slowest up: one cell's burst (a page cache flush) must not pale every
//  other one.
#define HEAT_SCALE_QUANTILE 0.99

//  For qsort: doubles, ascending.
static int
s_compare_doubles (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

//  For qsort_r: stream indices of the test arg by agent (c2 before c10),
//  then place.
static int
s_compare_streams (const void *a, const void *b, void *arg)
{
    const test_result_t *test = arg;
    size_t x = *(const size_t *) a, y = *(const size_t *) b;
    int by_agent = strverscmp (test->streams [x].agent, test->streams [y].agent);
    return by_agent? by_agent: (x > y) - (x < y);
}

//  The streams of a test in agent order (the caller frees), and the
//  number of distinct agents; NULL if memory ran out.
static size_t *
s_order (const test_result_t *test, size_t *hosts)
{
    size_t *order = calloc (test->stream_count + 1, sizeof *order);
    if (!order)
        return NULL;
    for (size_t s = 0; s < test->stream_count; s++)
        order [s] = s;
    qsort_r (order, test->stream_count, sizeof *order, s_compare_streams, (void *) test);
    *hosts = 0;
    for (size_t k = 0; k < test->stream_count; k++)
        if (k == 0 || strcmp (test->streams [order [k]].agent, test->streams [order [k - 1]].agent))
            (*hosts)++;
    return order;
}

bool
heatmap_chosen (const test_result_t *tests, size_t count)
{
    for (size_t t = 0; t < count; t++) {
        if (tests [t].stream_count > HTML_LINES_STREAMS_MAX)
            return true;
        size_t hosts = 0;
        free (s_order (&tests [t], &hosts));
        if (hosts > HTML_LINES_HOSTS_MAX)
            return true;
    }
    return false;
}

//  Spread bytes moved evenly over [from, to) into row's cells.
static void
s_spread (s_map_t *map, size_t row, int64_t from_ns, int64_t to_ns, double bytes)
{
    if (to_ns <= from_ns)
        return;
    int64_t first = (from_ns - map->t0_ns) / map->column_ns;
    int64_t last = (to_ns - 1 - map->t0_ns) / map->column_ns;
    for (int64_t c = first < 0? 0: first; c <= last && c < (int64_t) map->columns; c++) {
        int64_t cell_from = map->t0_ns + c * map->column_ns, cell_to = cell_from + map->column_ns;
        int64_t overlap = (to_ns < cell_to? to_ns: cell_to) - (from_ns > cell_from? from_ns: cell_from);
        if (overlap > 0)
            map->bytes [row * map->columns + (size_t) c] +=
                bytes * (double) overlap / (double) (to_ns - from_ns);
    }
}

//  A stream's progress into its row: from its start with nothing done,
//  through its samples (those that go forward), to its last write with
//  all of its bytes; a stream without a RESULT, from the start instant
//  through its samples. Returns its window in *from_ns, *to_ns: to its
//  end after its fsync and close, as every figure of the report has it,
//  so that a stream that wrote in a burst and then waited on its fsyncs
//  is a row of cells that moved nothing, not a row that ended.
static void
s_add_stream (s_map_t *map, size_t row, const stream_result_t *stream,
              int64_t *from_ns, int64_t *to_ns)
{
    int64_t prev_ns = stream->finished? stream->start_ns: 0;
    double prev_bytes = 0, total = (double) stream->bytes;
    int64_t end_ns = stream->finished? stream->last_write_ns: INT64_MAX;
    *from_ns = prev_ns;
    for (size_t k = 0; k < stream->sample_count; k++) {
        const sample_point_t *sample = &stream->samples [k];
        double bytes = (double) sample->bytes;
        if (sample->t_ns <= prev_ns || sample->t_ns >= end_ns || bytes < prev_bytes
        ||  (stream->finished && bytes > total))
            continue;
        s_spread (map, row, prev_ns, sample->t_ns, bytes - prev_bytes);
        prev_ns = sample->t_ns;
        prev_bytes = bytes;
    }
    if (stream->finished && end_ns > prev_ns)
        s_spread (map, row, prev_ns, end_ns, total - prev_bytes);
    if (stream->finished && stream->end_ns > end_ns)
        end_ns = stream->end_ns;
    *to_ns = stream->finished? (end_ns > prev_ns? end_ns: prev_ns): prev_ns;
}

//  Mark the time row ran, [from, to), in its cells.
static void
s_activate (s_map_t *map, size_t row, int64_t from_ns, int64_t to_ns)
{
    for (size_t c = 0; c < map->columns; c++) {
        int64_t cell_from = map->t0_ns + (int64_t) c * map->column_ns;
        int64_t cell_to = cell_from + map->column_ns;
        int64_t overlap = (to_ns < cell_to? to_ns: cell_to) - (from_ns > cell_from? from_ns: cell_from);
        int64_t *active = &map->active_ns [row * map->columns + c];
        if (overlap > *active)
            *active = overlap;
    }
}

//  Free what a map holds.
static void
s_map_clear (s_map_t *map)
{
    free (map->bytes);
    free (map->active_ns);
    free (map->row_of_stream);
    free (map->first_name);
    free (map->last_name);
    memset (map, 0, sizeof *map);
}

//  Build the map of one test over [t_min, t_max). Returns 0, or -1 if
//  memory ran out.
static int
s_map_build (s_map_t *map, const test_result_t *test, int64_t t_min_ns, int64_t t_max_ns)
{
    memset (map, 0, sizeof *map);
    size_t streams = test->stream_count;
    size_t hosts = 0;
    size_t *order = s_order (test, &hosts);
    if (!order)
        return -1;
    map->by_host = hosts > HTML_LINES_HOSTS_MAX || hosts == streams;
    map->series = map->by_host? hosts: streams;
    map->rows = map->series < HEAT_ROWS? map->series: HEAT_ROWS;
    map->columns = HEAT_COLUMNS;
    map->t0_ns = t_min_ns;
    map->column_ns = (t_max_ns - t_min_ns + (int64_t) HEAT_COLUMNS - 1) / (int64_t) HEAT_COLUMNS;
    if (map->column_ns <= 0)
        map->column_ns = 1;
    size_t cells = map->rows * map->columns;
    map->bytes = calloc (cells + 1, sizeof *map->bytes);
    map->active_ns = calloc (cells + 1, sizeof *map->active_ns);
    map->row_of_stream = calloc (streams + 1, sizeof *map->row_of_stream);
    map->first_name = calloc (map->rows + 1, sizeof *map->first_name);
    map->last_name = calloc (map->rows + 1, sizeof *map->last_name);
    if (!map->bytes || !map->active_ns || !map->row_of_stream || !map->first_name
    ||  !map->last_name) {
        free (order);
        s_map_clear (map);
        return -1;
    }
    //  Series in agent order, the streams of a host in file order; past
    //  HEAT_ROWS, consecutive series share a row.
    size_t series = 0;
    for (size_t k = 0; k < streams; k++) {
        const stream_result_t *stream = &test->streams [order [k]];
        if (k > 0 && (!map->by_host || strcmp (stream->agent, test->streams [order [k - 1]].agent)))
            series++;
        size_t row = series * map->rows / map->series;
        map->row_of_stream [order [k]] = row;
        if (!map->first_name [row])
            map->first_name [row] = map->by_host? stream->agent: stream->job;
        map->last_name [row] = map->by_host? stream->agent: stream->job;
        int64_t from_ns, to_ns;
        s_add_stream (map, row, stream, &from_ns, &to_ns);
        s_activate (map, row, from_ns, to_ns);
    }
    free (order);
    //  The scale's top: the rate below which HEAT_SCALE_QUANTILE of the
    //  cells that ran lie (the cells' rates, sorted, in bytes' room).
    size_t ran = 0;
    for (size_t cell = 0; cell < cells; cell++)
        if (map->active_ns [cell] > 0)
            ran++;
    double *rates = calloc (ran + 1, sizeof *rates);
    if (!rates) {
        s_map_clear (map);
        return -1;
    }
    ran = 0;
    for (size_t cell = 0; cell < cells; cell++)
        if (map->active_ns [cell] > 0)
            rates [ran++] = map->bytes [cell] * 1e3 / (double) map->active_ns [cell];
    qsort (rates, ran, sizeof *rates, s_compare_doubles);
    map->max_mbps = ran? rates [(size_t) ((double) (ran - 1) * HEAT_SCALE_QUANTILE)]: 0;
    free (rates);
    return 0;
}

//  A cell's colour: -1 not drawn (its row did not run), LEVELS for a
//  stall, else its level.
static int
s_level (const s_map_t *map, size_t cell)
{
    if (map->active_ns [cell] <= 0)
        return -1;
    double mbps = map->bytes [cell] * 1e3 / (double) map->active_ns [cell];
    if (!(mbps > 0))
        return (int) LEVELS;
    int level = map->max_mbps > 0? (int) ceil (mbps / map->max_mbps * LEVELS) - 1: 0;
    return level < 0? 0: level >= (int) LEVELS? (int) LEVELS - 1: level;
}

//  The cells of one colour as one path: a rectangle per run of cells.
static void
s_level_path (const s_map_t *map, int level, FILE *out)
{
    bool open = false;
    for (size_t row = 0; row < map->rows; row++)
        for (size_t c = 0; c < map->columns; ) {
            if (s_level (map, row * map->columns + c) != level) {
                c++;
                continue;
            }
            size_t run = 1;
            while (c + run < map->columns && s_level (map, row * map->columns + c + run) == level)
                run++;
            if (!open)
                fprintf (out, "<path data-level=\"%d\" fill=\"%s\" d=\"", level,
                         level == (int) LEVELS? STALL_COLOUR: s_levels [level]);
            open = true;
            fprintf (out, "M%zu %zuh%zuv1h-%zuz", c, row, run, run);
            c += run;
        }
    if (open)
        fputs ("\"/>\n", out);
}

//  A row's name: its series, or the first and last of those it holds.
static void
s_row_name (const s_map_t *map, size_t row, FILE *out)
{
    html_escaped (map->first_name [row]? map->first_name [row]: "-", out);
    if (map->last_name [row] && map->first_name [row] != map->last_name [row]
    &&  strcmp (map->last_name [row], map->first_name [row])) {
        fputs ("..", out);
        html_escaped (map->last_name [row], out);
    }
}

//  One iteration's map.
static void
s_map_svg (const s_map_t *map, const test_result_t *test, int units, FILE *out)
{
    double row_height = (double) (360 - HEAT_TOP - HEAT_BOTTOM) / (double) map->rows;
    if (row_height > HEAT_ROW_HEIGHT_MAX)
        row_height = HEAT_ROW_HEIGHT_MAX;
    double plot_height = row_height * (double) map->rows;
    double plot_width = HEAT_WIDTH - HEAT_LEFT - HEAT_RIGHT;
    double height = plot_height + HEAT_TOP + HEAT_BOTTOM;
    fprintf (out, "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d "
                  "%.0f\" role=\"img\" data-kind=\"heatmap\" data-test=\"", HEAT_WIDTH, height);
    html_escaped (test->name, out);
    fprintf (out, "\" data-iteration=\"%" PRIu32 "\" data-rows=\"%zu\" data-columns=\"%zu\" "
                  "data-t0-s=\"%.6f\" data-column-s=\"%.6f\" data-max-mbps=\"%.6f\" "
                  "data-rows-are=\"%s\" data-row-names=\"", test->iteration, map->rows,
             map->columns, (double) map->t0_ns / NS_PER_SEC, (double) map->column_ns / NS_PER_SEC,
             map->max_mbps, map->by_host? "hosts": "streams");
    for (size_t row = 0; row < map->rows; row++) {
        if (row)
            fputc (' ', out);
        s_row_name (map, row, out);
    }
    fprintf (out, "\">\n<svg x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" viewBox=\"0 0 %zu %zu\" "
                  "preserveAspectRatio=\"none\" shape-rendering=\"crispEdges\">\n",
             HEAT_LEFT, HEAT_TOP, plot_width, plot_height, map->columns, map->rows);
    for (int level = 0; level <= (int) LEVELS; level++)
        s_level_path (map, level, out);
    fputs ("</svg>\n", out);
    //  Row names, at most HEAT_LABELS of them, evenly.
    size_t every = (map->rows + HEAT_LABELS - 1) / HEAT_LABELS;
    for (size_t row = 0; row < map->rows; row += every) {
        fprintf (out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"%.0f\">",
                 HEAT_LEFT - 4, HEAT_TOP + row_height * ((double) row + 0.5) + 4,
                 row_height * (double) every < 12? 9.0: 11.0);
        s_row_name (map, row, out);
        fputs ("</text>\n", out);
    }
    //  Time: round ticks, in seconds since the announced start.
    double t0_s = (double) map->t0_ns / NS_PER_SEC;
    double span_s = (double) map->column_ns * (double) map->columns / NS_PER_SEC;
    double step = html_tick_step (span_s, HEAT_TICKS);
    for (double t = ceil (t0_s / step) * step; t <= t0_s + span_s * (1 + 1e-9); t += step) {
        double x = HEAT_LEFT + plot_width * (t - t0_s) / span_s;
        fprintf (out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x,
                 HEAT_TOP + plot_height + 16, fabs (t) < step / 1e6? 0.0: t);
    }
    fprintf (out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">seconds since the announced "
                  "start; %s per %s and interval</text>\n</svg>\n",
             HEAT_LEFT + plot_width / 2, height - 4, aggregate_units_name (units),
             map->by_host? "host": "stream");
}

//  The colour scale, in the run's units.
static void
s_scale (double max_mbps, int units, FILE *out)
{
    fputs ("<figcaption class=\"legend\">", out);
    for (size_t level = 0; level < LEVELS; level++) {
        char low [32], high [32];
        aggregate_format_rate (aggregate_in_units (max_mbps * (double) level / LEVELS, units),
                               low, sizeof low);
        aggregate_format_rate (aggregate_in_units (max_mbps * (double) (level + 1) / LEVELS, units),
                               high, sizeof high);
        fprintf (out, "<span><svg width=\"14\" height=\"10\" aria-hidden=\"true\"><rect width=\"14\" "
                      "height=\"10\" fill=\"%s\"/></svg>%s..%s%s</span>", s_levels [level], low, high,
                 level + 1 == LEVELS? " and more": "");
    }
    fprintf (out, "<span><svg width=\"14\" height=\"10\" aria-hidden=\"true\"><rect width=\"14\" "
                  "height=\"10\" fill=\"%s\"/></svg>nothing moved</span> %s</figcaption>\n",
             STALL_COLOUR, aggregate_units_name (units));
}

void
heatmap_draw (size_t section, const test_result_t *tests, size_t count, int units, FILE *out)
{
    (void) section;
    //  One time axis for every iteration: from the start instant (or the
    //  earliest sample) to the last end.
    int64_t t_min_ns = 0, t_max_ns = 1;
    for (size_t t = 0; t < count; t++)
        for (size_t s = 0; s < tests [t].stream_count; s++) {
            const stream_result_t *stream = &tests [t].streams [s];
            if (stream->finished && stream->end_ns > t_max_ns)
                t_max_ns = stream->end_ns;
            for (size_t k = 0; k < stream->sample_count; k++) {
                int64_t t_ns = stream->samples [k].t_ns;
                t_min_ns = t_ns < t_min_ns? t_ns: t_min_ns;
                t_max_ns = t_ns > t_max_ns? t_ns: t_max_ns;
            }
        }
    html_section_head (tests, count, out);
    for (size_t t = 0; t < count; t++) {
        s_map_t map;
        //  An iteration of few intervals would be rows of a colour or
        //  two: its bar above says as much.
        if (series_interval_count (&tests [t], 1) < HTML_CHART_INTERVALS_MIN) {
            fprintf (out, "<p class=\"meta\">#%" PRIu32 ": under %d intervals, no map</p>\n",
                     tests [t].iteration, HTML_CHART_INTERVALS_MIN);
            continue;
        }
        fputs ("<figure>\n", out);
        if (count > 1)
            fprintf (out, "<p class=\"meta\">#%" PRIu32 "</p>\n", tests [t].iteration);
        if (s_map_build (&map, &tests [t], t_min_ns, t_max_ns)) {
            fputs ("<p class=\"failed\">out of memory for the heat map</p>\n</figure>\n", out);
            continue;
        }
        if (map.rows == 0)
            fputs ("<p class=\"meta\">nothing to draw: no stream</p>\n", out);
        else {
            s_map_svg (&map, &tests [t], units, out);
            s_scale (map.max_mbps, units, out);
        }
        s_map_clear (&map);
        fputs ("</figure>\n", out);
    }
    fputs ("</section>\n", out);
}
