/*  proto/distribution.h: where random requests land, fio's way
    (`random_distribution = random | zipf:THETA | pareto:H | normal:PCT`).

    Both sides parse the option with distribution_parse (the scenario
    checker refuses a bad one at file:line, the agent checks it again);
    the agent draws each request's block with distribution_pick from two
    64-bit random numbers of the stream's own generator.

        random      every block alike (uniform)
        zipf:THETA  block of rank k drawn in proportion to 1 / k^THETA
                    (THETA > 0; 1.2 is a usual hot set)
        pareto:H    a share H of the blocks takes 1 - H of the requests
                    (0 < H < 1: pareto:0.2 is the 80/20 rule)
        normal:PCT  a bell around the middle of the blocks, its standard
                    deviation PCT percent of them (0 < PCT <= 100)

    Ranks are not blocks: a skewed distribution's hot ranks are spread
    over the whole set by a fixed permutation of the blocks (an odd
    multiplier prime to their count), so that the hot blocks are not all
    at the start of the first file; normal keeps its bell in place.
*/
#ifndef IOFLEET_DISTRIBUTION_H
#define IOFLEET_DISTRIBUTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    DISTRIBUTION_RANDOM = 0,
    DISTRIBUTION_ZIPF = 1,
    DISTRIBUTION_PARETO = 2,
    DISTRIBUTION_NORMAL = 3
} distribution_kind_t;

//  A distribution ready to draw from, over count blocks.
typedef struct {
    int kind;                       //  distribution_kind_t
    double param;                   //  THETA, H or PCT
    uint64_t count;                 //  blocks
    double low;                     //  zipf: the inverse CDF's bounds, precomputed
    double high;
    double power;                   //  zipf: 1 - THETA; pareto: ln H / ln (1 - H)
    uint64_t step;                  //  the permutation's multiplier, prime to count
} distribution_t;

//  Parse text ("zipf:1.2"). Returns 0 with *kind and *param, or -1 with
//  the reason in err.
int distribution_parse (const char *text, int *kind, double *param, char *err, size_t errlen);

//  Ready a distribution of kind and param over count (> 0) blocks.
void distribution_init (distribution_t *self, int kind, double param, uint64_t count);

//  A block in 0 .. count - 1 from two random 64-bit numbers.
uint64_t distribution_pick (const distribution_t *self, uint64_t random1, uint64_t random2);

#endif
