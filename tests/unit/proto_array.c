/*  tests/unit/proto_array.c: an array grown one item at a time keeps its
    items, doubles its room from the first size, and refuses a size that
    would overflow without touching what it holds.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../proto/array.h"

#include <stdlib.h>

typedef struct {
    int value;                      //  what the item holds
    char pad [12];                  //  an item larger than a pointer
} s_item_t;

static void
test_grows_and_keeps_items (void **state)
{
    (void) state;
    s_item_t *items = NULL;
    size_t count = 0, capacity = 0;
    for (int value = 0; value < 100; value++) {
        assert_int_equal (array_grow (&items, &capacity, count, sizeof *items, 4), 0);
        assert_true (count < capacity);
        items [count++].value = value;
    }
    //  4, 8, 16, 32, 64, 128: doubled from the first size.
    assert_int_equal (capacity, 128);
    for (size_t nbr = 0; nbr < count; nbr++)
        assert_int_equal (items [nbr].value, (int) nbr);
    free (items);
}

static void
test_room_left_changes_nothing (void **state)
{
    (void) state;
    int *values = malloc (8 * sizeof *values);
    assert_non_null (values);
    int *before = values;
    size_t capacity = 8;
    assert_int_equal (array_grow (&values, &capacity, 7, sizeof *values, 2), 0);
    assert_ptr_equal (values, before);
    assert_int_equal (capacity, 8);
    free (values);
}

static void
test_overflow_refused (void **state)
{
    (void) state;
    char *bytes = malloc (16);
    assert_non_null (bytes);
    char *before = bytes;
    size_t capacity = SIZE_MAX / 2 + 1;
    assert_int_equal (array_grow (&bytes, &capacity, capacity, 2, 8), -1);
    assert_ptr_equal (bytes, before);
    assert_int_equal (capacity, SIZE_MAX / 2 + 1);
    free (bytes);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_grows_and_keeps_items),
        cmocka_unit_test (test_room_left_changes_nothing),
        cmocka_unit_test (test_overflow_refused),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
