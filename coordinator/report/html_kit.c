/*  coordinator/report/html_kit.c: the pieces every page is made of; see
    html_kit.h.
*/
#include "html_kit.h"
#include "../../proto/printable.h"

#include <math.h>
#include <string.h>

//  length bytes of text escaped for HTML.
static void
s_escaped (const char *text, size_t left, FILE *out)
{
    while (left > 0) {
        char piece [PRINTABLE_GROWTH + 1];
        size_t taken = printable_char (text, left, piece);
        switch (piece [0]) {
            case '&': fputs ("&amp;", out); break;
            case '<': fputs ("&lt;", out); break;
            case '>': fputs ("&gt;", out); break;
            case '"': fputs ("&quot;", out); break;
            case '\'': fputs ("&#39;", out); break;
            default: fputs (piece, out);
        }
        text += taken;
        left -= taken;
    }
}

void
html_escaped (const char *text, FILE *out)
{
    s_escaped (text, strlen (text), out);
}

//  Each line escaped, the breaks between them kept.
void
html_escaped_lines (const char *text, FILE *out)
{
    while (*text) {
        const char *end = strchrnul (text, '\n');
        s_escaped (text, (size_t) (end - text), out);
        if (!*end)
            break;
        fputc ('\n', out);
        text = end + 1;
    }
}

//  The page up to its body.
void
html_page_begin (const html_page_t *page, FILE *out)
{
    fputs ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", out);
    if (page->viewport)
        fputs ("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", out);
    fprintf (out, "<title>%s", page->title);
    if (page->title_text)
        html_escaped (page->title_text, out);
    fprintf (out, "</title>\n<style>%s</style>\n</head>\n<body>\n", page->css);
}

void
html_page_end (FILE *out)
{
    fputs ("</body>\n</html>\n", out);
}

//  1, 2 or 5 x 10^n, the smallest at least range / ticks.
double
html_tick_step (double range, int ticks)
{
    if (!(range > 0))
        return 1;
    double raw = range / ticks;
    double power = pow (10, floor (log10 (raw)));
    double fraction = raw / power;
    return power * (fraction <= 1? 1: fraction <= 2? 2: fraction <= 5? 5: 10);
}

//  The opening of a test's section: its name, and its iterations.
void
html_section_head (const test_result_t *tests, size_t count, FILE *out)
{
    fputs ("<section class=\"test\" data-test=\"", out);
    html_escaped (tests [0].name, out);
    fputs ("\">\n<h3>", out);
    html_escaped (tests [0].name, out);
    if (count > 1)
        fprintf (out, " (%zu iterations)", count);
    fputs ("</h3>\n", out);
}
