/*  agent/preflight.c: PREFLIGHT's answer; see preflight.h. */
#include "preflight.h"
#include "admit.h"
#include "ledger.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct _preflight_t {
    confine_t *confine;             //  the agent's roots (borrowed)
    uint64_t memory_bound_bytes;    //  what one test's buffers may hold
    ledger_t *ledger;               //  the claims of the test being asked about
    uint32_t test_id;               //  which one
    bool asked;                     //  a test was asked about
};

//  A preflight with an empty ledger.
preflight_t *
preflight_new (confine_t *confine, uint64_t memory_bound_bytes)
{
    preflight_t *self = calloc (1, sizeof (preflight_t));
    if (!self)
        return NULL;
    self->confine = confine;
    self->memory_bound_bytes = memory_bound_bytes;
    return self;
}

//  Free it and its ledger (which made nothing that would need removing).
void
preflight_destroy (preflight_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    preflight_t *self = *self_p;
    if (self->ledger)
        ledger_clear (self->ledger);
    ledger_destroy (&self->ledger);
    free (self);
    *self_p = NULL;
}

//  Check one job as PREPARE would, creating nothing.
void
preflight_check (preflight_t *self, const msg_preflight_t *ask, msg_preflight_reply_t *reply)
{
    memset (reply, 0, sizeof (*reply));
    reply->test_id = ask->test_id;
    reply->job_id = ask->job_id;
    //  Another test (or the same asked again, by another run): its jobs
    //  are checked against each other, not against the last test's.
    if (self->ledger && (ask->first || !self->asked || ask->test_id != self->test_id)) {
        ledger_clear (self->ledger);
        ledger_destroy (&self->ledger);
    }
    if (!self->ledger)
        self->ledger = ledger_new (self->memory_bound_bytes);
    self->test_id = ask->test_id;
    self->asked = true;
    if (!self->ledger) {
        msg_strcpy (reply->problem, "job", sizeof (reply->problem));
        msg_strcpy (reply->text, strerror (ENOMEM), sizeof (reply->text));
        return;
    }
    jobspec_t spec = ask->spec;
    admit_t admit = {
        .spec = &spec,
        .job_id = ask->job_id,
        .confine = self->confine,
        .ledger = self->ledger,
        .made = NULL
    };
    if (admit_job (&admit, reply->text, sizeof (reply->text)) == 0) {
        free (admit.paths);
        return;
    }
    //  A refused job holds nothing: the next ones are checked as if it
    //  were not there, as PREPARE would after its ERROR.
    ledger_forget_job (self->ledger, ask->job_id);
    msg_strcpy (reply->problem, admit.problem? admit.problem: "job", sizeof (reply->problem));
    msg_strcpy (reply->subject, admit.subject, sizeof (reply->subject));
}
