/*  tests/unit/histogram_bytes.h: a histogram from the bytes of its packed
    form, the way a message decoder would meet it: checked as msg_decode
    checks a frame (so that unpacking allocates only for entries that are
    there), unpacked, then given to histogram_unpack.

    Shared by the unit test and the fuzz target of the histogram reader;
    static, because each of them is one translation unit.
*/
#ifndef IOFLEET_TEST_HISTOGRAM_BYTES_H
#define IOFLEET_TEST_HISTOGRAM_BYTES_H

#include "../../proto/histogram.h"
#include "../../proto/msg.h"

#include <stdio.h>

//  Read size bytes of data into h. Returns 0, or -1 with a reason in err
//  and h empty.
static inline int
histogram_bytes_unpack (const void *data, size_t size, histogram_t *h,
                        char *err, size_t errlen)
{
    histogram_init (h);
    if (msg_check_frame (data, size, err, errlen))
        return -1;
    msgpack_unpacked unpacked;
    msgpack_unpacked_init (&unpacked);
    size_t offset = 0;
    int rc = -1;
    if (msgpack_unpack_next (&unpacked, (const char *) data, size, &offset)
            == MSGPACK_UNPACK_SUCCESS)
        rc = histogram_unpack (&unpacked.data, h, err, errlen);
    else
        snprintf (err, errlen, "not one msgpack object");
    msgpack_unpacked_destroy (&unpacked);
    return rc;
}

#endif
