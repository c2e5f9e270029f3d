/*  coordinator/report/report.c: what the writers share: the atomic file
    write, rendering into a file, and the choice of a format; see report.h.
*/
#include "report.h"

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

//  Format "what(path): strerror(errnum)" into err.
static void
s_set_error (char *err, size_t errlen, const char *what, const char *path, int errnum)
{
    if (err && errlen)
        snprintf (err, errlen, "%s(%s): %s", what, path, strerror (errnum));
}

//  Write all of data to fd, resuming after short writes and signals.
static int
s_write_all (int fd, const char *data, size_t length)
{
    while (length > 0) {
        ssize_t written = write (fd, data, length);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        data += written;
        length -= (size_t) written;
    }
    return 0;
}

//  fsync the directory that holds path, so that a rename into it lasts.
static int
s_sync_directory (const char *path, char *err, size_t errlen)
{
    char *directory = strdup (path);
    if (!directory) {
        s_set_error (err, errlen, "strdup", path, ENOMEM);
        return -1;
    }
    char *slash = strrchr (directory, '/');
    if (!slash)
        strcpy (directory, ".");
    else
    if (slash == directory)
        slash [1] = 0;
    else
        *slash = 0;

    int rc = -1;
    int fd = open (directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        s_set_error (err, errlen, "open", directory, errno);
    else
    if (fsync (fd) < 0)
        s_set_error (err, errlen, "fsync", directory, errno);
    else
        rc = 0;
    if (fd >= 0)
        close (fd);
    free (directory);
    return rc;
}

//  Write a file so that it is either all old or all new.
int
report_write_atomic (const char *path, const char *data, size_t length,
                     char *err, size_t errlen)
{
    assert (path);
    assert (data || length == 0);
    int fd = -1;
    bool created = false;
    char *temporary = NULL;
    if (asprintf (&temporary, "%s.tmp", path) < 0) {
        temporary = NULL;
        s_set_error (err, errlen, "asprintf", path, ENOMEM);
        goto fail;
    }
    fd = open (temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        s_set_error (err, errlen, "open", temporary, errno);
        goto fail;
    }
    created = true;
    if (s_write_all (fd, data, length) < 0) {
        s_set_error (err, errlen, "write", temporary, errno);
        goto fail;
    }
    if (fsync (fd) < 0) {
        s_set_error (err, errlen, "fsync", temporary, errno);
        goto fail;
    }
    int rc = close (fd);
    fd = -1;
    if (rc < 0) {
        s_set_error (err, errlen, "close", temporary, errno);
        goto fail;
    }
    if (rename (temporary, path) < 0) {
        s_set_error (err, errlen, "rename", temporary, errno);
        goto fail;
    }
    free (temporary);
    return s_sync_directory (path, err, errlen);

fail:
    if (fd >= 0)
        close (fd);
    //  The half-written temporary file goes; the old PATH stays as it was.
    if (created)
        unlink (temporary);
    free (temporary);
    return -1;
}

//  Render a run with render() in memory, then write it atomically.
static int
s_render_write (const run_result_t *run, void (*render) (const run_result_t *, FILE *),
                const char *path, char *err, size_t errlen)
{
    assert (run);
    assert (path);
    char *text = NULL;
    size_t length = 0;
    FILE *memory = open_memstream (&text, &length);
    if (!memory) {
        s_set_error (err, errlen, "open_memstream", path, errno);
        return -1;
    }
    render (run, memory);
    if (fclose (memory) != 0) {
        s_set_error (err, errlen, "fclose", path, errno);
        free (text);
        return -1;
    }
    int rc = report_write_atomic (path, text, length, err, errlen);
    free (text);
    return rc;
}

//  report_csv into a file, atomically.
int
report_csv_write (const run_result_t *run, const char *path, char *err, size_t errlen)
{
    return s_render_write (run, report_csv, path, err, errlen);
}

//  report_html into a file, atomically.
int
report_html_write (const run_result_t *run, const char *path, char *err, size_t errlen)
{
    return s_render_write (run, report_html, path, err, errlen);
}

//  A format's name to its value.
int
report_format_parse (const char *name)
{
    static const char *const names [] = { "text", "json", "csv", "html" };
    for (size_t nbr = 0; nbr < sizeof names / sizeof names [0]; nbr++)
        if (strcmp (name, names [nbr]) == 0)
            return (int) nbr;
    return -1;
}

//  Render a run in one of the formats.
int
report_render (const run_result_t *run, report_format_t format, FILE *out)
{
    assert (run);
    assert (out);
    switch (format) {
        case REPORT_FORMAT_TEXT:
            report_text (run, out);
            return 0;
        case REPORT_FORMAT_CSV:
            report_csv (run, out);
            return 0;
        case REPORT_FORMAT_HTML:
            report_html (run, out);
            return 0;
        case REPORT_FORMAT_JSON: {
            char *text = report_json_text (run);
            if (!text)
                return -1;
            fputs (text, out);
            free (text);
            return 0;
        }
    }
    return -1;
}
