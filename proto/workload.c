/*  proto/workload.c: the workload descriptor table and the rules derived
    from it; see workload.h. */
#include "workload.h"
#include "append.h"
#include "distribution.h"
#include "printable.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

//  Options every job has, whatever its workload.
const char *const workload_common_keys [] = {
    "name", "test", "agent", "workload", "class", "interval", "settle", "drop_caches",
    "streams", NULL
};

static int s_randrw_check (const jobspec_t *spec, const char **key, char *err, size_t errlen);
static int s_randrw_derive (jobspec_t *spec, workload_given_fn *given, void *arg,
                            const char **key, char *err, size_t errlen);

//  bonnie's seeks phase: its seeks on each stream.
static uint64_t
s_bonnie_seeks (const jobspec_t *spec)
{
    return spec->seeks;
}

//  The table, indexed by workload_t.
static const workload_desc_t s_workloads [WORKLOAD_COUNT] = {
    [WORKLOAD_NULL] = {
        .name = "null",
        .help = "no I/O: counts size bytes in bs steps as if written; tests the machinery",
        .timed = true, .stream_results = true, .size_required = true, .no_io = true,
        .keys = { "size", "bs", "rate", NULL },
    },
    [WORKLOAD_WRITE] = {
        .name = "write",
        .help = "sequential write of size bytes in bs blocks, as dd does",
        .timed = true, .stream_results = true, .host_figures = true, .size_required = true,
        .required = { "path", NULL },
        .keys = { "path", "size", "bs", "direct", "fsync", "pattern", "rate", "rate_iops",
                  "keep", "runtime", "ramp", "engine", "iodepth", "iomem", NULL },
        .files = { { .option = "path", .writes = true, .naming = FILES_PER_STREAM } },
    },
    [WORKLOAD_COPY] = {
        .name = "copy",
        .help = "read src (a path or an nfs:// URL), write dst; without size, the whole source",
        .timed = true, .stream_results = true, .host_figures = true,
        .required = { "src", "dst", NULL },
        .keys = { "src", "dst", "size", "bs", "direct", "fsync", "rate", "keep", "engine",
                  "iodepth", "iomem", NULL },
        .files = {
            { .option = "src", .naming = FILES_SHARED, .nfs_url = true },
            { .option = "dst", .writes = true, .naming = FILES_PER_STREAM },
        },
    },
    [WORKLOAD_FILL] = {
        .name = "fill",
        .help = "create a source file before the test (untimed; kept: it is the share's content)",
        .size_required = true,
        .required = { "path", NULL },
        .keys = { "path", "size", "bs", "pattern", "refill", NULL },
        .files = { { .option = "path", .writes = true, .naming = FILES_PER_STREAM } },
    },
    [WORKLOAD_MONITOR] = {
        .name = "monitor",
        .help = "no I/O: the host's CPU, disk and NFS counters every interval, for the whole test",
        .timed = true, .samples_host = true, .host_figures = true, .one_stream = true,
    },
    [WORKLOAD_READ] = {
        .name = "read",
        .help = "sequential read of path (laid out first if missing or short) or an nfs:// URL; "
                "without size, the whole file",
        .timed = true, .stream_results = true, .host_figures = true, .reads = true,
        .required = { "path", NULL },
        .keys = { "path", "size", "bs", "direct", "pattern", "rate", "rate_iops", "keep",
                  "runtime", "ramp", "engine", "iodepth", "iomem", NULL },
        .files = { { .option = "path", .lays_out = true, .naming = FILES_PER_STREAM,
                     .nfs_url = true } },
    },
    [WORKLOAD_REWRITE] = {
        .name = "rewrite",
        .help = "iozone -i 0: write a new file, then write it again in place (bs is the record size)",
        .timed = true, .stream_results = true, .host_figures = true, .size_required = true,
        .required = { "path", NULL },
        .keys = { "path", "size", "bs", "direct", "fsync", "pattern", "keep", "engine",
                  "iodepth", "iomem", NULL },
        .files = { { .option = "path", .writes = true, .naming = FILES_PER_STREAM } },
        .phases = { { .name = "write" }, { .name = "rewrite" } },
        .notation = NOTATION_IOZONE,
    },
    [WORKLOAD_BONNIE] = {
        .name = "bonnie",
        .help = "bonnie++'s block tests on one file: block output, rewrite, block input, random "
                "seeks (the per-character tests are left out, as -f does)",
        .timed = true, .stream_results = true, .host_figures = true, .size_required = true,
        .required = { "path", NULL },
        .keys = { "path", "size", "bs", "direct", "fsync", "seekers", "seeks", "keep", NULL },
        .files = { { .option = "path", .writes = true, .naming = FILES_PER_STREAM } },
        .phases = {
            { .name = "output" }, { .name = "rewrite" }, { .name = "input", .reads = true },
            { .name = "seeks", .rate = RATE_OPS, .reads = true, .requests = s_bonnie_seeks },
        },
        .notation = NOTATION_BONNIE,
        .defaults = { { .option = "bs", .text = "8K" }, { .option = "fsync", .text = "close" } },
    },
    [WORKLOAD_RANDRW] = {
        .name = "randrw",
        .help = "sysbench fileio's random I/O: a set of files files totalling size, laid out at "
                "prepare (untimed) and shared by the streams, read and written at random "
                "bs-aligned offsets (or in order: access) in the ratio rwratio (or read_pct, or mode rndrd or rndwr), "
                "every file fsynced (or fdatasynced: fsync_call) after every fsync_every "
                "requests of a stream and the files it wrote at its end (fsync_end); ends "
                "after requests in all or at runtime. Latency of every request is kept",
        .timed = true, .stream_results = true, .host_figures = true, .size_required = true,
        .rate = RATE_REQUESTS,
        .required = { "path", NULL },
        .keys = { "path", "size", "bs", "direct", "files", "mode", "rwratio", "read_pct",
                  "fsync_every", "fsync_call", "fsync_end", "requests", "runtime", "ramp", "pattern", "keep", "engine",
                  "iodepth", "iomem", "rate", "rate_iops", "access", "random_distribution", "randseed",
                  NULL },
        .files = { { .option = "path", .writes = true, .lays_out = true, .naming = FILES_SET } },
        .defaults = {
            { .option = "bs", .text = "16K" },
            { .option = "requests", .text = "10000", .unless = "runtime" },
        },
        .check = s_randrw_check,
        .derive = s_randrw_derive,
    },
};

