/*  proto/msg.c: encoders and decoders of every message; see msg.h.

    Each message type has one static encoder and one static decoder,
    listed in s_codecs[], indexed by type. The keys on the wire are the
    field names of the message's struct: the PUT_ and GET_ macros take the
    key from the field itself, so the two cannot drift apart.

    Decoding is defensive in two layers. s_check_frame first walks the raw
    bytes without building anything: it refuses truncated frames, trailing
    bytes, nesting deeper than S_DEPTH_MAX and containers that announce
    more entries than the frame has bytes left. Only a frame that passed
    goes to msgpack_unpack_next, so the unpacker never allocates for
    entries that are not there. The decoders then check the type and
    bounds of every field.
*/
#include "msg.h"
#include "version.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Nesting a frame may have: a message map holds a spec map, and newer
//  peers may add structured values, so a little more than two.
#define S_DEPTH_MAX 16

//  How much of a bad value an error message quotes.
#define S_QUOTE_MAX 32

//  --------------------------------------------------------------------
//  Output buffer

//  A growing byte buffer for the packer. After a failed allocation it
//  refuses everything, so a frame with a hole in it is never returned.
typedef struct {
    char *data;                 //  bytes written, malloc'ed
    size_t size;                //  bytes used
    size_t capacity;            //  bytes allocated
    bool failed;                //  an allocation failed
} s_buffer_t;

//  msgpack_packer_write callback: append len bytes. Returns 0 or -1.
static int
s_buffer_write (void *data, const char *bytes, size_t len)
{
    s_buffer_t *buffer = (s_buffer_t *) data;
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

//  Writes the fields of one message and counts them, so the map header
//  can be written afterwards with the right number of entries.
typedef struct {
    msgpack_packer pk;          //  packs into the body buffer
    size_t entries;             //  key-value pairs written
} s_writer_t;

//  Write a key; the value follows.
static void
s_put_key (s_writer_t *w, const char *key)
{
    msgpack_pack_str_with_body (&w->pk, key, strlen (key));
    w->entries++;
}

//  Write a string field from a char array of `capacity` bytes. Never reads
//  past capacity - 1, so a field without its NUL goes out cut, not overrun.
static void
s_put_str (s_writer_t *w, const char *key, const char *value, size_t capacity)
{
    s_put_key (w, key);
    msgpack_pack_str_with_body (&w->pk, value, strnlen (value, capacity - 1));
}

//  Write an unsigned integer field.
static void
s_put_uint (s_writer_t *w, const char *key, uint64_t value)
{
    s_put_key (w, key);
    msgpack_pack_uint64 (&w->pk, value);
}

//  Write a signed integer field.
static void
s_put_int (s_writer_t *w, const char *key, int64_t value)
{
    s_put_key (w, key);
    msgpack_pack_int64 (&w->pk, value);
}

//  Write a boolean field.
static void
s_put_bool (s_writer_t *w, const char *key, bool value)
{
    s_put_key (w, key);
    if (value)
        msgpack_pack_true (&w->pk);
    else
        msgpack_pack_false (&w->pk);
}

//  The key is the field's own name.
#define PUT_STR(w, s, f)    s_put_str (w, #f, (s)->f, sizeof ((s)->f))
#define PUT_UINT(w, s, f)   s_put_uint (w, #f, (s)->f)
#define PUT_INT(w, s, f)    s_put_int (w, #f, (s)->f)
#define PUT_BOOL(w, s, f)   s_put_bool (w, #f, (s)->f)

//  --------------------------------------------------------------------
//  Decoding helpers

//  Reads fields out of one message map. The first failure sticks: later
//  calls do nothing, so a decoder is a plain list of GET_ lines.
typedef struct {
    const msgpack_object_map *map;  //  the message
    char *err;                  //  reason of the first failure
    size_t errlen;
    int rc;                     //  MSG_OK until something fails
} s_reader_t;

//  Record a failure with a reason, unless one is recorded already.
static void
s_fail (s_reader_t *r, int rc, const char *format, ...)
    __attribute__ ((format (printf, 3, 4)));

static void
s_fail (s_reader_t *r, int rc, const char *format, ...)
{
    if (r->rc != MSG_OK)
        return;
    r->rc = rc;
    va_list args;
    va_start (args, format);
    vsnprintf (r->err, r->errlen, format, args);
    va_end (args);
}

//  Write a printable, bounded copy of len bytes for an error message.
static void
s_quote (const char *text, size_t len, char *buf, size_t buflen)
{
    assert (buflen >= S_QUOTE_MAX + 4);
    size_t shown = len > S_QUOTE_MAX? S_QUOTE_MAX: len;
    size_t i;
    for (i = 0; i < shown; i++) {
        unsigned char c = (unsigned char) text [i];
        buf [i] = (c < 0x20 || c >= 0x7f)? '?': (char) c;
    }
    if (shown < len) {
        memcpy (buf + i, "...", 3);
        i += 3;
    }
    buf [i] = 0;
}

//  The value of key in the map. A key that is missing or given twice
//  makes the message malformed and returns NULL.
static const msgpack_object *
s_find (s_reader_t *r, const char *key)
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
                s_fail (r, MSG_EMALFORMED, "key '%s' given twice", key);
                return NULL;
            }
            found = &r->map->ptr [i].val;
        }
    }
    if (!found)
        s_fail (r, MSG_EMALFORMED, "missing key '%s'", key);
    return found;
}

