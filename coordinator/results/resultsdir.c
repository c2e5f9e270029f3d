/*  coordinator/results/resultsdir.c: a run's results directory; see resultsdir.h.

    Every file goes through one of two writers: report_write_atomic for the
    files rewritten whole (scenario.ini, the reports, the --json copy), and
    the append below for samples.jsonl, which grows by one test at a time.
    Each file remembers whether its last write failed, why, and how many
    tests it holds, so that the end of the run can say exactly what is
    missing rather than leave an empty or stale file to be found later.
*/
#include "results_file.h"
#include "resultsdir.h"
#include "../report/report.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RESULTSDIR_DEFAULT_ROOT "results"

//  How many runs may start within one second with one scenario.
#define RESULTSDIR_SUFFIX_MAX   1000

//  Bytes of a reason kept per file.
#define RESULTSDIR_ERROR_MAX    512

#define SCENARIO_FILE   "scenario.ini"
#define SAMPLES_FILE    "samples.jsonl"

//  One file of the results, and what became of it.
typedef struct {
    const char *name;               //  as messages name it (borrowed)
    char path [PATH_MAX + 64];      //  where it is written
    bool used;                      //  part of this run's results
    bool written;                   //  a write succeeded at least once
    bool failed;                    //  the last write failed
    size_t tests;                   //  tests it holds after its last good write
    char error [RESULTSDIR_ERROR_MAX];  //  why the last write failed
} s_file_t;

struct _resultsdir_t {
    char path [PATH_MAX];           //  the directory
    size_t tests;                   //  tests recorded so far
    FILE *samples;                  //  samples.jsonl, NULL once it failed
    off_t samples_whole;            //  its bytes up to the last whole test
    s_file_t scenario;              //  scenario.ini
    s_file_t samples_file;          //  samples.jsonl
    s_file_t reports [REPORT_FORMAT_FILES];    //  one per format, in table order
    s_file_t copy;                  //  --json FILE
};


//  --------------------------------------------------------------------------
//  Files and their fate

//  Take a file into the results, at dir/name or, with a NULL dir, at name.
static void
s_file_init (s_file_t *file, const char *dir, const char *name)
{
    file->name = name;
    file->used = true;
    if (dir)
        snprintf (file->path, sizeof file->path, "%s/%s", dir, name);
    else
        snprintf (file->path, sizeof file->path, "%s", name);
}

//  A write of file failed with reason (printf-style): say so the first
//  time, and keep the reason for the end.
static void
s_file_failed (s_file_t *file, const char *format, ...)
    __attribute__ ((format (printf, 2, 3)));

static void
s_file_failed (s_file_t *file, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    vsnprintf (file->error, sizeof file->error, format, args);
    va_end (args);
    if (!file->failed)
        fprintf (stderr, "iofleet: results: %s could not be written: %s\n",
                 file->name, file->error);
    file->failed = true;
}

//  A write of file succeeded; it now holds tests tests.
static void
s_file_written (s_file_t *file, size_t tests)
{
    file->written = true;
    file->failed = false;
    file->tests = tests;
}

//  Write a whole file atomically and note how it went.
static void
s_file_replace (s_file_t *file, const char *data, size_t length, size_t tests)
{
    char err [RESULTSDIR_ERROR_MAX];
    if (report_write_atomic (file->path, data, length, err, sizeof err))
        s_file_failed (file, "%s", err);
    else
        s_file_written (file, tests);
}

//  Render the run in a format into a file and note how it went.
static void
s_file_render (s_file_t *file, const report_format_t *format, const run_result_t *run)
{
    char err [RESULTSDIR_ERROR_MAX];
    if (report_format_write (format, run, file->path, err, sizeof err))
        s_file_failed (file, "%s", err);
    else
        s_file_written (file, run->test_count);
}


//  --------------------------------------------------------------------------
//  The directory

//  Whether name is one of the files a run writes into its directory.
static bool
s_is_results_file (const char *name)
{
    if (strcmp (name, SCENARIO_FILE) == 0 || strcmp (name, SAMPLES_FILE) == 0)
        return true;
    for (size_t nbr = 0; nbr < REPORT_FORMAT_FILES; nbr++)
        if (strcmp (name, report_formats [nbr].file_name) == 0)
            return true;
    return false;
}

