/*  tests/fuzz/fuzz_histogram.c: libFuzzer target for histogram_unpack.

    Every input is the bytes of one message field as they would arrive:
    checked as msg_decode checks a frame, unpacked, then read as a
    histogram. The reader must accept or refuse with a reason and never
    crash, leak or read out of bounds. A histogram it accepts must pass
    histogram_check, answer every query within its min and max, and pack
    into at most HISTOGRAM_PACKED_MAX bytes that read back to the same.

    An input that begins with 0xc1, a byte msgpack never uses, is instead
    a list of values (8 bytes each, host order) to record: its histogram
    must pass the check and survive the round trip, and the two halves
    merged must equal the whole. So the writer meets every shape of
    histogram too, not only those the reader lets through.
*/
#include "../../proto/histogram.h"
#include "../unit/histogram_bytes.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

//  Record the values in data into h, and those of each half into
//  first and second.
static void
s_record (const uint8_t *data, size_t size, histogram_t *h, histogram_t *first,
          histogram_t *second)
{
    histogram_init (h);
    histogram_init (first);
    histogram_init (second);
    size_t values = size / sizeof (int64_t);
    for (size_t i = 0; i < values; i++) {
        int64_t value;
        memcpy (&value, data + i * sizeof (int64_t), sizeof (value));
        histogram_record (h, value);
        histogram_record (i < values / 2? first: second, value);
    }
}

//  Read one input, or record it; check and re-pack the histogram.
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    static histogram_t h, again, first, second;
    char err [256];
    err [0] = 0;
    if (size > 0 && data [0] == 0xc1) {
        s_record (data + 1, size - 1, &h, &first, &second);
        assert (histogram_merge (&first, &second) == 0);
        assert (histogram_equal (&first, &h));
    }
    else
    if (histogram_bytes_unpack (size? data: NULL, size, &h, err, sizeof (err)))
        return 0;
    assert (histogram_check (&h, err, sizeof (err)) == 0);
    for (double p = 0; p <= 100; p += 12.5) {
        int64_t value = histogram_percentile (&h, p);
        assert (value >= histogram_min (&h) && value <= histogram_max (&h));
    }
    msgpack_sbuffer buffer;
    msgpack_sbuffer_init (&buffer);
    msgpack_packer pk;
    msgpack_packer_init (&pk, &buffer, msgpack_sbuffer_write);
    histogram_pack (&h, &pk);
    assert (buffer.size <= HISTOGRAM_PACKED_MAX);
    assert (histogram_bytes_unpack (buffer.data, buffer.size, &again, err, sizeof (err)) == 0);
    assert (histogram_equal (&h, &again));
    msgpack_sbuffer_destroy (&buffer);
    return 0;
}
