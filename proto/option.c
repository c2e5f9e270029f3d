/*  proto/option.c: one option's value as text and on the wire; see
    option.h.

    Text is what a person writes in a scenario or a config file: sizes in
    powers of 1024 with decimals ("5.2G"), durations with a unit
    ("250ms"), booleans in several spellings, enum names in any case,
    decimals ("1.5"). Every number is read exactly (no floating point),
    checked against the row's bounds, and written back the shortest way
    that reads the same.
*/
#include "option.h"
#include "clock.h"
#include "suggest.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

//  Digits after the decimal point beyond this many are read but ignored;
//  18 digits keep the fraction exact to far below a byte or a nanosecond.
#define FRACTION_DIGITS_MAX 18

//  --------------------------------------------------------------------
//  Small helpers

//  Write a printable, bounded copy of len bytes of text into buf for an
//  error message: control bytes become '?', and long values end in "...".
static void
s_quote (const char *text, size_t len, char *buf, size_t buflen)
{
    assert (buflen >= OPT_QUOTE_MAX + 4);
    size_t shown = len > OPT_QUOTE_MAX? OPT_QUOTE_MAX: len;
    size_t i;
    for (i = 0; i < shown; i++) {
        unsigned char c = (unsigned char) text [i];
        buf [i] = (c < 0x20 || c == 0x7f)? '?': (char) c;
    }
    if (shown < len) {
        memcpy (buf + i, "...", 3);
        i += 3;
    }
    buf [i] = 0;
}

//  Name of value in choices, or NULL if out of range.
const char *
opt_choice_name (const char *const *choices, int value)
{
    if (value < 0)
        return NULL;
    for (int i = 0; choices [i]; i++)
        if (i == value)
            return choices [i];
    return NULL;
}

//  Index of name (len bytes, not NUL-terminated) in choices, matched
//  without regard to case, or -1.
int
opt_choice_index (const char *const *choices, const char *name, size_t len)
{
    for (int i = 0; choices [i]; i++)
        if (strlen (choices [i]) == len && strncasecmp (choices [i], name, len) == 0)
            return i;
    return -1;
}

//  Write the choices as "a, b, c" for an error message.
static void
s_choice_list (const char *const *choices, char *buf, size_t buflen)
{
    size_t used = 0;
    buf [0] = 0;
    for (int i = 0; choices [i] && used < buflen; i++) {
        int n = snprintf (buf + used, buflen - used, "%s%s", i? ", ": "", choices [i]);
        if (n < 0)
            break;
        used += (size_t) n;
    }
}

//  --------------------------------------------------------------------
//  Numbers with a unit: "5.2G", "250ms"

//  One unit suffix and its multiplier.
typedef struct {
    const char *suffix;         //  as written after the number
    uint64_t multiplier;        //  bytes or nanoseconds per unit
} s_unit_t;

//  Size units; each may be followed by "B" or "iB" (same meaning).
static const s_unit_t s_size_units [] = {
    { "K", OPT_KIB }, { "M", OPT_MIB }, { "G", OPT_GIB }, { "T", OPT_TIB }, { "P", OPT_PIB },
    { "", 1 }, { NULL, 0 }
};

//  Duration units. A suffix must be all the rest of the text, so "ms" is
//  never read as "m" followed by junk; a bare number is seconds.
static const s_unit_t s_duration_units [] = {
    { "ns", 1 }, { "us", NS_PER_USEC }, { "ms", NS_PER_MSEC },
    { "s", NS_PER_SEC }, { "m", 60 * NS_PER_SEC }, { "h", 3600 * NS_PER_SEC },
    { "", NS_PER_SEC }, { NULL, 0 }
};

//  Result of reading a number: fine, not a number, or too large.
typedef enum { S_NUMBER_OK, S_NUMBER_JUNK, S_NUMBER_OVERFLOW } s_number_t;

//  A decimal number as written: whole part and an exact fraction.
typedef struct {
    uint64_t whole;             //  digits before the point
    uint64_t fraction;          //  digits after the point, as an integer
    uint64_t denominator;       //  10 ^ (fraction digits kept)
    bool overflow;              //  the whole part did not fit 64 bits
} s_decimal_t;

//  Read "123" or "1.25" at *text_p and move past it. Returns false if
//  there is no number there ("", "-1", ".5", "1.").
static bool
s_read_decimal (const char **text_p, s_decimal_t *number)
{
    const char *p = *text_p;
    memset (number, 0, sizeof (*number));
    number->denominator = 1;
    if (!isdigit ((unsigned char) *p))
        return false;
    for (; isdigit ((unsigned char) *p); p++) {
        unsigned digit = (unsigned) (*p - '0');
        if (number->whole > (UINT64_MAX - digit) / 10)
            number->overflow = true;
        else
            number->whole = number->whole * 10 + digit;
    }
    if (*p == '.') {
        p++;
        if (!isdigit ((unsigned char) *p))
            return false;
        for (int kept = 0; isdigit ((unsigned char) *p); p++) {
            if (kept++ < FRACTION_DIGITS_MAX) {
                number->fraction = number->fraction * 10 + (uint64_t) (*p - '0');
                number->denominator *= 10;
            }
        }
    }
    *text_p = p;
    return true;
}

