/*  coordinator/scenario/fio_job_write.c: a job of a fio job file
    written as a [job] section of the translation; see fio_job.h. What
    fio's keys mean is learned from fio's documentation, not from its
    code.
*/
#include "fio_job_state.h"
#include "fio_keys.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

//  A size as our size option parses it (fio's 4k is 4096 too), or 0.
static uint64_t
s_bytes (const char *text)
{
    jobspec_t spec;
    char reason [SCENARIO_REASON_MAX];
    jobspec_defaults (&spec);
    if (opt_parse (jobspec_option ("size"), text, &spec, reason, sizeof reason))
        return 0;
    return spec.size_bytes;
}

//  A duration as our option ours parses it, in ns, or -1.
static int64_t
s_duration_ns (const char *text, const char *ours)
{
    jobspec_t spec;
    char reason [SCENARIO_REASON_MAX];
    jobspec_defaults (&spec);
    const opt_def_t *opt = jobspec_option (ours);
    if (opt_parse (opt, text, &spec, reason, sizeof reason))
        return -1;
    int64_t ns;
    memcpy (&ns, (const char *) &spec + opt->offset, sizeof ns);
    return ns;
}

//  text (pair's value, or a part of it) as our option ours (a number)
//  parses it, into value. Returns 0, or -1 after an error at pair.
static int
s_number (fio_state_t *self, const fio_pair_t *pair, const char *text, const char *ours,
          uint64_t *value)
{
    const opt_def_t *opt = jobspec_option (ours);
    jobspec_t scratch;
    char reason [SCENARIO_REASON_MAX];
    jobspec_defaults (&scratch);
    if (opt_parse (opt, text, &scratch, reason, sizeof reason)) {
        fio_state_fail_at (self, pair, pair->key, "%s", reason);
        return -1;
    }
    memcpy (value, (const char *) &scratch + opt->offset, sizeof *value);
    return 0;
}

//  Write key = value, checked as our option key parses it: an error is
//  that of fio's key at its line (from; NULL for a value of our own).
static void
s_emit (fio_state_t *self, const char *key, const char *value, const fio_pair_t *from)
{
    const opt_def_t *opt = jobspec_option (key);
    jobspec_t scratch;
    char reason [SCENARIO_REASON_MAX];
    jobspec_defaults (&scratch);
    if (from && opt && opt_parse (opt, value, &scratch, reason, sizeof reason))
        fio_state_fail_at (self, from, from->key, "%s", reason);
    fio_state_put (self, from, "%s = %s\n", key, value);
}

//  Write "K = V, K = V (a remark)" from fio_keys' table as lines, from
//  fio's key at pair (NULL: its default).
static void
s_write_pairs (fio_state_t *self, const fio_pair_t *from, const char *pairs)
{
    size_t length = strcspn (pairs, "(");
    while (length > 0 && pairs [length - 1] == ' ')
        length--;
    for (size_t at = 0; at < length; ) {
        size_t end = at;
        while (end < length && pairs [end] != ',')
            end++;
        fio_state_put (self, from, "%.*s\n", (int) (end - at), pairs + at);
        at = end + 1;
        while (at < length && pairs [at] == ' ')
            at++;
    }
}

//  The value of pair (fallback if NULL) by the row of fio_keys' table
//  named key into our lines. Returns the table's text, or NULL after an
//  error.
static const char *
s_mapped_by (fio_state_t *self, const char *key, const fio_pair_t *pair, const char *fallback)
{
    const char *value = pair? pair->value: fallback;
    const fio_key_t *row = fio_keys_find (key);
    size_t length = row->file_after_colon? strcspn (value, ":"): strlen (value);
    for (const fio_value_t *each = row->values; each->fio; each++)
        if (strlen (each->fio) == length && strncmp (each->fio, value, length) == 0)
            return each->ours;
    fio_state_fail_at (self, pair, pair? pair->key: key, "%s = %s is not supported here; use %s",
                       pair? pair->key: key, value, row->otherwise);
    return NULL;
}

//  fio's value of key by fio_keys' table into our lines, or fallback if
//  the job does not give it. Returns the table's text, or NULL after an
//  error.
static const char *
s_mapped (fio_state_t *self, const char *key, const char *fallback)
{
    return s_mapped_by (self, key, fio_state_get (self, key), fallback);
}

