/*  agent/preflight.h: the agent's answer to PREFLIGHT, the console's
    question before a run: would PREPARE accept this job? The answer is
    admit_job's (admit.h), the very admission PREPARE makes, only with
    nothing created: directories prepare would make are only named.

    The jobs of one test come one after another and are checked together,
    as PREPARE checks them (the memory they hold, the files they share),
    in a ledger of their own that the next test (another test_id, or the
    job marked first) starts afresh.
*/
#ifndef IOFLEET_PREFLIGHT_AGENT_H
#define IOFLEET_PREFLIGHT_AGENT_H

#include "confine.h"

#include "../proto/msg.h"

#include <stdint.h>

typedef struct _preflight_t preflight_t;

//  A preflight for an agent with these roots and this memory bound per
//  test. NULL if out of memory.
preflight_t *preflight_new (confine_t *confine, uint64_t memory_bound_bytes);

//  Destroy it; safe on NULL, NULLs the caller's pointer.
void preflight_destroy (preflight_t **self_p);

//  Answer one PREFLIGHT into reply (test_id and job_id copied, problem
//  "" if the job would be accepted).
void preflight_check (preflight_t *self, const msg_preflight_t *ask,
                      msg_preflight_reply_t *reply);

#endif
