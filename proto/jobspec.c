/*  proto/jobspec.c: the job option table and the jobspec wire codec; see
    jobspec.h.

    Every job option is one row of jobspec_options[]. The scenario parser
    turns text into values with opt_parse, the record of the scenario as
    run turns them back with opt_format (both in option.c), and the
    PREPARE message carries the OPT_WIRE rows as one msgpack map
    (jobspec_encode / jobspec_decode).
*/
#include "jobspec.h"
#include "clock.h"
#include "workload_list.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

//  The enum names, indexed by value. Wire and scenario use the same names.
static const char *const s_fsync_names [] = { "none", "end", "close", NULL };
static const char *const s_pattern_names [] = { "zero", "random", NULL };
static const char *const s_class_names [] = { "auto", "disk", "network", NULL };
static const char *const s_rw_mode_names [] = { "rndrw", "rndrd", "rndwr", NULL };
static const char *const s_engine_names [] = { "psync", "io_uring", NULL };
static const char *const s_iomem_names [] = { "malloc", "huge", NULL };
static const char *const s_fsync_call_names [] = { "fsync", "fdatasync", NULL };
static const char *const s_access_names [] = { "random", "sequential", NULL };

const char *const jobspec_workload_names [] = {
#define S_WORKLOAD_NAME(id, name) #name,
    WORKLOAD_LIST (S_WORKLOAD_NAME)
#undef S_WORKLOAD_NAME
    NULL
};

_Static_assert (FSYNC_NONE == 0 && FSYNC_END == 1 && FSYNC_CLOSE == 2, "s_fsync_names order");
_Static_assert (PATTERN_ZERO == 0 && PATTERN_RANDOM == 1, "s_pattern_names order");
_Static_assert (RW_MODE_RNDRW == 0 && RW_MODE_RNDRD == 1 && RW_MODE_RNDWR == 2,
                "s_rw_mode_names order");
_Static_assert (JOB_ENGINE_PSYNC == 0 && JOB_ENGINE_IO_URING == 1, "s_engine_names order");
_Static_assert (JOB_IOMEM_MALLOC == 0 && JOB_IOMEM_HUGE == 1, "s_iomem_names order");
_Static_assert (FSYNC_CALL_FSYNC == 0 && FSYNC_CALL_FDATASYNC == 1, "s_fsync_call_names order");
_Static_assert (ACCESS_RANDOM == 0 && ACCESS_SEQUENTIAL == 1, "s_access_names order");
_Static_assert (CLASS_AUTO == 0 && CLASS_DISK == 1 && CLASS_NETWORK == 2, "s_class_names order");

//  Where a field lives in jobspec_t, and the size of a string field.
#define AT(f)       offsetof (jobspec_t, f)
#define CAPACITY(f) sizeof (((jobspec_t *) 0)->f)

