/*  proto/workload.h: what every workload is, in one place, for both sides.

    A workload's meaning lives in one row of the descriptor table in
    workload.c: whether it is timed, which options it requires and which
    it accepts, which files it reads and writes (for the overlap and
    confinement checks), whether its host owes figures, whether its
    samples are the host's counters, and its phases. The scenario
    checker, the run engine and the agent derive every rule from it;
    nothing outside proto/ and agent/workloads/ asks which workload a job
    runs. Adding a workload: a line in WORKLOAD_LIST (workload_list.h),
    its row in workload.c, and its ops table in agent/workloads/.

    Phases. A workload may run as a sequence of timed phases (rewrite:
    write, then rewrite in place). Every phase starts at one instant on
    every host, announced once every host finished the phase before, and
    is a row of its own in the reports ("TEST/PHASE"). A workload without
    phases runs one phase, named after its test.
*/
#ifndef IOFLEET_WORKLOAD_DESC_H
#define IOFLEET_WORKLOAD_DESC_H

#include "jobspec.h"
#include "workload_list.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


//  The class of a job as both sides see it from its options: job_class
//  unless auto, else CLASS_NETWORK if a file its workload reads is an
//  nfs:// URL (a copy's src, a read's path), else CLASS_DISK.
//  (An agent may learn more, e.g. that a source path is on an NFS mount,
//  and say so in READY.)
int workload_job_class (const jobspec_t *spec);

//  True if a file the job's workload reads is an nfs:// URL: its reads
//  go as READ calls on a libnfs connection, iodepth of them in flight
//  whatever `engine` says.
bool workload_reads_nfs (const jobspec_t *spec);

//  The options every job has, whatever its workload, NULL-terminated.
extern const char *const workload_common_keys [];

#define PHASES_MAX              8       //  phases one workload, so one test, may have
#define WORKLOAD_FILES_MAX      3       //  file options one workload may have
#define WORKLOAD_KEYS_MAX       28      //  options one workload may accept
#define WORKLOAD_DEFAULTS_MAX   4       //  options whose default it changes

//  O_DIRECT needs offsets and lengths in these units (the smallest
//  logical block any disk has); buffers aligned to a page.
#define IO_DIRECT_ALIGN_BYTES 512
#define IO_BUFFER_ALIGN_BYTES 4096

//  How the files of a file option are named.
typedef enum {
    FILES_PER_STREAM,               //  the path itself for one stream, path.1 .. path.N for N
    FILES_SHARED,                   //  one file for every stream (a copy's source)
    FILES_SET                       //  a set of `files` files shared by the streams (randrw):
                                    //  the path itself for one, path.1 .. path.N for N
} file_naming_t;

//  One option of a job that names a file.
typedef struct {
    const char *option;             //  the string option holding it: "path", "src", "dst"
    bool writes;                    //  the job creates or changes the file
    bool lays_out;                  //  read, but laid out at prepare if missing or short
    file_naming_t naming;           //  how streams share it
    bool nfs_url;                   //  may be an nfs:// URL instead of a local path
} workload_file_t;

//  What a phase's rate counts.
typedef enum {
    RATE_BYTES,                     //  MB/s
    RATE_OPS,                       //  operations per second: reads (bonnie's seeks,
                                    //  whose write-backs belong to their seek)
    RATE_REQUESTS                   //  operations per second: reads and writes (randrw)
} rate_kind_t;

//  One timed phase.
typedef struct {
    const char *name;               //  "write", "rewrite": the report row is TEST/NAME
    rate_kind_t rate;               //  what its rate counts
    bool reads;                     //  its bytes are read, not written (the cache warnings differ)
    //  The requests of bs that bound it on each stream (bonnie's seeks),
    //  which its samples count; NULL: the job's requests or size do.
    uint64_t (*requests) (const jobspec_t *spec);
} workload_phase_t;

//  The notation of a seed tool a workload's tests are also printed in,
//  beside the report's own table (coordinator/report/seeds.c), from its
//  phase rows.
typedef enum {
    NOTATION_NONE,                  //  the report's table only
    NOTATION_BONNIE,                //  bonnie++'s line per machine: K/sec and %CP per phase,
                                    //  the last phase in seeks per second
    NOTATION_IOZONE                 //  iozone's min-max range over the runs, per phase
} workload_notation_t;

//  An option whose default this workload changes (randrw's bs of 16K).
typedef struct {
    const char *option;             //  option name
    const char *text;               //  default as scenario text
    const char *unless;             //  not applied when this option is given (randrw's
                                    //  requests of 10000 unless runtime), or NULL
} workload_default_t;

//  Whether the scenario gave an option (in the job or in [global]).
typedef bool (workload_given_fn) (const char *option, void *arg);