//  Record a value of the wrong msgpack type.
static void
s_wrong_type (s_reader_t *r, const char *key, const char *wanted)
{
    s_fail (r, MSG_EMALFORMED, "wrong type for key '%s' (want %s)", key, wanted);
}

//  Copy a string field into dst of `capacity` bytes; it must fit with
//  its NUL and hold no NUL of its own.
static void
s_get_str (s_reader_t *r, const char *key, char *dst, size_t capacity)
{
    const msgpack_object *value = s_find (r, key);
    if (!value)
        return;
    if (value->type != MSGPACK_OBJECT_STR) {
        s_wrong_type (r, key, "a string");
        return;
    }
    size_t len = value->via.str.size;
    if (len > capacity - 1) {
        s_fail (r, MSG_EMALFORMED, "key '%s': %zu bytes, longer than the limit %zu",
                key, len, capacity - 1);
        return;
    }
    if (memchr (value->via.str.ptr, 0, len)) {
        s_fail (r, MSG_EMALFORMED, "key '%s': contains a NUL byte", key);
        return;
    }
    memcpy (dst, value->via.str.ptr, len);
    dst [len] = 0;
}

//  Read an unsigned integer field no larger than max into *value.
static bool
s_get_unsigned (s_reader_t *r, const char *key, uint64_t max, uint64_t *value)
{
    const msgpack_object *object = s_find (r, key);
    if (!object)
        return false;
    if (object->type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
        s_wrong_type (r, key, "an unsigned integer");
        return false;
    }
    if (object->via.u64 > max) {
        s_fail (r, MSG_EMALFORMED, "key '%s': %" PRIu64 " is out of range", key,
                object->via.u64);
        return false;
    }
    *value = object->via.u64;
    return true;
}

//  Read a signed integer field within [min, max] into *value. msgpack
//  writes non-negative numbers as unsigned, so both kinds are accepted.
static bool
s_get_signed (s_reader_t *r, const char *key, int64_t min, int64_t max, int64_t *value)
{
    const msgpack_object *object = s_find (r, key);
    if (!object)
        return false;
    if (object->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
        if (object->via.u64 > (uint64_t) max) {
            s_fail (r, MSG_EMALFORMED, "key '%s': %" PRIu64 " is out of range", key,
                    object->via.u64);
            return false;
        }
        *value = (int64_t) object->via.u64;
        return true;
    }
    if (object->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
        if (object->via.i64 < min) {
            s_fail (r, MSG_EMALFORMED, "key '%s': %" PRId64 " is out of range", key,
                    object->via.i64);
            return false;
        }
        *value = object->via.i64;
        return true;
    }
    s_wrong_type (r, key, "an integer");
    return false;
}