//  The table. `name` comes from the [job NAME] header (OPT_HEADER): the
//  scenario parser does not take it as a key, but it travels on the wire
//  with `test` so that the agent can name the job in its logs. `agent`
//  only tells the coordinator where to send the job.
const opt_def_t jobspec_options [] = {
    { .name = "name", .type = OPT_STRING, .offset = AT (name),
      .capacity = CAPACITY (name),
      .flags = OPT_WIRE | OPT_HEADER,
      .help = "job name, from the [job NAME] section header" },
    { .name = "test", .type = OPT_STRING, .offset = AT (test),
      .capacity = CAPACITY (test),
      .flags = OPT_WIRE,
      .help = "test the job belongs to; jobs of one test start together" },
    { .name = "agent", .type = OPT_STRING, .offset = AT (agent),
      .capacity = CAPACITY (agent),
      .flags = 0,
      .help = "agent that runs the job, an [agent NAME] section; or a [group NAME]: "
              "then one job per member, named JOB.MEMBER" },
    { .name = "workload", .type = OPT_ENUM, .offset = AT (workload),
      .choices = jobspec_workload_names, .default_text = "write",
      .flags = OPT_WIRE,
      .help = "what the job does (each is described under Workloads in --help and the manual)" },
    { .name = "path", .type = OPT_STRING, .offset = AT (path),
      .capacity = CAPACITY (path),
      .flags = OPT_WIRE,
      .help = "file to write or read (read: also an nfs://server/export/file URL); with "
              "several streams, stream k uses path.k; {agent} is the job's agent's name" },
    { .name = "src", .type = OPT_STRING, .offset = AT (src),
      .capacity = CAPACITY (src),
      .flags = OPT_WIRE,
      .help = "source path or nfs://server/export/file URL" },
    { .name = "dst", .type = OPT_STRING, .offset = AT (dst),
      .capacity = CAPACITY (dst),
      .flags = OPT_WIRE,
      .help = "destination path" },
    //  size has no default and travels always; 0 means "not given", which
    //  only copy and read accept (they then take the whole file).
    { .name = "size", .type = OPT_SIZE, .offset = AT (size_bytes),
      .min = 0, .max = OPT_PIB,
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "bytes per stream: 4096, 4K, 1M, 5.2G; K M G T P are powers of "
              "1024, with or without B or iB (4KiB = 4KB = 4K); copy without "
              "a size copies the whole source, and read reads the whole file" },
    { .name = "bs", .type = OPT_SIZE, .offset = AT (bs_bytes),
      .min = 512, .max = 64 * OPT_MIB, .default_text = "1M",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "bytes per write call, powers of 1024 like size" },
    { .name = "streams", .type = OPT_COUNT, .offset = AT (streams),
      .min = 1, .max = JOB_STREAMS_MAX, .default_text = "1",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "parallel streams, each with its own thread and file" },
    { .name = "direct", .type = OPT_BOOL, .offset = AT (direct),
      .default_text = "no",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "open with O_DIRECT: yes or no" },
    { .name = "fsync", .type = OPT_ENUM, .offset = AT (fsync_mode),
      .choices = s_fsync_names, .default_text = "end",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "none, end (fdatasync before close, timed; dd conv=fdatasync) "
              "or close (fsync then close, timed)" },
    { .name = "pattern", .type = OPT_ENUM, .offset = AT (pattern),
      .choices = s_pattern_names, .default_text = "zero",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "data written: zero or random (generated before the timed part)" },
    { .name = "class", .type = OPT_ENUM, .offset = AT (job_class),
      .choices = s_class_names, .default_text = "auto",
      .flags = OPT_WIRE,
      .help = "report class: auto (nfs:// sources and sources on an NFS mount "
              "are network), disk or network" },
    { .name = "keep", .type = OPT_BOOL, .offset = AT (keep),
      .default_text = "no",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "keep the files after the test: yes or no" },
    { .name = "refill", .type = OPT_BOOL, .offset = AT (refill),
      .default_text = "no",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "write the file again even if it already has the size: yes or no" },
    { .name = "interval", .type = OPT_DURATION, .offset = AT (interval_ns),
      .min = 10 * NS_PER_MSEC, .max = 3600 * NS_PER_SEC, .default_text = "1s",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "sample period of the timelines, of bytes and of latency (each agent sends "
              "its requests' histogram every interval): 250ms, 1s, 1.5s, 2m; a bare number "
              "is seconds" },
    { .name = "rate", .type = OPT_SIZE, .offset = AT (rate_bytes),
      .min = 0, .max = 1ULL << 50, .default_text = "0", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "cap each stream at this many bytes per second, e.g. 20M (0: no cap)" },
    { .name = "rate_iops", .type = OPT_COUNT, .offset = AT (rate_iops),
      .min = 0, .max = 10000000, .default_text = "0", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "cap each stream at this many requests per second, paced against the clock "
              "without a burst after a stall (0: no cap); with rate, the stricter of the two" },
    { .name = "drop_caches", .type = OPT_BOOL, .offset = AT (drop_caches),
      .default_text = "no", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "sync and drop the agent's page cache before each run of the test (root): yes or no" },
    { .name = "settle", .type = OPT_DURATION, .offset = AT (settle_ns),
      .min = 0, .max = 600 * NS_PER_SEC, .default_text = "10s",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "after the last stream, watch the disks at most this long while the page cache drains" },
    { .name = "seekers", .type = OPT_COUNT, .offset = AT (seekers),
      .min = 1, .max = 64, .default_text = "5", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "threads doing the random seeks at once (bonnie++ 2.00 runs 5)" },
    { .name = "seeks", .type = OPT_COUNT, .offset = AT (seeks),
      .min = 1, .max = 1000000000, .default_text = "8192", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "random seeks in all, shared by the seekers; each reads a chunk of bs "
              "and writes one in ten back (bonnie++ 2.00: 8192)" },
    { .name = "runtime", .type = OPT_DURATION, .offset = AT (runtime_ns),
      .min = 0, .max = 7 * 24 * 3600 * NS_PER_SEC, .default_text = "0",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "every stream on every host stops at the start instant plus "
              "this, so that all ran the same window; a file ends and begins again from its "
              "start (0: run to size or requests)" },
    { .name = "ramp", .type = OPT_DURATION, .offset = AT (ramp_ns),
      .min = 0, .max = 3600 * NS_PER_SEC, .default_text = "0",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "with a runtime: leave the first seconds out of every figure (bytes, "
              "operations, latency), counted from the shared start" },
    { .name = "files", .type = OPT_COUNT, .offset = AT (files),
      .min = 1, .max = JOB_FILES_MAX, .default_text = "128", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "files in the job's file set, which size is the total of; one file is "
              "path itself, more are path.1 .. path.N (sysbench --file-num)" },
    { .name = "mode", .type = OPT_ENUM, .offset = AT (rw_mode),
      .choices = s_rw_mode_names, .default_text = "rndrw", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "random reads and writes, reads only or writes only "
              "(sysbench --file-test-mode)" },
    { .name = "rwratio", .type = OPT_DECIMAL, .offset = AT (rwratio),
      .min = 1, .max = 1000000 * (uint64_t) OPT_DECIMAL_ONE, .default_text = "1.5",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "with mode rndrw, reads per write (sysbench --file-rw-ratio); not with read_pct" },
    { .name = "read_pct", .type = OPT_COUNT, .offset = AT (read_pct),
      .min = 0, .max = 100, .flags = OPT_GLOBAL,
      .help = "reads in percent of the requests, as fio's rwmixread; instead of "
              "rwratio (100 is mode rndrd, 0 mode rndwr), never with it" },
    { .name = "fsync_every", .type = OPT_COUNT, .offset = AT (fsync_every),
      .min = 0, .max = 1000000000, .default_text = "100", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "after this many requests of a stream (reads and writes) when another "
              "follows, fsync every file of the set, and at the end the files it wrote "
              "(fsync_end); 0: only at the end (sysbench --file-fsync-freq)" },
    { .name = "fsync_call", .type = OPT_ENUM, .offset = AT (fsync_call),
      .choices = s_fsync_call_names, .default_text = "fsync", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "the call of fsync_every's rounds and of the last one: fsync, or fdatasync, "
              "which leaves out the inode's times and so costs less for writes in place "
              "(sysbench --file-fsync-mode; fio's fdatasync = N)" },
    { .name = "fsync_end", .type = OPT_BOOL, .offset = AT (fsync_end),
      .default_text = "yes", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "a last round at a stream's end over the files it wrote, timed: yes or no "
              "(sysbench --file-fsync-end; fio's end_fsync)" },
    { .name = "requests", .type = OPT_COUNT, .offset = AT (requests),
      .min = 0, .max = 1000000000000ULL, .default_text = "0", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "requests of the job in all, shared by its streams (sysbench --events; "
              "10000 unless runtime is given); 0: none, runtime ends the run" },
    { .name = "access", .type = OPT_ENUM, .offset = AT (access),
      .choices = s_access_names, .default_text = "random", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "where a stream's requests land: random (as random_distribution says) or "
              "sequential (its reads walk the set's blocks in order from the first, file "
              "after file, and so do its writes, each going round again at the end: fio's "
              "rw=rw, a mix of reads and writes in order)" },
    { .name = "random_distribution", .type = OPT_STRING, .offset = AT (random_distribution),
      .capacity = CAPACITY (random_distribution), .default_text = "random",
      .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "where requests land, as fio's: random (uniform), zipf:THETA (rank k in "
              "proportion to 1/k^THETA), pareto:H (a share H of the blocks takes 1-H of the "
              "requests) or normal:PCT (a bell around the middle, its deviation PCT percent "
              "of the set)" },
    { .name = "randseed", .type = OPT_COUNT, .offset = AT (randseed),
      .min = 0, .max = 1ULL << 62, .default_text = "0", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "seed of the offsets: the same seed draws the same offsets on every run, "
              "each stream its own sequence from the seed, its job (on its host) and its "
              "index (0: a seed from the kernel every run)" },
    { .name = "engine", .type = OPT_ENUM, .offset = AT (engine),
      .choices = s_engine_names, .default_text = "psync", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "how a stream issues its requests to local files: psync (one pread or "
              "pwrite at a time) or io_uring (iodepth requests in flight, fixed buffers and "
              "files; a host that refuses io_uring fails the job at prepare). An nfs:// file "
              "is read with libnfs's asynchronous calls whichever it names" },
    { .name = "iodepth", .type = OPT_COUNT, .offset = AT (iodepth),
      .min = 1, .max = JOB_IODEPTH_MAX, .default_text = "1", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "requests each stream keeps in flight (fio's iodepth): with engine = "
              "io_uring (psync has one), and for an nfs:// read or copy source the READ "
              "calls in flight on the stream's connection, with either engine; a copy "
              "writes its blocks in order" },
    { .name = "iomem", .type = OPT_ENUM, .offset = AT (iomem),
      .choices = s_iomem_names, .default_text = "malloc", .flags = OPT_WIRE | OPT_GLOBAL,
      .help = "what the buffers of a stream's requests are made of (fio's iomem): "
              "malloc (from the heap, in pages of 4K, as fio's default) or huge (in "
              "transparent huge pages of 2M where the kernel gives them, as fio's "
              "mmaphuge): a request of 128K is then one piece of memory, not 32, and a "
              "device or a hypervisor that pays per piece is measured for what it moves" },
    { .name = NULL }
};

