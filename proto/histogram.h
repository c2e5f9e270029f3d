/*  proto/histogram.h: a fixed-size log-linear latency histogram, shared by
    agent and coordinator.

    The agent records every request of a stream into one histogram per kind
    (read, write, fsync); the histograms travel with the stream's result
    and the coordinator merges them, exactly, per host, per class and per
    test. A merged histogram is the histogram of all the samples, so a p99
    across a fleet is a true p99, never an average of percentiles.

    A histogram_t is a plain struct of fixed size (HISTOGRAM_BYTES, about
    16 KiB) that can be embedded or allocated; nothing allocates after
    that. Recording is a handful of instructions, without lock or system
    call: one thread writes a histogram, and it is read only after that
    thread has ended (or handed it over by some other synchronization).

    Bucket layout, version HISTOGRAM_LAYOUT = 1
    -------------------------------------------
    Values are nanoseconds. Bucket indexes are part of the results file
    format and of the wire form: they never change without a new layout
    version.

      - values 0 .. 127 have one bucket each: index = value;
      - a value v >= 128 whose top bit is bit e (2^e <= v < 2^(e+1), so
        e >= 7) falls into one of 64 equal buckets of its octave, chosen
        by the 6 bits below the top bit:

            shift = e - 6
            index = 64 * shift + (v >> shift)       (v >> shift is 64..127)

        so octave e holds indexes 64 * (e - 5) to 64 * (e - 5) + 63, each
        bucket 2^(e-6) ns wide;
      - the last octave is e = 36 (2^36 ns = 68.7 s up to 2^37 ns =
        137.4 s), indexes 1984 .. 2047. Every value from 2^37 ns up is
        counted in the last bucket, 2047, whose high edge is INT64_MAX;
      - negative values (a clock that went backwards) are recorded as 0.

    A bucket is at most 1/64 of its low edge wide. Reported at its
    midpoint, a value is off by at most 1/128 of itself (0.78%) from 0 up
    to 137 s, and exact below 128 ns. Past 137 s only the count and the
    exact min, max and sum remain true.

    Examples: 1 us is index 317, 1 ms index 954, 1 s index 1591, 100 s
    index 2013.

    Besides the buckets a histogram keeps the exact count, min, max and
    sum of the values. The sum is 128 bits wide: it cannot overflow before
    the 64-bit count does, whatever the values.

    Wire form (histogram_pack / histogram_unpack), one msgpack map:

        { "layout": 1, "count": N, "min_ns": int, "max_ns": int,
          "sum_ns": [high 64 bits, low 64 bits],
          "runs": [[first index, count, count, ...], ...] }

    A run is a stretch of consecutive buckets: its first index, then the
    count of each bucket in turn. The packer starts a new run only after
    four or more empty buckets (shorter gaps go as zeros, which are
    cheaper than a new run), so an empty histogram has no runs and a full
    one has one. Every run begins after the end of the one before it.
*/
#ifndef IOFLEET_HISTOGRAM_H
#define IOFLEET_HISTOGRAM_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HISTOGRAM_LAYOUT      1     //  version of the bucket layout above
#define HISTOGRAM_SUB_BITS    6     //  bits below the top bit that choose a bucket
#define HISTOGRAM_SUB_COUNT   (1 << HISTOGRAM_SUB_BITS)    //  buckets per octave
#define HISTOGRAM_TOP_BITS    37    //  values below 2^37 ns (137.4 s) keep the error bound
#define HISTOGRAM_RANGE_NS    ((int64_t) 1 << HISTOGRAM_TOP_BITS)
#define HISTOGRAM_BUCKETS     \
    ((HISTOGRAM_TOP_BITS - HISTOGRAM_SUB_BITS + 1) * HISTOGRAM_SUB_COUNT)     //  2048

//  The largest packed form in bytes, for any histogram that passes
//  histogram_check (up to 2048 buckets of 9-byte counts in one run):
//
//      map header 1, "layout" 8, "count" 6 + 9, "min_ns" and "max_ns"
//      7 + 9 each, "sum_ns" 7 + 1 + 9 + 9, "runs" 5 + 3,
//      runs: 6 for the one run's header and first index, 9 per bucket
//
//  (a second run would save at least four buckets' 36 bytes to spend at
//  most 6). That is 18,528 bytes: three, one per kind, fit in one
//  MSG_FRAME_MAX frame of 65,536 bytes and leave 9,952 for the rest of
//  the message. A typical latency
//  distribution packs into a few hundred bytes.
#define HISTOGRAM_PACKED_MAX  (1 + 8 + 15 + 16 + 16 + 26 + 8 + 6 + 9 * HISTOGRAM_BUCKETS)

//  Sum of values: exact for any count of any int64_t values.
typedef unsigned __int128 histogram_sum_t;

typedef struct {
    uint64_t count;                         //  values recorded
    int64_t min_ns;                         //  smallest value, 0 while empty
    int64_t max_ns;                         //  largest value, 0 while empty
    histogram_sum_t sum_ns;                 //  sum of the values, exact
    uint64_t counts [HISTOGRAM_BUCKETS];    //  values per bucket, by layout index
} histogram_t;

#define HISTOGRAM_BYTES sizeof (histogram_t)

//  One non-empty bucket, as histogram_next reports it. The bucket holds
//  the values v with low_ns <= v <= high_ns (both edges inclusive).
typedef struct {
    size_t index;                           //  layout index, 0 .. HISTOGRAM_BUCKETS - 1
    int64_t low_ns;                         //  smallest value of the bucket
    int64_t high_ns;                        //  largest value of the bucket
    uint64_t count;                         //  values counted in it
} histogram_bucket_t;

