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
    - only then are missing intermediate directories created (0755);
    - a final component that exists as a symbolic link is refused, and
      workloads open files with O_NOFOLLOW as a second line.

    Every refusal names the path as the coordinator sent it.
*/
#ifndef IOFLEET_CONFINE_H
#define IOFLEET_CONFINE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct _confine_t confine_t;

//  A confinement with no roots yet (which refuses every path).
confine_t *confine_new (void);

//  Destroy it; safe on NULL, NULLs the caller's pointer.
void confine_destroy (confine_t **self_p);

//  Add a root: it must exist and be a directory; it is kept realpath'd.
//  Returns 0, or -1 with "root DIR: reason" in err.
int confine_add_root (confine_t *self, const char *dir, char *err, size_t errlen);

//  Number of roots, and root `index` (realpath'd, borrowed).
size_t confine_root_count (confine_t *self);
const char *confine_root (confine_t *self, size_t index);

//  Resolve path into resolved (an absolute path under a root, its
//  directory part free of symlinks). With create_dirs, missing directories
//  between the deepest existing one and the file are created once the
//  path has passed every check. Returns 0, or -1 with a reason naming the
//  path in err, e.g. "path /etc/x is outside the agent's roots (/srv/a)";
//  nothing is created when it fails a check.
int confine_resolve (confine_t *self, const char *path, bool create_dirs,
                     char *resolved, size_t resolved_size, char *err, size_t errlen);

#endif
