/*  proto/jobspec.c: the job option table, option text parsing and
    formatting, and the jobspec wire codec; see jobspec.h.

    Every job option is one row of jobspec_options[]. The scenario parser
    turns text into values with opt_parse, the record of the scenario as
    run turns them back with opt_format, and the PREPARE message carries
    the OPT_WIRE rows as one msgpack map (jobspec_encode / jobspec_decode).
*/
#include "jobspec.h"
#include "clock.h"
#include "workload.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define KIB ((uint64_t) 1 << 10)
#define MIB ((uint64_t) 1 << 20)
#define GIB ((uint64_t) 1 << 30)
#define TIB ((uint64_t) 1 << 40)
#define PIB ((uint64_t) 1 << 50)

//  Digits after the decimal point beyond this many are read but ignored;
//  18 digits keep the fraction exact to far below a byte or a nanosecond.
#define FRACTION_DIGITS_MAX 18

//  How much of a bad value an error message quotes.
#define QUOTE_MAX 64

//  The enum names, indexed by value. Wire and scenario use the same names.
static const char *const s_fsync_names [] = { "none", "end", "close", NULL };
static const char *const s_pattern_names [] = { "zero", "random", NULL };
static const char *const s_class_names [] = { "auto", "disk", "network", NULL };

_Static_assert (FSYNC_NONE == 0 && FSYNC_END == 1 && FSYNC_CLOSE == 2, "s_fsync_names order");
_Static_assert (PATTERN_ZERO == 0 && PATTERN_RANDOM == 1, "s_pattern_names order");
_Static_assert (CLASS_AUTO == 0 && CLASS_DISK == 1 && CLASS_NETWORK == 2, "s_class_names order");

//  Where a field lives in jobspec_t, and the size of a string field.
#define AT(f)       offsetof (jobspec_t, f)
#define CAPACITY(f) sizeof (((jobspec_t *) 0)->f)

