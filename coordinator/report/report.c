/*  coordinator/report/report.c: the table of formats and the one atomic
    file writer every report file goes through; see report.h.

    The renderers (text.c, json.c, csv.c, html.c, fio_json.c,
    bonnie_csv.c) only print to a FILE;
    nothing here is called by them, so that a format is one row below and
    one function in its own file.
*/
#include "../results/results_file.h"
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

//  Open PATH.tmp beside path for writing, its name into *temporary (the
//  caller's to free). Returns the descriptor, or -1 with err.
static int
s_open_temporary (const char *path, char **temporary, char *err, size_t errlen)
{
    if (asprintf (temporary, "%s.tmp", path) < 0) {
        *temporary = NULL;
        s_set_error (err, errlen, "asprintf", path, ENOMEM);
        return -1;
    }
    int fd = open (*temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        s_set_error (err, errlen, "open", *temporary, errno);
    return fd;
}

//  The temporary file is whole: to disk, then over path, then the
//  directory to disk, so that the rename lasts. Closes fd. Returns 0, or
//  -1 with err (the caller removes the temporary file).
static int
s_commit (int fd, const char *temporary, const char *path, char *err, size_t errlen)
{
    if (fsync (fd) < 0) {
        s_set_error (err, errlen, "fsync", temporary, errno);
        close (fd);
        return -1;
    }
    if (close (fd) < 0) {
        s_set_error (err, errlen, "close", temporary, errno);
        return -1;
    }
    if (rename (temporary, path) < 0) {
        s_set_error (err, errlen, "rename", temporary, errno);
        return -1;
    }
    return s_sync_directory (path, err, errlen);
}

//  Write a file so that it is either all old or all new.
int
report_write_atomic (const char *path, const char *data, size_t length,
                     char *err, size_t errlen)
{
    assert (path);
    assert (data || length == 0);
    char *temporary = NULL;
    int fd = s_open_temporary (path, &temporary, err, errlen);
    int rc = -1;
    if (fd < 0)
        goto done;
    if (s_write_all (fd, data, length) < 0) {
        s_set_error (err, errlen, "write", temporary, errno);
        close (fd);
    }
    else
        rc = s_commit (fd, temporary, path, err, errlen);
    //  The half-written temporary file goes; the old PATH stays as it was.
    if (rc)
        unlink (temporary);
done:
    free (temporary);
    return rc;
}

//  --------------------------------------------------------------------------
//  The formats

const report_format_t report_formats [REPORT_FORMAT_COUNT] = {
    { REPORT_FORMAT_TEXT, "text", "report.txt", text_report },
    { REPORT_FORMAT_JSON, "json", "results.json", results_json_write },
    { REPORT_FORMAT_CSV, "csv", "report.csv", csv_report },
    { REPORT_FORMAT_HTML, "html", "report.html", html_report },
    { REPORT_FORMAT_FIO_JSON, "fio-json", NULL, fio_json_report },
    { REPORT_FORMAT_BONNIE_CSV, "bonnie-csv", NULL, bonnie_csv_report }
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

//  --format NAME of a command: its format, or NULL when it has none (the
//  problem printed on stderr).
const report_format_t *
report_format_flag (const char *command, const char *name)
{
    const report_format_t *format = report_format_find (name);
    if (!format) {
        fprintf (stderr, "iofleet %s: --format %s: expected", command, name);
        for (size_t nbr = 0; nbr < REPORT_FORMAT_COUNT; nbr++)
            fprintf (stderr, "%s %s", nbr == 0? "": nbr + 1 < REPORT_FORMAT_COUNT? ",": " or",
                     report_formats [nbr].name);
        fputc ('\n', stderr);
    }
    return format;
}

//  Render a run straight into PATH.tmp, then put it in place atomically:
//  the report of a fleet is never held whole in memory.
int
report_format_write (const report_format_t *format, const run_result_t *run,
                     const char *path, char *err, size_t errlen)
{
    assert (format);
    assert (run);
    assert (path);
    char *temporary = NULL;
    int fd = s_open_temporary (path, &temporary, err, errlen);
    FILE *file = fd < 0? NULL: fdopen (dup (fd), "w");
    int rc = -1;
    if (fd >= 0 && !file)
        s_set_error (err, errlen, "fdopen", temporary, errno);
    if (file) {
        //  A rendering that failed (memory, a full disk) is not put in
        //  place at all: half a report would pass for the whole one.
        //  A write that failed (a full disk) fails the rendering too, and
        //  is the reason: errno is taken before anything else can set it.
        errno = 0;
        int rendered = format->render (run, file);
        int saved = errno;
        int flushed = fflush (file);
        if (flushed && !saved)
            saved = errno;
        bool failed = ferror (file);
        fclose (file);
        if (rendered && !failed) {
            if (err && errlen)
                snprintf (err, errlen, "render %s(%s): %s", format->name, path, strerror (ENOMEM));
        }
        else
        if (flushed || failed)
            s_set_error (err, errlen, "write", temporary, saved? saved: EIO);
        else {
            rc = s_commit (fd, temporary, path, err, errlen);
            fd = -1;
        }
    }
    if (fd >= 0)
        close (fd);
    if (rc && temporary)
        unlink (temporary);
    free (temporary);
    return rc;
}
