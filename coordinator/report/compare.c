/*  coordinator/report/compare.c: results of several runs side by side
    (`iofleet compare`); see report.h.

    The table the mailing-list threads were made of: a row per test, a
    column per result set (a kernel, usually), each figure with its change
    against the first column in percent. A test that ran N times counts
    as the mean of its iterations, and the iterations' range (min..max) is
    its run-to-run spread. A change is marked "~" when it lies within the
    spread of either side: the other column's mean inside the first
    column's range, or the first column's mean inside the other's. A side
    with one iteration has no spread. Tests one set lacks are shown as
    missing, never dropped.

    Rows: the combined MB/s of each test; for a test that mixes disk and
    network streams, the two classes' combined MB/s (one "disk/network"
    row in text, as the threads wrote "96/35"); and system CPU in percent
    when the results carry it (summary.sys_pct), skipped otherwise.

    Only the summaries are read, straight from the JSON, so that result
    files of other versions with more keys compare as well.
*/
#include "report.h"
#include "../aggregate.h"

#include <assert.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LABEL_MAX   200             //  a column's label
#define CELL_MAX    256             //  a text cell

//  The figures a row can show.
typedef enum {
    FIGURE_COMBINED,                //  combined MB/s of the test
    FIGURE_DISK,                    //  combined MB/s of its disk streams
    FIGURE_NETWORK,                 //  combined MB/s of its network streams
    FIGURE_SYS,                     //  system CPU, %
    FIGURES
} figure_t;

static const char *const s_figure_names [FIGURES] = {
    "MB/s", "disk MB/s", "network MB/s", "%sys"
};

//  One figure of one test over its iterations in one set.
typedef struct {
    size_t count;                   //  iterations with a value
    double sum;                     //  of the values
    double min;                     //  smallest value
    double max;                     //  largest value
} spread_t;

//  One test of one set.
typedef struct {
    char name [JOB_NAME_MAX + 1];   //  test name
    spread_t figure [FIGURES];      //  per figure
    bool mixed;                     //  has disk and network streams
} set_test_t;

//  One result file.
typedef struct {
    const char *path;               //  where it came from
    char label [LABEL_MAX];         //  column heading
    char kernels [LABEL_MAX];       //  agents' kernel releases, joined
    set_test_t *tests;              //  distinct tests, in the order they ran
    size_t test_count;
} set_t;

//  One cell of the comparison: a test's figure in one set.
typedef struct {
    bool missing;                   //  the set has no value for it
    spread_t spread;                //  the iterations
    double change_pct;              //  against the first set; NAN if none
    bool within_spread;             //  the change is within run-to-run spread
} cell_t;


//  --------------------------------------------------------------------------
//  Loading

//  Add a value to a spread, unless it is not a number.
static void
s_spread_add (spread_t *spread, json_t *value)
{
    if (!json_is_number (value))
        return;
    double number = json_number_value (value);
    if (!isfinite (number))
        return;
    if (spread->count == 0 || number < spread->min)
        spread->min = number;
    if (spread->count == 0 || number > spread->max)
        spread->max = number;
    spread->sum += number;
    spread->count++;
}

//  The test of a set with a name, added if new; NULL when memory ran out.
static set_test_t *
s_set_test (set_t *set, const char *name)
{
    for (size_t nbr = 0; nbr < set->test_count; nbr++)
        if (!strcmp (set->tests [nbr].name, name))
            return &set->tests [nbr];
    set_test_t *tests = realloc (set->tests, (set->test_count + 1) * sizeof *tests);
    if (!tests)
        return NULL;
    set->tests = tests;
    set_test_t *test = &tests [set->test_count++];
    memset (test, 0, sizeof *test);
    snprintf (test->name, sizeof test->name, "%s", name);
    return test;
}

