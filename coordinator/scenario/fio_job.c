/*  coordinator/scenario/fio_job.c: a fio job file made an iofleet
    scenario; see fio_job.h. What fio's keys mean is learned from fio's
    documentation, not from its code.
*/
#include "fio_job.h"
#include "fio_job_state.h"
#include "fio_keys.h"
#include "../../proto/inifile.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Files included one in another.
#define S_DEPTH_MAX 4

//  Record an error of the file at path, at line about key (NULL: none).
static void
s_fail_in (fio_state_t *self, const char *path, int line, const char *key, const char *format,
           va_list args)
{
    char text [JOB_PATH_MAX + SCENARIO_KEY_QUOTE_MAX + 2 * SCENARIO_REASON_MAX];
    scenario_error_va (text, sizeof text, path, line, key, format, args);
    scenario_errors_add (&self->errors, path, text);
}

//  An error of the file being read.
static void
s_fail (fio_state_t *self, int line, const char *key, const char *format, ...)
    __attribute__ ((format (printf, 4, 5)));

static void
s_fail (fio_state_t *self, int line, const char *key, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    s_fail_in (self, self->path, line, key, format, args);
    va_end (args);
}

void
fio_state_fail_at (fio_state_t *self, const fio_pair_t *pair, const char *key,
                   const char *format, ...)
{
    va_list args;
    va_start (args, format);
    s_fail_in (self, pair->path, pair->line, key, format, args);
    va_end (args);
}

//  Set key to value in pairs, replacing a value given before.
static void
s_set (fio_state_t *self, fio_pairs_t *pairs, const char *key, const char *value, int line)
{
    size_t i = 0;
    while (i < pairs->count && strcmp (pairs->pairs [i].key, key) != 0)
        i++;
    if (i == FIO_PAIRS_MAX) {
        s_fail (self, line, key, "a section may hold at most %d keys", FIO_PAIRS_MAX);
        return;
    }
    fio_pair_t *pair = &pairs->pairs [i];
    snprintf (pair->key, sizeof pair->key, "%s", key);
    snprintf (pair->value, sizeof pair->value, "%s", value);
    pair->path = self->path;
    pair->line = line;
    if (i == pairs->count)
        pairs->count++;
}

const fio_pair_t *
fio_state_get (const fio_state_t *self, const char *key)
{
    for (size_t i = 0; i < self->job.count; i++)
        if (strcmp (self->job.pairs [i].key, key) == 0)
            return &self->job.pairs [i];
    for (size_t i = 0; i < self->global.count; i++)
        if (strcmp (self->global.pairs [i].key, key) == 0)
            return &self->global.pairs [i];
    return NULL;
}

bool
fio_state_flag (const fio_state_t *self, const char *key)
{
    const fio_pair_t *pair = fio_state_get (self, key);
    return pair && strcmp (pair->value, "0") != 0;
}

void
fio_state_put (fio_state_t *self, const fio_pair_t *from, const char *format, ...)
{
    char text [FIO_KEY_MAX + FIO_VALUE_MAX + JOB_PATH_MAX + 256];
    va_list args;
    va_start (args, format);
    vsnprintf (text, sizeof text, format, args);
    va_end (args);
    fputs (text, self->out);
    for (const char *at = text; (at = strchr (at, '\n')); at++) {
        self->out_line++;
        if (self->map)
            fio_job_map_add (self->map, self->out_line, from? from->path: self->job_path,
                             from? from->line: self->job_line, from? from->key: NULL);
    }
}

//  Keys that are read below, apart from those fio_keys maps.
static const char *const s_read_keys [] = {
    "name", "filename", "directory", "size", "filesize", "bs", "blocksize", "rw",
    "readwrite", "rwmixread", "rwmixwrite", "numjobs", "iodepth", "ioengine", "direct",
    "buffered", "runtime", "time_based", "ramp_time", "fsync", "fdatasync", "end_fsync",
    "rate", "rate_iops", "random_distribution", "randseed", "stonewall", "new_group",
    "wait_for_previous", "group_reporting", "nrfiles", "number_ios", "fallocate", "iomem",
    "mem", NULL
};

