/*  proto/histogram.c: bucket edges, merging, queries, the consistency
    check and the wire codec of the latency histogram; see histogram.h for
    the layout and the wire form. Recording and the value-to-index
    arithmetic are inline in the header, because they are the hot path.

    Everything that rebuilds a histogram from outside (histogram_unpack
    here, the results file reader in the coordinator) fills the buckets
    and the summary, then passes histogram_check: one set of rules decides
    what a histogram may look like, whatever it came from.
*/
#include "histogram.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Empty buckets a packed run bridges with zeros rather than starting a
//  new run: a zero is one byte, a new run two to six.
#define S_GAP_MAX 3

//  Relative tolerance on a percentile's rank (see histogram_percentile).
#define S_RANK_TOLERANCE 1e-12L

_Static_assert (HISTOGRAM_BUCKETS == 2048, "the layout has 2048 buckets");
//  65536 is MSG_FRAME_MAX, which histograms need not know otherwise.
_Static_assert (HISTOGRAM_PACKED_MAX < 65536 / 3, "three packed histograms fit in a frame");

//  --------------------------------------------------------------------
//  Life cycle and layout

//  Empty an embedded histogram.
void
histogram_init (histogram_t *self)
{
    assert (self);
    memset (self, 0, sizeof (*self));
}

//  An empty histogram on the heap.
histogram_t *
histogram_new (void)
{
    histogram_t *self = (histogram_t *) malloc (sizeof (histogram_t));
    if (self)
        histogram_init (self);
    return self;
}

//  Free a histogram from histogram_new and NULL the caller's pointer.
void
histogram_destroy (histogram_t **self_p)
{
    assert (self_p);
    free (*self_p);
    *self_p = NULL;
}

//  Smallest value of a bucket: the inverse of histogram_index.
int64_t
histogram_bucket_low (size_t index)
{
    assert (index < HISTOGRAM_BUCKETS);
    if (index < 2 * HISTOGRAM_SUB_COUNT)
        return (int64_t) index;
    size_t shift = (index >> HISTOGRAM_SUB_BITS) - 1;
    return (int64_t) ((index - (shift << HISTOGRAM_SUB_BITS)) << shift);
}

//  Largest value of a bucket: one below the next bucket's low edge.
int64_t
histogram_bucket_high (size_t index)
{
    assert (index < HISTOGRAM_BUCKETS);
    if (index == HISTOGRAM_BUCKETS - 1)
        return INT64_MAX;
    return histogram_bucket_low (index + 1) - 1;
}

//  --------------------------------------------------------------------
//  Merging and queries

//  Add other's values into self.
int
histogram_merge (histogram_t *self, const histogram_t *other)
{
    assert (self && other);
    if (other->count == 0)
        return 0;
    if (other->count > UINT64_MAX - self->count)
        return -1;
    //  No bucket can overflow when the total does not. A plain loop over
    //  every bucket: the compiler vectorizes it, and it needs no trust in
    //  min and max to find where the counts are.
    for (size_t i = 0; i < HISTOGRAM_BUCKETS; i++)
        self->counts [i] += other->counts [i];
    if (self->count == 0 || other->min_ns < self->min_ns)
        self->min_ns = other->min_ns;
    if (other->max_ns > self->max_ns)
        self->max_ns = other->max_ns;
    self->sum_ns += other->sum_ns;
    self->count += other->count;
    return 0;
}

//  Values recorded.
uint64_t
histogram_count (const histogram_t *self)
{
    return self->count;
}

//  Smallest value recorded, 0 if none.
int64_t
histogram_min (const histogram_t *self)
{
    return self->min_ns;
}

//  Largest value recorded, 0 if none.
int64_t
histogram_max (const histogram_t *self)
{
    return self->max_ns;
}

//  Exact sum of the values recorded.
histogram_sum_t
histogram_sum (const histogram_t *self)
{
    return self->sum_ns;
}

//  Mean value, 0 if none.
double
histogram_mean (const histogram_t *self)
{
    if (self->count == 0)
        return 0;
    return (double) ((long double) self->sum_ns / (long double) self->count);
}

