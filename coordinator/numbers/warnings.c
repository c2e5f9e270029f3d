/*  coordinator/numbers/warnings.c: what the report warns about; see warnings.h.  */

#include "warnings.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Add a warning to the test (formatted), unless the list is full.
static void
s_warn (test_result_t *test, const char *kind, const char *agent, const char *format, ...)
    __attribute__ ((format (printf, 4, 5)));

static void
s_warn (test_result_t *test, const char *kind, const char *agent, const char *format, ...)
{
    if (test->warning_count == TEST_WARNINGS_MAX)
        return;
    warning_t *warning = &test->warnings [test->warning_count++];
    snprintf (warning->kind, sizeof warning->kind, "%s", kind);
    snprintf (warning->agent, sizeof warning->agent, "%s", agent);
    va_list args;
    va_start (args, format);
    vsnprintf (warning->text, sizeof warning->text, format, args);
    va_end (args);
}

//  The kinds of warning that are notices.
static const char *const s_notice_kinds [] = { "layout", NULL };

bool
warnings_is_notice (const warning_t *warning)
{
    for (size_t i = 0; s_notice_kinds [i]; i++)
        if (strcmp (warning->kind, s_notice_kinds [i]) == 0)
            return true;
    return false;
}

//  The machines of a test's hosts: agents that share a boot id (a fleet
//  of containers, agents on loopback) share one page cache, one set of
//  dirty pages and one set of disks, so their streams add up against the
//  one machine's counters. Each host that sent figures and moved bytes
//  gets the first such host of its machine as its leader; the leader
//  holds the machine's sums.
typedef struct {
    size_t *leader;                 //  per host: its machine's first host, SIZE_MAX if none
    size_t *next;                   //  per host: its machine's next host, SIZE_MAX if none
    aggregate_host_sums_t *sum;     //  per leader: its machine's streams
    size_t *members;                //  per leader: its machine's hosts, itself included
} s_machines_t;

//  A machine's name names this many of its agents, then counts the rest.
#define S_MACHINE_NAMED 3

//  For qsort_r: host indices of the test arg by boot id, then index.
static int
s_by_boot_id (const void *a, const void *b, void *arg)
{
    const test_result_t *test = arg;
    size_t x = *(const size_t *) a, y = *(const size_t *) b;
    int order = strcmp (test->hosts [x].boot_id, test->hosts [y].boot_id);
    return order? order: (x > y) - (x < y);
}

//  Sorted by boot id, a machine's hosts are one run: n log n for a fleet.
//  Returns -1 if memory ran out.
static int
s_machines (const test_result_t *test, const aggregate_host_sums_t *sums, s_machines_t *m)
{
    size_t n = test->host_count;
    m->leader = (size_t *) malloc ((n? n: 1) * sizeof (size_t));
    m->next = (size_t *) malloc ((n? n: 1) * sizeof (size_t));
    m->sum = (aggregate_host_sums_t *) calloc (n? n: 1, sizeof (aggregate_host_sums_t));
    m->members = (size_t *) calloc (n? n: 1, sizeof (size_t));
    size_t *order = (size_t *) malloc ((n? n: 1) * sizeof (size_t));
    if (!m->leader || !m->next || !m->sum || !m->members || !order) {
        free (order);
        return -1;
    }
    size_t count = 0;
    for (size_t h = 0; h < n; h++) {
        m->leader [h] = m->next [h] = SIZE_MAX;
        if (test->hosts [h].received && test->hosts [h].stream_bytes)
            order [count++] = h;
    }
    qsort_r (order, count, sizeof order [0], s_by_boot_id, (void *) test);
    for (size_t k = 0; k < count; k++) {
        size_t h = order [k];
        const char *boot_id = test->hosts [h].boot_id;
        bool same = k > 0 && boot_id [0] && strcmp (boot_id, test->hosts [order [k - 1]].boot_id) == 0;
        m->leader [h] = same? m->leader [order [k - 1]]: h;
        if (same)
            m->next [order [k - 1]] = h;
    }
    free (order);
    for (size_t h = 0; h < n; h++) {
        if (m->leader [h] == SIZE_MAX)
            continue;
        aggregate_host_sums_t one = { 0 };
        if (sums)
            one = sums [h];
        else
            for (size_t s = 0; s < test->stream_count; s++)
                if (strcmp (test->streams [s].agent, test->hosts [h].agent) == 0)
                    aggregate_host_add (&one, &test->streams [s]);
        m->members [m->leader [h]]++;
        aggregate_host_sums_t *sum = &m->sum [m->leader [h]];
        sum->bytes += one.bytes;
        sum->written_bytes += one.written_bytes;
        sum->cached_bytes += one.cached_bytes;
        sum->cached_read_bytes += one.cached_read_bytes;
        sum->set_bytes += one.set_bytes;
    }
    return 0;
}