//  Join the distinct kernel releases of the agents: "6.1.0-18-amd64".
static void
s_kernels (set_t *set, json_t *agents)
{
    size_t used = 0;
    set->kernels [0] = 0;
    for (size_t nbr = 0; nbr < json_array_size (agents); nbr++) {
        const char *kernel = json_string_value (json_object_get (json_array_get (agents, nbr),
                                                                 "kernel"));
        if (!kernel || !kernel [0])
            continue;
        //  Each release once, however many agents run it.
        bool seen = false;
        for (size_t before = 0; before < nbr && !seen; before++) {
            const char *other = json_string_value (
                json_object_get (json_array_get (agents, before), "kernel"));
            seen = other && !strcmp (other, kernel);
        }
        if (!seen && used < sizeof set->kernels)
            used += (size_t) snprintf (set->kernels + used, sizeof set->kernels - used,
                                       "%s%s", used? "+": "", kernel);
    }
}

//  Read one results file's summaries into set.
static int
s_load (set_t *set, const char *path, char *err, size_t errlen)
{
    set->path = path;
    json_error_t error;
    json_t *root = json_load_file (path, 0, &error);
    if (!root) {
        if (error.line < 0 && errno)
            snprintf (err, errlen, "%s: %s", path, strerror (errno));
        else
            snprintf (err, errlen, "%s:%d:%d: %s", path, error.line, error.column, error.text);
        return -1;
    }
    int rc = -1;
    json_t *tests = json_object_get (root, "tests");
    json_t *agents = json_object_get (root, "agents");
    if (!json_is_object (root) || !json_is_array (tests) || !json_is_array (agents)) {
        snprintf (err, errlen, "%s: not an iofleet results file (no tests and agents arrays)",
                  path);
        goto done;
    }
    s_kernels (set, agents);
    for (size_t nbr = 0; nbr < json_array_size (tests); nbr++) {
        json_t *test = json_array_get (tests, nbr);
        const char *name = json_string_value (json_object_get (test, "name"));
        json_t *summary = json_object_get (test, "summary");
        if (!name || !json_is_object (summary)) {
            snprintf (err, errlen, "%s: tests[%zu]: expected a name and a summary", path, nbr);
            goto done;
        }
        if (strlen (name) > JOB_NAME_MAX) {
            snprintf (err, errlen, "%s: tests[%zu].name: longer than %d bytes",
                      path, nbr, JOB_NAME_MAX);
            goto done;
        }
        set_test_t *figures = s_set_test (set, name);
        if (!figures) {
            snprintf (err, errlen, "%s: %s", path, strerror (ENOMEM));
            goto done;
        }
        json_t *disk = json_object_get (summary, "disk");
        json_t *network = json_object_get (summary, "network");
        s_spread_add (&figures->figure [FIGURE_COMBINED], json_object_get (summary, "combined_mbps"));
        s_spread_add (&figures->figure [FIGURE_SYS], json_object_get (summary, "sys_pct"));
        if (json_integer_value (json_object_get (disk, "streams")) > 0
        &&  json_integer_value (json_object_get (network, "streams")) > 0) {
            figures->mixed = true;
            s_spread_add (&figures->figure [FIGURE_DISK], json_object_get (disk, "combined_mbps"));
            s_spread_add (&figures->figure [FIGURE_NETWORK],
                          json_object_get (network, "combined_mbps"));
        }
    }
    rc = 0;
done:
    json_decref (root);
    return rc;
}

//  Label the columns: the given labels, else the kernel releases, else
//  the file names; a label seen before gets " #2", " #3".
static void
s_label (set_t *sets, size_t count, const char *const *labels)
{
    for (size_t nbr = 0; nbr < count; nbr++) {
        const char *base = strrchr (sets [nbr].path, '/');
        const char *label = labels? labels [nbr]:
                            sets [nbr].kernels [0]? sets [nbr].kernels:
                            base? base + 1: sets [nbr].path;
        snprintf (sets [nbr].label, sizeof sets [nbr].label, "%s", label);
        size_t same = 1;
        for (size_t before = 0; before < nbr; before++) {
            const char *other = labels? labels [before]:
                                sets [before].kernels [0]? sets [before].kernels: NULL;
            if (other && !strcmp (other, label))
                same++;
        }
        if (same > 1) {
            char numbered [LABEL_MAX + 16];
            snprintf (numbered, sizeof numbered, "%s #%zu", label, same);
            snprintf (sets [nbr].label, sizeof sets [nbr].label, "%s", numbered);
        }
    }
}


