/*  proto/option_wire.c: one option's value in msgpack and back; see
    option.h.

    What a peer sends is not trusted: every value is checked for its type
    and against the row's bounds, as opt_parse checks scenario text, and
    an error names the option and quotes what came, printably.
*/
#include "option.h"
#include "printable.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

//  Pack len bytes of text as a msgpack str.
static void
s_pack_string (msgpack_packer *pk, const char *text, size_t len)
{
    msgpack_pack_str (pk, len);
    msgpack_pack_str_body (pk, text, len);
}

//  The value of opt as msgpack.
void
opt_pack (const opt_def_t *opt, const void *base, msgpack_packer *pk)
{
    assert (opt && base && pk);
    const char *field = (const char *) base + opt->offset;
    switch (opt->type) {
        case OPT_STRING:
            //  Never read past the array, even if it lacks its NUL.
            s_pack_string (pk, field, strnlen (field, opt->capacity - 1));
            break;
        case OPT_SIZE:
        case OPT_COUNT:
        case OPT_DECIMAL:
            msgpack_pack_uint64 (pk, *(const uint64_t *) field);
            break;
        case OPT_DURATION:
            msgpack_pack_int64 (pk, *(const int64_t *) field);
            break;
        case OPT_BOOL:
            if (*(const bool *) field)
                msgpack_pack_true (pk);
            else
                msgpack_pack_false (pk);
            break;
        case OPT_ENUM: {
            //  Enums travel by name, so that a later version can add
            //  choices without renumbering. An invalid value goes as
            //  "?", which the decoder refuses.
            const char *name = opt_choice_name (opt->choices, *(const int *) field);
            if (!name)
                name = "?";
            s_pack_string (pk, name, strlen (name));
            break;
        }
    }
}

//  The value of opt from msgpack, checked.
int
opt_unpack (const opt_def_t *opt, const msgpack_object *value, void *base,
            char *err, size_t errlen)
{
    assert (opt && value && base && err);
    char *field = (char *) base + opt->offset;
    char shown [48];
    char reason [160];

    switch (opt->type) {
        case OPT_STRING: {
            if (value->type != MSGPACK_OBJECT_STR)
                break;
            size_t len = value->via.str.size;
            if (len > opt->capacity - 1) {
                snprintf (err, errlen, "%s: %zu bytes, longer than the limit %zu",
                          opt->name, len, opt->capacity - 1);
                return -1;
            }
            if (memchr (value->via.str.ptr, 0, len)) {
                snprintf (err, errlen, "%s: contains a NUL byte", opt->name);
                return -1;
            }
            memcpy (field, value->via.str.ptr, len);
            field [len] = 0;
            return 0;
        }
        case OPT_SIZE:
        case OPT_COUNT:
        case OPT_DECIMAL:
        case OPT_DURATION: {
            if (opt->type == OPT_DURATION && value->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
                snprintf (err, errlen, "%s: %" PRId64 "ns is negative",
                          opt->name, value->via.i64);
                return -1;
            }
            if (value->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
                break;
            uint64_t number = value->via.u64;
            if (opt->type == OPT_DURATION && number > INT64_MAX) {
                snprintf (err, errlen, "%s: %" PRIu64 "ns is too large", opt->name, number);
                return -1;
            }
            opt_format_number (opt, number, shown, sizeof (shown));
            if (opt_check_bounds (opt, number, shown, reason, sizeof (reason))) {
                snprintf (err, errlen, "%s: %s", opt->name, reason);
                return -1;
            }
            if (opt->type == OPT_DURATION)
                *(int64_t *) field = (int64_t) number;
            else
                *(uint64_t *) field = number;
            return 0;
        }
        case OPT_BOOL:
            if (value->type != MSGPACK_OBJECT_BOOLEAN)
                break;
            *(bool *) field = value->via.boolean;
            return 0;

        case OPT_ENUM: {
            if (value->type != MSGPACK_OBJECT_STR)
                break;
            int index = opt_choice_index (opt->choices, value->via.str.ptr,
                                        value->via.str.size);
            if (index < 0) {
                char quoted [OPT_QUOTE_MAX * PRINTABLE_GROWTH + 4];
                printable_copy (value->via.str.ptr, value->via.str.size, quoted, sizeof (quoted));
                snprintf (err, errlen, "%s: unknown value '%s'", opt->name, quoted);
                return -1;
            }
            *(int *) field = index;
            return 0;
        }
    }
    static const char *const wanted [] = {
        [OPT_STRING] = "a string", [OPT_SIZE] = "an unsigned integer",
        [OPT_COUNT] = "an unsigned integer", [OPT_BOOL] = "a boolean",
        [OPT_ENUM] = "a name (string)", [OPT_DURATION] = "an integer of nanoseconds",
        [OPT_DECIMAL] = "an unsigned integer of millionths"
    };
    snprintf (err, errlen, "%s: wrong type (want %s)", opt->name, wanted [opt->type]);
    return -1;
}
