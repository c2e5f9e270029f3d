/*  proto/array.h: an array that grows as items are appended.

    Arrays of results, agents, members and points are appended to one
    item at a time, their room doubled when full: the one way of doing it
    is here, so that an overflow check or a first size is not written
    again at every array.
*/
#ifndef IOFLEET_ARRAY_H
#define IOFLEET_ARRAY_H

#include <stddef.h>

//  Make room for one more item in the array at *array_p (the address of
//  a typed pointer: T **), count items used of *capacity, each of
//  item_size bytes: its room doubles, first_capacity items the first
//  time. On failure the array and *capacity are unchanged. Returns 0, or
//  -1 if memory is short.
int array_grow (void *array_p, size_t *capacity, size_t count, size_t item_size,
                size_t first_capacity);

#endif
