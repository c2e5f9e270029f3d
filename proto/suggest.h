/*  proto/suggest.h: "did you mean": the nearest of a set of known words
    to a word that is none of them, for the messages about a mistyped
    key, value or section kind (szie -> size, wirte -> write).

    The distance is Damerau-Levenshtein's in its optimal string alignment
    form: an insertion, a deletion, a substitution or the swap of two
    neighbours each cost one; ASCII case is ignored. A word is only
    suggested when it is close for the length of what was written (one
    edit up to 4 letters, two up to 8, three beyond), so that a short or
    unrelated word gets no silly suggestion.
*/
#ifndef IOFLEET_SUGGEST_H
#define IOFLEET_SUGGEST_H

#include <stddef.h>

//  Words longer than this are never near anything.
#define SUGGEST_WORD_MAX 64

//  The nearest candidate so far to one word.
typedef struct {
    const char *word;               //  what was written
    const char *best;               //  nearest close candidate so far, NULL if none
    size_t distance;                //  its distance to word
} suggest_t;

//  The edit distance between a and b; SIZE_MAX if either is longer than
//  SUGGEST_WORD_MAX.
size_t suggest_distance (const char *a, const char *b);

//  Start looking for the nearest word to word.
void suggest_start (suggest_t *self, const char *word);

//  Consider candidate; the first of equally near candidates stays.
void suggest_offer (suggest_t *self, const char *candidate);

//  The nearest close candidate offered, or NULL if none is close.
const char *suggest_best (const suggest_t *self);

//  The nearest close word of a NULL-terminated list, or NULL.
const char *suggest_among (const char *word, const char *const *candidates);

#endif
