/*  proto/printable.c: text made safe to print; see printable.h. */
#include "printable.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#define CUT_MARK "..."

//  Length of the valid UTF-8 sequence of a character that is not a
//  control at p (left bytes remain), or 0. Overlong forms, surrogates
//  and code points past U+10FFFF are not valid (RFC 3629).
static size_t
s_utf8_length (const unsigned char *p, size_t left)
{
    unsigned char c = p [0];
    if (c >= 0x20 && c < 0x7f)
        return 1;
    size_t length;
    unsigned char low = 0x80, high = 0xbf;      //  range of the second byte
    if (c >= 0xc2 && c <= 0xdf)
        length = 2;
    else
    if (c >= 0xe0 && c <= 0xef) {
        length = 3;
        low = c == 0xe0? 0xa0: 0x80;
        high = c == 0xed? 0x9f: 0xbf;
    }
    else
    if (c >= 0xf0 && c <= 0xf4) {
        length = 4;
        low = c == 0xf0? 0x90: 0x80;
        high = c == 0xf4? 0x8f: 0xbf;
    }
    else
        return 0;                               //  C0, DEL, a stray byte
    if (left < length || p [1] < low || p [1] > high)
        return 0;
    for (size_t i = 2; i < length; i++)
        if (p [i] < 0x80 || p [i] > 0xbf)
            return 0;
    //  U+0080 .. U+009F are the C1 controls (CSI among them).
    if (c == 0xc2 && p [1] <= 0x9f)
        return 0;
    return length;
}

//  One character, printable.
size_t
printable_char (const char *text, size_t left, char *out)
{
    assert (text && left > 0 && out);
    size_t length = s_utf8_length ((const unsigned char *) text, left);
    if (length == 0) {
        snprintf (out, PRINTABLE_GROWTH + 1, "\\x%02X", (unsigned char) text [0]);
        return 1;
    }
    memcpy (out, text, length);
    out [length] = 0;
    return length;
}

//  len bytes, printable, cut with a mark to fit.
char *
printable_copy (const char *text, size_t len, char *buf, size_t buflen)
{
    assert (text || len == 0);
    assert (buf && buflen >= sizeof CUT_MARK);
    char piece [PRINTABLE_GROWTH + 1];
    size_t whole = 0;
    for (size_t at = 0; at < len; whole += strlen (piece))
        at += printable_char (text + at, len - at, piece);
    //  Text that does not fit keeps room for the mark after its last
    //  whole character.
    size_t room = whole < buflen? buflen - 1: buflen - sizeof CUT_MARK;
    size_t used = 0;
    for (size_t at = 0; at < len; ) {
        size_t taken = printable_char (text + at, len - at, piece);
        size_t piece_len = strlen (piece);
        if (used + piece_len > room)
            break;
        memcpy (buf + used, piece, piece_len);
        used += piece_len;
        at += taken;
    }
    if (whole < buflen)
        buf [used] = 0;
    else
        memcpy (buf + used, CUT_MARK, sizeof CUT_MARK);
    return buf;
}

//  A string, printable.
char *
printable (const char *text, char *buf, size_t buflen)
{
    assert (text);
    return printable_copy (text, strlen (text), buf, buflen);
}