//  --------------------------------------------------------------------
//  The table's public face

//  The row named name, or NULL.
const opt_def_t *
jobspec_option (const char *name)
{
    if (!name)
        return NULL;
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++)
        if (strcmp (opt->name, name) == 0)
            return opt;
    return NULL;
}

//  A spec with every default of the table applied.
void
jobspec_defaults (jobspec_t *spec)
{
    assert (spec);
    memset (spec, 0, sizeof (*spec));
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++) {
        if (!opt->default_text)
            continue;
        char err [128];
        int rc = opt_parse (opt, opt->default_text, spec, err, sizeof (err));
        assert (rc == 0);       //  a default outside its own bounds is a table bug
        (void) rc;
    }
}

//  --------------------------------------------------------------------
//  Names and paths

//  Name of value in choices, or "?" when out of range.
static const char *
s_name_or_unknown (const char *const *choices, int value)
{
    const char *name = opt_choice_name (choices, value);
    return name? name: "?";
}

//  Names of enum values, "?" when out of range.
const char *
jobspec_workload_name (int workload)
{
    return s_name_or_unknown (jobspec_workload_names, workload);
}

const char *
jobspec_fsync_name (int fsync_mode)
{
    return s_name_or_unknown (s_fsync_names, fsync_mode);
}

const char *
jobspec_pattern_name (int pattern)
{
    return s_name_or_unknown (s_pattern_names, pattern);
}

