/*  coordinator/scenario/fio_job.c: a fio job file made an iofleet
    scenario; see fio_job.h. What fio's keys mean is learned from fio's
    documentation, not from its code.
*/
#include "fio_job.h"
#include "fio_keys.h"
#include "scenario_rules.h"
#include "../../proto/inifile.h"

#include <ctype.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Keys one section may hold, and the bytes of a key and a value.
#define S_PAIRS_MAX 64
#define S_KEY_MAX   63
#define S_VALUE_MAX 1023

//  Files included, in all and one in another.
#define S_INCLUDES_MAX 16
#define S_DEPTH_MAX    4

//  One KEY=VALUE line.
typedef struct {
    char key [S_KEY_MAX + 1];       //  as written
    char value [S_VALUE_MAX + 1];   //  ${VAR} replaced; "1" for a bare flag
    const char *path;               //  the file it is in (the job file or an include)
    int line;                       //  its line there
} s_pair_t;

//  The keys of a section, a later one replacing an earlier of its name.
typedef struct {
    s_pair_t pairs [S_PAIRS_MAX];
    size_t count;
} s_pairs_t;

//  The translator's state while one file is read.
typedef struct {
    const char *path;               //  the file being read, for messages
    char *includes [S_INCLUDES_MAX];    //  the paths of the files included
    size_t include_count;           //  includes read
    int depth;                      //  includes within includes being read
    const char *agent;              //  where the jobs run
    FILE *out;                      //  the scenario being written
    s_pairs_t global;               //  the [global] keys so far
    s_pairs_t job;                  //  the current job's own keys
    char job_name [JOB_NAME_MAX + 1];   //  the current job, "" if none
    int job_line;                   //  line of its header
    char test [JOB_NAME_MAX + 1];   //  the test jobs join, "" before the first
    bool in_global;                 //  the current section is a [global]
    scenario_errors_t errors;       //  the errors found
} s_fio_t;

//  Record an error of the file at path, at line about key (NULL: none).
static void
s_fail_in (s_fio_t *self, const char *path, int line, const char *key, const char *format,
           va_list args)
{
    char text [JOB_PATH_MAX + SCENARIO_KEY_QUOTE_MAX + 2 * SCENARIO_REASON_MAX];
    scenario_error_va (text, sizeof text, path, line, key, format, args);
    scenario_errors_add (&self->errors, path, text);
}

//  An error of the file being read.
static void
s_fail (s_fio_t *self, int line, const char *key, const char *format, ...)
    __attribute__ ((format (printf, 4, 5)));

static void
s_fail (s_fio_t *self, int line, const char *key, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    s_fail_in (self, self->path, line, key, format, args);
    va_end (args);
}

//  An error at the line of pair, in its file.
static void
s_fail_at (s_fio_t *self, const s_pair_t *pair, const char *key, const char *format, ...)
    __attribute__ ((format (printf, 4, 5)));

static void
s_fail_at (s_fio_t *self, const s_pair_t *pair, const char *key, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    s_fail_in (self, pair->path, pair->line, key, format, args);
    va_end (args);
}

//  Set key to value in pairs, replacing a value given before.
static void
s_set (s_fio_t *self, s_pairs_t *pairs, const char *key, const char *value, int line)
{
    size_t i = 0;
    while (i < pairs->count && strcmp (pairs->pairs [i].key, key) != 0)
        i++;
    if (i == S_PAIRS_MAX) {
        s_fail (self, line, key, "a section may hold at most %d keys", S_PAIRS_MAX);
        return;
    }
    s_pair_t *pair = &pairs->pairs [i];
    snprintf (pair->key, sizeof pair->key, "%s", key);
    snprintf (pair->value, sizeof pair->value, "%s", value);
    pair->path = self->path;
    pair->line = line;
    if (i == pairs->count)
        pairs->count++;
}

