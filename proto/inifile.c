/*  proto/inifile.c: a bounded INI reader that knows its line numbers;
    see inifile.h.

    inih splits lines into key and value, strips whitespace, skips
    comments and cuts inline comments. Everything that needs a line
    number goes through our own line reader (s_read_line), which hands
    inih one physical line at a time through ini_parse_stream, so the key
    handler always knows the line it is looking at. Debian builds inih
    without INI_HANDLER_LINENO, so inih cannot tell us itself.

    The file is read whole into memory first, bounded, and only if it is
    a regular file or a pipe: /dev/zero or a log does not get to fill
    memory before anyone says it is no INI file.

    The reader also takes three things out of inih's hands:

    - Section headers. inih cuts section names at 50 bytes and never calls
      the handler for a section without keys, so an empty or repeated
      section would go unseen. The reader hands every header to the
      section callback itself and passes inih an empty line instead.
    - Leading whitespace. The reader strips it, so inih never sees an
      indented line and never joins it to the previous value (inih's
      Python-style multi-line values). An indented `key = value` line is a
      key of its own; multi-line values do not exist.
    - Line length. inih reads into a buffer of ini_max_line bytes (200
      unless told otherwise) and cuts a longer line in two: the value is
      cut short, the tail is parsed as a line of its own, and every line
      number after it is off by one. Debian's inih takes its build options
      as variables (ini.h declares ini_max_line, ini_use_stack, ...), so
      inifile_parse sets ini_max_line to the limits' line_max and inih's
      buffer holds every line the limits allow. The reader refuses any
      line past line_max itself, and, should inih hand it a smaller
      buffer all the same, a key line that would not fit it.

    What inih still decides: `;` and `#` begin a comment at the start of a
    line; ` ;` (a semicolon after whitespace) begins an inline comment,
    `#` after a value does not (it becomes part of the value, and the
    value's parser then says what is wrong with it); `key: value` means
    the same as `key = value`.
*/
#include "inifile.h"
#include "printable.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

//  How much of a key or section header an error message quotes: enough
//  for any scenario header with a name of valid length.
#define KEY_QUOTE_MAX 128

//  What the line reader and inih's key handler share while one text is
//  parsed.
typedef struct {
    const char *path;               //  for error messages
    const inifile_limits_t *limits; //  what it is and how long a line may be
    const char *text;               //  the file's bytes
    size_t length;                  //  bytes in text
    size_t offset;                  //  where the next line starts in text
    char *raw;                      //  the line being parsed, line_max + 1 bytes
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
    //  Keys come from the file: quoted, and a very long one cut.
    char quoted [KEY_QUOTE_MAX + 4];
    if (key)
        printable (key, quoted, sizeof quoted);
    int used;
    if (line > 0 && key)
        used = snprintf (err, errlen, "%s:%d: %s: ", path, line, quoted);
    else
    if (line > 0)
        used = snprintf (err, errlen, "%s:%d: ", path, line);
    else
    if (key)
        used = snprintf (err, errlen, "%s: %s: ", path, quoted);
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
//  The file

//  What a file that is neither regular nor a pipe is, for the message.
static const char *
s_file_kind (mode_t mode)
{
    if (S_ISDIR (mode))
        return "a directory";
    if (S_ISCHR (mode))
        return "a character device";
    if (S_ISBLK (mode))
        return "a block device";
    if (S_ISSOCK (mode))
        return "a socket";
    return "not a regular file";
}

//  Read up to capacity bytes of fd into buf; *length gets how many.
static int
s_read_all (int fd, char *buf, size_t capacity, size_t *length)
{
    *length = 0;
    while (*length < capacity) {
        ssize_t got = read (fd, buf + *length, capacity - *length);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        *length += (size_t) got;
    }
    return 0;
}

//  The whole file: a regular file or a pipe (`iofleet run <(generate)`),
//  at most limits->file_max bytes, read once, so that a scenario's
//  results directory saves the very text that was parsed. Anything else
//  (/dev/zero, a directory, a tty) is refused before a byte is read.
int
inifile_load (const char *path, const inifile_limits_t *limits,
              char **text_p, size_t *length, char *err, size_t errlen)
{
    assert (path && limits && text_p && length);
    char *text = NULL;
    //  Non-blocking, so that opening a pipe without a writer cannot hang;
    //  blocking again for the reads.
    int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        inifile_error (err, errlen, path, 0, NULL, "cannot open: %s", strerror (errno));
        return -1;
    }
    struct stat st;
    if (fstat (fd, &st) < 0) {
        inifile_error (err, errlen, path, 0, NULL, "fstat: %s", strerror (errno));
        goto fail;
    }
    if (!S_ISREG (st.st_mode) && !S_ISFIFO (st.st_mode)) {
        inifile_error (err, errlen, path, 0, NULL, "is %s, not a %s file",
                        s_file_kind (st.st_mode), limits->what);
        goto fail;
    }
    if ((uint64_t) st.st_size > limits->file_max)
        goto too_large;
    if (fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK) < 0) {
        inifile_error (err, errlen, path, 0, NULL, "fcntl: %s", strerror (errno));
        goto fail;
    }
    //  One byte more than the bound shows a file that is larger (a pipe,
    //  or a file that grew), one more again holds the NUL.
    text = malloc (limits->file_max + 2);
    if (!text) {
        inifile_error (err, errlen, path, 0, NULL, "out of memory for the %zu bytes a "
                       "%s file may hold", limits->file_max, limits->what);
        goto fail;
    }
    if (s_read_all (fd, text, limits->file_max + 1, length) < 0) {
        inifile_error (err, errlen, path, 0, NULL, "read: %s", strerror (errno));
        goto fail;
    }
    if (*length > limits->file_max)
        goto too_large;
    text [*length] = 0;
    char *fitted = realloc (text, *length + 1);
    *text_p = fitted? fitted: text;
    close (fd);
    return 0;

