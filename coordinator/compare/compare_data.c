/*  coordinator/compare/compare_data.c: every number of the comparison, as
    CSV and as JSON, for programs; see compare.h.

    One record per row and set, with the values' count, median, range and
    stddev, the change, and the verdict: "real" or "noise", whether it is
    strong (the Mann-Whitney test decided) or weak (min..max), its p-value
    and its interval. A missing value is an empty field, or null.
*/
#include "compare.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//  Row kinds as the data names them.
static const char *const s_kind_names [] = { "main", "spread", "first run" };

//  "real", "noise", or NULL for a cell without a verdict.
static const char *
s_verdict_name (const cell_t *cell)
{
    return cell->judged? (cell->verdict.real? "real": "noise"): NULL;
}

//  A number for CSV, or an empty field.
static void
s_csv_number (double value, FILE *out)
{
    fputc (',', out);
    if (isfinite (value))
        fprintf (out, "%.6f", value);
}

//  One line per row and set: every number, for scripts.
int
compare_print_csv (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                   FILE *out)
{
    fputs ("test,figure,kind,set,label,values,median,min,max,stddev,change_pct,"
           "verdict,strong,p_value,interval_low_pct,interval_high_pct,confidence,"
           "within_spread\r\n", out);
    for (size_t row = 0; row < row_count; row++)
        for (size_t nbr = 0; nbr < count; nbr++) {
            cell_t cell;
            if (compare_cell (sets, nbr, &rows [row], &cell))
                return -1;
            const char *verdict = s_verdict_name (&cell);
            csv_field (rows [row].test, out);
            fputc (',', out);
            csv_field (rows [row].metric->name, out);
            fprintf (out, ",%s,%zu,", s_kind_names [rows [row].kind], nbr + 1);
            csv_field (sets [nbr].label, out);
            fprintf (out, ",%zu", cell.count);
            s_csv_number (cell.median, out);
            s_csv_number (cell.min, out);
            s_csv_number (cell.max, out);
            s_csv_number (cell.stddev, out);
            s_csv_number (cell.change_pct, out);
            fprintf (out, ",%s,%s", verdict? verdict: "",
                     cell.judged? (cell.verdict.strong? "true": "false"): "");
            //  Only a judged cell has a test's figures; the base has none.
            s_csv_number (cell.judged? cell.verdict.p_value: NAN, out);
            s_csv_number (cell.judged? cell.verdict.low_pct: NAN, out);
            s_csv_number (cell.judged? cell.verdict.high_pct: NAN, out);
            s_csv_number (cell.judged? cell.verdict.confidence: NAN, out);
            fprintf (out, ",%s\r\n", verdict && !cell.verdict.real? "true": "false");
        }
    return 0;
}

//  A number for JSON, or null.
static json_t *
s_json_number (double value)
{
    return isfinite (value)? json_real (value): json_null ();
}

//  One cell as JSON; NULL when memory ran out.
static json_t *
s_cell_json (const set_t *set, const cell_t *cell)
{
    const char *verdict = s_verdict_name (cell);
    return json_pack ("{s:s, s:b, s:I, s:o, s:o, s:o, s:o, s:o, s:s?, s:o, s:o, s:o, s:o, s:o,"
                      " s:b}",
        "label", set->label, "missing", cell->missing, "values", (json_int_t) cell->count,
        "median", s_json_number (cell->median), "min", s_json_number (cell->min),
        "max", s_json_number (cell->max), "stddev", s_json_number (cell->stddev),
        "change_pct", s_json_number (cell->change_pct), "verdict", verdict,
        "strong", cell->judged? json_boolean (cell->verdict.strong): json_null (),
        "p_value", s_json_number (cell->judged? cell->verdict.p_value: NAN),
        "interval_low_pct", s_json_number (cell->judged? cell->verdict.low_pct: NAN),
        "interval_high_pct", s_json_number (cell->judged? cell->verdict.high_pct: NAN),
        "confidence", s_json_number (cell->judged? cell->verdict.confidence: NAN),
        "within_spread", verdict && !cell->verdict.real);
}

//  The comparison as JSON: the sets, the test used, then the rows with a
//  cell per set.
int
compare_print_json (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                    FILE *out)
{
    json_t *root = json_pack ("{s:[], s:{s:s, s:f, s:i, s:s}, s:[]}", "sets",
        "test", "name", "Mann-Whitney U, two-sided, exact with ties", "alpha", STATS_ALPHA,
        "min_values", STATS_STRONG_MIN, "weak", "min..max of the values", "rows");
    if (!root)
        return -1;
    int rc = -1;
    json_t *set_array = json_object_get (root, "sets");
    json_t *row_array = json_object_get (root, "rows");
    for (size_t nbr = 0; nbr < count; nbr++)
        if (json_array_append_new (set_array, json_pack ("{s:s, s:s, s:s}",
                "label", sets [nbr].label, "file", sets [nbr].origin,
                "kernels", sets [nbr].kernels)))
            goto done;
    for (size_t row = 0; row < row_count; row++) {
        const metric_t *metric = rows [row].metric;
        json_t *cells = json_array ();
        if (!cells || json_array_append_new (row_array, json_pack ("{s:s, s:s, s:s, s:s, s:s, s:s, s:o}",
                "test", rows [row].test, "figure", metric->name,
                "kind", s_kind_names [rows [row].kind], "source", metric->source,
                "unit", metric->unit,
                "better", metric->better == METRIC_HIGHER_BETTER? "higher": "lower",
                "cells", cells)))
            goto done;
        for (size_t nbr = 0; nbr < count; nbr++) {
            cell_t cell;
            if (compare_cell (sets, nbr, &rows [row], &cell)
            ||  json_array_append_new (cells, s_cell_json (&sets [nbr], &cell)))
                goto done;
        }
    }
    //  ASCII only: JSON writes a C1 control (an 8-bit CSI) as it is,
    //  and this goes to a terminal as often as to a program.
    char *text = json_dumps (root, JSON_INDENT (2) | JSON_ENSURE_ASCII);
    if (text) {
        fprintf (out, "%s\n", text);
        free (text);
        rc = 0;
    }
done:
    json_decref (root);
    return rc;
}
