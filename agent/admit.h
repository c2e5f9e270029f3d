/*  agent/admit.h: whether this agent accepts a job, decided in one place
    for PREPARE (job_new) and for PREFLIGHT (preflight.c), so that the
    console's question before the run and the test itself never disagree.

    In order: the numbers against the option table, the workload known,
    its keys (workload_check), the engine on this host, the workload's
    own validate, the memory of its streams against the test's bound
    (claimed in the ledger), every file resolved under the roots (nfs://
    only from allowed servers) and claimed in the ledger, directories
    writable where a file must be created, and free space for the bytes
    a size-bound job certainly writes. Only what is certain to fail is
    refused: a missing directory that prepare would make is fine, so is
    a file that exists already, and a time-bound job is not held to its
    size.
*/
#ifndef IOFLEET_ADMIT_H
#define IOFLEET_ADMIT_H

#include "confine.h"
#include "ledger.h"
#include "workloads/workload.h"

#include "../proto/msg.h"

#include <stdint.h>

typedef struct {
    //  Given:
    jobspec_t *spec;                //  the job's options; shared file options get their
                                    //  resolved paths
    uint32_t job_id;                //  its index within the test
    confine_t *confine;             //  the agent's roots and nfs servers
    ledger_t *ledger;               //  the test's claims so far
    confine_dirs_t *made;           //  prepare: directories made go here; NULL: none made
    //  Learnt:
    const workload_desc_t *desc;    //  what its workload is
    const workload_ops_t *ops;      //  how this agent runs it
    int job_class;                  //  CLASS_DISK or CLASS_NETWORK, as this agent sees it
    char (*paths) [JOB_PATH_MAX + 1];   //  each stream's file (spec->streams), the caller's
                                        //  to free
    const char *problem;            //  on refusal: PREFLIGHT_* (proto/preflight.h)
    char subject [JOB_PATH_MAX + 1];    //  on refusal: the path or URL concerned, or ""
} admit_t;

//  Admit the job described by admit's given fields. Returns 0, or -1
//  with the reason in err ("path /etc/x is outside the agent's roots
//  (/srv/a)") and problem and subject set; then paths is NULL, and what
//  the job claimed stays in the ledger (the caller forgets the job).
int admit_job (admit_t *admit, char *err, size_t errlen);

#endif