//  The job's value of key (its own, else its [global]'s), or NULL.
static const s_pair_t *
s_get (const s_fio_t *self, const char *key)
{
    for (size_t i = 0; i < self->job.count; i++)
        if (strcmp (self->job.pairs [i].key, key) == 0)
            return &self->job.pairs [i];
    for (size_t i = 0; i < self->global.count; i++)
        if (strcmp (self->global.pairs [i].key, key) == 0)
            return &self->global.pairs [i];
    return NULL;
}

//  True if the job sets the flag key to anything but 0.
static bool
s_flag (const s_fio_t *self, const char *key)
{
    const s_pair_t *pair = s_get (self, key);
    return pair && strcmp (pair->value, "0") != 0;
}

//  A size as our size option parses it (fio's 4k is 4096 too), or 0.
static uint64_t
s_bytes (const char *text)
{
    jobspec_t spec;
    char reason [SCENARIO_REASON_MAX];
    jobspec_defaults (&spec);
    if (opt_parse (jobspec_option ("size"), text, &spec, reason, sizeof reason))
        return 0;
    return spec.size_bytes;
}

//  True if pair's value is a count (a number_ios); else an error at it.
static bool
s_count (s_fio_t *self, const s_pair_t *pair)
{
    jobspec_t scratch;
    char reason [SCENARIO_REASON_MAX];
    jobspec_defaults (&scratch);
    if (opt_parse (jobspec_option ("requests"), pair->value, &scratch, reason, sizeof reason) == 0)
        return true;
    s_fail_at (self, pair, pair->key, "%s", reason);
    return false;
}

//  --------------------------------------------------------------------
//  A job written as a [job] section

//  Keys that are read below, apart from those fio_keys maps.
static const char *const s_read_keys [] = {
    "name", "filename", "directory", "size", "filesize", "bs", "blocksize", "rw",
    "readwrite", "rwmixread", "rwmixwrite", "numjobs", "iodepth", "ioengine", "direct",
    "buffered", "runtime", "time_based", "ramp_time", "fsync", "end_fsync", "rate",
    "rate_iops", "random_distribution", "randseed", "stonewall", "new_group",
    "wait_for_previous", "group_reporting", "nrfiles", "number_ios", NULL
};

//  Write key = value, checked as our option key parses it: an error is
//  that of fio's key at its line (from; NULL for a value of our own).
static void
s_emit (s_fio_t *self, const char *key, const char *value, const s_pair_t *from)
{
    const opt_def_t *opt = jobspec_option (key);
    jobspec_t scratch;
    char reason [SCENARIO_REASON_MAX];
    jobspec_defaults (&scratch);
    if (from && opt && opt_parse (opt, value, &scratch, reason, sizeof reason))
        s_fail_at (self, from, from->key, "%s", reason);
    fprintf (self->out, "%s = %s\n", key, value);
}

//  Write "K = V, K = V (a remark)" from fio_keys' table as lines.
static void
s_write_pairs (FILE *out, const char *pairs)
{
    size_t length = strcspn (pairs, "(");
    while (length > 0 && pairs [length - 1] == ' ')
        length--;
    for (size_t at = 0; at < length; ) {
        size_t end = at;
        while (end < length && pairs [end] != ',')
            end++;
        fprintf (out, "%.*s\n", (int) (end - at), pairs + at);
        at = end + 1;
        while (at < length && pairs [at] == ' ')
            at++;
    }
}

//  fio's value of key by fio_keys' table into our lines, or fallback if
//  the job does not give it. Returns the table's text, or NULL after an
//  error.
static const char *
s_mapped (s_fio_t *self, const char *key, const char *fallback)
{
    const s_pair_t *pair = s_get (self, key);
    const char *value = pair? pair->value: fallback;
    const fio_key_t *row = fio_keys_find (key);
    for (const fio_value_t *each = row->values; each->fio; each++)
        if (strcmp (each->fio, value) == 0)
            return each->ours;
    s_fail_at (self, pair, key, "%s = %s is not supported here; use %s", key, value,
            row->otherwise);
    return NULL;
}

