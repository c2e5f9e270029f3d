/*  coordinator/report/compare.h: the parts of `iofleet compare`, shared
    by its files and by nothing else; report.h declares the entry.

        compare_sets.c      reading result files into sets, labelling them
        compare_verdict.c   the rows, and each cell against the first set
        compare_text.c      the table as aligned text and as HTML
        compare_data.c      every number as CSV and as JSON
        compare.c           the entry: load, compare, print
*/
#ifndef IOFLEET_COMPARE_H
#define IOFLEET_COMPARE_H

#include "report.h"

#include <stdbool.h>
#include <stdio.h>

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

extern const char *const compare_figure_names [FIGURES];

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


//  A row of the table: a test's figure.
typedef struct {
    const char *test;               //  test name (borrowed from a set)
    figure_t figure;                //  which figure
} row_t;

//  Read one results file's summaries into set. Returns 0 or -1 with err.
int compare_load (set_t *set, const char *path, char *err, size_t errlen);

//  Label the columns: the given labels, else the kernel releases, else
//  the file names; a label seen before gets " #2", " #3".
void compare_label (set_t *sets, size_t count, const char *const *labels);

//  The mean of a spread.
double compare_mean (const spread_t *spread);

//  The cell of a row in set nbr, against the same row in set 0.
cell_t compare_cell (const set_t *sets, size_t nbr, const row_t *row);

//  The rows of the table; NULL when memory ran out.
row_t *compare_rows (const set_t *sets, size_t count, size_t *row_count);

//  A figure's value as text.
void compare_value_text (figure_t figure, double value, char *buf, size_t buflen);

//  The text cells of a whole table, row 0 the header. Returns the lines filled.
size_t compare_text_table (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                           char (*cells) [CELL_MAX], size_t columns);

//  The cells as aligned text columns, or as a small HTML page.
void compare_print_text (char (*cells) [CELL_MAX], size_t lines, size_t columns, FILE *out);
void compare_print_html (char (*cells) [CELL_MAX], size_t lines, size_t columns, FILE *out);

//  Every number as CSV, or as JSON (0, or -1 when memory ran out).
void compare_print_csv (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                        FILE *out);
int compare_print_json (const set_t *sets, size_t count, const row_t *rows, size_t row_count,
                        FILE *out);

#endif
