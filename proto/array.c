/*  proto/array.c: an array that grows as items are appended; see array.h. */
#include "array.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int
array_grow (void *array_p, size_t *capacity, size_t count, size_t item_size,
            size_t first_capacity)
{
    if (count < *capacity)
        return 0;
    //  Neither the doubling nor the bytes may wrap around.
    if (*capacity > SIZE_MAX / 2)
        return -1;
    size_t wanted = *capacity? *capacity * 2: first_capacity;
    if (wanted > SIZE_MAX / item_size)
        return -1;
    //  The pointer is read and written as bytes: the caller's is a T *,
    //  not a void *.
    void *array;
    memcpy (&array, array_p, sizeof array);
    void *grown = realloc (array, wanted * item_size);
    if (!grown)
        return -1;
    memcpy (array_p, &grown, sizeof grown);
    *capacity = wanted;
    return 0;
}
