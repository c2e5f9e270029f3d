/*  tests/unit/proto_histogram.c: the latency histogram. The layout pinned
    to its documented indexes; the error bound over the whole range;
    percentiles of hand-made distributions and of random data against the
    sorted samples; exact merges; the pack / unpack round trip, the
    largest packed size; and the unpacker against hostile input.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../proto/histogram.h"
#include "../../proto/msg.h"
#include "histogram_bytes.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define US ((int64_t) 1000)
#define MS ((int64_t) 1000000)
#define SEC ((int64_t) 1000000000)

//  --------------------------------------------------------------------
//  Helpers

//  A reproducible generator (splitmix64), so that a failure reruns alike.
static uint64_t s_seed;

static uint64_t
s_random (void)
{
    uint64_t z = (s_seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

//  A value spread evenly over the octaves below 2^bits_max ns: as many
//  around 1 us as around 1 s, as latencies are.
static int64_t
s_random_value (int bits_max)
{
    int bits = (int) (s_random () % (uint64_t) (bits_max + 1));
    return bits? (int64_t) (s_random () >> (64 - bits)): 0;
}

//  Fail unless got is within 1% of want.
static void
s_assert_near (int64_t got, int64_t want, const char *what)
{
    double error = fabs ((double) got - (double) want) / (double) want;
    if (error > 0.01)
        fail_msg ("%s: %" PRId64 " is %.3f%% away from %" PRId64, what, got, 100 * error, want);
}

//  Fail unless histogram_check passes, showing its reason.
static void
s_assert_valid (const histogram_t *h)
{
    char err [256];
    if (histogram_check (h, err, sizeof (err)))
        fail_msg ("histogram_check: %s", err);
}

//  Pack h, unpack it again, and check that nothing changed; returns the
//  packed size.
static size_t
s_round_trip (const histogram_t *h)
{
    msgpack_sbuffer buffer;
    msgpack_sbuffer_init (&buffer);
    msgpack_packer pk;
    msgpack_packer_init (&pk, &buffer, msgpack_sbuffer_write);
    histogram_pack (h, &pk);
    size_t size = buffer.size;
    if (size > HISTOGRAM_PACKED_MAX)
        fail_msg ("packed %zu bytes, more than HISTOGRAM_PACKED_MAX %d", size,
                  HISTOGRAM_PACKED_MAX);
    histogram_t *got = histogram_new ();
    char err [256];
    if (histogram_bytes_unpack (buffer.data, buffer.size, got, err, sizeof (err)))
        fail_msg ("unpack of a packed histogram: %s", err);
    assert_true (histogram_equal (got, h));
    histogram_destroy (&got);
    msgpack_sbuffer_destroy (&buffer);
    return size;
}

//  --------------------------------------------------------------------
//  Layout

static void
test_layout (void **state)
{
    (void) state;
    assert_int_equal (HISTOGRAM_BUCKETS, 2048);
    assert_int_equal (HISTOGRAM_LAYOUT, 1);

    //  The indexes the header documents: part of the file format.
    assert_int_equal (histogram_index (0), 0);
    assert_int_equal (histogram_index (127), 127);
    assert_int_equal (histogram_index (128), 128);
    assert_int_equal (histogram_index (255), 191);
    assert_int_equal (histogram_index (256), 192);
    assert_int_equal (histogram_index (1 * US), 317);
    assert_int_equal (histogram_index (1 * MS), 954);
    assert_int_equal (histogram_index (1 * SEC), 1591);
    assert_int_equal (histogram_index (100 * SEC), 2013);
    assert_int_equal (histogram_index (((int64_t) 1 << 36)), 1984);
    assert_int_equal (histogram_index (HISTOGRAM_RANGE_NS - 1), 2047);
    assert_int_equal (histogram_index (HISTOGRAM_RANGE_NS), 2047);
    assert_int_equal (histogram_index (INT64_MAX), 2047);
    assert_int_equal (histogram_index (-1), 0);
    assert_int_equal (histogram_index (INT64_MIN), 0);

    //  Buckets tile the values without gap or overlap, each a power of
    //  two wide and at most 1/64 of its low edge, and index() finds them.
    assert_int_equal (histogram_bucket_low (0), 0);
    for (size_t i = 0; i < HISTOGRAM_BUCKETS; i++) {
        int64_t low = histogram_bucket_low (i);
        int64_t high = histogram_bucket_high (i);
        assert_true (low <= high);
        assert_int_equal (histogram_index (low), i);
        assert_int_equal (histogram_index (high), i);
        if (i + 1 < HISTOGRAM_BUCKETS) {
            assert_int_equal (high + 1, histogram_bucket_low (i + 1));
            uint64_t width = (uint64_t) (high - low + 1);
            assert_true ((width & (width - 1)) == 0);
            assert_true (i < 128? width == 1: width * 64 <= (uint64_t) low);
        }
    }
    assert_int_equal (histogram_bucket_high (HISTOGRAM_BUCKETS - 1), INT64_MAX);
    assert_int_equal (histogram_bucket_low (HISTOGRAM_BUCKETS - 1),
                      HISTOGRAM_RANGE_NS - ((int64_t) 1 << 30));

    //  A fixed size, "a few KiB to a few tens of KiB".
    assert_true (HISTOGRAM_BYTES >= HISTOGRAM_BUCKETS * sizeof (uint64_t));
    assert_true (HISTOGRAM_BYTES <= HISTOGRAM_BUCKETS * sizeof (uint64_t) + 64);
}

//  The value at p50 of { 0, value, INT64_MAX }: the midpoint of value's
//  bucket, which neither the exact min nor the exact max can mend.
static int64_t
s_midpoint_of (histogram_t *h, int64_t value)
{
    histogram_init (h);
    histogram_record (h, 0);
    histogram_record (h, value);
    histogram_record (h, INT64_MAX);
    return histogram_percentile (h, 50);
}

static void
test_error_bound (void **state)
{
    (void) state;
    histogram_t *h = histogram_new ();
    double worst = 0;
    size_t points = 0;

    //  A log grid 0.02% apart from 1 us to 100 s: 92,000 values.
    for (double v = 1e3; v <= 1e11; v *= 1.0002, points++) {
        int64_t value = llround (v);
        int64_t got = s_midpoint_of (h, value);
        double error = fabs ((double) (got - value)) / (double) value;
        if (error > worst)
            worst = error;
        if (error > 0.01)
            fail_msg ("%" PRId64 " ns reported as %" PRId64 ": %.3f%%", value, got, 100 * error);
    }
    assert_true (points > 90000);

    //  The worst values of all are bucket edges: try both of every bucket
    //  from 1 us up to the last within the range.
    for (size_t i = histogram_index (1 * US); i < HISTOGRAM_BUCKETS - 1; i++) {
        int64_t edges [2] = { histogram_bucket_low (i), histogram_bucket_high (i) };
        for (int e = 0; e < 2; e++) {
            int64_t got = s_midpoint_of (h, edges [e]);
            double error = fabs ((double) (got - edges [e])) / (double) edges [e];
            if (error > worst)
                worst = error;
        }
    }
    //  The bound of the header, and close to it: the test measures.
    print_message ("worst relative error from 1 us to 137 s: %.4f%%\n", 100 * worst);
    assert_true (worst < 1.0 / 128);
    assert_true (worst > 0.9 / 128);

    //  Below 128 ns every value is exact.
    for (int64_t value = 1; value < 128; value++)
        assert_int_equal (s_midpoint_of (h, value), value);
    histogram_destroy (&h);
}

//  --------------------------------------------------------------------
//  Recording and percentiles

static void
test_empty_and_single (void **state)
{
    (void) state;
    histogram_t h;
    histogram_init (&h);
    assert_int_equal (histogram_count (&h), 0);
    assert_int_equal (histogram_min (&h), 0);
    assert_int_equal (histogram_max (&h), 0);
    assert_true (histogram_sum (&h) == 0);
    assert_true (histogram_mean (&h) == 0);
    assert_int_equal (histogram_percentile (&h, 50), 0);
    assert_int_equal (histogram_percentile (&h, 100), 0);
    size_t cursor = 0;
    histogram_bucket_t bucket;
    assert_false (histogram_next (&h, &cursor, &bucket));
    s_assert_valid (&h);
    histogram_t other;
    histogram_init (&other);
    assert_int_equal (histogram_merge (&h, &other), 0);
    assert_true (histogram_equal (&h, &other));
    s_round_trip (&h);

    //  One value, once or many times: every query says exactly it.
    for (int times = 1; times <= 1000; times *= 10) {
        histogram_init (&h);
        for (int i = 0; i < times; i++)
            histogram_record (&h, 12345);
        assert_int_equal (histogram_count (&h), times);
        assert_int_equal (histogram_min (&h), 12345);
        assert_int_equal (histogram_max (&h), 12345);
        assert_true (histogram_mean (&h) == 12345);
        assert_int_equal (histogram_percentile (&h, 0), 12345);
        assert_int_equal (histogram_percentile (&h, 50), 12345);
        assert_int_equal (histogram_percentile (&h, 99.9), 12345);
        assert_int_equal (histogram_percentile (&h, 100), 12345);
        cursor = 0;
        assert_true (histogram_next (&h, &cursor, &bucket));
        assert_int_equal (bucket.index, histogram_index (12345));
        assert_true (bucket.low_ns <= 12345 && 12345 <= bucket.high_ns);
        assert_int_equal (bucket.count, times);
        assert_false (histogram_next (&h, &cursor, &bucket));
        s_assert_valid (&h);
        s_round_trip (&h);
    }

    //  A negative value (a clock gone backwards) counts as 0; a value
    //  past the range counts in the last bucket and stays exact as max.
    histogram_init (&h);
    histogram_record (&h, -5);
    histogram_record (&h, 300 * SEC);
    histogram_record (&h, 200 * SEC);
    assert_int_equal (histogram_count (&h), 3);
    assert_int_equal (histogram_min (&h), 0);
    assert_int_equal (histogram_max (&h), 300 * SEC);
    assert_true (histogram_sum (&h) == (histogram_sum_t) (500 * SEC));
    assert_int_equal (h.counts [0], 1);
    assert_int_equal (h.counts [HISTOGRAM_BUCKETS - 1], 2);
    int64_t p50 = histogram_percentile (&h, 50);
    assert_true (p50 >= histogram_bucket_low (HISTOGRAM_BUCKETS - 1) && p50 <= 300 * SEC);
    s_assert_valid (&h);
    s_round_trip (&h);

    //  The sum is exact where 64 bits would wrap.
    histogram_init (&h);
    for (int i = 0; i < 4; i++)
        histogram_record (&h, INT64_MAX);
    assert_true (histogram_sum (&h) == (histogram_sum_t) INT64_MAX * 4);
    assert_true (histogram_sum (&h) >> 64 == 1);
    assert_true (histogram_mean (&h) == (double) INT64_MAX);
    s_assert_valid (&h);
    s_round_trip (&h);
}

static void
test_percentiles_by_hand (void **state)
{
    (void) state;
    histogram_t *h = histogram_new ();

    //  Uniform 1 .. 1000 us, recorded in a shuffled order.
    int64_t values [1000];
    for (int i = 0; i < 1000; i++)
        values [i] = (i + 1) * US;
    s_seed = 7;
    for (int i = 999; i > 0; i--) {
        int j = (int) (s_random () % (uint64_t) (i + 1));
        int64_t swap = values [i];
        values [i] = values [j];
        values [j] = swap;
    }
    for (int i = 0; i < 1000; i++)
        histogram_record (h, values [i]);
    assert_int_equal (histogram_count (h), 1000);
    assert_int_equal (histogram_percentile (h, 0), 1 * US);
    s_assert_near (histogram_percentile (h, 25), 250 * US, "p25");
    s_assert_near (histogram_percentile (h, 50), 500 * US, "p50");
    s_assert_near (histogram_percentile (h, 90), 900 * US, "p90");
    s_assert_near (histogram_percentile (h, 99), 990 * US, "p99");
    s_assert_near (histogram_percentile (h, 99.9), 999 * US, "p99.9");
    assert_int_equal (histogram_percentile (h, 100), 1000 * US);
    assert_true (histogram_mean (h) == 500.5 * US);
    assert_int_equal (histogram_min (h), 1 * US);
    assert_int_equal (histogram_max (h), 1000 * US);

    //  Bimodal: 900 values of 90 .. 110 us (cache hits), 100 of
    //  9.5 .. 10.5 ms (disk). Rank 900 is the last of the first mode.
    histogram_init (h);
    for (int i = 0; i < 900; i++)
        histogram_record (h, 100 * US + (i % 21 - 10) * US);
    for (int i = 0; i < 100; i++)
        histogram_record (h, 10 * MS + (i % 11 - 5) * 100 * US);
    int64_t p50 = histogram_percentile (h, 50);
    assert_true (p50 >= 89 * US && p50 <= 111 * US);
    s_assert_near (histogram_percentile (h, 90), 110 * US, "p90 (last of mode 1)");
    s_assert_near (histogram_percentile (h, 90.1), 9500 * US, "p90.1 (first of mode 2)");
    int64_t p99 = histogram_percentile (h, 99);
    assert_true (p99 >= 9400 * US && p99 <= 10600 * US);
    assert_int_equal (histogram_percentile (h, 100), 10500 * US);
    assert_int_equal (histogram_percentile (h, 0), 90 * US);

    //  The rank definition: 1 2 3 4 ns are exact buckets.
    histogram_init (h);
    for (int64_t v = 1; v <= 4; v++)
        histogram_record (h, v);
    assert_int_equal (histogram_percentile (h, 25), 1);
    assert_int_equal (histogram_percentile (h, 26), 2);
    assert_int_equal (histogram_percentile (h, 50), 2);
    assert_int_equal (histogram_percentile (h, 50.01), 3);
    assert_int_equal (histogram_percentile (h, 75), 3);
    assert_int_equal (histogram_percentile (h, 76), 4);
    //  Out of range p is clamped; NaN is p0.
    assert_int_equal (histogram_percentile (h, -5), 1);
    assert_int_equal (histogram_percentile (h, 250), 4);
    assert_int_equal (histogram_percentile (h, NAN), 1);

    //  99.9 of 1000 is rank 999, although the double 99.9 is a hair
    //  above 99.9 and 99.9 * 1000 / 100 rounds up to 1000 without care.
    histogram_init (h);
    for (int i = 0; i < 998; i++)
        histogram_record (h, 1 * US);
    histogram_record (h, 1 * MS);
    histogram_record (h, 1 * SEC);
    s_assert_near (histogram_percentile (h, 99.9), 1 * MS, "p99.9 is rank 999");
    assert_int_equal (histogram_percentile (h, 99.95), 1 * SEC);
    s_assert_near (histogram_percentile (h, 99.8), 1 * US, "p99.8 is rank 998");
    histogram_destroy (&h);
}

//  qsort order of int64_t.
static int
s_compare (const void *a, const void *b)
{
    int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
    return (x > y) - (x < y);
}

static void
test_percentiles_against_sorted (void **state)
{
    (void) state;
    //  Random latencies from 0 to the top of the range; the value of
    //  every rank asked must be within 1% of the sorted samples' own.
    enum { N = 100000 };
    int64_t *values = (int64_t *) malloc (N * sizeof (int64_t));
    assert_non_null (values);
    histogram_t *h = histogram_new ();
    s_seed = 42;
    for (int i = 0; i < N; i++) {
        values [i] = s_random_value (HISTOGRAM_TOP_BITS);
        histogram_record (h, values [i]);
    }
    qsort (values, N, sizeof (int64_t), s_compare);
    //  p in thousandths of a percent, so that the rank is integer sums.
    const uint64_t thousandths [] = {
        0, 1, 1000, 10000, 25000, 50000, 75000, 90000, 95000, 99000, 99900, 99990, 99999, 100000
    };
    for (size_t i = 0; i < sizeof (thousandths) / sizeof (thousandths [0]); i++) {
        uint64_t rank = (thousandths [i] * N + 99999) / 100000;
        if (rank == 0)
            rank = 1;
        int64_t want = values [rank - 1];
        int64_t got = histogram_percentile (h, (double) thousandths [i] / 1000);
        char what [64];
        snprintf (what, sizeof (what), "p%g (rank %" PRIu64 ")",
                  (double) thousandths [i] / 1000, rank);
        if (want == 0)
            assert_int_equal (got, 0);
        else
            s_assert_near (got, want, what);
    }
    assert_int_equal (histogram_min (h), values [0]);
    assert_int_equal (histogram_max (h), values [N - 1]);
    free (values);
    histogram_destroy (&h);
}

//  --------------------------------------------------------------------
//  Merging

static void
test_merge_is_exact (void **state)
{
    (void) state;
    histogram_t *a = histogram_new (), *b = histogram_new ();
    histogram_t *all = histogram_new (), *copy = histogram_new ();
    s_seed = 20240229;
    for (int i = 0; i < 200000; i++) {
        //  Some values below 0 and past the range, to clamp.
        int64_t value = s_random_value (40) - (int64_t) (s_random () % 8 == 0? 1000: 0);
        histogram_record (s_random () % 3? a: b, value);
        histogram_record (all, value);
    }
    assert_true (a->count > 0 && b->count > 0);

    //  A + B is the histogram of all values, and B + A too.
    *copy = *a;
    assert_int_equal (histogram_merge (a, b), 0);
    assert_true (histogram_equal (a, all));
    s_assert_valid (a);
    assert_int_equal (histogram_merge (b, copy), 0);
    assert_true (histogram_equal (b, all));
    *copy = *b;

    //  Bucket for bucket, as a report would list them.
    size_t cursor_a = 0, cursor_b = 0, listed = 0;
    histogram_bucket_t x, y;
    uint64_t total = 0;
    while (histogram_next (copy, &cursor_a, &x)) {
        assert_true (histogram_next (all, &cursor_b, &y));
        assert_memory_equal (&x, &y, sizeof (x));
        total += x.count;
        listed++;
    }
    assert_false (histogram_next (all, &cursor_b, &y));
    assert_int_equal (total, histogram_count (all));
    assert_true (listed > 1000);

    //  Empty into full, full into empty, a histogram into itself.
    histogram_init (a);
    histogram_init (b);
    histogram_record (b, 5000);
    histogram_record (b, 7000);
    assert_int_equal (histogram_merge (a, b), 0);
    assert_true (histogram_equal (a, b));
    assert_int_equal (histogram_min (a), 5000);
    histogram_init (b);
    assert_int_equal (histogram_merge (copy, b), 0);
    assert_true (histogram_equal (copy, all));
    assert_int_equal (histogram_merge (b, all), 0);
    assert_true (histogram_equal (b, all));
    assert_int_equal (histogram_merge (b, b), 0);
    assert_int_equal (histogram_count (b), 2 * histogram_count (all));
    assert_true (histogram_sum (b) == 2 * histogram_sum (all));
    s_assert_valid (b);

    //  A total past 2^64 - 1 is refused and changes nothing.
    histogram_init (a);
    assert_int_equal (histogram_set_bucket (a, 317, UINT64_MAX - 1), 0);
    histogram_set_summary (a, UINT64_MAX - 1, 1000, 1000,
                           (histogram_sum_t) 1000 * (UINT64_MAX - 1));
    s_assert_valid (a);
    *copy = *a;
    histogram_init (b);
    histogram_record (b, 1000);
    assert_int_equal (histogram_merge (a, b), 0);
    assert_int_equal (histogram_count (a), UINT64_MAX);
    assert_int_equal (histogram_merge (copy, all), -1);
    assert_int_equal (histogram_merge (a, b), -1);
    assert_int_equal (histogram_count (a), UINT64_MAX);
    assert_int_equal (a->counts [317], UINT64_MAX);

    histogram_destroy (&a);
    histogram_destroy (&b);
    histogram_destroy (&all);
    histogram_destroy (&copy);
    histogram_destroy (&b);         //  safe on NULL
    assert_null (b);
}

//  --------------------------------------------------------------------
//  Rebuilding from a file and the wire

static void
test_rebuild_from_buckets (void **state)
{
    (void) state;
    histogram_t *h = histogram_new (), *back = histogram_new ();
    s_seed = 5;
    for (int i = 0; i < 5000; i++)
        histogram_record (h, s_random_value (34));

    //  What `iofleet report` does with a results file: buckets by index,
    //  then the summary, then the check.
    size_t cursor = 0;
    histogram_bucket_t bucket;
    while (histogram_next (h, &cursor, &bucket))
        assert_int_equal (histogram_set_bucket (back, bucket.index, bucket.count), 0);
    char err [256];
    assert_int_equal (histogram_check (back, err, sizeof (err)), -1);
    assert_string_equal (err, "bucket counts add up to 5000, count is 0");
    histogram_set_summary (back, histogram_count (h), histogram_min (h), histogram_max (h),
                           histogram_sum (h));
    s_assert_valid (back);
    assert_true (histogram_equal (back, h));
    assert_int_equal (histogram_percentile (back, 99), histogram_percentile (h, 99));

    assert_int_equal (histogram_set_bucket (back, HISTOGRAM_BUCKETS, 1), -1);
    assert_int_equal (histogram_set_bucket (back, (size_t) -1, 1), -1);
    assert_true (histogram_equal (back, h));
    histogram_destroy (&h);
    histogram_destroy (&back);
}

static void
test_pack_round_trip (void **state)
{
    (void) state;
    histogram_t *h = histogram_new ();

    //  Random latencies, from a few values to many.
    s_seed = 99;
    for (int n = 1; n <= 1000000; n *= 10) {
        histogram_init (h);
        for (int i = 0; i < n; i++)
            histogram_record (h, s_random_value (38));
        size_t size = s_round_trip (h);
        print_message ("%d random values over 2^38 ns: %zu bytes packed\n", n, size);
    }
    //  A stream's typical latencies: 1 million requests of 80 .. 400 us.
    histogram_init (h);
    for (int i = 0; i < 1000000; i++)
        histogram_record (h, 80 * US + (int64_t) (s_random () % (320 * US)));
    print_message ("1e6 values of 80 .. 400 us: %zu bytes packed\n", s_round_trip (h));

    //  Gaps of every length around the one where runs split.
    for (size_t gap = 0; gap <= 6; gap++) {
        histogram_init (h);
        for (size_t i = 100; i < HISTOGRAM_BUCKETS; i += gap + 1)
            histogram_record (h, histogram_bucket_low (i));
        s_round_trip (h);
    }
    //  The first and the last bucket alone.
    histogram_init (h);
    histogram_record (h, 0);
    histogram_record (h, INT64_MAX);
    s_round_trip (h);

    //  The largest: every bucket holds a count that needs 9 bytes, the
    //  total just below 2^64, min 0 and max INT64_MAX, the sum as small
    //  as the buckets allow.
    histogram_init (h);
    histogram_sum_t sum = 0;
    for (size_t i = 0; i < HISTOGRAM_BUCKETS; i++) {
        uint64_t count = ((uint64_t) 1 << 53) - 1;
        histogram_set_bucket (h, i, count);
        sum += (histogram_sum_t) count * (uint64_t) histogram_bucket_low (i);
    }
    sum += (uint64_t) (INT64_MAX - histogram_bucket_low (HISTOGRAM_BUCKETS - 1));
    histogram_set_summary (h, HISTOGRAM_BUCKETS * (((uint64_t) 1 << 53) - 1), 0,
                           INT64_MAX, sum);
    s_assert_valid (h);
    size_t size = s_round_trip (h);
    print_message ("fully populated: %zu bytes packed, bound %d\n", size,
                   HISTOGRAM_PACKED_MAX);
    //  The bound is not loose: only min, the one run and its first index
    //  come out shorter than the worst.
    assert_true (size >= HISTOGRAM_PACKED_MAX - 16);
    assert_true (3 * HISTOGRAM_PACKED_MAX < MSG_FRAME_MAX);
    histogram_destroy (&h);
}

//  --------------------------------------------------------------------
//  Hostile input

//  Pack a JSON value as msgpack, for readable test cases. A string that
//  starts with '#' is an unsigned integer, for those past INT64_MAX.
static void
s_pack_json (msgpack_packer *pk, const json_t *json)
{
    const char *key;
    json_t *value;
    size_t index;
    switch (json_typeof (json)) {
        case JSON_OBJECT:
            msgpack_pack_map (pk, json_object_size (json));
            json_object_foreach ((json_t *) json, key, value) {
                msgpack_pack_str_with_body (pk, key, strlen (key));
                s_pack_json (pk, value);
            }
            break;
        case JSON_ARRAY:
            msgpack_pack_array (pk, json_array_size (json));
            json_array_foreach (json, index, value)
                s_pack_json (pk, value);
            break;
        case JSON_STRING: {
            const char *text = json_string_value (json);
            if (text [0] == '#')
                msgpack_pack_uint64 (pk, strtoull (text + 1, NULL, 10));
            else
                msgpack_pack_str_with_body (pk, text, strlen (text));
            break;
        }
        case JSON_INTEGER: msgpack_pack_int64 (pk, json_integer_value (json)); break;
        case JSON_REAL:    msgpack_pack_double (pk, json_real_value (json)); break;
        case JSON_TRUE:    msgpack_pack_true (pk); break;
        case JSON_FALSE:   msgpack_pack_false (pk); break;
        case JSON_NULL:    msgpack_pack_nil (pk); break;
    }
}

//  Unpack the histogram written as JSON text; expect success when
//  expect is NULL, else failure with expect in the reason.
static void
s_expect (const char *text, const char *expect)
{
    json_error_t error;
    json_t *json = json_loads (text, JSON_DECODE_ANY, &error);
    if (!json)
        fail_msg ("bad test case %s: %s", text, error.text);
    msgpack_sbuffer buffer;
    msgpack_sbuffer_init (&buffer);
    msgpack_packer pk;
    msgpack_packer_init (&pk, &buffer, msgpack_sbuffer_write);
    s_pack_json (&pk, json);
    json_decref (json);

    histogram_t *h = histogram_new ();
    char err [256] = "";
    int rc = histogram_bytes_unpack (buffer.data, buffer.size, h, err, sizeof (err));
    if (!expect && rc != 0)
        fail_msg ("%s: refused: %s", text, err);
    if (expect && rc == 0)
        fail_msg ("%s: accepted", text);
    if (expect && !strstr (err, expect))
        fail_msg ("%s: reason '%s' lacks '%s'", text, err, expect);
    if (expect) {
        histogram_t empty;
        histogram_init (&empty);
        assert_true (histogram_equal (h, &empty));
    }
    else
        s_assert_valid (h);
    histogram_destroy (&h);
    msgpack_sbuffer_destroy (&buffer);
}

//  Two values, 1000 ns (bucket 317, 1000..1007) and 2000 ns (bucket
//  381, 2000..2015), with the summary first and the runs to follow.
#define S_LAYOUT  "\"layout\":1,"
#define S_REST    "\"count\":2,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[0,3000],"
#define S_RUNS    "\"runs\":[[317,1],[381,1]]"
#define S_HEAD    S_LAYOUT S_REST

static void
test_unpack_hostile_fields (void **state)
{
    (void) state;
    //  Valid forms, so that the refusals below are about one thing each.
    s_expect ("{" S_HEAD S_RUNS "}", NULL);
    s_expect ("{\"future\":{\"x\":[1]}," S_HEAD S_RUNS ",\"7\":7}", NULL);
    s_expect ("{" S_HEAD "\"runs\":[[316,0,1],[381,1,0,0]]}", NULL);
    s_expect ("{" S_LAYOUT "\"count\":0,\"min_ns\":0,\"max_ns\":0,\"sum_ns\":[0,0],"
              "\"runs\":[]}", NULL);

    //  Not a map, missing keys, wrong types.
    s_expect ("[1,2]", "histogram is not a map");
    s_expect ("null", "histogram is not a map");
    s_expect ("{" S_REST S_RUNS "}", "layout: missing");
    s_expect ("{" S_LAYOUT "\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[0,3000]," S_RUNS "}",
              "count: missing");
    s_expect ("{" S_LAYOUT "\"count\":2,\"max_ns\":2000,\"sum_ns\":[0,3000]," S_RUNS "}",
              "min_ns: missing");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"sum_ns\":[0,3000]," S_RUNS "}",
              "max_ns: missing");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"max_ns\":2000," S_RUNS "}",
              "sum_ns: missing");
    s_expect ("{" S_HEAD "\"run\":[]}", "runs: missing");
    s_expect ("{\"layout\":2," S_REST S_RUNS "}", "layout 2, this side knows layout 1");
    s_expect ("{\"layout\":\"1\"," S_REST S_RUNS "}", "layout: wrong type");
    s_expect ("{" S_LAYOUT "\"count\":-2,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[0,3000],"
              S_RUNS "}", "count: -2 is negative");
    s_expect ("{" S_LAYOUT "\"count\":2.0,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[0,3000],"
              S_RUNS "}", "count: wrong type (want an unsigned integer)");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":\"1000\",\"max_ns\":2000,"
              "\"sum_ns\":[0,3000]," S_RUNS "}", "min_ns: wrong type");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":-1000,\"max_ns\":2000,"
              "\"sum_ns\":[0,3000]," S_RUNS "}", "min_ns: -1000 is negative");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"max_ns\":\"#9223372036854775808\","
              "\"sum_ns\":[0,3000]," S_RUNS "}", "max_ns: 9223372036854775808 is too large");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"max_ns\":true,"
              "\"sum_ns\":[0,3000]," S_RUNS "}", "max_ns: wrong type");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":3000,"
              S_RUNS "}", "sum_ns: wrong type (want an array of two");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[3000],"
              S_RUNS "}", "sum_ns: wrong type (want an array of two");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[0,3000,0],"
              S_RUNS "}", "sum_ns: wrong type (want an array of two");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[0,-1],"
              S_RUNS "}", "sum_ns[1]: -1 is negative");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[null,0],"
              S_RUNS "}", "sum_ns[0]: wrong type");
}

static void
test_unpack_hostile_runs (void **state)
{
    (void) state;
    s_expect ("{" S_HEAD "\"runs\":{}}", "runs: wrong type (want an array)");
    s_expect ("{" S_HEAD "\"runs\":[317,1]}", "runs[0]: wrong type (want an array)");
    s_expect ("{" S_HEAD "\"runs\":[[317,1],\"381\"]}", "runs[1]: wrong type (want an array)");
    //  Truncated runs: an index without counts, nothing at all.
    s_expect ("{" S_HEAD "\"runs\":[[317,1],[381]]}",
              "runs[1]: 1 elements, want a first index and at least one count");
    s_expect ("{" S_HEAD "\"runs\":[[]]}", "runs[0]: 0 elements");
    //  Indexes: types and range.
    s_expect ("{" S_HEAD "\"runs\":[[\"317\",1],[381,1]]}", "runs[0][0]: wrong type");
    s_expect ("{" S_HEAD "\"runs\":[[-1,1],[381,1]]}", "runs[0][0]: -1 is negative");
    s_expect ("{" S_HEAD "\"runs\":[[317,1],[2048,1]]}",
              "runs[1]: first index 2048 is out of range (0..2047)");
    s_expect ("{" S_HEAD "\"runs\":[[317,1],[\"#18446744073709551615\",1]]}",
              "runs[1]: first index 18446744073709551615 is out of range");
    s_expect ("{" S_HEAD "\"runs\":[[317,1],[2047,1,1]]}",
              "runs[1]: 2 counts from index 2047 go past the last bucket 2047");
    //  Runs out of order, overlapping or repeated.
    s_expect ("{" S_HEAD "\"runs\":[[381,1],[317,1]]}",
              "runs[1]: first index 317 is not after index 381, where the run before ends");
    s_expect ("{" S_HEAD "\"runs\":[[317,1,1],[318,1]]}",
              "runs[1]: first index 318 is not after index 318");
    s_expect ("{" S_HEAD "\"runs\":[[317,1],[317,1]]}",
              "runs[1]: first index 317 is not after index 317");
    //  Counts: types, overflow, and what they must add up to.
    s_expect ("{" S_HEAD "\"runs\":[[317,1.5],[381,1]]}",
              "runs[0][1]: wrong type (want an unsigned integer)");
    s_expect ("{" S_HEAD "\"runs\":[[317,-1],[381,1]]}", "runs[0][1]: -1 is negative");
    s_expect ("{" S_HEAD "\"runs\":[[317,\"#18446744073709551615\"],[381,1]]}",
              "runs[1][1]: counts add up to more than 2^64 - 1");
    s_expect ("{" S_HEAD "\"runs\":[[317,1]]}", "bucket counts add up to 1, count is 2");
    s_expect ("{" S_LAYOUT "\"count\":3,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[0,3000],"
              S_RUNS "}", "bucket counts add up to 2, count is 3");
    s_expect ("{" S_LAYOUT "\"count\":\"#18446744073709551615\",\"min_ns\":1000,"
              "\"max_ns\":2000,\"sum_ns\":[0,3000]," S_RUNS "}",
              "bucket counts add up to 2, count is 18446744073709551615");
}

static void
test_unpack_hostile_summary (void **state)
{
    (void) state;
    //  Min, max and sum that no set of values in those buckets can have.
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":2000,\"max_ns\":1000,\"sum_ns\":[0,3000],"
              S_RUNS "}", "min_ns 2000 is above max_ns 1000");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":999,\"max_ns\":2000,\"sum_ns\":[0,3000],"
              S_RUNS "}", "min_ns 999 is not in bucket 317, the first with a count (1000..1007)");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"max_ns\":2100,\"sum_ns\":[0,3000],"
              S_RUNS "}", "max_ns 2100 is not in bucket 381, the last with a count (2000..2015)");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[0,2999],"
              S_RUNS "}", "sum_ns 2999 is outside 3000..3000, what the buckets");
    s_expect ("{" S_LAYOUT "\"count\":2,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[1,3000],"
              S_RUNS "}", "is outside 3000..3000");
    //  Three values: 1000, 2000 and one in either bucket.
    s_expect ("{" S_LAYOUT "\"count\":3,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[0,4000],"
              "\"runs\":[[317,2],[381,1]]}", NULL);
    s_expect ("{" S_LAYOUT "\"count\":3,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[0,4007],"
              "\"runs\":[[317,2],[381,1]]}", NULL);
    s_expect ("{" S_LAYOUT "\"count\":3,\"min_ns\":1000,\"max_ns\":2000,\"sum_ns\":[0,4008],"
              "\"runs\":[[317,2],[381,1]]}", "sum_ns 4008 is outside 4000..4007");
    s_expect ("{" S_LAYOUT "\"count\":1,\"min_ns\":1000,\"max_ns\":1003,\"sum_ns\":[0,1000],"
              "\"runs\":[[317,1]]}", "one value, but min_ns 1000 and max_ns 1003 differ");
    s_expect ("{" S_LAYOUT "\"count\":1,\"min_ns\":1000,\"max_ns\":1000,\"sum_ns\":[0,1001],"
              "\"runs\":[[317,1]]}", "one value, but sum_ns 1001 is not min_ns 1000");
    s_expect ("{" S_LAYOUT "\"count\":0,\"min_ns\":5,\"max_ns\":5,\"sum_ns\":[0,0],"
              "\"runs\":[]}", "no values, but min_ns, max_ns or sum_ns is not 0");
    s_expect ("{" S_LAYOUT "\"count\":0,\"min_ns\":0,\"max_ns\":0,\"sum_ns\":[0,5],"
              "\"runs\":[]}", "no values, but min_ns, max_ns or sum_ns is not 0");
}

//  Pack the two-value histogram's map with the runs written by `runs`
//  (called with the packer) and an extra copy of key `twice` if not NULL.
static void
s_pack_with_runs (msgpack_sbuffer *buffer, void (*runs) (msgpack_packer *, size_t),
                  size_t n, const char *twice)
{
    msgpack_packer pk;
    msgpack_packer_init (&pk, buffer, msgpack_sbuffer_write);
    msgpack_pack_map (&pk, twice? 7: 6);
    const char *keys [] = { "layout", "count", "min_ns", "max_ns", "sum_ns" };
    const uint64_t values [] = { 1, 2, 1000, 2000 };
    for (int k = 0; k < 5; k++) {
        for (int copy = 0; copy < (twice && !strcmp (twice, keys [k])? 2: 1); copy++) {
            msgpack_pack_str_with_body (&pk, keys [k], strlen (keys [k]));
            if (k < 4)
                msgpack_pack_uint64 (&pk, values [k]);
            else {
                msgpack_pack_array (&pk, 2);
                msgpack_pack_uint64 (&pk, 0);
                msgpack_pack_uint64 (&pk, 3000);
            }
        }
    }
    msgpack_pack_str_with_body (&pk, "runs", 4);
    runs (&pk, n);
}

//  n runs of one bucket each: the two real ones, at 317 and 381, then
//  empty buckets from 382 up.
static void
s_many_runs (msgpack_packer *pk, size_t n)
{
    msgpack_pack_array (pk, n);
    for (size_t i = 0; i < n; i++) {
        msgpack_pack_array (pk, 2);
        msgpack_pack_uint64 (pk, i == 0? 317: 380 + i);
        msgpack_pack_uint64 (pk, i < 2);
    }
}

//  One run of n counts from index 0.
static void
s_long_run (msgpack_packer *pk, size_t n)
{
    msgpack_pack_array (pk, 1);
    msgpack_pack_array (pk, n + 1);
    msgpack_pack_uint64 (pk, 0);
    for (size_t i = 0; i < n; i++)
        msgpack_pack_uint64 (pk, 0);
}

//  Unpack what buffer holds, expecting a refusal with expect in the reason.
static void
s_expect_buffer (msgpack_sbuffer *buffer, const char *expect)
{
    histogram_t *h = histogram_new ();
    char err [256] = "";
    assert_int_equal (histogram_bytes_unpack (buffer->data, buffer->size, h, err, sizeof (err)), -1);
    if (!strstr (err, expect))
        fail_msg ("reason '%s' lacks '%s'", err, expect);
    histogram_destroy (&h);
    msgpack_sbuffer_destroy (buffer);
    msgpack_sbuffer_init (buffer);
}

static void
test_unpack_huge_and_repeated (void **state)
{
    (void) state;
    msgpack_sbuffer buffer;
    msgpack_sbuffer_init (&buffer);
    s_pack_with_runs (&buffer, s_many_runs, HISTOGRAM_BUCKETS + 1, NULL);
    s_expect_buffer (&buffer, "runs: 2049 runs, more than the 2048 buckets");
    s_pack_with_runs (&buffer, s_many_runs, 100000, NULL);
    s_expect_buffer (&buffer, "runs: 100000 runs, more than the 2048 buckets");
    s_pack_with_runs (&buffer, s_long_run, HISTOGRAM_BUCKETS + 1, NULL);
    s_expect_buffer (&buffer, "runs[0]: 2049 counts from index 0 go past the last bucket 2047");
    s_pack_with_runs (&buffer, s_long_run, 100000, NULL);
    s_expect_buffer (&buffer, "runs[0]: 100000 counts from index 0 go past");
    //  A full-length run is fine as to length (and then all zeros).
    s_pack_with_runs (&buffer, s_long_run, HISTOGRAM_BUCKETS, NULL);
    s_expect_buffer (&buffer, "bucket counts add up to 0, count is 2");

    const char *keys [] = { "layout", "count", "min_ns", "max_ns", "sum_ns" };
    for (int k = 0; k < 5; k++) {
        char expect [64];
        snprintf (expect, sizeof (expect), "%s: given twice", keys [k]);
        s_pack_with_runs (&buffer, s_many_runs, 2, keys [k]);
        s_expect_buffer (&buffer, expect);
    }
    //  The same map without repeats is valid: the refusals were real.
    s_pack_with_runs (&buffer, s_many_runs, 2, NULL);
    histogram_t *h = histogram_new ();
    char err [256];
    if (histogram_bytes_unpack (buffer.data, buffer.size, h, err, sizeof (err)))
        fail_msg ("valid map refused: %s", err);
    assert_int_equal (histogram_count (h), 2);
    histogram_destroy (&h);
    msgpack_sbuffer_destroy (&buffer);
}

static void
test_unpack_truncated_and_mutated (void **state)
{
    (void) state;
    histogram_t *h = histogram_new (), *got = histogram_new ();
    s_seed = 3;
    for (int i = 0; i < 300; i++)
        histogram_record (h, s_random_value (30));
    msgpack_sbuffer buffer;
    msgpack_sbuffer_init (&buffer);
    msgpack_packer pk;
    msgpack_packer_init (&pk, &buffer, msgpack_sbuffer_write);
    histogram_pack (h, &pk);

    //  Every cut short form is refused with a reason.
    char err [256];
    for (size_t size = 0; size < buffer.size; size++) {
        err [0] = 0;
        assert_int_equal (histogram_bytes_unpack (buffer.data, size, got, err, sizeof (err)), -1);
        assert_true (strlen (err) > 0);
    }
    //  Random damage: whatever is accepted is a valid histogram that
    //  packs and unpacks to itself.
    unsigned char *data = (unsigned char *) malloc (buffer.size + 8);
    assert_non_null (data);
    size_t accepted = 0;
    for (int trial = 0; trial < 20000; trial++) {
        memcpy (data, buffer.data, buffer.size);
        size_t size = buffer.size;
        int edits = 1 + (int) (s_random () % 3);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t) (s_random () % size);
            if (s_random () % 4)
                data [at] = (unsigned char) s_random ();
            else
                data [at] ^= (unsigned char) (1u << (s_random () % 8));
        }
        if (histogram_bytes_unpack (data, size, got, err, sizeof (err)) == 0) {
            s_assert_valid (got);
            s_round_trip (got);
            accepted++;
        }
        else
            assert_true (strlen (err) > 0);
    }
    //  Some damage leaves a valid histogram (a sum changed within what
    //  its buckets allow), so the checks above did work.
    print_message ("damaged forms accepted: %zu of 20000\n", accepted);
    assert_true (accepted > 0);
    free (data);
    msgpack_sbuffer_destroy (&buffer);
    histogram_destroy (&h);
    histogram_destroy (&got);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_layout),
        cmocka_unit_test (test_error_bound),
        cmocka_unit_test (test_empty_and_single),
        cmocka_unit_test (test_percentiles_by_hand),
        cmocka_unit_test (test_percentiles_against_sorted),
        cmocka_unit_test (test_merge_is_exact),
        cmocka_unit_test (test_rebuild_from_buckets),
        cmocka_unit_test (test_pack_round_trip),
        cmocka_unit_test (test_unpack_hostile_fields),
        cmocka_unit_test (test_unpack_hostile_runs),
        cmocka_unit_test (test_unpack_hostile_summary),
        cmocka_unit_test (test_unpack_huge_and_repeated),
        cmocka_unit_test (test_unpack_truncated_and_mutated),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
