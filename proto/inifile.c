/*  proto/inifile.c: an INI reader that knows its line numbers; see
    inifile.h.

    inih splits lines into key and value, strips whitespace, skips
    comments and cuts inline comments. Everything that needs a line
    number goes through our own line reader (s_read_line), which hands
    inih one physical line at a time through ini_parse_stream, so the key
    handler always knows the line it is looking at. Debian builds inih
    without INI_HANDLER_LINENO, so inih cannot tell us itself.

    The reader also takes three things out of inih's hands:

    - Section headers. inih cuts section names at 50 bytes and never calls
      the handler for a section without keys, so an empty or repeated
      section would go unseen. The reader hands every header to the
      section callback itself and passes inih an empty line instead.
    - Leading whitespace. The reader strips it, so inih never sees an
      indented line and never joins it to the previous value (inih's
      Python-style multi-line values). An indented `key = value` line is a
      key of its own; multi-line values do not exist.
    - Line length. inih reads into a fixed buffer (200 bytes in Debian's
      build) and cuts a longer line in two: the value is cut short, the
      tail is parsed as a line of its own, and every line number after it
      is off by one. The reader refuses such a line with an error instead.

    What inih still decides: `;` and `#` begin a comment at the start of a
    line; ` ;` (a semicolon after whitespace) begins an inline comment,
    `#` after a value does not (it becomes part of the value, and the
    value's parser then says what is wrong with it); `key: value` means
    the same as `key = value`.
*/
#include "inifile.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

//  How much of a key or section header an error message quotes: enough
//  for any scenario header with a name of valid length.
#define KEY_QUOTE_MAX 128

//  What the line reader and inih's key handler share while one file is
//  read.
typedef struct {
    const char *path;               //  for error messages
    FILE *file;                     //  being read
    char *raw;                      //  last line read, owned by getline
    size_t raw_capacity;            //  bytes allocated for raw
    int line;                       //  number of the line being parsed, from 1
    inifile_section_fn *section;    //  the user's header callback
    inifile_key_fn *key;            //  the user's key callback
    void *user;                     //  passed to both
    bool failed;                    //  an error is in err; stop
    char *err;                      //  where the first error goes
    size_t errlen;                  //  size of err
} s_reader_t;

//  --------------------------------------------------------------------
//  Error messages

//  "path:line: key: reason", each part left out when it is not known.
void
inifile_verror (char *err, size_t errlen, const char *path, int line, const char *key,
                const char *format, va_list args)
{
    if (!err || errlen == 0)
        return;
    //  Keys come from the file; a very long one is cut and marked.
    int key_len = key && strlen (key) > KEY_QUOTE_MAX? KEY_QUOTE_MAX: INT_MAX;
    const char *cut = key_len == KEY_QUOTE_MAX? "...": "";
    int used;
    if (line > 0 && key)
        used = snprintf (err, errlen, "%s:%d: %.*s%s: ", path, line, key_len, key, cut);
    else
    if (line > 0)
        used = snprintf (err, errlen, "%s:%d: ", path, line);
    else
    if (key)
        used = snprintf (err, errlen, "%s: %.*s%s: ", path, key_len, key, cut);
    else
        used = snprintf (err, errlen, "%s: ", path);
    if (used >= 0 && (size_t) used < errlen)
        vsnprintf (err + used, errlen - (size_t) used, format, args);
}

//  inifile_verror with its arguments inline.
void
inifile_error (char *err, size_t errlen, const char *path, int line, const char *key,
               const char *format, ...)
{
    va_list args;
    va_start (args, format);
    inifile_verror (err, errlen, path, line, key, format, args);
    va_end (args);
}

//  Record the reader's own error at the current line.
static void
s_fail (s_reader_t *self, const char *key, const char *format, ...)
    __attribute__ ((format (printf, 3, 4)));

static void
s_fail (s_reader_t *self, const char *key, const char *format, ...)
{
    self->failed = true;
    va_list args;
    va_start (args, format);
    inifile_verror (self->err, self->errlen, self->path, self->line, key, format, args);
    va_end (args);
}

//  --------------------------------------------------------------------
//  Key lines

//  Where the key of a key line ends: at the first '=' or ':' as inih
//  splits it, or NULL if inih would find none before an inline comment
//  (" ;") or the end of the line, which inih calls a syntax error.
static const char *
s_key_end (const char *text)
{
    bool after_space = false;
    for (const char *p = text; *p; p++) {
        if (*p == '=' || *p == ':')
            return p;
        if (after_space && *p == ';')
            return NULL;
        after_space = isspace ((unsigned char) *p);
    }
    return NULL;
}