//  Rank (1 .. count) of the value at percentile p of count values.
static uint64_t
s_rank (uint64_t count, double p)
{
    if (!(p > 0))               //  also NaN
        p = 0;
    if (p > 100)
        p = 100;
    //  The long double holds any count exactly. A p that means a whole
    //  rank (99.9 of 1000) comes out a few parts in 10^17 above it, as
    //  the double nearest 99.9 is above 99.9: shave a relative 10^-12
    //  off before rounding up, so that such a rank stays whole.
    long double exact = (long double) p * (long double) count / 100;
    long double rank = ceill (exact - exact * S_RANK_TOLERANCE);
    if (rank < 1)
        return 1;
    if (rank >= (long double) count)
        return count;
    return (uint64_t) rank;
}

//  Value at percentile p: see histogram.h for the definition.
int64_t
histogram_percentile (const histogram_t *self, double p)
{
    assert (self);
    if (self->count == 0)
        return 0;
    uint64_t rank = s_rank (self->count, p);
    if (rank == 1)
        return self->min_ns;
    if (rank == self->count)
        return self->max_ns;

    uint64_t seen = 0;
    for (size_t i = 0; i < HISTOGRAM_BUCKETS; i++) {
        seen += self->counts [i];
        if (seen >= rank) {
            int64_t low = histogram_bucket_low (i);
            int64_t value = low + (histogram_bucket_high (i) - low) / 2;
            if (value < self->min_ns)
                value = self->min_ns;
            if (value > self->max_ns)
                value = self->max_ns;
            return value;
        }
    }
    //  Only a histogram that fails histogram_check gets here.
    return self->max_ns;
}

//  Next non-empty bucket at or after *cursor.
bool
histogram_next (const histogram_t *self, size_t *cursor, histogram_bucket_t *bucket)
{
    assert (self && cursor && bucket);
    for (size_t i = *cursor; i < HISTOGRAM_BUCKETS; i++) {
        if (self->counts [i]) {
            bucket->index = i;
            bucket->low_ns = histogram_bucket_low (i);
            bucket->high_ns = histogram_bucket_high (i);
            bucket->count = self->counts [i];
            *cursor = i + 1;
            return true;
        }
    }
    *cursor = HISTOGRAM_BUCKETS;
    return false;
}

//  True if both hold the same values.
bool
histogram_equal (const histogram_t *a, const histogram_t *b)
{
    assert (a && b);
    return a->count == b->count
        && a->min_ns == b->min_ns
        && a->max_ns == b->max_ns
        && a->sum_ns == b->sum_ns
        && memcmp (a->counts, b->counts, sizeof (a->counts)) == 0;
}

//  --------------------------------------------------------------------
//  Rebuilding and checking

//  Set one bucket's count, read back by index.
int
histogram_set_bucket (histogram_t *self, size_t index, uint64_t count)
{
    assert (self);
    if (index >= HISTOGRAM_BUCKETS)
        return -1;
    self->counts [index] = count;
    return 0;
}

//  Set the exact figures beside the buckets.
void
histogram_set_summary (histogram_t *self, uint64_t count, int64_t min_ns,
                       int64_t max_ns, histogram_sum_t sum_ns)
{
    assert (self);
    self->count = count;
    self->min_ns = min_ns;
    self->max_ns = max_ns;
    self->sum_ns = sum_ns;
}

//  Write a reason into err; returns -1 for the caller to return.
static int
s_error (char *err, size_t errlen, const char *format, ...)
    __attribute__ ((format (printf, 3, 4)));

static int
s_error (char *err, size_t errlen, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    vsnprintf (err, errlen, format, args);
    va_end (args);
    return -1;
}

//  The sums of values the buckets from first to last allow, given that
//  every value is within [min, max] and that one value is min and
//  another max (count >= 2). No product or total can pass 2^127.
static void
s_sum_bounds (const histogram_t *self, size_t first, size_t last,
              histogram_sum_t *lowest, histogram_sum_t *highest)
{
    histogram_sum_t low_sum = 0, high_sum = 0;
    int64_t first_high = 0, last_low = 0;
    for (size_t i = first; i <= last; i++) {
        if (self->counts [i] == 0)
            continue;           //  first and last are not empty
        int64_t low = histogram_bucket_low (i);
        int64_t high = histogram_bucket_high (i);
        if (low < self->min_ns)
            low = self->min_ns;
        if (high > self->max_ns)
            high = self->max_ns;
        if (i == first)
            first_high = high;
        if (i == last)
            last_low = low;
        low_sum += (histogram_sum_t) self->counts [i] * (uint64_t) low;
        high_sum += (histogram_sum_t) self->counts [i] * (uint64_t) high;
    }
    *lowest = low_sum + (uint64_t) (self->max_ns - last_low);
    *highest = high_sum - (uint64_t) (first_high - self->min_ns);
}

