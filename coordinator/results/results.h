/*  coordinator/results/results.h: what a run measured, on the coordinator's
    timeline, as the run engine collects it and the reports read it.

    Every time here is nanoseconds on the coordinator's CLOCK_MONOTONIC,
    relative to the test's announced start instant (0 = the instant every
    agent was told to start at). Agents' timestamps are mapped with their
    clock offset (proto/clock.h) as they arrive.
*/
#ifndef IOFLEET_RESULTS_H
#define IOFLEET_RESULTS_H

#include "../../proto/msg.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//  One sample: bytes a stream had done at an instant.
typedef struct {
    int64_t t_ns;                           //  relative to the announced start
    uint64_t bytes;                         //  cumulative
} sample_point_t;

//  Sets of requests whose latency the reports give: each kind a RESULT
//  carries, and reads and writes together ("requests": what one request
//  of the test took, as sysbench and fio give it; fsyncs stay apart).
typedef enum {
    LATENCY_READ = MSG_LATENCY_READ,
    LATENCY_WRITE = MSG_LATENCY_WRITE,
    LATENCY_FSYNC = MSG_LATENCY_FSYNC,
    LATENCY_REQUESTS = MSG_LATENCY_KINDS,
    LATENCY_SETS
} latency_set_t;

//  A stream's histogram of one kind as results keep it: its wire form
//  (histogram_pack), a few hundred bytes where the histogram itself is
//  16 KiB. NULL and 0 when the stream did none of that kind.
typedef struct {
    char *packed;                           //  malloc'ed msgpack
    size_t size;                            //  its bytes
} latency_packed_t;

//  Latency of a set of requests from its merged histogram: count, min,
//  mean and max exact, percentiles within the histogram's 0.78%. A
//  count of 0 means nothing was measured and the rest is 0.
typedef struct {
    uint64_t count;
    int64_t min_ns;
    double mean_ns;
    int64_t p50_ns;
    int64_t p95_ns;
    int64_t p99_ns;
    int64_t p999_ns;                        //  99.9th
    int64_t max_ns;
} latency_summary_t;

//  One stream of one job, with its figures and its samples.
typedef struct {
    char agent [JOB_NAME_MAX + 1];          //  agent that ran it
    char job [JOB_NAME_MAX + 1];            //  [job NAME]
    int job_class;                          //  CLASS_DISK or CLASS_NETWORK, resolved
    uint32_t index;                         //  0-based stream index in the job
    char *path;                             //  file it wrote (stream_result_set_path), NULL if
                                            //  none: a fleet keeps thousands of streams
    bool finished;                          //  a RESULT arrived
    bool lost;                              //  its agent was lost: no RESULT will come
    uint64_t bytes;                         //  bytes of the timed part
    uint64_t reads;                         //  read requests (bonnie's seeks)
    uint64_t writes;                        //  write requests
    uint64_t fsyncs;                        //  fsync and fdatasync calls
    bool reads_data;                        //  its bytes are read, not written (the phase's)
    bool cold;                              //  drop_caches: the page cache was dropped before
    bool bytes_sampled;                     //  no RESULT: bytes are its last sample's,
    int64_t sampled_ns;                     //  taken then; a lower bound (aggregate_test)
    int64_t start_ns;                       //  instant it really began
    int64_t last_issue_ns;                  //  when its last read or write was issued
    int64_t last_write_ns;                  //  end of its last write (that request)
    int64_t end_ns;                         //  after fsync/close: the rate's end
    uint64_t busy_ns;                       //  time of its reads and writes, summed
    uint32_t depth_max;                     //  most requests in flight at once (its engine's),
                                            //  0: its agent reports none
    uint32_t inflight_at_stop;              //  issued before its stop instant, ended after
    int64_t usr_ns;                         //  thread user CPU
    int64_t sys_ns;                         //  thread system CPU
    int64_t clock_uncertainty_ns;           //  its agent's offset is good to ± this
    bool direct;                            //  O_DIRECT, from the job
    uint64_t bs_bytes;                      //  bytes per I/O call, from the job
    int64_t stop_ns;                        //  time-bound: the instant it was to stop (its
                                            //  job's runtime), 0 otherwise
    int fsync_mode;                         //  fsync_mode_t, from the job
    bool ops_writes;                        //  its writes count as operations (rate_requests)
    bool paced;                             //  its job's rate or rate_iops: the time between
                                            //  its requests is the pace's (the run's only)
    uint64_t set_bytes;                     //  the job's file set (randrw), on its first
                                            //  stream only, so a host counts it once; else 0
    char *error;                            //  what failed (stream_result_set_error), NULL if none
    latency_packed_t latency [MSG_LATENCY_KINDS];   //  its requests' latency, by kind
    latency_summary_t latency_requests;     //  its reads and writes merged (latency_fill)
    sample_point_t *samples;                //  in time order
    size_t sample_count;
    size_t sample_capacity;
} stream_result_t;