//  What a job does with its requests, for fio's keys that take a value
//  per direction.
typedef enum { S_READS, S_WRITES, S_MIXED } s_direction_t;

//  The part of pair's value (fio's "READS,WRITES,TRIMS") for direction
//  (S_READS or S_WRITES) as our key ours parses it, fallback for a part
//  left empty, and its text into part. Returns 0, or -1 after an error
//  at pair.
static int
s_part (fio_state_t *self, const fio_pair_t *pair, s_direction_t direction, const char *ours,
        const char *fallback, uint64_t *value, char part [FIO_VALUE_MAX + 1])
{
    if (fio_keys_part (pair->value, direction == S_WRITES, fallback, part, FIO_VALUE_MAX + 1)) {
        fio_state_fail_at (self, pair, pair->key, "takes one value, or one for reads, one "
                           "for writes and one for trims, separated by commas");
        return -1;
    }
    return s_number (self, pair, part, ours, value);
}

//  Write the block size of a job that does direction, from bs (NULL:
//  fio's 4k). A mixed job here has one block size: fio's reads' and
//  writes' must be the same. Returns the bytes, or 0 after an error.
static uint64_t
s_block_size (fio_state_t *self, const fio_pair_t *bs, s_direction_t direction)
{
    uint64_t reads = 4096, writes = 4096;
    char read_text [FIO_VALUE_MAX + 1] = "4k", write_text [FIO_VALUE_MAX + 1] = "4k";
    if (bs && (s_part (self, bs, S_READS, "bs", "4k", &reads, read_text)
           ||  s_part (self, bs, S_WRITES, "bs", "4k", &writes, write_text)))
        return 0;
    if (direction == S_MIXED && reads != writes) {
        fio_state_fail_at (self, bs, bs->key, "%s: a mixed job here reads and writes blocks "
                           "of one size; give one size, or make it a randread job and a "
                           "randwrite job without a stonewall between them (one test)",
                           bs->value);
        return 0;
    }
    fio_state_put (self, bs, "bs = %s\n", direction == S_WRITES? write_text: read_text);
    return direction == S_WRITES? writes: reads;
}

//  Write our cap ours from fio's cap at pair (rate or rate_iops: one per
//  direction, 0 none). A job that only reads takes the reads' cap, one
//  that only writes the writes'. fio paces a mixed job's reads and
//  writes each to its own cap and leaves its mix when one of them binds
//  (rwmixread=70 with rate_iops=100 makes 100 reads and 100 writes a
//  second); here a stream's reads and writes share one cap and keep the
//  mix. The two agree when fio's caps are in the mix (70:30 of the
//  whole): then ours is their sum. Caps are whole numbers, which a mix
//  seldom divides (rwmixread=60 with 100 reads is 66.7 writes), so they
//  are in the mix when each direction's share of their sum is within
//  one (a request or a byte a second) of its own cap. Anything else is
//  refused, with caps in the mix to write instead.
static void
s_cap (fio_state_t *self, const fio_pair_t *pair, const char *ours, s_direction_t direction,
       uint64_t read_pct)
{
    uint64_t reads = 0, writes = 0;
    char read_text [FIO_VALUE_MAX + 1], write_text [FIO_VALUE_MAX + 1];
    if (read_pct > 100
    ||  s_part (self, pair, S_READS, ours, "0", &reads, read_text)
    ||  s_part (self, pair, S_WRITES, ours, "0", &writes, write_text))
        return;                     //  a read_pct over 100 is rwmixread's error
    if (direction == S_MIXED && read_pct == 100)
        direction = S_READS;
    if (direction == S_MIXED && read_pct == 0)
        direction = S_WRITES;
    if (direction != S_MIXED) {
        fio_state_put (self, pair, "%s = %s\n", ours,
                       direction == S_WRITES? write_text: read_text);
        return;
    }
    //  The reads' share of the sum less their cap, times 100, is this:
    //  within one is under 100.
    const uint64_t write_pct = 100 - read_pct;
    uint64_t apart = writes * read_pct > reads * write_pct? writes * read_pct - reads * write_pct
                                                         : reads * write_pct - writes * read_pct;
    if (reads && writes && apart < 100) {
        char value [32];
        snprintf (value, sizeof value, "%" PRIu64, reads + writes);
        s_emit (self, ours, value, pair);
        return;
    }
    //  Caps in the mix from the reads' (or the writes'), each rounded to
    //  the nearest and at least 1: then the two are within one.
    uint64_t some = reads? reads: (writes * read_pct + write_pct / 2) / write_pct;
    if (some == 0)
        some = 1;
    uint64_t rest = (some * write_pct + read_pct / 2) / read_pct;
    if (rest == 0) {
        rest = 1;
        some = (read_pct + write_pct / 2) / write_pct;
    }
    fio_state_fail_at (self, pair, pair->key, "%s: fio paces a mixed job's reads and writes "
                       "each to its own cap and leaves its mix of %" PRIu64 "%% reads when "
                       "one binds; here they share one cap and keep the mix: give caps in "
                       "the mix (%s=%" PRIu64 ",%" PRIu64 "), or make it a randread job and "
                       "a randwrite job without a stonewall between them (one test), each "
                       "with its cap", pair->value, read_pct, pair->key, some, rest);
}