//  Could some set of values have made this histogram?
int
histogram_check (const histogram_t *self, char *err, size_t errlen)
{
    assert (self && err);
    uint64_t total = 0;
    size_t first = 0, last = 0;
    for (size_t i = 0; i < HISTOGRAM_BUCKETS; i++) {
        uint64_t count = self->counts [i];
        if (count == 0)
            continue;
        if (count > UINT64_MAX - total)
            return s_error (err, errlen, "bucket counts add up to more than 2^64 - 1");
        if (total == 0)
            first = i;
        last = i;
        total += count;
    }
    if (total != self->count)
        return s_error (err, errlen, "bucket counts add up to %" PRIu64 ", count is %" PRIu64,
                        total, self->count);
    if (self->count == 0) {
        if (self->min_ns || self->max_ns || self->sum_ns)
            return s_error (err, errlen, "no values, but min_ns, max_ns or sum_ns is not 0");
        return 0;
    }
    if (self->min_ns < 0)
        return s_error (err, errlen, "min_ns %" PRId64 " is negative", self->min_ns);
    if (self->min_ns > self->max_ns)
        return s_error (err, errlen, "min_ns %" PRId64 " is above max_ns %" PRId64,
                        self->min_ns, self->max_ns);
    if (histogram_index (self->min_ns) != first)
        return s_error (err, errlen, "min_ns %" PRId64 " is not in bucket %zu, the first "
                        "with a count (%" PRId64 "..%" PRId64 ")", self->min_ns, first,
                        histogram_bucket_low (first), histogram_bucket_high (first));
    if (histogram_index (self->max_ns) != last)
        return s_error (err, errlen, "max_ns %" PRId64 " is not in bucket %zu, the last "
                        "with a count (%" PRId64 "..%" PRId64 ")", self->max_ns, last,
                        histogram_bucket_low (last), histogram_bucket_high (last));
    if (self->count == 1) {
        if (self->min_ns != self->max_ns)
            return s_error (err, errlen, "one value, but min_ns %" PRId64 " and max_ns %"
                            PRId64 " differ", self->min_ns, self->max_ns);
        if (self->sum_ns != (uint64_t) self->min_ns)
            return s_error (err, errlen, "one value, but sum_ns %.6Lg is not min_ns %" PRId64,
                            (long double) self->sum_ns, self->min_ns);
        return 0;
    }
    histogram_sum_t lowest, highest;
    s_sum_bounds (self, first, last, &lowest, &highest);
    if (self->sum_ns < lowest || self->sum_ns > highest)
        return s_error (err, errlen, "sum_ns %.6Lg is outside %.6Lg..%.6Lg, what the "
                        "buckets, min_ns and max_ns allow", (long double) self->sum_ns,
                        (long double) lowest, (long double) highest);
    return 0;
}

//  --------------------------------------------------------------------
//  Wire codec

//  Keys of the wire form, in the order they are packed.
typedef enum {
    S_KEY_LAYOUT, S_KEY_COUNT, S_KEY_MIN, S_KEY_MAX, S_KEY_SUM, S_KEY_RUNS, S_KEYS
} s_key_t;

static const char *const s_key_names [S_KEYS] = {
    "layout", "count", "min_ns", "max_ns", "sum_ns", "runs"
};

//  Pack a key of the map.
static void
s_pack_key (msgpack_packer *pk, s_key_t key)
{
    msgpack_pack_str_with_body (pk, s_key_names [key], strlen (s_key_names [key]));
}

//  Find the run that begins at the first non-empty bucket at or after
//  from: set *first and return one past its last non-empty bucket, or
//  return 0 if no bucket from there on has a count.
static size_t
s_run (const histogram_t *self, size_t from, size_t *first)
{
    while (from < HISTOGRAM_BUCKETS && self->counts [from] == 0)
        from++;
    if (from == HISTOGRAM_BUCKETS)
        return 0;
    *first = from;
    size_t end = from + 1;
    for (size_t i = end; i < HISTOGRAM_BUCKETS && i - end <= S_GAP_MAX; i++)
        if (self->counts [i])
            end = i + 1;
    return end;
}