//  The table. `name` comes from the [job NAME] header (OPT_HEADER): the
//  scenario parser does not take it as a key, but it travels on the wire
//  with `test` so that the agent can name the job in its logs. `agent`
//  only tells the coordinator where to send the job.
const opt_def_t jobspec_options [] = {
    { .name = "name", .type = OPT_STRING, .offset = AT (name),
      .capacity = CAPACITY (name),
      .flags = OPT_WIRE | OPT_HEADER,
      .help = "job name, from the [job NAME] section header" },
    { .name = "test", .type = OPT_STRING, .offset = AT (test),
      .capacity = CAPACITY (test),
      .flags = OPT_WIRE,
      .help = "test the job belongs to; jobs of one test start together" },
    { .name = "agent", .type = OPT_STRING, .offset = AT (agent),
      .capacity = CAPACITY (agent),
      .flags = 0,
      .help = "agent that runs the job, an [agent NAME] section; or a [group NAME]: "
              "then one job per member, named JOB.MEMBER" },
    { .name = "workload", .type = OPT_ENUM, .offset = AT (workload),
      .choices = workload_names, .default_text = "write",
      .flags = OPT_WIRE,
      .help = "what the job does: null, write, copy, fill, monitor, read, rewrite or bonnie "
              "(see `iofleet run --help` for each)" },
    { .name = "path", .type = OPT_STRING, .offset = AT (path),
      .capacity = CAPACITY (path),
      .flags = OPT_WIRE,
      .help = "file to write; with several streams, stream k writes path.k; {agent} is "
              "the job's agent's name" },
    { .name = "src", .type = OPT_STRING, .offset = AT (src),
      .capacity = CAPACITY (src),
      .flags = OPT_WIRE,
      .help = "copy: source path or nfs://server/export/file URL" },
    { .name = "dst", .type = OPT_STRING, .offset = AT (dst),
      .capacity = CAPACITY (dst),
      .flags = OPT_WIRE,
      .help = "copy: destination path" },
    //  size has no default and travels always; 0 means "not given", which
    //  only copy accepts (it then copies the whole source).
    { .name = "size", .type = OPT_SIZE, .offset = AT (size_bytes),
      .min = 0, .max = PIB,
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "bytes per stream: 4096, 4K, 1M, 5.2G; K M G T P are powers of "
              "1024, with or without B or iB (4KiB = 4KB = 4K); copy without "
              "a size copies the whole source" },
    { .name = "bs", .type = OPT_SIZE, .offset = AT (bs_bytes),
      .min = 512, .max = 64 * MIB, .default_text = "1M",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "bytes per write call, powers of 1024 like size" },
    { .name = "streams", .type = OPT_COUNT, .offset = AT (streams),
      .min = 1, .max = JOB_STREAMS_MAX, .default_text = "1",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "parallel streams, each with its own thread and file" },
    { .name = "direct", .type = OPT_BOOL, .offset = AT (direct),
      .default_text = "no",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "open with O_DIRECT: yes or no" },
    { .name = "fsync", .type = OPT_ENUM, .offset = AT (fsync_mode),
      .choices = s_fsync_names, .default_text = "end",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "none, end (fdatasync before close, timed; dd conv=fdatasync) "
              "or close (fsync then close, timed)" },
    { .name = "pattern", .type = OPT_ENUM, .offset = AT (pattern),
      .choices = s_pattern_names, .default_text = "zero",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "data written: zero or random (generated before the timed part)" },
    { .name = "class", .type = OPT_ENUM, .offset = AT (job_class),
      .choices = s_class_names, .default_text = "auto",
      .flags = OPT_WIRE,
      .help = "report class: auto (nfs:// sources and sources on an NFS mount "
              "are network), disk or network" },
    { .name = "keep", .type = OPT_BOOL, .offset = AT (keep),
      .default_text = "no",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "keep the files after the test: yes or no" },
    { .name = "refill", .type = OPT_BOOL, .offset = AT (refill),
      .default_text = "no",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "fill: write the file again even if it already has the size: yes or no" },
    { .name = "interval", .type = OPT_DURATION, .offset = AT (interval_ns),
      .min = 10 * NS_PER_MSEC, .max = 3600 * NS_PER_SEC, .default_text = "1s",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "sample period: 250ms, 1s, 1.5s, 2m; a bare number is seconds" },
    { .name = "rate", .type = OPT_SIZE, .offset = AT (rate_bytes),
      .min = 0, .max = 1ULL << 50, .default_text = "0", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "cap each stream at this many bytes per second, e.g. 20M (0: no cap)" },
    { .name = "drop_caches", .type = OPT_BOOL, .offset = AT (drop_caches),
      .default_text = "no", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "sync and drop the agent's page cache before each run of the test (root): yes or no" },
    { .name = "settle", .type = OPT_DURATION, .offset = AT (settle_ns),
      .min = 0, .max = 600 * NS_PER_SEC, .default_text = "10s",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "after the last stream, watch the disks at most this long while the page cache drains" },
    { .name = "seekers", .type = OPT_COUNT, .offset = AT (seekers),
      .min = 1, .max = 64, .default_text = "5", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "bonnie: threads doing the random seeks at once (bonnie++ 2.00 runs 5)" },
    { .name = "seeks", .type = OPT_COUNT, .offset = AT (seeks),
      .min = 1, .max = 1000000000, .default_text = "8000", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "bonnie: random seeks in all, shared by the seekers; each reads a chunk of bs "
              "and writes one in ten back (bonnie++: 8000)" },
    { .name = NULL }
};

//  --------------------------------------------------------------------
//  Small helpers

