/*  coordinator/report/compare.c: results of several runs side by side
    (`iofleet compare`); see report.h.

    Loads every file into a set, builds the rows, and prints them in the
    format asked; compare.h says which file does what.
*/
#include "compare.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

//  --------------------------------------------------------------------------
//  Entry

//  Load every file, build the rows, print them in the format asked.
int
report_compare (const char *const *paths, const char *const *labels, size_t count,
                report_format_t format, FILE *out, char *err, size_t errlen)
{
    assert (paths);
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
        if (compare_load (&sets [nbr], paths [nbr], err, errlen))
            goto done;
    compare_label (sets, count, labels);
    size_t row_count;
    rows = compare_rows (sets, count, &row_count);
    size_t columns = count + 2;
    cells = calloc ((row_count + 1) * columns, CELL_MAX);
    if (!rows || !cells) {
        snprintf (err, errlen, "compare: %s", strerror (ENOMEM));
        goto done;
    }
    switch (format) {
        case REPORT_FORMAT_TEXT:
        case REPORT_FORMAT_HTML: {
            size_t lines = compare_text_table (sets, count, rows, row_count, cells, columns);
            if (format == REPORT_FORMAT_TEXT)
                compare_print_text (cells, lines, columns, out);
            else
                compare_print_html (cells, lines, columns, out);
            rc = 0;
            break;
        }
        case REPORT_FORMAT_CSV:
            compare_print_csv (sets, count, rows, row_count, out);
            rc = 0;
            break;
        case REPORT_FORMAT_JSON:
            rc = compare_print_json (sets, count, rows, row_count, out);
            if (rc)
                snprintf (err, errlen, "compare: %s", strerror (ENOMEM));
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