//  Refuse key at line unless this translation reads it, with what to
//  use. Returns 0 if it is read.
static int
s_refuse (s_fio_t *self, int line, const char *key)
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

//  Write the current job as a [job] section.
static void
s_job_end (s_fio_t *self)
{
    if (!self->job_name [0])
        return;
    //  name = replaces the header's name.
    char job [JOB_NAME_MAX + 1];
    snprintf (job, sizeof job, "%s", self->job_name);
    for (size_t i = 0; i < self->job.count; i++)
        if (strcmp (self->job.pairs [i].key, "name") == 0) {
            const s_pair_t *name = &self->job.pairs [i];
            char reason [SCENARIO_REASON_MAX];
            if (scenario_check_name (name->value, strlen (name->value), reason, sizeof reason))
                s_fail_at (self, name, "name", "%s", reason);
            else
                snprintf (job, sizeof job, "%s", name->value);
        }
    //  A stonewall waits for the jobs before it: a new test.
    if (!self->test [0] || s_flag (self, "stonewall") || s_flag (self, "new_group")
    ||  s_flag (self, "wait_for_previous"))
        snprintf (self->test, sizeof self->test, "%s", job);
    FILE *out = self->out;
    fprintf (out, "\n[job %s]\nagent = %s\ntest = %s\n", job, self->agent, self->test);

    const char *rw = s_mapped (self, s_get (self, "readwrite")? "readwrite": "rw", "read");
    const char *engine = s_mapped (self, "ioengine", "psync");
    if (rw)
        s_write_pairs (out, rw);
    if (engine)
        s_write_pairs (out, engine);
    bool random = rw && strstr (rw, "randrw");
    bool writes = rw && strstr (rw, "workload = write");

    //  The file: fio's default is under the job's name.
    const s_pair_t *filename = s_get (self, "filename");
    const s_pair_t *directory = s_get (self, "directory");
    fprintf (out, "path = %s%s%s\n", directory? directory->value: "", directory? "/": "",
             filename? filename->value: job);
    static const struct { const char *fio; const char *ours; } same [] = {
        { "size", "size" }, { "filesize", "size" }, { "nrfiles", "files" },
        { "numjobs", "streams" }, { "direct", "direct" }, { "rate", "rate" },
        { "rate_iops", "rate_iops" }, { "fsync", "fsync_every" },
        { "random_distribution", "random_distribution" }, { "randseed", "randseed" },
        { "ramp_time", "ramp" }
    };
    for (size_t i = 0; i < sizeof same / sizeof same [0]; i++) {
        const s_pair_t *pair = s_get (self, same [i].fio);
        if (pair)
            s_emit (self, same [i].ours, pair->value, pair);
    }
    const s_pair_t *bs = s_get (self, "bs")? s_get (self, "bs"): s_get (self, "blocksize");
    s_emit (self, "bs", bs? bs->value: "4k", bs);
    const s_pair_t *buffered = s_get (self, "buffered");
    if (buffered)
        fprintf (out, "direct = %s\n", strcmp (buffered->value, "0")? "no": "yes");
    //  fio reads a mix only for a mixed job.
    const s_pair_t *mixread = s_get (self, "rwmixread");
    const s_pair_t *mixwrite = s_get (self, "rwmixwrite");
    bool mixed = rw && strstr (rw, "mode = rndrw");
    if (mixed && mixread)
        s_emit (self, "read_pct", mixread->value, mixread);
    else
    if (mixed && mixwrite) {
        char value [32];
        snprintf (value, sizeof value, "%ld", 100 - strtol (mixwrite->value, NULL, 10));
        s_emit (self, "read_pct", value, mixwrite);
    }
    const s_pair_t *iodepth = s_get (self, "iodepth");
    if (iodepth && engine && strstr (engine, "io_uring"))
        s_emit (self, "iodepth", iodepth->value, iodepth);
    if (writes)
        fprintf (out, "fsync = %s\n", s_flag (self, "end_fsync")? "end": "none");

    //  What ends it: the runtime, or its requests.
    const s_pair_t *runtime = s_get (self, "runtime");
    bool time_based = s_flag (self, "time_based");
    if (runtime && time_based)
        s_emit (self, "runtime", runtime->value, runtime);
    else
    if (runtime)
        s_fail_at (self, runtime, "runtime", "without time_based fio ends the job at its "
                "size or its runtime, whichever comes first; here a runtime ends it: add "
                "time_based, or leave runtime out");
    else
    if (time_based)
        s_fail_at (self, s_get (self, "time_based"), "time_based", "needs a runtime");
    const s_pair_t *numjobs = s_get (self, "numjobs");
    uint64_t streams = numjobs? (uint64_t) strtoull (numjobs->value, NULL, 10): 1;
    const s_pair_t *ios = s_get (self, "number_ios");
    const s_pair_t *size = s_get (self, "size")? s_get (self, "size"): s_get (self, "filesize");
    if (ios && s_count (self, ios))
        fprintf (out, "requests = %" PRIu64 "\n",
                 (uint64_t) strtoull (ios->value, NULL, 10) * streams);
    else
    if (random && !time_based && size && bs && s_bytes (bs->value))
        fprintf (out, "requests = %" PRIu64 "\n",
                 s_bytes (size->value) / s_bytes (bs->value) * streams);
    else
    if (random && !time_based && size && !bs)
        fprintf (out, "requests = %" PRIu64 "\n", s_bytes (size->value) / 4096 * streams);
    self->job.count = 0;
    self->job_name [0] = 0;
}