//  Copy the key of a key line (or the start of any other line) into buf,
//  to name the line in an error message.
static void
s_line_key (const char *text, char *buf, size_t buflen)
{
    const char *end = s_key_end (text);
    size_t len = end? (size_t) (end - text): strlen (text);
    while (len > 0 && isspace ((unsigned char) text [len - 1]))
        len--;
    snprintf (buf, buflen, "%.*s", (int) len, text);
}

//  Check a key line (without surrounding whitespace) before inih sees it:
//  inih must find a key and a separator in it, and the line must fit the
//  num bytes inih reads into.
static void
s_check_key_line (s_reader_t *self, const char *text, size_t text_len, int num)
{
    char key [KEY_QUOTE_MAX + 4];
    const char *key_end = s_key_end (text);
    if (!key_end) {
        s_line_key (text, key, sizeof (key));
        s_fail (self, key, "expected KEY = VALUE");
    }
    else
    if (key_end == text)
        s_fail (self, text, "a key is missing before '%c'", *text);
    else
    if (text_len + 1 > (size_t) num) {
        s_line_key (text, key, sizeof (key));
        s_fail (self, key, "the line is longer than %d characters, "
                "the most a line may hold", num - 1);
    }
}

//  --------------------------------------------------------------------
//  What inih calls

//  inih's reader: hands over the next physical line of the file, without
//  leading whitespace, in str (num bytes). Section headers go to the
//  section callback here and are passed on as empty lines. Returns NULL
//  at the end of the file or after an error, which stops inih.
static char *
s_read_line (char *str, int num, void *stream)
{
    s_reader_t *self = (s_reader_t *) stream;
    assert (num > 0);
    if (self->failed)
        return NULL;
    errno = 0;
    ssize_t len = getline (&self->raw, &self->raw_capacity, self->file);
    if (len < 0) {
        if (ferror (self->file)) {
            self->failed = true;
            inifile_error (self->err, self->errlen, self->path, 0, NULL,
                           "cannot read: %s", strerror (errno? errno: EIO));
        }
        return NULL;
    }
    self->line++;
    char *text = self->raw;
    if ((size_t) len != strlen (text)) {
        s_fail (self, "line", "contains a NUL byte; is this a text file?");
        return NULL;
    }
    //  A UTF-8 byte order mark, as some editors write, is not text.
    if (self->line == 1 && strncmp (text, "\xEF\xBB\xBF", 3) == 0)
        text += 3;
    while (isspace ((unsigned char) *text))
        text++;
    size_t text_len = strlen (text);
    while (text_len > 0 && isspace ((unsigned char) text [text_len - 1]))
        text [--text_len] = 0;

    //  Headers and comments reach inih as empty lines: it has nothing
    //  to do with them, and a long comment must not overflow str.
    if (*text == '[') {
        if (self->section (self->user, self->line, text))
            self->failed = true;
        text_len = 0;
    }
    else
    if (*text == ';' || *text == '#')
        text_len = 0;
    else
    if (*text)
        s_check_key_line (self, text, text_len, num);
    if (self->failed)
        return NULL;
    memcpy (str, text, text_len);
    str [text_len] = 0;
    return str;
}

//  inih's handler: one key = value of the current line. The section inih
//  passes is always empty (the reader keeps headers to itself).
static int
s_handle_key (void *user, const char *section, const char *name, const char *value)
{
    s_reader_t *self = (s_reader_t *) user;
    (void) section;
    if (self->failed)
        return 0;
    if (!value)
        value = "";                 //  only an inih built to allow keys without '='
    if (self->key (self->user, self->line, name, value))
        self->failed = true;
    return self->failed? 0: 1;
}

//  --------------------------------------------------------------------
//  Public function

int
inifile_read (const char *path, inifile_section_fn *section, inifile_key_fn *key,
              void *user, char *err, size_t errlen)
{
    assert (path && section && key && err);
    s_reader_t self = {
        .path = path, .section = section, .key = key, .user = user,
        .err = err, .errlen = errlen
    };
    self.file = fopen (path, "r");
    if (!self.file) {
        inifile_error (err, errlen, path, 0, NULL, "cannot open: %s", strerror (errno));
        return -1;
    }
    int rc = ini_parse_stream (s_read_line, &self, s_handle_key, &self);
    if (!self.failed && rc > 0) {
        //  The reader sees every syntax error inih knows before inih does;
        //  this is for an inih that knows more.
        self.line = rc;
        s_fail (&self, "line", "inih cannot parse this line");
    }
    else
    if (!self.failed && rc < 0) {
        self.failed = true;
        inifile_error (err, errlen, path, 0, NULL, "inih failed (out of memory)");
    }
    free (self.raw);
    fclose (self.file);
    return self.failed? -1: 0;
}
