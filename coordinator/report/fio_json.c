/*  coordinator/report/fio_json.c: fio's json+ output (`iofleet report
    --format fio-json`), for fio's own tools (fio_jsonplus_clat2csv and
    the others that read json+); see report.h.

    The layout is fio 3.33's with --output-format=json+, as fio --client
    writes it for a fleet:

        { "fio version", "timestamp", "timestamp_ms", "time" (in UTC,
          where fio writes local time, so that a rendering is the same
          anywhere),
          "global options": {},
          "jobs": [ a job per stream of every test, in the order they ran ],
          "client_stats": [ per test, the same jobs, then "All clients" ],
          "iofleet": { "scenario", "label" } }

    A job is one stream of one host: "jobname" its job, "groupid" its
    report row (a test, or a phase of one, and its iteration; fio's
    groups run one after another as ours do), "hostname" its agent,
    "error" 5 (EIO) when it failed or its agent was lost; sections
    "read", "write" and "trim" (empty: we trim nothing) with io_bytes,
    bw (KiB/s), bw_bytes, iops, runtime (ms, start to end with its
    fsync), total_ios, and clat_ns from the stream's histograms: min,
    max, mean exact, stddev and percentiles from the buckets, and
    "bins" {value: count}, a bin per non-empty bucket at its midpoint
    (clamped to the exact min and max), as histogram_percentile reads
    it; lat_ns is the same but for the bins and percentiles (a request
    is timed from submission: fio's slat is 0); "sync" holds the fsyncs.
    usr_cpu and sys_cpu are the stream thread's CPU time over its
    runtime. "job options" give the stream's filename, bs, direct, and
    as rw what it did (read, write or rw; random in a test of requests).
    "iofleet" in each job names its row, iteration, agent and stream,
    and the error.

    Bytes by direction: a test of requests (randrw, seeks) moves a block
    per request; a test of bytes moves its bytes in its phase's
    direction, and the requests of the other (a copy's reads, a
    rewrite's reads) are blocks of the same bytes.

    "All clients" merges every stream of a test: bytes and requests
    added up, the histograms merged exactly, the runtime the test's
    first start to last end.
*/
#include "report.h"
#include "../numbers/latency.h"
#include "../results/json_stream.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define S_LAYOUT   "fio-3.33"       //  the json+ layout followed
#define S_EIO      5                //  fio's error of a job that failed

//  fio's default completion latency percentiles.
static const double s_percentiles [] = {
    1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99
};

//  The directions of a job, each a section.
enum { S_READ, S_WRITE, S_DIRECTIONS };

//  What a set of streams did in one direction.
typedef struct {
    uint64_t bytes;                 //  io_bytes
    uint64_t ios;                   //  total_ios
    histogram_t *latency;           //  their requests' latency, merged
} s_direction_t;

//  What a set of streams did: one stream, or all of a test.
typedef struct {
    s_direction_t directions [S_DIRECTIONS];
    uint64_t fsyncs;                //  sync's total_ios
    histogram_t *sync;              //  their latency
    int64_t runtime_ns;             //  start to end
    double cpu_ns [2];              //  user and system CPU time
    double stream_ns;               //  the streams' runtimes added up (CPU's share)
} s_tally_t;

//  What the elements of the arrays are written from.
typedef struct {
    const run_result_t *run;
    size_t *offsets;                //  per test, its first element; then the count
    bool clients;                   //  client_stats: an "All clients" after each test
} s_elements_t;

//  A tally with empty histograms, or -1 when memory ran out.
static int
s_tally_init (s_tally_t *tally)
{
    memset (tally, 0, sizeof *tally);
    tally->directions [S_READ].latency = histogram_new ();
    tally->directions [S_WRITE].latency = histogram_new ();
    tally->sync = histogram_new ();
    return tally->directions [S_READ].latency && tally->directions [S_WRITE].latency
        && tally->sync? 0: -1;
}

//  Free a tally's histograms.
static void
s_tally_free (s_tally_t *tally)
{
    histogram_destroy (&tally->directions [S_READ].latency);
    histogram_destroy (&tally->directions [S_WRITE].latency);
    histogram_destroy (&tally->sync);
}