//  Typed wrappers, so that the compiler checks each field's type.
static void
s_get_uint64 (s_reader_t *r, const char *key, uint64_t *field)
{
    s_get_unsigned (r, key, UINT64_MAX, field);
}

static void
s_get_uint32 (s_reader_t *r, const char *key, uint32_t *field)
{
    uint64_t value;
    if (s_get_unsigned (r, key, UINT32_MAX, &value))
        *field = (uint32_t) value;
}

static void
s_get_int64 (s_reader_t *r, const char *key, int64_t *field)
{
    s_get_signed (r, key, INT64_MIN, INT64_MAX, field);
}

static void
s_get_int32 (s_reader_t *r, const char *key, int32_t *field)
{
    int64_t value;
    if (s_get_signed (r, key, INT32_MIN, INT32_MAX, &value))
        *field = (int32_t) value;
}

static void
s_get_bool (s_reader_t *r, const char *key, bool *field)
{
    const msgpack_object *value = s_find (r, key);
    if (!value)
        return;
    if (value->type != MSGPACK_OBJECT_BOOLEAN) {
        s_wrong_type (r, key, "a boolean");
        return;
    }
    *field = value->via.boolean;
}

#define GET_STR(r, s, f)    s_get_str (r, #f, (s)->f, sizeof ((s)->f))
#define GET_U64(r, s, f)    s_get_uint64 (r, #f, &(s)->f)
#define GET_U32(r, s, f)    s_get_uint32 (r, #f, &(s)->f)
#define GET_I64(r, s, f)    s_get_int64 (r, #f, &(s)->f)
#define GET_I32(r, s, f)    s_get_int32 (r, #f, &(s)->f)
#define GET_BOOL(r, s, f)   s_get_bool (r, #f, &(s)->f)

//  --------------------------------------------------------------------
//  One encoder and one decoder per message

static void
s_encode_hello (const msg_t *msg, s_writer_t *w)
{
    const msg_hello_t *m = &msg->u.hello;
    PUT_STR (w, m, coordinator);
    PUT_UINT (w, m, lease_ms);
    PUT_BOOL (w, m, probe);
}

static void
s_decode_hello (s_reader_t *r, msg_t *msg)
{
    msg_hello_t *m = &msg->u.hello;
    GET_STR (r, m, coordinator);
    GET_U32 (r, m, lease_ms);
    GET_BOOL (r, m, probe);
}

static void
s_encode_welcome (const msg_t *msg, s_writer_t *w)
{
    const msg_welcome_t *m = &msg->u.welcome;
    PUT_STR (w, m, name);
    PUT_STR (w, m, hostname);
    PUT_STR (w, m, kernel);
    PUT_UINT (w, m, cpus);
    PUT_UINT (w, m, mem_bytes);
    PUT_BOOL (w, m, insecure);
    PUT_STR (w, m, serving);
    PUT_STR (w, m, version);
    PUT_UINT (w, m, session_id);
}

static void
s_decode_welcome (s_reader_t *r, msg_t *msg)
{
    msg_welcome_t *m = &msg->u.welcome;
    GET_STR (r, m, name);
    GET_STR (r, m, hostname);
    GET_STR (r, m, kernel);
    GET_U32 (r, m, cpus);
    GET_U64 (r, m, mem_bytes);
    GET_BOOL (r, m, insecure);
    GET_STR (r, m, serving);
    GET_STR (r, m, version);
    GET_U64 (r, m, session_id);
}

static void
s_encode_ping (const msg_t *msg, s_writer_t *w)
{
    const msg_ping_t *m = &msg->u.ping;
    PUT_UINT (w, m, seq);
    PUT_INT (w, m, t1_ns);
    PUT_UINT (w, m, session_id);
}

