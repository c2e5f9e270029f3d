/*  coordinator/numbers/stats.c: the Mann-Whitney U test and its interval; see
    stats.h.

    Every exact figure here comes from one count: in how many ways can k
    of the N pooled values be picked so that their ranks add up to s? A
    table of ways by (picked, sum), filled one value at a time, answers it
    for every s at once, with ties as midranks. Ranks are doubled so that
    midranks (3.5) stay integers and the sums compare exactly.
*/
#include "stats.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//  Probabilities are sums of counts that are exact in a double up to
//  2^53; a level such as 0.1 is not, so comparisons with it allow this
//  much, lest 2/20 fail to be "at most 0.10".
#define STATS_EPSILON 1e-9


//  --------------------------------------------------------------------------
//  Counting

//  ways [s] for s = 0..*max_sum: the number of ways to pick `picked` of
//  the count doubled ranks so that they add up to s. NULL when memory ran
//  out. Row k of the table holds the ways to pick k of the ranks seen so
//  far; each new rank adds itself to every way of picking one fewer.
static double *
s_rank_sum_ways (const long *ranks2, size_t count, size_t picked, size_t *max_sum)
{
    size_t sum = 0;
    for (size_t nbr = 0; nbr < count; nbr++)
        sum += (size_t) ranks2 [nbr];
    *max_sum = sum;
    double *table = (double *) calloc ((picked + 1) * (sum + 1), sizeof (double));
    if (!table)
        return NULL;
    table [0] = 1;                  //  picking none: one way, sum 0
    size_t reached = 0;             //  largest sum any row has so far
    for (size_t nbr = 0; nbr < count; nbr++) {
        size_t rank = (size_t) ranks2 [nbr];
        reached += rank;
        size_t top = nbr + 1 < picked? nbr + 1: picked;
        for (size_t k = top; k >= 1; k--) {
            double *row = table + k * (sum + 1);
            const double *fewer = table + (k - 1) * (sum + 1);
            for (size_t s = reached; s >= rank; s--) {
                row [s] += fewer [s - rank];
                if (s == rank)
                    break;
            }
        }
    }
    double *ways = (double *) malloc ((sum + 1) * sizeof (double));
    if (ways)
        memcpy (ways, table + picked * (sum + 1), (sum + 1) * sizeof (double));
    free (table);
    return ways;
}

//  The standard normal distribution function.
static double
s_phi (double x)
{
    return 0.5 * erfc (-x / M_SQRT2);
}

//  x with s_phi (x) = p, for 0 < p < 1, by bisection: slow but plain,
//  and only used for samples beyond STATS_EXACT_MAX.
static double
s_phi_inverse (double p)
{
    double low = -40, high = 40;
    for (int step = 0; step < 200; step++) {
        double middle = (low + high) / 2;
        if (s_phi (middle) < p)
            low = middle;
        else
            high = middle;
    }
    return (low + high) / 2;
}

//  qsort order of doubles.
static int
s_compare_doubles (const void *left, const void *right)
{
    double a = *(const double *) left, b = *(const double *) right;
    return a < b? -1: a > b? 1: 0;
}


//  --------------------------------------------------------------------------
//  The distribution of U without ties

//  How many orderings of samples of m and n values without ties have
//  U <= u, for u = 0..m n; NULL beyond STATS_EXACT_MAX or when memory ran
//  out. *total gets C(m + n, m), the number of all orderings.
static double *
s_mwu_cdf_table (size_t m, size_t n, double *total)
{
    size_t count = m + n;
    if (count == 0 || count > STATS_EXACT_MAX)
        return NULL;
    //  U of (m, n) and of (n, m) are distributed alike: pick the smaller
    //  side, for a smaller table.
    size_t picked = m < n? m: n;
    long ranks2 [STATS_EXACT_MAX];
    for (size_t nbr = 0; nbr < count; nbr++)
        ranks2 [nbr] = 2 * (long) (nbr + 1);
    size_t max_sum;
    double *ways = s_rank_sum_ways (ranks2, count, picked, &max_sum);
    double *cdf = (double *) calloc (m * n + 1, sizeof (double));
    if (!ways || !cdf) {
        free (ways);
        free (cdf);
        return NULL;
    }
    //  U = W - k (k + 1) / 2: in doubled ranks, W2 = 2 U + k (k + 1).
    double all = 0;
    for (size_t s = 0; s <= max_sum; s++)
        all += ways [s];
    double below = 0;
    for (size_t u = 0; u <= m * n; u++) {
        below += ways [2 * u + picked * (picked + 1)];
        cdf [u] = below;
    }
    free (ways);
    *total = all;
    return cdf;
}

//  Orderings with U <= u, out of *total.
double
stats_mwu_count_le (size_t m, size_t n, size_t u, double *total)
{
    double all;
    double *cdf = s_mwu_cdf_table (m, n, &all);
    if (!cdf)
        return -1;
    double below = cdf [u < m * n? u: m * n];
    free (cdf);
    if (total)
        *total = all;
    return below;
}

