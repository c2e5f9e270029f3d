/*  tests/unit/proto_msg_seeds.c: the frames the message fuzzer starts
    from (tests/fuzz/msg.seeds) decode with this protocol version.

    A seed that no longer decodes still runs in the fuzzer, but it only
    tests the first check of the decoder; this keeps the corpus honest
    when the protocol changes. Runs from the top of the checkout, as
    tests/run.sh does.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../proto/msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEEDS_PATH "tests/fuzz/msg.seeds"

//  Turn the \xNN escapes of text into bytes in out; returns their count,
//  or -1 on a malformed escape.
static long
s_unescape (const char *text, unsigned char *out, size_t outlen)
{
    size_t used = 0;
    while (*text && used < outlen) {
        if (text [0] == '\\' && text [1] == 'x') {
            char hex [3] = { text [2], text [3], 0 };
            char *end;
            unsigned long value = strtoul (hex, &end, 16);
            if (end != hex + 2)
                return -1;
            out [used++] = (unsigned char) value;
            text += 4;
        }
        else
            out [used++] = (unsigned char) *text++;
    }
    return (long) used;
}

static void
test_every_seed_decodes (void **state)
{
    (void) state;
    FILE *file = fopen (SEEDS_PATH, "r");
    assert_non_null (file);
    char line [8192];
    int seeds = 0;
    while (fgets (line, sizeof line, file)) {
        line [strcspn (line, "\n")] = 0;
        if (line [0] == 0 || line [0] == '#')
            continue;
        char *space = strchr (line, ' ');
        assert_non_null (space);
        *space = 0;
        unsigned char frame [4096];
        long size = s_unescape (space + 1, frame, sizeof frame);
        assert_true (size > 0);
        static msg_t msg;
        char err [MSG_TEXT_MAX + 1] = "";
        int rc = msg_decode (frame, (size_t) size, &msg, err, sizeof err);
        if (rc != MSG_OK)
            fail_msg ("seed %s does not decode: %s", line, err);
        seeds++;
    }
    fclose (file);
    assert_true (seeds >= 5);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_every_seed_decodes),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