//  One workload, as both sides see it.
typedef struct {
    const char *name;               //  as in scenarios and on the wire
    const char *help;               //  one line for --help and the manual
    bool timed;                     //  runs in the test's window after START; false: does its
                                    //  work during PREPARE (fill), before any timed job prepares
    bool stream_results;            //  its streams' RESULTs are figures of the test
    bool samples_host;              //  its samples are the host's counters (MONITOR); it runs
                                    //  until the last phase of the test is over
    bool host_figures;              //  its host owes the test HOST figures (CPU, memory, disks)
    bool no_io;                     //  moves no data: its rate is the machinery's, no device's
    bool one_stream;                //  streams must be 1
    bool size_required;             //  size must be given; else 0 means the whole source file
    bool reads;                     //  without phases: its bytes are read, not written
    rate_kind_t rate;               //  without phases: what its rate counts
    const char *required [4];       //  string options that must be given, NULL-terminated
    const char *keys [WORKLOAD_KEYS_MAX];   //  options it uses beyond the common ones
    workload_file_t files [WORKLOAD_FILES_MAX]; //  files it names; option NULL ends them
    workload_phase_t phases [PHASES_MAX]; //  name NULL ends them; none: one phase
    workload_notation_t notation;   //  a seed tool's notation the report also prints it in
    workload_default_t defaults [WORKLOAD_DEFAULTS_MAX];   //  option NULL ends them
    //  Rules of its own options beyond those of the table (randrw: a file
    //  of the set holds at least one block), checked by workload_check on
    //  both sides; NULL for none. Returns 0, or -1 with key and reason.
    int (*check) (const jobspec_t *spec, const char **key, char *err, size_t errlen);
    //  Options it derives from others once the defaults are in (randrw:
    //  read_pct becomes mode and rwratio), on the coordinator's side;
    //  NULL for none. Returns 0, or -1 with key and reason.
    int (*derive) (jobspec_t *spec, workload_given_fn *given, void *arg,
                   const char **key, char *err, size_t errlen);
} workload_desc_t;

//  The descriptor of a workload value, or NULL if out of range.
const workload_desc_t *workload_desc (int workload);

//  The descriptor of the workload named name, or NULL.
const workload_desc_t *workload_find (const char *name);

//  File option `index` of a workload (its files in order), or NULL past
//  the last: `for (f = 0; (file = workload_file (desc, f)); f++)`.
const workload_file_t *workload_file (const workload_desc_t *desc, size_t index);

//  Phases of a workload, at least 1.
uint32_t workload_phase_count (const workload_desc_t *desc);

//  Name of phase `phase` ("rewrite"), or NULL for the one phase of a
//  workload without phases (its row is named after the test).
const char *workload_phase_name (const workload_desc_t *desc, uint32_t phase);

//  What phase `phase` counts: the phase's rate, or without phases the
//  workload's (RATE_BYTES unless it says otherwise).
rate_kind_t workload_phase_rate (const workload_desc_t *desc, uint32_t phase);

//  The bytes that bound phase `phase` of the job of spec, all its streams,
//  as their samples count them: the requests the phase names on each
//  stream, or the job's own (shared by its streams), times bs; else its
//  size on each stream; 0 if nothing does (a time-bound job's).
uint64_t workload_phase_bound_bytes (const workload_desc_t *desc, uint32_t phase,
                                     const jobspec_t *spec);

//  True if the bytes of phase `phase` are read rather than written.
bool workload_phase_reads (const workload_desc_t *desc, uint32_t phase);

//  True if a job of this workload uses option `key`: one of the options
//  every job has (test, agent, workload, class, interval, settle,
//  drop_caches, streams) or one of its own.
bool workload_uses_key (const workload_desc_t *desc, const char *key);

//  The rules a job's options must follow, checked the same way by the
//  scenario parser and the agent: required options given, size given
//  where required, one stream where required, direct I/O's alignment,
//  file options in their form (a path, or nfs://server/export/file where
//  allowed). Returns 0, or -1 with the option at fault in *key and the
//  reason in err ("the write workload needs a path").
int workload_check (const jobspec_t *spec, const char **key, char *err, size_t errlen);

//  The value of string option `option` in spec ("" if the option is not
//  a string option).
const char *workload_option_text (const jobspec_t *spec, const char *option);

//  How many files the file option `file` (an index into desc->files)
//  names in a job: streams for FILES_PER_STREAM, 1 for FILES_SHARED,
//  files for FILES_SET, 0 if the option is empty or an nfs:// URL (no
//  local file).
uint64_t workload_file_count (const jobspec_t *spec, size_t file);

//  Path of file `index` of file option `file` in a job into buf.
//  Returns 0, or -1 if it does not fit.
int workload_file_path (const jobspec_t *spec, size_t file, uint64_t index,
                        char *buf, size_t buflen);

//  Give spec the workload's own defaults for options `given` says were
//  not set (given (option) returns true for options the scenario set, in
//  the job or in [global]), then derive what it derives. Returns 0, or
//  -1 with the option at fault in *key and the reason in err ("give
//  rwratio or read_pct, not both").
int workload_apply_defaults (jobspec_t *spec, workload_given_fn *given, void *arg,
                             const char **key, char *err, size_t errlen);

//  How a job's timed part ends: after its size (or its source), after
//  its requests, or at the start instant plus its runtime.
typedef enum {
    BOUND_SIZE,
    BOUND_REQUESTS,
    BOUND_TIME
} workload_bound_t;

workload_bound_t workload_bound (const jobspec_t *spec);

//  "size", "requests" or "time", for the reports.
const char *workload_bound_name (workload_bound_t bound);

//  The options every job has, as text for --help and the manual: "test,
//  agent, workload, ... streams" (the section header's name left out).
void workload_common_text (char *buf, size_t buflen);

//  The help of job option opt for --help and the manual: after the
//  workloads that take it, when not every job does ("randrw: files in
//  the job's file set ..."). Written into buf (truncated to fit).
void workload_option_help (const opt_def_t *opt, char *buf, size_t buflen);

//  What a workload is, for --help and the manual: its help line, then
//  its phases (if any) and its keys beyond the common ones, as
//  "Phases: write, rewrite. Keys: path, size, bs ...". Written into buf
//  (truncated to fit).
void workload_describe (const workload_desc_t *desc, char *buf, size_t buflen);

#endif