//  number times multiplier, rounded half up to an integer, into *value if
//  it is no larger than limit.
static s_number_t
s_scale (const s_decimal_t *number, uint64_t multiplier, uint64_t limit, uint64_t *value)
{
    if (number->overflow)
        return S_NUMBER_OVERFLOW;
    //  The fraction is below 10^18 < 2^60 and multipliers are at most
    //  2^52, so every product fits 128 bits.
    unsigned __int128 whole = (unsigned __int128) number->whole * multiplier;
    unsigned __int128 fraction = ((unsigned __int128) number->fraction * multiplier
                                  + number->denominator / 2) / number->denominator;
    unsigned __int128 total = whole + fraction;
    if (whole > limit || total > limit)
        return S_NUMBER_OVERFLOW;
    *value = (uint64_t) total;
    return S_NUMBER_OK;
}

//  Read text as a number followed by exactly one of the units.
static s_number_t
s_parse_with_unit (const char *text, const s_unit_t *units, bool size_suffix,
                   uint64_t limit, uint64_t *value)
{
    s_decimal_t number;
    const char *p = text;
    if (!s_read_decimal (&p, &number))
        return S_NUMBER_JUNK;
    for (const s_unit_t *unit = units; unit->suffix; unit++) {
        size_t len = strlen (unit->suffix);
        const char *rest = p + len;
        if (size_suffix) {
            //  Size letters in either case, then nothing, "B" or "iB"
            //  ("4Ki" without its B is not a size).
            if (strncasecmp (p, unit->suffix, len) != 0)
                continue;
            bool binary_prefix = len > 0 && (*rest == 'i' || *rest == 'I');
            if (binary_prefix)
                rest++;
            if (*rest == 'B' || *rest == 'b')
                rest++;
            else
            if (binary_prefix)
                continue;
        }
        else
        if (strncmp (p, unit->suffix, len) != 0)
            continue;
        if (*rest == 0)
            return s_scale (&number, unit->multiplier, limit, value);
    }
    return S_NUMBER_JUNK;
}

//  Read a plain non-negative integer, all of text.
static s_number_t
s_parse_count (const char *text, uint64_t *value)
{
    s_decimal_t number;
    const char *p = text;
    if (!s_read_decimal (&p, &number) || *p || number.denominator != 1)
        return S_NUMBER_JUNK;
    if (number.overflow)
        return S_NUMBER_OVERFLOW;
    *value = number.whole;
    return S_NUMBER_OK;
}

//  Read a non-negative decimal, all of text, as millionths; digits past
//  the sixth decimal are rounded, half up.
static s_number_t
s_parse_decimal (const char *text, uint64_t *value)
{
    s_decimal_t number;
    const char *p = text;
    if (!s_read_decimal (&p, &number) || *p)
        return S_NUMBER_JUNK;
    return s_scale (&number, OPT_DECIMAL_ONE, UINT64_MAX, value);
}

//  Write bytes as the shortest text that reads back as exactly the same
//  number: "1M", "1.5G", "5.2G" (5583457485 bytes), or plain digits. On
//  a tie the larger unit wins ("1.5K" rather than "1536").
static void
s_format_size (uint64_t bytes, char *buf, size_t buflen)
{
    static const char *const letters [] = { "", "K", "M", "G", "T", "P" };
    char best [32];
    snprintf (best, sizeof (best), "%" PRIu64, bytes);
    for (int power = 1; power < 6; power++) {
        uint64_t unit = (uint64_t) 1 << (10 * power);
        uint64_t scale = 1;
        for (int digits = 0; digits <= 3; digits++, scale *= 10) {
            //  The value in this unit with this many decimals, rounded.
            unsigned __int128 scaled = ((unsigned __int128) bytes * scale + unit / 2) / unit;
            if (scaled == 0 || scaled > UINT64_MAX)
                continue;
            uint64_t q = (uint64_t) scaled;
            char candidate [48];
            if (digits == 0)
                snprintf (candidate, sizeof (candidate), "%" PRIu64 "%s", q, letters [power]);
            else
                snprintf (candidate, sizeof (candidate), "%" PRIu64 ".%0*" PRIu64 "%s",
                          q / scale, digits, q % scale, letters [power]);
            uint64_t back;
            if (strlen (candidate) <= strlen (best)
            &&  s_parse_with_unit (candidate, s_size_units, true, UINT64_MAX, &back) == S_NUMBER_OK
            &&  back == bytes)
                strcpy (best, candidate);
        }
    }
    snprintf (buf, buflen, "%s", best);
}