static void
s_machines_free (s_machines_t *m)
{
    free (m->leader);
    free (m->next);
    free (m->sum);
    free (m->members);
}

//  A machine's name: its agent, or its agents ("a1 and a2 (one
//  machine)", "a1, a2, a3 and 5 more agents (one machine)").
static void
s_machine_name (const test_result_t *test, const s_machines_t *m, size_t leader,
                char *name, size_t namelen)
{
    size_t members = m->members [leader], named = 0, used = 0;
    name [0] = '\0';
    for (size_t h = leader; h != SIZE_MAX && named < S_MACHINE_NAMED; h = m->next [h], named++) {
        bool last = named + 1 == members;
        used += (size_t) snprintf (name + used, used < namelen? namelen - used: 0, "%s%s",
                                   named == 0? "": last? " and ": ", ", test->hosts [h].agent);
    }
    if (members > named)
        used += (size_t) snprintf (name + used, used < namelen? namelen - used: 0,
                                   " and %zu more agents", members - named);
    if (members > 1)
        snprintf (name + used, used < namelen? namelen - used: 0, " (one machine)");
}

//  The share of its streams' bytes a machine's figure is, "(71% of the
//  134.2 MB its streams wrote)", into buf; never above 100%: a figure
//  above the bytes is said so, with the likely reason.
static void
s_share (double figure, double bytes, const char *reason, char *buf, size_t buflen)
{
    if (figure <= bytes)
        snprintf (buf, buflen, "(%.0f%% of the %.1f MB its streams wrote)",
                  100.0 * figure / bytes, bytes / 1e6);
    else
        snprintf (buf, buflen, "(more than the %.1f MB its streams wrote: %s)", bytes / 1e6,
                  reason);
}

