/*  coordinator/scenario/fio_job_map.c: where the lines of a fio job
    file's translation came from; see fio_job_map.h.
*/
#include "fio_job_map.h"
#include "scenario_rules.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Bytes of a key of fio's kept.
#define S_KEY_MAX 63

//  Where one line of the translation came from.
typedef struct {
    const char *path;               //  the fio file (the map's copy), NULL: not known
    int line;                       //  its line there
    char key [S_KEY_MAX + 1];       //  fio's key, "" for a line the translation adds
} s_origin_t;

struct _fio_job_map_t {
    s_origin_t *lines;              //  per line of the translation, from 1 at [0]
    size_t count;                   //  lines recorded (the last one + 1 at most)
    size_t capacity;                //  slots allocated
    char **paths;                   //  the files named, each once
    size_t path_count;
};

fio_job_map_t *
fio_job_map_new (void)
{
    return calloc (1, sizeof (fio_job_map_t));
}

void
fio_job_map_destroy (fio_job_map_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    fio_job_map_t *self = *self_p;
    for (size_t i = 0; i < self->path_count; i++)
        free (self->paths [i]);
    free (self->paths);
    free (self->lines);
    free (self);
    *self_p = NULL;
}

//  The map's copy of path, or NULL if memory ran out.
static const char *
s_path (fio_job_map_t *self, const char *path)
{
    for (size_t i = 0; i < self->path_count; i++)
        if (strcmp (self->paths [i], path) == 0)
            return self->paths [i];
    char **paths = realloc (self->paths, (self->path_count + 1) * sizeof *paths);
    if (!paths)
        return NULL;
    self->paths = paths;
    if (!(paths [self->path_count] = strdup (path)))
        return NULL;
    return paths [self->path_count++];
}

int
fio_job_map_add (fio_job_map_t *self, int line, const char *path, int fio_line,
                 const char *fio_key)
{
    if (line < 1)
        return -1;
    size_t index = (size_t) line - 1;
    if (index >= self->capacity) {
        size_t capacity = self->capacity? self->capacity * 2: 64;
        while (capacity <= index)
            capacity *= 2;
        s_origin_t *lines = realloc (self->lines, capacity * sizeof *lines);
        if (!lines)
            return -1;
        memset (lines + self->capacity, 0, (capacity - self->capacity) * sizeof *lines);
        self->lines = lines;
        self->capacity = capacity;
    }
    s_origin_t *origin = &self->lines [index];
    if (!(origin->path = s_path (self, path)))
        return -1;
    origin->line = fio_line;
    snprintf (origin->key, sizeof origin->key, "%s", fio_key? fio_key: "");
    if (index >= self->count)
        self->count = index + 1;
    return 0;
}

//  One error line of length bytes, rewritten into out.
static void
s_rewrite (const fio_job_map_t *self, const char *path, int offset, const char *error,
           size_t length, char *out, size_t outlen)
{
    size_t path_length = strlen (path);
    const char *number = error + path_length + 1;
    char *after = NULL;
    long line = 0;
    if (length > path_length + 1 && strncmp (error, path, path_length) == 0
    &&  error [path_length] == ':' && isdigit ((unsigned char) *number))
        line = strtol (number, &after, 10);
    if (!after || after [0] != ':' || after [1] != ' ') {
        snprintf (out, outlen, "%.*s", (int) length, error);
        return;
    }
    const char *rest = after + 2;
    int rest_length = (int) (length - (size_t) (rest - error));
    long at = line - offset;
    const s_origin_t *origin = at >= 1 && (size_t) at <= self->count? &self->lines [at - 1]: NULL;
    if (at < 1)
        //  The caller's own lines (the agents it was given) have none in the file.
        snprintf (out, outlen, "%s: %.*s", path, rest_length, rest);
    else
    if (!origin || !origin->path)
        snprintf (out, outlen, "%.*s", (int) length, error);
    else {
        //  The key of the message is ours, the one of the line: fio's replaces it.
        const char *key_end = strstr (rest, ": ");
        if (origin->key [0] && key_end && key_end < error + length)
            snprintf (out, outlen, "%s:%d: %s%.*s", origin->path, origin->line, origin->key,
                      (int) (error + length - key_end), key_end);
        else
            snprintf (out, outlen, "%s:%d: %.*s", origin->path, origin->line, rest_length,
                      rest);
    }
}

void
fio_job_map_errors (const fio_job_map_t *self, const char *path, int offset, char *errors,
                    size_t errlen)
{
    scenario_errors_t found = { .count = 0 };
    char text [JOB_PATH_MAX + SCENARIO_KEY_QUOTE_MAX + 2 * SCENARIO_REASON_MAX];
    char more [JOB_PATH_MAX + 64] = "";
    size_t path_length = strlen (path);
    for (const char *error = errors; *error; ) {
        size_t length = strcspn (error, "\n");
        //  "path: ... and N more errors" stays the last line.
        if (strncmp (error, path, path_length) == 0
        &&  strncmp (error + path_length, ": ... and ", 10) == 0)
            snprintf (more, sizeof more, "%.*s", (int) length, error);
        else
        if (length) {
            s_rewrite (self, path, offset, error, length, text, sizeof text);
            scenario_errors_add (&found, path, text);
        }
        error += length + (error [length] == '\n');
    }
    if (found.nomem) {
        scenario_errors_clear (&found);
        return;                     //  the errors stay as they were
    }
    //  Each is written as it was found: none is counted past the bound twice.
    found.total = found.count;
    scenario_errors_write (&found, path, errors, errlen);
    scenario_errors_clear (&found);
    size_t used = strlen (errors);
    if (more [0] && used < errlen)
        snprintf (errors + used, errlen - used, "\n%s", more);
}
