/*  coordinator/compare/compare.c: results of several runs side by side
    (`iofleet compare`); see report.h.

    Makes a set of each run, the rows of the table from their tests,
    prints them in the format asked, then lets the gate judge the same
    rows; compare.h says which file does what.
*/
#include "compare.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

//  Compare runs: sets, rows, the table, then the gate.
int
compare_run (const run_result_t *runs, const char *const *origins,
                const char *const *labels, size_t count, const compare_options_t *options,
                FILE *out, FILE *log, char *err, size_t errlen)
{
    assert (runs && origins && options);
    assert (count > 0);
    int rc = -1;
    row_t *rows = NULL;
    set_t *sets = (set_t *) calloc (count, sizeof (set_t));
    if (!sets)
        goto done;
    compare_sets (sets, runs, origins, labels, count);
    size_t row_count;
    rows = compare_rows (sets, count, options->tests, options->test_count, &row_count);
    if (!rows)
        goto done;
    switch (options->format) {
        case REPORT_FORMAT_TEXT:
            rc = compare_print_text (sets, count, rows, row_count, out);
            break;
        case REPORT_FORMAT_HTML:
            rc = compare_print_html (sets, count, rows, row_count, out);
            break;
        case REPORT_FORMAT_CSV:
            rc = compare_print_csv (sets, count, rows, row_count, out);
            break;
        case REPORT_FORMAT_JSON:
            rc = compare_print_json (sets, count, rows, row_count, out);
            break;
        case REPORT_FORMAT_FIO_JSON:        //  exports of one run: refused by the command
        case REPORT_FORMAT_BONNIE_CSV:
        case REPORT_FORMAT_COUNT:
            break;
    }
    if (rc == 0)
        rc = compare_gate (sets, count, rows, row_count, options->bounds,
                           options->bound_count, log);
done:
    if (rc < 0)
        snprintf (err, errlen, "compare: %s", strerror (ENOMEM));
    free (sets);
    free (rows);
    return rc;
}