//  A test counted in requests whose streams spent most of their windows
//  outside their reads and writes: its requests/s is mostly the time of
//  something else, named with its share. The time in requests is each
//  stream's busy_ns (its requests' latencies summed; with several in
//  flight it can pass the window, and counts as the whole window); a
//  paced stream waits by design, and a stream whose agent did not say
//  its busy time is left out.
static void
s_warn_outside (test_result_t *test)
{
    double window_ns = 0, busy_ns = 0;
    uint32_t streams = 0;
    for (size_t s = 0; s < test->stream_count; s++) {
        const stream_result_t *stream = &test->streams [s];
        double length_ns = (double) stream->end_ns - (double) stream->start_ns;
        if (!stream->finished || stream->error || stream->paced || stream->busy_ns == 0
        ||  stream->reads + stream->writes == 0 || !(length_ns > 0))
            continue;
        window_ns += length_ns;
        busy_ns += (double) stream->busy_ns < length_ns? (double) stream->busy_ns: length_ns;
        streams++;
    }
    if (streams == 0 || busy_ns >= WARNINGS_BUSY_SHARE * window_ns)
        return;
    const latency_summary_t *fsync = &test->summary.latency [LATENCY_FSYNC];
    double fsync_share = (double) fsync->count * fsync->mean_ns / window_ns;
    double outside_share = 1 - busy_ns / window_ns;
    if (fsync_share > 1)
        fsync_share = 1;
    //  A small share keeps two figures: "2.1%", "0.012%", not "0%".
    double busy_pct = 100 * busy_ns / window_ns;
    int decimals = busy_pct >= 10? 0: busy_pct >= 1? 1: busy_pct >= 0.1? 2: 3;
    //  The fsyncs are the reason when they took most of the time outside.
    if (fsync_share >= outside_share / 2)
        s_warn (test, "outside", "",
                "its streams spent %.*f%% of their windows in their requests and %.0f%% in "
                "their fsyncs (%" PRIu32 " streams): the requests/s counts the fsyncs' time; "
                "fsync less often (fsync_every) to measure the requests",
                decimals, busy_pct, 100 * fsync_share, streams);
    else
        s_warn (test, "outside", "",
                "its streams spent %.*f%% of their windows in their requests (%" PRIu32
                " streams; %.0f%% in fsyncs): the rest went between requests, to a busy CPU "
                "or the agent, and the requests/s counts it", decimals, busy_pct, streams,
                100 * fsync_share);
}