static void
s_decode_ping (s_reader_t *r, msg_t *msg)
{
    msg_ping_t *m = &msg->u.ping;
    GET_U32 (r, m, seq);
    GET_I64 (r, m, t1_ns);
    GET_U64 (r, m, session_id);
}

static void
s_encode_pong (const msg_t *msg, s_writer_t *w)
{
    const msg_pong_t *m = &msg->u.pong;
    PUT_UINT (w, m, seq);
    PUT_INT (w, m, t1_ns);
    PUT_INT (w, m, t2_ns);
    PUT_INT (w, m, t3_ns);
    PUT_UINT (w, m, session_id);
}

static void
s_decode_pong (s_reader_t *r, msg_t *msg)
{
    msg_pong_t *m = &msg->u.pong;
    GET_U32 (r, m, seq);
    GET_I64 (r, m, t1_ns);
    GET_I64 (r, m, t2_ns);
    GET_I64 (r, m, t3_ns);
    GET_U64 (r, m, session_id);
}

static void
s_encode_prepare (const msg_t *msg, s_writer_t *w)
{
    const msg_prepare_t *m = &msg->u.prepare;
    PUT_UINT (w, m, test_id);
    PUT_UINT (w, m, job_id);
    s_put_key (w, "spec");
    jobspec_encode (&m->spec, &w->pk);
}

static void
s_decode_prepare (s_reader_t *r, msg_t *msg)
{
    msg_prepare_t *m = &msg->u.prepare;
    GET_U32 (r, m, test_id);
    GET_U32 (r, m, job_id);
    const msgpack_object *spec = s_find (r, "spec");
    if (!spec)
        return;
    if (spec->type != MSGPACK_OBJECT_MAP) {
        s_wrong_type (r, "spec", "a map");
        return;
    }
    //  The spec's keys follow the option table: missing ones take their
    //  defaults, and the values are checked against the table's bounds.
    char reason [256];
    if (jobspec_decode (spec, &m->spec, reason, sizeof (reason)))
        s_fail (r, MSG_EMALFORMED, "key 'spec': %s", reason);
}

static void
s_encode_ready (const msg_t *msg, s_writer_t *w)
{
    const msg_ready_t *m = &msg->u.ready;
    PUT_UINT (w, m, test_id);
    PUT_UINT (w, m, job_id);
    PUT_UINT (w, m, streams);
    PUT_UINT (w, m, job_class);
    PUT_UINT (w, m, fill_bytes);
    PUT_INT (w, m, fill_ns);
}

static void
s_decode_ready (s_reader_t *r, msg_t *msg)
{
    msg_ready_t *m = &msg->u.ready;
    GET_U32 (r, m, test_id);
    GET_U32 (r, m, job_id);
    GET_U32 (r, m, streams);
    GET_U32 (r, m, job_class);
    GET_U64 (r, m, fill_bytes);
    GET_I64 (r, m, fill_ns);
}

static void
s_encode_start (const msg_t *msg, s_writer_t *w)
{
    const msg_start_t *m = &msg->u.start;
    PUT_UINT (w, m, test_id);
    PUT_UINT (w, m, phase);
    PUT_UINT (w, m, phase_count);
    PUT_INT (w, m, start_ns);
}

static void
s_decode_start (s_reader_t *r, msg_t *msg)
{
    msg_start_t *m = &msg->u.start;
    GET_U32 (r, m, test_id);
    GET_U32 (r, m, phase);
    GET_U32 (r, m, phase_count);
    GET_I64 (r, m, start_ns);
}

static void
s_encode_sample (const msg_t *msg, s_writer_t *w)
{
    const msg_sample_t *m = &msg->u.sample;
    PUT_UINT (w, m, test_id);
    PUT_UINT (w, m, job_id);
    PUT_UINT (w, m, stream);
    PUT_UINT (w, m, phase);
    PUT_INT (w, m, t_ns);
    PUT_UINT (w, m, bytes);
}