//  Merge a stored histogram into h. Returns 0 or -1.
static int
s_merge (histogram_t *h, const latency_packed_t *slot, histogram_t *scratch)
{
    char err [256];
    return latency_load (slot, scratch, err, sizeof err) || histogram_merge (h, scratch)? -1: 0;
}

//  Add one stream of test to a tally (see the file's head for the
//  bytes). Returns 0 or -1.
static int
s_tally_add (s_tally_t *tally, const test_result_t *test, const stream_result_t *stream,
             histogram_t *scratch)
{
    uint64_t counts [S_DIRECTIONS] = { stream->reads, stream->writes };
    int data = stream->reads_data? S_READ: S_WRITE;
    for (int d = 0; d < S_DIRECTIONS; d++) {
        uint64_t blocks = counts [d] * stream->bs_bytes;
        uint64_t bytes = test->rate_ops || test->rate_requests? blocks
                       : d == data? stream->bytes
                       : blocks < stream->bytes? blocks: stream->bytes;
        tally->directions [d].bytes += bytes;
        tally->directions [d].ios += counts [d];
    }
    tally->fsyncs += stream->fsyncs;
    if (stream->end_ns > stream->start_ns) {
        tally->stream_ns += (double) (stream->end_ns - stream->start_ns);
        tally->cpu_ns [0] += (double) stream->usr_ns;
        tally->cpu_ns [1] += (double) stream->sys_ns;
    }
    return s_merge (tally->directions [S_READ].latency, &stream->latency [MSG_LATENCY_READ], scratch)
        || s_merge (tally->directions [S_WRITE].latency, &stream->latency [MSG_LATENCY_WRITE], scratch)
        || s_merge (tally->sync, &stream->latency [MSG_LATENCY_FSYNC], scratch)? -1: 0;
}

//  fio's figures of a latency: min, max, mean, stddev, N, and with
//  bins its percentiles and bins.
static json_t *
s_latency (const histogram_t *h, bool bins)
{
    uint64_t count = h? histogram_count (h): 0;
    double mean = count? histogram_mean (h): 0, squares = 0;
    json_t *percentile = bins && count? json_object (): NULL;
    json_t *buckets = bins && count? json_object (): NULL;
    size_t cursor = 0;
    histogram_bucket_t bucket;
    while (count && histogram_next (h, &cursor, &bucket)) {
        int64_t value = bucket.low_ns + (bucket.high_ns - bucket.low_ns) / 2;
        if (value < histogram_min (h))
            value = histogram_min (h);
        if (value > histogram_max (h))
            value = histogram_max (h);
        squares += (double) bucket.count * ((double) value - mean) * ((double) value - mean);
        char key [32];
        snprintf (key, sizeof key, "%lld", (long long) value);
        if (buckets)
            json_object_set_new (buckets, key, json_integer ((json_int_t) bucket.count));
    }
    for (size_t nbr = 0; percentile && nbr < sizeof s_percentiles / sizeof *s_percentiles; nbr++) {
        char key [32];
        snprintf (key, sizeof key, "%f", s_percentiles [nbr]);
        json_object_set_new (percentile, key,
                             json_integer ((json_int_t) histogram_percentile (h, s_percentiles [nbr])));
    }
    json_t *object = json_pack ("{s:I, s:I, s:f, s:f, s:I}",
                                "min", (json_int_t) (count? histogram_min (h): 0),
                                "max", (json_int_t) (count? histogram_max (h): 0),
                                "mean", mean,
                                "stddev", count > 1? sqrt (squares / (double) (count - 1)): 0.0,
                                "N", (json_int_t) count);
    if (object && percentile)
        json_object_set_new (object, "percentile", percentile);
    else
        json_decref (percentile);
    if (object && buckets)
        json_object_set_new (object, "bins", buckets);
    else
        json_decref (buckets);
    return object;
}

