/*  tests/unit/proto_printable.c: bytes from a file or the wire made safe
    to print: UTF-8 kept, controls and stray bytes as \xNN, long text cut
    at a character with a mark.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../proto/printable.h"

#include <string.h>

//  The printable form of text in a buffer of buflen bytes.
static const char *
s_printable (const char *text, size_t len, size_t buflen)
{
    static char buf [256];
    assert_true (buflen <= sizeof buf);
    return printable_copy (text, len, buf, buflen);
}

static void
test_plain_text_unchanged (void **state)
{
    (void) state;
    assert_string_equal (s_printable ("dd1 /data/x.1", 13, 64), "dd1 /data/x.1");
    assert_string_equal (s_printable ("", 0, 8), "");
    //  Valid UTF-8 of two, three and four bytes is kept.
    const char *utf8 = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";
    assert_string_equal (s_printable (utf8, strlen (utf8), 64), utf8);
}

static void
test_controls_escaped (void **state)
{
    (void) state;
    assert_string_equal (s_printable ("a\x01" "b\x1B[2Jc\x7F", 9, 64), "a\\x01b\\x1B[2Jc\\x7F");
    assert_string_equal (s_printable ("line\nnext\r\t", 11, 64), "line\\x0Anext\\x0D\\x09");
    //  A NUL inside the length is a byte like the others.
    assert_string_equal (s_printable ("a\0b", 3, 64), "a\\x00b");
    //  C1 controls in UTF-8 (U+009B is CSI) are controls too.
    assert_string_equal (s_printable ("\xC2\x9B" "x", 3, 64), "\\xC2\\x9Bx");
}

static void
test_invalid_utf8_escaped (void **state)
{
    (void) state;
    //  A stray continuation byte, a lead without its tail, an overlong
    //  form, a surrogate, a code point past U+10FFFF.
    assert_string_equal (s_printable ("\x80", 1, 64), "\\x80");
    assert_string_equal (s_printable ("\xC3" "a", 2, 64), "\\xC3a");
    assert_string_equal (s_printable ("\xC0\xAF", 2, 64), "\\xC0\\xAF");
    assert_string_equal (s_printable ("\xED\xA0\x80", 3, 64), "\\xED\\xA0\\x80");
    assert_string_equal (s_printable ("\xF4\x90\x80\x80", 4, 64), "\\xF4\\x90\\x80\\x80");
    //  Cut short at the end of the input.
    assert_string_equal (s_printable ("\xE2\x82", 2, 64), "\\xE2\\x82");
}

static void
test_cut_with_a_mark (void **state)
{
    (void) state;
    //  Fits exactly: no mark.
    assert_string_equal (s_printable ("abcdefg", 7, 8), "abcdefg");
    //  One byte more: cut, and the mark fits in the buffer.
    assert_string_equal (s_printable ("abcdefgh", 8, 8), "abcd...");
    //  An escape is never cut in half, nor a UTF-8 character.
    assert_string_equal (s_printable ("ab\x01\x01\x01", 5, 10), "ab\\x01...");
    assert_string_equal (s_printable ("ab\x01\x01\x01", 5, 9), "ab...");
    assert_string_equal (s_printable ("ab\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC", 11, 9), "ab\xE2\x82\xAC...");
    char small [4];
    assert_string_equal (printable ("abcdef", small, sizeof small), "...");
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_plain_text_unchanged),
        cmocka_unit_test (test_controls_escaped),
        cmocka_unit_test (test_invalid_utf8_escaped),
        cmocka_unit_test (test_cut_with_a_mark),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