const workload_desc_t *
workload_desc (int workload)
{
    if (workload < 0 || workload >= WORKLOAD_COUNT)
        return NULL;
    return &s_workloads [workload];
}

const workload_desc_t *
workload_find (const char *name)
{
    for (int workload = 0; workload < WORKLOAD_COUNT; workload++)
        if (strcmp (s_workloads [workload].name, name) == 0)
            return &s_workloads [workload];
    return NULL;
}

const workload_file_t *
workload_file (const workload_desc_t *desc, size_t index)
{
    if (!desc || index >= WORKLOAD_FILES_MAX || !desc->files [index].option)
        return NULL;
    return &desc->files [index];
}

uint32_t
workload_phase_count (const workload_desc_t *desc)
{
    uint32_t count = 0;
    while (count < PHASES_MAX && desc->phases [count].name)
        count++;
    return count? count: 1;
}

const char *
workload_phase_name (const workload_desc_t *desc, uint32_t phase)
{
    return phase < PHASES_MAX? desc->phases [phase].name: NULL;
}

rate_kind_t
workload_phase_rate (const workload_desc_t *desc, uint32_t phase)
{
    if (!desc->phases [0].name)
        return desc->rate;
    return phase < PHASES_MAX && desc->phases [phase].name?
           desc->phases [phase].rate: RATE_BYTES;
}

uint64_t
workload_phase_bound_bytes (const workload_desc_t *desc, uint32_t phase, const jobspec_t *spec)
{
    const workload_phase_t *bound = phase < PHASES_MAX && desc->phases [phase].name?
                                    &desc->phases [phase]: NULL;
    if (bound && bound->requests)
        return bound->requests (spec) * spec->bs_bytes * spec->streams;
    if (spec->requests)
        return spec->requests * spec->bs_bytes;
    return workload_phase_rate (desc, phase) == RATE_BYTES? spec->size_bytes * spec->streams: 0;
}

//  True if key is in the NULL-terminated list (of at most max entries).
static bool
s_listed (const char *const *list, size_t max, const char *key)
{
    for (size_t i = 0; i < max && list [i]; i++)
        if (strcmp (list [i], key) == 0)
            return true;
    return false;
}

bool
workload_phase_reads (const workload_desc_t *desc, uint32_t phase)
{
    if (!desc->phases [0].name)
        return desc->reads;
    return phase < PHASES_MAX && desc->phases [phase].name && desc->phases [phase].reads;
}

bool
workload_uses_key (const workload_desc_t *desc, const char *key)
{
    return s_listed (workload_common_keys, SIZE_MAX, key)
        || s_listed (desc->keys, WORKLOAD_KEYS_MAX, key);
}

