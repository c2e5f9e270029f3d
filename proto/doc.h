/*  proto/doc.h: --help text and manual pages written from the same rows.

    The programs describe their flags and keys in tables (the job option
    table, the run options, the agent's settings, the commands of
    iofleet). The same rows are printed two ways: as wrapped plain text
    for --help, and as roff for the manual pages that `make` builds into
    build/man/. Nothing here knows a particular table.
*/
#ifndef IOFLEET_DOC_H
#define IOFLEET_DOC_H

#include "jobspec.h"

#include <stdio.h>

//  Width --help wraps its text to.
#define DOC_HELP_WIDTH 79

//  One --help row: left (e.g. "--bind ENDPOINT") at indent, then text
//  wrapped to DOC_HELP_WIDTH starting at column; a left part that reaches
//  the column puts the text on the next line.
void doc_help_row (FILE *out, int indent, const char *left, int column, const char *text);

//  What an option's default and choices add to its help: " (default 1M)",
//  " [none|end|close]". Written into buf; "" when there is nothing.
void doc_option_notes (const opt_def_t *opt, char *buf, size_t buflen);

//  The unit of an option's value as the manual states it: "bytes (4K, 1M,
//  5.2G: powers of 1024)", "a duration (250ms, 1s, 2m)", "yes or no" ...
const char *doc_option_unit (const opt_def_t *opt);

//  Roff: the page header (.TH) for name(section), with the version.
void doc_roff_header (FILE *out, const char *name, int section, const char *title);

//  Roff: a section heading (.SH).
void doc_roff_section (FILE *out, const char *heading);

//  Roff: prose. Paragraphs are separated by blank lines ("\n\n"); a
//  paragraph whose lines start with two spaces is printed as is (.nf),
//  for examples. Everything is escaped.
void doc_roff_text (FILE *out, const char *text);

//  Roff: one tagged paragraph (.TP): bold tag, then an italic argument
//  (NULL for none), then the body text.
void doc_roff_item (FILE *out, const char *tag, const char *arg, const char *body);

//  Roff: text escaped for use inside a line (backslashes, leading dots,
//  minus signs).
void doc_roff_escape (FILE *out, const char *text);

#endif
