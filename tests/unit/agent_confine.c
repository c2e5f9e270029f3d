/*  tests/unit/agent_confine.c: paths under --root. Every case runs in a
    scratch directory of its own:

        base/root           the root
        base/root2          a sibling whose name extends the root's
        base/outside        a directory outside the root
        base/root/link-out  symlink to base/outside (a directory leading out)
        base/root/file-link symlink to base/outside/target (a file leading out)
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch.h"

#include "../../agent/confine.h"
#include "../../agent/workloads/workload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//  The scratch layout of one case.
typedef struct {
    char base [PATH_MAX];           //  scratch directory, realpath'd
    char root [PATH_MAX];           //  base/root
    char root2 [PATH_MAX];          //  base/root2
    char outside [PATH_MAX];        //  base/outside
    confine_t *confine;             //  with root as its only root
    confine_dirs_t *made;           //  the directories resolves made
    char resolved [PATH_MAX];       //  output of the last resolve
    char err [1024];                //  its error
} fixture_t;

//  Path of base joined with a relative name.
static void
s_path (char *buf, const char *base, const char *name)
{
    snprintf (buf, PATH_MAX, "%s/%s", base, name);
}

//  True if path exists (without following a final symlink).
static bool
s_exists (const char *path)
{
    struct stat st;
    return lstat (path, &st) == 0;
}

//  Build the scratch layout and the confinement of one case.
static int
s_setup (void **state)
{
    fixture_t *fx = calloc (1, sizeof (fixture_t));
    assert_non_null (fx);
    const char *tmp = getenv ("TMPDIR");
    char template [PATH_MAX];
    snprintf (template, sizeof (template), "%s/iofleet-confine-XXXXXX", tmp? tmp: P_tmpdir);
    assert_non_null (mkdtemp (template));
    assert_non_null (realpath (template, fx->base));

    s_path (fx->root, fx->base, "root");
    s_path (fx->root2, fx->base, "root2");
    s_path (fx->outside, fx->base, "outside");
    assert_int_equal (mkdir (fx->root, 0755), 0);
    assert_int_equal (mkdir (fx->root2, 0755), 0);
    assert_int_equal (mkdir (fx->outside, 0755), 0);

    char link [PATH_MAX], target [PATH_MAX];
    s_path (link, fx->root, "link-out");
    assert_int_equal (symlink (fx->outside, link), 0);
    s_path (link, fx->root, "file-link");
    s_path (target, fx->outside, "target");
    assert_int_equal (symlink (target, link), 0);

    fx->confine = confine_new ();
    assert_non_null (fx->confine);
    assert_int_equal (confine_add_root (fx->confine, fx->root, fx->err, sizeof (fx->err)), 0);
    fx->made = confine_dirs_new ();
    assert_non_null (fx->made);
    *state = fx;
    return 0;
}

//  Remove everything s_setup built.
static int
s_teardown (void **state)
{
    fixture_t *fx = *state;
    confine_destroy (&fx->confine);
    assert_null (fx->confine);
    confine_dirs_destroy (&fx->made);
    scratch_remove (fx->base);
    free (fx);
    return 0;
}

//  Resolve path (making missing directories if create_dirs, recorded in
//  fx->made) and return what confine_resolve did.
static int
s_resolve (fixture_t *fx, const char *path, bool create_dirs)
{
    fx->err [0] = '\0';
    return confine_resolve (fx->confine, path, create_dirs? fx->made: NULL, fx->resolved,
                            sizeof (fx->resolved), fx->err, sizeof (fx->err));
}

//  The root's contents stay as the fixture made them: nothing was created.
static void
s_assert_nothing_created (fixture_t *fx)
{
    assert_int_equal (scratch_entries (fx->root), 2);         //  link-out, file-link
    assert_int_equal (scratch_entries (fx->root2), 0);
    assert_int_equal (scratch_entries (fx->outside), 0);
    assert_int_equal (scratch_entries (fx->base), 3);         //  root, root2, outside
}

static void
test_relative_path_goes_under_first_root (void **state)
{
    fixture_t *fx = *state;
    assert_int_equal (s_resolve (fx, "dd1", true), 0);
    char expected [PATH_MAX];
    s_path (expected, fx->root, "dd1");
    assert_string_equal (fx->resolved, expected);
    assert_false (s_exists (expected));             //  directories only, never the file

    //  "." components and doubled slashes are harmless.
    assert_int_equal (s_resolve (fx, "./sub//dd1", true), 0);
    s_path (expected, fx->root, "sub/dd1");
    assert_string_equal (fx->resolved, expected);
}

static void
test_absolute_path_inside (void **state)
{
    fixture_t *fx = *state;
    char path [PATH_MAX];
    s_path (path, fx->root, "data.bin");
    assert_int_equal (s_resolve (fx, path, true), 0);
    assert_string_equal (fx->resolved, path);
}

static void
test_absolute_path_outside (void **state)
{
    fixture_t *fx = *state;
    assert_int_equal (s_resolve (fx, "/etc/passwd", true), -1);
    assert_non_null (strstr (fx->err, "/etc/passwd"));
    assert_non_null (strstr (fx->err, "outside the agent's roots"));
    assert_non_null (strstr (fx->err, fx->root));
    assert_string_equal (fx->resolved, "");

    char path [PATH_MAX];
    s_path (path, fx->outside, "new/dir/file");
    assert_int_equal (s_resolve (fx, path, true), -1);
    assert_non_null (strstr (fx->err, path));
    s_assert_nothing_created (fx);
}

static void
test_dotdot_refused (void **state)
{
    fixture_t *fx = *state;
    assert_int_equal (s_resolve (fx, "../escape", true), -1);
    assert_non_null (strstr (fx->err, "../escape"));
    assert_non_null (strstr (fx->err, "'..'"));

    //  Even a ".." that would land back inside the root.
    char path [PATH_MAX];
    snprintf (path, sizeof (path), "%s/../root/x", fx->root);
    assert_int_equal (s_resolve (fx, path, true), -1);
    assert_non_null (strstr (fx->err, path));

    assert_int_equal (s_resolve (fx, "a/b/../../../escape", true), -1);
    s_assert_nothing_created (fx);
}

static void
test_symlinked_directory_leading_out (void **state)
{
    fixture_t *fx = *state;
    char path [PATH_MAX];
    s_path (path, fx->root, "link-out/file");
    assert_int_equal (s_resolve (fx, path, true), -1);
    assert_non_null (strstr (fx->err, path));
    assert_non_null (strstr (fx->err, "outside"));

    //  Relative, and with directories to create beyond the link.
    assert_int_equal (s_resolve (fx, "link-out/deeper/still/file", true), -1);
    assert_non_null (strstr (fx->err, "link-out/deeper/still/file"));
    s_assert_nothing_created (fx);
}

static void
test_symlinked_file_refused (void **state)
{
    fixture_t *fx = *state;
    assert_int_equal (s_resolve (fx, "file-link", true), -1);
    assert_non_null (strstr (fx->err, "file-link"));
    assert_non_null (strstr (fx->err, "symbolic link"));

    //  A symlink pointing inside the root is refused as a final component
    //  as well: the workload would write through it.
    char link [PATH_MAX], target [PATH_MAX];
    s_path (link, fx->root, "inner-link");
    s_path (target, fx->root, "real");
    assert_int_equal (symlink (target, link), 0);
    assert_int_equal (s_resolve (fx, link, true), -1);
    assert_non_null (strstr (fx->err, "symbolic link"));
    assert_int_equal (unlink (link), 0);
    s_assert_nothing_created (fx);
}

static void
test_sibling_prefix_is_not_under (void **state)
{
    fixture_t *fx = *state;
    char path [PATH_MAX];
    s_path (path, fx->root2, "file");
    assert_int_equal (s_resolve (fx, path, true), -1);
    assert_non_null (strstr (fx->err, path));
    assert_non_null (strstr (fx->err, "outside"));
    s_assert_nothing_created (fx);
}

static void
test_missing_directories_created (void **state)
{
    fixture_t *fx = *state;
    assert_int_equal (s_resolve (fx, "a/b/c/file", true), 0);
    char dir [PATH_MAX], expected [PATH_MAX];
    s_path (dir, fx->root, "a/b/c");
    s_path (expected, dir, "file");
    assert_string_equal (fx->resolved, expected);
    struct stat st;
    assert_int_equal (lstat (dir, &st), 0);
    assert_true (S_ISDIR (st.st_mode));
    mode_t mask = umask (0);
    umask (mask);
    assert_int_equal (st.st_mode & 0777, 0755 & ~mask);
    assert_false (s_exists (expected));

    //  Without create_dirs the same path resolves but nothing is made.
    assert_int_equal (s_resolve (fx, "x/y/file", false), 0);
    s_path (dir, fx->root, "x");
    assert_false (s_exists (dir));
    s_path (expected, fx->root, "x/y/file");
    assert_string_equal (fx->resolved, expected);
}

static void
test_directory_symlink_inside_root_is_followed (void **state)
{
    fixture_t *fx = *state;
    char real_dir [PATH_MAX], link [PATH_MAX], expected [PATH_MAX];
    s_path (real_dir, fx->root, "real-dir");
    s_path (link, fx->root, "alias");
    assert_int_equal (mkdir (real_dir, 0755), 0);
    assert_int_equal (symlink (real_dir, link), 0);
    assert_int_equal (s_resolve (fx, "alias/file", true), 0);
    s_path (expected, real_dir, "file");
    assert_string_equal (fx->resolved, expected);
}

static void
test_bad_paths (void **state)
{
    fixture_t *fx = *state;
    assert_int_equal (s_resolve (fx, "", true), -1);
    assert_int_equal (s_resolve (fx, "dir/", true), -1);
    assert_non_null (strstr (fx->err, "dir/"));
    assert_int_equal (s_resolve (fx, "/", true), -1);

    //  A file where a directory should be.
    char file [PATH_MAX];
    s_path (file, fx->root, "plain");
    FILE *handle = fopen (file, "w");
    assert_non_null (handle);
    fclose (handle);
    assert_int_equal (s_resolve (fx, "plain/file", true), -1);
    assert_non_null (strstr (fx->err, "plain/file"));
}

static void
test_roots (void **state)
{
    fixture_t *fx = *state;
    char err [1024];
    assert_int_equal (confine_root_count (fx->confine), 1);
    assert_string_equal (confine_root (fx->confine, 0), fx->root);
    assert_null (confine_root (fx->confine, 1));

    //  A missing root and a file are refused, naming them.
    char missing [PATH_MAX];
    s_path (missing, fx->base, "missing");
    assert_int_equal (confine_add_root (fx->confine, missing, err, sizeof (err)), -1);
    assert_non_null (strstr (err, missing));
    char file [PATH_MAX];
    s_path (file, fx->base, "a-file");
    FILE *handle = fopen (file, "w");
    assert_non_null (handle);
    fclose (handle);
    assert_int_equal (confine_add_root (fx->confine, file, err, sizeof (err)), -1);
    assert_non_null (strstr (err, "not a directory"));

    //  A second root, given through a symlink, is kept resolved, and
    //  paths under it are accepted.
    char alias [PATH_MAX];
    s_path (alias, fx->base, "root2-alias");
    assert_int_equal (symlink (fx->root2, alias), 0);
    assert_int_equal (confine_add_root (fx->confine, alias, err, sizeof (err)), 0);
    assert_string_equal (confine_root (fx->confine, 1), fx->root2);
    char path [PATH_MAX];
    s_path (path, fx->root2, "file");
    assert_int_equal (s_resolve (fx, path, true), 0);
    assert_string_equal (fx->resolved, path);

    //  Relative paths still go under the first root.
    assert_int_equal (s_resolve (fx, "rel", true), 0);
    s_path (path, fx->root, "rel");
    assert_string_equal (fx->resolved, path);
}

static void
test_no_roots_refuses_everything (void **state)
{
    (void) state;
    confine_t *confine = confine_new ();
    char resolved [PATH_MAX], err [256];
    assert_int_equal (confine_resolve (confine, "/srv/iofleet-x", NULL, resolved, sizeof (resolved),
                                       err, sizeof (err)), -1);
    assert_non_null (strstr (err, "/srv/iofleet-x"));
    confine_destroy (&confine);
    confine_destroy (&confine);         //  safe on NULL
}

//  Swap base/root/NAME (a real directory) for a symlink to outside, the
//  race a hostile local user would try; the original moves to NAME-orig.
static void
s_swap_for_link (fixture_t *fx, const char *name)
{
    char dir [PATH_MAX], moved [PATH_MAX];
    s_path (dir, fx->root, name);
    snprintf (moved, sizeof (moved), "%s-orig", dir);
    assert_int_equal (rename (dir, moved), 0);
    assert_int_equal (symlink (fx->outside, dir), 0);
}

//  A directory swapped for a link after the resolve: the open fails
//  (ELOOP) instead of following it out, and nothing lands outside.
static void
test_open_refuses_directory_swapped_after_resolve (void **state)
{
    fixture_t *fx = *state;
    assert_int_equal (s_resolve (fx, "sub/deeper/file", true), 0);
    s_swap_for_link (fx, "sub");
    errno = 0;
    int fd = confine_open (fx->resolved, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    assert_int_equal (fd, -1);
    assert_int_equal (errno, ELOOP);
    assert_int_equal (scratch_entries (fx->outside), 0);
}

//  The same for the directories confine_resolve makes: a link planted
//  where a directory is to be made is refused, and nothing is made
//  through it.
static void
test_open_refuses_symlinked_component (void **state)
{
    fixture_t *fx = *state;
    char path [PATH_MAX];
    s_path (path, fx->root, "link-out/x");
    assert_int_equal (confine_open (path, O_RDONLY | O_CLOEXEC, 0), -1);
    assert_int_equal (errno, ELOOP);
    s_path (path, fx->root, "file-link");
    assert_int_equal (confine_open (path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644), -1);
    assert_int_equal (errno, ELOOP);
    assert_int_equal (confine_open ("relative/path", O_RDONLY, 0), -1);
    assert_int_equal (errno, EINVAL);
    //  A plain path under the root opens.
    s_path (path, fx->root, "plain");
    int fd = confine_open (path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    assert_true (fd >= 0);
    close (fd);
    assert_int_equal (scratch_entries (fx->outside), 0);
}

//  The write workload's prepare opens the file; a directory swapped for
//  a link between prepare and start changes nothing: the bytes land in
//  the original directory, none outside.
//  A write stream of 64 KiB to job/file, as the job would prepare it:
//  spec filled in, the path resolved, the workload's prepare done.
static workload_stream_t *
s_prepared_write (fixture_t *fx, jobspec_t *spec)
{
    jobspec_defaults (spec);
    spec->workload = WORKLOAD_WRITE;
    spec->size_bytes = 64 * 1024;
    spec->bs_bytes = 4096;
    spec->fsync_mode = FSYNC_NONE;
    snprintf (spec->path, sizeof (spec->path), "job/file");

    workload_stream_t *ws = calloc (1, sizeof (workload_stream_t));
    assert_non_null (ws);
    ws->spec = spec;
    assert_int_equal (s_resolve (fx, spec->path, true), 0);
    snprintf (ws->path, sizeof (ws->path), "%s", fx->resolved);
    char err [512] = "";
    assert_int_equal (workload_lookup (WORKLOAD_WRITE)->prepare (ws, err, sizeof (err)), 0);
    return ws;
}

static void
test_write_prepared_then_directory_swapped (void **state)
{
    fixture_t *fx = *state;
    const workload_ops_t *ops = workload_lookup (WORKLOAD_WRITE);
    assert_non_null (ops);
    jobspec_t spec;
    workload_stream_t *ws = s_prepared_write (fx, &spec);

    s_swap_for_link (fx, "job");
    assert_int_equal (ops->run (ws, 0), STREAM_DONE);
    ops->cleanup (ws, false);

    char written [PATH_MAX];
    s_path (written, fx->root, "job-orig/file");
    struct stat st;
    assert_int_equal (stat (written, &st), 0);
    assert_int_equal (st.st_size, 64 * 1024);
    assert_int_equal (scratch_entries (fx->outside), 0);
    free (ws);
}

//  Removal goes through the directory the file was created in: after
//  job/ is moved away and replaced by a link to outside, which holds a
//  file of the same name, cleanup removes the file in the moved
//  directory and leaves the one outside alone.
static void
test_cleanup_after_directory_swapped (void **state)
{
    fixture_t *fx = *state;
    const workload_ops_t *ops = workload_lookup (WORKLOAD_WRITE);
    jobspec_t spec;
    workload_stream_t *ws = s_prepared_write (fx, &spec);

    s_swap_for_link (fx, "job");
    char decoy [PATH_MAX];
    s_path (decoy, fx->outside, "file");
    int fd = open (decoy, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    assert_true (fd >= 0);
    close (fd);
    ops->cleanup (ws, true);

    char written [PATH_MAX];
    s_path (written, fx->root, "job-orig/file");
    assert_false (s_exists (written));
    assert_true (s_exists (decoy));
    free (ws);
}

//  A file with another hard link is refused before anything is written
//  to it, and stays as it was.
static void
test_hard_link_refused (void **state)
{
    fixture_t *fx = *state;
    char target [PATH_MAX], linked [PATH_MAX];
    s_path (target, fx->outside, "precious");
    s_path (linked, fx->root, "hl");
    int fd = open (target, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    assert_true (fd >= 0);
    assert_int_equal (write (fd, "keep", 4), 4);
    close (fd);
    assert_int_equal (link (target, linked), 0);

    const workload_ops_t *ops = workload_lookup (WORKLOAD_WRITE);
    jobspec_t spec;
    jobspec_defaults (&spec);
    spec.workload = WORKLOAD_WRITE;
    spec.size_bytes = 4096;
    workload_stream_t *ws = calloc (1, sizeof (workload_stream_t));
    assert_non_null (ws);
    ws->spec = &spec;
    snprintf (ws->path, sizeof (ws->path), "%s", linked);
    snprintf (ws->shown, sizeof (ws->shown), "%s", linked);
    char err [512] = "";
    assert_int_equal (ops->prepare (ws, err, sizeof (err)), -1);
    ops->cleanup (ws, true);
    char expected [PATH_MAX + 64];
    snprintf (expected, sizeof (expected), "open(%s): has 2 hard links; refusing to write through it",
              linked);
    assert_string_equal (err, expected);
    struct stat st;
    assert_int_equal (stat (target, &st), 0);
    assert_int_equal (st.st_size, 4);
    assert_int_equal (st.st_nlink, 2);
    free (ws);
}

//  nfs:// sources only from servers allowed by --allow-nfs.
static void
test_nfs_servers_allowed (void **state)
{
    (void) state;
    confine_t *confine = confine_new ();
    char err [256];
    //  None allowed: none read.
    assert_int_equal (confine_check_nfs (confine, "nfs://10.0.0.5/export/f", err, sizeof err), -1);
    assert_string_equal (err, "nfs server 10.0.0.5 is not allowed on this agent: start it with "
                              "--allow-nfs 10.0.0.5 (or '*')");
    assert_int_equal (confine_allow_nfs (confine, "10.0.0.5", err, sizeof err), 0);
    assert_int_equal (confine_allow_nfs (confine, "fd00::1", err, sizeof err), 0);
    assert_int_equal (confine_check_nfs (confine, "nfs://10.0.0.5/export/f", err, sizeof err), 0);
    assert_int_equal (confine_check_nfs (confine, "nfs://10.0.0.5:2049/export/f", err, sizeof err), 0);
    assert_int_equal (confine_check_nfs (confine, "nfs://10.0.0.5/f?version=4", err, sizeof err), 0);
    assert_int_equal (confine_check_nfs (confine, "nfs://[fd00::1]/export/f", err, sizeof err), 0);
    //  A prefix of an allowed name is another name.
    assert_int_equal (confine_check_nfs (confine, "nfs://10.0.0.50/export/f", err, sizeof err), -1);
    assert_int_equal (confine_check_nfs (confine, "nfs://10.0.0/export/f", err, sizeof err), -1);
    assert_int_equal (confine_allow_nfs (confine, "a/b", err, sizeof err), -1);
    assert_int_equal (confine_allow_nfs (confine, "", err, sizeof err), -1);
    assert_int_equal (confine_allow_nfs (confine, "*", err, sizeof err), 0);
    assert_int_equal (confine_check_nfs (confine, "nfs://anywhere/export/f", err, sizeof err), 0);
    confine_destroy (&confine);
}

//  Paths in messages: short ones as they are, long ones cut in the
//  middle, never inside a UTF-8 character.
static void
test_shorten_keeps_head_and_tail (void **state)
{
    (void) state;
    char shown [CONFINE_SHOWN_MAX];
    assert_string_equal (confine_shorten ("/data/dd1", shown, sizeof (shown)), "/data/dd1");

    char path [1001];
    memset (path, 'a', 500);
    memset (path + 500, 'z', 490);
    memcpy (path + 990, "/file.1234", 11);
    const char *text = confine_shorten (path, shown, sizeof (shown));
    assert_ptr_equal (text, shown);
    assert_int_equal (strlen (shown), CONFINE_SHOWN_MAX - 1);
    assert_int_equal (strncmp (shown, "aaaa", 4), 0);
    assert_non_null (strstr (shown, "a...z"));
    assert_int_equal (strcmp (shown + strlen (shown) - 10, "/file.1234"), 0);

    //  "é" is two bytes: a cut lands before or after it, not inside.
    char accents [1001] = "";
    for (int index = 0; index < 400; index++)
        strcat (accents, "\xc3\xa9");
    confine_shorten (accents, shown, sizeof (shown));
    const char *dots = strstr (shown, "...");
    assert_non_null (dots);
    assert_int_equal ((dots - shown) % 2, 0);
    assert_int_equal (strlen (dots + 3) % 2, 0);
    assert_true ((unsigned char) dots [3] == 0xc3);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test_setup_teardown (test_relative_path_goes_under_first_root, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_absolute_path_inside, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_absolute_path_outside, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_dotdot_refused, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_symlinked_directory_leading_out, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_symlinked_file_refused, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_sibling_prefix_is_not_under, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_missing_directories_created, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_directory_symlink_inside_root_is_followed, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_bad_paths, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_roots, s_setup, s_teardown),
        cmocka_unit_test (test_no_roots_refuses_everything),
        cmocka_unit_test_setup_teardown (test_open_refuses_directory_swapped_after_resolve, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_open_refuses_symlinked_component, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_write_prepared_then_directory_swapped, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_cleanup_after_directory_swapped, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_hard_link_refused, s_setup, s_teardown),
        cmocka_unit_test (test_nfs_servers_allowed),
        cmocka_unit_test (test_shorten_keeps_head_and_tail),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