//  Write how the job flushes on its way. fio's fsync = N and fdatasync
//  = N flush the file after every N writes: fsync_every here, whose
//  rounds fdatasync makes fsync_call's; a mixed job's fsync_every counts
//  its reads too, so it is the requests that hold N writes in the mix.
//  A sequential write flushes only at its end here; a job that only
//  reads has nothing to flush, in fio as here.
static void
s_job_syncs (fio_state_t *self, bool random, s_direction_t direction, uint64_t read_pct)
{
    const fio_pair_t *fsync = fio_state_get (self, "fsync");
    const fio_pair_t *fdatasync = fio_state_get (self, "fdatasync");
    const fio_pair_t *every = fdatasync? fdatasync: fsync;
    uint64_t writes = 0;
    if (fsync && fdatasync) {
        fio_state_fail_at (self, fdatasync, "fdatasync", "give fsync or fdatasync, not both");
        return;
    }
    if (every && s_number (self, every, every->value, "fsync_every", &writes))
        return;
    if (!random) {
        if (writes && direction == S_WRITES)
            fio_state_fail_at (self, every, every->key, "%s: a sequential write here "
                               "flushes only at its end (end_fsync=1); a flush every N "
                               "writes is a random job's (rw=randwrite)", every->value);
        return;
    }
    uint64_t requests = writes;
    if (writes && direction == S_MIXED && read_pct > 0 && read_pct < 100) {
        requests = (writes * 100 + (100 - read_pct) / 2) / (100 - read_pct);
        fio_state_put (self, every, "; %s=%s: fio flushes after every %" PRIu64 " writes; "
                       "fsync_every counts reads and writes, and %" PRIu64 " of them hold "
                       "about %" PRIu64 " writes at %" PRIu64 "%% reads\n", every->key,
                       every->value, writes, requests, writes, read_pct);
    }
    fio_state_put (self, every, "fsync_every = %" PRIu64 "\n", requests);
    if (fdatasync && writes)
        fio_state_put (self, fdatasync, "fsync_call = fdatasync\n");
    if (fdatasync && writes && fio_state_flag (self, "end_fsync"))
        fio_state_put (self, fio_state_get (self, "end_fsync"), "; end_fsync=1: fio's last "
                       "flush is an fsync; here fsync_call makes it an fdatasync too\n");
}

//  Write how the job flushes at its end: fio's end_fsync is a random
//  job's fsync_end and a sequential write's fsync = end, and fio's
//  default is neither. A job that only reads has nothing to flush, in
//  fio as here.
static void
s_job_end_sync (fio_state_t *self, bool random, s_direction_t direction)
{
    const fio_pair_t *end = fio_state_get (self, "end_fsync");
    bool at_end = fio_state_flag (self, "end_fsync");
    if (random)
        fio_state_put (self, end, "fsync_end = %s\n", at_end? "yes": "no");
    else
    if (direction == S_WRITES)
        fio_state_put (self, end, "fsync = %s\n", at_end? "end": "none");
}

