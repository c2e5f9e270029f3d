/*  proto/distribution.c: fio's random distributions; see distribution.h.

    zipf is drawn by inverting the integral of 1 / x^THETA from 1/2 to
    k + 1/2 (the discrete sum's midpoint approximation, exact enough to
    put the right share of the requests on the hottest ranks), pareto by
    raising a uniform number to ln H / ln (1 - H), normal by Box-Muller.
*/
#include "distribution.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  The names, indexed by kind.
static const char *const s_names [] = {
    [DISTRIBUTION_RANDOM] = "random", [DISTRIBUTION_ZIPF] = "zipf",
    [DISTRIBUTION_PARETO] = "pareto", [DISTRIBUTION_NORMAL] = "normal",
};

int
distribution_parse (const char *text, int *kind, double *param, char *err, size_t errlen)
{
    const char *colon = strchr (text, ':');
    size_t name_len = colon? (size_t) (colon - text): strlen (text);
    for (int k = 0; k < (int) (sizeof (s_names) / sizeof (s_names [0])); k++) {
        if (strlen (s_names [k]) != name_len || strncmp (text, s_names [k], name_len) != 0)
            continue;
        *kind = k;
        *param = 0;
        if (k == DISTRIBUTION_RANDOM) {
            if (colon) {
                snprintf (err, errlen, "random takes no value");
                return -1;
            }
            return 0;
        }
        char *end = NULL;
        double value = colon? strtod (colon + 1, &end): NAN;
        bool ok = colon && end != colon + 1 && *end == 0 && isfinite (value);
        if (k == DISTRIBUTION_ZIPF && !(ok && value > 0 && value <= 100))
            snprintf (err, errlen, "zipf:THETA needs a THETA above 0 (zipf:1.2)");
        else
        if (k == DISTRIBUTION_PARETO && !(ok && value > 0 && value < 1))
            snprintf (err, errlen, "pareto:H needs an H between 0 and 1 (pareto:0.2: 80%% "
                      "of the requests to 20%% of the blocks)");
        else
        if (k == DISTRIBUTION_NORMAL && !(ok && value > 0 && value <= 100))
            snprintf (err, errlen, "normal:PCT needs a PCT above 0, at most 100 (the "
                      "standard deviation in percent of the blocks)");
        else {
            *param = value;
            return 0;
        }
        return -1;
    }
    snprintf (err, errlen, "'%.32s' is not random, zipf:THETA, pareto:H or normal:PCT", text);
    return -1;
}

//  Greatest common divisor.
static uint64_t
s_gcd (uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

void
distribution_init (distribution_t *self, int kind, double param, uint64_t count)
{
    memset (self, 0, sizeof (*self));
    self->kind = kind;
    self->param = param;
    self->count = count? count: 1;
    //  An odd multiplier near the golden ratio's share of the count,
    //  made prime to it: rank r goes to block (r * step) mod count, one
    //  to one.
    uint64_t step = (uint64_t) ((double) self->count * 0.6180339887) | 1;
    while (s_gcd (step, self->count) != 1)
        step += 2;
    self->step = step % self->count? step % self->count: 1;
    if (kind == DISTRIBUTION_ZIPF) {
        self->power = 1 - param;
        if (fabs (self->power) < 1e-9) {
            self->low = log (0.5);
            self->high = log ((double) self->count + 0.5);
        }
        else {
            self->low = pow (0.5, self->power);
            self->high = pow ((double) self->count + 0.5, self->power);
        }
    }
    else
    if (kind == DISTRIBUTION_PARETO)
        self->power = log (param) / log (1 - param);
}

//  A uniform number in [0, 1) from 53 bits.
static double
s_unit (uint64_t random)
{
    return (double) (random >> 11) * (1.0 / 9007199254740992.0);
}

//  Rank (0 = hottest) to block.
static uint64_t
s_spread (const distribution_t *self, uint64_t rank)
{
    return (uint64_t) (((unsigned __int128) rank * self->step) % self->count);
}

uint64_t
distribution_pick (const distribution_t *self, uint64_t random1, uint64_t random2)
{
    const double n = (double) self->count;
    double u = s_unit (random1);
    double x;
    switch (self->kind) {
        case DISTRIBUTION_ZIPF:
            //  x in [1/2, n + 1/2) with density in proportion to 1 / x^THETA.
            x = fabs (self->power) < 1e-9? exp (self->low + u * (self->high - self->low))
              : pow (self->low + u * (self->high - self->low), 1 / self->power);
            x = floor (x + 0.5) - 1;
            break;
        case DISTRIBUTION_PARETO:
            x = floor (n * pow (u, self->power));
            break;
        case DISTRIBUTION_NORMAL: {
            double v = s_unit (random2);
            double gauss = sqrt (-2 * log (1 - u)) * cos (2 * M_PI * v);
            x = floor (n / 2 + gauss * n * self->param / 100);
            //  Tails past an end of the set wrap round to the other
            //  end, so that no block at an edge gathers them.
            x = fmod (x, n);
            if (x < 0)
                x += n;
            return x < n? (uint64_t) x: self->count - 1;
        }
        default:
            return (uint64_t) (((unsigned __int128) random1 * self->count) >> 64);
    }
    if (x < 0)
        x = 0;
    if (x >= n)
        x = n - 1;
    return s_spread (self, (uint64_t) x);
}