const char *
workload_option_text (const jobspec_t *spec, const char *option)
{
    const opt_def_t *opt = jobspec_option (option);
    if (!opt || opt->type != OPT_STRING)
        return "";
    return (const char *) spec + opt->offset;
}

//  A file option's value in its form: a local path, or where allowed
//  nfs://server/export/file (with an optional ?query for libnfs, such
//  as ?version=4). Returns 0, or -1 with a reason.
static int
s_check_file_form (const workload_file_t *file, const char *value, char *err, size_t errlen)
{
    //  What the file holds is quoted printably: it may come from anywhere.
    char shown [JOB_PATH_MAX * PRINTABLE_GROWTH + 1];
    printable (value, shown, sizeof (shown));
    if (strncmp (value, "nfs://", 6) != 0) {
        if (strstr (value, "://")) {
            snprintf (err, errlen, "'%s' is neither a path nor an nfs:// URL", shown);
            return -1;
        }
        return 0;
    }
    if (!file->nfs_url) {
        snprintf (err, errlen, "'%s': an nfs:// URL cannot be written; give a path", shown);
        return -1;
    }
    const char *server = value + 6;
    const char *slash = strchr (server, '/');
    size_t path_len = slash? strcspn (slash, "?"): 0;
    if (!slash || slash == server || path_len < 2 || slash [path_len - 1] == '/') {
        snprintf (err, errlen, "'%s' is not nfs://server/export/file", shown);
        return -1;
    }
    return 0;
}

int
workload_check (const jobspec_t *spec, const char **key, char *err, size_t errlen)
{
    const workload_desc_t *desc = workload_desc (spec->workload);
    if (!desc) {
        *key = "workload";
        snprintf (err, errlen, "workload %d is not known", spec->workload);
        return -1;
    }
    for (size_t i = 0; i < 4 && desc->required [i]; i++)
        if (!workload_option_text (spec, desc->required [i]) [0]) {
            *key = desc->required [i];
            snprintf (err, errlen, "the %s workload needs a %s", desc->name, desc->required [i]);
            return -1;
        }
    if (desc->size_required && spec->size_bytes == 0) {
        *key = "size";
        snprintf (err, errlen, "the %s workload needs a size of more than 0", desc->name);
        return -1;
    }
    if (desc->one_stream && spec->streams != 1) {
        *key = "streams";
        snprintf (err, errlen, "the %s workload runs one stream: streams must be 1", desc->name);
        return -1;
    }
    const workload_file_t *file;
    for (size_t f = 0; (file = workload_file (desc, f)); f++) {
        const char *value = workload_option_text (spec, file->option);
        if (value [0] && s_check_file_form (file, value, err, errlen)) {
            *key = file->option;
            return -1;
        }
    }
    if (spec->direct && spec->bs_bytes % IO_DIRECT_ALIGN_BYTES) {
        *key = "bs";
        snprintf (err, errlen, "direct = yes needs a bs that is a multiple of %d bytes, "
                  "and %" PRIu64 " is not", IO_DIRECT_ALIGN_BYTES, spec->bs_bytes);
        return -1;
    }
    if (spec->direct && spec->size_bytes % IO_DIRECT_ALIGN_BYTES) {
        *key = "size";
        snprintf (err, errlen, "direct = yes needs a size that is a multiple of %d bytes, "
                  "and %" PRIu64 " is not", IO_DIRECT_ALIGN_BYTES, spec->size_bytes);
        return -1;
    }
    //  A ramp is a share of a window: a job bound by its size or its
    //  requests has none, and ends when its work is done, often before
    //  the ramp would, which would leave an empty result.
    if (spec->ramp_ns && !spec->runtime_ns) {
        *key = "ramp";
        snprintf (err, errlen, "a ramp leaves out the first %.3f s of a runtime, and this job "
                  "has none (it ends at its size or requests): give a runtime, or no ramp",
                  spec->ramp_ns / 1e9);
        return -1;
    }
    if (spec->runtime_ns && spec->ramp_ns >= spec->runtime_ns) {
        *key = "ramp";
        snprintf (err, errlen, "a ramp of %.3f s leaves nothing of a runtime of %.3f s",
                  spec->ramp_ns / 1e9, spec->runtime_ns / 1e9);
        return -1;
    }
    //  An nfs:// file is read with its READ calls in flight, whatever
    //  the engine: the engine is how local requests reach the kernel.
    if (spec->engine == JOB_ENGINE_PSYNC && spec->iodepth > 1 && !workload_reads_nfs (spec)) {
        *key = "iodepth";
        snprintf (err, errlen, "engine psync keeps one request in flight: iodepth = %" PRIu64
                  " needs engine = io_uring (or an nfs:// file)", spec->iodepth);
        return -1;
    }
    return desc->check? desc->check (spec, key, err, errlen): 0;
}

