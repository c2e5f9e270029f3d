/*  proto/inifile.h: read an INI file through inih, one physical line at a
    time, so that every key and every error knows its line.

    Scenarios (coordinator/scenario.c) and the agent's config file
    (agent/settings.c) are read by this one reader, and both report
    mistakes the same way: "file:line: key: reason".

    The reader calls section() for every "[...]" line (with the text as
    written, trimmed) and key() for every KEY = VALUE line, each with the
    line number. Comments and blank lines are skipped. A callback returns
    0 to go on, or -1 after writing its reason into err with
    inifile_error; the reader then stops and returns -1.
*/
#ifndef IOFLEET_INIFILE_H
#define IOFLEET_INIFILE_H

#include <stdarg.h>
#include <stddef.h>

//  A "[...]" line: header starts with '[' and has no blanks around it.
typedef int (inifile_section_fn) (void *user, int line, char *header);

//  A KEY = VALUE line, with inih's trimming and inline comments applied.
typedef int (inifile_key_fn) (void *user, int line, const char *key, const char *value);

//  Read the file at path, calling section and key for its lines. Returns
//  0, or -1 with "path:line: key: reason" (or "path: reason" for a file
//  that cannot be read) in err.
int inifile_read (const char *path, inifile_section_fn *section, inifile_key_fn *key,
                  void *user, char *err, size_t errlen);

//  Write "path:line: key: reason" into err; without a line (0) or a key
//  (NULL) that part is left out: "path: reason" for the whole file.
void inifile_error (char *err, size_t errlen, const char *path, int line, const char *key,
                    const char *format, ...)
    __attribute__ ((format (printf, 6, 7)));

//  The same with a va_list.
void inifile_verror (char *err, size_t errlen, const char *path, int line, const char *key,
                     const char *format, va_list args);

#endif