static void
s_decode_sample (s_reader_t *r, msg_t *msg)
{
    msg_sample_t *m = &msg->u.sample;
    GET_U32 (r, m, test_id);
    GET_U32 (r, m, job_id);
    GET_U32 (r, m, stream);
    GET_U32 (r, m, phase);
    GET_I64 (r, m, t_ns);
    GET_U64 (r, m, bytes);
}

static void
s_encode_result (const msg_t *msg, s_writer_t *w)
{
    const msg_result_t *m = &msg->u.result;
    PUT_UINT (w, m, test_id);
    PUT_UINT (w, m, job_id);
    PUT_UINT (w, m, stream);
    PUT_UINT (w, m, phase);
    PUT_UINT (w, m, bytes);
    PUT_UINT (w, m, reads);
    PUT_UINT (w, m, writes);
    PUT_UINT (w, m, fsyncs);
    PUT_INT (w, m, start_ns);
    PUT_INT (w, m, last_write_ns);
    PUT_INT (w, m, end_ns);
    PUT_INT (w, m, usr_ns);
    PUT_INT (w, m, sys_ns);
    PUT_INT (w, m, err_no);
    PUT_STR (w, m, error);
    PUT_STR (w, m, path);
}

static void
s_decode_result (s_reader_t *r, msg_t *msg)
{
    msg_result_t *m = &msg->u.result;
    GET_U32 (r, m, test_id);
    GET_U32 (r, m, job_id);
    GET_U32 (r, m, stream);
    GET_U32 (r, m, phase);
    GET_U64 (r, m, bytes);
    GET_U64 (r, m, reads);
    GET_U64 (r, m, writes);
    GET_U64 (r, m, fsyncs);
    GET_I64 (r, m, start_ns);
    GET_I64 (r, m, last_write_ns);
    GET_I64 (r, m, end_ns);
    GET_I64 (r, m, usr_ns);
    GET_I64 (r, m, sys_ns);
    GET_I32 (r, m, err_no);
    GET_STR (r, m, error);
    GET_STR (r, m, path);
}

static void
s_encode_abort (const msg_t *msg, s_writer_t *w)
{
    const msg_abort_t *m = &msg->u.abort;
    PUT_UINT (w, m, test_id);
    PUT_STR (w, m, reason);
}

static void
s_decode_abort (s_reader_t *r, msg_t *msg)
{
    msg_abort_t *m = &msg->u.abort;
    GET_U32 (r, m, test_id);
    GET_STR (r, m, reason);
}

static void
s_encode_bye (const msg_t *msg, s_writer_t *w)
{
    const msg_bye_t *m = &msg->u.bye;
    PUT_STR (w, m, reason);
}

static void
s_decode_bye (s_reader_t *r, msg_t *msg)
{
    msg_bye_t *m = &msg->u.bye;
    GET_STR (r, m, reason);
}

static void
s_encode_error (const msg_t *msg, s_writer_t *w)
{
    const msg_error_t *m = &msg->u.error;
    PUT_UINT (w, m, test_id);
    PUT_INT (w, m, job_id);
    PUT_STR (w, m, code);
    PUT_STR (w, m, text);
}

static void
s_decode_error (s_reader_t *r, msg_t *msg)
{
    msg_error_t *m = &msg->u.error;
    GET_U32 (r, m, test_id);
    GET_I32 (r, m, job_id);
    GET_STR (r, m, code);
    GET_STR (r, m, text);
}

static void
s_encode_host (const msg_t *msg, s_writer_t *w)
{
    const msg_host_t *m = &msg->u.host;
    PUT_UINT (w, m, test_id);
    PUT_UINT (w, m, phase);
    PUT_INT (w, m, window_start_ns);
    PUT_INT (w, m, window_end_ns);
    PUT_INT (w, m, settle_end_ns);
#define S_PUT_COUNTER(name) PUT_UINT (w, m, name);
    MSG_HOST_COUNTERS (S_PUT_COUNTER)
#undef S_PUT_COUNTER
}