//  Refuse key at line unless this translation reads it, with what to
//  use. Returns 0 if it is read.
static int
s_refuse (fio_state_t *self, int line, const char *key)
{
    for (size_t k = 0; s_read_keys [k]; k++)
        if (strcmp (s_read_keys [k], key) == 0)
            return 0;
    const fio_key_t *row = fio_keys_find (key);
    if (row && row->otherwise)
        s_fail (self, line, key, "not supported in a fio job file here; use %s",
                row->otherwise);
    else
        s_fail (self, line, key, "not supported in a fio job file here (iofleet-scenario(5) "
                "lists the fio keys it reads)");
    return -1;
}

//  --------------------------------------------------------------------
//  Lines

//  Copy value into out with every ${VAR} replaced by the environment's.
//  Returns 0, or -1 after an error.
static int
s_expand (fio_state_t *self, int line, const char *key, const char *value, char *out, size_t outlen)
{
    size_t used = 0;
    for (const char *at = value; *at; ) {
        const char *piece = at;
        size_t length = 1;
        char name [FIO_KEY_MAX + 1];
        if (at [0] == '$' && at [1] == '{') {
            const char *close = strchr (at, '}');
            if (!close || (size_t) (close - at - 2) > FIO_KEY_MAX) {
                s_fail (self, line, key, "a ${ without its }");
                return -1;
            }
            snprintf (name, sizeof name, "%.*s", (int) (close - at - 2), at + 2);
            piece = getenv (name);
            if (!piece) {
                s_fail (self, line, key, "${%s} is not set in the environment", name);
                return -1;
            }
            length = strlen (piece);
            at = close + 1;
        }
        else
            at++;
        if (used + length >= outlen) {
            s_fail (self, line, key, "the value is longer than %zu characters", outlen - 1);
            return -1;
        }
        memcpy (out + used, piece, length);
        used += length;
    }
    out [used] = 0;
    return 0;
}

static void s_include (fio_state_t *self, int line, const char *name);

//  One line of the file, trimmed, at line.
static void
s_line (fio_state_t *self, int line, char *text)
{
    if (!*text || *text == ';' || *text == '#')
        return;
    if (*text == '[') {
        char *close = strchr (text, ']');
        if (!close || close [1]) {
            s_fail (self, line, text, "a section header is [NAME]");
            return;
        }
        *close = 0;
        fio_job_write (self);
        const char *name = text + 1;
        self->in_global = strcmp (name, "global") == 0;
        if (self->in_global)
            return;
        char reason [SCENARIO_REASON_MAX];
        if (scenario_check_name (name, strlen (name), reason, sizeof reason)) {
            s_fail (self, line, name, "%s", reason);
            return;
        }
        snprintf (self->job_name, sizeof self->job_name, "%s", name);
        self->job_line = line;
        self->job_path = self->path;
        return;
    }
    char *equals = strchr (text, '=');
    char *value = equals? equals + 1: "1";
    char *key_end = equals? equals: text + strlen (text);
    while (key_end > text && isspace ((unsigned char) key_end [-1]))
        key_end--;
    *key_end = 0;
    while (isspace ((unsigned char) *value))
        value++;
    if (strncmp (text, "include", 7) == 0
    &&  (text [7] == 0 || isspace ((unsigned char) text [7]))) {
        s_include (self, line, text + 7);
        return;
    }
    if (strlen (text) > FIO_KEY_MAX) {
        s_fail (self, line, text, "not a key of fio's");
        return;
    }
    char expanded [FIO_VALUE_MAX + 1];
    if (s_refuse (self, line, text) || s_expand (self, line, text, value, expanded,
                                                 sizeof expanded))
        return;
    if (self->in_global)
        s_set (self, &self->global, text, expanded, line);
    else
    if (self->job_name [0])
        s_set (self, &self->job, text, expanded, line);
    else
        s_fail (self, line, text, "comes before any section: start with [global] or [NAME]");
}

