/*  tests/unit/proto_suggest.c: the distance between words, and which
    known word a mistyped one is close enough to for a "did you mean".
*/
#include "../../proto/suggest.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

//  Each kind of edit costs one; a swap of neighbours is one, not two.
static void
test_distance (void **state)
{
    (void) state;
    assert_int_equal (suggest_distance ("size", "size"), 0);
    assert_int_equal (suggest_distance ("SIZE", "size"), 0);
    assert_int_equal (suggest_distance ("szie", "size"), 1);      //  swap
    assert_int_equal (suggest_distance ("sze", "size"), 1);       //  insertion
    assert_int_equal (suggest_distance ("sizze", "size"), 1);     //  deletion
    assert_int_equal (suggest_distance ("sixe", "size"), 1);      //  substitution
    assert_int_equal (suggest_distance ("iteratons", "iterations"), 1);
    assert_int_equal (suggest_distance ("", "abc"), 3);
    assert_int_equal (suggest_distance ("abc", ""), 3);
    assert_int_equal (suggest_distance ("kitten", "sitting"), 3);
    assert_int_equal (suggest_distance ("ca", "abc"), 3);         //  optimal string alignment
    char long_word [SUGGEST_WORD_MAX + 2];
    memset (long_word, 'a', sizeof long_word - 1);
    long_word [sizeof long_word - 1] = 0;
    assert_true (suggest_distance (long_word, "a") == SIZE_MAX);
}

//  The nearest close word, the first of a tie; nothing for a word that
//  is close to none.
static void
test_among (void **state)
{
    (void) state;
    static const char *const keys [] = {
        "size", "bs", "path", "workload", "streams", "iterations", "runtime", NULL
    };
    assert_string_equal (suggest_among ("szie", keys), "size");
    assert_string_equal (suggest_among ("wrokload", keys), "workload");
    assert_string_equal (suggest_among ("iteratons", keys), "iterations");
    assert_string_equal (suggest_among ("Path", keys), "path");
    assert_string_equal (suggest_among ("streamz", keys), "streams");
    assert_null (suggest_among ("filename", keys));
    assert_null (suggest_among ("rw", keys));                    //  two letters: exact only
    assert_null (suggest_among ("xs", keys));
    assert_null (suggest_among ("zzzz", keys));
    assert_null (suggest_among ("", keys));
    static const char *const words [] = { "read", "reed", NULL };
    assert_string_equal (suggest_among ("rend", words), "read");
    static const char *const none [] = { NULL };
    assert_null (suggest_among ("size", none));
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_distance),
        cmocka_unit_test (test_among),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
