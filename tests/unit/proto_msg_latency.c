/*  tests/unit/proto_msg_latency.c: the latency histograms a RESULT
    carries: the worst case fits one frame, they come back bucket for
    bucket, and a RESULT whose histograms are wrong is refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../proto/msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  A RESULT whose three histograms have every bucket filled, with the
//  largest counts: the largest RESULT there can be, short of its texts.
static void
s_full_result (msg_t *msg)
{
    memset (msg, 0, sizeof (*msg));
    msg->type = MSG_RESULT;
    memset (msg->u.result.error, 'e', sizeof (msg->u.result.error) - 1);
    memset (msg->u.result.path, 'p', sizeof (msg->u.result.path) - 1);
    for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++) {
        histogram_t *h = &msg->u.result.latency [kind];
        for (size_t index = 0; index < HISTOGRAM_BUCKETS; index++)
            histogram_set_bucket (h, index, UINT64_MAX / (2 * HISTOGRAM_BUCKETS));
        uint64_t count = (UINT64_MAX / (2 * HISTOGRAM_BUCKETS)) * HISTOGRAM_BUCKETS;
        histogram_sum_t sum = 0;
        for (size_t index = 0; index < HISTOGRAM_BUCKETS; index++)
            sum += (histogram_sum_t) histogram_bucket_low (index) * (count / HISTOGRAM_BUCKETS);
        sum += INT64_MAX;           //  the max, in the last bucket, is one of the values
        histogram_set_summary (h, count, 0, INT64_MAX, sum);
        char err [256];
        if (histogram_check (h, err, sizeof (err)))
            fail_msg ("the full histogram is not one: %s", err);
    }
}

static void
test_full_result_fits_a_frame (void **state)
{
    (void) state;
    static msg_t sent, got;
    s_full_result (&sent);
    char *frame = NULL;
    size_t size = 0;
    assert_int_equal (msg_encode (&sent, &frame, &size), 0);
    print_message ("largest RESULT: %zu bytes of %d\n", size, MSG_FRAME_MAX);
    assert_true (size <= MSG_FRAME_MAX);
    char err [MSG_TEXT_MAX + 1];
    assert_int_equal (msg_decode (frame, size, &got, err, sizeof (err)), MSG_OK);
    for (int kind = 0; kind < MSG_LATENCY_KINDS; kind++)
        assert_true (histogram_equal (&got.u.result.latency [kind], &sent.u.result.latency [kind]));
    free (frame);
}

//  Values recorded by a stream come back with the same percentiles.
static void
test_percentiles_travel (void **state)
{
    (void) state;
    static msg_t sent, got;
    memset (&sent, 0, sizeof (sent));
    sent.type = MSG_RESULT;
    for (int64_t us = 1; us <= 10000; us++)
        histogram_record (&sent.u.result.latency [MSG_LATENCY_WRITE], us * 1000);
    char *frame = NULL;
    size_t size = 0;
    assert_int_equal (msg_encode (&sent, &frame, &size), 0);
    char err [MSG_TEXT_MAX + 1];
    assert_int_equal (msg_decode (frame, size, &got, err, sizeof (err)), MSG_OK);
    free (frame);
    const histogram_t *h = &got.u.result.latency [MSG_LATENCY_WRITE];
    assert_int_equal (histogram_count (h), 10000);
    assert_int_equal (histogram_count (&got.u.result.latency [MSG_LATENCY_READ]), 0);
    for (double p = 1; p < 100; p += 7.5) {
        int64_t want = (int64_t) (p * 100 + 0.999999) * 1000;     //  rank ceil (p% of 10000)
        int64_t have = histogram_percentile (h, p);
        assert_true (have >= want - want / 128 && have <= want + want / 128);
    }
}

//  A latency that is not three valid histograms makes the RESULT
//  malformed, named.
static void
test_bad_latency_refused (void **state)
{
    (void) state;
    static msg_t msg, got;
    memset (&msg, 0, sizeof (msg));
    msg.type = MSG_RESULT;
    histogram_record (&msg.u.result.latency [MSG_LATENCY_FSYNC], 5);
    char *frame = NULL;
    size_t size = 0;
    assert_int_equal (msg_encode (&msg, &frame, &size), 0);
    //  The fsync histogram's count (1) follows its "count" key: make it 2,
    //  so that its buckets no longer add up.
    char *last = NULL;
    for (char *p = frame; (p = memmem (p, size - (size_t) (p - frame), "\xa5" "count", 6));
         p += 6)
        last = p;
    assert_non_null (last);
    assert_int_equal ((unsigned char) last [6], 1);
    last [6] = 2;
    char err [MSG_TEXT_MAX + 1];
    assert_int_equal (msg_decode (frame, size, &got, err, sizeof (err)), MSG_EMALFORMED);
    assert_non_null (strstr (err, "key 'latency': fsync: "));
    free (frame);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_full_result_fits_a_frame),
        cmocka_unit_test (test_percentiles_travel),
        cmocka_unit_test (test_bad_latency_refused),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
