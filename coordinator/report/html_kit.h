/*  coordinator/report/html_kit.h: what every page iofleet writes is made
    of (the report, compare's table, history's figure): escaping, the
    page's head and end, round steps for an axis, a test's section head.
    One escaper for every page, so that no page lets a name from a peer
    or a file through raw.
*/
#ifndef IOFLEET_HTML_KIT_H
#define IOFLEET_HTML_KIT_H

#include "../results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

//  Text with the characters HTML gives meaning to escaped (& < > " '),
//  and control bytes and stray bytes written \xNN (proto/printable.h).
void html_escaped (const char *text, FILE *out);

//  The same for text of lines: each escaped, the line breaks kept.
void html_escaped_lines (const char *text, FILE *out);

//  The head of a page.
typedef struct {
    const char *title;              //  the title, as HTML (not escaped)
    const char *title_text;         //  text that follows it, escaped; NULL for none
    const char *css;                //  the page's style sheet, inline
    bool viewport;                  //  with a viewport for small screens
} html_page_t;

//  A self-contained page up to the opening of its body.
void html_page_begin (const html_page_t *page, FILE *out);

//  The end of the body and the page.
void html_page_end (FILE *out);

//  A round step for about ticks ticks over range: 1, 2 or 5 x 10^n; 1 for
//  a range that is not above 0.
double html_tick_step (double range, int ticks);

//  The opening of a test's section of the report: its name and
//  iterations.
void html_section_head (const test_result_t *tests, size_t count, FILE *out);

#endif
