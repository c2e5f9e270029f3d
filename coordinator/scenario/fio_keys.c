/*  coordinator/scenario/fio_keys.c: fio's job option names and what they
    are here; see fio_keys.h. Learned from fio's documented behaviour
    (its HOWTO), not from its code.
*/
#include "fio_keys.h"
#include "scenario_rules.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

//  rw = and readwrite =: what a fio job does.
static const fio_value_t s_rw_values [] = {
    { .fio = "read", .ours = "workload = read" },
    { .fio = "write", .ours = "workload = write" },
    { .fio = "randread", .ours = "workload = randrw, mode = rndrd" },
    { .fio = "randwrite", .ours = "workload = randrw, mode = rndwr" },
    { .fio = "randrw", .ours = "workload = randrw, mode = rndrw" },
    { .fio = "rw", .ours = "workload = randrw, mode = rndrw, access = sequential" },
    { .fio = "readwrite", .ours = "workload = randrw, mode = rndrw, access = sequential" },
    { .fio = NULL }
};

//  ioengine =: how requests are issued.
static const fio_value_t s_ioengine_values [] = {
    { .fio = "psync", .ours = "engine = psync" },
    { .fio = "sync", .ours = "engine = psync" },
    { .fio = "pvsync", .ours = "engine = psync" },
    { .fio = "io_uring", .ours = "engine = io_uring" },
    { .fio = "libaio", .ours = "engine = io_uring (asynchronous, as libaio)" },
    { .fio = NULL }
};

//  buffered =: the opposite of direct.
static const fio_value_t s_buffered_values [] = {
    { .fio = "0", .ours = "direct = yes" },
    { .fio = "1", .ours = "direct = no" },
    { .fio = NULL }
};

//  end_fsync =: an fsync before the file is closed.
static const fio_value_t s_end_fsync_values [] = {
    { .fio = "0", .ours = "fsync = none (write), fsync_end = no (randrw)" },
    { .fio = "1", .ours = "fsync = end (write), fsync_end = yes (randrw)" },
    { .fio = NULL }
};

//  mem = (and iomem =, which is ours too): what the buffers are made of;
//  a huge kind may name its file after a colon (mmaphuge:/hugepages/file),
//  which the translation leaves out.
static const fio_value_t s_iomem_values [] = {
    { .fio = "malloc", .ours = "iomem = malloc" },
    { .fio = "shm", .ours = "iomem = malloc (pages of 4K)" },
    { .fio = "mmap", .ours = "iomem = malloc (pages of 4K)" },
    { .fio = "mmapshared", .ours = "iomem = malloc (pages of 4K)" },
    { .fio = "shmhuge", .ours = "iomem = huge (transparent huge pages)" },
    { .fio = "mmaphuge", .ours = "iomem = huge (transparent huge pages)" },
    { .fio = NULL }
};

//  A test: what stonewall and new_group mean here.
#define S_TEST_HINT "test = NAME: the jobs of one test run together, tests one after " \
                    "another in file order"