//  Write the job's header, test and agent; returns the job's name.
static const char *
s_job_head (fio_state_t *self, char *job, size_t joblen)
{
    //  name = replaces the header's name.
    snprintf (job, joblen, "%s", self->job_name);
    for (size_t i = 0; i < self->job.count; i++)
        if (strcmp (self->job.pairs [i].key, "name") == 0) {
            const fio_pair_t *name = &self->job.pairs [i];
            char reason [SCENARIO_REASON_MAX];
            if (scenario_check_name (name->value, strlen (name->value), reason, sizeof reason))
                fio_state_fail_at (self, name, "name", "%s", reason);
            else
                snprintf (job, joblen, "%s", name->value);
        }
    //  A stonewall waits for the jobs before it: a new test.
    if (!self->test [0] || fio_state_flag (self, "stonewall") || fio_state_flag (self, "new_group")
    ||  fio_state_flag (self, "wait_for_previous"))
        snprintf (self->test, sizeof self->test, "%s", job);
    fio_state_put (self, NULL, "\n[job %s]\nagent = %s\ntest = %s\n", job, self->agent, self->test);
    return job;
}

//  Write what ends the job: its runtime, or the requests fio would make
//  of it (bs: its block size, 0 after an error).
static void
s_job_bound (fio_state_t *self, bool random, uint64_t bs)
{
    const fio_pair_t *runtime = fio_state_get (self, "runtime");
    const fio_pair_t *ramp = fio_state_get (self, "ramp_time");
    bool time_based = fio_state_flag (self, "time_based");
    int64_t runtime_ns = runtime? s_duration_ns (runtime->value, "runtime"): -1;
    int64_t ramp_ns = ramp? s_duration_ns (ramp->value, "ramp"): -1;
    //  fio's runtime follows its ramp; ours holds it.
    if (runtime && time_based && runtime_ns >= 0 && ramp_ns > 0)
        fio_state_put (self, runtime, "runtime = %" PRId64 "ms\n",
                       (runtime_ns + ramp_ns + 999999) / 1000000);
    else
    if (runtime && time_based)
        s_emit (self, "runtime", runtime->value, runtime);
    else
    if (runtime)
        fio_state_fail_at (self, runtime, "runtime", "without time_based fio ends the job at "
                           "its size or its runtime, whichever comes first; here a runtime "
                           "ends it: add time_based, or leave runtime out");
    else
    if (time_based)
        fio_state_fail_at (self, fio_state_get (self, "time_based"), "time_based",
                           "needs a runtime");
    const fio_pair_t *numjobs = fio_state_get (self, "numjobs");
    uint64_t streams = numjobs? (uint64_t) strtoull (numjobs->value, NULL, 10): 1;
    const fio_pair_t *ios = fio_state_get (self, "number_ios");
    const fio_pair_t *size = fio_state_get (self, "size")? fio_state_get (self, "size"):
                                                           fio_state_get (self, "filesize");
    uint64_t count;
    if (ios && s_number (self, ios, ios->value, "requests", &count) == 0)
        fio_state_put (self, ios, "requests = %" PRIu64 "\n", count * streams);
    else
    if (random && !time_based && size && bs)
        fio_state_put (self, size, "requests = %" PRIu64 "\n",
                       s_bytes (size->value) / bs * streams);
}