//  sysbench's figures of a set of streams of requests (a test's, a
//  host's, one stream's): each count over the set's window, from the
//  first start to the last end of its streams (aggregate_requests.c).
//  Rates are NAN when the set has no window.
typedef struct {
    uint32_t streams;                       //  streams of requests in the set, 0: none
    double reads_per_s;
    double writes_per_s;
    double fsyncs_per_s;
    double read_mbps;                       //  reads x bs, MB/s
    double written_mbps;                    //  writes x bs
    double window_s;                        //  first start to last end
    double ops_per_min;                     //  reads and writes per minute (AIM7's jobs/min)
} requests_summary_t;

//  Figures of one class (disk or network) within a test.
typedef struct {
    uint32_t streams;                       //  streams of this class
    uint64_t bytes;
    double combined_mbps;                   //  bytes / (last end - first start) of the class
    char notation [128];                    //  per-stream rates as engineers write them: "2x44.5"
    latency_summary_t latency;              //  its requests (reads and writes), merged
} class_summary_t;

//  How the streams of a time-bound test stopped, each measured against
//  its own stop instant (aggregate_skews.c), over the streams that ran
//  to it: finished without an error, a request issued. A stream's
//  lateness (its last request's end past the instant) is that request's
//  time in flight at the instant, since an agent issues none from the
//  instant on (the clocks' uncertainty aside); its fsync and close come
//  after. The end skew is at most in_flight_ns + tail_ns, and the
//  clocks' uncertainty.
typedef struct {
    uint32_t streams;                       //  streams these figures are over, 0 for none
    int64_t instant_ns;                     //  the stop instant (the latest, should jobs differ)
    int64_t late_ns;                        //  latest end of a last request past its instant
    int64_t issue_late_ns;                  //  latest issue of a last request past it (< 0:
                                            //  every one was issued before)
    int64_t in_flight_ns;                   //  longest last request in flight at the instant
                                            //  (ended at or after it), issue to end; 0 if none
    int64_t tail_ns;                        //  longest fsync and close after the last request
} stop_summary_t;

//  Figures of a whole test. Rates in MB/s (10^6 bytes per second).
typedef struct {
    uint32_t streams;
    uint32_t hosts;                         //  distinct agents with streams
    uint32_t failed_streams;                //  an error, or no RESULT: the figures are partial
    uint32_t lost_streams;                  //  their agent was lost
    uint64_t bytes;
    int64_t first_start_ns;
    int64_t last_end_ns;
    double combined_mbps;                   //  all bytes / (last end - first start)
    double combined_ops_per_s;              //  a test of operations (rate_ops): all reads /
                                            //  (last end - first start); NAN otherwise
    double all_running_mbps;                //  bytes while every stream ran / that window; NAN if none
    int64_t all_running_ns;                 //  length of that window, 0 if none
    int64_t host_skew_ns;                   //  latest - earliest first-stream start across hosts
    int64_t stream_skew_ns;                 //  latest - earliest start of any stream
    int64_t clock_uncertainty_ns;           //  bound on the error of the skews
    class_summary_t disk;
    class_summary_t network;
    uint32_t hosts_measured;                //  hosts whose HOST figures arrived
    double usr_pct;                         //  CPU time of those hosts, all added up: a
    double sys_pct;                         //  ratio of sums, not an average of
    double iowait_pct;                      //  per-host percentages; NAN if none
    double latency_p99_ns;                  //  99th percentile of request latency, all
                                            //  hosts merged; NAN when not measured
    latency_summary_t latency [LATENCY_SETS];   //  every stream of every host, merged
    int64_t end_skew_ns;                    //  latest - earliest end of any stream: how far
                                            //  apart a time-bound test's streams stopped
    stop_summary_t stop;                    //  and how late each stopped, and why
    double depth_mean;                      //  mean requests in flight, the mean over the
                                            //  streams with an engine; NAN for none
    uint32_t depth_max;                     //  most in flight in any stream, 0 for none
    uint64_t inflight_at_stop;              //  requests in flight at the stop instant, summed
    requests_summary_t requests;            //  its streams of requests (randrw), if any
} test_summary_t;