//  One direction's section; direction NULL for an empty one (trim).
static json_t *
s_section (const s_direction_t *direction, int64_t runtime_ns)
{
    uint64_t bytes = direction? direction->bytes: 0, ios = direction? direction->ios: 0;
    double seconds = (double) runtime_ns / 1e9;
    double bw_bytes = seconds > 0? (double) bytes / seconds: 0;
    return json_pack ("{s:I, s:I, s:I, s:I, s:f, s:I, s:I, s:i, s:i, s:o, s:o, s:o}",
                      "io_bytes", (json_int_t) bytes,
                      "io_kbytes", (json_int_t) (bytes / 1024),
                      "bw_bytes", (json_int_t) bw_bytes,
                      "bw", (json_int_t) (bw_bytes / 1024),
                      "iops", seconds > 0? (double) ios / seconds: 0.0,
                      "runtime", (json_int_t) llround ((double) runtime_ns / 1e6),
                      "total_ios", (json_int_t) ios,
                      "short_ios", 0, "drop_ios", 0,
                      "slat_ns", s_latency (NULL, false),
                      "clat_ns", s_latency (direction? direction->latency: NULL, true),
                      "lat_ns", s_latency (direction? direction->latency: NULL, false));
}

//  A share of the streams' runtimes in percent, 0 without one.
static double
s_cpu_pct (const s_tally_t *tally, int which)
{
    return tally->stream_ns > 0? 100.0 * tally->cpu_ns [which] / tally->stream_ns: 0;
}

//  A job of a tally: its sections and CPU; the caller adds the rest.
static json_t *
s_job (const s_tally_t *tally, const char *jobname, size_t groupid, const char *hostname,
       int error)
{
    return json_pack ("{s:s, s:I, s:s, s:i, s:o, s:o, s:o, s:{s:I, s:o}, s:I, s:f, s:f, "
                      "s:i, s:i, s:i}",
                      "jobname", jobname, "groupid", (json_int_t) groupid,
                      "hostname", hostname, "error", error,
                      "read", s_section (&tally->directions [S_READ], tally->runtime_ns),
                      "write", s_section (&tally->directions [S_WRITE], tally->runtime_ns),
                      "trim", s_section (NULL, 0),
                      "sync", "total_ios", (json_int_t) tally->fsyncs,
                              "lat_ns", s_latency (tally->sync, true),
                      "job_runtime", (json_int_t) llround ((double) tally->runtime_ns / 1e6),
                      "usr_cpu", s_cpu_pct (tally, 0), "sys_cpu", s_cpu_pct (tally, 1),
                      "ctx", 0, "majf", 0, "minf", 0);
}

//  fio's rw of what a stream did: read, write or rw, random ("rand...")
//  in a test of requests (randrw, seeks).
static const char *
s_rw (const test_result_t *test, const stream_result_t *stream)
{
    bool random = test->rate_ops || test->rate_requests;
    if (stream->reads && stream->writes)
        return random? "randrw": "rw";
    if (stream->reads || stream->reads_data)
        return random? "randread": "read";
    return random? "randwrite": "write";
}

//  The job of one stream, or NULL when memory ran out.
static json_t *
s_stream_job (const test_result_t *test, size_t groupid, const stream_result_t *stream)
{
    s_tally_t tally;
    histogram_t *scratch = histogram_new ();
    json_t *job = NULL;
    if (s_tally_init (&tally) == 0 && scratch
    &&  s_tally_add (&tally, test, stream, scratch) == 0) {
        tally.runtime_ns = stream->end_ns > stream->start_ns? stream->end_ns - stream->start_ns: 0;
        bool failed = stream->error || !stream->finished;
        job = s_job (&tally, stream->job, groupid, stream->agent, failed? S_EIO: 0);
        char bs [32];
        snprintf (bs, sizeof bs, "%llu", (unsigned long long) stream->bs_bytes);
        json_t *options = json_pack ("{s:s, s:s, s:s, s:s}", "filename", stream->path? stream->path: "",
                                     "rw", s_rw (test, stream),
                                     "bs", bs, "direct", stream->direct? "1": "0");
        json_t *ours = json_pack ("{s:s, s:I, s:s, s:I, s:s?}", "test", test->name,
                                  "iteration", (json_int_t) test->iteration,
                                  "agent", stream->agent, "stream", (json_int_t) stream->index,
                                  "error", stream->error);
        if (!job || !options || !ours
        ||  json_object_set_new (job, "job options", options)
        ||  json_object_set_new (job, "iofleet", ours)) {
            json_decref (job);
            job = NULL;
        }
    }
    histogram_destroy (&scratch);
    s_tally_free (&tally);
    return job;
}