const fio_key_t fio_keys [] = {
    { .fio = "filename", .ours = "path" },
    { .fio = "directory", .otherwise = "path = DIRECTORY/FILE (a job names its file)" },
    { .fio = "nrfiles", .ours = "files" },
    { .fio = "filesize", .ours = "size" },
    { .fio = "blocksize", .ours = "bs" },
    { .fio = "numjobs", .ours = "streams" },
    { .fio = "rwmixread", .ours = "read_pct" },
    { .fio = "rwmixwrite", .otherwise = "read_pct = 100 less it" },
    { .fio = "number_ios", .otherwise = "requests = it times numjobs (requests counts "
                                        "every stream of the job together)" },
    { .fio = "io_size", .otherwise = "size (bytes per stream) or requests" },
    { .fio = "ramp_time", .ours = "ramp" },
    { .fio = "time_based", .otherwise = "runtime = TIME (a job with a runtime is always "
                                        "time-based)" },
    { .fio = "rw", .values = s_rw_values,
      .otherwise = "workload = read, write or randrw (trims are not done here)" },
    { .fio = "readwrite", .values = s_rw_values,
      .otherwise = "workload = read, write or randrw (trims are not done here)" },
    { .fio = "ioengine", .values = s_ioengine_values, .otherwise = "engine = psync or io_uring" },
    { .fio = "buffered", .values = s_buffered_values, .otherwise = "direct = yes or no" },
    { .fio = "mem", .values = s_iomem_values, .file_after_colon = true,
      .otherwise = "iomem = malloc or huge" },
    { .fio = "end_fsync", .values = s_end_fsync_values,
      .otherwise = "fsync = none or end (write), fsync_end = no or yes (randrw)" },
    { .fio = "fdatasync", .otherwise = "fsync_every = N with fsync_call = fdatasync (randrw)" },
    { .fio = "stonewall", .otherwise = S_TEST_HINT },
    { .fio = "wait_for_previous", .otherwise = S_TEST_HINT },
    { .fio = "new_group", .otherwise = S_TEST_HINT },
    { .fio = "group_reporting", .otherwise = "nothing: a report row is a test, its "
                                             "streams on every host together" },
    { .fio = "loops", .otherwise = "iterations = N in [global]: every test runs N times" },
    { .fio = "invalidate", .otherwise = "drop_caches = yes" },
    { .fio = "zero_buffers", .otherwise = "pattern = zero" },
    { .fio = "refill_buffers", .otherwise = "pattern = random" },
    { .fio = "randrepeat", .otherwise = "randseed = N: the same seed draws the same offsets" },
    { .fio = "thread", .otherwise = "nothing: every stream is a thread" },
    { .fio = "fallocate", .otherwise = "nothing: files are not preallocated here (fio's "
                                       "fallocate=none)" },
    { .fio = NULL }
};

const fio_key_t *
fio_keys_find (const char *name)
{
    for (const fio_key_t *row = fio_keys; row->fio; row++)
        if (strcmp (row->fio, name) == 0)
            return row;
    return NULL;
}

int
fio_keys_explain (const char *name, const char *value, char *out, size_t outlen)
{
    const fio_key_t *row = fio_keys_find (name);
    if (!row)
        return -1;
    scenario_quote_t quoted;
    scenario_quote (&quoted, value, strlen (value));
    if (row->ours) {
        snprintf (out, outlen, "%s is fio's; here: %s = %s", name, row->ours, quoted.text);
        return 0;
    }
    for (const fio_value_t *each = row->values; each && each->fio; each++)
        if (strcasecmp (each->fio, value) == 0) {
            snprintf (out, outlen, "%s is fio's; here: %s", name, each->ours);
            return 0;
        }
    if (row->values)
        snprintf (out, outlen, "%s is fio's, and %s = %s has no counterpart here; use %s",
                  name, name, quoted.text, row->otherwise);
    else
        snprintf (out, outlen, "%s is fio's; here: %s", name, row->otherwise);
    return 0;
}

int
fio_keys_part (const char *value, bool writes, const char *fallback, char *out, size_t outlen)
{
    const char *comma = strchr (value, ',');
    if (comma && strchr (comma + 1, ',') && strchr (strchr (comma + 1, ',') + 1, ','))
        return -1;
    const char *part = value;
    size_t length = comma? (size_t) (comma - value): strlen (value);
    if (comma && writes) {
        part = comma + 1;
        length = strcspn (part, ",");
    }
    while (length > 0 && part [0] == ' ') {
        part++;
        length--;
    }
    while (length > 0 && part [length - 1] == ' ')
        length--;
    if (length)
        snprintf (out, outlen, "%.*s", (int) length, part);
    else
        snprintf (out, outlen, "%s", fallback);
    return 0;
}
