/*  proto/append.h: text built up in a buffer of fixed size.

    A help text, a plan's columns, a report line are put together piece
    by piece into a buffer that may turn out too small: what does not fit
    is left out, the buffer stays terminated, and the count of bytes
    used never passes its end.
*/
#ifndef IOFLEET_APPEND_H
#define IOFLEET_APPEND_H

#include <stddef.h>

//  Append to buf (size bytes, *used of them taken) what format says, as
//  much as fits; *used grows by what was written and stays below size.
void append_printf (char *buf, size_t size, size_t *used, const char *format, ...)
    __attribute__ ((format (printf, 4, 5)));

#endif