static void
s_decode_host (s_reader_t *r, msg_t *msg)
{
    msg_host_t *m = &msg->u.host;
    GET_U32 (r, m, test_id);
    GET_U32 (r, m, phase);
    GET_I64 (r, m, window_start_ns);
    GET_I64 (r, m, window_end_ns);
    GET_I64 (r, m, settle_end_ns);
#define S_GET_COUNTER(name) GET_U64 (r, m, name);
    MSG_HOST_COUNTERS (S_GET_COUNTER)
#undef S_GET_COUNTER
}

static void
s_encode_monitor (const msg_t *msg, s_writer_t *w)
{
    const msg_monitor_t *m = &msg->u.monitor;
    PUT_UINT (w, m, test_id);
    PUT_UINT (w, m, job_id);
    PUT_INT (w, m, t_ns);
#define S_PUT_COUNTER(name) PUT_UINT (w, m, name);
    MSG_MONITOR_COUNTERS (S_PUT_COUNTER)
#undef S_PUT_COUNTER
}

static void
s_decode_monitor (s_reader_t *r, msg_t *msg)
{
    msg_monitor_t *m = &msg->u.monitor;
    GET_U32 (r, m, test_id);
    GET_U32 (r, m, job_id);
    GET_I64 (r, m, t_ns);
#define S_GET_COUNTER(name) GET_U64 (r, m, name);
    MSG_MONITOR_COUNTERS (S_GET_COUNTER)
#undef S_GET_COUNTER
}

static void
s_encode_stop (const msg_t *msg, s_writer_t *w)
{
    PUT_UINT (w, &msg->u.stop, test_id);
    PUT_UINT (w, &msg->u.stop, phase);
}

static void
s_decode_stop (s_reader_t *r, msg_t *msg)
{
    GET_U32 (r, &msg->u.stop, test_id);
    GET_U32 (r, &msg->u.stop, phase);
}

static void
s_encode_drop (const msg_t *msg, s_writer_t *w)
{
    PUT_UINT (w, &msg->u.drop, test_id);
}

static void
s_decode_drop (s_reader_t *r, msg_t *msg)
{
    GET_U32 (r, &msg->u.drop, test_id);
}

static void
s_encode_dropped (const msg_t *msg, s_writer_t *w)
{
    PUT_UINT (w, &msg->u.dropped, test_id);
}

static void
s_decode_dropped (s_reader_t *r, msg_t *msg)
{
    GET_U32 (r, &msg->u.dropped, test_id);
}

//  Every message type: its name on the wire, encoder and decoder.
typedef struct {
    const char *name;           //  the "t" value
    void (*encode) (const msg_t *msg, s_writer_t *w);
    void (*decode) (s_reader_t *r, msg_t *msg);
} s_codec_t;

