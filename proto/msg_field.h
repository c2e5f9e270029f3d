/*  proto/msg_field.h: how the message codecs write and read their fields
    (inside proto/ only).

    msg.c's walker calls one writer or one reader per row of a message's
    field list; the key on the wire is the row's name. The writer counts what it writes, so that the map header ahead of the
    fields says exactly how many there are. The reader trusts nothing: a
    missing key, a key given twice, a wrong type, a number out of the
    field's range or a string too long for it makes the message malformed,
    and the first failure sticks, so later reads do nothing.
*/
#ifndef IOFLEET_MSG_FIELD_H
#define IOFLEET_MSG_FIELD_H

#include "msg.h"

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//  A growing byte buffer for the packer. After a failed allocation it
//  refuses everything, so a frame with a hole in it is never returned.
typedef struct {
    char *data;                 //  bytes written, malloc'ed
    size_t size;                //  bytes used
    size_t capacity;            //  bytes allocated
    bool failed;                //  an allocation failed
} msg_buffer_t;

//  Writes the fields of one message and counts them, so the map header
//  can be written afterwards with the right number of entries.
typedef struct {
    msgpack_packer pk;          //  packs into the body buffer
    size_t entries;             //  key-value pairs written
} msg_writer_t;

//  Reads fields out of one message map. The first failure sticks: later
//  calls do nothing, so the walker reads row after row.
typedef struct {
    const msgpack_object_map *map;  //  the message
    char *err;                  //  reason of the first failure
    size_t errlen;
    int rc;                     //  MSG_OK until something fails
} msg_reader_t;

//  msgpack_packer_write callback appending len bytes to a msg_buffer_t.
//  Returns 0, or -1 once an allocation failed.
int msg_buffer_write (void *data, const char *bytes, size_t len);

//  Write a key (its value follows), or one field of each kind. A string
//  is read from a char array of `capacity` bytes and never past
//  capacity - 1, so a field without its NUL goes out cut, not overrun.
void msg_put_key (msg_writer_t *w, const char *key);
void msg_put_str (msg_writer_t *w, const char *key, const char *value, size_t capacity);
void msg_put_uint (msg_writer_t *w, const char *key, uint64_t value);
void msg_put_int (msg_writer_t *w, const char *key, int64_t value);
void msg_put_bool (msg_writer_t *w, const char *key, bool value);

//  Record a failure with a reason, unless one is recorded already.
void msg_reader_fail (msg_reader_t *r, int rc, const char *format, ...)
    __attribute__ ((format (printf, 3, 4)));

//  The value of key in the map, or NULL (the failure recorded) when it
//  is missing or given twice.
const msgpack_object *msg_get_value (msg_reader_t *r, const char *key);

//  Record a value of the wrong msgpack type ("want a map").
void msg_wrong_type (msg_reader_t *r, const char *key, const char *wanted);

//  Read one field of each kind, checked against its C type's range; a
//  string must fit capacity with its NUL and hold no NUL of its own.
void msg_get_str (msg_reader_t *r, const char *key, char *dst, size_t capacity);
void msg_get_u64 (msg_reader_t *r, const char *key, uint64_t *field);
void msg_get_u32 (msg_reader_t *r, const char *key, uint32_t *field);
void msg_get_i64 (msg_reader_t *r, const char *key, int64_t *field);
void msg_get_i32 (msg_reader_t *r, const char *key, int32_t *field);
void msg_get_bool (msg_reader_t *r, const char *key, bool *field);

#endif