const char *
jobspec_class_name (int job_class)
{
    return s_name_or_unknown (s_class_names, job_class);
}

const char *
jobspec_rw_mode_name (int rw_mode)
{
    return s_name_or_unknown (s_rw_mode_names, rw_mode);
}

const char *
jobspec_engine_name (int engine)
{
    return s_name_or_unknown (s_engine_names, engine);
}

//  True for an nfs:// URL.
bool
jobspec_src_is_nfs (const char *src)
{
    return strncmp (src, "nfs://", 6) == 0;
}

//  The file of stream index of a job.
int
jobspec_stream_path (const char *path, uint64_t streams, uint64_t index,
                     char *buf, size_t buflen)
{
    assert (path && buf);
    int len;
    if (streams <= 1) {
        if (index != 0)
            return -1;
        len = snprintf (buf, buflen, "%s", path);
    }
    else {
        if (index >= streams)
            return -1;
        //  An URL's query (nfs://server/export/file?version=4) stays last.
        size_t name_len = jobspec_src_is_nfs (path)? strcspn (path, "?"): strlen (path);
        len = snprintf (buf, buflen, "%.*s.%" PRIu64 "%s", (int) name_len, path, index + 1,
                        path + name_len);
    }
    return (len < 0 || (size_t) len >= buflen)? -1: 0;
}