static const s_codec_t s_codecs [MSG_TYPE_COUNT] = {
    [MSG_HELLO]   = { "hello",   s_encode_hello,   s_decode_hello },
    [MSG_WELCOME] = { "welcome", s_encode_welcome, s_decode_welcome },
    [MSG_PING]    = { "ping",    s_encode_ping,    s_decode_ping },
    [MSG_PONG]    = { "pong",    s_encode_pong,    s_decode_pong },
    [MSG_PREPARE] = { "prepare", s_encode_prepare, s_decode_prepare },
    [MSG_READY]   = { "ready",   s_encode_ready,   s_decode_ready },
    [MSG_START]   = { "start",   s_encode_start,   s_decode_start },
    [MSG_SAMPLE]  = { "sample",  s_encode_sample,  s_decode_sample },
    [MSG_RESULT]  = { "result",  s_encode_result,  s_decode_result },
    [MSG_ABORT]   = { "abort",   s_encode_abort,   s_decode_abort },
    [MSG_BYE]     = { "bye",     s_encode_bye,     s_decode_bye },
    [MSG_ERROR]   = { "error",   s_encode_error,   s_decode_error },
    [MSG_HOST]    = { "host",    s_encode_host,    s_decode_host },
    [MSG_MONITOR] = { "monitor", s_encode_monitor, s_decode_monitor },
    [MSG_STOP]    = { "stop",    s_encode_stop,    s_decode_stop },
    [MSG_DROP]    = { "drop",    s_encode_drop,    s_decode_drop },
    [MSG_DROPPED] = { "dropped", s_encode_dropped, s_decode_dropped },
};

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
    s_buffer_t body = { 0 };
    s_buffer_t frame = { 0 };
    s_writer_t w = { .entries = 0 };
    msgpack_packer_init (&w.pk, &body, s_buffer_write);
    codec->encode (msg, &w);

    msgpack_packer pk;
    msgpack_packer_init (&pk, &frame, s_buffer_write);
    msgpack_pack_map (&pk, w.entries + 2);
    msgpack_pack_str_with_body (&pk, "v", 1);
    msgpack_pack_uint64 (&pk, IOFLEET_PROTOCOL_VERSION);
    msgpack_pack_str_with_body (&pk, "t", 1);
    msgpack_pack_str_with_body (&pk, codec->name, strlen (codec->name));
    s_buffer_write (&frame, body.data, body.size);
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
static int
s_check_frame (const uint8_t *data, size_t size, char *err, size_t errlen)
{
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

//  Check "v" and "t" of a message map and return its type, or 0 with
//  the failure recorded in r.
static msg_type_t
s_decode_envelope (s_reader_t *r)
{
    const msgpack_object *version = s_find (r, "v");
    if (!version)
        return 0;
    if (version->type != MSGPACK_OBJECT_POSITIVE_INTEGER) {
        s_wrong_type (r, "v", "an unsigned integer");
        return 0;
    }
    if (version->via.u64 != IOFLEET_PROTOCOL_VERSION) {
        s_fail (r, MSG_EVERSION, "protocol version %" PRIu64 ", this side speaks %d",
                version->via.u64, IOFLEET_PROTOCOL_VERSION);
        return 0;
    }
    const msgpack_object *name = s_find (r, "t");
    if (!name)
        return 0;
    if (name->type != MSGPACK_OBJECT_STR) {
        s_wrong_type (r, "t", "a string");
        return 0;
    }
    for (int type = 1; type < MSG_TYPE_COUNT; type++) {
        const char *known = s_codecs [type].name;
        if (strlen (known) == name->via.str.size
        &&  memcmp (known, name->via.str.ptr, name->via.str.size) == 0)
            return (msg_type_t) type;
    }
    char quoted [S_QUOTE_MAX + 4];
    s_quote (name->via.str.ptr, name->via.str.size, quoted, sizeof (quoted));
    s_fail (r, MSG_EMALFORMED, "unknown message type '%s'", quoted);
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
    if (s_check_frame ((const uint8_t *) data, size, err, errlen))
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
        s_reader_t reader = {
            .map = &unpacked.data.via.map, .err = err, .errlen = errlen, .rc = MSG_OK
        };
        msg_type_t type = s_decode_envelope (&reader);
        if (reader.rc == MSG_OK) {
            msg->type = type;
            s_codecs [type].decode (&reader, msg);
        }
        rc = reader.rc;
    }
    msgpack_unpacked_destroy (&unpacked);
    if (rc != MSG_OK)
        memset (msg, 0, sizeof (*msg));     //  nothing half-decoded escapes
    return rc;
}

//  The frame check of msg_decode, for other decoders' tests.
int
msg_check_frame (const void *data, size_t size, char *err, size_t errlen)
{
    assert (err && errlen > 0);
    assert (data || size == 0);
    return s_check_frame ((const uint8_t *) data, size, err, errlen);
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