//  Write a duration in the largest of s, ms, us, ns that holds it exactly.
static void
s_format_duration (int64_t ns, char *buf, size_t buflen)
{
    if (ns == 0)
        snprintf (buf, buflen, "0");
    else
    if (ns % NS_PER_SEC == 0)
        snprintf (buf, buflen, "%" PRId64 "s", (int64_t) (ns / NS_PER_SEC));
    else
    if (ns != 0 && ns % NS_PER_MSEC == 0)
        snprintf (buf, buflen, "%" PRId64 "ms", (int64_t) (ns / NS_PER_MSEC));
    else
    if (ns != 0 && ns % NS_PER_USEC == 0)
        snprintf (buf, buflen, "%" PRId64 "us", (int64_t) (ns / NS_PER_USEC));
    else
        snprintf (buf, buflen, "%" PRId64 "ns", ns);
}

//  Write millionths as a decimal without trailing zeros: "1.5", "2",
//  "0.000001".
static void
s_format_decimal (uint64_t millionths, char *buf, size_t buflen)
{
    uint64_t whole = millionths / OPT_DECIMAL_ONE;
    uint64_t fraction = millionths % OPT_DECIMAL_ONE;
    if (fraction == 0) {
        snprintf (buf, buflen, "%" PRIu64, whole);
        return;
    }
    int digits = 6;
    while (fraction % 10 == 0) {
        fraction /= 10;
        digits--;
    }
    snprintf (buf, buflen, "%" PRIu64 ".%0*" PRIu64, whole, digits, fraction);
}

//  Write a numeric bound or value of opt the way a scenario would.
static void
s_format_number (const opt_def_t *opt, uint64_t value, char *buf, size_t buflen)
{
    if (opt->type == OPT_SIZE)
        s_format_size (value, buf, buflen);
    else
    if (opt->type == OPT_DECIMAL)
        s_format_decimal (value, buf, buflen);
    else
    if (opt->type == OPT_DURATION && value <= INT64_MAX)
        s_format_duration ((int64_t) value, buf, buflen);
    else
        snprintf (buf, buflen, "%" PRIu64, value);
}

//  A numeric value of opt as scenario text ("64M", "250ms").
void
opt_format_number (const opt_def_t *opt, uint64_t value, char *buf, size_t buflen)
{
    s_format_number (opt, value, buf, buflen);
}

//  Check value against the bounds of opt. On failure writes "<shown> is
//  below the minimum <min>" (or above the maximum) into err.
int
opt_check_bounds (const opt_def_t *opt, uint64_t value, const char *shown,
                  char *err, size_t errlen)
{
    char bound [48];
    if (value < opt->min) {
        s_format_number (opt, opt->min, bound, sizeof (bound));
        snprintf (err, errlen, "%s is below the minimum %s", shown, bound);
        return -1;
    }
    if (opt->max && value > opt->max) {
        s_format_number (opt, opt->max, bound, sizeof (bound));
        snprintf (err, errlen, "%s is above the maximum %s", shown, bound);
        return -1;
    }
    return 0;
}

//  --------------------------------------------------------------------
//  Text to value

//  Words that mean true and false, in either case.
static const char *const s_true_words [] = { "yes", "true", "on", "1", NULL };
static const char *const s_false_words [] = { "no", "false", "off", "0", NULL };

//  Parse text as the value of a string option into field. Strings must be
//  non-empty and fit the field with its terminating NUL.
static int
s_parse_string (const opt_def_t *opt, const char *text, char *field,
                char *err, size_t errlen)
{
    size_t len = strlen (text);
    assert (opt->capacity > 0);
    if (len > opt->capacity - 1) {
        snprintf (err, errlen, "value is %zu bytes, longer than the limit %zu",
                  len, opt->capacity - 1);
        return -1;
    }
    memcpy (field, text, len + 1);
    return 0;
}

