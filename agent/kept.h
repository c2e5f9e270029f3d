/*  agent/kept.h: the files a session keeps for its later tests.

    A randrw file set takes long to lay out, and sysbench's way is to
    prepare it once and run on it many times. So a set this agent laid
    out outlives the test that made it: when the test is over its files
    are handed over here (unless keep = yes, and then they stay for
    good), the later tests and iterations of the session that ask for the
    same set find it laid out and use it as it is, and it goes when the
    session ends: BYE, a lease that ran out, the agent stopping.

    Files go as the workloads remove their own: by name in the directory
    held open since they were created, and only while that name is still
    the same file (device and inode). The directories the tests made for
    them go after them, the deepest first, each only if it is empty.

    The record knows the session it serves. What a test of another
    session hands over (a test orphaned when its session ended, and
    ending later) is refused, and its owner removes it at once. All of it
    runs in the agent's loop thread.
*/
#ifndef IOFLEET_KEPT_H
#define IOFLEET_KEPT_H

#include "confine.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct _kept_t kept_t;

//  One file handed over: its name in its directory and its identity.
typedef struct {
    const char *name;               //  name in the directory (copied)
    dev_t dev;                      //  its device
    ino_t ino;                      //  and inode, checked before the name is removed
} kept_file_t;

//  A record that serves no session yet. NULL if out of memory.
kept_t *kept_new (void);

//  End the session it serves (removing what it holds) and free it.
//  Safe on NULL, NULLs the caller's pointer.
void kept_destroy (kept_t **self_p);

//  A session opened: what is handed over from now on is session_id's.
void kept_begin (kept_t *self, uint64_t session_id);

//  The session it serves, 0 between sessions.
uint64_t kept_session (kept_t *self);

//  Take count files that all lie in the directory dir_fd (an O_PATH
//  descriptor, which the record takes over) for session session_id.
//  Returns 0, or -1 (nothing taken, dir_fd still the caller's) if that
//  is not the session served, or out of memory.
int kept_adopt (kept_t *self, uint64_t session_id, int dir_fd, const kept_file_t *files,
                size_t count);

//  Take the directories recorded in dirs (which is left empty) for
//  session session_id, to remove after the files. Returns 0, or -1
//  (nothing taken) if that is not the session served, or out of memory.
int kept_adopt_dirs (kept_t *self, uint64_t session_id, confine_dirs_t *dirs);

//  Files held now.
size_t kept_file_count (kept_t *self);

//  The session is over: remove every file held that is still the file
//  handed over, then the directories that are empty by then; forget
//  everything and serve no session. Returns the files removed.
size_t kept_end (kept_t *self);

#endif
