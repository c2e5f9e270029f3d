/*  proto/option.h: one option of a table, its value as text and on the
    wire.

    The job options (jobspec.c), the run options of a scenario and the
    agent's settings are tables of opt_def_t rows: a name, a type, where
    the value lives in a struct, bounds, a default and a line of help.
    This module knows what every type means: how its text is parsed and
    written back ("5.2G", "250ms", "yes", "1.5"), and how its value goes
    into msgpack and comes back, checked, from a peer that is not
    trusted. It knows no particular table.
*/
#ifndef IOFLEET_OPTION_H
#define IOFLEET_OPTION_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    OPT_STRING,                 //  char [capacity]
    OPT_SIZE,                   //  uint64_t bytes; text "4K", "5.2G" (powers of 1024)
    OPT_COUNT,                  //  uint64_t plain integer
    OPT_BOOL,                   //  bool; text yes/no, true/false, on/off, 1/0
    OPT_ENUM,                   //  int index into choices; a name on the wire
    OPT_DURATION,               //  int64_t ns; text "1s", "250ms", "2m", "100us"
    OPT_DECIMAL                 //  uint64_t millionths; text "1.5", "0.25" (six decimals kept)
} opt_type_t;

//  Where an option may be given.
#define OPT_WIRE   0x1          //  sent to the agent in PREPARE
#define OPT_GLOBAL 0x2          //  may stand in [global] as a default for every job
#define OPT_HEADER 0x4          //  set from the section header ([job NAME]), not a key

//  One row of the option table.
typedef struct {
    const char *name;           //  key in the scenario and on the wire
    opt_type_t type;            //  how the value is stored and parsed
    size_t offset;              //  offsetof (the table's struct, field)
    size_t capacity;            //  OPT_STRING: size of the char array
    uint64_t min;               //  numeric bounds, inclusive (bytes, counts, ns, millionths)
    uint64_t max;               //  0 means no upper bound
    const char *const *choices; //  OPT_ENUM: NULL-terminated names, index = value
    const char *default_text;   //  default as scenario text, NULL for none
    int flags;                  //  OPT_WIRE | OPT_GLOBAL
    const char *help;           //  one line for --help
} opt_def_t;

//  The size units of the text, powers of 1024.
#define OPT_KIB ((uint64_t) 1 << 10)
#define OPT_MIB ((uint64_t) 1 << 20)
#define OPT_GIB ((uint64_t) 1 << 30)
#define OPT_TIB ((uint64_t) 1 << 40)
#define OPT_PIB ((uint64_t) 1 << 50)

//  Millionths in one unit of an OPT_DECIMAL value: "1.5" is 1500000.
#define OPT_DECIMAL_ONE 1000000

//  Parse scenario text into the field opt describes inside base (a
//  jobspec_t, or any struct the table's offsets point into), checking the
//  bounds. Returns 0, or -1 with a reason in err, e.g. "'12Q' is not a
//  size (use 4K, 1M, 5.2G)" or "0 is below the minimum 512".
int opt_parse (const opt_def_t *opt, const char *text, void *base,
               char *err, size_t errlen);

//  Write the value of opt inside base as scenario text ("1M", "yes",
//  "250ms"), for the scenario-as-run record. Returns 0 or -1 if too long.
int opt_format (const opt_def_t *opt, const void *base, char *buf, size_t buflen);

//  Write a number (a bound, a value) of a numeric option as a scenario
//  would: "64M" for a size, "250ms" for a duration, digits for a count.
void opt_format_number (const opt_def_t *opt, uint64_t value, char *buf, size_t buflen);

//  How much of a bad value an error message quotes, in bytes.
#define OPT_QUOTE_MAX 64

//  Check value against the bounds of opt. Returns 0, or -1 with
//  "<shown> is below the minimum <min>" (or above the maximum) in err.
int opt_check_bounds (const opt_def_t *opt, uint64_t value, const char *shown,
                      char *err, size_t errlen);

//  Index of the name of len bytes (not NUL-terminated) in a
//  NULL-terminated list of choices, matched without regard to case, or
//  -1.
int opt_choice_index (const char *const *choices, const char *name, size_t len);

//  Name of value in a NULL-terminated list of choices, or NULL when out
//  of range.
const char *opt_choice_name (const char *const *choices, int value);

//  Append the value of opt inside base to pk: a str for strings and
//  enums (by name: a later version may add choices), an integer for
//  numbers, a boolean for booleans. An enum value out of range goes as
//  "?", which opt_unpack refuses.
void opt_pack (const opt_def_t *opt, const void *base, msgpack_packer *pk);

//  Take the value of opt from a msgpack object into base, checking type
//  and bounds as opt_parse does for text. Returns 0, or -1 with a reason
//  that starts with the option's name in err ("bs: 0 is below the
//  minimum 512").
int opt_unpack (const opt_def_t *opt, const msgpack_object *value, void *base,
                char *err, size_t errlen);

#endif