//  The "All clients" job of a test, or NULL when memory ran out.
static json_t *
s_all_clients (const test_result_t *test, size_t groupid)
{
    s_tally_t tally;
    histogram_t *scratch = histogram_new ();
    json_t *job = NULL;
    bool ok = s_tally_init (&tally) == 0 && scratch;
    for (size_t nbr = 0; ok && nbr < test->stream_count; nbr++)
        ok = s_tally_add (&tally, test, &test->streams [nbr], scratch) == 0;
    if (ok) {
        const test_summary_t *summary = &test->summary;
        tally.runtime_ns = summary->last_end_ns > summary->first_start_ns?
                           summary->last_end_ns - summary->first_start_ns: 0;
        job = s_job (&tally, "All clients", groupid, "",
                     summary->failed_streams? S_EIO: 0);
        json_t *ours = json_pack ("{s:s, s:I}", "test", test->name,
                                  "iteration", (json_int_t) test->iteration);
        if (!job || !ours || json_object_set_new (job, "iofleet", ours)) {
            json_decref (job);
            job = NULL;
        }
    }
    histogram_destroy (&scratch);
    s_tally_free (&tally);
    return job;
}

//  Write element nbr of "jobs" or "client_stats".
static int
s_element (FILE *out, int depth, const void *items, size_t nbr)
{
    const s_elements_t *elements = (const s_elements_t *) items;
    const run_result_t *run = elements->run;
    //  The test whose elements hold nbr: the last that starts at or before it.
    size_t low = 0, high = run->test_count;
    while (high - low > 1) {
        size_t middle = low + (high - low) / 2;
        if (elements->offsets [middle] <= nbr)
            low = middle;
        else
            high = middle;
    }
    while (low + 1 < run->test_count && elements->offsets [low + 1] <= nbr)
        low++;
    const test_result_t *test = &run->tests [low];
    size_t index = nbr - elements->offsets [low];
    json_t *job = index < test->stream_count? s_stream_job (test, low, &test->streams [index])
                                            : s_all_clients (test, low);
    return json_stream_value (out, depth, job);
}

//  Offsets of each test's elements: its streams, and with clients an
//  "All clients" for a test that has any. NULL when memory ran out.
static size_t *
s_offsets (const run_result_t *run, bool clients)
{
    size_t *offsets = (size_t *) calloc (run->test_count + 1, sizeof (size_t));
    for (size_t t = 0; offsets && t < run->test_count; t++) {
        size_t streams = run->tests [t].stream_count;
        offsets [t + 1] = offsets [t] + streams + (clients && streams? 1: 0);
    }
    return offsets;
}

int
fio_json_report (const run_result_t *run, FILE *out)
{
    s_elements_t jobs = { .run = run, .offsets = s_offsets (run, false) };
    s_elements_t clients = { .run = run, .offsets = s_offsets (run, true), .clients = true };
    time_t seconds = (time_t) (run->started_wall_ns / 1000000000);
    struct tm tm;
    char when [64] = "";
    if (gmtime_r (&seconds, &tm))
        strftime (when, sizeof when, "%a %b %e %H:%M:%S %Y", &tm);
    json_t *root = json_pack ("{s:s, s:I, s:I, s:s, s:{}, s:[], s:[], s:{s:s, s:s}}",
                              "fio version", S_LAYOUT,
                              "timestamp", (json_int_t) seconds,
                              "timestamp_ms", (json_int_t) (run->started_wall_ns / 1000000),
                              "time", when, "global options", "jobs", "client_stats",
                              "iofleet", "scenario", run->scenario_path, "label", run->label);
    int rc = -1;
    if (root && jobs.offsets && clients.offsets) {
        json_stream_array_t arrays [] = {
            { .key = "jobs", .count = jobs.offsets [run->test_count], .write = s_element,
              .items = &jobs },
            { .key = "client_stats", .count = clients.offsets [run->test_count],
              .write = s_element, .items = &clients }
        };
        rc = json_stream_object (out, 0, root, arrays, 2);
        root = NULL;
        if (rc == 0 && fputc ('\n', out) == EOF)
            rc = -1;
    }
    json_decref (root);
    free (jobs.offsets);
    free (clients.offsets);
    return rc;
}