//  May DIR take a run's results?
//  A directory that does not exist yet is made with its parents once the
//  agents have answered: whether it can be is found out now, by making
//  a directory in its nearest existing ancestor and removing it again
//  (/proc/self/x, a read-only or full file system, a file on the way).
static int
s_check_makeable (const char *dir, char *err, size_t errlen)
{
    char ancestor [PATH_MAX];
    snprintf (ancestor, sizeof ancestor, "%s", dir);
    struct stat st;
    for (;;) {
        char *slash = strrchr (ancestor, '/');
        while (slash && slash > ancestor && slash [1] == 0) {
            *slash = 0;                 //  a trailing slash names the same directory
            slash = strrchr (ancestor, '/');
        }
        if (!slash)
            snprintf (ancestor, sizeof ancestor, ".");
        else
            slash [slash == ancestor? 1: 0] = 0;
        if (stat (ancestor, &st) == 0)
            break;
        if (errno != ENOENT || strcmp (ancestor, ".") == 0 || strcmp (ancestor, "/") == 0) {
            snprintf (err, errlen, "-o %s: stat(%s): %s", dir, ancestor, strerror (errno));
            return -1;
        }
    }
    if (!S_ISDIR (st.st_mode)) {
        snprintf (err, errlen, "-o %s: %s is not a directory", dir, ancestor);
        return -1;
    }
    char probe [PATH_MAX + 64];
    snprintf (probe, sizeof probe, "%s/.iofleet-check-%ld", ancestor, (long) getpid ());
    if (mkdir (probe, 0700) < 0 && errno != EEXIST) {
        snprintf (err, errlen, "-o %s: cannot make a directory in %s: %s", dir, ancestor,
                  strerror (errno));
        return -1;
    }
    rmdir (probe);
    return 0;
}

int
resultsdir_check (const char *dir, char *err, size_t errlen)
{
    if (!dir)
        return 0;
    if (!dir [0]) {
        snprintf (err, errlen, "-o '': an empty path names no directory");
        return -1;
    }
    struct stat st;
    if (stat (dir, &st) < 0) {
        if (errno == ENOENT)
            return s_check_makeable (dir, err, errlen);
        snprintf (err, errlen, "-o %s: stat: %s", dir, strerror (errno));
        return -1;
    }
    if (!S_ISDIR (st.st_mode)) {
        snprintf (err, errlen, "-o %s: not a directory", dir);
        return -1;
    }
    DIR *handle = opendir (dir);
    if (!handle) {
        snprintf (err, errlen, "-o %s: opendir: %s", dir, strerror (errno));
        return -1;
    }
    int rc = 0;
    struct dirent *entry;
    while (rc == 0 && (entry = readdir (handle)))
        if (s_is_results_file (entry->d_name)) {
            snprintf (err, errlen, "-o %s: holds the results of another run (%s/%s); "
                      "give a new or an empty directory", dir, dir, entry->d_name);
            rc = -1;
        }
    closedir (handle);
    return rc;
}

//  mkdir with mode 0755: 0 made, 1 it exists, -1 with err on failure.
static int
s_mkdir (const char *path, char *err, size_t errlen)
{
    if (mkdir (path, 0755) == 0)
        return 0;
    if (errno == EEXIST)
        return 1;
    snprintf (err, errlen, "mkdir(%s): %s", path, strerror (errno));
    return -1;
}

//  mkdir -p of every directory above path (not path itself).
static int
s_make_parents (const char *path, char *err, size_t errlen)
{
    char buf [PATH_MAX];
    if (snprintf (buf, sizeof buf, "%s", path) >= (int) sizeof buf) {
        snprintf (err, errlen, "%s: path too long", path);
        return -1;
    }
    for (char *slash = strchr (buf + 1, '/'); slash; slash = strchr (slash + 1, '/')) {
        *slash = 0;
        if (s_mkdir (buf, err, errlen) < 0)
            return -1;
        *slash = '/';
    }
    return 0;
}

//  Make the directory of an explicit -o DIR: new, or one that exists and
//  holds no results (checked again: another run may have filled it since).
static int
s_make_given (resultsdir_t *self, const char *dir, char *err, size_t errlen)
{
    snprintf (self->path, sizeof self->path, "%s", dir);
    if (s_make_parents (self->path, err, errlen))
        return -1;
    int made = s_mkdir (self->path, err, errlen);
    return made == 1? resultsdir_check (self->path, err, errlen): made;
}