//  --------------------------------------------------------------------------
//  The comparison

//  A row of the table: a test's figure.
typedef struct {
    const char *test;               //  test name (borrowed from a set)
    figure_t figure;                //  which figure
} row_t;

//  The mean of a spread.
static double
s_mean (const spread_t *spread)
{
    return spread->count? spread->sum / (double) spread->count: NAN;
}

//  Whether value lies within a spread of at least two iterations.
static bool
s_inside (const spread_t *spread, double value)
{
    return spread->count > 1 && value >= spread->min && value <= spread->max;
}

//  The cell of a row in set nbr, against the same row in set 0.
static cell_t
s_cell (const set_t *sets, size_t nbr, const row_t *row)
{
    cell_t cell = { .missing = true, .change_pct = NAN };
    const spread_t *base = NULL;
    for (size_t test = 0; test < sets [0].test_count; test++)
        if (!strcmp (sets [0].tests [test].name, row->test))
            base = &sets [0].tests [test].figure [row->figure];
    for (size_t test = 0; test < sets [nbr].test_count; test++)
        if (!strcmp (sets [nbr].tests [test].name, row->test)) {
            cell.spread = sets [nbr].tests [test].figure [row->figure];
            cell.missing = cell.spread.count == 0;
        }
    if (nbr == 0 || cell.missing || !base || base->count == 0)
        return cell;
    double first = s_mean (base);
    double mean = s_mean (&cell.spread);
    if (first != 0)
        cell.change_pct = (mean - first) / first * 100;
    cell.within_spread = s_inside (base, mean) || s_inside (&cell.spread, first);
    return cell;
}

//  Whether any set has a figure for a test.
static bool
s_any (const set_t *sets, size_t count, const char *test, figure_t figure)
{
    for (size_t nbr = 0; nbr < count; nbr++)
        for (size_t t = 0; t < sets [nbr].test_count; t++)
            if (!strcmp (sets [nbr].tests [t].name, test)
            &&  sets [nbr].tests [t].figure [figure].count)
                return true;
    return false;
}

//  The rows: every test of every set, in the order of the first set and
//  then of those that follow; its figures in a fixed order. A test that
//  no set has a combined rate for is still listed: as missing everywhere.
static row_t *
s_rows (const set_t *sets, size_t count, size_t *row_count)
{
    size_t capacity = 0;
    for (size_t nbr = 0; nbr < count; nbr++)
        capacity += sets [nbr].test_count * FIGURES;
    row_t *rows = (row_t *) calloc (capacity? capacity: 1, sizeof (row_t));
    *row_count = 0;
    if (!rows)
        return NULL;
    for (size_t nbr = 0; nbr < count; nbr++)
        for (size_t t = 0; t < sets [nbr].test_count; t++) {
            const char *name = sets [nbr].tests [t].name;
            bool listed = false;
            for (size_t row = 0; row < *row_count && !listed; row++)
                listed = !strcmp (rows [row].test, name);
            if (listed)
                continue;
            for (int figure = 0; figure < FIGURES; figure++)
                if (figure == FIGURE_COMBINED || s_any (sets, count, name, (figure_t) figure))
                    rows [(*row_count)++] = (row_t) { name, (figure_t) figure };
        }
    return rows;
}


//  --------------------------------------------------------------------------
//  Formats

//  A figure's value as text: a rate as the reports write rates, %sys
//  with one decimal.
static void
s_value_text (figure_t figure, double value, char *buf, size_t buflen)
{
    if (figure == FIGURE_SYS)
        snprintf (buf, buflen, "%.1f", value);
    else
        aggregate_format_rate (value, buf, buflen);
}