//  The wire form of self.
void
histogram_pack (const histogram_t *self, msgpack_packer *pk)
{
    assert (self && pk);
    msgpack_pack_map (pk, S_KEYS);
    s_pack_key (pk, S_KEY_LAYOUT);
    msgpack_pack_uint64 (pk, HISTOGRAM_LAYOUT);
    s_pack_key (pk, S_KEY_COUNT);
    msgpack_pack_uint64 (pk, self->count);
    s_pack_key (pk, S_KEY_MIN);
    msgpack_pack_int64 (pk, self->min_ns);
    s_pack_key (pk, S_KEY_MAX);
    msgpack_pack_int64 (pk, self->max_ns);
    s_pack_key (pk, S_KEY_SUM);
    msgpack_pack_array (pk, 2);
    msgpack_pack_uint64 (pk, (uint64_t) (self->sum_ns >> 64));
    msgpack_pack_uint64 (pk, (uint64_t) self->sum_ns);

    //  Count the runs first: the array header comes before them.
    size_t runs = 0, first, end;
    for (end = 0; (end = s_run (self, end, &first)) != 0; )
        runs++;
    s_pack_key (pk, S_KEY_RUNS);
    msgpack_pack_array (pk, runs);
    for (end = 0; (end = s_run (self, end, &first)) != 0; ) {
        msgpack_pack_array (pk, 1 + end - first);
        msgpack_pack_uint64 (pk, first);
        for (size_t i = first; i < end; i++)
            msgpack_pack_uint64 (pk, self->counts [i]);
    }
}

