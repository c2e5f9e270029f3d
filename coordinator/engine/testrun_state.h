/*  coordinator/engine/testrun_state.h: the state of one test run, shared by
    the stages (testrun.c), the result of a phase (testrun_result.c) and
    what agents say (testrun_msg.c). Not for other modules: they see
    testrun.h.
*/
#ifndef IOFLEET_TESTRUN_STATE_H
#define IOFLEET_TESTRUN_STATE_H

#include "status.h"
#include "testrun.h"
#include "../../proto/workload.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

//  Where the test stands.
typedef enum {
    STAGE_PREPARING,                //  PREPAREs sent, waiting for READY
    STAGE_DROPPING,                 //  DROPs sent, waiting for DROPPED
    STAGE_RUNNING,                  //  a phase's START sent, collecting
    STAGE_ABORTING                  //  ABORT sent, collecting what is left
} stage_t;

typedef struct {
    testrun_config_t config;        //  what to run and where results go
    const scenario_test_t *test;    //  its jobs
    stage_t stage;                  //  where it stands
    const workload_desc_t *desc;    //  the workload of its reporting jobs (phases), or NULL
    uint32_t phase_count;           //  its phases, at least 1
    uint32_t phase;                 //  the phase under way
    size_t result_index;            //  its result in config.run->tests
    //  Per job:
    const scenario_job_t **job;     //  the scenario's job: its name, agent and paths
    const jobspec_t **job_options;  //  its template's options, which a group's members
                                    //  share (their names, agents and paths are in job)
    session_t **job_session;        //  the agent running it
    size_t *next_job;               //  the next job of the same agent, or SIZE_MAX
    size_t *job_monitor;            //  its series in the phase result's monitors, or SIZE_MAX
    size_t *first_stream;           //  index of its stream 0 in a phase result's streams
    int *job_class;                 //  its class, as its READY corrected it
    bool *job_answered;             //  READY or ERROR received, or agent lost
    size_t jobs_answered;           //  how many of those
    size_t jobs_sent;               //  PREPAREs sent so far (fills go first)
    bool prepare_failed;            //  an agent could not prepare a job, or drop its cache
    uint64_t laid_out_bytes;        //  what the jobs' READYs say they laid out
    int64_t laid_out_ns;            //  the longest time it took an agent
    //  Per session of the test, each once:
    session_t **sessions;           //  the test's agents
    size_t session_count;           //  how many
    size_t *stream_host;            //  per stream of a phase result: its agent's place in sessions
    size_t stream_total;            //  streams of a phase result
    status_host_t *status_hosts;    //  per session: how the status line sees it
    status_plan_t status;           //  the phase's plan and last tally
    int64_t next_line_ns;           //  when the next plain status line is due
    int64_t away_ns;                //  fleet_away_ns when progress_ns was last moved on
    //  Per fleet session (session_index):
    size_t *first_job;              //  its first job in the test, or SIZE_MAX
    size_t *place;                  //  its place in sessions (when first_job is set)
    size_t *host_index;             //  its entry in the phase result's hosts, or SIZE_MAX
    uint32_t *generation;           //  the generation the test began with, 0 if not in it
    int64_t *progress_ns;           //  when it last sent test figures
    bool *excused;                  //  lost or absent: owes no HOST
    bool *drop_pending;             //  DROP sent, no answer yet
    size_t drops_pending;           //  how many of those
    //  The phase under way:
    size_t streams_reported;        //  RESULT received or given up
    size_t hosts_reported;          //  HOST received
    size_t hosts_excused;           //  hosts that owe nothing
    int64_t start_ns;               //  T0, coordinator clock
    int64_t hosts_deadline_ns;      //  when waiting for HOST stops, 0 before
    bool stop_sent;                 //  STOP went out
    int64_t settle_ns;              //  longest settle period of the test's jobs
    uint64_t dropped;               //  messages that did not fit the test
    bool lost;                      //  an agent was lost or absent
    bool failed;                    //  a stream failed or an agent was lost
    struct _latency_timeline_builder_t *timeline;   //  the phase's latency over time, so far
} testrun_t;

//  The result of the phase under way.
test_result_t *testrun_result (testrun_t *tr);

//  True if session is one the test began with, and ready.
bool testrun_current (testrun_t *tr, session_t *session);

//  The host entry of a session in the phase's result, or NULL.
host_result_t *testrun_host (testrun_t *tr, session_t *session);

//  Streams of a job that report figures of the test.
uint64_t testrun_timed_streams (const jobspec_t *spec);

//  Mark every unfinished stream of a job (of all jobs of the session,
//  job_id < 0) as failed with reason.
void testrun_fail_streams (testrun_t *tr, session_t *session, int32_t job_id, const char *reason);

//  A host lost or absent owes the phase no figures.
void testrun_excuse_host (testrun_t *tr, session_t *session);

//  A job has its answer to PREPARE, a session to DROP (or never will).
void testrun_job_answered (testrun_t *tr, size_t job_id);
void testrun_drop_answered (testrun_t *tr, session_t *session);

//  A new result for phase, appended to the run. Returns 0, or -1 if
//  memory ran out.
int testrun_new_phase_result (testrun_t *tr, uint32_t phase);

//  Once every stream of the phase has reported: STOP to every agent.
void testrun_stop_phase (testrun_t *tr);

//  Everything an agent says during the test (a fleet_handler_fn).
int testrun_on_message (session_t *session, const msg_t *msg, int64_t received_ns, void *arg);

//  The fleet lost a session (a fleet_lost_fn).
void testrun_on_lost (session_t *session, const char *reason, void *arg);

//  Lose an agent that answers keepalives while its streams send nothing.
void testrun_watch_progress (testrun_t *tr, int64_t now_ns);

#endif