//  P(U <= u) by the normal approximation with a continuity correction.
static double
s_mwu_cdf_normal (size_t m, size_t n, long u)
{
    double mean = (double) m * (double) n / 2;
    double sd = sqrt ((double) m * (double) n * (double) (m + n + 1) / 12);
    return u < 0? 0: s_phi (((double) u + 0.5 - mean) / sd);
}

//  The critical value and P(U <= it): the largest u with P(U <= u) at most
//  bound, -1 (and 0) if there is none.
static long
s_mwu_critical (size_t m, size_t n, double alpha, double *probability)
{
    *probability = 0;
    if (m == 0 || n == 0)
        return -1;
    double bound = alpha / 2 * (1 + STATS_EPSILON);
    double total;
    double *cdf = s_mwu_cdf_table (m, n, &total);
    long critical = -1;
    if (cdf) {
        while ((size_t) (critical + 1) <= m * n && cdf [critical + 1] / total <= bound)
            critical++;
        *probability = critical < 0? 0: cdf [critical] / total;
        free (cdf);
        return critical;
    }
    //  The normal approximation's edge, found from its estimate.
    double mean = (double) m * (double) n / 2;
    double sd = sqrt ((double) m * (double) n * (double) (m + n + 1) / 12);
    critical = (long) floor (mean - 0.5 + s_phi_inverse (alpha / 2) * sd);
    while (critical >= 0 && s_mwu_cdf_normal (m, n, critical) > bound)
        critical--;
    while (s_mwu_cdf_normal (m, n, critical + 1) <= bound)
        critical++;
    *probability = s_mwu_cdf_normal (m, n, critical);
    return critical;
}

//  The largest U that is unusual at level alpha, or -1.
long
stats_mwu_critical (size_t m, size_t n, double alpha)
{
    double probability;
    return s_mwu_critical (m, n, alpha, &probability);
}


//  --------------------------------------------------------------------------
//  The test on samples, ties and all

//  A value and the sample it came from, for ranking the pooled values.
typedef struct {
    double value;                   //  the figure
    bool first;                     //  from sample a
} s_pooled_t;

//  qsort order of pooled values.
static int
s_compare_pooled (const void *left, const void *right)
{
    return s_compare_doubles (&((const s_pooled_t *) left)->value,
                              &((const s_pooled_t *) right)->value);
}

//  The two-sided p-value of a against b, ties as midranks.
double
stats_mwu_p (const double *a, size_t m, const double *b, size_t n)
{
    if (m == 0 || n == 0)
        return NAN;
    size_t count = m + n;
    s_pooled_t *pooled = (s_pooled_t *) malloc (count * sizeof (s_pooled_t));
    long *ranks2 = (long *) malloc (count * sizeof (long));
    double p = NAN;
    if (!pooled || !ranks2)
        goto done;
    for (size_t nbr = 0; nbr < m; nbr++)
        pooled [nbr] = (s_pooled_t) { a [nbr], true };
    for (size_t nbr = 0; nbr < n; nbr++)
        pooled [m + nbr] = (s_pooled_t) { b [nbr], false };
    qsort (pooled, count, sizeof (s_pooled_t), s_compare_pooled);

    //  Midranks, doubled: a run of equal values at 0-based places
    //  first..last all get (first + 1 + last + 1) / 2, times two. The
    //  rank sum is taken over the smaller sample, the one picked below.
    bool smaller_is_a = m <= n;
    size_t picked = smaller_is_a? m: n;
    long sum2 = 0;
    double ties = 0;                //  sum of t^3 - t over runs of ties
    for (size_t first = 0; first < count; ) {
        size_t last = first;
        while (last + 1 < count && pooled [last + 1].value == pooled [first].value)
            last++;
        for (size_t nbr = first; nbr <= last; nbr++) {
            ranks2 [nbr] = (long) (first + last + 2);
            if (pooled [nbr].first == smaller_is_a)
                sum2 += ranks2 [nbr];
        }
        double run = (double) (last - first + 1);
        ties += run * run * run - run;
        first = last + 1;
    }
    //  The rank sum's mean, doubled: picked x (count + 1).
    long mean2 = (long) picked * (long) (count + 1);
    long distance2 = labs (sum2 - mean2);
    if (count <= STATS_EXACT_MAX) {
        size_t max_sum;
        double *ways = s_rank_sum_ways (ranks2, count, picked, &max_sum);
        if (!ways)
            goto done;
        double as_far = 0, all = 0;
        for (size_t s = 0; s <= max_sum; s++) {
            all += ways [s];
            if (labs ((long) s - mean2) >= distance2)
                as_far += ways [s];
        }
        free (ways);
        p = as_far / all;
    }
    else {
        double variance = (double) m * (double) n / 12
                        * ((double) (count + 1) - ties / ((double) count * (double) (count - 1)));
        if (variance <= 0)
            p = 1;                  //  every value the same
        else {
            double z = ((double) distance2 / 2 - 0.5) / sqrt (variance);
            p = z <= 0? 1: erfc (z / M_SQRT2);
        }
    }
    if (p > 1)
        p = 1;
done:
    free (pooled);
    free (ranks2);
    return p;
}

