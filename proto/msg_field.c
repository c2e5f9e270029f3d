/*  proto/msg_field.c: the field writers and readers of the message
    codecs; see msg_field.h.  */
#include "msg_field.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  --------------------------------------------------------------------
//  Output buffer


//  msgpack_packer_write callback: append len bytes. Returns 0 or -1.
int
msg_buffer_write (void *data, const char *bytes, size_t len)
{
    msg_buffer_t *buffer = (msg_buffer_t *) data;
    if (buffer->failed)
        return -1;
    if (len == 0)
        return 0;
    if (len > buffer->capacity - buffer->size) {
        size_t capacity = buffer->capacity? buffer->capacity: 256;
        while (capacity - buffer->size < len) {
            if (capacity > SIZE_MAX / 2) {
                buffer->failed = true;
                return -1;
            }
            capacity *= 2;
        }
        char *grown = (char *) realloc (buffer->data, capacity);
        if (!grown) {
            buffer->failed = true;
            return -1;
        }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy (buffer->data + buffer->size, bytes, len);
    buffer->size += len;
    return 0;
}

//  --------------------------------------------------------------------
//  Encoding helpers


//  Write a key; the value follows.
void
msg_put_key (msg_writer_t *w, const char *key)
{
    msgpack_pack_str_with_body (&w->pk, key, strlen (key));
    w->entries++;
}

//  Write a string field from a char array of `capacity` bytes. Never reads
//  past capacity - 1, so a field without its NUL goes out cut, not overrun.
void
msg_put_str (msg_writer_t *w, const char *key, const char *value, size_t capacity)
{
    msg_put_key (w, key);
    msgpack_pack_str_with_body (&w->pk, value, strnlen (value, capacity - 1));
}

//  Write an unsigned integer field.
void
msg_put_uint (msg_writer_t *w, const char *key, uint64_t value)
{
    msg_put_key (w, key);
    msgpack_pack_uint64 (&w->pk, value);
}

//  Write a signed integer field.
void
msg_put_int (msg_writer_t *w, const char *key, int64_t value)
{
    msg_put_key (w, key);
    msgpack_pack_int64 (&w->pk, value);
}

//  Write a boolean field.
void
msg_put_bool (msg_writer_t *w, const char *key, bool value)
{
    msg_put_key (w, key);
    if (value)
        msgpack_pack_true (&w->pk);
    else
        msgpack_pack_false (&w->pk);
}


//  --------------------------------------------------------------------
//  Decoding helpers

void
msg_reader_fail (msg_reader_t *r, int rc, const char *format, ...)
{
    if (r->rc != MSG_OK)
        return;
    r->rc = rc;
    va_list args;
    va_start (args, format);
    vsnprintf (r->err, r->errlen, format, args);
    va_end (args);
}

//  The value of key in the map. A key that is missing or given twice
//  makes the message malformed and returns NULL.
const msgpack_object *
msg_get_value (msg_reader_t *r, const char *key)
{
    if (r->rc != MSG_OK)
        return NULL;
    size_t len = strlen (key);
    const msgpack_object *found = NULL;
    for (uint32_t i = 0; i < r->map->size; i++) {
        const msgpack_object *k = &r->map->ptr [i].key;
        if (k->type == MSGPACK_OBJECT_STR
        &&  k->via.str.size == len && memcmp (k->via.str.ptr, key, len) == 0) {
            if (found) {
                msg_reader_fail (r, MSG_EMALFORMED, "key '%s' given twice", key);
                return NULL;
            }
            found = &r->map->ptr [i].val;
        }
    }
    if (!found)
        msg_reader_fail (r, MSG_EMALFORMED, "missing key '%s'", key);
    return found;
}

//  Record a value of the wrong msgpack type.
void
msg_wrong_type (msg_reader_t *r, const char *key, const char *wanted)
{
    msg_reader_fail (r, MSG_EMALFORMED, "wrong type for key '%s' (want %s)", key, wanted);
}

//  Copy a string field into dst of `capacity` bytes; it must fit with
//  its NUL and hold no NUL of its own.
void
msg_get_str (msg_reader_t *r, const char *key, char *dst, size_t capacity)
{
    const msgpack_object *value = msg_get_value (r, key);
    if (!value)
        return;
    if (value->type != MSGPACK_OBJECT_STR) {
        msg_wrong_type (r, key, "a string");
        return;
    }
    size_t len = value->via.str.size;
    if (len > capacity - 1) {
        msg_reader_fail (r, MSG_EMALFORMED, "key '%s': %zu bytes, longer than the limit %zu",
                key, len, capacity - 1);
        return;
    }
    if (memchr (value->via.str.ptr, 0, len)) {
        msg_reader_fail (r, MSG_EMALFORMED, "key '%s': contains a NUL byte", key);
        return;
    }
    memcpy (dst, value->via.str.ptr, len);
    dst [len] = 0;
}

//  Read an unsigned integer field no larger than max into *value.
static bool
s_get_unsigned (msg_reader_t *r, const char *key, uint64_t max, uint64_t *value)
{
    const msgpack_object *object = msg_get_value (r, key);
    if (!object)
        return false;
    if (object->type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
        msg_wrong_type (r, key, "an unsigned integer");
        return false;
    }
    if (object->via.u64 > max) {
        msg_reader_fail (r, MSG_EMALFORMED, "key '%s': %" PRIu64 " is out of range", key,
                object->via.u64);
        return false;
    }
    *value = object->via.u64;
    return true;
}

//  Read a signed integer field within [min, max] into *value. msgpack
//  writes non-negative numbers as unsigned, so both kinds are accepted.
static bool
s_get_signed (msg_reader_t *r, const char *key, int64_t min, int64_t max, int64_t *value)
{
    const msgpack_object *object = msg_get_value (r, key);
    if (!object)
        return false;
    if (object->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
        if (object->via.u64 > (uint64_t) max) {
            msg_reader_fail (r, MSG_EMALFORMED, "key '%s': %" PRIu64 " is out of range", key,
                    object->via.u64);
            return false;
        }
        *value = (int64_t) object->via.u64;
        return true;
    }
    if (object->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
        if (object->via.i64 < min) {
            msg_reader_fail (r, MSG_EMALFORMED, "key '%s': %" PRId64 " is out of range", key,
                    object->via.i64);
            return false;
        }
        *value = object->via.i64;
        return true;
    }
    msg_wrong_type (r, key, "an integer");
    return false;
}

//  Typed wrappers, so that the compiler checks each field's type.
void
msg_get_u64 (msg_reader_t *r, const char *key, uint64_t *field)
{
    s_get_unsigned (r, key, UINT64_MAX, field);
}

void
msg_get_u32 (msg_reader_t *r, const char *key, uint32_t *field)
{
    uint64_t value;
    if (s_get_unsigned (r, key, UINT32_MAX, &value))
        *field = (uint32_t) value;
}

void
msg_get_i64 (msg_reader_t *r, const char *key, int64_t *field)
{
    s_get_signed (r, key, INT64_MIN, INT64_MAX, field);
}

void
msg_get_i32 (msg_reader_t *r, const char *key, int32_t *field)
{
    int64_t value;
    if (s_get_signed (r, key, INT32_MIN, INT32_MAX, &value))
        *field = (int32_t) value;
}

void
msg_get_bool (msg_reader_t *r, const char *key, bool *field)
{
    const msgpack_object *value = msg_get_value (r, key);
    if (!value)
        return;
    if (value->type != MSGPACK_OBJECT_BOOLEAN) {
        msg_wrong_type (r, key, "a boolean");
        return;
    }
    *field = value->via.boolean;
}
