/*  coordinator/results/json_stream.h: a JSON document written as jansson
    writes it with JSON_INDENT (2), but piece by piece.

    A fleet's results hold thousands of streams per test; the tree of a
    whole test would be many times the size of its text. Here an object's
    members are written one after another, and the elements of its large
    arrays are made, written and freed one at a time, so that no more
    than one element's tree is held at once. The text is byte for byte
    what json_dumps would give for the whole tree.
*/
#ifndef IOFLEET_REPORT_JSON_STREAM_H
#define IOFLEET_REPORT_JSON_STREAM_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

//  Write element nbr of items at depth (its first line already indented).
//  Returns 0, or -1 (memory, a failed write).
typedef int (json_stream_element_fn) (FILE *out, int depth, const void *items, size_t nbr);

//  An array member whose elements are written one at a time: the object
//  holds an empty array under key where it stands.
typedef struct {
    const char *key;                        //  the member it fills
    size_t count;                           //  its elements
    json_stream_element_fn *write;          //  writes one
    const void *items;                      //  what write reads them from
} json_stream_array_t;

//  Write value as it stands at depth, and take its reference (NULL, a
//  value that could not be made, fails). Returns 0 or -1.
int json_stream_value (FILE *out, int depth, json_t *value);

//  Write object at depth, its members in order, the members named in
//  arrays from their elements. Returns 0 or -1.
int json_stream_object (FILE *out, int depth, json_t *object,
                        const json_stream_array_t *arrays, size_t array_count);

#endif