//  Write a printable, bounded copy of len bytes of text into buf for an
//  error message: control bytes become '?', and long values end in "...".
static void
s_quote (const char *text, size_t len, char *buf, size_t buflen)
{
    assert (buflen >= QUOTE_MAX + 4);
    size_t shown = len > QUOTE_MAX? QUOTE_MAX: len;
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

//  Name of value in a NULL-terminated choices list, or NULL if out of range.
static const char *
s_choice (const char *const *choices, int value)
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
static int
s_choice_index (const char *const *choices, const char *name, size_t len)
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
    { "K", KIB }, { "M", MIB }, { "G", GIB }, { "T", TIB }, { "P", PIB },
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
    if (ns != 0 && ns % NS_PER_SEC == 0)
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

//  Write a numeric bound or value of opt the way a scenario would.
static void
s_format_number (const opt_def_t *opt, uint64_t value, char *buf, size_t buflen)
{
    if (opt->type == OPT_SIZE)
        s_format_size (value, buf, buflen);
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
static int
s_check_bounds (const opt_def_t *opt, uint64_t value, const char *shown,
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
//  The table's public face

//  The row named name, or NULL.
const opt_def_t *
jobspec_option (const char *name)
{
    if (!name)
        return NULL;
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++)
        if (strcmp (opt->name, name) == 0)
            return opt;
    return NULL;
}

//  A spec with every default of the table applied.
void
jobspec_defaults (jobspec_t *spec)
{
    assert (spec);
    memset (spec, 0, sizeof (*spec));
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++) {
        if (!opt->default_text)
            continue;
        char err [128];
        int rc = opt_parse (opt, opt->default_text, spec, err, sizeof (err));
        assert (rc == 0);       //  a default outside its own bounds is a table bug
        (void) rc;
    }
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
    return s_check_bounds (opt, *value, quoted, err, errlen);
}

//  Scenario text to the value of one option, bounds checked.
int
opt_parse (const opt_def_t *opt, const char *text, void *base,
           char *err, size_t errlen)
{
    assert (opt && text && base && err);
    char *field = (char *) base + opt->offset;
    size_t len = strlen (text);
    char quoted [QUOTE_MAX + 8];
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
        case OPT_COUNT: {
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
            if (s_choice_index (s_true_words, text, len) >= 0)
                *(bool *) field = true;
            else
            if (s_choice_index (s_false_words, text, len) >= 0)
                *(bool *) field = false;
            else {
                snprintf (err, errlen, "%s is not yes or no (or true/false, on/off, 1/0)",
                          quoted);
                return -1;
            }
            return 0;

        case OPT_ENUM: {
            int index = s_choice_index (opt->choices, text, len);
            if (index < 0) {
                char list [256];
                s_choice_list (opt->choices, list, sizeof (list));
                snprintf (err, errlen, "%s is not one of %s", quoted, list);
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
        case OPT_DURATION:
            s_format_duration (*(const int64_t *) field, number, sizeof (number));
            break;
        case OPT_BOOL:
            text = *(const bool *) field? "yes": "no";
            break;
        case OPT_ENUM:
            text = s_choice (opt->choices, *(const int *) field);
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

//  --------------------------------------------------------------------
//  Names and paths

//  Name of value in choices, or "?" when out of range.
static const char *
s_name_or_unknown (const char *const *choices, int value)
{
    const char *name = s_choice (choices, value);
    return name? name: "?";
}

//  Names of enum values, "?" when out of range.
const char *
jobspec_workload_name (int workload)
{
    return s_name_or_unknown (workload_names, workload);
}

const char *
jobspec_fsync_name (int fsync_mode)
{
    return s_name_or_unknown (s_fsync_names, fsync_mode);
}

const char *
jobspec_pattern_name (int pattern)
{
    return s_name_or_unknown (s_pattern_names, pattern);
}

const char *
jobspec_class_name (int job_class)
{
    return s_name_or_unknown (s_class_names, job_class);
}

//  True for an nfs:// URL.
bool
jobspec_src_is_nfs (const char *src)
{
    return strncmp (src, "nfs://", 6) == 0;
}

//  The class of a job from its options alone.
int
jobspec_class (const jobspec_t *spec)
{
    if (spec->job_class != CLASS_AUTO)
        return spec->job_class;
    return jobspec_src_is_nfs (spec->src)? CLASS_NETWORK: CLASS_DISK;
}

//  The file of stream index of a job.
int
jobspec_stream_path (const char *path, uint64_t streams, uint64_t index,
                     char *buf, size_t buflen)
{
    assert (path && buf);
    int len;
    if (streams <= 1) {
        if (index != 0)
            return -1;
        len = snprintf (buf, buflen, "%s", path);
    }
    else {
        if (index >= streams)
            return -1;
        len = snprintf (buf, buflen, "%s.%" PRIu64, path, index + 1);
    }
    return (len < 0 || (size_t) len >= buflen)? -1: 0;
}

//  --------------------------------------------------------------------
//  Wire codec

//  Pack len bytes of text as a msgpack str.
static void
s_pack_string (msgpack_packer *pk, const char *text, size_t len)
{
    msgpack_pack_str (pk, len);
    msgpack_pack_str_body (pk, text, len);
}

//  The OPT_WIRE options of spec as one msgpack map.
void
jobspec_encode (const jobspec_t *spec, msgpack_packer *pk)
{
    assert (spec && pk);
    size_t count = 0;
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++)
        if (opt->flags & OPT_WIRE)
            count++;
    msgpack_pack_map (pk, count);

    for (const opt_def_t *opt = jobspec_options; opt->name; opt++) {
        if (!(opt->flags & OPT_WIRE))
            continue;
        const char *field = (const char *) spec + opt->offset;
        s_pack_string (pk, opt->name, strlen (opt->name));
        switch (opt->type) {
            case OPT_STRING:
                //  Never read past the array, even if it lacks its NUL.
                s_pack_string (pk, field, strnlen (field, opt->capacity - 1));
                break;
            case OPT_SIZE:
            case OPT_COUNT:
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
                const char *name = s_name_or_unknown (opt->choices, *(const int *) field);
                s_pack_string (pk, name, strlen (name));
                break;
            }
        }
    }
}

//  The OPT_WIRE option named by len bytes of key, with its row index.
static const opt_def_t *
s_wire_option (const char *key, size_t len, size_t *index)
{
    for (size_t i = 0; jobspec_options [i].name; i++) {
        const opt_def_t *opt = &jobspec_options [i];
        if ((opt->flags & OPT_WIRE)
        &&  strlen (opt->name) == len && memcmp (opt->name, key, len) == 0) {
            *index = i;
            return opt;
        }
    }
    return NULL;
}

//  Take the value of one wire option from a msgpack object into spec,
//  checking its type and bounds. Errors start with the option name.
static int
s_decode_value (const opt_def_t *opt, const msgpack_object *value, jobspec_t *spec,
                char *err, size_t errlen)
{
    char *field = (char *) spec + opt->offset;
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
            s_format_number (opt, number, shown, sizeof (shown));
            if (s_check_bounds (opt, number, shown, reason, sizeof (reason))) {
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
            int index = s_choice_index (opt->choices, value->via.str.ptr,
                                        value->via.str.size);
            if (index < 0) {
                char quoted [QUOTE_MAX + 4];
                s_quote (value->via.str.ptr, value->via.str.size, quoted, sizeof (quoted));
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
        [OPT_ENUM] = "a name (string)", [OPT_DURATION] = "an integer of nanoseconds"
    };
    snprintf (err, errlen, "%s: wrong type (want %s)", opt->name, wanted [opt->type]);
    return -1;
}

//  A spec from a msgpack map, every value checked.
int
jobspec_decode (const msgpack_object *map, jobspec_t *spec, char *err, size_t errlen)
{
    assert (spec && err);
    jobspec_defaults (spec);
    if (!map || map->type != MSGPACK_OBJECT_MAP) {
        snprintf (err, errlen, "job spec is not a map");
        return -1;
    }
    //  One bit per table row, to refuse a key given twice.
    uint64_t seen = 0;
    _Static_assert (sizeof (jobspec_options) / sizeof (jobspec_options [0]) <= 64,
                    "the seen mask has one bit per option");

    for (uint32_t i = 0; i < map->via.map.size; i++) {
        const msgpack_object_kv *kv = &map->via.map.ptr [i];
        if (kv->key.type != MSGPACK_OBJECT_STR)
            continue;           //  not a key this version knows
        size_t index;
        const opt_def_t *opt = s_wire_option (kv->key.via.str.ptr, kv->key.via.str.size, &index);
        if (!opt)
            continue;
        if (seen & ((uint64_t) 1 << index)) {
            snprintf (err, errlen, "%s: given twice", opt->name);
            return -1;
        }
        seen |= (uint64_t) 1 << index;
        if (s_decode_value (opt, &kv->val, spec, err, errlen))
            return -1;
    }
    //  An option without a default has no value to fall back on (a size
    //  of 0 would be out of bounds), so the sender must give it. Options
    //  added in later versions come with defaults and may be missing.
    for (size_t i = 0; jobspec_options [i].name; i++) {
        const opt_def_t *opt = &jobspec_options [i];
        if ((opt->flags & OPT_WIRE) && !opt->default_text && !(seen & ((uint64_t) 1 << i))) {
            snprintf (err, errlen, "%s: missing", opt->name);
            return -1;
        }
    }
    return 0;
}
