/*  coordinator/report/compare_data.c: every number of the comparison, as
    CSV and as JSON, for programs; see compare.h.
*/
#include "compare.h"
#include "../aggregate.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//  A number for CSV, or an empty field.
static void
s_csv_number (double value, FILE *out)
{
    if (isfinite (value))
        fprintf (out, "%.6f", value);
}

//  One line per test, figure and set: every number, for scripts.
void
compare_print_csv (const set_t *sets, size_t count, const row_t *rows, size_t row_count, FILE *out)
{
    fputs ("test,figure,set,label,iterations,mean,min,max,change_pct,within_spread\r\n", out);
    for (size_t row = 0; row < row_count; row++)
        for (size_t nbr = 0; nbr < count; nbr++) {
            cell_t cell = compare_cell (sets, nbr, &rows [row]);
            report_csv_text (rows [row].test, out);
            fprintf (out, ",%s,%zu,", compare_figure_names [rows [row].figure], nbr + 1);
            report_csv_text (sets [nbr].label, out);
            fprintf (out, ",%zu,", cell.missing? 0: cell.spread.count);
            s_csv_number (cell.missing? NAN: compare_mean (&cell.spread), out);
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
int
compare_print_json (const set_t *sets, size_t count, const row_t *rows, size_t row_count, FILE *out)
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
            cell_t cell = compare_cell (sets, nbr, &rows [row]);
            json_array_append_new (cells, json_pack ("{s:s?, s:b, s:I, s:o, s:o, s:o, s:o, s:b}",
                "label", sets [nbr].label, "missing", cell.missing,
                "iterations", (json_int_t) (cell.missing? 0: cell.spread.count),
                "mean", s_json_number (cell.missing? NAN: compare_mean (&cell.spread)),
                "min", s_json_number (cell.missing? NAN: cell.spread.min),
                "max", s_json_number (cell.missing? NAN: cell.spread.max),
                "change_pct", s_json_number (cell.change_pct),
                "within_spread", cell.within_spread));
        }
        json_array_append_new (row_array, json_pack ("{s:s?, s:s, s:o?}", "test", rows [row].test,
            "figure", compare_figure_names [rows [row].figure], "cells", cells));
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

