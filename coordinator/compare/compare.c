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

//  A format's printer of the table.
typedef int (compare_print_fn) (const set_t *sets, size_t count, const row_t *rows,
                                size_t row_count, FILE *out);

//  The printers, by format. The exports of one run (fio-json,
//  bonnie-csv) have none: the command refuses them.
static compare_print_fn *const s_printers [REPORT_FORMAT_COUNT] = {
    [REPORT_FORMAT_TEXT] = compare_print_text,
    [REPORT_FORMAT_HTML] = compare_print_html,
    [REPORT_FORMAT_CSV] = compare_print_csv,
    [REPORT_FORMAT_JSON] = compare_print_json,
};

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
    compare_print_fn *print = options->format < REPORT_FORMAT_COUNT?
                              s_printers [options->format]: NULL;
    if (print)
        rc = print (sets, count, rows, row_count, out);
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
