/*  coordinator/engine/console.h: the live status while a test runs.

    Two modes. On a terminal, one status line rewritten in place each
    interval, cut at the terminal's width; when stdout is a file or a pipe, that mode stays silent, so
    that stdout carries nothing but the report. With lines on
    (`--progress=lines`), every status is a plain line on stderr instead,
    for logs and CI, whatever stdout is. Quiet (-q) silences both.
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

//  Print each status as a plain line on lines_out (stderr) instead of
//  rewriting one line in place; nothing changes when the console is quiet.
void console_set_lines (console_t *self, FILE *lines_out);

//  True if each status is a plain line (console_set_lines).
bool console_lines (const console_t *self);

//  Replace the status line (printf format). Does nothing when inactive.
void console_status (console_t *self, const char *format, ...)
    __attribute__ ((format (printf, 2, 3)));

//  Erase the status line, so that what follows starts on a clean line.
void console_clear (console_t *self);

#endif