//  --------------------------------------------------------------------
//  Wire codec

//  Pack len bytes of text as a msgpack str.
static void
s_pack_string (msgpack_packer *pk, const char *text, size_t len)
{
    msgpack_pack_str (pk, len);
    msgpack_pack_str_body (pk, text, len);
}

//  The OPT_WIRE options of spec as one msgpack map.
void
jobspec_encode (const jobspec_t *spec, msgpack_packer *pk)
{
    assert (spec && pk);
    size_t count = 0;
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++)
        if (opt->flags & OPT_WIRE)
            count++;
    msgpack_pack_map (pk, count);
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++) {
        if (!(opt->flags & OPT_WIRE))
            continue;
        s_pack_string (pk, opt->name, strlen (opt->name));
        opt_pack (opt, spec, pk);
    }
}

//  The OPT_WIRE option named by len bytes of key, with its row index.
static const opt_def_t *
s_wire_option (const char *key, size_t len, size_t *index)
{
    for (size_t i = 0; jobspec_options [i].name; i++) {
        const opt_def_t *opt = &jobspec_options [i];
        if ((opt->flags & OPT_WIRE)
        &&  strlen (opt->name) == len && memcmp (opt->name, key, len) == 0) {
            *index = i;
            return opt;
        }
    }
    return NULL;
}

//  A spec from a msgpack map, every value checked.
int
jobspec_decode (const msgpack_object *map, jobspec_t *spec, char *err, size_t errlen)
{
    assert (spec && err);
    jobspec_defaults (spec);
    if (!map || map->type != MSGPACK_OBJECT_MAP) {
        snprintf (err, errlen, "job spec is not a map");
        return -1;
    }
    //  One bit per table row, to refuse a key given twice.
    uint64_t seen = 0;
    _Static_assert (sizeof (jobspec_options) / sizeof (jobspec_options [0]) <= 64,
                    "the seen mask has one bit per option");

    for (uint32_t i = 0; i < map->via.map.size; i++) {
        const msgpack_object_kv *kv = &map->via.map.ptr [i];
        if (kv->key.type != MSGPACK_OBJECT_STR)
            continue;           //  not a key this version knows
        size_t index;
        const opt_def_t *opt = s_wire_option (kv->key.via.str.ptr, kv->key.via.str.size, &index);
        if (!opt)
            continue;
        if (seen & ((uint64_t) 1 << index)) {
            snprintf (err, errlen, "%s: given twice", opt->name);
            return -1;
        }
        seen |= (uint64_t) 1 << index;
        if (opt_unpack (opt, &kv->val, spec, err, errlen))
            return -1;
    }
    //  An option without a default has no value to fall back on (a size
    //  of 0 would be out of bounds), so the sender must give it. Options
    //  added in later versions come with defaults and may be missing.
    for (size_t i = 0; jobspec_options [i].name; i++) {
        const opt_def_t *opt = &jobspec_options [i];
        if ((opt->flags & OPT_WIRE) && !opt->default_text && !(seen & ((uint64_t) 1 << i))) {
            snprintf (err, errlen, "%s: missing", opt->name);
            return -1;
        }
    }
    return 0;
}
