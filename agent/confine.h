/*  agent/confine.h: keeps every path a coordinator sends under the
    agent's --root directories.

    The agent runs no shell and touches files only under its roots. A path
    from the wire is resolved like this:

    - a relative path is taken under the first root;
    - any ".." component is refused outright;
    - the deepest ancestor directory that exists is resolved with
      realpath (so symlinked directories are followed to where they really
      lead) and must be a root or lie under one, compared component by
      component (/srv/ab is not under /srv/a);
    - only then are missing intermediate directories created (0755),
      and recorded (confine_dirs_t) so that the test that made them
      removes them again;
    - a final component that exists as a symbolic link is refused.

    A check on names is only as good as the moment it was made: a
    directory may be swapped for a symlink between the check and the
    open. So the directories are made, and files opened, with
    confine_open: the kernel resolves the path again refusing every
    symlink on the way (openat2 with RESOLVE_NO_SYMLINKS, or a walk with
    O_NOFOLLOW on each component where openat2 is missing). A resolved
    path is absolute, free of "..", and lies under a realpath'd root by
    its very characters, so a walk that follows no symlink cannot leave
    the root. Workloads open their files at prepare: a swap after that
    changes nothing for an open descriptor.

    Every refusal names the path as the coordinator sent it.
*/
#ifndef IOFLEET_CONFINE_H
#define IOFLEET_CONFINE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct _confine_t confine_t;

//  A confinement with no roots yet (which refuses every path).
confine_t *confine_new (void);

//  Destroy it; safe on NULL, NULLs the caller's pointer.
void confine_destroy (confine_t **self_p);

//  Add a root: it must exist and be a directory; it is kept realpath'd.
//  Returns 0, or -1 with "root DIR: reason" in err.
int confine_add_root (confine_t *self, const char *dir, char *err, size_t errlen);

//  Allow nfs:// sources on server `host` (as written in URLs: a name or an
//  address), or on any server with "*". Without any, no nfs:// source is
//  read: an agent reads from the network only where it was told it may.
//  Returns 0, or -1 with a reason.
int confine_allow_nfs (confine_t *self, const char *host, char *err, size_t errlen);

//  Check the server of an nfs:// URL against the allowed ones. Returns 0,
//  or -1 with "nfs server HOST is not allowed on this agent (--allow-nfs)"
//  in err.
int confine_check_nfs (confine_t *self, const char *url, char *err, size_t errlen);

//  Number of roots, and root `index` (realpath'd, borrowed).
size_t confine_root_count (confine_t *self);
const char *confine_root (confine_t *self, size_t index);

//  The directories confine_resolve made, so that the test that asked for
//  them can remove them again: each with a descriptor of its parent held
//  since it was made, and its device and inode.
typedef struct _confine_dirs_t confine_dirs_t;

//  An empty record; NULL if out of memory.
confine_dirs_t *confine_dirs_new (void);

//  Forget what it holds (removing nothing) and free it. Safe on NULL,
//  NULLs the caller's pointer.
void confine_dirs_destroy (confine_dirs_t **self_p);

//  Move every entry of from to the end of self. Returns 0, or -1 if out
//  of memory (then both are as they were).
int confine_dirs_move (confine_dirs_t *self, confine_dirs_t *from);

//  Remove the directories recorded, the last made first (so children go
//  before their parents), then forget them. A directory goes only if it
//  is empty and its name, looked up without following a symlink in the
//  parent held since the mkdir, is still the directory made: never by
//  path, which a swapped directory could redirect.
void confine_dirs_remove (confine_dirs_t *self);

//  Remove the recorded directories that are empty as confine_dirs_remove
//  does, and keep recording those that are not (what is in them may go
//  later, and they after it).
void confine_dirs_prune (confine_dirs_t *self);

//  Forget the directories recorded, leaving them in place (keep = yes).
void confine_dirs_forget (confine_dirs_t *self);

//  Resolve path into resolved (an absolute path under a root, its
//  directory part free of symlinks). With made, missing directories
//  between the deepest existing one and the file are created once the
//  path has passed every check, and recorded in made (also when a later
//  step fails); without, nothing is created. Returns 0, or -1 with a
//  reason naming the path in err, e.g. "path /etc/x is outside the
//  agent's roots (/srv/a)"; nothing is created when it fails a check.
//  After a failure errno is EXDEV when the path lies outside the roots,
//  EINVAL for any other reason.
int confine_resolve (confine_t *self, const char *path, confine_dirs_t *made,
                     char *resolved, size_t resolved_size, char *err, size_t errlen);

//  Bytes a path may take in a message, its NUL included.
#define CONFINE_SHOWN_MAX 120

//  A path as messages show it: the path itself when it fits in buflen
//  bytes, else its head, "..." and its tail ("/data/aaa...zzz/file.1"),
//  cut between UTF-8 characters. Errors read "what(path): reason" and
//  go out in at most MSG_TEXT_MAX bytes: a path of any length must leave
//  room for the reason. Use a CONFINE_SHOWN_MAX buffer. Returns buf.
const char *confine_shorten (const char *path, char *buf, size_t buflen);

//  open(2) for a path from confine_resolve: no component may be a
//  symbolic link (the last one included), so a directory swapped for a
//  link since the resolve makes it fail with ELOOP instead of escaping.
//  Returns a descriptor, or -1 with errno set.
int confine_open (const char *resolved, int flags, mode_t mode);

#endif