//  The layout index of a value (see the layout above).
static inline size_t
histogram_index (int64_t value_ns)
{
    if (value_ns <= 0)
        return 0;
    if (value_ns >= HISTOGRAM_RANGE_NS)
        return HISTOGRAM_BUCKETS - 1;
    //  Or-ing in the bits below 128 puts the top bit at 6 or higher, so
    //  values under 128 get shift 0 and keep a bucket each.
    uint64_t value = (uint64_t) value_ns;
    int top = 63 - __builtin_clzll (value | (2 * HISTOGRAM_SUB_COUNT - 1));
    int shift = top - HISTOGRAM_SUB_BITS;
    return ((size_t) shift << HISTOGRAM_SUB_BITS) + (size_t) (value >> shift);
}

//  Count one value: the hot path of every stream. One writer at a time.
static inline void
histogram_record (histogram_t *self, int64_t value_ns)
{
    if (value_ns < 0)
        value_ns = 0;
    self->counts [histogram_index (value_ns)]++;
    self->sum_ns += (uint64_t) value_ns;
    if (value_ns < self->min_ns || self->count == 0)
        self->min_ns = value_ns;
    if (value_ns > self->max_ns)
        self->max_ns = value_ns;
    self->count++;
}

//  Make an embedded histogram empty (all zeros is empty, so a zeroed
//  struct is a valid empty histogram too).
void histogram_init (histogram_t *self);

//  A new empty histogram on the heap, or NULL when out of memory; and
//  its destructor, safe on NULL, which NULLs the caller's pointer.
histogram_t *histogram_new (void);
void histogram_destroy (histogram_t **self_p);

//  Smallest and largest value of bucket index (inclusive edges). The
//  last bucket's high edge is INT64_MAX. index must be in range.
int64_t histogram_bucket_low (size_t index);
int64_t histogram_bucket_high (size_t index);

//  Add every value of other into self: afterwards self is, bucket for
//  bucket, the histogram of both sets of values. Returns 0, or -1 and
//  leaves self unchanged if the total count would pass 2^64 - 1.
int histogram_merge (histogram_t *self, const histogram_t *other);

//  Exact figures. Every query of an empty histogram returns 0: check
//  histogram_count first where "no value" must show as such.
uint64_t histogram_count (const histogram_t *self);
int64_t histogram_min (const histogram_t *self);
int64_t histogram_max (const histogram_t *self);
histogram_sum_t histogram_sum (const histogram_t *self);

//  Mean in nanoseconds, from the exact sum (rounded once, to a double).
double histogram_mean (const histogram_t *self);

//  The value at percentile p (0 .. 100; outside that range, clamped). The
//  values sorted ascending, the answer is the one of rank
//  r = ceil (p / 100 * count), at least 1: rank 1 is the exact min, rank
//  count the exact max, any other rank the midpoint of the bucket that
//  holds it, clamped to [min, max], within 0.78% of the true value up
//  to 137 s. p is taken with a tolerance of one part in 10^12, so that
//  99.9 of 1000 values is rank 999 although the double 99.9 is a hair
//  above it. So p50 of 1, 2, 3, 4 is 2, and p99 of 1000 values is the
//  990th.
int64_t histogram_percentile (const histogram_t *self, double p);

//  Walk the non-empty buckets in increasing index: start with
//  *cursor = 0; each call fills bucket and returns true, or returns false
//  when there are no more.
//
//      size_t cursor = 0;
//      histogram_bucket_t bucket;
//      while (histogram_next (h, &cursor, &bucket))
//          ... bucket.index, bucket.low_ns, bucket.high_ns, bucket.count
bool histogram_next (const histogram_t *self, size_t *cursor, histogram_bucket_t *bucket);

//  Rebuilding a histogram from a results file: set the count of each
//  bucket read back by index, then the summary, then histogram_check,
//  which must pass before the histogram is used. histogram_set_bucket
//  returns -1 for an index out of range (nothing is changed).
int histogram_set_bucket (histogram_t *self, size_t index, uint64_t count);
void histogram_set_summary (histogram_t *self, uint64_t count, int64_t min_ns,
                            int64_t max_ns, histogram_sum_t sum_ns);

//  Check that self is a histogram some set of values could have made:
//  the bucket counts add up to count without overflow; an empty one has
//  min, max and sum 0; otherwise 0 <= min <= max, min lies in the first
//  non-empty bucket and max in the last, and sum is within what the
//  bucket counts, min and max allow. Returns 0, or -1 with a reason in
//  err ("bucket counts add up to 9, count is 10").
int histogram_check (const histogram_t *self, char *err, size_t errlen);

//  True if a and b hold the same values: same buckets and summary.
bool histogram_equal (const histogram_t *a, const histogram_t *b);

//  Append the wire form of self to pk: one map of at most
//  HISTOGRAM_PACKED_MAX bytes for a histogram that passes histogram_check.
void histogram_pack (const histogram_t *self, msgpack_packer *pk);

//  Read the wire form from a msgpack object into self, trusting nothing:
//  every type, every index in range, runs in increasing order, counts
//  adding up to count, then histogram_check. Unknown keys are ignored;
//  a known key given twice is refused. Returns 0, or -1 with a reason in
//  err ("runs[2]: first index 40 is not after index 52, where the run
//  before ends") and self empty.
int histogram_unpack (const msgpack_object *object, histogram_t *self,
                      char *err, size_t errlen);

#endif
