/*  proto/printable.h: text from a file or the wire, made safe to print.

    A scenario file may hold binary garbage, and an agent may send names,
    paths and errors with any bytes in them: printed raw, a control byte
    can rewrite a terminal (ESC sequences), break a line or a table. What
    is printed goes through here: valid UTF-8 is kept as it is, and every
    control byte (C0, DEL, the C1 range) and every byte that is not part
    of valid UTF-8 is written as \xNN.
*/
#ifndef IOFLEET_PRINTABLE_H
#define IOFLEET_PRINTABLE_H

#include <stddef.h>

//  Bytes one input byte may take once made printable ("\xNN").
#define PRINTABLE_GROWTH 4

//  The printable form of the character at text (left bytes remain, at
//  least 1) into out, NUL-terminated; returns the input bytes it took.
//  out must hold PRINTABLE_GROWTH + 1 bytes.
size_t printable_char (const char *text, size_t left, char *out);

//  len bytes of text, made printable, into buf (buflen bytes, at least 4).
//  What does not fit is cut at a character and marked with "...".
//  Returns buf.
char *printable_copy (const char *text, size_t len, char *buf, size_t buflen);

//  printable_copy of a NUL-terminated string.
char *printable (const char *text, char *buf, size_t buflen);

#endif
