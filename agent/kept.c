/*  agent/kept.c: the files a session keeps for its later tests; see kept.h. */
#include "kept.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//  Files handed over together: one directory and its names.
typedef struct {
    int dir_fd;                     //  O_PATH descriptor of their directory
    kept_file_t *files;             //  their names (owned) and identities
    size_t count;                   //  how many
} s_group_t;

struct _kept_t {
    uint64_t session_id;            //  the session served, 0 none
    s_group_t *groups;              //  what was handed over, in order
    size_t group_count;             //  how many groups
    size_t file_count;              //  files in them all
    confine_dirs_t *dirs;           //  directories made for them, to go after them
};

kept_t *
kept_new (void)
{
    kept_t *self = calloc (1, sizeof (kept_t));
    if (!self)
        return NULL;
    self->dirs = confine_dirs_new ();
    if (!self->dirs) {
        free (self);
        return NULL;
    }
    return self;
}

void
kept_destroy (kept_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    kept_t *self = *self_p;
    kept_end (self);
    free (self->groups);
    confine_dirs_destroy (&self->dirs);
    free (self);
    *self_p = NULL;
}

void
kept_begin (kept_t *self, uint64_t session_id)
{
    self->session_id = session_id;
}

uint64_t
kept_session (kept_t *self)
{
    return self->session_id;
}

//  Free the names of a group, and the group's table.
static void
s_group_free (s_group_t *group, size_t names)
{
    for (size_t index = 0; index < names; index++)
        free ((char *) group->files [index].name);
    free (group->files);
}

int
kept_adopt (kept_t *self, uint64_t session_id, int dir_fd, const kept_file_t *files,
            size_t count)
{
    if (session_id == 0 || session_id != self->session_id)
        return -1;
    s_group_t *groups = realloc (self->groups, (self->group_count + 1) * sizeof (s_group_t));
    if (!groups)
        return -1;
    self->groups = groups;
    s_group_t group = { .dir_fd = dir_fd, .count = count };
    group.files = calloc (count? count: 1, sizeof (kept_file_t));
    if (!group.files)
        return -1;
    for (size_t index = 0; index < count; index++) {
        group.files [index] = files [index];
        group.files [index].name = strdup (files [index].name);
        if (!group.files [index].name) {
            s_group_free (&group, index);
            return -1;
        }
    }
    self->groups [self->group_count++] = group;
    self->file_count += count;
    return 0;
}

int
kept_adopt_dirs (kept_t *self, uint64_t session_id, confine_dirs_t *dirs)
{
    if (session_id == 0 || session_id != self->session_id)
        return -1;
    return confine_dirs_move (self->dirs, dirs);
}

size_t
kept_file_count (kept_t *self)
{
    return self->file_count;
}

size_t
kept_end (kept_t *self)
{
    size_t removed = 0;
    for (size_t nbr = 0; nbr < self->group_count; nbr++) {
        s_group_t *group = &self->groups [nbr];
        for (size_t index = 0; index < group->count; index++) {
            const kept_file_t *file = &group->files [index];
            struct stat st;
            //  Never by path: only the name in the directory held, and only
            //  while it is still the file handed over.
            if (fstatat (group->dir_fd, file->name, &st, AT_SYMLINK_NOFOLLOW) == 0
            &&  S_ISREG (st.st_mode) && st.st_dev == file->dev && st.st_ino == file->ino
            &&  unlinkat (group->dir_fd, file->name, 0) == 0)
                removed++;
        }
        s_group_free (group, group->count);
        close (group->dir_fd);
    }
    self->group_count = 0;
    self->file_count = 0;
    confine_dirs_remove (self->dirs);
    self->session_id = 0;
    return removed;
}