void
warnings_fill (test_result_t *test, const aggregate_host_sums_t *sums)
{
    const test_summary_t *summary = &test->summary;
    test->warning_count = 0;
    s_machines_t machines;
    if (s_machines (test, sums, &machines)) {
        s_machines_free (&machines);
        return;
    }
    if (test->laid_out_bytes)
        s_warn (test, "layout", "", "%.1f MB laid out at prepare, untimed (%.1f s), before "
                "the test read them", test->laid_out_bytes / 1e6, test->laid_out_ns / 1e9);
    for (size_t h = 0; h < test->host_count; h++) {
        const host_result_t *host = &test->hosts [h];
        if (!host->received || host->stream_bytes == 0)
            continue;
        const msg_host_t *c = &host->counters;
        //  Bytes its machine's streams wrote, and those they read without
        //  O_DIRECT from a local file on a page cache that was not
        //  dropped, against that machine's counters: two agents on one
        //  machine are one host here, whose share is never above 100%.
        if (machines.leader [h] != h)
            continue;               //  its machine's first host warns for all
        aggregate_host_sums_t sum = machines.sum [h];
        char machine [S_MACHINE_NAMED * (JOB_NAME_MAX + 2) + 64];
        s_machine_name (test, &machines, h, machine, sizeof machine);
        uint64_t written_bytes = sum.written_bytes, cached_read_bytes = sum.cached_read_bytes;
        //  Measured, the page cache answering says more than the size
        //  of the working set could: one warning of the two.
        bool cache_answered = cached_read_bytes
            && (double) c->disk_read_bytes < WARNINGS_READ_SHARE * (double) cached_read_bytes;
        if (cache_answered)
            s_warn (test, "cached-read", host->agent,
                    "%s: its disks read %.1f MB of the %.1f MB its streams read (%.0f%%): "
                    "the page cache answered; read with direct = yes or after drop_caches = yes",
                    machine, c->disk_read_bytes / 1e6, cached_read_bytes / 1e6,
                    100.0 * (double) c->disk_read_bytes / (double) cached_read_bytes);
        if (cached_read_bytes && !cache_answered && cached_read_bytes < 2 * c->mem_total_bytes)
            s_warn (test, "cache", host->agent,
                    "%s: %.1f MB read with neither O_DIRECT nor a dropped page cache is less "
                    "than twice the host's %.1f GB of memory: the page cache can hold all of it",
                    machine, cached_read_bytes / 1e6, c->mem_total_bytes / 1e9);
        if (written_bytes == 0)
            continue;
        double bytes = (double) written_bytes;
        uint64_t dirtied = c->dirty_end_bytes + c->writeback_end_bytes > c->dirty_start_bytes?
                           c->dirty_end_bytes + c->writeback_end_bytes - c->dirty_start_bytes: 0;
        char share [160];
        if (dirtied > WARNINGS_DIRTY_FLOOR_BYTES
        &&  (double) dirtied > WARNINGS_DIRTY_SHARE * bytes) {
            s_share ((double) dirtied, bytes, "other writers on the machine", share, sizeof share);
            s_warn (test, "dirty", host->agent,
                    "%s: %.1f MB still dirty or under writeback when the window closed %s: "
                    "the rate counts the page cache", machine, dirtied / 1e6, share);
        }
        if ((double) c->settle_written_bytes > WARNINGS_SETTLE_SHARE * bytes) {
            s_share ((double) c->settle_written_bytes, bytes, "other writers on the machine, "
                     "or data dirtied before the window", share, sizeof share);
            s_warn (test, "writeback", host->agent,
                    "%s: %.1f MB written to disk in the %.1f s after the window %s",
                    machine, c->settle_written_bytes / 1e6,
                    (double) (host->settle_end_ns - host->window_end_ns) / 1e9, share);
        }
        //  What neither O_DIRECT nor an fsync forced to disk may never
        //  have left memory when the working set fits in it twice over;
        //  and random requests over a file set (randrw), whatever their
        //  fsyncs, read from memory once the set fits there ("the smaller
        //  file size just hides the regression").
        uint64_t cached_bytes = sum.cached_bytes, set_bytes = sum.set_bytes;
        if (set_bytes > 0 && set_bytes < 2 * c->mem_total_bytes)
            s_warn (test, "cache", host->agent,
                    "%s: a file set of %.1f MB used without O_DIRECT is less than twice the "
                    "host's %.1f GB of memory: the page cache can hold all of it; give a set "
                    "of twice the memory, or direct = yes, to measure the disks",
                    machine, set_bytes / 1e6, c->mem_total_bytes / 1e9);
        else
        if (cached_bytes > 0 && cached_bytes < 2 * c->mem_total_bytes)
            s_warn (test, "cache", host->agent,
                    "%s: %.1f MB written with neither O_DIRECT nor fsync is less than twice "
                    "the host's %.1f GB of memory: the page cache can hold all of it",
                    machine, cached_bytes / 1e6, c->mem_total_bytes / 1e9);
    }
    s_machines_free (&machines);
    //  A test of requests whose streams completed none: its rate of 0
    //  is no measure of anything, and says so with the likely reason.
    uint64_t requests = 0, fsyncs = 0;
    for (size_t s = 0; s < test->stream_count; s++) {
        requests += test->streams [s].reads + test->streams [s].writes;
        fsyncs += test->streams [s].fsyncs;
    }
    if (test->rate_ops && summary->streams > summary->failed_streams && requests == 0)
        s_warn (test, "no-requests", "",
                "no stream completed a request in the window (%" PRIu32 " streams, %" PRIu64
                " fsyncs): the rate of 0 measures nothing; %s", summary->streams, fsyncs,
                fsyncs? "the streams spent the window in their fsyncs: fsync less often "
                        "(fsync_every) or give a longer runtime":
                        "give a longer runtime or more requests");
    else
    if (test->rate_ops)
        s_warn_outside (test);
    //  In floating point: agents' times are not trusted to be sane.
    double length_ns = (double) summary->last_end_ns - (double) summary->first_start_ns;
    if (summary->streams > 1 && length_ns > 0
    &&  (double) summary->stream_skew_ns > WARNINGS_SKEW_SHARE * length_ns)
        s_warn (test, "skew", "",
                "streams started %.3f ms apart, %.1f%% of the test's %.3f s: "
                "they did not run together all along",
                summary->stream_skew_ns / 1e6,
                100.0 * summary->stream_skew_ns / length_ns, length_ns / 1e9);
}
