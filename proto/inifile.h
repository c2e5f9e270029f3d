/*  proto/inifile.h: read an INI file whole, bounded, and parse it through
    inih one physical line at a time, so that every key and every error
    knows its line.

    Scenarios (coordinator/scenario/scenario.c) and the agent's config file
    (agent/settings.c) are read by this one reader, and both report
    mistakes the same way: "file:line: key: reason", the key quoted
    printably (proto/printable.h).

    The parser calls section() for every "[...]" line (with the text as
    written, trimmed) and key() for every KEY = VALUE line, each with the
    line number. Comments and blank lines are skipped. A callback returns
    0 to go on, or -1 after writing its reason into err with
    inifile_error; the parser then stops and returns -1.
*/
#ifndef IOFLEET_INIFILE_H
#define IOFLEET_INIFILE_H

#include <stdarg.h>
#include <stddef.h>

//  A "[...]" line: header starts with '[' and has no blanks around it.
typedef int (inifile_section_fn) (void *user, int line, char *header);

//  A KEY = VALUE line, with inih's trimming and inline comments applied.
typedef int (inifile_key_fn) (void *user, int line, const char *key, const char *value);

//  What is read, for the messages: "scenario" gives "is a directory, not
//  a scenario file", "the most a scenario line may hold".
typedef struct {
    const char *what;               //  "scenario", "config"
    size_t file_max;                //  bytes the file may hold
    size_t line_max;                //  bytes one line may hold
} inifile_limits_t;

//  Read the file at path whole: a regular file or a pipe, at most
//  limits->file_max bytes, into a new NUL-terminated *text (the caller's
//  to free) of *length bytes. Returns 0, or -1 with "path: reason" in err.
int inifile_load (const char *path, const inifile_limits_t *limits,
                  char **text, size_t *length, char *err, size_t errlen);

//  Parse length bytes of text, read from path, calling section and key
//  for its lines. Returns 0, or -1 with "path:line: key: reason" in err.
int inifile_parse (const char *path, const inifile_limits_t *limits,
                   const char *text, size_t length,
                   inifile_section_fn *section, inifile_key_fn *key, void *user,
                   char *err, size_t errlen);

//  inifile_load, then inifile_parse, then the text is freed.
int inifile_read (const char *path, const inifile_limits_t *limits,
                  inifile_section_fn *section, inifile_key_fn *key, void *user,
                  char *err, size_t errlen);

//  Write "path:line: key: reason" into err; without a line (0) or a key
//  (NULL) that part is left out: "path: reason" for the whole file. The
//  key comes from the file and is quoted printably.
void inifile_error (char *err, size_t errlen, const char *path, int line, const char *key,
                    const char *format, ...)
    __attribute__ ((format (printf, 6, 7)));

//  The same with a va_list.
void inifile_verror (char *err, size_t errlen, const char *path, int line, const char *key,
                     const char *format, va_list args);

#endif
