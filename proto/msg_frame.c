/*  proto/msg_frame.c: the check every frame passes before it is unpacked;
    see msg_check_frame in msg.h.

    A frame comes from the network and may be anything. Before msgpack
    builds a single object from it, this walks its raw bytes: it refuses
    truncated frames, trailing bytes, nesting deeper than S_DEPTH_MAX and
    containers that announce more entries than the frame has bytes left.
    So the unpacker never allocates for entries that are not there.
*/
#include "msg.h"

#include <assert.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

//  Nesting a frame may have: a message map holds a spec map, a result
//  holds histograms with runs, and newer peers may add structured
//  values, so a few more than that.
#define S_DEPTH_MAX 16

//  Read a big-endian unsigned integer of width bytes.
static uint64_t
s_read_be (const uint8_t *bytes, size_t width)
{
    uint64_t value = 0;
    for (size_t i = 0; i < width; i++)
        value = (value << 8) | bytes [i];
    return value;
}

//  What one msgpack header byte announces.
typedef struct {
    size_t length_width;        //  bytes of a length field after the header byte
    uint64_t payload;           //  bytes of payload, not counting a length field
    uint64_t items;             //  objects that follow inside a container
    bool container;             //  an array or a map
    bool is_map;                //  items counts pairs
} s_header_t;

//  Decode the header byte of one object. Returns false for 0xc1, which
//  msgpack never uses.
static bool
s_header (uint8_t byte, s_header_t *h)
{
    memset (h, 0, sizeof (*h));
    if (byte <= 0x7f || byte >= 0xe0)
        return true;                        //  fixints
    if (byte <= 0x8f) {
        h->container = h->is_map = true;    //  fixmap
        h->items = byte & 0x0f;
        return true;
    }
    if (byte <= 0x9f) {
        h->container = true;                //  fixarray
        h->items = byte & 0x0f;
        return true;
    }
    if (byte <= 0xbf) {
        h->payload = byte & 0x1f;           //  fixstr
        return true;
    }
    switch (byte) {
        case 0xc0: case 0xc2: case 0xc3:    //  nil, false, true
            return true;
        case 0xc4: case 0xd9: h->length_width = 1; return true;    //  bin8, str8
        case 0xc5: case 0xda: h->length_width = 2; return true;    //  bin16, str16
        case 0xc6: case 0xdb: h->length_width = 4; return true;    //  bin32, str32
        case 0xc7: h->length_width = 1; h->payload = 1; return true;   //  ext8 (+ type)
        case 0xc8: h->length_width = 2; h->payload = 1; return true;   //  ext16
        case 0xc9: h->length_width = 4; h->payload = 1; return true;   //  ext32
        case 0xca: h->payload = 4; return true;     //  float32
        case 0xcb: h->payload = 8; return true;     //  float64
        case 0xcc: case 0xd0: h->payload = 1; return true;
        case 0xcd: case 0xd1: h->payload = 2; return true;
        case 0xce: case 0xd2: h->payload = 4; return true;
        case 0xcf: case 0xd3: h->payload = 8; return true;
        case 0xd4: h->payload = 2; return true;     //  fixext1 (+ type)
        case 0xd5: h->payload = 3; return true;
        case 0xd6: h->payload = 5; return true;
        case 0xd7: h->payload = 9; return true;
        case 0xd8: h->payload = 17; return true;
        case 0xdc: h->container = true; h->length_width = 2; return true;
        case 0xdd: h->container = true; h->length_width = 4; return true;
        case 0xde: h->container = h->is_map = true; h->length_width = 2; return true;
        case 0xdf: h->container = h->is_map = true; h->length_width = 4; return true;
        default:
            return false;                   //  0xc1
    }
}

//  Walk the encoding of data and check that it is exactly one complete
//  msgpack object, nested at most S_DEPTH_MAX deep, whose containers
//  could each hold what they announce in the bytes that remain (every
//  object takes at least one byte). Builds nothing and allocates nothing.
int
msg_check_frame (const void *bytes, size_t size, char *err, size_t errlen)
{
    assert (err && errlen > 0);
    assert (bytes || size == 0);
    const uint8_t *data = (const uint8_t *) bytes;
    uint64_t pending [S_DEPTH_MAX + 1];     //  objects still to read per level
    int depth = 0;
    size_t pos = 0;
    pending [0] = 1;

    while (true) {
        if (pending [depth] == 0) {
            if (depth == 0)
                break;
            depth--;
            continue;
        }
        pending [depth]--;
        if (pos >= size) {
            snprintf (err, errlen, "truncated frame: %zu bytes", size);
            return -1;
        }
        s_header_t h;
        uint8_t byte = data [pos++];
        if (!s_header (byte, &h)) {
            snprintf (err, errlen, "invalid byte 0x%02x at offset %zu", byte, pos - 1);
            return -1;
        }
        if (h.length_width) {
            if (h.length_width > size - pos) {
                snprintf (err, errlen, "truncated frame: %zu bytes", size);
                return -1;
            }
            uint64_t length = s_read_be (data + pos, h.length_width);
            pos += h.length_width;
            if (h.container)
                h.items = length;
            else
                h.payload += length;
        }
        if (h.payload > size - pos) {
            snprintf (err, errlen, "truncated frame: %zu bytes", size);
            return -1;
        }
        pos += h.payload;
        if (h.container && h.items > 0) {
            uint64_t objects = h.is_map? 2 * h.items: h.items;
            if (objects > size - pos) {
                snprintf (err, errlen, "%s of %" PRIu64 " entries in %zu bytes",
                          h.is_map? "a map": "an array", h.items, size - pos);
                return -1;
            }
            if (depth == S_DEPTH_MAX) {
                snprintf (err, errlen, "nested deeper than %d", S_DEPTH_MAX);
                return -1;
            }
            pending [++depth] = objects;
        }
    }
    if (pos != size) {
        snprintf (err, errlen, "%zu bytes after the message", size - pos);
        return -1;
    }
    return 0;
}