//  Every line of text, the file being read.
static void
s_lines (fio_state_t *self, char *text)
{
    int line = 0;
    for (char *at = text, *end; at && *at; at = end) {
        end = strchr (at, '\n');
        if (end)
            *end++ = 0;
        line++;
        size_t span = strlen (at);
        while (span > 0 && isspace ((unsigned char) at [span - 1]))
            at [--span] = 0;
        while (isspace ((unsigned char) *at))
            at++;
        s_line (self, line, at);
    }
}

//  What a fio job file may hold.
static const inifile_limits_t s_limits = {
    .what = "fio job", .file_max = SCENARIO_FILE_MAX, .line_max = SCENARIO_LINE_MAX
};

//  An include line at line: read the file it names (relative to the
//  directory of the file being read) as if its lines stood here.
static void
s_include (fio_state_t *self, int line, const char *name)
{
    while (isspace ((unsigned char) *name))
        name++;
    if (!*name) {
        s_fail (self, line, "include", "names no file");
        return;
    }
    if (self->depth == S_DEPTH_MAX || self->include_count == FIO_INCLUDES_MAX) {
        s_fail (self, line, "include", "more than %d files included, or %d within each other",
                FIO_INCLUDES_MAX, S_DEPTH_MAX);
        return;
    }
    const char *slash = strrchr (self->path, '/');
    char *path = NULL;
    if (asprintf (&path, "%.*s%s", name [0] == '/' || !slash? 0: (int) (slash - self->path + 1),
                  self->path, name) < 0) {
        s_fail (self, line, "include", "out of memory");
        return;
    }
    self->includes [self->include_count++] = path;
    char *text = NULL;
    size_t length = 0;
    char reason [JOB_PATH_MAX + SCENARIO_REASON_MAX];
    if (inifile_load (path, &s_limits, &text, &length, reason, sizeof reason)) {
        s_fail (self, line, "include", "%s", reason);
        return;
    }
    const char *outer = self->path;
    self->path = path;
    self->depth++;
    s_lines (self, text);
    self->depth--;
    self->path = outer;
    free (text);
}

//  --------------------------------------------------------------------
//  Public functions

bool
fio_job_is_fio (const char *path)
{
    size_t length = strlen (path);
    return length > 4 && strcmp (path + length - 4, ".fio") == 0;
}

char *
fio_job_translate (const char *path, const char *agent, fio_job_map_t *map, char *err,
                   size_t errlen)
{
    char *text = NULL, *scenario = NULL;
    size_t length = 0, scenario_length = 0;
    err [0] = 0;
    if (inifile_load (path, &s_limits, &text, &length, err, errlen))
        return NULL;
    fio_state_t *self = calloc (1, sizeof *self);
    FILE *out = self? open_memstream (&scenario, &scenario_length): NULL;
    if (!out) {
        scenario_error (err, errlen, path, 0, NULL, "out of memory");
        free (self);
        free (text);
        return NULL;
    }
    *self = (fio_state_t) { .path = path, .agent = agent, .out = out, .map = map,
                        .job_path = path };
    fio_state_put (self, NULL, "; %s, as an iofleet scenario; its jobs run on %s, which run "
                   "JOB.fio\n; makes a [group %s] of the agents of --hosts and --agent\n", path,
                   agent, agent);
    s_lines (self, text);
    fio_job_write (self);
    if (!self->test [0] && !self->errors.total)
        s_fail (self, 0, NULL, "holds no job section");
    fclose (out);
    if (self->errors.total || self->errors.nomem) {
        scenario_errors_write (&self->errors, path, err, errlen);
        scenario_errors_clear (&self->errors);
        free (scenario);
        scenario = NULL;
    }
    for (size_t i = 0; i < self->include_count; i++)
        free (self->includes [i]);
    free (self);
    free (text);
    return scenario;
}
