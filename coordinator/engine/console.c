/*  coordinator/engine/console.c: the live status line; see console.h. */
#include "console.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

//  The longest status line shown on a terminal.
#define CONSOLE_LINE_MAX 1024

struct _console_t {
    FILE *out;                      //  where the status goes
    bool active;                    //  a terminal, and not quiet
    bool shown;                     //  a status line is on screen
    bool quiet;                     //  -q: nothing at all
    FILE *lines_out;                //  plain lines go here, or NULL: in place
};

//  A console on out; in place on a terminal, silent elsewhere.
console_t *
console_new (FILE *out, bool quiet)
{
    console_t *self = (console_t *) calloc (1, sizeof (console_t));
    if (self) {
        self->out = out;
        self->quiet = quiet;
        self->active = !quiet && isatty (fileno (out));
    }
    return self;
}

//  Clear what is shown and free.
void
console_destroy (console_t **self_p)
{
    console_t *self = *self_p;
    if (self) {
        console_clear (self);
        free (self);
        *self_p = NULL;
    }
}

//  Switch to plain lines on lines_out.
void
console_set_lines (console_t *self, FILE *lines_out)
{
    if (!self || self->quiet)
        return;
    console_clear (self);
    self->lines_out = lines_out;
    self->active = false;
}

bool
console_lines (const console_t *self)
{
    return self && self->lines_out;
}

//  Show a status: a new line in lines mode, else the line rewritten.
void
console_status (console_t *self, const char *format, ...)
{
    if (self && self->lines_out) {
        va_list args;
        va_start (args, format);
        vfprintf (self->lines_out, format, args);
        va_end (args);
        fputc ('\n', self->lines_out);
        fflush (self->lines_out);
        return;
    }
    if (!self || !self->active)
        return;
    //  Carriage return and erase-to-end-of-line: the line is rewritten in
    //  place, whatever its previous length. A line wider than the
    //  terminal would wrap, and the erase would leave its first rows on
    //  screen: it is cut at the terminal's width.
    char line [CONSOLE_LINE_MAX];
    va_list args;
    va_start (args, format);
    vsnprintf (line, sizeof line, format, args);
    va_end (args);
    struct winsize size;
    if (ioctl (fileno (self->out), TIOCGWINSZ, &size) == 0 && size.ws_col > 1
    &&  strlen (line) >= size.ws_col)
        line [size.ws_col - 1] = '\0';
    fputs ("\r\033[K", self->out);
    fputs (line, self->out);
    fflush (self->out);
    self->shown = true;
}

//  Erase the status line if one is shown.
void
console_clear (console_t *self)
{
    if (self && self->active && self->shown) {
        fputs ("\r\033[K", self->out);
        fflush (self->out);
        self->shown = false;
    }
}
