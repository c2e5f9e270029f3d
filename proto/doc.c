/*  proto/doc.c: --help rows and roff for the manual pages; see doc.h. */
#include "doc.h"
#include "version.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

//  --------------------------------------------------------------------
//  Plain text for --help

//  Write text wrapped to DOC_HELP_WIDTH, every line after the first
//  indented to column; the first line starts at column `at`.
static void
s_wrap (FILE *out, const char *text, int at, int column)
{
    int width = DOC_HELP_WIDTH - column;
    if (width < 20)
        width = 20;
    int used = at - column;         //  characters already on this line
    const char *word = text;
    while (*word) {
        while (*word == ' ')
            word++;
        size_t len = strcspn (word, " ");
        if (len == 0)
            break;
        if (used > 0 && used + 1 + (int) len > width) {
            fprintf (out, "\n%*s", column, "");
            used = 0;
        }
        else
        if (used > 0) {
            fputc (' ', out);
            used++;
        }
        fwrite (word, 1, len, out);
        used += (int) len;
        word += len;
    }
    fputc ('\n', out);
}

void
doc_help_row (FILE *out, int indent, const char *left, int column, const char *text)
{
    int at = fprintf (out, "%*s%s", indent, "", left);
    if (!text || !*text) {
        fputc ('\n', out);
        return;
    }
    if (at > 0 && at + 1 >= column) {
        fprintf (out, "\n%*s", column, "");
        at = column;
    }
    else {
        fprintf (out, "%*s", column - at, "");
        at = column;
    }
    s_wrap (out, text, at, column);
}

void
doc_option_notes (const opt_def_t *opt, char *buf, size_t buflen)
{
    size_t used = 0;
    buf [0] = 0;
    if (opt->default_text && opt->default_text [0])
        used += (size_t) snprintf (buf, buflen, " (default %s)", opt->default_text);
    if (opt->choices && used < buflen) {
        used += (size_t) snprintf (buf + used, buflen - used, " [");
        for (const char *const *choice = opt->choices; *choice && used < buflen; choice++)
            used += (size_t) snprintf (buf + used, buflen - used, "%s%s",
                                       choice == opt->choices? "": "|", *choice);
        if (used < buflen)
            snprintf (buf + used, buflen - used, "]");
    }
}

const char *
doc_option_unit (const opt_def_t *opt)
{
    switch (opt->type) {
        case OPT_STRING:
            return "text";
        case OPT_SIZE:
            return "bytes: 4096, 4K, 1M, 5.2G; K, M, G, T and P are powers of 1024, "
                   "with or without B or iB";
        case OPT_COUNT:
            return "a whole number";
        case OPT_BOOL:
            return "yes or no (also true/false, on/off, 1/0)";
        case OPT_ENUM:
            return "one of the names listed";
        case OPT_DURATION:
            return "a duration: 100us, 250ms, 1.5s, 2m, 1h; a bare number is seconds";
        case OPT_DECIMAL:
            return "a decimal number: 1, 1.5, 0.25 (six decimals kept)";
    }
    return "";
}

//  --------------------------------------------------------------------
//  Roff

//  Write len bytes of text escaped for roff. A '-' that starts a word is
//  a minus (flags: --bind, -o) and is written \-; one inside a word is a
//  hyphen and stays.
static void
s_escape (FILE *out, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = text [i];
        bool word_start = i == 0 || isspace ((unsigned char) text [i - 1])
                       || text [i - 1] == '(' || text [i - 1] == '-' || text [i - 1] == '[';
        if (c == '\\')
            fputs ("\\e", out);
        else
        if (c == '-' && word_start)
            fputs ("\\-", out);
        else
            fputc (c, out);
    }
}

void
doc_roff_escape (FILE *out, const char *text)
{
    //  A line of text that starts with a dot or a quote would be a request.
    if (text [0] == '.' || text [0] == '\'')
        fputs ("\\&", out);
    s_escape (out, text, strlen (text));
}

void
doc_roff_header (FILE *out, const char *name, int section, const char *title)
{
    char upper [64];
    size_t i;
    for (i = 0; name [i] && i < sizeof (upper) - 1; i++)
        upper [i] = (char) toupper ((unsigned char) name [i]);
    upper [i] = 0;
    fprintf (out, ".\\\" Generated from the program's own tables; do not edit.\n");
    fprintf (out, ".TH %s %d \"\" \"iofleet %s\" \"%s\"\n", upper, section,
             IOFLEET_VERSION, title);
}

void
doc_roff_section (FILE *out, const char *heading)
{
    fprintf (out, ".SH %s\n", heading);
}

//  Write one line of prose, escaped, starting a roff line.
static void
s_roff_line (FILE *out, const char *line, size_t len)
{
    if (len && (line [0] == '.' || line [0] == '\''))
        fputs ("\\&", out);
    s_escape (out, line, len);
    fputc ('\n', out);
}

//  Write paragraphs of prose, each after the first (and each verbatim
//  one) starting with the request `separator` (.PP, or .IP inside an
//  item to keep its indent).
static void
s_roff_paragraphs (FILE *out, const char *text, const char *separator)
{
    const char *paragraph = text;
    bool first = true;
    while (*paragraph) {
        const char *end = strstr (paragraph, "\n\n");
        size_t len = end? (size_t) (end - paragraph): strlen (paragraph);
        bool verbatim = len >= 2 && paragraph [0] == ' ' && paragraph [1] == ' ';
        if (!first || verbatim)
            fprintf (out, "%s\n%s", separator, verbatim? ".RS 4\n.nf\n": "");
        const char *line = paragraph;
        while (line < paragraph + len) {
            const char *newline = memchr (line, '\n', (size_t) (paragraph + len - line));
            size_t line_len = newline? (size_t) (newline - line)
                                     : (size_t) (paragraph + len - line);
            if (verbatim && line_len >= 2)
                s_roff_line (out, line + 2, line_len - 2);
            else
                s_roff_line (out, line, line_len);
            line += line_len + (newline? 1: 0);
        }
        if (verbatim)
            fputs (".fi\n.RE\n", out);
        first = false;
        paragraph += len;
        while (*paragraph == '\n')
            paragraph++;
    }
}

void
doc_roff_text (FILE *out, const char *text)
{
    s_roff_paragraphs (out, text, ".PP");
}

void
doc_roff_item (FILE *out, const char *tag, const char *arg, const char *body)
{
    fputs (".TP\n\\fB", out);
    s_escape (out, tag, strlen (tag));
    fputs ("\\fR", out);
    if (arg) {
        fputs (" \\fI", out);
        s_escape (out, arg, strlen (arg));
        fputs ("\\fR", out);
    }
    fputc ('\n', out);
    if (body)
        s_roff_paragraphs (out, body, ".IP");
}