//  One agent's host over one test: its HOST message and what it means.
typedef struct {
    char agent [JOB_NAME_MAX + 1];          //  agent name
    char boot_id [MSG_BOOT_ID_MAX + 1];     //  its machine's (agent_info_t), "" if unknown
    bool received;                          //  the HOST message arrived
    bool excused;                           //  lost or absent: owes none
    msg_host_t counters;                    //  raw, as the agent sent them
    int64_t window_start_ns;                //  counters' window on the test's timeline
    int64_t window_end_ns;
    int64_t settle_end_ns;
    double usr_pct;                         //  share of all the host's CPU time in the window
    double sys_pct;
    double iowait_pct;
    double idle_pct;
    uint64_t stream_bytes;                  //  bytes its streams moved
    latency_summary_t latency;              //  its streams' requests (reads and writes), merged
    //  Its streams together (aggregate_host_figures), over the span from
    //  the first start to the last end of those that ran:
    uint32_t streams;                       //  its streams in the test
    uint32_t failed_streams;                //  of which failed or never reported
    double rate_mbps;                       //  their bytes over the span; NAN without one
    double ops_per_s;                       //  their operations (aggregate_stream_ops) over it
    double slowest_stream_mbps;             //  its slowest stream's rate, NAN if none has one
    double streams_cpu_pct;                 //  their threads' CPU time over the span
    requests_summary_t requests;            //  its streams of requests, if any
} host_result_t;

//  A monitor job's series: the host's counters every interval, and what
//  they add up to over the series.
typedef struct {
    char agent [JOB_NAME_MAX + 1];          //  the monitored host's agent
    char job [JOB_NAME_MAX + 1];            //  the monitor job
    msg_monitor_t *points;                  //  t_ns on the test's timeline, in time order
    size_t point_count;
    size_t point_capacity;
    double usr_pct;                         //  over the first to the last point; NAN if < 2
    double sys_pct;
    double iowait_pct;
    double disk_read_mbps;                  //  whole disks, MB/s
    double disk_write_mbps;
    double nfsd_read_mbps;                  //  bytes the NFS server read and wrote for clients
    double nfsd_write_mbps;
    int64_t max_gap_ns;                     //  longest time between two points
} monitor_result_t;

//  One interval of a test's latency timeline: the requests (reads and
//  writes) of every host that ended in it, merged exactly. Interval k
//  spans [k * interval_ns, (k + 1) * interval_ns) on the test's timeline.
typedef struct {
    uint32_t index;                         //  k
    latency_summary_t latency;              //  its figures
    latency_packed_t histogram;             //  the merged histogram itself, packed
} timeline_interval_t;

//  One host's figures over one interval.
typedef struct {
    uint32_t index;                         //  k
    uint64_t count;                         //  its requests in the interval
    int64_t p50_ns;
    int64_t p99_ns;
    int64_t p999_ns;
} timeline_point_t;

//  One host's latency over time.
typedef struct {
    char agent [JOB_NAME_MAX + 1];
    timeline_point_t *points;               //  by index, intervals without requests left out
    size_t point_count;
} timeline_host_t;

//  How many hosts a results file keeps the timeline of: those first in
//  the tail attribution (latency_tail_t).
#define TIMELINE_HOSTS_KEPT 4

//  The latency of a test over time, from the agents' INTERVAL messages.
//  The run keeps every host's points; a results file, those of the hosts
//  first in the tail attribution.
typedef struct {
    int64_t interval_ns;                    //  length of an interval, 0: no timeline
    timeline_interval_t *intervals;         //  the fleet's, by index, empty ones left out
    size_t interval_count;
    timeline_host_t *hosts;                 //  in the test's order of hosts
    size_t host_count;
} latency_timeline_t;

//  One host's part in the tail of a test: the requests (reads and
//  writes) slower than the fleet's p99 and p99.9 that it sent.
typedef struct {
    char agent [JOB_NAME_MAX + 1];
    uint64_t requests;                      //  all its requests
    double requests_share;                  //  of the fleet's requests, 0 .. 1
    uint64_t over_p99;                      //  its requests slower than the fleet's p99
    double p99_share;                       //  of the fleet's requests slower than it
    uint64_t over_p999;                     //  and than its p99.9
    double p999_share;
    bool cause;                             //  its share of a tail is far above its
                                            //  share of the requests (latency_tail.h)
} tail_host_t;

//  Which hosts made a test's tail, ranked: most of the p99 tail first,
//  then of the p99.9 tail. Derived from the streams' histograms.
typedef struct {
    int64_t p99_ns;                         //  the fleet's p99 of requests, 0: none measured
    int64_t p999_ns;                        //  and p99.9
    uint64_t requests;                      //  the fleet's requests
    uint64_t over_p99;                      //  of them slower than p99
    uint64_t over_p999;                     //  slower than p99.9
    tail_host_t *hosts;                     //  every host with requests, ranked
    size_t host_count;                      //  (a results file keeps the first few:
    uint64_t hosts_ranked;                  //  of how many, which this says)
} latency_tail_t;