//  Parse text as a size, count or duration and check its bounds.
static int
s_parse_number (const opt_def_t *opt, const char *text, const char *quoted,
                uint64_t *value, char *err, size_t errlen)
{
    s_number_t rc;
    const char *expected;
    if (opt->type == OPT_SIZE) {
        rc = s_parse_with_unit (text, s_size_units, true, UINT64_MAX, value);
        expected = "is not a size (use 4096, 4K, 1M, 5.2G)";
    }
    else
    if (opt->type == OPT_DURATION) {
        rc = s_parse_with_unit (text, s_duration_units, false, INT64_MAX, value);
        expected = "is not a duration (use 100us, 250ms, 1.5s, 2m, 1h)";
    }
    else
    if (opt->type == OPT_DECIMAL) {
        rc = s_parse_decimal (text, value);
        expected = "is not a decimal number (use 1, 1.5, 0.25)";
    }
    else {
        rc = s_parse_count (text, value);
        expected = "is not a whole number";
    }
    if (rc == S_NUMBER_JUNK) {
        snprintf (err, errlen, "%s %s", quoted, expected);
        return -1;
    }
    if (rc == S_NUMBER_OVERFLOW) {
        snprintf (err, errlen, "%s is too large", quoted);
        return -1;
    }
    return opt_check_bounds (opt, *value, quoted, err, errlen);
}

//  Scenario text to the value of one option, bounds checked.
int
opt_parse (const opt_def_t *opt, const char *text, void *base,
           char *err, size_t errlen)
{
    assert (opt && text && base && err);
    char *field = (char *) base + opt->offset;
    size_t len = strlen (text);
    char quoted [OPT_QUOTE_MAX + 8];
    quoted [0] = '\'';
    s_quote (text, len, quoted + 1, sizeof (quoted) - 2);
    strcat (quoted, "'");

    if (len == 0) {
        snprintf (err, errlen, "empty value");
        return -1;
    }
    //  The INI reader strips blanks around values; any left are a mistake
    //  of the caller, or a value that would not mean what it seems to.
    if (isspace ((unsigned char) text [0]) || isspace ((unsigned char) text [len - 1])) {
        snprintf (err, errlen, "%s has blanks around it", quoted);
        return -1;
    }
    switch (opt->type) {
        case OPT_STRING:
            return s_parse_string (opt, text, field, err, errlen);

        case OPT_SIZE:
        case OPT_COUNT:
        case OPT_DECIMAL: {
            uint64_t value;
            if (s_parse_number (opt, text, quoted, &value, err, errlen))
                return -1;
            *(uint64_t *) field = value;
            return 0;
        }
        case OPT_DURATION: {
            uint64_t value;
            if (s_parse_number (opt, text, quoted, &value, err, errlen))
                return -1;
            *(int64_t *) field = (int64_t) value;
            return 0;
        }
        case OPT_BOOL:
            if (opt_choice_index (s_true_words, text, len) >= 0)
                *(bool *) field = true;
            else
            if (opt_choice_index (s_false_words, text, len) >= 0)
                *(bool *) field = false;
            else {
                snprintf (err, errlen, "%s is not yes or no (or true/false, on/off, 1/0)",
                          quoted);
                return -1;
            }
            return 0;

        case OPT_ENUM: {
            int index = opt_choice_index (opt->choices, text, len);
            if (index < 0) {
                char list [256];
                s_choice_list (opt->choices, list, sizeof (list));
                const char *near = suggest_among (text, (const char *const *) opt->choices);
                snprintf (err, errlen, "%s is not one of %s%s%s%s", quoted, list,
                          near? ": did you mean ": "", near? near: "", near? "?": "");
                return -1;
            }
            *(int *) field = index;
            return 0;
        }
    }
    assert (!"unknown option type");
    return -1;
}

//  --------------------------------------------------------------------
//  Value to text

//  The value of one option back to scenario text.
int
opt_format (const opt_def_t *opt, const void *base, char *buf, size_t buflen)
{
    assert (opt && base && buf);
    const char *field = (const char *) base + opt->offset;
    char number [48];
    const char *text = number;
    size_t len;

    switch (opt->type) {
        case OPT_STRING:
            //  A field without its NUL is not a value we can write.
            len = strnlen (field, opt->capacity);
            if (len == opt->capacity)
                return -1;
            text = field;
            break;
        case OPT_SIZE:
            s_format_size (*(const uint64_t *) field, number, sizeof (number));
            break;
        case OPT_COUNT:
            snprintf (number, sizeof (number), "%" PRIu64, *(const uint64_t *) field);
            break;
        case OPT_DECIMAL:
            s_format_decimal (*(const uint64_t *) field, number, sizeof (number));
            break;
        case OPT_DURATION:
            s_format_duration (*(const int64_t *) field, number, sizeof (number));
            break;
        case OPT_BOOL:
            text = *(const bool *) field? "yes": "no";
            break;
        case OPT_ENUM:
            text = opt_choice_name (opt->choices, *(const int *) field);
            if (!text)
                return -1;
            break;
        default:
            assert (!"unknown option type");
            return -1;
    }
    len = strlen (text);
    if (len >= buflen)
        return -1;
    memcpy (buf, text, len + 1);
    return 0;
}
