/*  tests/unit/agent_preflight.c: PREFLIGHT's answer is PREPARE's
    admission: what preflight_check refuses, job_new refuses with the
    same words; what prepare would make (a missing directory) it accepts
    and does not make; the jobs of one test are held together (memory),
    and a test asked again (first) starts afresh.
*/
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch.h"

#include "../../agent/confine.h"
#include "../../agent/job.h"
#include "../../agent/preflight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB ((uint64_t) 1 << 20)

typedef struct {
    char root [64];                 //  the agent's root, a scratch directory
    confine_t *confine;             //  with it as its one root
    preflight_t *preflight;         //  bound: 4 MiB per test
} fixture_t;

static int
s_setup (void **state)
{
    fixture_t *fx = calloc (1, sizeof (fixture_t));
    assert_non_null (fx);
    snprintf (fx->root, sizeof fx->root, "/tmp/iofleet-preflight.XXXXXX");
    assert_non_null (mkdtemp (fx->root));
    fx->confine = confine_new ();
    char err [256];
    assert_int_equal (confine_add_root (fx->confine, fx->root, err, sizeof err), 0);
    fx->preflight = preflight_new (fx->confine, 4 * MIB);
    assert_non_null (fx->preflight);
    *state = fx;
    return 0;
}

static int
s_teardown (void **state)
{
    fixture_t *fx = *state;
    preflight_destroy (&fx->preflight);
    assert_null (fx->preflight);
    confine_destroy (&fx->confine);
    scratch_remove (fx->root);
    free (fx);
    return 0;
}

//  A write job of streams x 1 MiB blocks to path.
static jobspec_t
s_write_spec (const char *name, const char *path, uint64_t streams)
{
    jobspec_t spec;
    jobspec_defaults (&spec);
    snprintf (spec.name, sizeof spec.name, "%s", name);
    snprintf (spec.test, sizeof spec.test, "t");
    spec.workload = WORKLOAD_WRITE;
    snprintf (spec.path, sizeof spec.path, "%s", path);
    spec.size_bytes = MIB;
    spec.bs_bytes = MIB;
    spec.streams = streams;
    return spec;
}

//  Ask about spec as job job_id of test test_id.
static msg_preflight_reply_t
s_ask (fixture_t *fx, uint32_t test_id, uint32_t job_id, bool first, const jobspec_t *spec)
{
    msg_preflight_t ask = { .test_id = test_id, .job_id = job_id, .first = first, .spec = *spec };
    msg_preflight_reply_t reply;
    preflight_check (fx->preflight, &ask, &reply);
    assert_int_equal (reply.test_id, test_id);
    assert_int_equal (reply.job_id, job_id);
    return reply;
}

//  job_new refuses spec, in a test of its own, with text.
static void
s_prepare_refuses (fixture_t *fx, const jobspec_t *spec, const char *text)
{
    ledger_t *ledger = ledger_new (4 * MIB);
    char err [MSG_TEXT_MAX + 1];
    assert_null (job_new (1, 0, spec, fx->confine, ledger, -1, err, sizeof err));
    assert_string_equal (err, text);
    ledger_clear (ledger);
    ledger_destroy (&ledger);
}

static void
test_outside_the_roots (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = s_write_spec ("dd1", "/data/iofleet/dd1", 1);
    msg_preflight_reply_t reply = s_ask (fx, 0, 0, true, &spec);
    assert_string_equal (reply.problem, "roots");
    assert_string_equal (reply.subject, "/data/iofleet/dd1");
    assert_non_null (strstr (reply.text, "is outside the agent's roots"));
    s_prepare_refuses (fx, &spec, reply.text);
}

static void
test_dotdot_and_nfs (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = s_write_spec ("up", "a/../../b", 1);
    msg_preflight_reply_t reply = s_ask (fx, 0, 0, true, &spec);
    assert_string_equal (reply.problem, "path");
    s_prepare_refuses (fx, &spec, reply.text);

    jobspec_defaults (&spec);
    snprintf (spec.name, sizeof spec.name, "net");
    snprintf (spec.test, sizeof spec.test, "t");
    spec.workload = WORKLOAD_COPY;
    snprintf (spec.src, sizeof spec.src, "nfs://192.0.2.7/export/f");
    snprintf (spec.dst, sizeof spec.dst, "out");
    reply = s_ask (fx, 1, 0, true, &spec);
    assert_string_equal (reply.problem, "nfs");
    assert_string_equal (reply.subject, "nfs://192.0.2.7/export/f");
    s_prepare_refuses (fx, &spec, reply.text);
}

//  A directory prepare would make is no problem, and is not made.
static void
test_missing_directory_accepted_not_made (void **state)
{
    fixture_t *fx = *state;
    jobspec_t spec = s_write_spec ("deep", "a/b/c/f", 2);
    msg_preflight_reply_t reply = s_ask (fx, 0, 0, true, &spec);
    assert_string_equal (reply.problem, "");
    assert_string_equal (reply.text, "");
    assert_int_equal (scratch_entries (fx->root), 0);
}

//  The jobs of one test hold memory together; another test, or the same
//  asked again as first, starts afresh; a refused job holds nothing.
static void
test_memory_held_per_test (void **state)
{
    fixture_t *fx = *state;
    jobspec_t three = s_write_spec ("three", "x", 3);
    jobspec_t two = s_write_spec ("two", "y", 2);
    assert_string_equal (s_ask (fx, 0, 0, true, &three).problem, "");
    msg_preflight_reply_t reply = s_ask (fx, 0, 1, false, &two);
    assert_string_equal (reply.problem, "memory");
    assert_non_null (strstr (reply.text, "job two: its streams need"));
    //  Another test: two alone fits.
    assert_string_equal (s_ask (fx, 1, 0, true, &two).problem, "");
    //  The first test asked again (another run) is not held against
    //  itself.
    assert_string_equal (s_ask (fx, 0, 0, true, &three).problem, "");
    //  A job over the bound alone is refused as prepare refuses it.
    jobspec_t five = s_write_spec ("five", "z", 5);
    reply = s_ask (fx, 2, 0, true, &five);
    assert_string_equal (reply.problem, "memory");
    s_prepare_refuses (fx, &five, reply.text);
    jobspec_t one = s_write_spec ("one", "w", 1);
    assert_string_equal (s_ask (fx, 2, 1, false, &one).problem, "");
}

//  A directory the agent cannot write, where a file must be made.
static void
test_unwritable_directory (void **state)
{
    fixture_t *fx = *state;
    char dir [128];
    snprintf (dir, sizeof dir, "%s/ro", fx->root);
    assert_int_equal (mkdir (dir, 0555), 0);
    jobspec_t spec = s_write_spec ("ro", "ro/sub/f", 1);
    msg_preflight_reply_t reply = s_ask (fx, 0, 0, true, &spec);
    if (geteuid () == 0) {
        //  root writes anywhere: nothing is certain to fail.
        assert_string_equal (reply.problem, "");
        return;
    }
    assert_string_equal (reply.problem, "writable");
    s_prepare_refuses (fx, &spec, reply.text);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test_setup_teardown (test_outside_the_roots, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_dotdot_and_nfs, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_missing_directory_accepted_not_made,
                                         s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_memory_held_per_test, s_setup, s_teardown),
        cmocka_unit_test_setup_teardown (test_unwritable_directory, s_setup, s_teardown),
    };
    return cmocka_run_group_tests (tests, NULL, NULL);
}
