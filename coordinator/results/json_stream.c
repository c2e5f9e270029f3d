/*  coordinator/results/json_stream.c: JSON written piece by piece, in
    jansson's indented layout; see json_stream.h.

    jansson with JSON_INDENT (2) puts each member and element on a line of
    its own, indented two spaces a level, writes "key": value, and closes
    at the outer level's indent; an empty array or object is [] or {}.
    A value dumped alone starts at level 0, so every line after its first
    gets the indent of the level it stands at.
*/
#include "json_stream.h"

#include <string.h>

#define S_INDENT 2                          //  spaces a level, as JSON_INDENT (2)

//  Where a dump goes, and the indent its lines after the first get.
typedef struct {
    FILE *out;
    int depth;
} s_sink_t;

//  Write depth levels of indent.
static int
s_indent (FILE *out, int depth)
{
    return fprintf (out, "%*s", depth * S_INDENT, "") < 0? -1: 0;
}

//  jansson's dump callback: the text, every line break followed by the
//  sink's indent.
static int
s_write_indented (const char *buffer, size_t size, void *data)
{
    s_sink_t *sink = (s_sink_t *) data;
    while (size) {
        const char *end = (const char *) memchr (buffer, '\n', size);
        size_t length = end? (size_t) (end - buffer + 1): size;
        if (fwrite (buffer, 1, length, sink->out) != length)
            return -1;
        if (end && s_indent (sink->out, sink->depth))
            return -1;
        buffer += length;
        size -= length;
    }
    return 0;
}

int
json_stream_value (FILE *out, int depth, json_t *value)
{
    if (!value)
        return -1;
    s_sink_t sink = { out, depth };
    int rc = json_dump_callback (value, s_write_indented, &sink,
                                 JSON_INDENT (S_INDENT) | JSON_ENCODE_ANY);
    json_decref (value);
    return rc;
}

//  The elements of an array member, at depth.
static int
s_write_array (FILE *out, int depth, const json_stream_array_t *array)
{
    if (array->count == 0)
        return fputs ("[]", out) < 0? -1: 0;
    if (fputs ("[\n", out) < 0)
        return -1;
    for (size_t nbr = 0; nbr < array->count; nbr++) {
        if (s_indent (out, depth + 1)
        ||  array->write (out, depth + 1, array->items, nbr)
        ||  fputs (nbr + 1 < array->count? ",\n": "\n", out) < 0)
            return -1;
    }
    if (s_indent (out, depth) || fputc (']', out) == EOF)
        return -1;
    return 0;
}

int
json_stream_object (FILE *out, int depth, json_t *object,
                    const json_stream_array_t *arrays, size_t array_count)
{
    if (!object)
        return -1;
    int rc = 0;
    size_t members = json_object_size (object);
    if (members == 0)
        rc = fputs ("{}", out) < 0? -1: 0;
    else
    if (fputs ("{\n", out) < 0)
        rc = -1;
    size_t nbr = 0;
    const char *key;
    json_t *value;
    json_object_foreach (object, key, value) {
        if (rc)
            break;
        const json_stream_array_t *array = NULL;
        for (size_t a = 0; a < array_count && !array; a++)
            if (strcmp (arrays [a].key, key) == 0)
                array = &arrays [a];
        nbr++;
        if (s_indent (out, depth + 1)
        ||  json_stream_value (out, depth + 1, json_string (key))
        ||  fputs (": ", out) < 0
        ||  (array? s_write_array (out, depth + 1, array)
                  : json_stream_value (out, depth + 1, json_incref (value)))
        ||  fputs (nbr < members? ",\n": "\n", out) < 0)
            rc = -1;
    }
    if (rc == 0 && members && (s_indent (out, depth) || fputc ('}', out) == EOF))
        rc = -1;
    json_decref (object);
    return rc;
}
