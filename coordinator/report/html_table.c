/*  coordinator/report/html_table.c: the text report's tables and lines on
    the page; see html.h.

    A table is the text's own model (text.h): the function that makes its
    rows for report.txt makes them here, and each cell is printed escaped,
    a figure right-aligned. Lines the text prints as prose (warnings, how a
    test stopped, the seeds' notations) are taken as the text prints them
    and set as preformatted lines, so that the page says what the text
    says, in its words and figures.
*/
#include "html.h"

#include <stdlib.h>
#include <string.h>

//  Whether a cell holds a figure: a digit first, after a sign or "≥ ".
static bool
s_figure (const char *cell)
{
    if (!strncmp (cell, "≥ ", strlen ("≥ ")))
        cell += strlen ("≥ ");
    if (*cell == '-' || *cell == '+')
        cell++;
    return *cell >= '0' && *cell <= '9';
}

void
html_table_print (const table_t *table, const char *what, FILE *out)
{
    bool folded = what && table->rows > HTML_TABLE_UNFOLDED;
    if (folded)
        fprintf (out, "<details><summary>%zu %s</summary>\n", table->rows, what);
    fputs ("<table>\n", out);
    table_row_t row;
    for (size_t row_nbr = 0; row_nbr <= table->rows; row_nbr++) {
        memset (&row, 0, sizeof row);
        table->fill (table->data, row_nbr, &row);
        fputs ("<tr>", out);
        for (size_t column = 0; column < table->columns; column++) {
            const char *tag = row_nbr == 0? "th": "td";
            bool figure = row_nbr > 0 && s_figure (row.cell [column]);
            fprintf (out, "<%s%s>", tag, figure? " class=\"n\"": "");
            html_escaped (row.cell [column], out);
            fprintf (out, "</%s>", tag);
        }
        fputs ("</tr>\n", out);
    }
    fputs (folded? "</table>\n</details>\n": "</table>\n", out);
}

FILE *
html_capture_begin (html_capture_t *capture)
{
    *capture = (html_capture_t) { 0 };
    capture->mem = open_memstream (&capture->text, &capture->length);
    return capture->mem;
}

bool
html_capture_end (html_capture_t *capture, const char *heading, const char *kind, FILE *out)
{
    if (!capture->mem)
        return false;
    fclose (capture->mem);
    capture->mem = NULL;
    const char *text = capture->text? capture->text: "";
    while (*text == '\n')
        text++;
    size_t length = strlen (text);
    while (length > 0 && text [length - 1] == '\n')
        length--;
    bool printed = length > 0;
    if (printed) {
        if (heading)
            fprintf (out, "<h2>%s</h2>\n", heading);
        fprintf (out, "<pre class=\"%s\">", kind);
        capture->text [text - capture->text + length] = 0;
        html_escaped_lines (text, out);
        fputs ("</pre>\n", out);
    }
    free (capture->text);
    capture->text = NULL;
    return printed;
}
