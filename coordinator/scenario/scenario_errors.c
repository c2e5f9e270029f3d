/*  coordinator/scenario/scenario_errors.c: the errors of one file, listed
    all at once in line order; see scenario_rules.h.
*/
#include "scenario_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
scenario_errors_add (scenario_errors_t *self, const char *path, const char *text)
{
    for (size_t i = 0; i < self->count; i++)
        if (strcmp (self->items [i].text, text) == 0)
            return;
    self->total++;
    if (self->count == SCENARIO_ERRORS_MAX)
        return;
    //  The line is what follows "path:", if it is a number.
    size_t length = strlen (path);
    int line = 0;
    if (strncmp (text, path, length) == 0 && text [length] == ':')
        line = atoi (text + length + 1);
    char *copy = strdup (text);
    if (!copy) {
        self->nomem = true;
        return;
    }
    self->items [self->count].line = line;
    self->items [self->count++].text = copy;
}

void
scenario_errors_write (scenario_errors_t *self, const char *path, char *err, size_t errlen)
{
    //  Insertion sort, stable: at most SCENARIO_ERRORS_MAX of them.
    for (size_t i = 1; i < self->count; i++) {
        int line = self->items [i].line;
        char *text = self->items [i].text;
        size_t j = i;
        for (; j > 0 && self->items [j - 1].line > line; j--)
            self->items [j] = self->items [j - 1];
        self->items [j].line = line;
        self->items [j].text = text;
    }
    size_t used = 0;
    err [0] = 0;
    for (size_t i = 0; i < self->count && used < errlen; i++) {
        int length = snprintf (err + used, errlen - used, "%s%s", i? "\n": "",
                               self->items [i].text);
        used += length > 0? (size_t) length: 0;
    }
    size_t more = self->total - self->count;
    if (more && used < errlen)
        snprintf (err + used, errlen - used, "\n%s: ... and %zu more error%s", path, more,
                  more == 1? "": "s");
}

void
scenario_errors_clear (scenario_errors_t *self)
{
    for (size_t i = 0; i < self->count; i++)
        free (self->items [i].text);
    self->count = 0;
    self->total = 0;
}
