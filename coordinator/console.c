/*  coordinator/console.c: the live status line; see console.h. */
#include "console.h"

#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

struct _console_t {
    FILE *out;                      //  where the status goes
    bool active;                    //  a terminal, and not quiet
    bool shown;                     //  a status line is on screen
};

console_t *
console_new (FILE *out, bool quiet)
{
    console_t *self = (console_t *) calloc (1, sizeof (console_t));
    if (self) {
        self->out = out;
        self->active = !quiet && isatty (fileno (out));
    }
    return self;
}

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

void
console_status (console_t *self, const char *format, ...)
{
    if (!self || !self->active)
        return;
    //  Carriage return and erase-to-end-of-line: the line is rewritten in
    //  place, whatever its previous length.
    fputs ("\r\033[K", self->out);
    va_list args;
    va_start (args, format);
    vfprintf (self->out, format, args);
    va_end (args);
    fflush (self->out);
    self->shown = true;
}

void
console_clear (console_t *self)
{
    if (self && self->active && self->shown) {
        fputs ("\r\033[K", self->out);
        fflush (self->out);
        self->shown = false;
    }
}
