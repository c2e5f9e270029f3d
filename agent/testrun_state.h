/*  agent/testrun_state.h: the state of the test an agent holds, shared by
    its life, phases and reports (testrun.c) and its preparation (PREPARE,
    DROP: testrun_prepare.c). Not for other modules: they see testrun.h.
*/
#ifndef IOFLEET_AGENT_TESTRUN_STATE_H
#define IOFLEET_AGENT_TESTRUN_STATE_H

#include "testrun.h"
#include "hostwatch.h"
#include "interval_latency.h"
#include "job.h"
#include "ledger.h"

#include "../proto/msg.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

//  The page cache's drop (DROP), in a thread of its own: it writes every
//  dirty page back first, which can take long.
typedef struct {
    pthread_t thread;               //  the thread doing it
    bool launched;                  //  the thread was created
    bool answered;                  //  DROPPED or ERROR went out
    atomic_bool done;               //  the thread is done: rc and reason are final
    int rc;                         //  0, or -1 if the drop failed
    char reason [MSG_TEXT_MAX + 1]; //  why it failed
    int notify_fd;                  //  the eventfd to write when done
} test_drop_t;

//  A job of the test, its answer to PREPARE and its sample grid.
typedef struct {
    job_t *job;                     //  the accepted job
    bool answered;                  //  READY or ERROR went out for it
    bool ready;                     //  and it was READY
    int64_t next_sample_ns;         //  INT64_MAX when no sample is due
} test_slot_t;

struct _agent_testrun_t {
    agent_testrun_config_t config;     //  what it needs of its agent
    uint32_t test_id;               //  PREPARE's test_id
    char name [JOB_NAME_MAX + 1];   //  its name, as a log token
    ledger_t *ledger;               //  what its jobs claimed (memory, files, dirs)
    hostwatch_t *hostwatch;         //  the host's window over each phase
    test_slot_t *slots;                //  its jobs
    size_t slot_count;              //  how many
    size_t slot_capacity;           //  room in slots
    size_t stream_count;            //  streams of all its jobs
    uint32_t phase_count;           //  phases the test has (START says), 0 before
    uint32_t phases_started;        //  phases whose START came
    int64_t phase_start_ns;         //  the instant of the current phase
    size_t phase_results;           //  results of the current phase taken
    bool phase_over;                //  STOP came for the current phase
    bool host_begun;                //  the current phase's window opened
    bool host_ended;                //  and closed; HOST goes out when settled
    bool stopped;                   //  ABORT came (or the session ended)
    bool orphaned;                  //  the session ended: nothing goes out
    test_drop_t drop;                  //  the cache drop, if DROP came
    interval_latency_t *intervals;  //  its streams' latency since the last INTERVAL
    int64_t interval_ns;            //  length of an interval: the shortest of its
                                    //  jobs' that report figures, 0 for none
    int64_t next_interval_ns;       //  end of the current interval, INT64_MAX when
                                    //  none is due (before START, after a phase)
    msg_t out;                      //  the message being sent
    msg_t interval_out;             //  an INTERVAL being sent, which may go out
                                    //  while out holds a RESULT
};

//  Log a line of this test's agent.
void testrun_log (agent_testrun_t *self, const char *format, ...)
    __attribute__ ((format (printf, 2, 3)));

//  Start building a message of type. Returns it.
msg_t *testrun_message (agent_testrun_t *self, msg_type_t type);

//  Send out, unless the test is orphaned.
void testrun_send (agent_testrun_t *self, msg_t *out);

//  Send ERROR {test_id, job_id, code, text}.
void testrun_send_error (agent_testrun_t *self, int32_t job_id, const char *code,
                         const char *format, ...)
    __attribute__ ((format (printf, 4, 5)));

//  Answer every PREPARE whose job is done preparing (testrun_prepare.c).
void testrun_answer_prepares (agent_testrun_t *self);

//  The drop is over: say so (testrun_prepare.c).
void testrun_answer_drop (agent_testrun_t *self);

#endif