//  randrw: a file of the set holds at least one block, and something
//  ends the run.
static int
s_randrw_check (const jobspec_t *spec, const char **key, char *err, size_t errlen)
{
    uint64_t file_bytes = spec->size_bytes / (spec->files? spec->files: 1);
    if (file_bytes < spec->bs_bytes) {
        *key = "bs";
        snprintf (err, errlen, "a file of the set holds %" PRIu64 " bytes (size %" PRIu64
                  " over %" PRIu64 " files), less than one block of bs %" PRIu64,
                  file_bytes, spec->size_bytes, spec->files, spec->bs_bytes);
        return -1;
    }
    int kind;
    double param;
    if (distribution_parse (spec->random_distribution, &kind, &param, err, errlen) == -1) {
        *key = "random_distribution";
        return -1;
    }
    if (spec->access == ACCESS_SEQUENTIAL && kind != DISTRIBUTION_RANDOM) {
        *key = "random_distribution";
        snprintf (err, errlen, "%s places random requests, and access = sequential walks "
                  "the blocks in order: give one of them", spec->random_distribution);
        return -1;
    }
    if (spec->requests == 0 && spec->runtime_ns == 0) {
        *key = "requests";
        snprintf (err, errlen, "the randrw workload ends after requests or at runtime: "
                  "give one of them more than 0");
        return -1;
    }
    return 0;
}

//  randrw: fio's read share in percent instead of sysbench's ratio. 100
//  is reads only, 0 writes only, anything else the ratio pct / (100 -
//  pct), in millionths, rounded.
static int
s_randrw_derive (jobspec_t *spec, workload_given_fn *given, void *arg,
                 const char **key, char *err, size_t errlen)
{
    //  rwratio is the reads per write of mode rndrw: with rndrd or rndwr
    //  it would be ignored without a word.
    if (given && !given ("read_pct", arg) && given ("rwratio", arg)
    &&  spec->rw_mode != RW_MODE_RNDRW) {
        *key = "rwratio";
        snprintf (err, errlen, "rwratio is the reads per write of mode rndrw; mode %s %s "
                  "only: leave rwratio out, or give mode = rndrw",
                  jobspec_rw_mode_name (spec->rw_mode),
                  spec->rw_mode == RW_MODE_RNDRD? "reads": "writes");
        return -1;
    }
    if (!given || !given ("read_pct", arg))
        return 0;
    if (given ("rwratio", arg)) {
        *key = "read_pct";
        snprintf (err, errlen, "give rwratio (reads per write, as sysbench) or read_pct "
                  "(reads in percent, as fio), not both");
        return -1;
    }
    int mode = spec->read_pct == 100? RW_MODE_RNDRD:
               spec->read_pct == 0? RW_MODE_RNDWR: RW_MODE_RNDRW;
    if (given ("mode", arg) && spec->rw_mode != mode) {
        *key = "read_pct";
        snprintf (err, errlen, "read_pct = %" PRIu64 " means mode %s, not %s", spec->read_pct,
                  jobspec_rw_mode_name (mode), jobspec_rw_mode_name (spec->rw_mode));
        return -1;
    }
    spec->rw_mode = mode;
    if (mode == RW_MODE_RNDRW)
        spec->rwratio = (spec->read_pct * OPT_DECIMAL_ONE + (100 - spec->read_pct) / 2)
                      / (100 - spec->read_pct);
    return 0;
}

uint64_t
workload_file_count (const jobspec_t *spec, size_t file)
{
    const workload_desc_t *desc = workload_desc (spec->workload);
    if (!desc || file >= WORKLOAD_FILES_MAX || !desc->files [file].option)
        return 0;
    const char *value = workload_option_text (spec, desc->files [file].option);
    if (!value [0] || jobspec_src_is_nfs (value))
        return 0;
    switch (desc->files [file].naming) {
        case FILES_SHARED: return 1;
        case FILES_SET: return spec->files;
        case FILES_PER_STREAM: break;
    }
    return spec->streams;
}

int
workload_file_path (const jobspec_t *spec, size_t file, uint64_t index, char *buf, size_t buflen)
{
    const workload_desc_t *desc = workload_desc (spec->workload);
    assert (desc && file < WORKLOAD_FILES_MAX && desc->files [file].option);
    const char *value = workload_option_text (spec, desc->files [file].option);
    if (desc->files [file].naming == FILES_SHARED) {
        int len = snprintf (buf, buflen, "%s", value);
        return len < 0 || (size_t) len >= buflen? -1: 0;
    }
    uint64_t count = desc->files [file].naming == FILES_SET? spec->files: spec->streams;
    return jobspec_stream_path (value, count, index, buf, buflen);
}

