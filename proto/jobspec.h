/*  proto/jobspec.h: what one job asks of an agent, and the one table that
    describes every job option.

    A job is a [job NAME] section of a scenario. Its options are described
    once, in the table in jobspec.c (name, type, where it lives in
    jobspec_t, default, bounds, help; the row's type is option.h's).
    That table drives three things:
    the scenario parser (text to value, coordinator/scenario/scenario.c), the wire
    codec (value to msgpack and back, jobspec_encode / jobspec_decode) and
    `iofleet run --help`. Adding an option means adding a field here and a
    row to the table, nothing else.
*/
#ifndef IOFLEET_JOBSPEC_H
#define IOFLEET_JOBSPEC_H

#include "option.h"

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOB_NAME_MAX      63        //  job, test and agent names
#define JOB_PATH_MAX      1023      //  paths and nfs:// URLs
#define JOB_STREAMS_MAX   1024      //  streams (threads) per job
#define JOB_FILES_MAX     65536     //  files in a randrw file set
#define TEST_AGENT_JOBS_MAX     256     //  jobs one test may hold on one agent
#define TEST_AGENT_STREAMS_MAX  1024    //  threads one test may ask of one agent

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
    RW_MODE_RNDRW = 0,          //  random reads and writes in the ratio rwratio
    RW_MODE_RNDRD = 1,          //  random reads only
    RW_MODE_RNDWR = 2           //  random writes only
} rw_mode_t;

typedef enum {
    ACCESS_RANDOM = 0,          //  random offsets, as random_distribution says
    ACCESS_SEQUENTIAL = 1       //  a stream's reads and its writes each walk the set in order
} access_t;

typedef enum {
    FSYNC_CALL_FSYNC = 0,       //  fsync: data and every change to the inode
    FSYNC_CALL_FDATASYNC = 1    //  fdatasync: data, and the inode only where reading needs it
} fsync_call_t;

typedef enum {
    JOB_ENGINE_PSYNC = 0,       //  one pread or pwrite at a time (agent/engines/psync.c)
    JOB_ENGINE_IO_URING = 1     //  iodepth requests in flight through io_uring
} job_engine_t;

#define JOB_IODEPTH_MAX   4096      //  requests in flight per stream

typedef enum {
    JOB_IOMEM_MALLOC = 0,       //  the slots' buffers from the heap, in base pages (fio's default)
    JOB_IOMEM_HUGE = 1          //  in transparent huge pages where the kernel gives them
} job_iomem_t;

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
    int workload;                           //  workload_t (proto/workload_list.h)
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
    uint64_t rate_iops;                     //  cap on a stream's requests per second, 0 none
    uint64_t seekers;                       //  bonnie: threads seeking at once in its seeks phase
    uint64_t seeks;                         //  bonnie: random seeks in all, shared by the seekers
    int64_t runtime_ns;                     //  stop every stream at start + runtime, 0 none
    int64_t ramp_ns;                        //  the first ramp_ns of a stream are left out of its figures
    uint64_t files;                         //  randrw: files in the job's set, sharing size
    int rw_mode;                            //  randrw: rw_mode_t
    uint64_t rwratio;                       //  randrw: reads per write, in millionths (1.5 = 1500000)
    uint64_t read_pct;                      //  randrw: reads in percent of requests; the
                                            //  coordinator turns it into mode and rwratio
    uint64_t fsync_every;                   //  randrw: fsync after this many requests of a stream, 0 never
    int fsync_call;                         //  randrw: fsync_call_t of its rounds and its end's
    bool fsync_end;                         //  randrw: a last round over the files a stream wrote
    uint64_t requests;                      //  randrw: requests of the job in all, 0 none (runtime)
    int access;                             //  randrw: access_t, random or in order
    char random_distribution [32];          //  randrw: where requests land (distribution.h)
    uint64_t randseed;                      //  randrw: seed of every stream's offsets, 0: the
                                            //  kernel's, another each run
    int engine;                             //  job_engine_t: how a stream issues its requests
    uint64_t iodepth;                       //  requests a stream keeps in flight (io_uring)
    int iomem;                              //  job_iomem_t: what the requests' buffers are made of
} jobspec_t;

//  The table, NULL-name terminated, and a lookup by name (NULL if unknown).
extern const opt_def_t jobspec_options [];
const opt_def_t *jobspec_option (const char *name);

//  A spec with every default applied (no name, test, agent or paths).
void jobspec_defaults (jobspec_t *spec);

//  Name of an enum value, for logs and reports ("end", "random", "disk").
const char *jobspec_workload_name (int workload);

//  The names of the workloads (workload_list.h), indexed by value and
//  NULL-terminated: the choices of the `workload` option.
extern const char *const jobspec_workload_names [];
const char *jobspec_fsync_name (int fsync_mode);
const char *jobspec_pattern_name (int pattern);
const char *jobspec_class_name (int job_class);
const char *jobspec_rw_mode_name (int rw_mode);
const char *jobspec_engine_name (int engine);

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
