/*  coordinator/scenario/scenario.h: a scenario file, parsed and checked.

    Sections: [global] (run options, and defaults for every job option
    flagged OPT_GLOBAL), [agent NAME] (endpoint = ...), [group NAME]
    (agents = c[01-64], endpoint = a pattern; coordinator/scenario/group.h), [job
    NAME] (job options from proto/jobspec.c's table). Every job belongs to
    a test (test = NAME, default: the job's own name); tests run in the
    order their first job appears. A job on a group is one job per member,
    each named JOB.MEMBER, all in the job's test. Every error names
    file:line: key: reason and means nothing is started.
*/
#ifndef IOFLEET_SCENARIO_H
#define IOFLEET_SCENARIO_H

#include "../../proto/jobspec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SCENARIO_ENDPOINT_MAX 255

//  A scenario is a few pages of text: a file larger than this is not one
//  (a device, a log, a core file) and is refused before it fills memory;
//  so is a line longer than SCENARIO_LINE_MAX, which no key, header or
//  comment of a scenario needs.
#define SCENARIO_FILE_MAX (1024 * 1024)
#define SCENARIO_LINE_MAX 4096

//  The most errors of one file a message lists, in line order; past it
//  they are counted: "FILE: ... and N more errors".
#define SCENARIO_ERRORS_MAX 25

//  Run options: [global] keys that are not job options. Described by
//  scenario_run_options[] (an opt_def_t table with offsets into this
//  struct), so parsing and --help come from one place.
typedef struct {
    uint64_t iterations;            //  runs of every test
    int64_t lead_ns;                //  least time between START and the start instant
    int64_t lease_ns;               //  silence after which either side gives the other up
    int64_t connect_timeout_ns;     //  how long hello may take
    uint64_t clock_pings;           //  pings per clock measurement; the best is kept
    int64_t clock_refresh_ns;       //  offsets older than this are measured again before a phase
    char keys_dir [JOB_PATH_MAX + 1];   //  keys = DIR: CURVE keys (proto/keys.h), "" for none
    int on_lost;                    //  scenario_on_lost_t: what a lost agent does to the run
} scenario_options_t;

//  on_lost = continue | abort.
typedef enum {
    ON_LOST_CONTINUE = 0,           //  finish the test with the others, go on, try the agent again
    ON_LOST_ABORT = 1               //  stop the test everywhere and end the run
} scenario_on_lost_t;

extern const opt_def_t scenario_run_options [];

//  The row of a run option by name; asserts that it exists (the names are
//  the program's own, never the user's).
const opt_def_t *scenario_run_option (const char *name);

typedef struct {
    char name [JOB_NAME_MAX + 1];               //  [agent NAME], or a group's member
    char endpoint [SCENARIO_ENDPOINT_MAX + 1];  //  tcp://host:port
    int line;                                   //  line of the section (of a group's agents
                                                //  key), 0 if from --agent or --hosts
    size_t group;                               //  1 + the group that named it first, 0 none
} scenario_agent_t;

//  The keys of an [agent NAME] section (offsets into scenario_agent_t).
extern const opt_def_t scenario_agent_options [];

//  A [group NAME] section: agents named by list and ranges, their
//  endpoints from a pattern (coordinator/scenario/group.h has the syntax).
typedef struct {
    char name [JOB_NAME_MAX + 1];               //  [group NAME]
    char agents [SCENARIO_LINE_MAX + 1];        //  agents = as written
    char endpoint [SCENARIO_ENDPOINT_MAX + 1];  //  endpoint = pattern, "" for none
    int line;                                   //  line of the header
    int agents_line;                            //  line of agents =, 0 if not given
    int endpoint_line;                          //  line of endpoint =, 0 if not given
    size_t *members;                            //  indexes into scenario_t.agents, in order
    size_t member_count;
} scenario_group_t;

//  The keys of a [group NAME] section (offsets into scenario_group_t).
extern const opt_def_t scenario_group_options [];

//  A [job NAME] section as the file gives it, with the [global] and the
//  workload's defaults: the template of one job, or of one job per
//  member of a group. Its paths still hold {agent}; what each of its
//  jobs has of its own is in scenario_job_t.
typedef struct {
    jobspec_t spec;                 //  every option, defaults applied
    int line;                       //  line of the [job NAME] header
    int *option_lines;              //  per row of jobspec_options: the line its value
                                    //  came from (the job's key or its [global]
                                    //  default), 0 if neither
    uint64_t own_options;           //  bit per row of jobspec_options: set in the
                                    //  [job] section itself, not from [global]
} scenario_template_t;

