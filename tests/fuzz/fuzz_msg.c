/*  tests/fuzz/fuzz_msg.c: libFuzzer target for the message decoder.

    Every input is a frame as it would arrive from the network. The
    decoder must answer MSG_OK, MSG_EMALFORMED or MSG_EVERSION and never
    crash, leak or read out of bounds; a frame it accepts must encode
    again and decode to the same type (the codec is its own inverse).
*/
#include "../../proto/msg.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

//  Decode one input; re-encode what decodes.
int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    static msg_t msg, again;
    char err [MSG_TEXT_MAX + 1];
    int rc = msg_decode (size? data: NULL, size, &msg, err, sizeof (err));
    assert (rc == MSG_OK || rc == MSG_EMALFORMED || rc == MSG_EVERSION);
    if (rc != MSG_OK) {
        assert (memchr (err, '\0', sizeof (err)));
        return 0;
    }
    char *encoded = NULL;
    size_t encoded_size = 0;
    if (msg_encode (&msg, &encoded, &encoded_size) == 0) {
        assert (encoded_size <= MSG_FRAME_MAX);
        rc = msg_decode (encoded, encoded_size, &again, err, sizeof (err));
        assert (rc == MSG_OK);
        assert (again.type == msg.type);
        free (encoded);
    }
    return 0;
}