//  A warning about a test, for the reader of the report.
typedef struct {
    char kind [16];                         //  dirty, writeback, cache, skew
    char agent [JOB_NAME_MAX + 1];          //  the host concerned, "" for the whole test
    char text [MSG_TEXT_MAX + 1];           //  what was seen, with the figure
} warning_t;

#define TEST_WARNINGS_MAX 32                //  more than this on one test is noise

//  Room for a report row's name: TEST/PHASE.
#define TEST_ROW_NAME_MAX (2 * JOB_NAME_MAX + 1)

//  One run of one test, or of one phase of a test with phases: each is a
//  row of its own in every report, named TEST/PHASE.
typedef struct {
    char name [TEST_ROW_NAME_MAX + 1];      //  the row: the test's name, or TEST/PHASE
    char test [JOB_NAME_MAX + 1];           //  the test's name
    char phase [JOB_NAME_MAX + 1];          //  the phase's name, "" for a test without phases
    uint32_t phase_index;                   //  0-based
    bool rate_ops;                          //  its rate counts operations (seeks/s), not MB/s
    bool rate_requests;                     //  its operations are reads and writes (randrw),
                                            //  not reads alone (seeks)
    char workload [16];                     //  the workload of its reporting jobs, "" if none
    char bound [16];                        //  what ends them: "size", "requests" or "time"
    uint64_t laid_out_bytes;                //  written at prepare to lay files out (untimed)
    int64_t laid_out_ns;                    //  the longest time an agent took for it
    uint32_t iteration;                     //  1-based
    int64_t announced_wall_ns;              //  announced start, CLOCK_REALTIME (a label)
    stream_result_t *streams;
    size_t stream_count;
    host_result_t *hosts;                   //  one per agent of the test
    size_t host_count;
    monitor_result_t *monitors;             //  one per monitor job of the test
    size_t monitor_count;
    test_summary_t summary;                 //  filled by aggregate_test
    warning_t warnings [TEST_WARNINGS_MAX]; //  filled by aggregate_test
    size_t warning_count;
    latency_timeline_t timeline;            //  its requests' latency over time
    latency_tail_t tail;                    //  the hosts that made its tail: aggregate_test
} test_result_t;

//  One agent as the run met it.
typedef struct {
    char name [JOB_NAME_MAX + 1];
    char endpoint [256];
    char hostname [MSG_HOST_MAX + 1];
    char kernel [MSG_HOST_MAX + 1];
    char boot_id [MSG_BOOT_ID_MAX + 1];     //  agents that share one are on one machine
    uint32_t cpus;
    uint64_t mem_bytes;
    char version [32];                      //  the agent's program version
    bool insecure;                          //  no CURVE on its socket
    int64_t clock_offset_ns;                //  last measured: agent - coordinator
    int64_t clock_rtt_ns;                   //  best round trip of that measurement
    uint64_t malformed_frames;              //  frames from it that did not decode, dropped
} agent_info_t;

#define RUN_LABEL_MAX 63                    //  bytes of a run's label

//  A whole run.
typedef struct {
    char scenario_path [JOB_PATH_MAX + 1];
    char label [RUN_LABEL_MAX + 1];         //  what the engineer called the run, or ""
    int64_t started_wall_ns;                //  CLOCK_REALTIME at start
    int units;                              //  units_t the reports show rates in
    bool cut_short;                         //  it stopped before its last test (interrupted,
                                            //  an agent missing, its console killed): true
                                            //  from its start until its last test is over
    agent_info_t *agents;
    size_t agent_count;
    test_result_t *tests;                   //  in the order they ran
    size_t test_count;
    size_t test_capacity;
} run_result_t;

//  Append a sample to a stream, growing its array. Returns 0 or -1 (memory).
int stream_result_add_sample (stream_result_t *stream, int64_t t_ns, uint64_t bytes);

//  Set a stream's path, or its error, to a copy of text (NULL or "" for
//  none). Returns 0, or -1 (memory): the path is then NULL, and the error
//  a fixed text, so that a failed stream never passes for a good one.
int stream_result_set_path (stream_result_t *stream, const char *text);
int stream_result_set_error (stream_result_t *stream, const char *text);

//  Append a point to a monitor's series. Returns 0 or -1 (memory).
int monitor_result_add_point (monitor_result_t *monitor, const msg_monitor_t *point);

//  Free everything a run result holds (its arrays, not the struct itself).
void run_result_clear (run_result_t *run);

#endif
