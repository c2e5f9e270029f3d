/*  tests/unit/coord_stats.c: the Mann-Whitney U test and its interval
    (coordinator/numbers/stats.c) on samples made by hand.

    The exact distributions and critical values are the published ones
    (the two-sided tables at 5% and 10%, e.g. in Siegel's "Nonparametric
    Statistics"); the p-values of the small cases are counted out in the
    comments; ties and identical samples get their own cases, because that
    is where rank tests go wrong.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../coordinator/numbers/stats.h"

#include <math.h>
#include <stdlib.h>

#define N_OF(array) (sizeof (array) / sizeof ((array) [0]))

//  The exact null distribution of U: 3 vs 3 is 1 1 2 3 3 3 3 2 1 1 out
//  of C(6,3) = 20, 4 vs 4 is 1 1 2 3 5 5 7 7 8 7 7 5 5 3 2 1 1 out of 70.
static void
test_distribution (void **state)
{
    (void) state;
    static const double three [] = { 1, 2, 4, 7, 10, 13, 16, 18, 19, 20 };
    static const double four [] = { 1, 2, 4, 7, 12, 17, 24, 31, 39, 46, 53, 58, 63, 66, 68, 69, 70 };
    double total;
    for (size_t u = 0; u < N_OF (three); u++) {
        assert_true (stats_mwu_count_le (3, 3, u, &total) == three [u]);
        assert_true (total == 20);
    }
    for (size_t u = 0; u < N_OF (four); u++) {
        assert_true (stats_mwu_count_le (4, 4, u, &total) == four [u]);
        assert_true (total == 70);
    }
    //  Unequal sides: (2, 5) and (5, 2) are the same distribution.
    for (size_t u = 0; u <= 10; u++)
        assert_true (stats_mwu_count_le (2, 5, u, NULL) == stats_mwu_count_le (5, 2, u, NULL));
    assert_true (stats_mwu_count_le (2, 5, 10, &total) == 21 && total == 21);
    //  Beyond the exact range: refused, not guessed.
    assert_true (stats_mwu_count_le (60, 60, 10, &total) < 0);
}

//  Critical values of U, two-sided, as the published tables give them.
static void
test_critical (void **state)
{
    (void) state;
    static const struct { size_t m, n; long at_5, at_10; } table [] = {
        { 3, 3, -1, 0 },            //  3 vs 3 cannot reach 5%: 2/20 = 0.1
        { 4, 4, 0, 1 },
        { 5, 5, 2, 4 },
        { 6, 6, 5, 7 },
        { 7, 7, 8, 11 },
        { 8, 8, 13, 15 },
        { 10, 10, 23, 27 },
        { 20, 20, 127, 138 },
        { 3, 5, 0, 1 },
        { 4, 6, 2, 3 },
        { 2, 2, -1, -1 },           //  1/6 either way
        { 2, 3, -1, -1 },           //  1/10 per tail, 0.2 two-sided
    };
    for (size_t nbr = 0; nbr < N_OF (table); nbr++) {
        assert_int_equal (stats_mwu_critical (table [nbr].m, table [nbr].n, 0.05), table [nbr].at_5);
        assert_int_equal (stats_mwu_critical (table [nbr].m, table [nbr].n, 0.10), table [nbr].at_10);
        assert_int_equal (stats_mwu_critical (table [nbr].n, table [nbr].m, 0.10), table [nbr].at_10);
    }
    //  60 vs 60 is beyond the exact range: the normal approximation,
    //  mn/2 - 1/2 - 1.645 sqrt (mn (m+n+1) / 12) = 1486.1.
    long critical = stats_mwu_critical (60, 60, 0.10);
    assert_true (critical >= 1485 && critical <= 1487);
}

//  Two-sided p-values of small samples, counted by hand.
static void
test_p_values (void **state)
{
    (void) state;
    //  Complete separation: 2 orderings of C(m+n, m) are as extreme.
    double a3 [] = { 100, 101, 102 }, b3 [] = { 150, 151, 152 };
    assert_float_equal (stats_mwu_p (a3, 3, b3, 3), 2.0 / 20, 1e-12);
    assert_float_equal (stats_mwu_p (b3, 3, a3, 3), 2.0 / 20, 1e-12);
    double a4 [] = { 1, 2, 3, 4 }, b4 [] = { 11, 12, 13, 14 };
    assert_float_equal (stats_mwu_p (a4, 4, b4, 4), 2.0 / 70, 1e-12);
    double a5 [] = { 10, 11, 12, 13, 14 }, b5 [] = { 1, 2, 3, 4, 5 };
    assert_float_equal (stats_mwu_p (a5, 5, b5, 5), 2.0 / 252, 1e-12);
    //  Interleaved: a = 1 3 5 has rank sum 9 against a mean of 10.5;
    //  7 of 20 orderings have W <= 9 and 7 have W >= 12: p = 0.7.
    double a [] = { 1, 3, 5 }, b [] = { 2, 4, 6 };
    assert_float_equal (stats_mwu_p (a, 3, b, 3), 14.0 / 20, 1e-12);
    //  Unequal sides, separated: 2 of C(7,2) = 21.
    double two [] = { 50, 60 }, five [] = { 1, 2, 3, 4, 5 };
    assert_float_equal (stats_mwu_p (two, 2, five, 5), 2.0 / 21, 1e-12);
    //  Nothing to test.
    assert_true (isnan (stats_mwu_p (a, 0, b, 3)));
}

//  Ties: midranks, and the exact distribution over the tied ranks.
static void
test_ties (void **state)
{
    (void) state;
    //  1 2 3 | 3 4 5: midranks 1 2 3.5 | 3.5 5 6; W = 6.5 is the least
    //  any three of them can add up to, and 2 of the 20 picks reach it;
    //  2 more are as far above: p = 4/20.
    double a [] = { 1, 2, 3 }, b [] = { 3, 4, 5 };
    assert_float_equal (stats_mwu_p (a, 3, b, 3), 0.2, 1e-12);
    //  100 100 100 | 100 100 150: W of b is 9 or 12, ten picks each,
    //  both 1.5 from the mean: nothing is unusual, p = 1.
    double flat [] = { 100, 100, 100 }, one_up [] = { 100, 100, 150 };
    assert_float_equal (stats_mwu_p (flat, 3, one_up, 3), 1, 1e-12);
    //  Ties across the sides but separated otherwise: 1 2 2 | 2 3 4 has
    //  midranks 1 3 3 | 3 5 6, W = 7; picks as far out: {1 3 3} three
    //  ways and its mirror {3 5 6} three ways: 6/20.
    double c [] = { 1, 2, 2 }, d [] = { 2, 3, 4 };
    assert_float_equal (stats_mwu_p (c, 3, d, 3), 6.0 / 20, 1e-12);
}

//  Identical samples: no evidence of anything.
static void
test_identical (void **state)
{
    (void) state;
    double same [] = { 5, 5, 5, 5 };
    assert_float_equal (stats_mwu_p (same, 4, same, 4), 1, 1e-12);
    double a [] = { 1, 2, 3 };
    assert_float_equal (stats_mwu_p (a, 3, a, 3), 1, 1e-12);
    stats_verdict_t verdict = stats_compare (same, 4, same, 4);
    assert_true (verdict.strong);
    assert_false (verdict.real);
    assert_float_equal (verdict.change_pct, 0, 1e-12);
    assert_float_equal (verdict.low_pct, 0, 1e-12);
    assert_float_equal (verdict.high_pct, 0, 1e-12);
}

//  The interval of the shift.
static void
test_interval (void **state)
{
    (void) state;
    //  3 vs 3 at 90%: k = 1, the smallest and largest of the 9
    //  differences: b - a for a = 100 110 90, b = 104 105 106 runs from
    //  104 - 110 = -6 to 106 - 90 = 16; confidence 1 - 2/20.
    double a [] = { 100, 110, 90 }, b [] = { 104, 105, 106 };
    double low, high;
    assert_float_equal (stats_shift_interval (a, 3, b, 3, 0.90, &low, &high), 0.9, 1e-12);
    assert_float_equal (low, -6, 1e-12);
    assert_float_equal (high, 16, 1e-12);
    //  4 vs 4: critical value 1, k = 2: the second smallest and second
    //  largest of 16 differences 7..13 (8 and 12); 1 - 2 x 2/70.
    double a4 [] = { 1, 2, 3, 4 }, b4 [] = { 11, 12, 13, 14 };
    assert_float_equal (stats_shift_interval (a4, 4, b4, 4, 0.90, &low, &high),
                        1 - 4.0 / 70, 1e-12);
    assert_float_equal (low, 8, 1e-12);
    assert_float_equal (high, 12, 1e-12);
    //  Too few values for 90%.
    assert_true (isnan (stats_shift_interval (a, 2, b, 2, 0.90, &low, &high)));
    assert_true (isnan (low) && isnan (high));
}

//  Verdicts: a 5% shift inside the noise, a 50% shift outside it, and
//  the weak verdict of fewer than three values.
static void
test_verdict (void **state)
{
    (void) state;
    double base [] = { 100, 110, 90, 105, 95 };
    double noisy [] = { 105, 115.5, 94.5, 110.25, 99.75 };     //  base x 1.05
    double slower [] = { 50, 55, 45, 52.5, 47.5 };              //  base x 0.5
    stats_verdict_t verdict = stats_compare (base, 5, noisy, 5);
    assert_true (verdict.strong);
    assert_false (verdict.real);
    assert_float_equal (verdict.change_pct, 5, 1e-9);
    assert_true (verdict.p_value > 0.10);
    assert_true (verdict.low_pct < 0 && verdict.high_pct > 0);

    verdict = stats_compare (base, 5, slower, 5);
    assert_true (verdict.strong);
    assert_true (verdict.real);
    assert_float_equal (verdict.change_pct, -50, 1e-9);
    assert_float_equal (verdict.p_value, 2.0 / 252, 1e-12);
    //  5 vs 5 at 90%: critical value 4, k = 5: the 5th smallest and 5th
    //  largest of the 25 ratios b / a (the shift of the logarithms),
    //  47.5 / 105 and 52.5 / 95, as changes.
    assert_float_equal (verdict.confidence, 1 - 2 * 12.0 / 252, 1e-12);
    assert_true (verdict.low_pct < verdict.change_pct && verdict.change_pct < verdict.high_pct);
    assert_true (verdict.high_pct < 0);
    assert_float_equal (verdict.low_pct, (47.5 / 105 - 1) * 100, 1e-9);
    assert_float_equal (verdict.high_pct, (52.5 / 95 - 1) * 100, 1e-9);

    //  Three a side, complete separation: real at exactly p = 0.1, the
    //  interval from the least ratio to the largest.
    double a3 [] = { 100, 101, 102 }, b3 [] = { 150, 151, 152 };
    verdict = stats_compare (a3, 3, b3, 3);
    assert_true (verdict.strong && verdict.real);
    assert_float_equal (verdict.low_pct, (150.0 / 102 - 1) * 100, 1e-9);
    assert_float_equal (verdict.high_pct, (152.0 / 100 - 1) * 100, 1e-9);

    //  A sample with 0 in it has no logarithm: the shift, in % of the
    //  first median.
    double z3 [] = { 0, 100, 101 }, y3 [] = { 150, 151, 152 };
    verdict = stats_compare (z3, 3, y3, 3);
    assert_true (verdict.strong && verdict.real);
    assert_float_equal (verdict.low_pct, 49.0 / 100 * 100, 1e-9);
    assert_float_equal (verdict.high_pct, 152.0 / 100 * 100, 1e-9);

    //  Two values a side: the min..max rule, and weak.
    double two [] = { 110, 90 }, near [] = { 105, 106 }, far [] = { 290, 310 };
    verdict = stats_compare (two, 2, near, 2);
    assert_false (verdict.strong);
    assert_false (verdict.real);
    assert_true (isnan (verdict.p_value) && isnan (verdict.low_pct));
    assert_float_equal (verdict.change_pct, 5.5, 1e-9);
    verdict = stats_compare (two, 2, far, 2);
    assert_false (verdict.strong);
    assert_true (verdict.real);
    //  One value a side: no spread, so any change counts (weakly).
    double one [] = { 100 }, other [] = { 101 };
    verdict = stats_compare (one, 1, other, 1);
    assert_true (!verdict.strong && verdict.real);
    //  A base of 0 has no change in percent, but still a verdict.
    double zero [] = { 0, 0, 0 }, some [] = { 1, 2, 3 };
    verdict = stats_compare (zero, 3, some, 3);
    assert_true (isnan (verdict.change_pct) && isnan (verdict.low_pct));
    assert_true (verdict.real);
    //  An empty side: no verdict.
    verdict = stats_compare (one, 0, other, 1);
    assert_false (verdict.real);
    assert_true (isnan (verdict.median_a));
}

//  Beyond the exact range: the normal approximation, with ties.
static void
test_large (void **state)
{
    (void) state;
    double a [60], b [60], c [60];
    for (int nbr = 0; nbr < 60; nbr++) {
        a [nbr] = 100 + nbr % 10;   //  ties: six of each value
        b [nbr] = 100 + nbr % 10;
        c [nbr] = 104 + nbr % 10;
    }
    assert_float_equal (stats_mwu_p (a, 60, b, 60), 1, 1e-9);
    double p = stats_mwu_p (a, 60, c, 60);
    assert_true (p > 0 && p < 1e-6);
    stats_verdict_t verdict = stats_compare (a, 60, c, 60);
    assert_true (verdict.real);
    assert_true (verdict.low_pct > 0);
    assert_float_equal (stats_median (c, 60), 108.5, 1e-12);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_distribution),
        cmocka_unit_test (test_critical),
        cmocka_unit_test (test_p_values),
        cmocka_unit_test (test_ties),
        cmocka_unit_test (test_identical),
        cmocka_unit_test (test_interval),
        cmocka_unit_test (test_verdict),
        cmocka_unit_test (test_large),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
