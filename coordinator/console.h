/*  coordinator/console.h: the live one-line status while a test runs.

    Only on a terminal: when stdout is a file or a pipe, the console stays
    silent and stdout carries nothing but the report.
*/
#ifndef IOFLEET_CONSOLE_H
#define IOFLEET_CONSOLE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct _console_t console_t;

//  A console writing to out; active only if out is a terminal and not quiet.
console_t *console_new (FILE *out, bool quiet);

//  Destroy; clears any status line left. Safe on NULL, nulls the pointer.
void console_destroy (console_t **self_p);

//  Replace the status line (printf format). Does nothing when inactive.
void console_status (console_t *self, const char *format, ...)
    __attribute__ ((format (printf, 2, 3)));

//  Erase the status line, so that what follows starts on a clean line.
void console_clear (console_t *self);

#endif