//  A change as text: "+2.1%", with "~" when within spread.
static void
s_change_text (const cell_t *cell, char *buf, size_t buflen)
{
    if (isfinite (cell->change_pct))
        snprintf (buf, buflen, "%+.1f%%%s", cell->change_pct, cell->within_spread? "~": "");
    else
        buf [0] = 0;
}

//  A text cell of a row in set nbr: "97.1 +0.9%~", or "missing".
static void
s_cell_text (const set_t *sets, size_t nbr, const row_t *row, char *buf, size_t buflen)
{
    cell_t cell = s_cell (sets, nbr, row);
    if (cell.missing) {
        snprintf (buf, buflen, "missing");
        return;
    }
    char value [64], change [64];
    s_value_text (row->figure, s_mean (&cell.spread), value, sizeof value);
    s_change_text (&cell, change, sizeof change);
    snprintf (buf, buflen, "%s%s%s", value, change [0]? " ": "", change);
}

//  The text cells of a whole table, row 0 the header; in text the disk
//  and network rows of a test merge into one "disk/network" row. Returns
//  the number of rows filled.
static size_t
s_text_table (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
              char (*cells) [CELL_MAX], size_t columns)
{
    snprintf (cells [0], CELL_MAX, "test");
    snprintf (cells [1], CELL_MAX, "figure");
    for (size_t nbr = 0; nbr < count; nbr++)
        snprintf (cells [2 + nbr], CELL_MAX, "%s", sets [nbr].label);
    size_t line = 1;
    for (size_t row = 0; row < row_count; row++) {
        char (*out) [CELL_MAX] = cells + line * columns;
        bool pair = rows [row].figure == FIGURE_DISK && row + 1 < row_count
                 && rows [row + 1].figure == FIGURE_NETWORK
                 && !strcmp (rows [row + 1].test, rows [row].test);
        snprintf (out [0], CELL_MAX, "%s", rows [row].test);
        snprintf (out [1], CELL_MAX, "%s", pair? "disk/network": s_figure_names [rows [row].figure]);
        for (size_t nbr = 0; nbr < count; nbr++) {
            if (!pair) {
                s_cell_text (sets, nbr, &rows [row], out [2 + nbr], CELL_MAX);
                continue;
            }
            //  "98/33 +2.1%~/-5.7%", as the threads wrote mixed tests.
            cell_t disk = s_cell (sets, nbr, &rows [row]);
            cell_t network = s_cell (sets, nbr, &rows [row + 1]);
            if (disk.missing && network.missing) {
                snprintf (out [2 + nbr], CELL_MAX, "missing");
                continue;
            }
            char disk_value [64] = "-", network_value [64] = "-";
            char disk_change [64], network_change [64];
            if (!disk.missing)
                s_value_text (FIGURE_DISK, s_mean (&disk.spread), disk_value, sizeof disk_value);
            if (!network.missing)
                s_value_text (FIGURE_NETWORK, s_mean (&network.spread),
                              network_value, sizeof network_value);
            s_change_text (&disk, disk_change, sizeof disk_change);
            s_change_text (&network, network_change, sizeof network_change);
            if (nbr == 0 || (!disk_change [0] && !network_change [0]))
                snprintf (out [2 + nbr], CELL_MAX, "%s/%s", disk_value, network_value);
            else
                snprintf (out [2 + nbr], CELL_MAX, "%s/%s %s/%s", disk_value, network_value,
                          disk_change [0]? disk_change: "-",
                          network_change [0]? network_change: "-");
        }
        if (pair)
            row++;
        line++;
    }
    return line;
}

//  The note under a table that says how to read it.
static const char s_note [] =
    "values: mean of the iterations; change: against the first column; "
    "~: within the run-to-run spread (min..max of the iterations) of either side";

