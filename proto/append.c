/*  proto/append.c: text built up in a buffer of fixed size; see append.h. */
#include "append.h"

#include <stdarg.h>
#include <stdio.h>

void
append_printf (char *buf, size_t size, size_t *used, const char *format, ...)
{
    if (*used >= size)
        return;                     //  only a buffer of no bytes at all
    va_list args;
    va_start (args, format);
    int len = vsnprintf (buf + *used, size - *used, format, args);
    va_end (args);
    if (len > 0)
        *used = *used + (size_t) len < size? *used + (size_t) len: size - 1;
}