int
workload_apply_defaults (jobspec_t *spec, workload_given_fn *given, void *arg,
                         const char **key, char *err, size_t errlen)
{
    const workload_desc_t *desc = workload_desc (spec->workload);
    if (!desc)
        return 0;
    for (size_t i = 0; i < WORKLOAD_DEFAULTS_MAX && desc->defaults [i].option; i++) {
        const workload_default_t *fallback = &desc->defaults [i];
        if (given && (given (fallback->option, arg)
                  ||  (fallback->unless && given (fallback->unless, arg))))
            continue;
        const opt_def_t *opt = jobspec_option (fallback->option);
        if (!opt || opt_parse (opt, fallback->text, spec, err, errlen)) {
            *key = "workload";
            snprintf (err, errlen, "the %s workload's default %s = %s does not parse",
                      desc->name, fallback->option, fallback->text);
            return -1;
        }
    }
    return desc->derive? desc->derive (spec, given, arg, key, err, errlen): 0;
}

bool
workload_reads_nfs (const jobspec_t *spec)
{
    const workload_desc_t *desc = workload_desc (spec->workload);
    const workload_file_t *file;
    for (size_t f = 0; (file = workload_file (desc, f)); f++)
        if (file->nfs_url && jobspec_src_is_nfs (workload_option_text (spec, file->option)))
            return true;
    return false;
}

//  The class of a job from its options alone: network if a file its
//  workload reads is an nfs:// URL (a copy's src, a read's path).
int
workload_job_class (const jobspec_t *spec)
{
    if (spec->job_class != CLASS_AUTO)
        return spec->job_class;
    return workload_reads_nfs (spec)? CLASS_NETWORK: CLASS_DISK;
}

workload_bound_t
workload_bound (const jobspec_t *spec)
{
    if (spec->runtime_ns)
        return BOUND_TIME;
    if (spec->requests)
        return BOUND_REQUESTS;
    return BOUND_SIZE;
}

const char *
workload_bound_name (workload_bound_t bound)
{
    static const char *const names [] = {
        [BOUND_SIZE] = "size", [BOUND_REQUESTS] = "requests", [BOUND_TIME] = "time"
    };
    return bound <= BOUND_TIME? names [bound]: "?";
}

void
workload_common_text (char *buf, size_t buflen)
{
    size_t used = 0;
    buf [0] = 0;
    for (const char *const *key = workload_common_keys; *key; key++)
        if (strcmp (*key, "name") != 0) {
            append_printf (buf, buflen, &used, "%s", used? ", ": "");
            append_printf (buf, buflen, &used, "%s", *key);
        }
}

void
workload_option_help (const opt_def_t *opt, char *buf, size_t buflen)
{
    size_t used = 0;
    buf [0] = 0;
    if (!s_listed (workload_common_keys, SIZE_MAX, opt->name))
        for (int workload = 0; workload < WORKLOAD_COUNT; workload++)
            if (s_listed (s_workloads [workload].keys, WORKLOAD_KEYS_MAX, opt->name)) {
                append_printf (buf, buflen, &used, "%s", used? ", ": "");
                append_printf (buf, buflen, &used, "%s", s_workloads [workload].name);
            }
    append_printf (buf, buflen, &used, "%s", used? ": ": "");
    append_printf (buf, buflen, &used, "%s", opt->help? opt->help: "");
}

void
workload_describe (const workload_desc_t *desc, char *buf, size_t buflen)
{
    size_t used = 0;
    append_printf (buf, buflen, &used, "%s", desc->help);
    append_printf (buf, buflen, &used, "%s", ".");
    for (size_t i = 0; i < PHASES_MAX && desc->phases [i].name; i++) {
        append_printf (buf, buflen, &used, "%s", i? ", ": " Phases: ");
        append_printf (buf, buflen, &used, "%s", desc->phases [i].name);
    }
    if (desc->phases [0].name)
        append_printf (buf, buflen, &used, "%s", ".");
    for (size_t i = 0; i < WORKLOAD_KEYS_MAX && desc->keys [i]; i++) {
        append_printf (buf, buflen, &used, "%s", i? ", ": " Keys: ");
        append_printf (buf, buflen, &used, "%s", desc->keys [i]);
    }
    if (desc->keys [0])
        append_printf (buf, buflen, &used, "%s", ".");
}
