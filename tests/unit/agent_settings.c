/*  tests/unit/agent_settings.c: the agent's settings from a config file
    and flags. Every case runs in a scratch directory with two roots, a/
    and b/, and writes its config file there.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch.h"

#include "../../agent/settings.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//  One case's scratch directory and what settings_parse said.
typedef struct {
    char base [PATH_MAX];           //  scratch directory
    char config [PATH_MAX];         //  base/agent.conf
    char root_a [PATH_MAX];         //  base/a
    char root_b [PATH_MAX];         //  base/b
    settings_t *settings;           //  parsed by s_parse
    agent_config_t agent;           //  its agent configuration
    char err [1024];                //  its error
} fixture_t;

//  Make the scratch directory and its roots.
static int
s_setup (void **state)
{
    fixture_t *self = calloc (1, sizeof (fixture_t));
    assert_non_null (self);
    snprintf (self->base, sizeof (self->base), "/tmp/iofleet-settings.XXXXXX");
    assert_non_null (mkdtemp (self->base));
    snprintf (self->config, sizeof (self->config), "%s/agent.conf", self->base);
    snprintf (self->root_a, sizeof (self->root_a), "%s/a", self->base);
    snprintf (self->root_b, sizeof (self->root_b), "%s/b", self->base);
    assert_int_equal (mkdir (self->root_a, 0700), 0);
    assert_int_equal (mkdir (self->root_b, 0700), 0);
    *state = self;
    return 0;
}

//  Remove it all.
static int
s_teardown (void **state)
{
    fixture_t *self = *state;
    settings_destroy (&self->settings);
    scratch_remove (self->base);
    free (self);
    return 0;
}

//  Write the config file: one line per argument.
static void
s_config (fixture_t *self, const char *line, ...)
{
    FILE *file = fopen (self->config, "w");
    assert_non_null (file);
    va_list args;
    va_start (args, line);
    for (const char *text = line; text; text = va_arg (args, const char *))
        fprintf (file, "%s\n", text);
    va_end (args);
    fclose (file);
}

//  Parse argv (NULL-terminated, after the program name); returns what
//  settings_parse did, and fills self->agent when it is SETTINGS_RUN.
static settings_result_t
s_parse (fixture_t *self, const char *arg, ...)
{
    char *argv [32] = { "iofleet-agent" };
    int argc = 1;
    va_list args;
    va_start (args, arg);
    for (const char *text = arg; text && argc < 31; text = va_arg (args, const char *))
        argv [argc++] = (char *) text;
    va_end (args);
    settings_destroy (&self->settings);
    self->settings = settings_new ();
    assert_non_null (self->settings);
    self->err [0] = 0;
    settings_result_t result = settings_parse (self->settings, argc, argv,
                                               self->err, sizeof (self->err));
    if (result == SETTINGS_RUN)
        settings_agent_config (self->settings, &self->agent);
    return result;
}

//  The file's values arrive; flags override them, and a list given by
//  flags replaces the file's list.
static void
test_flags_override_the_file (void **state)
{
    fixture_t *self = *state;
    char root_a [PATH_MAX + 8], root_b [PATH_MAX + 8];
    snprintf (root_a, sizeof (root_a), "root = %s", self->root_a);
    snprintf (root_b, sizeof (root_b), "root = %s", self->root_b);
    s_config (self, "bind = tcp://127.0.0.1:*", "name = file", root_a, root_b,
              "allow-nfs = nfs1", "insecure = yes", NULL);
    assert_int_equal (s_parse (self, "--config", self->config, NULL), SETTINGS_RUN);
    assert_string_equal (self->agent.bind_endpoint, "tcp://127.0.0.1:*");
    assert_string_equal (self->agent.name, "file");
    assert_int_equal (self->agent.root_count, 2);
    assert_string_equal (self->agent.roots [1], self->root_b);
    assert_int_equal (self->agent.nfs_host_count, 1);
    assert_true (self->agent.insecure);

    assert_int_equal (s_parse (self, "--config", self->config, "--name", "flag",
                               "--root", self->root_b, "--insecure=no",
                               "--bind", "tcp://127.0.0.1:7000", NULL), SETTINGS_RUN);
    assert_string_equal (self->agent.name, "flag");
    assert_string_equal (self->agent.bind_endpoint, "tcp://127.0.0.1:7000");
    assert_int_equal (self->agent.root_count, 1);
    assert_string_equal (self->agent.roots [0], self->root_b);
    assert_int_equal (self->agent.nfs_host_count, 1);      //  not given by flags: the file's
    assert_false (self->agent.insecure);
    assert_int_equal (settings_check (self->settings, self->err, sizeof (self->err)), 0);
}

//  A config line of 1000 characters is read whole (inih's default
//  buffer holds 199).
static void
test_long_line (void **state)
{
    fixture_t *self = *state;
    char root [1000], line [1100];
    int used = snprintf (root, sizeof (root), "%s/", self->root_a);
    memset (root + used, 'r', sizeof (root) - 1 - (size_t) used);
    root [sizeof (root) - 1] = 0;
    snprintf (line, sizeof (line), "root = %s", root);
    s_config (self, "bind = tcp://127.0.0.1:*", line, "name = long", NULL);
    assert_int_equal (s_parse (self, "--config", self->config, NULL), SETTINGS_RUN);
    assert_int_equal (self->agent.root_count, 1);
    assert_string_equal (self->agent.roots [0], root);
    assert_string_equal (self->agent.name, "long");
}

//  Without a file, the flags alone, as before there was a file.
static void
test_flags_alone (void **state)
{
    fixture_t *self = *state;
    assert_int_equal (s_parse (self, "--config", self->config, NULL), SETTINGS_BAD_CONFIG);
    assert_non_null (strstr (self->err, "agent.conf: cannot open"));
    assert_int_equal (s_parse (self, "--bind", "tcp://127.0.0.1:*", "--root", self->root_a,
                               "--root", self->root_b, "--verbose", NULL), SETTINGS_RUN);
    assert_int_equal (self->agent.root_count, 2);
    assert_true (self->agent.verbose);
    assert_null (self->agent.name);
    assert_int_equal (s_parse (self, "--root", self->root_a, NULL), SETTINGS_BAD_USAGE);
    assert_non_null (strstr (self->err, "--bind: tcp://*:7654 is not a loopback address"));
    assert_int_equal (s_parse (self, "--bind", "tcp://127.0.0.1:*", NULL), SETTINGS_BAD_USAGE);
    assert_non_null (strstr (self->err, "--root: at least one root is needed"));
    assert_int_equal (s_parse (self, "--help", NULL), SETTINGS_DONE);
}

//  Mistakes in the file name the file, the line and the key.
static void
test_file_errors (void **state)
{
    fixture_t *self = *state;
    struct {
        const char *line;           //  the third line of the file
        const char *expected;       //  in the error, after "agent.conf:"
    } cases [] = {
        { "nmae = x", "3: nmae: unknown key" },
        { "bind = tcp://127.0.0.1:1", "3: bind: given twice (first at line 1)" },
        { "[agent]", "3: [agent]: the agent's config has no sections" },
        { "config = other.conf", "3: config: only a command-line flag" },
        { "man = yes", "3: man: unknown key" },
        { "verbose = loud", "3: verbose: 'loud' is not yes or no" },
        { "name = a/b", "3: name: 'a/b': use 1 to 63 letters" },
        { "keys", "3: keys: expected KEY = VALUE" },
    };
    char root [PATH_MAX + 8];
    snprintf (root, sizeof (root), "root = %s", self->root_a);
    for (size_t i = 0; i < sizeof (cases) / sizeof (cases [0]); i++) {
        s_config (self, "bind = tcp://127.0.0.1:*", root, cases [i].line, NULL);
        assert_int_equal (s_parse (self, "--config", self->config, NULL), SETTINGS_BAD_CONFIG);
        char expected [PATH_MAX + 128];
        snprintf (expected, sizeof (expected), "%s:%s", self->config, cases [i].expected);
        if (strncmp (self->err, expected, strlen (expected)) != 0)
            fail_msg ("case %zu: got '%s', expected '%s'", i, self->err, expected);
    }
}

//  What needs the system: a missing root and a key others can read.
static void
test_system_checks (void **state)
{
    fixture_t *self = *state;
    char missing [PATH_MAX + 16];
    snprintf (missing, sizeof (missing), "root = %s/none", self->base);
    s_config (self, "bind = tcp://127.0.0.1:*", missing, NULL);
    assert_int_equal (s_parse (self, "--config", self->config, NULL), SETTINGS_RUN);
    assert_int_equal (settings_check (self->settings, self->err, sizeof (self->err)), -1);
    assert_non_null (strstr (self->err, "agent.conf:2: root: root "));
    assert_non_null (strstr (self->err, "No such file or directory"));
    //  A keys directory without a key pair.
    char keys [PATH_MAX + 16];
    snprintf (keys, sizeof (keys), "keys = %s", self->root_b);
    char root [PATH_MAX + 8];
    snprintf (root, sizeof (root), "root = %s", self->root_a);
    s_config (self, "bind = tcp://127.0.0.1:*", root, keys, NULL);
    assert_int_equal (s_parse (self, "--config", self->config, NULL), SETTINGS_RUN);
    assert_int_equal (settings_check (self->settings, self->err, sizeof (self->err)), -1);
    assert_non_null (strstr (self->err, "agent.conf:3: keys: "));
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test_setup_teardown (test_flags_override_the_file, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_flags_alone, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_long_line, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_file_errors, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_system_checks, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