//  The table as aligned text columns.
static void
s_print_text (char (*cells) [CELL_MAX], size_t lines, size_t columns, FILE *out)
{
    size_t widths [columns];
    memset (widths, 0, sizeof widths);
    for (size_t line = 0; line < lines; line++)
        for (size_t column = 0; column < columns; column++) {
            size_t width = strlen (cells [line * columns + column]);
            widths [column] = width > widths [column]? width: widths [column];
        }
    for (size_t line = 0; line < lines; line++) {
        for (size_t column = 0; column < columns; column++) {
            const char *cell = cells [line * columns + column];
            if (column + 1 < columns)
                fprintf (out, "%-*s  ", (int) widths [column], cell);
            else
                fprintf (out, "%s\n", cell);
        }
    }
    fprintf (out, "\n%s\n", s_note);
}

//  The table as a small self-contained HTML page.
static void
s_print_html (char (*cells) [CELL_MAX], size_t lines, size_t columns, FILE *out)
{
    fputs ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<title>iofleet compare</title>\n<style>body{font:14px/1.45 system-ui,"
           "'DejaVu Sans',sans-serif;margin:1.5em}table{border-collapse:collapse}"
           "th,td{padding:.2em .8em;border-bottom:1px solid #ddd;text-align:left;"
           "white-space:nowrap}th{background:#f3f3f3}.note{color:#555}</style>\n"
           "</head>\n<body>\n<h1>iofleet compare</h1>\n<table>\n", out);
    for (size_t line = 0; line < lines; line++) {
        fputs ("<tr>", out);
        for (size_t column = 0; column < columns; column++) {
            fputs (line? "<td>": "<th>", out);
            for (const char *c = cells [line * columns + column]; *c; c++)
                switch (*c) {
                    case '&': fputs ("&amp;", out); break;
                    case '<': fputs ("&lt;", out); break;
                    case '>': fputs ("&gt;", out); break;
                    default: fputc (*c, out);
                }
            fputs (line? "</td>": "</th>", out);
        }
        fputs ("</tr>\n", out);
    }
    fprintf (out, "</table>\n<p class=\"note\">%s</p>\n</body>\n</html>\n", s_note);
}

//  A number for CSV, or an empty field.
static void
s_csv_number (double value, FILE *out)
{
    if (isfinite (value))
        fprintf (out, "%.6f", value);
}

//  One line per test, figure and set: every number, for scripts.
static void
s_print_csv (const set_t *sets, size_t count, const row_t *rows, size_t row_count, FILE *out)
{
    fputs ("test,figure,set,label,iterations,mean,min,max,change_pct,within_spread\r\n", out);
    for (size_t row = 0; row < row_count; row++)
        for (size_t nbr = 0; nbr < count; nbr++) {
            cell_t cell = s_cell (sets, nbr, &rows [row]);
            report_csv_text (rows [row].test, out);
            fprintf (out, ",%s,%zu,", s_figure_names [rows [row].figure], nbr + 1);
            report_csv_text (sets [nbr].label, out);
            fprintf (out, ",%zu,", cell.missing? 0: cell.spread.count);
            s_csv_number (cell.missing? NAN: s_mean (&cell.spread), out);
            fputc (',', out);
            s_csv_number (cell.missing? NAN: cell.spread.min, out);
            fputc (',', out);
            s_csv_number (cell.missing? NAN: cell.spread.max, out);
            fputc (',', out);
            s_csv_number (cell.change_pct, out);
            fprintf (out, ",%s\r\n", cell.within_spread? "true": "false");
        }
}

//  A number for JSON, or null.
static json_t *
s_json_number (double value)
{
    return isfinite (value)? json_real (value): json_null ();
}

