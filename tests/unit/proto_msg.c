/*  tests/unit/proto_msg.c: every message round trip, and the decoder
    against truncated, padded, mistyped, oversized and random frames.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../proto/msg.h"
#include "../../proto/workload.h"
#include "../../proto/version.h"
#include "../../proto/clock.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB ((uint64_t) 1 << 20)

//  A message of type with every field set away from zero and its default.
static void
s_sample (msg_type_t type, msg_t *msg)
{
    memset (msg, 0, sizeof (*msg));
    msg->type = type;
    switch (type) {
        case MSG_HELLO:
            strcpy (msg->u.hello.coordinator, "alice@console pid=4242");
            msg->u.hello.lease_ms = 15000;
            msg->u.hello.probe = true;
            break;
        case MSG_WELCOME:
            strcpy (msg->u.welcome.name, "nfs1");
            strcpy (msg->u.welcome.hostname, "nfs1.lab.example");
            strcpy (msg->u.welcome.kernel, "6.1.0-18-amd64");
            msg->u.welcome.cpus = 48;
            msg->u.welcome.mem_bytes = 270582939648ULL;
            msg->u.welcome.insecure = true;
            strcpy (msg->u.welcome.serving, "bob@other pid=7");
            strcpy (msg->u.welcome.version, "0.1.0");
            msg->u.welcome.session_id = 0xFEEDFACECAFEBEEFULL;
            break;
        case MSG_PING:
            msg->u.ping.seq = 7;
            msg->u.ping.t1_ns = 123456789012345LL;
            msg->u.ping.session_id = UINT64_MAX;
            msg->u.ping.lease_ms = 25000;
            break;
        case MSG_PONG:
            msg->u.pong.seq = 4000000000U;
            msg->u.pong.t1_ns = 123456789012345LL;
            msg->u.pong.t2_ns = -98765432100LL;
            msg->u.pong.t3_ns = INT64_MAX;
            msg->u.pong.session_id = 1;
            break;
        case MSG_PREPARE: {
            msg->u.prepare.test_id = 3;
            msg->u.prepare.job_id = 2;
            jobspec_t *spec = &msg->u.prepare.spec;
            jobspec_defaults (spec);
            strcpy (spec->name, "mix3-net");
            strcpy (spec->test, "mix3");
            spec->workload = WORKLOAD_NULL;
            strcpy (spec->path, "/data/iofleet/mix3");
            strcpy (spec->src, "nfs://192.0.2.20/export/src5g");
            strcpy (spec->dst, "/data/iofleet/mix3-net");
            spec->size_bytes = 5583457485ULL;
            spec->bs_bytes = 4096;
            spec->streams = 3;
            spec->direct = true;
            spec->fsync_mode = FSYNC_CLOSE;
            spec->pattern = PATTERN_RANDOM;
            spec->job_class = CLASS_NETWORK;
            spec->keep = true;
            spec->interval_ns = 250 * NS_PER_MSEC;
            break;
        }
        case MSG_READY:
            msg->u.ready.test_id = 3;
            msg->u.ready.job_id = 1;
            msg->u.ready.streams = 256;
            msg->u.ready.job_class = CLASS_NETWORK;
            msg->u.ready.fill_bytes = 5583457485ULL;
            msg->u.ready.fill_ns = 31000000000LL;
            break;
        case MSG_START:
            msg->u.start.test_id = 9;
            msg->u.start.start_ns = 5000000000123LL;
            msg->u.start.phase = 3;
            msg->u.start.phase_count = 4;
            break;
        case MSG_SAMPLE:
            msg->u.sample.test_id = 9;
            msg->u.sample.job_id = 4;
            msg->u.sample.stream = 2;
            msg->u.sample.t_ns = 5001000000456LL;
            msg->u.sample.bytes = 123 * MIB;
            msg->u.sample.phase = 1;
            break;
        case MSG_RESULT:
            msg->u.result.test_id = 9;
            msg->u.result.job_id = 4;
            msg->u.result.stream = 2;
            msg->u.result.bytes = 5583457485ULL;
            msg->u.result.start_ns = 5000000000123LL;
            msg->u.result.last_issue_ns = 5049999000000LL;
            msg->u.result.last_write_ns = 5050000000000LL;
            msg->u.result.end_ns = 5052000000000LL;
            msg->u.result.usr_ns = 120000000;
            msg->u.result.sys_ns = 31000000000LL;
            msg->u.result.err_no = 28;
            strcpy (msg->u.result.error, "write(/data/x.1): No space left on device");
            strcpy (msg->u.result.path, "/data/x.1");
            msg->u.result.phase = 2;
            msg->u.result.reads = 8000;
            msg->u.result.writes = 800;
            msg->u.result.fsyncs = 1;
            //  Latencies across the layout: exact small values, a
            //  millisecond, a minute, and one past the range.
            for (int64_t ns = 1; ns < 300; ns += 7)
                histogram_record (&msg->u.result.latency [MSG_LATENCY_READ], ns);
            histogram_record (&msg->u.result.latency [MSG_LATENCY_WRITE], 1000000);
            histogram_record (&msg->u.result.latency [MSG_LATENCY_WRITE], 60000000000LL);
            histogram_record (&msg->u.result.latency [MSG_LATENCY_FSYNC], INT64_MAX);
            break;
        case MSG_ABORT:
            msg->u.abort.test_id = 11;
            strcpy (msg->u.abort.reason, "interrupted (Ctrl-C)");
            break;
        case MSG_BYE:
            strcpy (msg->u.bye.reason, "session over");
            break;
        case MSG_ERROR:
            msg->u.error.test_id = 12;
            msg->u.error.job_id = -1;
            strcpy (msg->u.error.code, "busy");
            strcpy (msg->u.error.text, "serving alice@console pid=4242");
            break;
        case MSG_HOST: {
            msg->u.host.test_id = 13;
            msg->u.host.phase = 1;
            msg->u.host.window_start_ns = 1000;
            msg->u.host.window_end_ns = 2000000000;
            msg->u.host.settle_end_ns = 2500000000;
            //  Every counter different, so a swap of two would show.
            uint64_t value = 101;
#define S_SET_COUNTER(name) msg->u.host.name = value++ * 1000003;
            MSG_HOST_COUNTERS (S_SET_COUNTER)
#undef S_SET_COUNTER
            break;
        }
        case MSG_MONITOR: {
            msg->u.monitor.test_id = 14;
            msg->u.monitor.job_id = 3;
            msg->u.monitor.t_ns = 987654321;
            uint64_t value = 201;
#define S_SET_COUNTER(name) msg->u.monitor.name = value++ * 999983;
            MSG_MONITOR_COUNTERS (S_SET_COUNTER)
#undef S_SET_COUNTER
            break;
        }
        case MSG_STOP:
            msg->u.stop.test_id = 15;
            msg->u.stop.phase = 2;
            break;
        case MSG_DROP:
            msg->u.drop.test_id = 16;
            break;
        case MSG_DROPPED:
            msg->u.dropped.test_id = 17;
            break;
        case MSG_PREFLIGHT: {
            //  The spec of PREPARE's sample, whose fields are all set.
            msg_t prepare;
            s_sample (MSG_PREPARE, &prepare);
            msg->u.preflight.test_id = 18;
            msg->u.preflight.job_id = 2;
            msg->u.preflight.first = true;
            msg->u.preflight.spec = prepare.u.prepare.spec;
            break;
        }
        case MSG_PREFLIGHT_REPLY:
            msg->u.preflight_reply.test_id = 19;
            msg->u.preflight_reply.job_id = 3;
            strcpy (msg->u.preflight_reply.problem, "roots");
            strcpy (msg->u.preflight_reply.subject, "/data/iofleet/dd1");
            strcpy (msg->u.preflight_reply.text,
                    "path /data/iofleet/dd1 is outside the agent's roots (/srv/a)");
            break;
        case MSG_INTERVAL:
            msg->u.interval.test_id = 18;
            msg->u.interval.phase = 1;
            msg->u.interval.index = 4000000000U;
            msg->u.interval.length_ns = 250 * NS_PER_MSEC;
            //  A spread of writes, an empty kind and one huge fsync.
            for (int64_t ns = 20000; ns < 4000000; ns = ns * 3 / 2)
                histogram_record (&msg->u.interval.latency [MSG_LATENCY_WRITE], ns);
            histogram_record (&msg->u.interval.latency [MSG_LATENCY_FSYNC], INT64_MAX);
            break;
        default:
            fail_msg ("no sample for type %d", type);
    }
}

//  Encode msg, checking the frame's size limit; the caller frees.
static char *
s_encode (const msg_t *msg, size_t *size)
{
    char *data = NULL;
    assert_int_equal (msg_encode (msg, &data, size), 0);
    assert_non_null (data);
    assert_true (*size > 0 && *size <= MSG_FRAME_MAX);
    return data;
}

//  Decode and expect success, with a readable failure.
static void
s_decode_ok (const void *data, size_t size, msg_t *msg)
{
    char err [256] = "";
    int rc = msg_decode (data, size, msg, err, sizeof (err));
    if (rc != MSG_OK)
        fail_msg ("decode failed (%d): %s", rc, err);
}

//  Decode and expect rc, with `expect` (if any) inside the reason; the
//  output must be all zero after a failure.
static void
s_decode_bad (const void *data, size_t size, int rc, const char *expect)
{
    msg_t msg;
    memset (&msg, 0xEE, sizeof (msg));
    char err [256] = "";
    int got = msg_decode (data, size, &msg, err, sizeof (err));
    if (got != rc)
        fail_msg ("decode of %zu bytes gave %d, want %d (%s)", size, got, rc, err);
    assert_true (strlen (err) > 0);
    if (expect && !strstr (err, expect))
        fail_msg ("reason '%s' lacks '%s'", err, expect);
    msg_t zero;
    memset (&zero, 0, sizeof (zero));
    assert_memory_equal (&msg, &zero, sizeof (msg));
}

//  Encode, decode, and compare all of it.
static void
s_round_trip (const msg_t *sent)
{
    size_t size;
    char *data = s_encode (sent, &size);
    msg_t got;
    memset (&got, 0x33, sizeof (got));
    s_decode_ok (data, size, &got);
    assert_int_equal (got.type, sent->type);
    assert_memory_equal (&got, sent, sizeof (got));
    free (data);
}

//  --------------------------------------------------------------------

static void
test_names_and_strcpy (void **state)
{
    (void) state;
    const char *names [] = {
        NULL, "hello", "welcome", "ping", "pong", "prepare", "ready", "start",
        "sample", "result", "abort", "bye", "error", "host", "monitor", "stop", "drop", "dropped",
        "preflight", "preflight_reply", "interval"
    };
    assert_int_equal (sizeof (names) / sizeof (names [0]), MSG_TYPE_COUNT);
    for (int type = 1; type < MSG_TYPE_COUNT; type++)
        assert_string_equal (msg_type_name ((msg_type_t) type), names [type]);
    assert_string_equal (msg_type_name ((msg_type_t) 0), "?");
    assert_string_equal (msg_type_name (MSG_TYPE_COUNT), "?");
    assert_string_equal (msg_type_name ((msg_type_t) -3), "?");

    char buf [6];
    memset (buf, 'x', sizeof (buf));
    msg_strcpy (buf, "abc", sizeof (buf));
    assert_string_equal (buf, "abc");
    msg_strcpy (buf, "abcdefgh", sizeof (buf));
    assert_string_equal (buf, "abcde");
    msg_strcpy (buf, "", sizeof (buf));
    assert_string_equal (buf, "");
    msg_strcpy (buf, "abcdef", sizeof (buf));
    assert_string_equal (buf, "abcde");
    memset (buf, 'x', sizeof (buf));
    msg_strcpy (buf, "zz", 1);
    assert_int_equal (buf [0], 0);
    assert_int_equal (buf [1], 'x');
    msg_strcpy (buf, "zz", 0);          //  nothing written at all
    assert_int_equal (buf [0], 0);
    assert_int_equal (buf [1], 'x');
}

static void
test_round_trip_every_type (void **state)
{
    (void) state;
    for (int type = 1; type < MSG_TYPE_COUNT; type++) {
        msg_t sent;
        s_sample ((msg_type_t) type, &sent);
        s_round_trip (&sent);

        //  The envelope: a map with "v" and "t" as its first keys.
        size_t size;
        char *data = s_encode (&sent, &size);
        msgpack_unpacked unpacked;
        msgpack_unpacked_init (&unpacked);
        size_t offset = 0;
        assert_int_equal (msgpack_unpack_next (&unpacked, data, size, &offset),
                          MSGPACK_UNPACK_SUCCESS);
        assert_int_equal (offset, size);
        const msgpack_object *map = &unpacked.data;
        assert_int_equal (map->type, MSGPACK_OBJECT_MAP);
        assert_true (map->via.map.size >= 3);
        const msgpack_object_kv *kv = map->via.map.ptr;
        assert_int_equal (kv [0].key.type, MSGPACK_OBJECT_STR);
        assert_memory_equal (kv [0].key.via.str.ptr, "v", 1);
        assert_int_equal (kv [0].val.type, MSGPACK_OBJECT_POSITIVE_INTEGER);
        assert_int_equal (kv [0].val.via.u64, IOFLEET_PROTOCOL_VERSION);
        assert_memory_equal (kv [1].key.via.str.ptr, "t", 1);
        assert_int_equal (kv [1].val.type, MSGPACK_OBJECT_STR);
        const char *name = msg_type_name ((msg_type_t) type);
        assert_int_equal (kv [1].val.via.str.size, strlen (name));
        assert_memory_equal (kv [1].val.via.str.ptr, name, strlen (name));
        msgpack_unpacked_destroy (&unpacked);
        free (data);
    }

    //  A few fields by name, beyond the memcmp.
    msg_t sent, got;
    s_sample (MSG_RESULT, &sent);
    size_t size;
    char *data = s_encode (&sent, &size);
    s_decode_ok (data, size, &got);
    assert_int_equal (got.type, MSG_RESULT);
    assert_int_equal (got.u.result.err_no, 28);
    assert_true (got.u.result.bytes == 5583457485ULL);
    assert_true (got.u.result.sys_ns == 31000000000LL);
    assert_string_equal (got.u.result.error, "write(/data/x.1): No space left on device");
    assert_string_equal (got.u.result.path, "/data/x.1");
    free (data);

    s_sample (MSG_PREPARE, &sent);
    data = s_encode (&sent, &size);
    s_decode_ok (data, size, &got);
    assert_string_equal (got.u.prepare.spec.src, "nfs://192.0.2.20/export/src5g");
    assert_int_equal (got.u.prepare.spec.fsync_mode, FSYNC_CLOSE);
    assert_int_equal (got.u.prepare.spec.streams, 3);
    assert_int_equal (got.u.prepare.job_id, 2);
    free (data);

    s_sample (MSG_ERROR, &sent);
    data = s_encode (&sent, &size);
    s_decode_ok (data, size, &got);
    assert_int_equal (got.u.error.job_id, -1);
    assert_string_equal (got.u.error.code, "busy");
    free (data);
}

static void
test_round_trip_edges (void **state)
{
    (void) state;
    msg_t msg;

    //  Every string at its longest, and the frame still within its limit.
    s_sample (MSG_RESULT, &msg);
    memset (msg.u.result.error, 'e', MSG_TEXT_MAX);
    memset (msg.u.result.path, 'p', JOB_PATH_MAX);
    msg.u.result.bytes = UINT64_MAX;
    msg.u.result.start_ns = INT64_MIN;
    msg.u.result.end_ns = INT64_MAX;
    msg.u.result.err_no = INT32_MIN;
    msg.u.result.test_id = UINT32_MAX;
    s_round_trip (&msg);

    s_sample (MSG_WELCOME, &msg);
    memset (msg.u.welcome.name, 'n', JOB_NAME_MAX);
    memset (msg.u.welcome.hostname, 'h', MSG_HOST_MAX);
    memset (msg.u.welcome.kernel, 'k', MSG_HOST_MAX);
    memset (msg.u.welcome.serving, 's', MSG_TEXT_MAX);
    memset (msg.u.welcome.version, 'v', 31);
    msg.u.welcome.mem_bytes = UINT64_MAX;
    msg.u.welcome.cpus = UINT32_MAX;
    s_round_trip (&msg);

    s_sample (MSG_PREPARE, &msg);
    jobspec_t *spec = &msg.u.prepare.spec;
    memset (spec->name, 'a', JOB_NAME_MAX);
    memset (spec->test, 'b', JOB_NAME_MAX);
    memset (spec->path, 'c', JOB_PATH_MAX);
    memset (spec->src, 'd', JOB_PATH_MAX);
    memset (spec->dst, 'e', JOB_PATH_MAX);
    s_round_trip (&msg);

    s_sample (MSG_HOST, &msg);
    msg.u.host.disk_written_bytes = UINT64_MAX;
    msg.u.host.settle_end_ns = INT64_MIN;
    s_round_trip (&msg);

    s_sample (MSG_ERROR, &msg);
    memset (msg.u.error.code, 'c', sizeof (msg.u.error.code) - 1);
    memset (msg.u.error.text, 't', MSG_TEXT_MAX);
    msg.u.error.job_id = INT32_MAX;
    s_round_trip (&msg);

    //  Empty strings and zeros are values too.
    memset (&msg, 0, sizeof (msg));
    msg.type = MSG_HELLO;
    s_round_trip (&msg);
    msg.type = MSG_BYE;
    s_round_trip (&msg);
    msg.type = MSG_PONG;
    msg.u.pong.t1_ns = -1;
    msg.u.pong.t2_ns = INT64_MIN;
    s_round_trip (&msg);

    //  A string field without its NUL goes out cut to its limit.
    s_sample (MSG_BYE, &msg);
    memset (msg.u.bye.reason, 'r', sizeof (msg.u.bye.reason));
    size_t size;
    char *data = s_encode (&msg, &size);
    msg_t got;
    s_decode_ok (data, size, &got);
    assert_int_equal (strlen (got.u.bye.reason), MSG_TEXT_MAX);
    free (data);
}

static void
test_truncation_and_trailing (void **state)
{
    (void) state;
    for (int type = 1; type < MSG_TYPE_COUNT; type++) {
        msg_t msg;
        s_sample ((msg_type_t) type, &msg);
        size_t size;
        char *data = s_encode (&msg, &size);
        for (size_t cut = 0; cut < size; cut++)
            s_decode_bad (data, cut, MSG_EMALFORMED, NULL);

        //  One byte more, of every value.
        char *longer = malloc (2 * size + 1);
        assert_non_null (longer);
        memcpy (longer, data, size);
        for (int byte = 0; byte < 256; byte++) {
            longer [size] = (char) byte;
            s_decode_bad (longer, size + 1, MSG_EMALFORMED, "1 bytes after the message");
        }
        //  Two whole messages in one frame.
        memcpy (longer + size, data, size);
        s_decode_bad (longer, 2 * size, MSG_EMALFORMED, "after the message");
        free (longer);
        free (data);
    }
}

//  --------------------------------------------------------------------
//  Hand-edited frames

typedef enum {
    EDIT_REPLACE,               //  the key's value becomes `raw`
    EDIT_DROP,                  //  the key goes
    EDIT_DUPLICATE,             //  the key and its value appear twice
    EDIT_ADD                    //  `raw` holds a key and a value to add
} edit_t;

//  Encode msg, then pack its map again with one edit into out (the caller
//  destroys it). raw is msgpack bytes written as they are.
static void
s_edit (const msg_t *msg, const char *key, edit_t edit,
        const char *raw, size_t raw_size, msgpack_sbuffer *out)
{
    size_t size;
    char *data = s_encode (msg, &size);
    msgpack_unpacked unpacked;
    msgpack_unpacked_init (&unpacked);
    size_t offset = 0;
    assert_int_equal (msgpack_unpack_next (&unpacked, data, size, &offset),
                      MSGPACK_UNPACK_SUCCESS);
    const msgpack_object_map *map = &unpacked.data.via.map;

    uint32_t entries = map->size;
    bool found = (edit == EDIT_ADD);
    for (uint32_t i = 0; i < map->size; i++) {
        const msgpack_object *k = &map->ptr [i].key;
        if (key && k->via.str.size == strlen (key)
        &&  memcmp (k->via.str.ptr, key, k->via.str.size) == 0) {
            found = true;
            entries += edit == EDIT_DROP? -1: edit == EDIT_DUPLICATE? 1: 0;
        }
    }
    if (!found)
        fail_msg ("no key '%s' in %s", key, msg_type_name (msg->type));
    if (edit == EDIT_ADD)
        entries++;

    msgpack_sbuffer_init (out);
    msgpack_packer pk;
    msgpack_packer_init (&pk, out, msgpack_sbuffer_write);
    msgpack_pack_map (&pk, entries);
    for (uint32_t i = 0; i < map->size; i++) {
        const msgpack_object_kv *kv = &map->ptr [i];
        bool match = key && kv->key.via.str.size == strlen (key)
                  && memcmp (kv->key.via.str.ptr, key, kv->key.via.str.size) == 0;
        if (match && edit == EDIT_DROP)
            continue;
        msgpack_pack_object (&pk, kv->key);
        if (match && edit == EDIT_REPLACE)
            msgpack_sbuffer_write (out, raw, raw_size);
        else
            msgpack_pack_object (&pk, kv->val);
        if (match && edit == EDIT_DUPLICATE) {
            msgpack_pack_object (&pk, kv->key);
            msgpack_pack_object (&pk, kv->val);
        }
    }
    if (edit == EDIT_ADD)
        msgpack_sbuffer_write (out, raw, raw_size);
    msgpack_unpacked_destroy (&unpacked);
    free (data);
}

//  A packer into a fresh buffer, for raw values.
typedef struct {
    msgpack_sbuffer buffer;
    msgpack_packer pk;
} raw_t;

static void
s_raw_init (raw_t *raw)
{
    msgpack_sbuffer_init (&raw->buffer);
    msgpack_packer_init (&raw->pk, &raw->buffer, msgpack_sbuffer_write);
}

//  Edit a sample of type (see s_edit), decode it, and return the result,
//  with the decoded message in *got.
static int
s_decode_edited (msg_type_t type, const char *key, edit_t edit, const raw_t *raw,
                 msg_t *got, char *err, size_t errlen)
{
    msg_t msg;
    s_sample (type, &msg);
    msgpack_sbuffer edited;
    s_edit (&msg, key, edit, raw? raw->buffer.data: NULL, raw? raw->buffer.size: 0, &edited);
    int rc = msg_decode (edited.data, edited.size, got, err, errlen);
    msgpack_sbuffer_destroy (&edited);
    return rc;
}

static void
test_version_and_type (void **state)
{
    (void) state;
    msg_t got;
    char err [256];
    raw_t raw;

    //  Another protocol version, whatever the rest says.
    s_raw_init (&raw);
    msgpack_pack_uint64 (&raw.pk, IOFLEET_PROTOCOL_VERSION + 1);
    for (int type = 1; type < MSG_TYPE_COUNT; type++) {
        assert_int_equal (s_decode_edited ((msg_type_t) type, "v", EDIT_REPLACE, &raw,
                                           &got, err, sizeof (err)), MSG_EVERSION);
        char expect [64];
        snprintf (expect, sizeof (expect), "protocol version %d, this side speaks %d",
                  IOFLEET_PROTOCOL_VERSION + 1, IOFLEET_PROTOCOL_VERSION);
        assert_string_equal (err, expect);
        assert_int_equal (got.type, 0);
    }
    msgpack_sbuffer_destroy (&raw.buffer);

    //  Version 10 with a type this side never heard of: still a version
    //  problem, since "t" means nothing outside this version.
    const char v10 [] = "\x82\xa1v\x0a\xa1t\xa4zork";
    s_decode_bad (v10, sizeof (v10) - 1, MSG_EVERSION, "protocol version 10, this side speaks 9");
    const char v0 [] = "\x81\xa1v\x00";
    s_decode_bad (v0, sizeof (v0) - 1, MSG_EVERSION, "protocol version 0");
    const char v_huge [] = "\x81\xa1v\xcf\xff\xff\xff\xff\xff\xff\xff\xff";
    s_decode_bad (v_huge, sizeof (v_huge) - 1, MSG_EVERSION, "protocol version 18446744073709551615");

    //  Version missing, mistyped, or given twice: malformed.
    const char no_v [] = "\x81\xa1t\xa4ping";
    s_decode_bad (no_v, sizeof (no_v) - 1, MSG_EMALFORMED, "missing key 'v'");
    const char v_str [] = "\x82\xa1v\xa1\x31\xa1t\xa4ping";
    s_decode_bad (v_str, sizeof (v_str) - 1, MSG_EMALFORMED, "wrong type for key 'v'");
    const char v_neg [] = "\x82\xa1v\xff\xa1t\xa4ping";
    s_decode_bad (v_neg, sizeof (v_neg) - 1, MSG_EMALFORMED, "wrong type for key 'v'");
    const char v_float [] = "\x82\xa1v\xcb\x3f\xf0\x00\x00\x00\x00\x00\x00\xa1t\xa4ping";
    s_decode_bad (v_float, sizeof (v_float) - 1, MSG_EMALFORMED, "wrong type for key 'v'");
    const char v_twice [] = "\x83\xa1v\x09\xa1v\x09\xa1t\xa3" "bye";
    s_decode_bad (v_twice, sizeof (v_twice) - 1, MSG_EMALFORMED, "key 'v' given twice");

    //  Types: unknown, mistyped, missing, near misses.
    const char *unknown [] = { "zork", "", "Hello", "hello ", "pin", "pingg", "HELLO" };
    for (size_t i = 0; i < sizeof (unknown) / sizeof (unknown [0]); i++) {
        s_raw_init (&raw);
        msgpack_pack_str_with_body (&raw.pk, unknown [i], strlen (unknown [i]));
        assert_int_equal (s_decode_edited (MSG_BYE, "t", EDIT_REPLACE, &raw,
                                           &got, err, sizeof (err)), MSG_EMALFORMED);
        assert_non_null (strstr (err, "unknown message type"));
        msgpack_sbuffer_destroy (&raw.buffer);
    }
    const char t_nul [] = "\x83\xa1v\x09\xa1t\xa4" "bye\0" "\xa6reason\xa0";
    s_decode_bad (t_nul, sizeof (t_nul) - 1, MSG_EMALFORMED, "unknown message type 'bye\\x00'");
    const char t_int [] = "\x82\xa1v\x09\xa1t\x03";
    s_decode_bad (t_int, sizeof (t_int) - 1, MSG_EMALFORMED, "wrong type for key 't'");
    const char no_t [] = "\x81\xa1v\x09";
    s_decode_bad (no_t, sizeof (no_t) - 1, MSG_EMALFORMED, "missing key 't'");
    const char t_twice [] = "\x84\xa1v\x09\xa1t\xa3" "bye\xa1t\xa3" "bye\xa6reason\xa0";
    s_decode_bad (t_twice, sizeof (t_twice) - 1, MSG_EMALFORMED, "key 't' given twice");

    //  The smallest valid message, by hand.
    const char bye [] = "\x83\xa1v\x09\xa1t\xa3" "bye\xa6reason\xa2ok";
    s_decode_ok (bye, sizeof (bye) - 1, &got);
    assert_int_equal (got.type, MSG_BYE);
    assert_string_equal (got.u.bye.reason, "ok");
}

//  Pack, into raw, a value of a msgpack type other than the one of value.
static void
s_pack_wrong (const msgpack_object *value, int variant, raw_t *raw)
{
    s_raw_init (raw);
    switch (variant) {
        case 0: msgpack_pack_nil (&raw->pk); return;
        case 1: msgpack_pack_double (&raw->pk, 1.0); return;
        case 2: msgpack_pack_array (&raw->pk, 0); return;
        case 3: msgpack_pack_bin_with_body (&raw->pk, "1", 1); return;
        default: break;
    }
    switch (value->type) {
        case MSGPACK_OBJECT_STR:     msgpack_pack_uint8 (&raw->pk, 7); break;
        case MSGPACK_OBJECT_BOOLEAN: msgpack_pack_uint8 (&raw->pk, 1); break;
        case MSGPACK_OBJECT_MAP:     msgpack_pack_str_with_body (&raw->pk, "{}", 2); break;
        default:                     msgpack_pack_str_with_body (&raw->pk, "1", 1); break;
    }
}

static void
test_wrong_missing_duplicate_fields (void **state)
{
    (void) state;
    size_t checked = 0;
    for (int type = 1; type < MSG_TYPE_COUNT; type++) {
        msg_t msg, got;
        s_sample ((msg_type_t) type, &msg);
        size_t size;
        char *data = s_encode (&msg, &size);
        msgpack_unpacked unpacked;
        msgpack_unpacked_init (&unpacked);
        size_t offset = 0;
        assert_int_equal (msgpack_unpack_next (&unpacked, data, size, &offset),
                          MSGPACK_UNPACK_SUCCESS);
        const msgpack_object_map *map = &unpacked.data.via.map;

        for (uint32_t i = 0; i < map->size; i++) {
            char key [64];
            snprintf (key, sizeof (key), "%.*s", (int) map->ptr [i].key.via.str.size,
                      map->ptr [i].key.via.str.ptr);
            char err [256], expect [96];
            for (int variant = 0; variant < 5; variant++) {
                raw_t raw;
                s_pack_wrong (&map->ptr [i].val, variant, &raw);
                int rc = s_decode_edited ((msg_type_t) type, key, EDIT_REPLACE, &raw,
                                          &got, err, sizeof (err));
                if (rc != MSG_EMALFORMED)
                    fail_msg ("%s: key '%s' variant %d gave %d", msg_type_name (type), key,
                              variant, rc);
                if (strcmp (key, "t") != 0) {
                    snprintf (expect, sizeof (expect), "wrong type for key '%s'", key);
                    if (!strstr (err, expect))
                        fail_msg ("%s: '%s' lacks '%s'", msg_type_name (type), err, expect);
                }
                msgpack_sbuffer_destroy (&raw.buffer);
                checked++;
            }
            //  Every field the encoder writes is required.
            assert_int_equal (s_decode_edited ((msg_type_t) type, key, EDIT_DROP, NULL,
                                               &got, err, sizeof (err)), MSG_EMALFORMED);
            snprintf (expect, sizeof (expect), "missing key '%s'", key);
            assert_string_equal (err, expect);
            //  And none may come twice.
            assert_int_equal (s_decode_edited ((msg_type_t) type, key, EDIT_DUPLICATE, NULL,
                                               &got, err, sizeof (err)), MSG_EMALFORMED);
            snprintf (expect, sizeof (expect), "key '%s' given twice", key);
            assert_string_equal (err, expect);
        }
        msgpack_unpacked_destroy (&unpacked);
        free (data);
    }
    assert_true (checked > 200);
}

//  Frames written out by hand in this file carry "\xa1v\x09": version 9.
_Static_assert (IOFLEET_PROTOCOL_VERSION == 9, "hand-written frames carry version 9");

//  One numeric field and how wide it is.
typedef enum { K_U32, K_U64, K_I32, K_I64 } kind_t;
typedef struct {
    msg_type_t type;
    const char *key;
    kind_t kind;
} numeric_t;

static const numeric_t s_numerics [] = {
    { MSG_HELLO, "lease_ms", K_U32 },
    { MSG_WELCOME, "cpus", K_U32 }, { MSG_WELCOME, "mem_bytes", K_U64 },
    { MSG_WELCOME, "session_id", K_U64 },
    { MSG_PING, "seq", K_U32 }, { MSG_PING, "t1_ns", K_I64 },
    { MSG_PING, "session_id", K_U64 }, { MSG_PING, "lease_ms", K_U32 },
    { MSG_PONG, "seq", K_U32 }, { MSG_PONG, "t1_ns", K_I64 },
    { MSG_PONG, "t2_ns", K_I64 }, { MSG_PONG, "t3_ns", K_I64 },
    { MSG_PONG, "session_id", K_U64 },
    { MSG_PREPARE, "test_id", K_U32 }, { MSG_PREPARE, "job_id", K_U32 },
    { MSG_READY, "test_id", K_U32 }, { MSG_READY, "job_id", K_U32 },
    { MSG_READY, "streams", K_U32 }, { MSG_READY, "job_class", K_U32 },
    { MSG_READY, "fill_bytes", K_U64 }, { MSG_READY, "fill_ns", K_I64 },
    { MSG_START, "test_id", K_U32 }, { MSG_START, "start_ns", K_I64 },
    { MSG_START, "phase", K_U32 }, { MSG_SAMPLE, "phase", K_U32 },
    { MSG_START, "phase_count", K_U32 }, { MSG_STOP, "phase", K_U32 },
    { MSG_RESULT, "reads", K_U64 }, { MSG_RESULT, "writes", K_U64 },
    { MSG_RESULT, "fsyncs", K_U64 },
    { MSG_RESULT, "phase", K_U32 }, { MSG_HOST, "phase", K_U32 },
    { MSG_SAMPLE, "test_id", K_U32 }, { MSG_SAMPLE, "job_id", K_U32 },
    { MSG_SAMPLE, "stream", K_U32 }, { MSG_SAMPLE, "t_ns", K_I64 },
    { MSG_SAMPLE, "bytes", K_U64 },
    { MSG_RESULT, "test_id", K_U32 }, { MSG_RESULT, "job_id", K_U32 },
    { MSG_RESULT, "stream", K_U32 }, { MSG_RESULT, "bytes", K_U64 },
    { MSG_RESULT, "start_ns", K_I64 }, { MSG_RESULT, "last_write_ns", K_I64 },
    { MSG_RESULT, "last_issue_ns", K_I64 },
    { MSG_RESULT, "end_ns", K_I64 }, { MSG_RESULT, "usr_ns", K_I64 },
    { MSG_RESULT, "sys_ns", K_I64 }, { MSG_RESULT, "err_no", K_I32 },
    { MSG_ABORT, "test_id", K_U32 },
    { MSG_ERROR, "test_id", K_U32 }, { MSG_ERROR, "job_id", K_I32 },
    { MSG_HOST, "test_id", K_U32 }, { MSG_HOST, "window_start_ns", K_I64 },
    { MSG_HOST, "window_end_ns", K_I64 }, { MSG_HOST, "settle_end_ns", K_I64 },
#define S_COUNTER_ROW(name) { MSG_HOST, #name, K_U64 },
    MSG_HOST_COUNTERS (S_COUNTER_ROW)
#undef S_COUNTER_ROW
    { MSG_MONITOR, "test_id", K_U32 }, { MSG_MONITOR, "job_id", K_U32 },
    { MSG_MONITOR, "t_ns", K_I64 }, { MSG_STOP, "test_id", K_U32 },
    { MSG_DROP, "test_id", K_U32 }, { MSG_DROPPED, "test_id", K_U32 },
    { MSG_PREFLIGHT, "test_id", K_U32 }, { MSG_PREFLIGHT, "job_id", K_U32 },
    { MSG_PREFLIGHT_REPLY, "test_id", K_U32 }, { MSG_PREFLIGHT_REPLY, "job_id", K_U32 },
#define S_COUNTER_ROW(name) { MSG_MONITOR, #name, K_U64 },
    MSG_MONITOR_COUNTERS (S_COUNTER_ROW)
#undef S_COUNTER_ROW
};

//  Put value (signed or not) at key of a sample of type; decode; on
//  success check that the value reads back in a new encoding.
static int
s_try_number (const numeric_t *field, bool is_signed, uint64_t u, int64_t i)
{
    raw_t raw;
    s_raw_init (&raw);
    if (is_signed)
        msgpack_pack_int64 (&raw.pk, i);
    else
        msgpack_pack_uint64 (&raw.pk, u);
    msg_t got;
    char err [256];
    int rc = s_decode_edited (field->type, field->key, EDIT_REPLACE, &raw, &got, err, sizeof (err));
    msgpack_sbuffer_destroy (&raw.buffer);
    if (rc == MSG_EMALFORMED) {
        char expect [96];
        snprintf (expect, sizeof (expect), "key '%s'", field->key);
        assert_non_null (strstr (err, expect));
        return rc;
    }
    assert_int_equal (rc, MSG_OK);
    size_t size;
    char *data = s_encode (&got, &size);
    msgpack_unpacked unpacked;
    msgpack_unpacked_init (&unpacked);
    size_t offset = 0;
    assert_int_equal (msgpack_unpack_next (&unpacked, data, size, &offset), MSGPACK_UNPACK_SUCCESS);
    bool seen = false;
    for (uint32_t k = 0; k < unpacked.data.via.map.size; k++) {
        const msgpack_object_kv *kv = &unpacked.data.via.map.ptr [k];
        if (kv->key.via.str.size != strlen (field->key)
        ||  memcmp (kv->key.via.str.ptr, field->key, kv->key.via.str.size) != 0)
            continue;
        seen = true;
        if (is_signed && i < 0) {
            assert_int_equal (kv->val.type, MSGPACK_OBJECT_NEGATIVE_INTEGER);
            assert_true (kv->val.via.i64 == i);
        }
        else {
            assert_int_equal (kv->val.type, MSGPACK_OBJECT_POSITIVE_INTEGER);
            assert_true (kv->val.via.u64 == (is_signed? (uint64_t) i: u));
        }
    }
    assert_true (seen);
    msgpack_unpacked_destroy (&unpacked);
    free (data);
    return rc;
}

static void
test_numeric_ranges (void **state)
{
    (void) state;
    for (size_t n = 0; n < sizeof (s_numerics) / sizeof (s_numerics [0]); n++) {
        const numeric_t *f = &s_numerics [n];
        switch (f->kind) {
            case K_U32:
                assert_int_equal (s_try_number (f, false, 0, 0), MSG_OK);
                assert_int_equal (s_try_number (f, false, UINT32_MAX, 0), MSG_OK);
                assert_int_equal (s_try_number (f, false, (uint64_t) UINT32_MAX + 1, 0), MSG_EMALFORMED);
                assert_int_equal (s_try_number (f, false, UINT64_MAX, 0), MSG_EMALFORMED);
                assert_int_equal (s_try_number (f, true, 0, -1), MSG_EMALFORMED);
                break;
            case K_U64:
                assert_int_equal (s_try_number (f, false, UINT64_MAX, 0), MSG_OK);
                assert_int_equal (s_try_number (f, false, 0, 0), MSG_OK);
                assert_int_equal (s_try_number (f, true, 0, -1), MSG_EMALFORMED);
                assert_int_equal (s_try_number (f, true, 0, INT64_MIN), MSG_EMALFORMED);
                break;
            case K_I32:
                assert_int_equal (s_try_number (f, true, 0, INT32_MIN), MSG_OK);
                assert_int_equal (s_try_number (f, true, 0, -1), MSG_OK);
                assert_int_equal (s_try_number (f, false, INT32_MAX, 0), MSG_OK);
                assert_int_equal (s_try_number (f, false, (uint64_t) INT32_MAX + 1, 0), MSG_EMALFORMED);
                assert_int_equal (s_try_number (f, true, 0, (int64_t) INT32_MIN - 1), MSG_EMALFORMED);
                assert_int_equal (s_try_number (f, true, 0, INT64_MIN), MSG_EMALFORMED);
                assert_int_equal (s_try_number (f, false, UINT64_MAX, 0), MSG_EMALFORMED);
                break;
            case K_I64:
                assert_int_equal (s_try_number (f, true, 0, INT64_MIN), MSG_OK);
                assert_int_equal (s_try_number (f, true, 0, -1), MSG_OK);
                assert_int_equal (s_try_number (f, false, INT64_MAX, 0), MSG_OK);
                assert_int_equal (s_try_number (f, false, (uint64_t) INT64_MAX + 1, 0), MSG_EMALFORMED);
                assert_int_equal (s_try_number (f, false, UINT64_MAX, 0), MSG_EMALFORMED);
                break;
        }
    }
}

//  One string field and its capacity.
typedef struct {
    msg_type_t type;
    const char *key;
    size_t capacity;
} text_field_t;

static const text_field_t s_texts [] = {
    { MSG_HELLO, "coordinator", MSG_TEXT_MAX + 1 },
    { MSG_WELCOME, "name", JOB_NAME_MAX + 1 }, { MSG_WELCOME, "hostname", MSG_HOST_MAX + 1 },
    { MSG_WELCOME, "kernel", MSG_HOST_MAX + 1 }, { MSG_WELCOME, "serving", MSG_TEXT_MAX + 1 },
    { MSG_WELCOME, "version", 32 },
    { MSG_RESULT, "error", MSG_TEXT_MAX + 1 }, { MSG_RESULT, "path", JOB_PATH_MAX + 1 },
    { MSG_ABORT, "reason", MSG_TEXT_MAX + 1 }, { MSG_BYE, "reason", MSG_TEXT_MAX + 1 },
    { MSG_ERROR, "code", 32 }, { MSG_ERROR, "text", MSG_TEXT_MAX + 1 },
};

static void
test_string_bounds (void **state)
{
    (void) state;
    char text [70000];
    memset (text, 'x', sizeof (text));
    for (size_t n = 0; n < sizeof (s_texts) / sizeof (s_texts [0]); n++) {
        const text_field_t *f = &s_texts [n];
        msg_t got;
        char err [256];
        raw_t raw;
        size_t lengths [] = { 0, 1, f->capacity - 1, f->capacity, f->capacity + 1, 5000, 66000 };
        for (size_t l = 0; l < sizeof (lengths) / sizeof (lengths [0]); l++) {
            s_raw_init (&raw);
            msgpack_pack_str_with_body (&raw.pk, text, lengths [l]);
            int rc = s_decode_edited (f->type, f->key, EDIT_REPLACE, &raw, &got, err, sizeof (err));
            if (lengths [l] < f->capacity)
                assert_int_equal (rc, MSG_OK);
            else
                assert_int_equal (rc, MSG_EMALFORMED);
            if (lengths [l] == f->capacity) {
                char expect [128];
                snprintf (expect, sizeof (expect), "key '%s': %zu bytes, longer than the limit %zu",
                          f->key, f->capacity, f->capacity - 1);
                assert_string_equal (err, expect);
            }
            if (lengths [l] == 66000)
                assert_non_null (strstr (err, "more than 65536"));
            msgpack_sbuffer_destroy (&raw.buffer);
        }
        //  A NUL byte inside, anywhere.
        const char *with_nul [] = { "\0abc", "ab\0c", "abc\0" };
        for (size_t k = 0; k < 3; k++) {
            s_raw_init (&raw);
            msgpack_pack_str_with_body (&raw.pk, with_nul [k], 4);
            assert_int_equal (s_decode_edited (f->type, f->key, EDIT_REPLACE, &raw,
                                               &got, err, sizeof (err)), MSG_EMALFORMED);
            assert_non_null (strstr (err, "contains a NUL byte"));
            msgpack_sbuffer_destroy (&raw.buffer);
        }
        //  Bytes that are not UTF-8 are still a string the decoder copies.
        s_raw_init (&raw);
        msgpack_pack_str_with_body (&raw.pk, "\xff\xfe\x80", 3);
        assert_int_equal (s_decode_edited (f->type, f->key, EDIT_REPLACE, &raw,
                                           &got, err, sizeof (err)), MSG_OK);
        msgpack_sbuffer_destroy (&raw.buffer);
    }
}

static void
test_prepare_spec (void **state)
{
    (void) state;
    msg_t msg;
    char err [256];
    size_t size;
    char *data;

    //  Bounds inside the spec make the message malformed, naming the key.
    s_sample (MSG_PREPARE, &msg);
    msg.u.prepare.spec.bs_bytes = 0;
    data = s_encode (&msg, &size);
    s_decode_bad (data, size, MSG_EMALFORMED, "key 'spec': bs: 0 is below the minimum 512");
    free (data);

    s_sample (MSG_PREPARE, &msg);
    msg.u.prepare.spec.streams = 100000;
    data = s_encode (&msg, &size);
    s_decode_bad (data, size, MSG_EMALFORMED, "key 'spec': streams: 100000 is above the maximum 1024");
    free (data);

    s_sample (MSG_PREPARE, &msg);
    msg.u.prepare.spec.fsync_mode = 7;
    data = s_encode (&msg, &size);
    s_decode_bad (data, size, MSG_EMALFORMED, "fsync: unknown value '?'");
    free (data);

    //  A spec with a newer peer's extra option and without the options
    //  that have defaults: the extra is ignored, the missing take their
    //  defaults.
    for (int drop_size = 0; drop_size < 2; drop_size++) {
        raw_t raw;
        s_raw_init (&raw);
        msgpack_pack_map (&raw.pk, drop_size? 6: 7);
        const char *strings [] = { "name", "test", "path", "src", "dst" };
        for (int i = 0; i < 5; i++) {
            msgpack_pack_str_with_body (&raw.pk, strings [i], strlen (strings [i]));
            msgpack_pack_str_with_body (&raw.pk, "/data/f", 7);
        }
        msgpack_pack_str_with_body (&raw.pk, "iodepth", 7);
        msgpack_pack_uint8 (&raw.pk, 32);
        if (!drop_size) {
            msgpack_pack_str_with_body (&raw.pk, "size", 4);
            msgpack_pack_uint32 (&raw.pk, 1 << 20);
        }
        msg_t got;
        int rc = s_decode_edited (MSG_PREPARE, "spec", EDIT_REPLACE, &raw, &got, err, sizeof (err));
        if (drop_size) {
            assert_int_equal (rc, MSG_EMALFORMED);
            assert_string_equal (err, "key 'spec': size: missing");
        }
        else {
            assert_int_equal (rc, MSG_OK);
            assert_string_equal (got.u.prepare.spec.path, "/data/f");
            assert_string_equal (got.u.prepare.spec.name, "/data/f");
            assert_int_equal (got.u.prepare.spec.size_bytes, MIB);
            assert_int_equal (got.u.prepare.spec.bs_bytes, MIB);
            assert_int_equal (got.u.prepare.spec.fsync_mode, FSYNC_END);
            assert_int_equal (got.u.prepare.spec.interval_ns, NS_PER_SEC);
            assert_int_equal (got.u.prepare.test_id, 3);
        }
        msgpack_sbuffer_destroy (&raw.buffer);
    }
}

static void
test_unknown_keys_ignored (void **state)
{
    (void) state;
    for (int type = 1; type < MSG_TYPE_COUNT; type++) {
        msg_t msg, got;
        s_sample ((msg_type_t) type, &msg);
        char err [256];

        //  A newer peer's key with a structured value.
        raw_t raw;
        s_raw_init (&raw);
        msgpack_pack_str_with_body (&raw.pk, "future", 6);
        msgpack_pack_map (&raw.pk, 2);
        msgpack_pack_str_with_body (&raw.pk, "a", 1);
        msgpack_pack_array (&raw.pk, 3);
        msgpack_pack_int8 (&raw.pk, -1);
        msgpack_pack_double (&raw.pk, 2.5);
        msgpack_pack_nil (&raw.pk);
        msgpack_pack_uint8 (&raw.pk, 9);
        msgpack_pack_bin_with_body (&raw.pk, "\0\1", 2);
        assert_int_equal (s_decode_edited ((msg_type_t) type, NULL, EDIT_ADD, &raw,
                                           &got, err, sizeof (err)), MSG_OK);
        assert_memory_equal (&got, &msg, sizeof (msg));
        msgpack_sbuffer_destroy (&raw.buffer);

        //  A key that is not a string at all, and one that merely
        //  resembles a field name.
        s_raw_init (&raw);
        msgpack_pack_uint8 (&raw.pk, 1);
        msgpack_pack_str_with_body (&raw.pk, "one", 3);
        assert_int_equal (s_decode_edited ((msg_type_t) type, NULL, EDIT_ADD, &raw,
                                           &got, err, sizeof (err)), MSG_OK);
        assert_memory_equal (&got, &msg, sizeof (msg));
        msgpack_sbuffer_destroy (&raw.buffer);

        s_raw_init (&raw);
        msgpack_pack_str_with_body (&raw.pk, "test_id\0", 8);
        msgpack_pack_str_with_body (&raw.pk, "not a number", 12);
        assert_int_equal (s_decode_edited ((msg_type_t) type, NULL, EDIT_ADD, &raw,
                                           &got, err, sizeof (err)), MSG_OK);
        assert_memory_equal (&got, &msg, sizeof (msg));
        msgpack_sbuffer_destroy (&raw.buffer);
    }
}

//  A bye whose frame is exactly `size` bytes, padded by an unknown key.
static char *
s_bye_of_size (size_t size)
{
    msgpack_sbuffer buffer;
    msgpack_sbuffer_init (&buffer);
    msgpack_packer pk;
    msgpack_packer_init (&pk, &buffer, msgpack_sbuffer_write);
    //  map of 4: v, t, reason, pad; pad's value is a str32 so its header
    //  is always 5 bytes and the arithmetic is simple.
    msgpack_pack_map (&pk, 4);
    msgpack_pack_str_with_body (&pk, "v", 1);
    msgpack_pack_uint8 (&pk, IOFLEET_PROTOCOL_VERSION);
    msgpack_pack_str_with_body (&pk, "t", 1);
    msgpack_pack_str_with_body (&pk, "bye", 3);
    msgpack_pack_str_with_body (&pk, "reason", 6);
    msgpack_pack_str_with_body (&pk, "", 0);
    msgpack_pack_str_with_body (&pk, "pad", 3);
    size_t head = buffer.size + 5;
    assert_true (size > head);
    size_t pad = size - head;
    char header [5] = { (char) 0xdb, (char) (pad >> 24), (char) (pad >> 16),
                        (char) (pad >> 8), (char) pad };
    msgpack_sbuffer_write (&buffer, header, 5);
    char *padding = calloc (1, pad);
    assert_non_null (padding);
    msgpack_sbuffer_write (&buffer, padding, pad);
    free (padding);
    assert_int_equal (buffer.size, size);
    return msgpack_sbuffer_release (&buffer);
}

static void
test_hostile_frames (void **state)
{
    (void) state;
    msg_t got;

    s_decode_bad ("", 0, MSG_EMALFORMED, "empty frame");
    s_decode_bad (NULL, 0, MSG_EMALFORMED, "empty frame");

    //  The frame limit, exactly and one byte over.
    char *frame = s_bye_of_size (MSG_FRAME_MAX);
    s_decode_ok (frame, MSG_FRAME_MAX, &got);
    assert_int_equal (got.type, MSG_BYE);
    free (frame);
    frame = s_bye_of_size (MSG_FRAME_MAX + 1);
    s_decode_bad (frame, MSG_FRAME_MAX + 1, MSG_EMALFORMED, "frame of 65537 bytes, more than 65536");
    free (frame);

    //  Not a map.
    s_decode_bad ("\x90", 1, MSG_EMALFORMED, "not a map");
    s_decode_bad ("\x01", 1, MSG_EMALFORMED, "not a map");
    s_decode_bad ("\xc0", 1, MSG_EMALFORMED, "not a map");
    s_decode_bad ("\xa3" "bye", 4, MSG_EMALFORMED, "not a map");
    s_decode_bad ("\x80", 1, MSG_EMALFORMED, "missing key 'v'");
    s_decode_bad ("\xc1", 1, MSG_EMALFORMED, "invalid byte 0xc1");
    s_decode_bad ("\x81\xa1v\xc1", 4, MSG_EMALFORMED, "invalid byte 0xc1 at offset 3");

    //  Headers that promise what is not there.
    s_decode_bad ("\xdf\x00\x01\x86\xa0", 5, MSG_EMALFORMED, "a map of 100000 entries in 0 bytes");
    s_decode_bad ("\xdf\xff\xff\xff\xff", 5, MSG_EMALFORMED, "a map of 4294967295 entries");
    s_decode_bad ("\xdd\xff\xff\xff\xff\x01", 6, MSG_EMALFORMED, "an array");
    s_decode_bad ("\xdb\xff\xff\xff\xff", 5, MSG_EMALFORMED, "truncated");
    s_decode_bad ("\xc6\xff\xff\xff\xff", 5, MSG_EMALFORMED, "truncated");
    s_decode_bad ("\xc9\xff\xff\xff\xff\x01", 6, MSG_EMALFORMED, "truncated");
    s_decode_bad ("\xdb\x00", 2, MSG_EMALFORMED, "truncated");
    s_decode_bad ("\xcf\x00\x00", 3, MSG_EMALFORMED, "truncated");

    //  A map of 100000 entries announced, with half a frame of bodies.
    size_t size = 5 + 30000;
    unsigned char *big = calloc (1, size);
    assert_non_null (big);
    memcpy (big, "\xdf\x00\x01\x86\xa0", 5);
    s_decode_bad (big, size, MSG_EMALFORMED, "a map of 100000 entries in 30000 bytes");

    //  A map of 15000 entries that are all there: integer keys and nils,
    //  ignored, around a valid bye.
    size = 0;
    big = realloc (big, 4 * 15000 + 64);
    assert_non_null (big);
    const uint32_t entries = 15000 + 3;
    big [size++] = 0xdf;
    big [size++] = (unsigned char) (entries >> 24);
    big [size++] = (unsigned char) (entries >> 16);
    big [size++] = (unsigned char) (entries >> 8);
    big [size++] = (unsigned char) entries;
    memcpy (big + size, "\xa1v\x09\xa1t\xa3" "bye\xa6reason\xa1r", 18);
    size += 18;
    for (int i = 0; i < 15000; i++) {
        big [size++] = 0xcd;                //  uint16 key
        big [size++] = (unsigned char) (i >> 8);
        big [size++] = (unsigned char) i;
        big [size++] = 0xc0;
    }
    s_decode_ok (big, size, &got);
    assert_string_equal (got.u.bye.reason, "r");
    free (big);

    //  Deep nesting: at the top, and inside an unknown key.
    unsigned char deep [5000];
    memset (deep, 0x91, sizeof (deep));     //  array of one, again and again
    deep [sizeof (deep) - 1] = 0x01;
    s_decode_bad (deep, sizeof (deep), MSG_EMALFORMED, "nested deeper than");
    memset (deep, 0x81, sizeof (deep));     //  map of one, key a map of one...
    s_decode_bad (deep, sizeof (deep), MSG_EMALFORMED, "nested deeper than");
    memcpy (deep, "\x84\xa1v\x09\xa1t\xa3" "bye\xa6reason\xa0\xa1x", 20);
    memset (deep + 20, 0x91, sizeof (deep) - 21);
    deep [sizeof (deep) - 1] = 0x01;
    s_decode_bad (deep, sizeof (deep), MSG_EMALFORMED, "nested deeper than 16");
    //  Moderate nesting inside an unknown key is fine.
    memset (deep + 20, 0x91, 10);
    deep [30] = 0x01;
    s_decode_ok (deep, 31, &got);
    assert_int_equal (got.type, MSG_BYE);

    //  Every ext and float form decodes (and is ignored) in an unknown key.
    const char exotic [] =
        "\x8b\xa1v\x09\xa1t\xa3" "bye\xa6reason\xa0"
        "\x01\xd4\x01\x02"                      //  fixext1
        "\x02\xd8\x01" "0123456789abcdef"       //  fixext16
        "\x03\xc7\x02\x05" "ab"                 //  ext8
        "\x04\xc8\x00\x01\x05" "a"              //  ext16
        "\x05\xca\x3f\x80\x00\x00"              //  float32
        "\x06\xcb\x3f\xf0\x00\x00\x00\x00\x00\x00"  //  float64
        "\x07\xc4\x01" "b"                      //  bin8
        "\x08\xd3\xff\xff\xff\xff\xff\xff\xff\xff"; //  int64
    s_decode_ok (exotic, sizeof (exotic) - 1, &got);
    assert_int_equal (got.type, MSG_BYE);
}

//  Decode data and, if it is a message, check that it encodes and reads
//  back to itself.
static void
s_decode_any (const void *data, size_t size, size_t *accepted)
{
    msg_t msg;
    char err [256];
    int rc = msg_decode (data, size, &msg, err, sizeof (err));
    assert_true (rc == MSG_OK || rc == MSG_EMALFORMED || rc == MSG_EVERSION);
    if (rc != MSG_OK) {
        assert_true (strlen (err) > 0 && strlen (err) < sizeof (err));
        return;
    }
    (*accepted)++;
    s_round_trip (&msg);
}

static void
test_random_bytes (void **state)
{
    (void) state;
    srandom (20240611);
    static unsigned char data [MSG_FRAME_MAX + 16];
    size_t accepted = 0;
    for (int i = 0; i < 100000; i++) {
        size_t size = (size_t) random () % 300;
        if (i % 1000 == 0)
            size = (size_t) random () % sizeof (data);
        for (size_t k = 0; k < size; k++)
            data [k] = (unsigned char) random ();
        //  Some start like a message, to get past the first checks.
        if (i % 4 == 0 && size > 8) {
            data [0] = 0x80 | (random () % 16);
            memcpy (data + 1, "\xa1v\x09\xa1t", 5);
        }
        s_decode_any (data, size, &accepted);
    }

    //  Valid frames with a few bytes changed, cut, or stretched.
    for (int type = 1; type < MSG_TYPE_COUNT; type++) {
        msg_t msg;
        s_sample ((msg_type_t) type, &msg);
        size_t size;
        char *frame = s_encode (&msg, &size);
        for (int i = 0; i < 4000; i++) {
            size_t mutated = size;
            memcpy (data, frame, size);
            int changes = 1 + (int) (random () % 4);
            for (int c = 0; c < changes; c++) {
                size_t at = (size_t) random () % mutated;
                switch (random () % 4) {
                    case 0: data [at] = (unsigned char) random (); break;
                    case 1: data [at] ^= (unsigned char) (1 << (random () % 8)); break;
                    case 2:                         //  delete a byte
                        memmove (data + at, data + at + 1, mutated - at - 1);
                        mutated--;
                        break;
                    case 3:                         //  insert a byte
                        memmove (data + at + 1, data + at, mutated - at);
                        data [at] = (unsigned char) random ();
                        mutated++;
                        break;
                }
                if (mutated == 0)
                    break;
            }
            s_decode_any (data, mutated, &accepted);
        }
        free (frame);
    }
    //  Some mutations keep a message valid (a changed number), so the
    //  round-trip check inside s_decode_any did real work.
    assert_true (accepted > 0);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_names_and_strcpy),
        cmocka_unit_test (test_round_trip_every_type),
        cmocka_unit_test (test_round_trip_edges),
        cmocka_unit_test (test_truncation_and_trailing),
        cmocka_unit_test (test_version_and_type),
        cmocka_unit_test (test_wrong_missing_duplicate_fields),
        cmocka_unit_test (test_numeric_ranges),
        cmocka_unit_test (test_string_bounds),
        cmocka_unit_test (test_prepare_spec),
        cmocka_unit_test (test_unknown_keys_ignored),
        cmocka_unit_test (test_hostile_frames),
        cmocka_unit_test (test_random_bytes),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
