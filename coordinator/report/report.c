/*  coordinator/report/report.c: the table of formats and the one atomic
    file writer every report file goes through; see report.h.

    The renderers (text.c, json.c, csv.c, html.c) only print to a FILE;
    nothing here is called by them, so that a format is one row below and
    one function in its own file.
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

//  --------------------------------------------------------------------------
//  The formats

const report_format_t report_formats [REPORT_FORMAT_COUNT] = {
    { REPORT_FORMAT_TEXT, "text", "report.txt", report_text },
    { REPORT_FORMAT_JSON, "json", "results.json", report_json },
    { REPORT_FORMAT_CSV, "csv", "report.csv", report_csv },
    { REPORT_FORMAT_HTML, "html", "report.html", report_html }
};

//  A format's row by its name.
const report_format_t *
report_format_find (const char *name)
{
    assert (name);
    for (size_t nbr = 0; nbr < REPORT_FORMAT_COUNT; nbr++)
        if (strcmp (name, report_formats [nbr].name) == 0)
            return &report_formats [nbr];
    return NULL;
}

//  Render a run in memory, then write it atomically.
int
report_format_write (const report_format_t *format, const run_result_t *run,
                     const char *path, char *err, size_t errlen)
{
    assert (format);
    assert (run);
    assert (path);
    char *text = NULL;
    size_t length = 0;
    FILE *memory = open_memstream (&text, &length);
    if (!memory) {
        s_set_error (err, errlen, "open_memstream", path, errno);
        return -1;
    }
    int rc = format->render (run, memory);
    //  A rendering that ran out of memory is not written at all: half a
    //  report would pass for the whole one.
    if (fclose (memory) != 0 || rc != 0) {
        if (err && errlen)
            snprintf (err, errlen, "render %s(%s): %s", format->name, path, strerror (ENOMEM));
        free (text);
        return -1;
    }
    rc = report_write_atomic (path, text, length, err, errlen);
    free (text);
    return rc;
}
