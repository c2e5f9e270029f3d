/*  proto/msg.c: the encoder and decoder of every message; see msg.h.

    Each message's field list (msg.h) is made a table of rows (key,
    kind, offset, size) here, and s_codecs[], indexed by type, holds each
    type's name and table. One walker writes a message by its rows and
    one reads it by the same rows: a field exists once, in its list, and
    the encoder and decoder cannot drift apart.

    Decoding is defensive in two layers. msg_check_frame (msg_frame.c)
    first walks the raw bytes without building anything; only a frame
    that passed goes to msgpack_unpack_next, so the unpacker never
    allocates for entries that are not there. The decoder then checks the
    type and bounds of every field, with the readers of msg_field.h.
*/
#include "msg.h"
#include "msg_field.h"
#include "printable.h"
#include "version.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  --------------------------------------------------------------------
//  The field lists as tables

//  How a field is written and read.
typedef enum {
    S_STR, S_U32, S_U64, S_I32, S_I64, S_BOOL, S_SPEC, S_LATENCY
} s_kind_t;

//  One field of a message: one row of its list in msg.h.
typedef struct {
    const char *key;            //  its name, the key on the wire
    s_kind_t kind;
    size_t offset;              //  where it is in the message's struct
    size_t size;                //  its size there: a string's capacity
} s_field_t;