//  The comparison as JSON: the sets, then the rows with a cell per set.
static int
s_print_json (const set_t *sets, size_t count, const row_t *rows, size_t row_count, FILE *out)
{
    json_t *root = json_object ();
    json_t *set_array = json_array ();
    json_t *row_array = json_array ();
    int rc = -1;
    if (!root || !set_array || !row_array)
        goto done;
    for (size_t nbr = 0; nbr < count; nbr++)
        json_array_append_new (set_array, json_pack ("{s:s?, s:s?, s:s?}",
            "label", sets [nbr].label, "file", sets [nbr].path, "kernels", sets [nbr].kernels));
    for (size_t row = 0; row < row_count; row++) {
        json_t *cells = json_array ();
        for (size_t nbr = 0; cells && nbr < count; nbr++) {
            cell_t cell = s_cell (sets, nbr, &rows [row]);
            json_array_append_new (cells, json_pack ("{s:s?, s:b, s:I, s:o, s:o, s:o, s:o, s:b}",
                "label", sets [nbr].label, "missing", cell.missing,
                "iterations", (json_int_t) (cell.missing? 0: cell.spread.count),
                "mean", s_json_number (cell.missing? NAN: s_mean (&cell.spread)),
                "min", s_json_number (cell.missing? NAN: cell.spread.min),
                "max", s_json_number (cell.missing? NAN: cell.spread.max),
                "change_pct", s_json_number (cell.change_pct),
                "within_spread", cell.within_spread));
        }
        json_array_append_new (row_array, json_pack ("{s:s?, s:s, s:o?}", "test", rows [row].test,
            "figure", s_figure_names [rows [row].figure], "cells", cells));
    }
    json_object_set (root, "sets", set_array);
    json_object_set (root, "rows", row_array);
    json_object_set_new (root, "spread", json_string ("min..max of the iterations"));
    char *text = json_dumps (root, JSON_INDENT (2));
    if (text) {
        fprintf (out, "%s\n", text);
        free (text);
        rc = 0;
    }
done:
    json_decref (set_array);
    json_decref (row_array);
    json_decref (root);
    return rc;
}


//  --------------------------------------------------------------------------
//  Entry

//  Load every file, build the rows, print them in the format asked.
int
report_compare (const char *const *paths, const char *const *labels, size_t count,
                const report_format_t *format, FILE *out, char *err, size_t errlen)
{
    assert (paths);
    assert (format);
    assert (count > 0);
    int rc = -1;
    row_t *rows = NULL;
    char (*cells) [CELL_MAX] = NULL;
    set_t *sets = (set_t *) calloc (count, sizeof (set_t));
    if (!sets) {
        snprintf (err, errlen, "compare: %s", strerror (ENOMEM));
        return -1;
    }
    for (size_t nbr = 0; nbr < count; nbr++)
        if (s_load (&sets [nbr], paths [nbr], err, errlen))
            goto done;
    s_label (sets, count, labels);
    size_t row_count;
    rows = s_rows (sets, count, &row_count);
    size_t columns = count + 2;
    cells = calloc ((row_count + 1) * columns, CELL_MAX);
    if (!rows || !cells) {
        snprintf (err, errlen, "compare: %s", strerror (ENOMEM));
        goto done;
    }
    switch (format->id) {
        case REPORT_FORMAT_TEXT:
        case REPORT_FORMAT_HTML: {
            size_t lines = s_text_table (sets, count, rows, row_count, cells, columns);
            if (format->id == REPORT_FORMAT_TEXT)
                s_print_text (cells, lines, columns, out);
            else
                s_print_html (cells, lines, columns, out);
            rc = 0;
            break;
        }
        case REPORT_FORMAT_CSV:
            s_print_csv (sets, count, rows, row_count, out);
            rc = 0;
            break;
        case REPORT_FORMAT_JSON:
            rc = s_print_json (sets, count, rows, row_count, out);
            if (rc)
                snprintf (err, errlen, "compare: %s", strerror (ENOMEM));
            break;
        case REPORT_FORMAT_COUNT:
            break;
    }
done:
    for (size_t nbr = 0; nbr < count; nbr++)
        free (sets [nbr].tests);
    free (sets);
    free (rows);
    free (cells);
    return rc;
}
