/*  agent/testrun.h: the one test an agent holds: its jobs, their phases,
    the sample grid and the host's window.

    PREPARE adds a job; the job's threads prepare it, and the test answers
    READY (or ERROR) when they are done, so the agent's loop is never held
    up by a layout or a cache drop. START hands a phase its instant; the
    streams report the phase's figures as they finish it; once every
    stream of the phase has, the host's window closes and its figures go
    out after the settle period (HOST). Every interval meanwhile each
    running stream gets a sample. A test whose session ended is orphaned:
    its streams are told to stop, and what they report is only logged.

    Everything the test says goes through the send function it was given
    (the agent sends it to the session's coordinator).
*/
#ifndef IOFLEET_AGENT_TESTRUN_H
#define IOFLEET_AGENT_TESTRUN_H

#include "confine.h"
#include "kept.h"

#include "../proto/msg.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct _agent_testrun_t agent_testrun_t;

//  Where the test's messages go.
typedef void (agent_testrun_send_fn) (void *arg, msg_t *msg);

//  What a test needs of its agent.
typedef struct {
    const char *agent_name;         //  for log lines (borrowed for the test's life)
    confine_t *confine;             //  the roots (borrowed)
    uint64_t memory_bound_bytes;    //  the buffers one test may hold
    int notify_fd;                  //  the eventfd its streams write to
    kept_t *kept;                   //  where files may outlive the test (the session's), or NULL
    bool verbose;                   //  log every sample too
    agent_testrun_send_fn *send;       //  where its messages go
    void *send_arg;                 //  send's argument
} agent_testrun_config_t;

//  A test test_id named name, holding no job yet. NULL if out of memory.
agent_testrun_t *agent_testrun_new (const agent_testrun_config_t *config, uint32_t test_id,
                              const char *name);

//  Stop what runs, wait for it, remove what the test created (unless
//  keep), free it. Safe on NULL, NULLs the caller's pointer.
void agent_testrun_destroy (agent_testrun_t **self_p);

//  Its id, its name (as a log token), and whether START came for its
//  first phase.
uint32_t agent_testrun_id (agent_testrun_t *self);
const char *agent_testrun_name (agent_testrun_t *self);
bool agent_testrun_started (agent_testrun_t *self);

//  PREPARE: accept the job (its READY follows when it is prepared), or
//  answer ERROR at once. A job prepared again replaces the first.
void agent_testrun_prepare (agent_testrun_t *self, const msg_prepare_t *prepare);

//  DROP: write the page cache back and drop it, in a thread; DROPPED (or
//  ERROR) follows. Returns 0, or -1 with a reason in err (a job is not
//  ready yet, or the test started).
int agent_testrun_drop_caches (agent_testrun_t *self, char *err, size_t errlen);

//  START of a phase of phase_count: every job's streams get its instant.
//  Returns 0, or -1 with a reason in err (the phase is not the next one,
//  a job is not ready).
int agent_testrun_start (agent_testrun_t *self, uint32_t phase, uint32_t phase_count,
                      int64_t start_ns, char *err, size_t errlen);

//  ABORT: every stream stops, with reason in its result.
void agent_testrun_abort (agent_testrun_t *self, const char *reason);

//  STOP: the phase is over everywhere: a host without streams of its own
//  closes the phase's window; after the last phase, monitors take a last
//  sample and end.
void agent_testrun_stop_phase (agent_testrun_t *self, uint32_t phase);

//  The session ended: stop every stream; nothing is sent any more.
void agent_testrun_orphan (agent_testrun_t *self, const char *reason);

//  Streams moved, or a deadline came: answer the PREPAREs that are done,
//  send the results and samples that are due, close and report the
//  host's window.
void agent_testrun_poll (agent_testrun_t *self, int64_t now_ns);

//  When the test next wants agent_testrun_poll (CLOCK_MONOTONIC ns), or
//  INT64_MAX.
int64_t agent_testrun_next_ns (agent_testrun_t *self);

//  True once nothing runs and nothing is owed: the agent may forget it.
bool agent_testrun_over (agent_testrun_t *self);

#endif
