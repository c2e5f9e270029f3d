/*  coordinator/numbers/aggregate_notation.c: rates as a report writes them, in the
    engineers' notation and in the run's units; see aggregate.h.

    Three significant figures, no decimals from 100 on: "1309", "44.5",
    "3.27". Several streams: "96" for one, "2x44.5" when they agree within
    5%, else "30.1+27.0+28.4"; a stream without a rate is "-". A fleet's
    streams that differ are too many to list: "256: 3.73..133, median
    44.5" (count, min..max, median; ", 3 without" for streams without a
    rate).
*/
#include "aggregate.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Two rates count as "the same" in the notation when each lies within
//  this share of their mean: then "3x28.5" says everything.
#define NOTATION_EQUAL_SHARE 0.05

//  Rates below 1 MB/s still get three significant figures, but no more
//  than this many decimals (0.000123 MB/s is a stalled stream, not data).
#define RATE_DECIMALS_MAX 6

//  Streams listed one by one at most; more are summarized.
#define NOTATION_LIST_MAX 8

//  Marks a figure that could not be computed, and a truncated list.
#define NOTATION_NONE "-"
#define NOTATION_MORE "..."

//  --------------------------------------------------------------------------
//  Rates

//  Drop trailing zeros after a decimal point, then the point itself.
static void
s_strip_zeros (char *text)
{
    if (!strchr (text, '.'))
        return;
    size_t length = strlen (text);
    while (length > 0 && text [length - 1] == '0')
        text [--length] = 0;
    if (length > 0 && text [length - 1] == '.')
        text [--length] = 0;
}

//  Digits of a formatted number, leading zeros not counted.
static int
s_significant_digits (const char *text)
{
    int digits = 0;
    for (; *text; text++)
        if (*text >= '1' && *text <= '9')
            digits++;
        else
        if (*text == '0' && digits > 0)
            digits++;
    return digits;
}

//  Format a rate with three significant figures and no decimals from 100
//  on; strip_zeros drops zeros that only pad the figures ("96.0" -> "96").
static void
s_format_rate (double rate_mbps, bool strip_zeros, char *buf, size_t buflen)
{
    if (buflen == 0)
        return;
    if (!isfinite (rate_mbps)) {
        snprintf (buf, buflen, "%s", NOTATION_NONE);
        return;
    }
    double magnitude = fabs (rate_mbps);
    int decimals = 0;
    if (magnitude > 0 && magnitude < 100) {
        decimals = 2 - (int) floor (log10 (magnitude));
        if (decimals > RATE_DECIMALS_MAX)
            decimals = RATE_DECIMALS_MAX;
        if (decimals < 0)
            decimals = 0;
    }
    snprintf (buf, buflen, "%.*f", decimals, rate_mbps);
    //  Rounding may carry into the next power of ten (9.996 -> "10.00",
    //  99.96 -> "100.0"), and log10 may land a hair off at an exact power:
    //  then one decimal fewer brings the figure back to three digits.
    while (decimals > 0 && s_significant_digits (buf) > 3)
        snprintf (buf, buflen, "%.*f", --decimals, rate_mbps);
    if (strip_zeros)
        s_strip_zeros (buf);
}

//  One rate, three significant figures, padding zeros dropped.
void
aggregate_format_rate (double rate_mbps, char *buf, size_t buflen)
{
    assert (buf);
    s_format_rate (rate_mbps, true, buf, buflen);
}

//  True when every rate is finite and within NOTATION_EQUAL_SHARE of
//  their mean, which goes to *mean_mbps.
static bool
s_rates_equal (const double *rates_mbps, size_t count, double *mean_mbps)
{
    double sum = 0;
    for (size_t nbr = 0; nbr < count; nbr++) {
        if (!isfinite (rates_mbps [nbr]))
            return false;
        sum += rates_mbps [nbr];
    }
    double mean = sum / (double) count;
    for (size_t nbr = 0; nbr < count; nbr++)
        if (fabs (rates_mbps [nbr] - mean) > NOTATION_EQUAL_SHARE * fabs (mean))
            return false;
    *mean_mbps = mean;
    return true;
}

//  Many rates that differ, known of them finite: "256: 3.73..133, median
//  44.5", with ", 3 without" for those without a rate.
static void
s_summary (const double *rates_mbps, size_t count, size_t known, char *buf, size_t buflen)
{
    aggregate_stats_t stats = aggregate_stats (rates_mbps, count);
    char low [32], middle [32], high [32], without [48] = "";
    s_format_rate (stats.min, true, low, sizeof (low));
    s_format_rate (stats.median, true, middle, sizeof (middle));
    s_format_rate (stats.max, true, high, sizeof (high));
    if (known < count)
        snprintf (without, sizeof (without), ", %zu without", count - known);
    snprintf (buf, buflen, "%zu: %s..%s, median %s%s", count, low, high, middle, without);
}

