/*  agent/ledger.h: what the jobs of the test an agent holds have claimed
    on it: memory for their buffers, the files they write and read, and
    the directories their prepare made.

    job_new checks a new job against the ledger before it creates
    anything and records the job's claims in it; a job that fails, or is
    prepared again, gives them back (ledger_forget_job). When the test is
    over the agent clears the ledger, which removes the directories the
    test made.

    Files are compared as confine_resolve left them (absolute, the
    directory part realpath'd, the name not a symlink), so "same",
    "/ROOT/same" and a path through a symlinked directory are one file;
    and by device and inode where the file exists, which also sees
    through bind mounts. A file may be read by any number of jobs and
    written by one; a fill's file may be read by the copies of the same
    test (that is what it is for), any other written file may not. A file
    set (randrw's path.1 .. path.N) is claimed as one: every file of it
    is compared by its name, which the set's path and a suffix make.

    Files a test's jobs hand over to the session (agent/kept.h) outlive
    the test; the ledger knows where they go, and the directories the
    test made that still hold them go with them.
*/
#ifndef IOFLEET_LEDGER_H
#define IOFLEET_LEDGER_H

#include "confine.h"
#include "kept.h"

#include <stddef.h>
#include <stdint.h>

typedef struct _ledger_t ledger_t;

//  How a job uses a file.
typedef enum {
    LEDGER_WRITES,              //  write's path.k, copy's dst.k
    LEDGER_FILLS,               //  fill's path.k: written, and a source others may read
    LEDGER_READS                //  copy's local src
} ledger_use_t;

//  An empty ledger that lets the buffers of one test take at most
//  memory_bound_bytes. NULL if out of memory.
ledger_t *ledger_new (uint64_t memory_bound_bytes);

//  Free it, removing nothing (clear it first). Safe on NULL, NULLs the
//  caller's pointer.
void ledger_destroy (ledger_t **self_p);

//  Claim the memory of job job_id (named name): streams of buffer_bytes
//  of buffers and figures_bytes of figures (the stream's state and
//  latency histograms) each. Returns 0, or -1 with "job big: its streams
//  need 16.02G (256 streams of 64M of buffers and 64K of figures), and
//  the test holds 1G already, over this agent's bound of 6G per test
//  (--max-memory)" in err when the test would then hold more than the
//  bound.
int ledger_claim_memory (ledger_t *self, uint32_t job_id, const char *name, uint64_t streams,
                         uint64_t buffer_bytes, uint64_t figures_bytes, char *err, size_t errlen);

//  Claim file path (resolved) for job job_id (named name) used as use.
//  Returns 0, or -1 with "job B: writes the same file as job A (PATH)"
//  (or "reads the file job A writes", "writes the file job A reads") in
//  err when another claim of the test forbids it.
int ledger_claim_file (ledger_t *self, uint32_t job_id, const char *name,
                       ledger_use_t use, const char *path, char *err, size_t errlen);

//  Claim the file set base.1 .. base.count (base itself if count is 1)
//  for job job_id, as ledger_claim_file would each of them. Returns 0,
//  or -1 with the reason in err.
int ledger_claim_set (ledger_t *self, uint32_t job_id, const char *name, ledger_use_t use,
                      const char *base, uint64_t count, char *err, size_t errlen);

//  Files of the test may outlive it in kept, for the session that holds
//  kept now (NULL: they may not).
void ledger_keep_in (ledger_t *self, kept_t *kept);

//  Where files of the test may go to outlive it, or NULL; and the
//  session they would be kept for.
kept_t *ledger_kept (ledger_t *self, uint64_t *session_id);

//  Job job_id is prepared: learn the device and inode of its files that
//  exist now (created by its prepare), for the jobs that come after.
void ledger_seal_job (ledger_t *self, uint32_t job_id);

//  Take over the directories in made (which is left empty), to remove
//  them when the test is over. Returns 0, or -1 if out of memory.
int ledger_adopt_dirs (ledger_t *self, confine_dirs_t *made);

//  Give back every claim of job job_id (its memory and files; the
//  directories it made stay in the ledger until the test is over).
void ledger_forget_job (ledger_t *self, uint32_t job_id);

//  The test is over and its files are gone: remove the directories it
//  made (the deepest first, each only if empty), hand those that still
//  hold files the session keeps over to it, and forget every claim.
void ledger_clear (ledger_t *self);

#endif