//  --------------------------------------------------------------------
//  Lines

//  Copy value into out with every ${VAR} replaced by the environment's.
//  Returns 0, or -1 after an error.
static int
s_expand (s_fio_t *self, int line, const char *key, const char *value, char *out, size_t outlen)
{
    size_t used = 0;
    for (const char *at = value; *at; ) {
        const char *piece = at;
        size_t length = 1;
        char name [S_KEY_MAX + 1];
        if (at [0] == '$' && at [1] == '{') {
            const char *close = strchr (at, '}');
            if (!close || (size_t) (close - at - 2) > S_KEY_MAX) {
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

static void s_include (s_fio_t *self, int line, const char *name);

//  One line of the file, trimmed, at line.
static void
s_line (s_fio_t *self, int line, char *text)
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
        s_job_end (self);
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
    if (strlen (text) > S_KEY_MAX) {
        s_fail (self, line, text, "not a key of fio's");
        return;
    }
    char expanded [S_VALUE_MAX + 1];
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
s_lines (s_fio_t *self, char *text)
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
s_include (s_fio_t *self, int line, const char *name)
{
    while (isspace ((unsigned char) *name))
        name++;
    if (!*name) {
        s_fail (self, line, "include", "names no file");
        return;
    }
    if (self->depth == S_DEPTH_MAX || self->include_count == S_INCLUDES_MAX) {
        s_fail (self, line, "include", "more than %d files included, or %d within each other",
                S_INCLUDES_MAX, S_DEPTH_MAX);
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
fio_job_translate (const char *path, const char *agent, char *err, size_t errlen)
{
    char *text = NULL, *scenario = NULL;
    size_t length = 0, scenario_length = 0;
    err [0] = 0;
    if (inifile_load (path, &s_limits, &text, &length, err, errlen))
        return NULL;
    s_fio_t *self = calloc (1, sizeof *self);
    FILE *out = self? open_memstream (&scenario, &scenario_length): NULL;
    if (!out) {
        scenario_error (err, errlen, path, 0, NULL, "out of memory");
        free (self);
        free (text);
        return NULL;
    }
    *self = (s_fio_t) { .path = path, .agent = agent, .out = out };
    fprintf (out, "; %s, as an iofleet scenario; its jobs run on %s, which run JOB.fio\n"
             "; makes a [group %s] of the agents of --hosts and --agent\n", path, agent, agent);
    s_lines (self, text);
    s_job_end (self);
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