//  Write the current job as a [job] section.
void
fio_job_write (fio_state_t *self)
{
    if (!self->job_name [0])
        return;
    char job [JOB_NAME_MAX + 1];
    s_job_head (self, job, sizeof job);

    const fio_pair_t *rw_pair = fio_state_get (self, "readwrite");
    if (!rw_pair)
        rw_pair = fio_state_get (self, "rw");
    const char *rw = s_mapped (self, rw_pair? rw_pair->key: "rw", "read");
    const char *engine = s_mapped (self, "ioengine", "psync");
    if (rw)
        s_write_pairs (self, rw_pair, rw);
    if (engine)
        s_write_pairs (self, fio_state_get (self, "ioengine"), engine);
    //  Its buffers: fio's iomem, or mem, which is the same.
    const fio_pair_t *iomem_pair = fio_state_get (self, "iomem");
    if (!iomem_pair)
        iomem_pair = fio_state_get (self, "mem");
    const char *iomem = s_mapped_by (self, "mem", iomem_pair, "malloc");
    if (iomem)
        s_write_pairs (self, iomem_pair, iomem);
    bool random = rw && strstr (rw, "randrw");
    bool mixed = rw && strstr (rw, "mode = rndrw");
    s_direction_t direction = mixed? S_MIXED:
                              rw && (strstr (rw, "workload = write") ||
                                     strstr (rw, "mode = rndwr"))? S_WRITES: S_READS;

    //  The file: fio's default is under the job's name.
    const fio_pair_t *filename = fio_state_get (self, "filename");
    const fio_pair_t *directory = fio_state_get (self, "directory");
    fio_state_put (self, filename? filename: directory, "path = %s%s%s\n",
                   directory? directory->value: "", directory? "/": "",
                   filename? filename->value: job);
    static const struct { const char *fio; const char *ours; } same [] = {
        { "size", "size" }, { "filesize", "size" }, { "nrfiles", "files" },
        { "numjobs", "streams" }, { "direct", "direct" },
        { "random_distribution", "random_distribution" }, { "randseed", "randseed" },
        { "ramp_time", "ramp" }
    };
    for (size_t i = 0; i < sizeof same / sizeof same [0]; i++) {
        const fio_pair_t *pair = fio_state_get (self, same [i].fio);
        if (pair)
            s_emit (self, same [i].ours, pair->value, pair);
    }
    //  A file is written as it grows here, never preallocated.
    const fio_pair_t *fallocate = fio_state_get (self, "fallocate");
    if (fallocate && strcmp (fallocate->value, "none") && strcmp (fallocate->value, "0"))
        fio_state_fail_at (self, fallocate, "fallocate", "%s: files are not preallocated here "
                           "(a file's blocks are allocated as it is written, as with "
                           "fallocate=none)", fallocate->value);
    //  fio's defaults where ours differ: its files stay, one file, no
    //  fsync on the way.
    fio_state_put (self, NULL, "keep = yes\n");
    if (random && !fio_state_get (self, "nrfiles"))
        fio_state_put (self, NULL, "files = 1\n");
    const fio_pair_t *bs = fio_state_get (self, "bs")? fio_state_get (self, "bs"):
                                                       fio_state_get (self, "blocksize");
    uint64_t bs_bytes = s_block_size (self, bs, direction);
    const fio_pair_t *buffered = fio_state_get (self, "buffered");
    if (buffered)
        fio_state_put (self, buffered, "direct = %s\n", strcmp (buffered->value, "0")? "no": "yes");
    //  fio reads a mix only for a mixed job; its default is half and half.
    const fio_pair_t *mixread = fio_state_get (self, "rwmixread");
    const fio_pair_t *mixwrite = fio_state_get (self, "rwmixwrite");
    uint64_t read_pct = 50;
    if (mixed && mixread) {
        s_emit (self, "read_pct", mixread->value, mixread);
        read_pct = strtoull (mixread->value, NULL, 10);
    }
    else
    if (mixed && mixwrite) {
        read_pct = 100 - strtoull (mixwrite->value, NULL, 10);
        char value [32];
        snprintf (value, sizeof value, "%" PRIu64, read_pct);
        s_emit (self, "read_pct", value, mixwrite);
    }
    else
    if (mixed)
        fio_state_put (self, NULL, "read_pct = 50\n");
    if (fio_state_get (self, "rate"))
        s_cap (self, fio_state_get (self, "rate"), "rate", direction, read_pct);
    if (fio_state_get (self, "rate_iops"))
        s_cap (self, fio_state_get (self, "rate_iops"), "rate_iops", direction, read_pct);
    const fio_pair_t *iodepth = fio_state_get (self, "iodepth");
    if (iodepth && engine && strstr (engine, "io_uring"))
        s_emit (self, "iodepth", iodepth->value, iodepth);
    if (rw) {
        s_job_syncs (self, random, direction, read_pct);
        s_job_end_sync (self, random, direction);
    }
    s_job_bound (self, random, bs_bytes);
    self->job.count = 0;
    self->job_name [0] = 0;
}
