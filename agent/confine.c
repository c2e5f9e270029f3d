/*  agent/confine.c: paths under --root; see confine.h. */
#include "confine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define S_COMPONENTS_MAX 256    //  path components we are willing to walk

#define S_NFS_HOSTS_MAX 64        //  --allow-nfs flags kept
#define S_NFS_HOST_MAX  255       //  a host name or address

struct _confine_t {
    char **roots;               //  realpath'd root directories, in --root order
    size_t root_count;          //  how many
    char nfs_hosts [S_NFS_HOSTS_MAX][S_NFS_HOST_MAX + 1];  //  --allow-nfs, "*" for any
    size_t nfs_host_count;      //  how many
};

//  A confinement without roots.
confine_t *
confine_new (void)
{
    return calloc (1, sizeof (confine_t));
}

//  Free the roots and the confinement.
void
confine_destroy (confine_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    confine_t *self = *self_p;
    for (size_t index = 0; index < self->root_count; index++)
        free (self->roots [index]);
    free (self->roots);
    free (self);
    *self_p = NULL;
}

//  Allow nfs:// sources on a server.
int
confine_allow_nfs (confine_t *self, const char *host, char *err, size_t errlen)
{
    if (!host [0] || strlen (host) > S_NFS_HOST_MAX || strpbrk (host, "/ \t")) {
        snprintf (err, errlen, "--allow-nfs '%s': give a host name, an address or '*'", host);
        return -1;
    }
    if (self->nfs_host_count == S_NFS_HOSTS_MAX) {
        snprintf (err, errlen, "--allow-nfs: at most %d servers", S_NFS_HOSTS_MAX);
        return -1;
    }
    snprintf (self->nfs_hosts [self->nfs_host_count++], S_NFS_HOST_MAX + 1, "%s", host);
    return 0;
}

//  The server of an nfs:// URL against the allowed ones.
int
confine_check_nfs (confine_t *self, const char *url, char *err, size_t errlen)
{
    //  nfs://HOST[:PORT]/export/file, or nfs://[v6:address]/...
    const char *start = url + strlen ("nfs://");
    const char *end = start + strcspn (start, "/?");
    if (*start == '[') {
        const char *close = memchr (start, ']', (size_t) (end - start));
        if (close) {
            start++;
            end = close;
        }
    }
    else {
        const char *colon = memchr (start, ':', (size_t) (end - start));
        if (colon)
            end = colon;
    }
    size_t length = (size_t) (end - start);
    for (size_t index = 0; index < self->nfs_host_count; index++) {
        const char *host = self->nfs_hosts [index];
        if (strcmp (host, "*") == 0 || (strlen (host) == length && memcmp (host, start, length) == 0))
            return 0;
    }
    snprintf (err, errlen, "nfs server %.*s is not allowed on this agent: start it with "
              "--allow-nfs %.*s (or '*')", (int) length, start, (int) length, start);
    return -1;
}

//  Add a root, realpath'd; it must be a directory.
int
confine_add_root (confine_t *self, const char *dir, char *err, size_t errlen)
{
    char *real = realpath (dir, NULL);
    if (!real) {
        snprintf (err, errlen, "root %s: %s", dir, strerror (errno));
        return -1;
    }
    struct stat st;
    if (stat (real, &st) == -1 || !S_ISDIR (st.st_mode)) {
        snprintf (err, errlen, "root %s: not a directory", dir);
        free (real);
        return -1;
    }
    char **roots = realloc (self->roots, (self->root_count + 1) * sizeof (char *));
    if (!roots) {
        snprintf (err, errlen, "root %s: %s", dir, strerror (ENOMEM));
        free (real);
        return -1;
    }
    self->roots = roots;
    self->roots [self->root_count++] = real;
    return 0;
}

//  Number of roots.
size_t
confine_root_count (confine_t *self)
{
    return self->root_count;
}

//  Root index, realpath'd, or NULL.
const char *
confine_root (confine_t *self, size_t index)
{
    return index < self->root_count? self->roots [index]: NULL;
}

//  True if dir (absolute, resolved) is root or lies under it, component by
//  component: "/srv/a/x" is under "/srv/a", "/srv/ab" is not.
static bool
s_is_under (const char *dir, const char *root)
{
    size_t root_len = strlen (root);
    if (root_len == 1 && root [0] == '/')
        return dir [0] == '/';
    return strncmp (dir, root, root_len) == 0
        && (dir [root_len] == '\0' || dir [root_len] == '/');
}

//  True if dir lies under any root.
static bool
s_is_confined (confine_t *self, const char *dir)
{
    for (size_t index = 0; index < self->root_count; index++)
        if (s_is_under (dir, self->roots [index]))
            return true;
    return false;
}