too_large: {
        //  The bound in the unit a person thinks in: 1 MiB, 64 KiB.
        bool mib = limits->file_max % (1024 * 1024) == 0;
        inifile_error (err, errlen, path, 0, NULL, "holds more than the %zu bytes (%zu %s) "
                       "a %s file may hold; is this a %s?", limits->file_max,
                       limits->file_max / (mib? 1024 * 1024: 1024), mib? "MiB": "KiB",
                       limits->what, limits->what);
    }
fail:
    free (text);
    close (fd);
    return -1;
}

//  --------------------------------------------------------------------
//  The line reader inih pulls from

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
                "the most a %s line may hold", num - 1, self->limits->what);
    }
}

//  inih's reader: hands over the next physical line of the text, without
//  leading whitespace, in str (num bytes). Section headers go to the
//  section callback here and are passed on as empty lines. Returns NULL at the end of the text
//  or after an error, which stops inih.
static char *
s_read_line (char *str, int num, void *stream)
{
    s_reader_t *self = (s_reader_t *) stream;
    assert (num > 0);
    if (self->failed || self->offset >= self->length)
        return NULL;
    const char *start = self->text + self->offset;
    size_t left = self->length - self->offset;
    const char *newline = memchr (start, '\n', left);
    size_t len = newline? (size_t) (newline - start): left;
    self->offset += newline? len + 1: len;
    self->line++;
    if (len > self->limits->line_max) {
        s_fail (self, NULL, "the line is %zu bytes long, more than the %zu a "
                "%s line may hold; is this a text file?", len, self->limits->line_max,
                self->limits->what);
        return NULL;
    }
    if (memchr (start, 0, len)) {
        s_fail (self, "line", "contains a NUL byte; is this a text file?");
        return NULL;
    }
    memcpy (self->raw, start, len);
    self->raw [len] = 0;
    char *text = self->raw;
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
//  Parsing

int
inifile_parse (const char *path, const inifile_limits_t *limits,
               const char *text, size_t length,
               inifile_section_fn *section, inifile_key_fn *key, void *user,
               char *err, size_t errlen)
{
    assert (path && limits && text && section && key && err);
    s_reader_t self = {
        .path = path, .limits = limits, .text = text, .length = length,
        .section = section, .key = key, .user = user, .err = err, .errlen = errlen
    };
    self.raw = malloc (limits->line_max + 1);
    if (!self.raw) {
        inifile_error (err, errlen, path, 0, NULL, "out of memory");
        return -1;
    }
    //  inih's line buffer holds a line of line_max bytes, its newline and
    //  its NUL (ini.h: 3 more than the longest line), on the stack, or
    //  on the heap where inih was built so.
    ini_max_line = (int) limits->line_max + 3;
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
    return self.failed? -1: 0;
}

int
inifile_read (const char *path, const inifile_limits_t *limits,
              inifile_section_fn *section, inifile_key_fn *key, void *user,
              char *err, size_t errlen)
{
    char *text;
    size_t length;
    if (inifile_load (path, limits, &text, &length, err, errlen))
        return -1;
    int rc = inifile_parse (path, limits, text, length, section, key, user, err, errlen);
    free (text);
    return rc;
}
