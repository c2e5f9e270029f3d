/*  proto/msg.c: encoders and decoders of every message; see msg.h.

    Each message type has one static encoder and one static decoder,
    listed in s_codecs[], indexed by type. The keys on the wire are the
    field names of the message's struct: the PUT_ and GET_ macros take the
    key from the field itself, so the two cannot drift apart.

    Decoding is defensive in two layers. msg_check_frame (msg_frame.c)
    first walks the raw bytes without building anything; only a frame
    that passed goes to msgpack_unpack_next, so the unpacker never
    allocates for entries that are not there. The decoders then check the
    type and bounds of every field, with the readers of msg_field.h.
*/
#include "msg.h"
#include "msg_field.h"
#include "printable.h"
#include "version.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  --------------------------------------------------------------------
//  One encoder and one decoder per message

static void
s_encode_hello (const msg_t *msg, msg_writer_t *w)
{
    const msg_hello_t *m = &msg->u.hello;
    PUT_STR (w, m, coordinator);
    PUT_UINT (w, m, lease_ms);
    PUT_BOOL (w, m, probe);
}

static void
s_decode_hello (msg_reader_t *r, msg_t *msg)
{
    msg_hello_t *m = &msg->u.hello;
    GET_STR (r, m, coordinator);
    GET_U32 (r, m, lease_ms);
    GET_BOOL (r, m, probe);
}

static void
s_encode_welcome (const msg_t *msg, msg_writer_t *w)
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
s_decode_welcome (msg_reader_t *r, msg_t *msg)
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
s_encode_ping (const msg_t *msg, msg_writer_t *w)
{
    const msg_ping_t *m = &msg->u.ping;
    PUT_UINT (w, m, seq);
    PUT_INT (w, m, t1_ns);
    PUT_UINT (w, m, session_id);
}

static void
s_decode_ping (msg_reader_t *r, msg_t *msg)
{
    msg_ping_t *m = &msg->u.ping;
    GET_U32 (r, m, seq);
    GET_I64 (r, m, t1_ns);
    GET_U64 (r, m, session_id);
}

static void
s_encode_pong (const msg_t *msg, msg_writer_t *w)
{
    const msg_pong_t *m = &msg->u.pong;
    PUT_UINT (w, m, seq);
    PUT_INT (w, m, t1_ns);
    PUT_INT (w, m, t2_ns);
    PUT_INT (w, m, t3_ns);
    PUT_UINT (w, m, session_id);
}

static void
s_decode_pong (msg_reader_t *r, msg_t *msg)
{
    msg_pong_t *m = &msg->u.pong;
    GET_U32 (r, m, seq);
    GET_I64 (r, m, t1_ns);
    GET_I64 (r, m, t2_ns);
    GET_I64 (r, m, t3_ns);
    GET_U64 (r, m, session_id);
}

static void
s_encode_prepare (const msg_t *msg, msg_writer_t *w)
{
    const msg_prepare_t *m = &msg->u.prepare;
    PUT_UINT (w, m, test_id);
    PUT_UINT (w, m, job_id);
    msg_put_key (w, "spec");
    jobspec_encode (&m->spec, &w->pk);
}

static void
s_decode_prepare (msg_reader_t *r, msg_t *msg)
{
    msg_prepare_t *m = &msg->u.prepare;
    GET_U32 (r, m, test_id);
    GET_U32 (r, m, job_id);
    const msgpack_object *spec = msg_get_value (r, "spec");
    if (!spec)
        return;
    if (spec->type != MSGPACK_OBJECT_MAP) {
        msg_wrong_type (r, "spec", "a map");
        return;
    }
    //  The spec's keys follow the option table: missing ones take their
    //  defaults, and the values are checked against the table's bounds.
    char reason [256];
    if (jobspec_decode (spec, &m->spec, reason, sizeof (reason)))
        msg_reader_fail (r, MSG_EMALFORMED, "key 'spec': %s", reason);
}

static void
s_encode_ready (const msg_t *msg, msg_writer_t *w)
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
s_decode_ready (msg_reader_t *r, msg_t *msg)
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
s_encode_start (const msg_t *msg, msg_writer_t *w)
{
    const msg_start_t *m = &msg->u.start;
    PUT_UINT (w, m, test_id);
    PUT_UINT (w, m, phase);
    PUT_UINT (w, m, phase_count);
    PUT_INT (w, m, start_ns);
}

static void
s_decode_start (msg_reader_t *r, msg_t *msg)
{
    msg_start_t *m = &msg->u.start;
    GET_U32 (r, m, test_id);
    GET_U32 (r, m, phase);
    GET_U32 (r, m, phase_count);
    GET_I64 (r, m, start_ns);
}

