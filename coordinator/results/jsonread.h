/*  coordinator/results/jsonread.h: the values of a results file, read and
    checked one by one.

    A results file is input, not something this program vouches for:
    every value is checked for its type and its bounds, and the first one
    that is wrong is named with its place in the document
    ("results.json: tests[2].streams[0].bytes: expected an integer"). The
    first failure sticks; later reads return zeros, so a reader of a
    document is a plain list of reads followed by one check of failed.
*/
#ifndef IOFLEET_JSONREAD_H
#define IOFLEET_JSONREAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//  What a reader carries from value to value: the file, the place in the
//  document, and the first error.
typedef struct {
    const char *file;               //  file being read, for messages
    char place [160];               //  "tests[2].streams[0]": where values are read
    char *err;                      //  the caller's error buffer
    size_t errlen;                  //  its size
    bool failed;                    //  an error was recorded
} jsonread_t;

//  Record the first error as "file: place.key: what".
void jsonread_fail (jsonread_t *self, const char *key, const char *format, ...)
    __attribute__ ((format (printf, 3, 4)));

//  A member that must be there, or NULL (recorded).
json_t *jsonread_member (jsonread_t *self, json_t *object, const char *key);

//  An integer member within [minimum, maximum].
int64_t jsonread_integer (jsonread_t *self, json_t *object, const char *key,
                          int64_t minimum, int64_t maximum);

//  A number member within [minimum, maximum], or null for a figure that
//  could not be computed (NAN). Strings that look like numbers are not
//  numbers.
double jsonread_number (jsonread_t *self, json_t *object, const char *key,
                        double minimum, double maximum);

//  The greatest rate a results file may hold, MB/s or operations per
//  second: an exabyte per second, past any fleet; a file beyond it was
//  not written by a run.
#define JSONREAD_RATE_MAX 1e12

//  A rate (no rate is negative, none past JSONREAD_RATE_MAX) and a share
//  of CPU time in percent.
double jsonread_rate (jsonread_t *self, json_t *object, const char *key);
double jsonread_pct (jsonread_t *self, json_t *object, const char *key);

//  A figure files of older versions lack: NAN when absent.
double jsonread_optional (jsonread_t *self, json_t *object, const char *key,
                          double minimum, double maximum);

//  A boolean member.
bool jsonread_boolean (jsonread_t *self, json_t *object, const char *key);

//  A string member copied into buf, which it must fit.
void jsonread_string (jsonread_t *self, json_t *object, const char *key,
                      char *buf, size_t buflen);

//  An array member (*count gets its length), an object member.
json_t *jsonread_array (jsonread_t *self, json_t *object, const char *key, size_t *count);
json_t *jsonread_object (jsonread_t *self, json_t *object, const char *key);

//  Set the place to "parent.key[index]", or "key[index]" at the top.
void jsonread_enter (jsonread_t *self, const char *parent, const char *key, size_t index);

#endif