#define S_ROW(m, kind, name, capacity) \
    { #name, S_##kind, offsetof (m, name), sizeof (((m *) 0)->name) },
#define S_TABLE(id, name) \
    static const s_field_t s_##name##_fields [] = { MSG_##id##_FIELDS (S_ROW, msg_##name##_t) };
MSG_LIST (S_TABLE)
#undef S_TABLE

//  Every message type: its name on the wire and its fields.
typedef struct {
    const char *name;           //  the "t" value
    const s_field_t *fields;
    size_t field_count;
} s_codec_t;

static const s_codec_t s_codecs [MSG_TYPE_COUNT] = {
#define S_CODEC(id, name) \
    [MSG_##id] = { #name, s_##name##_fields, sizeof s_##name##_fields / sizeof (s_field_t) },
    MSG_LIST (S_CODEC)
#undef S_CODEC
};

//  The names of the latency kinds, for messages.
static const char *const s_latency_names [MSG_LATENCY_KINDS] = { "read", "write", "fsync" };

//  Write one field of the message at base.
static void
s_put (msg_writer_t *w, const s_field_t *field, const char *base)
{
    const void *at = base + field->offset;
    switch (field->kind) {
        case S_STR:  msg_put_str (w, field->key, (const char *) at, field->size); break;
        case S_U32:  msg_put_uint (w, field->key, *(const uint32_t *) at); break;
        case S_U64:  msg_put_uint (w, field->key, *(const uint64_t *) at); break;
        case S_I32:  msg_put_int (w, field->key, *(const int32_t *) at); break;
        case S_I64:  msg_put_int (w, field->key, *(const int64_t *) at); break;
        case S_BOOL: msg_put_bool (w, field->key, *(const bool *) at); break;
        case S_SPEC:
            msg_put_key (w, field->key);
            jobspec_encode ((const jobspec_t *) at, &w->pk);
            break;
        case S_LATENCY:
            msg_put_key (w, field->key);
            msgpack_pack_array (&w->pk, MSG_LATENCY_KINDS);
            for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
                histogram_pack ((const histogram_t *) at + kind, &w->pk);
            break;
    }
}

//  A job's spec: its keys follow the option table, missing ones take
//  their defaults, and the values are checked against the table's bounds.
static void
s_get_spec (msg_reader_t *r, const char *key, jobspec_t *spec)
{
    const msgpack_object *value = msg_get_value (r, key);
    if (!value)
        return;
    if (value->type != MSGPACK_OBJECT_MAP) {
        msg_wrong_type (r, key, "a map");
        return;
    }
    char reason [256];
    if (jobspec_decode (value, spec, reason, sizeof (reason)))
        msg_reader_fail (r, MSG_EMALFORMED, "key '%s': %s", key, reason);
}

//  The latency histograms of a result, one per kind.
static void
s_get_latency (msg_reader_t *r, const char *key, histogram_t *latency)
{
    const msgpack_object *value = msg_get_value (r, key);
    if (!value)
        return;
    if (value->type != MSGPACK_OBJECT_ARRAY || value->via.array.size != MSG_LATENCY_KINDS) {
        msg_wrong_type (r, key, "an array of 3 histograms");
        return;
    }
    for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++) {
        char reason [256];
        if (histogram_unpack (&value->via.array.ptr [kind], &latency [kind],
                              reason, sizeof (reason))) {
            msg_reader_fail (r, MSG_EMALFORMED, "key '%s': %s: %s", key,
                             s_latency_names [kind], reason);
            return;
        }
    }
}

//  Read one field into the message at base; a failure sticks in r.
static void
s_get (msg_reader_t *r, const s_field_t *field, char *base)
{
    void *at = base + field->offset;
    switch (field->kind) {
        case S_STR:     msg_get_str (r, field->key, (char *) at, field->size); break;
        case S_U32:     msg_get_u32 (r, field->key, (uint32_t *) at); break;
        case S_U64:     msg_get_u64 (r, field->key, (uint64_t *) at); break;
        case S_I32:     msg_get_i32 (r, field->key, (int32_t *) at); break;
        case S_I64:     msg_get_i64 (r, field->key, (int64_t *) at); break;
        case S_BOOL:    msg_get_bool (r, field->key, (bool *) at); break;
        case S_SPEC:    s_get_spec (r, field->key, (jobspec_t *) at); break;
        case S_LATENCY: s_get_latency (r, field->key, (histogram_t *) at); break;
    }
}

//  The codec of type, or NULL if type is not a message type.
static const s_codec_t *
s_codec (int type)
{
    if (type <= 0 || type >= MSG_TYPE_COUNT)
        return NULL;
    return &s_codecs [type];
}

//  --------------------------------------------------------------------
//  Public functions

//  Wire name of a message type.
const char *
msg_type_name (msg_type_t type)
{
    const s_codec_t *codec = s_codec ((int) type);
    return codec? codec->name: "?";
}

//  Bounded copy that always terminates dst.
void
msg_strcpy (char *dst, const char *src, size_t dstsize)
{
    assert (dst && src);
    if (dstsize == 0)
        return;
    size_t len = strnlen (src, dstsize - 1);
    memcpy (dst, src, len);
    dst [len] = 0;
}

//  One message to one frame, in a buffer the caller frees.
int
msg_encode (const msg_t *msg, char **data_p, size_t *size_p)
{
    assert (msg && data_p && size_p);
    const s_codec_t *codec = s_codec ((int) msg->type);
    assert (codec);             //  sending a type that does not exist is a bug

    //  The fields go to a body buffer first, counted, so that the map
    //  header ahead of them says exactly how many there are.
    msg_buffer_t body = { 0 };
    msg_buffer_t frame = { 0 };
    msg_writer_t w = { .entries = 0 };
    msgpack_packer_init (&w.pk, &body, msg_buffer_write);
    for (size_t nbr = 0; nbr < codec->field_count; nbr++)
        s_put (&w, &codec->fields [nbr], (const char *) &msg->u);

    msgpack_packer pk;
    msgpack_packer_init (&pk, &frame, msg_buffer_write);
    msgpack_pack_map (&pk, w.entries + 2);
    msgpack_pack_str_with_body (&pk, "v", 1);
    msgpack_pack_uint64 (&pk, IOFLEET_PROTOCOL_VERSION);
    msgpack_pack_str_with_body (&pk, "t", 1);
    msgpack_pack_str_with_body (&pk, codec->name, strlen (codec->name));
    msg_buffer_write (&frame, body.data, body.size);
    if (body.failed || frame.failed)
        goto fail;

    free (body.data);
    *data_p = frame.data;
    *size_p = frame.size;
    return 0;

fail:
    free (body.data);
    free (frame.data);
    *data_p = NULL;
    *size_p = 0;
    return -1;
}

//  Check "v" and "t" of a message map and return its type, or 0 with
//  the failure recorded in r.
static msg_type_t
s_decode_envelope (msg_reader_t *r)
{
    const msgpack_object *version = msg_get_value (r, "v");
    if (!version)
        return 0;
    if (version->type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
        msg_wrong_type (r, "v", "an unsigned integer");
        return 0;
    }
    if (version->via.u64 != IOFLEET_PROTOCOL_VERSION) {
        msg_reader_fail (r, MSG_EVERSION, "protocol version %" PRIu64 ", this side speaks %d",
                version->via.u64, IOFLEET_PROTOCOL_VERSION);
        return 0;
    }
    const msgpack_object *name = msg_get_value (r, "t");
    if (!name)
        return 0;
    if (name->type != MSGPACK_OBJECT_STR) {
        msg_wrong_type (r, "t", "a string");
        return 0;
    }
    for (int type = 1; type < MSG_TYPE_COUNT; type++) {
        const char *known = s_codecs [type].name;
        if (strlen (known) == name->via.str.size
        &&  memcmp (known, name->via.str.ptr, name->via.str.size) == 0)
            return (msg_type_t) type;
    }
    char quoted [MSG_QUOTE_MAX * PRINTABLE_GROWTH + 4];
    printable_copy (name->via.str.ptr, name->via.str.size < MSG_QUOTE_MAX?
                    name->via.str.size: MSG_QUOTE_MAX, quoted, sizeof (quoted));
    msg_reader_fail (r, MSG_EMALFORMED, "unknown message type '%s'", quoted);
    return 0;
}

//  One frame to one message, or the reason it is not one.
int
msg_decode (const void *data, size_t size, msg_t *msg, char *err, size_t errlen)
{
    assert (msg && err && errlen > 0);
    assert (data || size == 0);
    memset (msg, 0, sizeof (*msg));
    err [0] = 0;

    if (size == 0) {
        snprintf (err, errlen, "empty frame");
        return MSG_EMALFORMED;
    }
    if (size > MSG_FRAME_MAX) {
        snprintf (err, errlen, "frame of %zu bytes, more than %d", size, MSG_FRAME_MAX);
        return MSG_EMALFORMED;
    }
    if (msg_check_frame (data, size, err, errlen))
        return MSG_EMALFORMED;

    int rc = MSG_OK;
    msgpack_unpacked unpacked;
    msgpack_unpacked_init (&unpacked);
    size_t offset = 0;
    msgpack_unpack_return unpack_rc = msgpack_unpack_next (&unpacked, (const char *) data,
                                                           size, &offset);
    if (unpack_rc != MSGPACK_UNPACK_SUCCESS || offset != size) {
        snprintf (err, errlen, "not one msgpack object (unpack returned %d)", (int) unpack_rc);
        rc = MSG_EMALFORMED;
    }
    else
    if (unpacked.data.type != MSGPACK_OBJECT_MAP) {
        snprintf (err, errlen, "not a map");
        rc = MSG_EMALFORMED;
    }
    else {
        msg_reader_t reader = {
            .map = &unpacked.data.via.map, .err = err, .errlen = errlen, .rc = MSG_OK
        };
        msg_type_t type = s_decode_envelope (&reader);
        if (reader.rc == MSG_OK) {
            msg->type = type;
            const s_codec_t *codec = &s_codecs [type];
            for (size_t nbr = 0; nbr < codec->field_count && reader.rc == MSG_OK; nbr++)
                s_get (&reader, &codec->fields [nbr], (char *) &msg->u);
        }
        rc = reader.rc;
    }
    msgpack_unpacked_destroy (&unpacked);
    if (rc != MSG_OK)
        memset (msg, 0, sizeof (*msg));     //  nothing half-decoded escapes
    return rc;
}

void
msg_make_error (msg_t *msg, uint32_t test_id, int32_t job_id, const char *code,
                const char *format, va_list args)
{
    memset (msg, 0, sizeof (*msg));
    msg->type = MSG_ERROR;
    msg->u.error.test_id = test_id;
    msg->u.error.job_id = job_id;
    msg_strcpy (msg->u.error.code, code, sizeof (msg->u.error.code));
    vsnprintf (msg->u.error.text, sizeof (msg->u.error.text), format, args);
}
