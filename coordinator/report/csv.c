/*  coordinator/report/csv.c: the CSV report (report.csv); see report.h.

    One row per test x iteration x stream, for spreadsheets and scripts.
    A row carries the stream's figures and, repeated on each row of the
    test, the test's summary (columns test_...), so that a single row
    is understood without the others. Column names carry their unit.
    Fields follow RFC 4180: a field with a comma, a quote or a line break
    is quoted, its quotes doubled; lines end in CRLF. A rate that could
    not be computed is an empty field. A stream without a RESULT has its
    last sample's bytes, with bytes_from_sample true.
*/
#include "report.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"
#include "../../proto/printable.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *const s_columns [] = {
    "test", "iteration", "announced_wall_ns", "agent", "job", "class", "stream", "path",
    "finished", "bytes", "start_ns", "stop_ns", "last_issue_ns", "last_write_ns", "end_ns",
    "rate_mbps",
    "write_rate_mbps", "usr_ns", "sys_ns", "clock_uncertainty_ns", "samples", "error",
    "bytes_from_sample",
    "test_streams", "test_hosts", "test_failed_streams", "test_bytes",
    "test_first_start_ns", "test_last_end_ns", "test_combined_mbps",
    "test_all_running_mbps", "test_all_running_ns", "test_host_skew_ns",
    "test_stream_skew_ns", "test_clock_uncertainty_ns",
    "test_disk_streams", "test_disk_bytes", "test_disk_combined_mbps",
    "test_network_streams", "test_network_bytes", "test_network_combined_mbps"
};

//  A text field, quoted when it must be (RFC 4180). Its control bytes are
//  written \xNN (proto/printable.h), line breaks too: a row stays a line.
void
csv_field (const char *text, FILE *out)
{
    bool quoted = strpbrk (text, ",\"") != NULL;
    if (quoted)
        fputc ('"', out);
    size_t left = strlen (text);
    while (left > 0) {
        char piece [PRINTABLE_GROWTH + 1];
        size_t taken = printable_char (text, left, piece);
        if (piece [0] == '"')
            fputc ('"', out);
        fputs (piece, out);
        text += taken;
        left -= taken;
    }
    if (quoted)
        fputc ('"', out);
}

//  A rate with six decimals (to the byte per second), empty when unknown.
static void
s_rate (double rate_mbps, FILE *out)
{
    if (isfinite (rate_mbps))
        fprintf (out, "%.6f", rate_mbps);
}

//  The columns of one stream's row; the test's columns follow.
static void
s_stream_fields (const test_result_t *test, const stream_result_t *stream, FILE *out)
{
    csv_field (test->name, out);
    fprintf (out, ",%" PRIu32 ",%" PRId64 ",", test->iteration, test->announced_wall_ns);
    csv_field (stream->agent, out);
    fputc (',', out);
    csv_field (stream->job, out);
    fprintf (out, ",%s,%" PRIu32 ",", stream->job_class == CLASS_NETWORK? "network": "disk",
             stream->index);
    csv_field (stream->path? stream->path: "", out);
    fprintf (out, ",%s,%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",",
             stream->finished? "true": "false", stream->bytes, stream->start_ns,
             stream->stop_ns, stream->last_issue_ns, stream->last_write_ns, stream->end_ns);
    s_rate (aggregate_stream_rate_mbps (stream), out);
    fputc (',', out);
    s_rate (aggregate_stream_write_rate_mbps (stream), out);
    fprintf (out, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%zu,",
             stream->usr_ns, stream->sys_ns, stream->clock_uncertainty_ns,
             stream->sample_count);
    csv_field (stream->error? stream->error: "", out);
    fprintf (out, ",%s", stream->bytes_sampled? "true": "false");
}

//  The test's columns, the same on each of its rows.
static void
s_test_fields (const test_summary_t *summary, FILE *out)
{
    fprintf (out, ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRId64 ",%" PRId64 ",",
             summary->streams, summary->hosts, summary->failed_streams, summary->bytes,
             summary->first_start_ns, summary->last_end_ns);
    s_rate (summary->combined_mbps, out);
    fputc (',', out);
    s_rate (summary->all_running_mbps, out);
    fprintf (out, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",",
             summary->all_running_ns, summary->host_skew_ns, summary->stream_skew_ns,
             summary->clock_uncertainty_ns);
    fprintf (out, "%" PRIu32 ",%" PRIu64 ",", summary->disk.streams, summary->disk.bytes);
    s_rate (summary->disk.combined_mbps, out);
    fprintf (out, ",%" PRIu32 ",%" PRIu64 ",", summary->network.streams, summary->network.bytes);
    s_rate (summary->network.combined_mbps, out);
}

//  Print the CSV report of a run.
int
csv_report (const run_result_t *run, FILE *out)
{
    assert (run);
    assert (out);
    size_t columns = sizeof s_columns / sizeof s_columns [0];
    for (size_t column = 0; column < columns; column++)
        fprintf (out, "%s%s", column? ",": "", s_columns [column]);
    fputs ("\r\n", out);
    for (size_t test_nbr = 0; test_nbr < run->test_count; test_nbr++) {
        const test_result_t *test = &run->tests [test_nbr];
        for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
            s_stream_fields (test, &test->streams [nbr], out);
            s_test_fields (&test->summary, out);
            fputs ("\r\n", out);
        }
    }
    return ferror (out)? -1: 0;
}