//  Make results/<scenario stem>-<UTC time>, sortable and the run's own:
//  created exclusively, with -2, -3, ... when a run of the same second
//  took it first.
static int
s_make_default (resultsdir_t *self, const char *scenario_path, char *err, size_t errlen)
{
    const char *base = strrchr (scenario_path, '/');
    base = base? base + 1: scenario_path;
    int stem = (int) strcspn (base, ".");
    time_t now = time (NULL);
    struct tm tm;
    gmtime_r (&now, &tm);
    char stamp [32];
    strftime (stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    for (int suffix = 1; suffix <= RESULTSDIR_SUFFIX_MAX; suffix++) {
        if (suffix == 1)
            snprintf (self->path, sizeof self->path, RESULTSDIR_DEFAULT_ROOT "/%.*s-%s",
                      stem, base, stamp);
        else
            snprintf (self->path, sizeof self->path, RESULTSDIR_DEFAULT_ROOT "/%.*s-%s-%d",
                      stem, base, stamp, suffix);
        if (suffix == 1 && s_make_parents (self->path, err, errlen))
            return -1;
        int made = s_mkdir (self->path, err, errlen);
        if (made <= 0)
            return made;
    }
    snprintf (err, errlen, "mkdir(%s): %d directories of this scenario and second exist",
              self->path, RESULTSDIR_SUFFIX_MAX);
    return -1;
}

//  Open samples.jsonl, new in the new directory.
static void
s_open_samples (resultsdir_t *self)
{
    s_file_t *file = &self->samples_file;
    int fd = open (file->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0 && (self->samples = fdopen (fd, "w")))
        s_file_written (file, 0);
    else {
        s_file_failed (file, "%s(%s): %s", fd < 0? "open": "fdopen", file->path,
                       strerror (errno));
        if (fd >= 0)
            close (fd);
    }
}

//  Make the run's directory and open its samples file.
resultsdir_t *
resultsdir_new (const char *dir, const char *scenario_path, const char *json_path,
                char *err, size_t errlen)
{
    assert (scenario_path);
    resultsdir_t *self = (resultsdir_t *) calloc (1, sizeof (resultsdir_t));
    if (!self) {
        snprintf (err, errlen, "results directory: %s", strerror (ENOMEM));
        return NULL;
    }
    if (dir? s_make_given (self, dir, err, errlen)
           : s_make_default (self, scenario_path, err, errlen)) {
        free (self);
        return NULL;
    }
    s_file_init (&self->scenario, self->path, SCENARIO_FILE);
    s_file_init (&self->samples_file, self->path, SAMPLES_FILE);
    for (size_t nbr = 0; nbr < REPORT_FORMAT_FILES; nbr++)
        s_file_init (&self->reports [nbr], self->path, report_formats [nbr].file_name);
    if (json_path)
        s_file_init (&self->copy, NULL, json_path);
    s_open_samples (self);
    return self;
}

//  Close what is open; the directory stays.
void
resultsdir_destroy (resultsdir_t **self_p)
{
    assert (self_p);
    resultsdir_t *self = *self_p;
    if (!self)
        return;
    if (self->samples)
        fclose (self->samples);
    free (self);
    *self_p = NULL;
}

//  The directory.
const char *
resultsdir_path (resultsdir_t *self)
{
    assert (self);
    return self->path;
}


//  --------------------------------------------------------------------------
//  Writing

void
resultsdir_save_scenario (resultsdir_t *self, const scenario_t *scenario)
{
    assert (self);
    assert (scenario);
    s_file_t *file = &self->scenario;
    char *text = NULL;
    size_t length = 0;
    FILE *memory = open_memstream (&text, &length);
    if (!memory) {
        s_file_failed (file, "open_memstream: %s", strerror (errno));
        return;
    }
    fwrite (scenario->text, 1, scenario->text_length, memory);
    fprintf (memory, "\n; endpoints as run\n");
    for (size_t i = 0; i < scenario->agent_count; i++)
        fprintf (memory, "; --agent %s=%s\n", scenario->agents [i].name,
                 scenario->agents [i].endpoint);
    if (fclose (memory) != 0)
        s_file_failed (file, "%s: %s", file->path, strerror (ENOMEM));
    else
        s_file_replace (file, text, length, 0);
    free (text);
}

//  One more test's samples, on disk before its reports.
void
resultsdir_append_samples (resultsdir_t *self, const test_result_t *test)
{
    assert (self);
    assert (test);
    self->tests++;
    if (!self->samples)
        return;                     //  failed before: it takes no more
    s_file_t *file = &self->samples_file;
    const char *what = "write";
    errno = 0;
    int rc = results_json_samples_append (test, self->samples);
    if (rc == 0 && fflush (self->samples) != 0)
        rc = -1;
    //  On disk before the reports that count this test are.
    if (rc == 0 && fdatasync (fileno (self->samples)) != 0) {
        what = "fdatasync";
        rc = -1;
    }
    off_t whole = rc == 0? ftello (self->samples): -1;
    if (whole >= 0) {
        self->samples_whole = whole;
        s_file_written (file, self->tests);
        return;
    }
    s_file_failed (file, "%s(%s): %s", what, file->path, strerror (errno? errno: EIO));
    //  What the failed write left is half a test at best: the file goes
    //  back to the whole tests before it, which the reader takes as they
    //  are, and is not written again.
    fclose (self->samples);
    self->samples = NULL;
    if (truncate (file->path, self->samples_whole) < 0) {
        size_t used = strlen (file->error);
        snprintf (file->error + used, sizeof file->error - used, "; truncate: %s",
                  strerror (errno));
    }
}

//  Every format's file, and the --json copy, from the run so far.
void
resultsdir_write_reports (resultsdir_t *self, const run_result_t *run)
{
    assert (self);
    assert (run);
    for (size_t nbr = 0; nbr < REPORT_FORMAT_FILES; nbr++)
        s_file_render (&self->reports [nbr], &report_formats [nbr], run);
    if (self->copy.used)
        s_file_render (&self->copy, &report_formats [REPORT_FORMAT_JSON], run);
}


//  --------------------------------------------------------------------------
//  The end

//  Every file of the results, in the order they are listed.
static size_t
s_files (resultsdir_t *self, s_file_t **files)
{
    size_t count = 0;
    files [count++] = &self->scenario;
    files [count++] = &self->samples_file;
    for (size_t nbr = 0; nbr < REPORT_FORMAT_FILES; nbr++)
        files [count++] = &self->reports [nbr];
    if (self->copy.used)
        files [count++] = &self->copy;
    return count;
}

#define RESULTSDIR_FILES_MAX (3 + REPORT_FORMAT_FILES)

//  Whether some file could not be written.
bool
resultsdir_failed (resultsdir_t *self)
{
    assert (self);
    s_file_t *files [RESULTSDIR_FILES_MAX];
    size_t count = s_files (self, files);
    for (size_t nbr = 0; nbr < count; nbr++)
        if (files [nbr]->failed)
            return true;
    return false;
}

//  What is missing and why, then what is complete.
void
resultsdir_print_problems (resultsdir_t *self, FILE *out)
{
    assert (self);
    if (!resultsdir_failed (self))
        return;
    s_file_t *files [RESULTSDIR_FILES_MAX];
    size_t count = s_files (self, files);
    for (size_t nbr = 0; nbr < count; nbr++) {
        const s_file_t *file = files [nbr];
        if (!file->failed)
            continue;
        fprintf (out, "iofleet: results: %s could not be written: %s", file->name, file->error);
        if (file == &self->samples_file)
            fprintf (out, "; it holds the samples of %zu of %zu tests", file->tests, self->tests);
        else
        if (file != &self->scenario && file->written)
            fprintf (out, "; it holds the first %zu of %zu tests", file->tests, self->tests);
        else
        if (file != &self->scenario)
            fprintf (out, "; it is missing");
        fputc ('\n', out);
    }
    const char *separator = ": ";
    fprintf (out, "iofleet: results: complete");
    for (size_t nbr = 0; nbr < count; nbr++)
        if (files [nbr]->written && !files [nbr]->failed) {
            fprintf (out, "%s%s", separator, files [nbr]->name);
            separator = ", ";
        }
    fprintf (out, "%s\n", separator [0] == ':'? ": none": "");
}
