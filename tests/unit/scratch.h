/*  tests/unit/scratch.h: removing a unit test's scratch directory.

    Included by the unit tests that build files under a mkdtemp directory;
    static, because each test program is one translation unit.
*/
#ifndef IOFLEET_TEST_SCRATCH_H
#define IOFLEET_TEST_SCRATCH_H

#include <dirent.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  nftw callback: remove one entry, deepest first.
static int
scratch_remove_entry (const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st;
    (void) flag;
    (void) ftw;
    return remove (path);
}

//  Remove a directory and everything below it, symlinks as links.
static inline int
scratch_remove (const char *dir)
{
    return nftw (dir, scratch_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

//  Make a scratch directory named name.XXXXXX under $TMPDIR (else /tmp)
//  into dir. Returns 0, or -1 if it cannot be made.
static inline int
scratch_make (char *dir, size_t size, const char *name)
{
    const char *tmp = getenv ("TMPDIR");
    snprintf (dir, size, "%s/%s.XXXXXX", tmp && *tmp? tmp: "/tmp", name);
    return mkdtemp (dir)? 0: -1;
}

//  Write text into dir/name. Returns its path (a static buffer, valid
//  until the next call), or NULL if it cannot be written.
static inline const char *
scratch_write (const char *dir, const char *name, const char *text)
{
    static char path [1024];
    snprintf (path, sizeof path, "%s/%s", dir, name);
    FILE *file = fopen (path, "w");
    if (!file)
        return NULL;
    bool written = fputs (text, file) >= 0;
    return fclose (file) == 0 && written? path: NULL;
}

//  Number of entries in a directory, "." and ".." aside; -1 if it cannot
//  be read.
static inline int
scratch_entries (const char *dir)
{
    DIR *handle = opendir (dir);
    if (!handle)
        return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir (handle)))
        if (strcmp (entry->d_name, ".") && strcmp (entry->d_name, ".."))
            count++;
    closedir (handle);
    return count;
}

#endif