//  One job to run: a [job NAME] on an agent, or a member's part of a job
//  on a group. It holds only what is its own, so that a group of
//  thousands costs little more than its names; every other option is its
//  template's, shared. scenario_job_spec puts the whole spec together.
typedef struct {
    const scenario_template_t *template;    //  its [job NAME] section
    char name [JOB_NAME_MAX + 1];           //  the section's name, or JOB.MEMBER
    char agent [JOB_NAME_MAX + 1];          //  the agent that runs it
    char *path;                             //  path with {agent} replaced, NULL
                                            //  if the template's has none
    char *src;                              //  src the same way
    char *dst;                              //  dst the same way
} scenario_job_t;

typedef struct {
    char name [JOB_NAME_MAX + 1];   //  test = NAME
    size_t *jobs;                   //  indexes into scenario_t.jobs, file order
    size_t job_count;
} scenario_test_t;

typedef struct {
    char path [JOB_PATH_MAX + 1];   //  file it was read from
    char *text;                     //  the file's bytes as read, NUL-terminated
    size_t text_length;             //  bytes in text, at most SCENARIO_FILE_MAX
    scenario_options_t options;
    scenario_agent_t *agents;       //  in file order, group members, then --hosts and
    size_t agent_count;             //  --agent additions
    size_t agent_capacity;          //  slots allocated
    struct _zhashx_t *agent_index;  //  name -> 1 + index in agents
    scenario_group_t *groups;       //  in file order
    size_t group_count;
    scenario_template_t *templates; //  the [job] sections, in file order; fixed once
                                    //  loaded (jobs point into it)
    size_t template_count;
    scenario_job_t *jobs;           //  in file order, a job on a group one per member
    size_t job_count;
    scenario_test_t *tests;         //  in order of first appearance
    size_t test_count;
} scenario_t;

//  Read and parse a scenario file: a regular file or a pipe, at most
//  SCENARIO_FILE_MAX bytes. Returns a new scenario, or NULL with
//  "file:line: key: reason" in err (or "file: reason" for a file that
//  cannot be read, is too large or is no text): every error of the file,
//  one a line in line order, up to SCENARIO_ERRORS_MAX. Does not check that
//  agents have endpoints: call scenario_check after any --agent overrides.
scenario_t *scenario_load (const char *path, char *err, size_t errlen);

//  scenario_load of text (taken: the scenario frees it), a scenario made
//  from the file at path (a fio job file); messages name path, with the
//  lines of text.
scenario_t *scenario_load_text (const char *path, char *text, char *err, size_t errlen);

//  Apply one --agent NAME=ENDPOINT: replaces the endpoint of agent NAME,
//  or adds the agent. Returns 0, or -1 with a reason in err.
int scenario_set_agent (scenario_t *self, const char *assignment, char *err, size_t errlen);

//  Apply --hosts FILE: one NAME ENDPOINT per line, # comments; each sets
//  the endpoint of agent NAME or adds the agent (coordinator/scenario/group.c).
//  Returns 0, or -1 with "FILE:line: NAME: reason" in err.
int scenario_load_hosts (scenario_t *self, const char *path, char *err, size_t errlen);

//  Add agent name (line: where it was named, 0 for the command line), or
//  find it if it is there. Returns its index, or -1 if memory ran out.
ssize_t scenario_agent_add (scenario_t *self, const char *name, int line);

//  Final checks: at least one job; every job's agent exists and has an
//  endpoint; the workload's required options are set (write: path, size).
//  Returns 0, or -1 with "file:line: key: reason" in err.
int scenario_check (const scenario_t *self, char *err, size_t errlen);

//  The line a job's option `key` came from: its own key, its [global]
//  default, else the [job NAME] header, so that every message about a
//  job's option points where the user would change it.
int scenario_key_line (const scenario_template_t *template, const char *key);

//  Write a job's whole spec into spec, as its agent is to get it: the
//  template's options with the job's own name, agent and paths. Where
//  only the shared options are read, job->template->spec does without
//  the copy.
void scenario_job_spec (const scenario_job_t *job, jobspec_t *spec);

//  Find an agent by name, or NULL.
const scenario_agent_t *scenario_agent (const scenario_t *self, const char *name);

//  Find a group by name, or NULL.
const scenario_group_t *scenario_group (const scenario_t *self, const char *name);

//  Destroy a scenario; safe on NULL, nulls the caller's pointer.
void scenario_destroy (scenario_t **self_p);

#endif
