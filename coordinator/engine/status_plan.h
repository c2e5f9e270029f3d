/*  coordinator/engine/status_plan.h: what a running phase is to do, and
    how far it got: the numbers of the live status line (status.h prints
    them), and of whatever else watches a run.

    The plan is made once per phase from its jobs' specs. Per job: its
    streams in the phase result, and what bounds it, whichever comes
    first: its runtime, and its volume (requests x bs when it counts
    requests, else size x streams for a phase counted in bytes; none for
    a job whose size is not known ahead, such as a whole-file copy); its
    ramp; whether its rate means bytes, requests, or both.

    The tally is made at each status tick in one pass over the streams
    and one over the hosts:
    - rate: the last interval's, not the average since the start: each
      running stream's bytes between its last two samples over their
      step, summed; requests/s are those bytes over the job's bs (every
      request of a job moves bs bytes), for the jobs that count requests.
      What a stream does in its ramp counts nowhere, so an interval
      starts at the ramp's end at the earliest; before a stream has a
      sample past it, it has no rate (unknown, not 0).
    - percent and ETA per job: the larger share of its bounds done (time
      elapsed of runtime, bytes of its volume), and the sooner end
      (runtime left, volume left at the last interval's rate); the
      phase's percent is its least advanced open job's, its ETA the
      latest. Unknown (NAN) while a job has no bound, or no rate yet.
    - ramp: the phase is in its ramp while an open job's ramp lasts.
    - hosts: running, slow (streams running, no sample for two
      intervals), lost (its session is gone), done; the worst named:
      the lost, then the slow, then the slowest by the last interval.
*/
#ifndef IOFLEET_STATUS_PLAN_H
#define IOFLEET_STATUS_PLAN_H

#include "../results/results.h"
#include "../../proto/jobspec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//  A fleet's line names this many of its worst hosts.
#define STATUS_WORST_NAMED  3

//  How a host stands.
typedef enum {
    STATUS_DONE,                    //  every stream finished or failed
    STATUS_RUNNING,                 //  streams running, samples coming
    STATUS_SLOW,                    //  streams running, no sample for two intervals
    STATUS_LOST                     //  its session is gone
} status_standing_t;

//  One host of the test as the status sees it.
typedef struct {
    const char *name;               //  its agent's name (borrowed)
    bool lost;                      //  its session is gone
} status_host_t;

//  What the last tally found: the figures a watcher reads.
typedef struct {
    int64_t elapsed_ns;             //  since the phase's T0 (0 before it)
    bool ramp;                      //  an open job is still in its ramp
    bool done;                      //  every stream finished or failed
    double pct;                     //  0 .. 100; NAN unknown
    double eta_s;                   //  seconds left; NAN unknown
    double mbps;                    //  last interval's fleet MB/s (10^6 B/s); NAN: no job
                                    //  counts bytes, or none has a rate yet (in its ramp,
                                    //  before its first sample)
    double rps;                     //  last interval's fleet requests/s; NAN: no job counts
                                    //  requests, or none has a rate yet
    size_t running, slow, lost, finished;   //  hosts by standing
    size_t hosts;                   //  hosts of the test
} status_figures_t;

//  One job of the phase.
typedef struct {
    size_t first_stream;            //  its stream 0 in the phase result
    size_t streams;                 //  its streams there
    int64_t runtime_ns;             //  0: not time-bound
    int64_t ramp_ns;
    double planned_bytes;           //  its volume, 0 unknown
    double bs_bytes;                //  bytes per request
    bool counts_bytes;              //  its rate in MB/s means something
    bool counts_requests;           //  so does its rate in requests/s
} status_job_t;

//  A host as the last tally found it.
typedef struct {
    double bytes_per_s;             //  its streams' last interval
    int64_t latest_ns;              //  its latest sample, on the phase's timeline
    int64_t step_ns;                //  the longest step between its streams' last samples
    bool running;                   //  a stream of it has not finished
    status_standing_t standing;
} status_host_tally_t;

//  The plan of a phase and its last tally.
typedef struct {
    const char *test;               //  the test's name (borrowed)
    const char *phase;              //  its phase's name, or NULL without phases (borrowed)
    uint32_t iteration;
    status_job_t *jobs;             //  reporting jobs only
    size_t job_count;
    int64_t interval_ns;            //  the shortest sample interval of its jobs
    bool counts_bytes;              //  a job's rate in MB/s means something
    bool counts_requests;           //  a job's rate in requests/s does
    status_host_tally_t *host_tally;    //  per host
    size_t host_count;
    size_t worst [STATUS_WORST_NAMED];  //  places in the hosts, worst first
    size_t worst_named;
    status_figures_t figures;
} status_plan_t;

//  Make the plan of phase `phase` of a test: specs [j] its jobs' specs
//  (NULL for none), first_stream [j] where job j's streams begin in the
//  phase result, host_count its hosts. Returns 0, or -1 if memory ran
//  out. status_plan_clear frees it (also after a failure).
int status_plan_init (status_plan_t *plan, const jobspec_t *const *specs,
                      const size_t *first_stream, size_t job_count, uint32_t phase,
                      size_t host_count);

//  Free what the plan holds; safe twice.
void status_plan_clear (status_plan_t *plan);

//  Tally result at elapsed_ns into the phase: hosts [h] the test's hosts
//  (host_count of them, as at init), stream_host [s] the place in hosts
//  of stream s's agent.
void status_plan_tally (status_plan_t *plan, const test_result_t *result,
                        const status_host_t *hosts, const size_t *stream_host,
                        int64_t elapsed_ns);

//  The figures of the last tally.
const status_figures_t *status_plan_figures (const status_plan_t *plan);

#endif