//  Rates of several streams as engineers write them.
void
aggregate_notation (const double *rates_mbps, size_t count, char *buf, size_t buflen)
{
    assert (buf);
    assert (rates_mbps || count == 0);
    if (buflen == 0)
        return;
    double mean_mbps;
    char rate [32];
    size_t known = 0;
    for (size_t nbr = 0; nbr < count; nbr++)
        known += isfinite (rates_mbps [nbr]);
    //  Streams that all failed have no rate to write down: "-", not "-+-+-".
    if (known == 0)
        snprintf (buf, buflen, "%s", NOTATION_NONE);
    else
    if (count == 1)
        s_format_rate (rates_mbps [0], true, buf, buflen);
    else
    if (s_rates_equal (rates_mbps, count, &mean_mbps)) {
        s_format_rate (mean_mbps, true, rate, sizeof (rate));
        snprintf (buf, buflen, "%zux%s", count, rate);
    }
    else
    if (count > NOTATION_LIST_MAX)
        s_summary (rates_mbps, count, known, buf, buflen);
    else {
        //  A list keeps its padding zeros ("30.1+27.0+28.4") so that its
        //  members read at one precision. A list too long for the buffer
        //  ends in "..." rather than in half a number.
        size_t used = 0;
        buf [0] = 0;
        for (size_t nbr = 0; nbr < count; nbr++) {
            const char *plus = nbr > 0? "+": "";
            s_format_rate (rates_mbps [nbr], false, rate, sizeof (rate));
            size_t need = strlen (plus) + strlen (rate);
            size_t reserve = nbr + 1 < count? strlen ("+" NOTATION_MORE): 0;
            if (used + need + reserve >= buflen) {
                snprintf (buf + used, buflen - used, "%s%s", plus, NOTATION_MORE);
                break;
            }
            used += (size_t) snprintf (buf + used, buflen - used, "%s%s", plus, rate);
        }
    }
}


//  --------------------------------------------------------------------------
//  Units and tests

int
aggregate_units_parse (const char *text)
{
    if (strcmp (text, "MB") == 0 || strcmp (text, "MB/s") == 0)
        return UNITS_MB;
    if (strcmp (text, "MiB") == 0 || strcmp (text, "MiB/s") == 0)
        return UNITS_MIB;
    return -1;
}

//  A rate stored in MB/s, in units.
double
aggregate_in_units (double rate_mbps, int units)
{
    return units == UNITS_MIB? rate_mbps * 1e6 / 1048576.0: rate_mbps;
}

//  "MB/s" or "MiB/s".
const char *
aggregate_units_name (int units)
{
    return units == UNITS_MIB? "MiB/s": "MB/s";
}

//  The notation of one class's streams of one kind (requests: streams of
//  requests in a mixed test); *count gets how many there were.
static void
s_kind_notation (const test_result_t *test, int job_class, int units, bool requests,
                 double *rates, char *buf, size_t buflen, size_t *count)
{
    *count = 0;
    for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
        const stream_result_t *stream = &test->streams [nbr];
        if ((stream->job_class == CLASS_NETWORK) != (job_class == CLASS_NETWORK)
        ||  (!test->rate_ops && stream->ops_writes != requests))
            continue;
        //  Operations per second do not change with the units of bytes.
        rates [(*count)++] = test->rate_ops || requests? aggregate_stream_ops_per_s (stream)
                           : aggregate_in_units (aggregate_stream_rate_mbps (stream), units);
    }
    aggregate_notation (rates, *count, buf, buflen);
}

//  One class's stream rates of a test, in units, as engineers write them;
//  in a mixed test the streams of bytes in MB/s, then those of requests
//  in requests/s: "641 & 2x31100/s".
void
aggregate_class_notation (const test_result_t *test, int job_class, int units,
                          char *buf, size_t buflen)
{
    double *rates = test->stream_count? calloc (test->stream_count, sizeof (double)): NULL;
    //  Without memory for the rates the notation says nothing rather than
    //  something partial.
    if (!rates && test->stream_count) {
        snprintf (buf, buflen, "%s", NOTATION_NONE);
        return;
    }
    size_t bytes_count, requests_count = 0;
    char requests [128];
    s_kind_notation (test, job_class, units, false, rates, buf, buflen, &bytes_count);
    if (aggregate_test_mixed (test))
        s_kind_notation (test, job_class, units, true, rates, requests, sizeof requests,
                         &requests_count);
    if (requests_count && !bytes_count)
        snprintf (buf, buflen, "%s/s", requests);
    else
    if (requests_count) {
        size_t used = strlen (buf);
        snprintf (buf + used, buflen - used, " & %s/s", requests);
    }
    free (rates);
}

//  The per-stream notation of a test in units.
void
aggregate_per_stream (const test_result_t *test, int units, char *buf, size_t buflen)
{
    const test_summary_t *summary = &test->summary;
    char disk [sizeof summary->disk.notation], network [sizeof summary->network.notation];
    if (units == UNITS_MB) {
        snprintf (disk, sizeof disk, "%s", summary->disk.notation);
        snprintf (network, sizeof network, "%s", summary->network.notation);
    }
    else {
        aggregate_class_notation (test, CLASS_DISK, units, disk, sizeof disk);
        aggregate_class_notation (test, CLASS_NETWORK, units, network, sizeof network);
    }
    if (summary->disk.streams && summary->network.streams)
        snprintf (buf, buflen, "%s/%s", disk, network);
    else
    if (summary->network.streams)
        snprintf (buf, buflen, "%s", network);
    else
    if (summary->disk.streams)
        snprintf (buf, buflen, "%s", disk);
    else
        snprintf (buf, buflen, "-");
}

void
aggregate_combined (const test_result_t *test, int units, char *buf, size_t buflen)
{
    const test_summary_t *summary = &test->summary;
    char ops [64];
    aggregate_format_rate (summary->combined_ops_per_s, ops, sizeof ops);
    if (strcmp (ops, NOTATION_NONE) != 0)
        strcat (ops, "/s");
    if (test->rate_ops)
        snprintf (buf, buflen, "%s", ops);
    else {
        aggregate_format_rate (aggregate_in_units (summary->combined_mbps, units), buf, buflen);
        if (aggregate_test_mixed (test)) {
            size_t used = strlen (buf);
            snprintf (buf + used, buflen - used, " & %s", ops);
        }
    }
}
