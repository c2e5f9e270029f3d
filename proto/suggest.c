/*  proto/suggest.c: the nearest known word to a mistyped one; see
    suggest.h.
*/
#include "suggest.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

//  The most edits at which a word of length letters is still close.
static size_t
s_edits_allowed (size_t length)
{
    return length <= 2? 0: length <= 4? 1: length <= 8? 2: 3;
}

size_t
suggest_distance (const char *a, const char *b)
{
    size_t m = strlen (a), n = strlen (b);
    if (m > SUGGEST_WORD_MAX || n > SUGGEST_WORD_MAX)
        return SIZE_MAX;
    //  d [i][j]: the distance between the first i letters of a and the
    //  first j of b.
    size_t d [SUGGEST_WORD_MAX + 1][SUGGEST_WORD_MAX + 1];
    for (size_t i = 0; i <= m; i++)
        d [i][0] = i;
    for (size_t j = 0; j <= n; j++)
        d [0][j] = j;
    for (size_t i = 1; i <= m; i++)
        for (size_t j = 1; j <= n; j++) {
            int ai = tolower ((unsigned char) a [i - 1]);
            int bj = tolower ((unsigned char) b [j - 1]);
            size_t best = d [i - 1][j - 1] + (ai != bj);
            if (d [i - 1][j] + 1 < best)
                best = d [i - 1][j] + 1;
            if (d [i][j - 1] + 1 < best)
                best = d [i][j - 1] + 1;
            if (i > 1 && j > 1 && ai == tolower ((unsigned char) b [j - 2])
            &&  tolower ((unsigned char) a [i - 2]) == bj && d [i - 2][j - 2] + 1 < best)
                best = d [i - 2][j - 2] + 1;
            d [i][j] = best;
        }
    return d [m][n];
}

void
suggest_start (suggest_t *self, const char *word)
{
    *self = (suggest_t) { .word = word, .best = NULL, .distance = SIZE_MAX };
}

void
suggest_offer (suggest_t *self, const char *candidate)
{
    size_t distance = suggest_distance (self->word, candidate);
    //  Never a word that is all edits (x for bs).
    if (distance > s_edits_allowed (strlen (self->word)) || distance >= strlen (candidate)
    ||  distance >= self->distance)
        return;
    self->best = candidate;
    self->distance = distance;
}

const char *
suggest_best (const suggest_t *self)
{
    return self->best;
}

const char *
suggest_among (const char *word, const char *const *candidates)
{
    suggest_t suggest;
    suggest_start (&suggest, word);
    for (size_t i = 0; candidates [i]; i++)
        suggest_offer (&suggest, candidates [i]);
    return suggest_best (&suggest);
}