static void
s_encode_sample (const msg_t *msg, msg_writer_t *w)
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
s_decode_sample (msg_reader_t *r, msg_t *msg)
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
s_encode_result (const msg_t *msg, msg_writer_t *w)
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
    PUT_INT (w, m, last_issue_ns);
    PUT_INT (w, m, last_write_ns);
    PUT_INT (w, m, end_ns);
    PUT_INT (w, m, usr_ns);
    PUT_INT (w, m, sys_ns);
    PUT_INT (w, m, err_no);
    PUT_STR (w, m, error);
    PUT_STR (w, m, path);
    msg_put_key (w, "latency");
    msgpack_pack_array (&w->pk, MSG_LATENCY_KINDS);
    for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
        histogram_pack (&m->latency [kind], &w->pk);
}

static void
s_decode_result (msg_reader_t *r, msg_t *msg)
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
    GET_I64 (r, m, last_issue_ns);
    GET_I64 (r, m, last_write_ns);
    GET_I64 (r, m, end_ns);
    GET_I64 (r, m, usr_ns);
    GET_I64 (r, m, sys_ns);
    GET_I32 (r, m, err_no);
    GET_STR (r, m, error);
    GET_STR (r, m, path);
    const msgpack_object *latency = msg_get_value (r, "latency");
    if (!latency)
        return;
    if (latency->type != MSGPACK_OBJECT_ARRAY || latency->via.array.size != MSG_LATENCY_KINDS) {
        msg_wrong_type (r, "latency", "an array of 3 histograms");
        return;
    }
    for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++) {
        char reason [256];
        if (histogram_unpack (&latency->via.array.ptr [kind], &m->latency [kind],
                              reason, sizeof (reason))) {
            static const char *const names [] = { "read", "write", "fsync" };
            msg_reader_fail (r, MSG_EMALFORMED, "key 'latency': %s: %s", names [kind], reason);
            return;
        }
    }
}

static void
s_encode_abort (const msg_t *msg, msg_writer_t *w)
{
    const msg_abort_t *m = &msg->u.abort;
    PUT_UINT (w, m, test_id);
    PUT_STR (w, m, reason);
}

static void
s_decode_abort (msg_reader_t *r, msg_t *msg)
{
    msg_abort_t *m = &msg->u.abort;
    GET_U32 (r, m, test_id);
    GET_STR (r, m, reason);
}

static void
s_encode_bye (const msg_t *msg, msg_writer_t *w)
{
    const msg_bye_t *m = &msg->u.bye;
    PUT_STR (w, m, reason);
}

static void
s_decode_bye (msg_reader_t *r, msg_t *msg)
{
    msg_bye_t *m = &msg->u.bye;
    GET_STR (r, m, reason);
}

static void
s_encode_error (const msg_t *msg, msg_writer_t *w)
{
    const msg_error_t *m = &msg->u.error;
    PUT_UINT (w, m, test_id);
    PUT_INT (w, m, job_id);
    PUT_STR (w, m, code);
    PUT_STR (w, m, text);
}

static void
s_decode_error (msg_reader_t *r, msg_t *msg)
{
    msg_error_t *m = &msg->u.error;
    GET_U32 (r, m, test_id);
    GET_I32 (r, m, job_id);
    GET_STR (r, m, code);
    GET_STR (r, m, text);
}

static void
s_encode_host (const msg_t *msg, msg_writer_t *w)
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
s_decode_host (msg_reader_t *r, msg_t *msg)
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
s_encode_monitor (const msg_t *msg, msg_writer_t *w)
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
s_decode_monitor (msg_reader_t *r, msg_t *msg)
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
s_encode_stop (const msg_t *msg, msg_writer_t *w)
{
    PUT_UINT (w, &msg->u.stop, test_id);
    PUT_UINT (w, &msg->u.stop, phase);
}

static void
s_decode_stop (msg_reader_t *r, msg_t *msg)
{
    GET_U32 (r, &msg->u.stop, test_id);
    GET_U32 (r, &msg->u.stop, phase);
}

static void
s_encode_drop (const msg_t *msg, msg_writer_t *w)
{
    PUT_UINT (w, &msg->u.drop, test_id);
}

static void
s_decode_drop (msg_reader_t *r, msg_t *msg)
{
    GET_U32 (r, &msg->u.drop, test_id);
}

static void
s_encode_dropped (const msg_t *msg, msg_writer_t *w)
{
    PUT_UINT (w, &msg->u.dropped, test_id);
}

static void
s_decode_dropped (msg_reader_t *r, msg_t *msg)
{
    GET_U32 (r, &msg->u.dropped, test_id);
}

//  Every message type: its name on the wire, encoder and decoder.
typedef struct {
    const char *name;           //  the "t" value
    void (*encode) (const msg_t *msg, msg_writer_t *w);
    void (*decode) (msg_reader_t *r, msg_t *msg);
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
    msg_buffer_t body = { 0 };
    msg_buffer_t frame = { 0 };
    msg_writer_t w = { .entries = 0 };
    msgpack_packer_init (&w.pk, &body, msg_buffer_write);
    codec->encode (msg, &w);

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
            s_codecs [type].decode (&reader, msg);
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
