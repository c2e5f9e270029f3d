/*  proto/jobspec.h: what one job asks of an agent, and the one table that
    describes every job option.

    A job is a [job NAME] section of a scenario. Its options are described
    once, in the table in jobspec.c (name, type, where it lives in
    jobspec_t, default, bounds, help). That table drives three things:
    the scenario parser (text to value, coordinator/scenario.c), the wire
    codec (value to msgpack and back, jobspec_encode / jobspec_decode) and
    `iofleet run --help`. Adding an option means adding a field here and a
    row to the table, nothing else.
*/
#ifndef IOFLEET_JOBSPEC_H
#define IOFLEET_JOBSPEC_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOB_NAME_MAX      63        //  job, test and agent names
#define JOB_PATH_MAX      1023      //  paths and nfs:// URLs
#define JOB_STREAMS_MAX   256       //  streams (threads, files) per job

typedef enum {
    FSYNC_NONE = 0,             //  no flush: the rate is the page cache's
    FSYNC_END = 1,              //  fdatasync before close, timed (dd conv=fdatasync)
    FSYNC_CLOSE = 2             //  fsync then close, both timed
} fsync_mode_t;

typedef enum {
    PATTERN_ZERO = 0,           //  a zeroed buffer
    PATTERN_RANDOM = 1          //  random bytes, generated before the timed part
} pattern_t;

typedef enum {
    CLASS_AUTO = 0,             //  derived from the source (nfs:// is network)
    CLASS_DISK = 1,
    CLASS_NETWORK = 2
} job_class_t;

//  One job as the agent receives it. Strings are NUL-terminated.
typedef struct {
    char name [JOB_NAME_MAX + 1];           //  the [job NAME] section
    char test [JOB_NAME_MAX + 1];           //  the test it belongs to
    char agent [JOB_NAME_MAX + 1];          //  the agent that runs it
    int workload;                           //  workload_t (proto/workload.h)
    char path [JOB_PATH_MAX + 1];           //  file to write or read; stream k of n>1 uses path.k
    char src [JOB_PATH_MAX + 1];            //  copy: source path or nfs:// URL
    char dst [JOB_PATH_MAX + 1];            //  copy: destination path
    uint64_t size_bytes;                    //  bytes per stream
    uint64_t bs_bytes;                      //  bytes per write call
    uint64_t streams;                       //  parallel streams, one thread and file each
    bool direct;                            //  O_DIRECT
    int fsync_mode;                         //  fsync_mode_t
    int pattern;                            //  pattern_t
    int job_class;                          //  job_class_t
    bool keep;                              //  keep files after the test
    bool refill;                            //  fill: rewrite a source file that already has the size
    int64_t interval_ns;                    //  sample period
    int64_t settle_ns;                      //  longest wait after the window for dirty data to drain
    bool drop_caches;                       //  sync and drop the page cache before the test
    uint64_t rate_bytes;                    //  cap on a stream's bytes per second, 0 none
    uint64_t seekers;                       //  bonnie: threads seeking at once in its seeks phase
    uint64_t seeks;                         //  bonnie: random seeks in all, shared by the seekers
} jobspec_t;

typedef enum {
    OPT_STRING,                 //  char [capacity]
    OPT_SIZE,                   //  uint64_t bytes; text "4K", "5.2G" (powers of 1024)
    OPT_COUNT,                  //  uint64_t plain integer
    OPT_BOOL,                   //  bool; text yes/no, true/false, on/off, 1/0
    OPT_ENUM,                   //  int index into choices; a name on the wire
    OPT_DURATION                //  int64_t ns; text "1s", "250ms", "2m", "100us"
} opt_type_t;

//  Where an option may be given.
#define OPT_WIRE   0x1          //  sent to the agent in PREPARE
#define OPT_GLOBAL 0x2          //  may stand in [global] as a default for every job
#define OPT_HEADER 0x4          //  set from the section header ([job NAME]), not a key

//  One row of the option table.
typedef struct {
    const char *name;           //  key in the scenario and on the wire
    opt_type_t type;            //  how the value is stored and parsed
    size_t offset;              //  offsetof (jobspec_t, field)
    size_t capacity;            //  OPT_STRING: size of the char array
    uint64_t min;               //  numeric bounds, inclusive (sizes, counts, ns)
    uint64_t max;               //  0 means no upper bound
    const char *const *choices; //  OPT_ENUM: NULL-terminated names, index = value
    const char *default_text;   //  default as scenario text, NULL for none
    int flags;                  //  OPT_WIRE | OPT_GLOBAL
    const char *help;           //  one line for --help
} opt_def_t;

//  The table, NULL-name terminated, and a lookup by name (NULL if unknown).
extern const opt_def_t jobspec_options [];
const opt_def_t *jobspec_option (const char *name);

//  A spec with every default applied (no name, test, agent or paths).
void jobspec_defaults (jobspec_t *spec);

//  Parse scenario text into the field opt describes inside base (a
//  jobspec_t, or any struct the table's offsets point into), checking the
//  bounds. Returns 0, or -1 with a reason in err, e.g. "'12Q' is not a
//  size (use 4K, 1M, 5.2G)" or "0 is below the minimum 512".
int opt_parse (const opt_def_t *opt, const char *text, void *base,
               char *err, size_t errlen);

//  Write the value of opt inside base as scenario text ("1M", "yes",
//  "250ms"), for the scenario-as-run record. Returns 0 or -1 if too long.
int opt_format (const opt_def_t *opt, const void *base, char *buf, size_t buflen);

//  Write a number (a bound, a value) of a numeric option as a scenario
//  would: "64M" for a size, "250ms" for a duration, digits for a count.
void opt_format_number (const opt_def_t *opt, uint64_t value, char *buf, size_t buflen);

//  Name of an enum value, for logs and reports ("end", "random", "disk").
const char *jobspec_workload_name (int workload);
const char *jobspec_fsync_name (int fsync_mode);
const char *jobspec_pattern_name (int pattern);
const char *jobspec_class_name (int job_class);

//  The class of a job as both sides see it from its options: job_class
//  unless auto, else CLASS_NETWORK if a file its workload reads is an
//  nfs:// URL (a copy's src, a read's path), else CLASS_DISK.
//  (An agent may learn more, e.g. that a source path is on an NFS mount,
//  and say so in READY.)
int jobspec_class (const jobspec_t *spec);

//  True if src is an nfs:// URL.
bool jobspec_src_is_nfs (const char *src);

//  Path of stream `index` (0-based) of a job: path itself for a single
//  stream, "path.1" ... "path.N" for N > 1 (an nfs:// URL's ?query stays
//  at its end: "nfs://h/e/f.1?version=4"). Writes into buf; returns 0, or
//  -1 if it does not fit.
int jobspec_stream_path (const char *path, uint64_t streams, uint64_t index,
                         char *buf, size_t buflen);

//  Append the OPT_WIRE options of spec to pk as one msgpack map.
void jobspec_encode (const jobspec_t *spec, msgpack_packer *pk);

//  Fill spec from a msgpack map object: starts from jobspec_defaults, then
//  takes every known key, checking its type and bounds; unknown keys are
//  ignored. Options without a default (size, the strings) must be present.
//  Returns 0, or -1 with a reason in err ("bs: 0 is below the minimum 512").
int jobspec_decode (const msgpack_object *map, jobspec_t *spec,
                    char *err, size_t errlen);

#endif
