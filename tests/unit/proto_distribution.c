/*  tests/unit/proto_distribution.c: fio's random distributions
    (proto/distribution.c): what is refused, and the shares of the
    requests each sends where: zipf:1.2 over 1000 blocks puts more than
    half on the hottest tenth, pareto:0.2 about 80% on the hottest 20%,
    normal:10 about 68% within 10% of the middle, uniform about 10% on
    any tenth; every block drawn is one of the set.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../proto/distribution.h"

#include <stdlib.h>
#include <string.h>

#define S_BLOCKS    1000
#define S_DRAWS     200000

//  splitmix64, the agent's generator.
static uint64_t
s_next (uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

//  Draw S_DRAWS blocks of text's distribution into counts.
static void
s_draw (const char *text, uint64_t *counts)
{
    int kind;
    double param;
    char err [128];
    if (distribution_parse (text, &kind, &param, err, sizeof (err)))
        fail_msg ("%s: %s", text, err);
    distribution_t dist;
    distribution_init (&dist, kind, param, S_BLOCKS);
    memset (counts, 0, S_BLOCKS * sizeof (uint64_t));
    uint64_t state = 42;
    for (int i = 0; i < S_DRAWS; i++) {
        uint64_t a = s_next (&state);
        uint64_t b = s_next (&state);
        uint64_t block = distribution_pick (&dist, a, b);
        assert_true (block < S_BLOCKS);
        counts [block]++;
    }
}

//  Share of the draws on the hottest `blocks` blocks.
static int
s_by_count (const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return x < y? 1: x > y? -1: 0;
}
static double
s_hottest (uint64_t *counts, size_t blocks)
{
    qsort (counts, S_BLOCKS, sizeof (uint64_t), s_by_count);
    uint64_t sum = 0;
    for (size_t i = 0; i < blocks; i++)
        sum += counts [i];
    return (double) sum / S_DRAWS;
}

static void
test_parse (void **state)
{
    (void) state;
    int kind;
    double param;
    char err [128];
    assert_int_equal (distribution_parse ("random", &kind, &param, err, sizeof (err)), 0);
    assert_int_equal (kind, DISTRIBUTION_RANDOM);
    assert_int_equal (distribution_parse ("zipf:1.2", &kind, &param, err, sizeof (err)), 0);
    assert_int_equal (kind, DISTRIBUTION_ZIPF);
    assert_true (param == 1.2);
    assert_int_equal (distribution_parse ("pareto:0.2", &kind, &param, err, sizeof (err)), 0);
    assert_int_equal (distribution_parse ("normal:10", &kind, &param, err, sizeof (err)), 0);
    const char *bad [] = { "zipf", "zipf:", "zipf:0", "zipf:x", "pareto:1", "pareto:0",
                           "normal:0", "normal:101", "random:1", "gauss:3", "", "zipf:1.2x" };
    for (size_t i = 0; i < sizeof (bad) / sizeof (bad [0]); i++)
        if (distribution_parse (bad [i], &kind, &param, err, sizeof (err)) != -1)
            fail_msg ("'%s' was taken", bad [i]);
}

static void
test_shares (void **state)
{
    (void) state;
    uint64_t *counts = calloc (S_BLOCKS, sizeof (uint64_t));
    assert_non_null (counts);
    s_draw ("zipf:1.2", counts);
    double zipf = s_hottest (counts, S_BLOCKS / 10);
    s_draw ("pareto:0.2", counts);
    double pareto = s_hottest (counts, S_BLOCKS / 5);
    s_draw ("random", counts);
    uint64_t tenth = 0;
    for (size_t i = 300; i < 400; i++)
        tenth += counts [i];
    double uniform = (double) tenth / S_DRAWS;
    s_draw ("normal:10", counts);
    uint64_t middle = 0;
    for (size_t i = 400; i < 600; i++)
        middle += counts [i];
    double normal = (double) middle / S_DRAWS;
    print_message ("zipf:1.2 %.3f on the hottest 10%%, pareto:0.2 %.3f on the hottest 20%%, "
                   "uniform %.3f on a tenth, normal:10 %.3f within 10%% of the middle\n",
                   zipf, pareto, uniform, normal);
    assert_true (zipf >= 0.5);
    assert_true (pareto > 0.77 && pareto < 0.83);
    assert_true (uniform > 0.09 && uniform < 0.11);
    assert_true (normal > 0.65 && normal < 0.71);
    free (counts);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_parse),
        cmocka_unit_test (test_shares),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