//  Read a non-negative integer no larger than max, or say why not.
//  name says where the value was found, for the reason.
static int
s_unsigned (const msgpack_object *object, const char *name, uint64_t max,
            uint64_t *value, char *err, size_t errlen)
{
    if (object->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return s_error (err, errlen, "%s: %" PRId64 " is negative", name, object->via.i64);
    if (object->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
        return s_error (err, errlen, "%s: wrong type (want an unsigned integer)", name);
    if (object->via.u64 > max)
        return s_error (err, errlen, "%s: %" PRIu64 " is too large", name, object->via.u64);
    *value = object->via.u64;
    return 0;
}

//  Read element j of run r, an index or a count. The name for the reason
//  is written only on failure: this runs for every bucket.
static int
s_element (const msgpack_object *run, uint32_t r, uint32_t j, uint64_t *value,
           char *err, size_t errlen)
{
    const msgpack_object *element = &run->via.array.ptr [j];
    if (element->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
        *value = element->via.u64;
        return 0;
    }
    char name [48];
    snprintf (name, sizeof (name), "runs[%" PRIu32 "][%" PRIu32 "]", r, j);
    return s_unsigned (element, name, UINT64_MAX, value, err, errlen);
}

//  Read the runs array into the buckets of self. Each run must begin
//  after the one before it ends and stay inside the layout, and the
//  counts must add up without overflow.
static int
s_unpack_runs (const msgpack_object *runs, histogram_t *self, char *err, size_t errlen)
{
    if (runs->type != MSGPACK_OBJECT_ARRAY)
        return s_error (err, errlen, "runs: wrong type (want an array)");
    if (runs->via.array.size > HISTOGRAM_BUCKETS)
        return s_error (err, errlen, "runs: %" PRIu32 " runs, more than the %d buckets",
                        runs->via.array.size, HISTOGRAM_BUCKETS);
    size_t next = 0;            //  first index the next run may begin at
    uint64_t total = 0;
    for (uint32_t r = 0; r < runs->via.array.size; r++) {
        const msgpack_object *run = &runs->via.array.ptr [r];
        if (run->type != MSGPACK_OBJECT_ARRAY)
            return s_error (err, errlen, "runs[%" PRIu32 "]: wrong type (want an array)", r);
        uint32_t size = run->via.array.size;
        if (size < 2)
            return s_error (err, errlen, "runs[%" PRIu32 "]: %" PRIu32 " elements, want a "
                            "first index and at least one count", r, size);
        uint64_t first;
        if (s_element (run, r, 0, &first, err, errlen))
            return -1;
        if (first >= HISTOGRAM_BUCKETS)
            return s_error (err, errlen, "runs[%" PRIu32 "]: first index %" PRIu64 " is out "
                            "of range (0..%d)", r, first, HISTOGRAM_BUCKETS - 1);
        if (first < next)
            return s_error (err, errlen, "runs[%" PRIu32 "]: first index %" PRIu64 " is not "
                            "after index %zu, where the run before ends", r, first, next - 1);
        if (size - 1 > HISTOGRAM_BUCKETS - first)
            return s_error (err, errlen, "runs[%" PRIu32 "]: %" PRIu32 " counts from index %"
                            PRIu64 " go past the last bucket %d", r, size - 1, first,
                            HISTOGRAM_BUCKETS - 1);
        for (uint32_t j = 1; j < size; j++) {
            uint64_t count = 0;         //  set by s_element; gcc -O2 with _FORTIFY_SOURCE cannot tell
            if (s_element (run, r, j, &count, err, errlen))
                return -1;
            if (count > UINT64_MAX - total)
                return s_error (err, errlen, "runs[%" PRIu32 "][%" PRIu32 "]: counts add up "
                                "to more than 2^64 - 1", r, j);
            total += count;
            self->counts [first + j - 1] = count;
        }
        next = first + size - 1;
    }
    return 0;
}

//  Read the summary fields and the runs, every one checked.
static int
s_unpack_fields (const msgpack_object *values [S_KEYS], histogram_t *self,
                 char *err, size_t errlen)
{
    uint64_t layout, count, min_ns, max_ns, sum_high, sum_low;
    if (s_unsigned (values [S_KEY_LAYOUT], "layout", UINT64_MAX, &layout, err, errlen))
        return -1;
    if (layout != HISTOGRAM_LAYOUT)
        return s_error (err, errlen, "layout %" PRIu64 ", this side knows layout %d",
                        layout, HISTOGRAM_LAYOUT);
    if (s_unsigned (values [S_KEY_COUNT], "count", UINT64_MAX, &count, err, errlen)
    ||  s_unsigned (values [S_KEY_MIN], "min_ns", INT64_MAX, &min_ns, err, errlen)
    ||  s_unsigned (values [S_KEY_MAX], "max_ns", INT64_MAX, &max_ns, err, errlen))
        return -1;
    const msgpack_object *sum = values [S_KEY_SUM];
    if (sum->type != MSGPACK_OBJECT_ARRAY || sum->via.array.size != 2)
        return s_error (err, errlen, "sum_ns: wrong type (want an array of two unsigned "
                        "integers, the high and low 64 bits)");
    if (s_unsigned (&sum->via.array.ptr [0], "sum_ns[0]", UINT64_MAX, &sum_high, err, errlen)
    ||  s_unsigned (&sum->via.array.ptr [1], "sum_ns[1]", UINT64_MAX, &sum_low, err, errlen))
        return -1;
    if (s_unpack_runs (values [S_KEY_RUNS], self, err, errlen))
        return -1;
    histogram_set_summary (self, count, (int64_t) min_ns, (int64_t) max_ns,
                           ((histogram_sum_t) sum_high << 64) | sum_low);
    return histogram_check (self, err, errlen);
}

//  A histogram from its wire form, or the reason it is not one.
int
histogram_unpack (const msgpack_object *object, histogram_t *self, char *err, size_t errlen)
{
    assert (self && err && errlen > 0);
    histogram_init (self);
    if (!object || object->type != MSGPACK_OBJECT_MAP)
        return s_error (err, errlen, "histogram is not a map");

    //  One pass over the map: each known key once, unknown keys ignored.
    const msgpack_object *values [S_KEYS] = { NULL };
    const msgpack_object_map *map = &object->via.map;
    for (uint32_t i = 0; i < map->size; i++) {
        const msgpack_object *key = &map->ptr [i].key;
        if (key->type != MSGPACK_OBJECT_STR)
            continue;
        for (int k = 0; k < S_KEYS; k++) {
            if (strlen (s_key_names [k]) == key->via.str.size
            &&  memcmp (s_key_names [k], key->via.str.ptr, key->via.str.size) == 0) {
                if (values [k])
                    return s_error (err, errlen, "%s: given twice", s_key_names [k]);
                values [k] = &map->ptr [i].val;
            }
        }
    }
    for (int k = 0; k < S_KEYS; k++)
        if (!values [k])
            return s_error (err, errlen, "%s: missing", s_key_names [k]);

    if (s_unpack_fields (values, self, err, errlen)) {
        histogram_init (self);      //  nothing half-read escapes
        return -1;
    }
    return 0;
}
