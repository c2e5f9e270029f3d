/*  coordinator/numbers/stats.h: two samples of one figure compared without
    assuming they are normally distributed, for `iofleet compare`.

    Benchmark figures are not bell curves: a run that lands on a cold
    cache or a busy hypervisor is a long tail, not a sigma. So the
    question "did it change?" is answered by the Mann-Whitney U test,
    which looks only at how the values of two samples interleave, and the
    size of the change by the interval that inverts the same test (the
    Hodges-Lehmann/Moses interval for a shift): the k-th smallest and
    k-th largest of the m x n differences b - a, k chosen from the exact
    distribution of U.

    Exact means exact: for up to STATS_EXACT_MAX values in all, the null
    distribution is counted over every way of splitting the pooled ranks
    (ties get midranks and are counted as they are), not approximated.
    Beyond that, the normal approximation with tie and continuity
    corrections is used.

    The level is 10% two-sided (a 90% interval), because with three
    values a side, the fewest the test runs on, the most a
    distribution-free test can ever see is that every value of one side
    lies beyond every value of the other, and the exact probability of
    that with no change is 2/20 = 0.1. At 5% three values could never
    show anything; iofleet(7) says more.
*/
#ifndef IOFLEET_STATS_H
#define IOFLEET_STATS_H

#include <stdbool.h>
#include <stddef.h>

#define STATS_ALPHA         0.10    //  two-sided level of the test
#define STATS_STRONG_MIN    3       //  values a side before the test decides
#define STATS_EXACT_MAX     100     //  values in all up to which p is exact

//  Number of the C(m+n, m) orderings of two samples without ties in
//  which the Mann-Whitney U of the first sample (the pairs (a, b) with
//  a > b) is at most u; and C(m+n, m) in *total. Returns -1 when m + n
//  is beyond STATS_EXACT_MAX or memory ran out.
double stats_mwu_count_le (size_t m, size_t n, size_t u, double *total);

//  The two-sided critical value of U for samples of m and n values at
//  level alpha: the largest u with P(U <= u) <= alpha / 2, exactly (or by
//  the normal approximation beyond STATS_EXACT_MAX). -1 when even u = 0
//  is too likely: too few values to reach that level.
long stats_mwu_critical (size_t m, size_t n, double alpha);

//  The two-sided p-value of the Mann-Whitney U test of a against b:
//  the probability, if both came from one distribution, of a rank sum
//  at least as far from its mean as the one seen. Ties get midranks.
//  NAN when a sample is empty or memory ran out.
double stats_mwu_p (const double *a, size_t m, const double *b, size_t n);

//  The distribution-free interval for the shift b - a at a confidence of
//  at least `confidence`: [D(k), D(mn + 1 - k)] of the sorted pairwise
//  differences, k = the critical value + 1. Returns the confidence
//  attained (1 - 2 P(U < k)), or NAN with low and high NAN when too few
//  values reach it (fewer than 3 a side at 90%) or memory ran out.
double stats_shift_interval (const double *a, size_t m, const double *b, size_t n,
                             double confidence, double *low, double *high);

//  The verdict on a change from sample a (before) to sample b (after).
typedef struct {
    size_t m, n;                    //  values in a and in b
    double median_a, median_b;      //  the medians
    double change_pct;              //  median b against median a, %; NAN from 0 to not 0
    bool strong;                    //  the test decided (STATS_STRONG_MIN values a side)
    bool real;                      //  the change is more than run-to-run noise
    double p_value;                 //  two-sided, exact; NAN for a weak verdict
    double low_pct, high_pct;       //  the change's interval in %: of the ratio b / a where
                                    //  every value is above 0, else of the shift b - a
                                    //  in % of median a; NAN if weak
    double confidence;              //  the interval's attained confidence; NAN if weak
} stats_verdict_t;

//  Compare two samples. With STATS_STRONG_MIN values or more on each
//  side, the change is real when the Mann-Whitney p-value is at most
//  STATS_ALPHA and the interval excludes no change (the two agree unless
//  values tie). With fewer, a weak verdict by the old min..max rule: the
//  change is noise when one side's median lies within the other side's
//  range (a side of one value has no range). Empty samples: no verdict,
//  everything NAN and false.
stats_verdict_t stats_compare (const double *a, size_t m, const double *b, size_t n);

//  The median of count values (NAN for none); values is not changed.
double stats_median (const double *values, size_t count);

#endif