//  The interval of the shift b - a; the confidence it reached.
double
stats_shift_interval (const double *a, size_t m, const double *b, size_t n,
                      double confidence, double *low, double *high)
{
    assert (low && high);
    *low = *high = NAN;
    double probability;
    long critical = s_mwu_critical (m, n, 1 - confidence, &probability);
    if (critical < 0)
        return NAN;
    double *differences = (double *) malloc (m * n * sizeof (double));
    if (!differences)
        return NAN;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            differences [i * n + j] = b [j] - a [i];
    qsort (differences, m * n, sizeof (double), s_compare_doubles);
    size_t k = (size_t) critical + 1;
    *low = differences [k - 1];
    *high = differences [m * n - k];
    free (differences);
    return 1 - 2 * probability;
}


//  --------------------------------------------------------------------------
//  The verdict

//  The median of the values.
double
stats_median (const double *values, size_t count)
{
    if (count == 0)
        return NAN;
    double *sorted = (double *) malloc (count * sizeof (double));
    if (!sorted)
        return NAN;
    memcpy (sorted, values, count * sizeof (double));
    qsort (sorted, count, sizeof (double), s_compare_doubles);
    double median = count % 2? sorted [count / 2]
                             : (sorted [count / 2 - 1] + sorted [count / 2]) / 2;
    free (sorted);
    return median;
}

//  Whether value lies within the range of a sample of two values or more.
static bool
s_within_range (const double *values, size_t count, double value)
{
    if (count < 2)
        return false;
    double min = values [0], max = values [0];
    for (size_t nbr = 1; nbr < count; nbr++) {
        min = values [nbr] < min? values [nbr]: min;
        max = values [nbr] > max? values [nbr]: max;
    }
    return value >= min && value <= max;
}

//  The logarithms of count values in a new array for the caller to
//  free; NULL when one is not above 0 (or finite), or memory ran out.
static double *
s_logs (const double *values, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (!(values [i] > 0) || !isfinite (values [i]))
            return NULL;
    double *logs = (double *) malloc (count * sizeof (double));
    for (size_t i = 0; logs && i < count; i++)
        logs [i] = log (values [i]);
    return logs;
}

//  Noise or real: the test with enough values, min..max without.
stats_verdict_t
stats_compare (const double *a, size_t m, const double *b, size_t n)
{
    stats_verdict_t verdict = {
        .m = m, .n = n, .median_a = NAN, .median_b = NAN, .change_pct = NAN,
        .p_value = NAN, .low_pct = NAN, .high_pct = NAN, .confidence = NAN
    };
    if (m == 0 || n == 0)
        return verdict;
    verdict.median_a = stats_median (a, m);
    verdict.median_b = stats_median (b, n);
    double base = verdict.median_a;
    if (base != 0)
        verdict.change_pct = (verdict.median_b - base) / fabs (base) * 100;
    else
    if (verdict.median_b == 0)
        verdict.change_pct = 0;     //  nothing then, nothing now
    if (m < STATS_STRONG_MIN || n < STATS_STRONG_MIN) {
        verdict.real = !s_within_range (a, m, verdict.median_b)
                    && !s_within_range (b, n, verdict.median_a);
        return verdict;
    }
    verdict.strong = true;
    verdict.p_value = stats_mwu_p (a, m, b, n);
    double low, high;
    double *log_a = s_logs (a, m), *log_b = log_a? s_logs (b, n): NULL;
    if (log_a && log_b) {
        //  Rates, times and shares are above 0, and a change of one is a
        //  ratio: the interval is the shift of the logarithms, a change
        //  in % once turned back, never past -100% and as wide for a
        //  halving as for a doubling.
        verdict.confidence = stats_shift_interval (log_a, m, log_b, n, 1 - STATS_ALPHA,
                                                   &low, &high);
        verdict.low_pct = expm1 (low) * 100;
        verdict.high_pct = expm1 (high) * 100;
    }
    else {
        //  A sample with 0 or less in it: the shift itself, in % of the
        //  first median.
        verdict.confidence = stats_shift_interval (a, m, b, n, 1 - STATS_ALPHA, &low, &high);
        if (base != 0) {
            verdict.low_pct = low / fabs (base) * 100;
            verdict.high_pct = high / fabs (base) * 100;
        }
    }
    free (log_a);
    free (log_b);
    verdict.real = verdict.p_value <= STATS_ALPHA * (1 + STATS_EPSILON)
                && (low > 0 || high < 0);
    return verdict;
}