//  The roots as "(/srv/a, /srv/b)" for messages.
static void
s_roots_text (confine_t *self, char *buf, size_t buflen)
{
    size_t used = 0;
    buf [0] = '\0';
    for (size_t index = 0; index < self->root_count && used < buflen; index++) {
        int rc = snprintf (buf + used, buflen - used, "%s%s",
                           index? ", ": "", self->roots [index]);
        if (rc < 0)
            break;
        used += (size_t) rc;
    }
}

//  Split an absolute or relative path into its components, dropping empty
//  ones and ".". Components point into copy, which is modified. Returns
//  the count, or -1 if there are more than max.
static int
s_split (char *copy, char **components, int max)
{
    int count = 0;
    char *saveptr = NULL;
    for (char *part = strtok_r (copy, "/", &saveptr); part;
         part = strtok_r (NULL, "/", &saveptr)) {
        if (strcmp (part, ".") == 0)
            continue;
        if (count == max)
            return -1;
        components [count++] = part;
    }
    return count;
}

//  Join base and components [0 .. count) into buf. Returns 0 or -1 if it
//  does not fit.
static int
s_join (char *buf, size_t buflen, const char *base, char **components, int count)
{
    int rc = snprintf (buf, buflen, "%s", base);
    if (rc < 0 || (size_t) rc >= buflen)
        return -1;
    size_t used = (size_t) rc;
    for (int index = 0; index < count; index++) {
        bool need_slash = used == 0 || buf [used - 1] != '/';
        rc = snprintf (buf + used, buflen - used, "%s%s", need_slash? "/": "",
                       components [index]);
        if (rc < 0 || (size_t) rc >= buflen - used)
            return -1;
        used += (size_t) rc;
    }
    return 0;
}

