/*  coordinator/results/jsonread.c: values of a results file, read and
    checked; see jsonread.h.  */
#include "jsonread.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

//  Record the first error as "file: place.key: what".
void
jsonread_fail (jsonread_t *self, const char *key, const char *format, ...)
{
    if (self->failed)
        return;
    self->failed = true;
    if (!self->err || !self->errlen)
        return;
    char what [256];
    va_list args;
    va_start (args, format);
    vsnprintf (what, sizeof what, format, args);
    va_end (args);
    snprintf (self->err, self->errlen, "%s: %s%s%s: %s", self->file, self->place,
              self->place [0] && key? ".": "", key? key: "", what);
}

//  A member that must be there.
json_t *
jsonread_member (jsonread_t *self, json_t *object, const char *key)
{
    json_t *value = json_object_get (object, key);
    if (!value)
        jsonread_fail (self, key, "missing");
    return value;
}

//  An integer member within [minimum, maximum].
int64_t
jsonread_integer (jsonread_t *self, json_t *object, const char *key,
                  int64_t minimum, int64_t maximum)
{
    json_t *value = jsonread_member (self, object, key);
    if (!value)
        return 0;
    if (!json_is_integer (value)) {
        jsonread_fail (self, key, "expected an integer");
        return 0;
    }
    int64_t number = json_integer_value (value);
    if (number < minimum || number > maximum) {
        jsonread_fail (self, key, "%" PRId64 " is out of range", number);
        return 0;
    }
    return number;
}

//  A number member within [minimum, maximum], or null for a figure that
//  could not be computed (NAN). Strings that look like numbers are not
//  numbers.
double
jsonread_number (jsonread_t *self, json_t *object, const char *key,
                 double minimum, double maximum)
{
    json_t *value = jsonread_member (self, object, key);
    if (!value || json_is_null (value))
        return NAN;
    if (!json_is_number (value)) {
        jsonread_fail (self, key, "expected a number or null");
        return NAN;
    }
    double number = json_number_value (value);
    if (!(number >= minimum && number <= maximum)) {
        if (maximum < DBL_MAX)
            jsonread_fail (self, key, "%g is out of range (%g to %g)", number, minimum, maximum);
        else
            jsonread_fail (self, key, "%g is out of range (%g or more)", number, minimum);
        return NAN;
    }
    return number;
}

//  A rate (MB/s, or operations per second) member.
double
jsonread_rate (jsonread_t *self, json_t *object, const char *key)
{
    return jsonread_number (self, object, key, 0, JSONREAD_RATE_MAX);
}

//  A share of CPU time in percent.
double
jsonread_pct (jsonread_t *self, json_t *object, const char *key)
{
    return jsonread_number (self, object, key, 0, 100);
}

//  A figure files of older versions lack: NAN when absent.
double
jsonread_optional (jsonread_t *self, json_t *object, const char *key,
                   double minimum, double maximum)
{
    return json_object_get (object, key)? jsonread_number (self, object, key, minimum, maximum): NAN;
}

//  A boolean member.
bool
jsonread_boolean (jsonread_t *self, json_t *object, const char *key)
{
    json_t *value = jsonread_member (self, object, key);
    if (value && !json_is_boolean (value))
        jsonread_fail (self, key, "expected true or false");
    return value && json_is_true (value);
}

//  A string member copied into buf, which it must fit.
void
jsonread_string (jsonread_t *self, json_t *object, const char *key, char *buf, size_t buflen)
{
    buf [0] = 0;
    json_t *value = jsonread_member (self, object, key);
    if (!value)
        return;
    if (!json_is_string (value)) {
        jsonread_fail (self, key, "expected a string");
        return;
    }
    if (json_string_length (value) >= buflen) {
        jsonread_fail (self, key, "longer than %zu bytes", buflen - 1);
        return;
    }
    memcpy (buf, json_string_value (value), json_string_length (value) + 1);
}

//  An array member; *count gets its length.
json_t *
jsonread_array (jsonread_t *self, json_t *object, const char *key, size_t *count)
{
    *count = 0;
    json_t *value = jsonread_member (self, object, key);
    if (value && !json_is_array (value)) {
        jsonread_fail (self, key, "expected an array");
        return NULL;
    }
    if (value)
        *count = json_array_size (value);
    return value;
}

//  An object member.
json_t *
jsonread_object (jsonread_t *self, json_t *object, const char *key)
{
    json_t *value = jsonread_member (self, object, key);
    if (value && !json_is_object (value)) {
        jsonread_fail (self, key, "expected an object");
        return NULL;
    }
    return value;
}

//  Set the place to "parent.key[index]", or "key[index]" at the top.
void
jsonread_enter (jsonread_t *self, const char *parent, const char *key, size_t index)
{
    snprintf (self->place, sizeof self->place, "%s%s%s[%zu]",
              parent, parent [0]? ".": "", key, index);
}


