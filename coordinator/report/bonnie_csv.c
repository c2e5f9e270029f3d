/*  coordinator/report/bonnie_csv.c: bonnie++'s CSV (`iofleet report
    --format bonnie-csv`), for its own readers bon_csv2txt and
    bon_csv2html; see report.h.

    One line per host and run of each bonnie test, in the order the
    tests ran, as bonnie++ 2.00 writes with -q: CSV format version 1.98;
    the version (iofleet-VERSION, the host's agent's); the machine (the
    agent, with " #N" after it for run N > 1 of a test, as the text
    report marks it); the concurrency (the host's streams); the seed
    (the test's announced start in seconds: bonnie++ seeds from the time
    by default); the file size and chunk size (a stream's, in bonnie++'s
    notation); the seeks of a stream and the seekers per stream (1).
    Then K/sec and %CP of putc, block output, rewrite, getc, block
    input, and seeks/s and %CP; the per-character tests are left out as
    bonnie++ -f leaves them (empty fields), and so are the file creation
    tests, as with -n 0. Last the latencies (the longest request of the
    host in the phase) in bonnie++'s units: at most five digits, in us,
    ms or s. A phase the host has no figure of is empty. The figures
    are those of the text report's bonnie++ lines (bonnie.c).
*/
#include "report.h"
#include "bonnie.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define S_FORMAT_VERSION "1.98"     //  bonnie++ 2.00's CSV format
#define S_FILE_FIELDS    17         //  num_files .. ran_del_cpu: tests not run
#define S_FILE_LATENCIES 6          //  seq_create_latency .. ran_del_latency

//  One text field, its commas and line breaks made blanks: the readers
//  split on every comma and read a line a record.
static void
s_text (const char *text, FILE *out)
{
    for (; *text; text++)
        fputc (*text == ',' || *text == '\n' || *text == '\r'? '_': *text, out);
}

//  ",value" with decimals, or "," when there is none.
static void
s_figure (double value, int decimals, FILE *out)
{
    fputc (',', out);
    if (isfinite (value))
        fprintf (out, "%.*f", decimals, value);
}

//  ",latency" in bonnie++'s units (5766us, 1149ms, 12s), or ",".
static void
s_latency (int64_t ns, FILE *out)
{
    fputc (',', out);
    if (ns <= 0)
        return;
    int64_t value = (ns + 500) / 1000;
    const char *unit = "us";
    if (value > 99999) {
        value = (value + 500) / 1000;
        unit = "ms";
    }
    if (value > 99999) {
        value = (value + 500) / 1000;
        unit = "s";
    }
    fprintf (out, "%" PRId64 "%s", value, unit);
}

//  The version of the agent called name, "" if the run has none.
static const char *
s_agent_version (const run_result_t *run, const char *name)
{
    for (size_t nbr = 0; nbr < run->agent_count; nbr++)
        if (strcmp (run->agents [nbr].name, name) == 0)
            return run->agents [nbr].version;
    return "";
}

//  The line of one host of one run.
static void
s_line (const run_result_t *run, const bonnie_run_t *bonnie, const bonnie_host_t *host,
        FILE *out)
{
    char size [32], chunk [32];
    bonnie_size (host->stream->bytes, size, sizeof size);
    bonnie_size (host->stream->bs_bytes, chunk, sizeof chunk);
    fputs (S_FORMAT_VERSION ",iofleet-", out);
    s_text (s_agent_version (run, host->agent), out);
    fputc (',', out);
    s_text (host->agent, out);
    if (bonnie->first->iteration > 1)
        fprintf (out, " #%" PRIu32, bonnie->first->iteration);
    fprintf (out, ",%" PRIu32 ",%" PRId64 ",%s,%s,", host->streams,
             bonnie->first->announced_wall_ns / 1000000000, size, chunk);
    //  The seeks of the host's first stream that did them, and 1 seeker.
    const test_result_t *seeks = bonnie->phases [BONNIE_SEEKS];
    bool found = false;
    for (size_t nbr = 0; seeks && nbr < seeks->stream_count && !found; nbr++) {
        const stream_result_t *stream = &seeks->streams [nbr];
        found = stream->finished && !stream->error && strcmp (stream->agent, host->agent) == 0;
        if (found)
            fprintf (out, "%" PRIu64 ",1", stream->reads);
    }
    if (!found)
        fputc (',', out);
    fputs (",,", out);                      //  putc, putc_cpu: left out (-f)
    for (int p = 0; p < BONNIE_PHASES; p++) {
        if (p == 2)
            fputs (",,", out);              //  getc, getc_cpu
        s_figure (host->figures [p].per_second, p == BONNIE_SEEKS? 1: 0, out);
        s_figure (host->figures [p].cpu_pct, 0, out);
    }
    for (int field = 0; field < S_FILE_FIELDS; field++)
        fputc (',', out);
    fputc (',', out);                       //  putc_latency
    for (int p = 0; p < BONNIE_PHASES; p++) {
        if (p == 2)
            fputc (',', out);               //  getc_latency
        s_latency (host->figures [p].max_latency_ns, out);
    }
    for (int field = 0; field < S_FILE_LATENCIES; field++)
        fputc (',', out);
    fputc ('\n', out);
}

int
bonnie_csv_report (const run_result_t *run, FILE *out)
{
    size_t runs = 0;
    bonnie_run_t bonnie;
    while (bonnie_next_run (run, &runs, &bonnie)) {
        size_t hosts = 0;
        bonnie_host_t host;
        while (bonnie_next_host (&bonnie, &hosts, &host))
            s_line (run, &bonnie, &host, out);
    }
    return ferror (out)? -1: 0;
}