//  open(2) walking one component at a time, each opened with O_NOFOLLOW
//  relative to the one before: the fallback where openat2 is missing.
static int
s_open_walk (const char *resolved, int flags, mode_t mode)
{
    char *copy = strdup (resolved);
    if (!copy) {
        errno = ENOMEM;
        return -1;
    }
    int dir_fd = open ("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    char *saveptr = NULL;
    char *part = strtok_r (copy, "/", &saveptr);
    while (dir_fd != -1 && part) {
        char *next = strtok_r (NULL, "/", &saveptr);
        int fd = next? openat (dir_fd, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                     : openat (dir_fd, part, flags | O_NOFOLLOW, mode);
        int err_no = errno;
        close (dir_fd);
        errno = err_no;
        dir_fd = fd;
        if (!next)
            break;
        part = next;
    }
    int err_no = errno;
    free (copy);
    errno = err_no;
    return dir_fd;
}

//  open(2) of a resolved path, following no symlink anywhere.
int
confine_open (const char *resolved, int flags, mode_t mode)
{
    if (resolved [0] != '/') {
        errno = EINVAL;
        return -1;
    }
    struct open_how how = {
        .flags = (uint64_t) (flags | O_NOFOLLOW),
        .mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE? mode: 0,
        .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS
    };
    long fd = syscall (SYS_openat2, AT_FDCWD, resolved, &how, sizeof (how));
    if (fd == -1 && (errno == ENOSYS || errno == EPERM))
        return s_open_walk (resolved, flags, mode);     //  before Linux 5.6, or filtered
    //  RESOLVE_NO_SYMLINKS reports a symlink in the middle as ELOOP too.
    return (int) fd;
}

//  A path shortened in the middle for a message.
const char *
confine_shorten (const char *path, char *buf, size_t buflen)
{
    const char *const dots = "...";
    size_t length = strlen (path);
    if (length < buflen || buflen < 8) {
        snprintf (buf, buflen, "%s", path);
        return buf;
    }
    //  A third of the room for the head, the rest for the tail, where
    //  the file's own name is; neither cut inside a UTF-8 character.
    size_t room = buflen - 1 - strlen (dots);
    size_t head = room / 3;
    size_t tail_start = length - (room - head);
    while (head > 0 && ((unsigned char) path [head] & 0xC0) == 0x80)
        head--;
    while (tail_start < length && ((unsigned char) path [tail_start] & 0xC0) == 0x80)
        tail_start++;
    snprintf (buf, buflen, "%.*s%s%s", (int) head, path, dots, path + tail_start);
    return buf;
}

//  --------------------------------------------------------------------
//  The directories a test made

//  One directory confine_resolve made.
typedef struct {
    int parent_fd;              //  O_PATH descriptor of its parent, held since the mkdir
    char *name;                 //  its name in the parent
    dev_t dev;                  //  its device and inode, to know it again
    ino_t ino;
} s_made_t;

struct _confine_dirs_t {
    s_made_t *entries;          //  in the order they were made, parents first
    size_t count;               //  how many
    size_t capacity;            //  room in entries
};

//  An empty record.
confine_dirs_t *
confine_dirs_new (void)
{
    return calloc (1, sizeof (confine_dirs_t));
}

//  Close the held descriptors and free the record; nothing is removed.
void
confine_dirs_destroy (confine_dirs_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    confine_dirs_t *self = *self_p;
    confine_dirs_forget (self);
    free (self->entries);
    free (self);
    *self_p = NULL;
}

//  Make room for count more entries. Returns 0 or -1.
static int
s_dirs_reserve (confine_dirs_t *self, size_t count)
{
    if (self->count + count <= self->capacity)
        return 0;
    size_t capacity = self->capacity? self->capacity: 8;
    while (capacity < self->count + count)
        capacity *= 2;
    s_made_t *entries = realloc (self->entries, capacity * sizeof (s_made_t));
    if (!entries)
        return -1;
    self->entries = entries;
    self->capacity = capacity;
    return 0;
}

//  Record a directory just made as name under parent_fd, which the
//  record takes over. Returns 0, or -1 (out of memory; parent_fd closed).
static int
s_dirs_add (confine_dirs_t *self, int parent_fd, const char *name, const struct stat *st)
{
    char *copy = strdup (name);
    if (!copy || s_dirs_reserve (self, 1) == -1) {
        free (copy);
        close (parent_fd);
        return -1;
    }
    self->entries [self->count++] = (s_made_t) {
        .parent_fd = parent_fd, .name = copy, .dev = st->st_dev, .ino = st->st_ino
    };
    return 0;
}

//  Append every entry of from to self.
int
confine_dirs_move (confine_dirs_t *self, confine_dirs_t *from)
{
    if (from->count == 0)
        return 0;
    if (s_dirs_reserve (self, from->count) == -1)
        return -1;
    memcpy (self->entries + self->count, from->entries, from->count * sizeof (s_made_t));
    self->count += from->count;
    from->count = 0;
    return 0;
}

//  Remove the recorded directories that are empty, the last made first,
//  and keep the record of the others, in their order.
void
confine_dirs_prune (confine_dirs_t *self)
{
    bool *kept = calloc (self->count? self->count: 1, sizeof (bool));
    for (size_t index = self->count; index-- > 0; ) {
        s_made_t *made = &self->entries [index];
        struct stat st;
        //  rmdir refuses a directory that is not empty, which is what we
        //  want: whatever is in it is not ours to take.
        bool same = fstatat (made->parent_fd, made->name, &st, AT_SYMLINK_NOFOLLOW) == 0
                 && S_ISDIR (st.st_mode) && st.st_dev == made->dev && st.st_ino == made->ino;
        if (same && unlinkat (made->parent_fd, made->name, AT_REMOVEDIR) == -1 && kept)
            kept [index] = true;
    }
    size_t count = 0;
    for (size_t index = 0; index < self->count; index++) {
        if (kept && kept [index])
            self->entries [count++] = self->entries [index];
        else {
            close (self->entries [index].parent_fd);
            free (self->entries [index].name);
        }
    }
    self->count = count;
    free (kept);
}

//  Remove the recorded directories, the last made first.
void
confine_dirs_remove (confine_dirs_t *self)
{
    confine_dirs_prune (self);
    confine_dirs_forget (self);
}

//  Forget the recorded directories, leaving them where they are.
void
confine_dirs_forget (confine_dirs_t *self)
{
    for (size_t index = 0; index < self->count; index++) {
        close (self->entries [index].parent_fd);
        free (self->entries [index].name);
    }
    self->count = 0;
}

//  Extend the resolved directory dir (updated as it goes) with the
//  missing components [from .. to). With made, each is made 0755 with
//  mkdirat under a descriptor of its parent opened by confine_open, so a
//  directory swapped for a symlink meanwhile cannot redirect the mkdir,
//  and those it made are recorded in made with that descriptor. path is
//  the path asked for, as messages show it.
static int
s_extend_dir (char *dir, size_t dirlen, char **components, int from, int to,
              confine_dirs_t *made, const char *path, char *err, size_t errlen)
{
    char shown [CONFINE_SHOWN_MAX];
    for (int index = from; index < to; index++) {
        char next [PATH_MAX];
        if (s_join (next, sizeof (next), dir, components + index, 1) == -1) {
            snprintf (err, errlen, "path %s: too long", path);
            return -1;
        }
        if (made) {
            int parent_fd = confine_open (dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
            if (parent_fd == -1) {
                snprintf (err, errlen, "path %s: open(%s): %s", path,
                          confine_shorten (dir, shown, sizeof (shown)),
                          errno == ELOOP? "a symbolic link appeared on the way": strerror (errno));
                return -1;
            }
            int rc = mkdirat (parent_fd, components [index], 0755);
            int err_no = errno;
            struct stat st;
            bool is_dir = fstatat (parent_fd, components [index], &st, AT_SYMLINK_NOFOLLOW) == 0
                       && S_ISDIR (st.st_mode);
            if (rc == 0 && is_dir) {
                if (s_dirs_add (made, parent_fd, components [index], &st) == -1) {
                    snprintf (err, errlen, "path %s: %s", path, strerror (ENOMEM));
                    return -1;
                }
            }
            else
                close (parent_fd);
            if (rc == -1 && err_no != EEXIST) {
                snprintf (err, errlen, "path %s: mkdir(%s): %s", path,
                          confine_shorten (next, shown, sizeof (shown)), strerror (err_no));
                return -1;
            }
            if (!is_dir) {
                snprintf (err, errlen, "path %s: %s is not a directory", path,
                          confine_shorten (next, shown, sizeof (shown)));
                return -1;
            }
        }
        snprintf (dir, dirlen, "%s", next);
    }
    return 0;
}

//  Resolve a path from the wire under the roots, or say why not.
int
confine_resolve (confine_t *self, const char *asked, confine_dirs_t *made,
                 char *resolved, size_t resolved_size, char *err, size_t errlen)
{
    char *copy = NULL;
    int fail_errno = EINVAL;        //  EXDEV once the path is found outside the roots
    char *components [S_COMPONENTS_MAX];
    //  Every message names the path as it was asked for, shortened.
    char shown [CONFINE_SHOWN_MAX], shown_dir [CONFINE_SHOWN_MAX];
    const char *path = confine_shorten (asked, shown, sizeof (shown));

    if (asked [0] == '\0') {
        snprintf (err, errlen, "path is empty");
        goto fail;
    }
    if (self->root_count == 0) {
        snprintf (err, errlen, "path %s: the agent has no roots", path);
        goto fail;
    }
    copy = strdup (asked);
    if (!copy) {
        snprintf (err, errlen, "path %s: %s", path, strerror (ENOMEM));
        goto fail;
    }
    int count = s_split (copy, components, S_COMPONENTS_MAX);
    if (count == -1) {
        snprintf (err, errlen, "path %s: too many components", path);
        goto fail;
    }
    for (int index = 0; index < count; index++)
        if (strcmp (components [index], "..") == 0) {
            snprintf (err, errlen, "path %s: '..' components are not allowed", path);
            goto fail;
        }
    if (count == 0 || asked [strlen (asked) - 1] == '/') {
        snprintf (err, errlen, "path %s: names a directory, not a file", path);
        goto fail;
    }

    //  The directory part is base + components [0 .. count-1); find its
    //  deepest existing prefix and resolve that.
    const char *base = asked [0] == '/'? "/": self->roots [0];
    int dir_count = count - 1;
    int existing = dir_count;
    char dir [PATH_MAX];
    char *real = NULL;
    while (true) {
        char prefix [PATH_MAX];
        if (s_join (prefix, sizeof (prefix), base, components, existing) == -1) {
            snprintf (err, errlen, "path %s: too long", path);
            goto fail;
        }
        real = realpath (prefix, NULL);
        if (real)
            break;
        if (errno != ENOENT || existing == 0) {
            snprintf (err, errlen, "path %s: %s: %s", path,
                      confine_shorten (prefix, shown_dir, sizeof (shown_dir)), strerror (errno));
            goto fail;
        }
        existing--;
    }
    snprintf (dir, sizeof (dir), "%s", real);
    free (real);

    struct stat st;
    if (stat (dir, &st) == -1 || !S_ISDIR (st.st_mode)) {
        snprintf (err, errlen, "path %s: %s is not a directory", path,
                  confine_shorten (dir, shown_dir, sizeof (shown_dir)));
        goto fail;
    }
    if (!s_is_confined (self, dir)) {
        char roots [PATH_MAX];
        s_roots_text (self, roots, sizeof (roots));
        snprintf (err, errlen, "path %s is outside the agent's roots (%s)", path, roots);
        fail_errno = EXDEV;
        goto fail;
    }

    //  Checked: now missing directories may be made (or, without made,
    //  only named).
    if (s_extend_dir (dir, sizeof (dir), components, existing, dir_count,
                      made, path, err, errlen) == -1)
        goto fail;
    if (s_join (resolved, resolved_size, dir, components + dir_count, 1) == -1) {
        snprintf (err, errlen, "path %s: too long", path);
        goto fail;
    }
    if (lstat (resolved, &st) == 0 && S_ISLNK (st.st_mode)) {
        snprintf (err, errlen, "path %s: is a symbolic link", path);
        goto fail;
    }
    free (copy);
    return 0;

fail:
    free (copy);
    if (resolved_size)
        resolved [0] = '\0';
    errno = fail_errno;
    return -1;
}
