/*  tests/unit/coord_group.c: groups of agents, their ranges, endpoint
    patterns and path templates, a job on a group made one job per member,
    and the --hosts file; every mistake said at file:line: key.
*/
#include "../../coordinator/scenario/group.h"
#include "../../coordinator/scenario/scenario.h"
#include "scratch.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ERR_MAX 1024

//  The scratch directory, made by the group setup.
static char s_dir [256];

//  Write text into the scratch directory as name; returns its path (a
//  static buffer, valid until the next call).
static const char *
s_write (const char *name, const char *text)
{
    const char *path = scratch_write (s_dir, name, text);
    assert_non_null (path);
    return path;
}

//  The members of text, which must parse into count of them.
static group_member_t *
s_members_ok (const char *text, ssize_t count)
{
    group_member_t *members = NULL;
    char reason [256] = "";
    ssize_t got = group_members (text, &members, reason, sizeof reason);
    if (got != count)
        fail_msg ("'%s': expected %zd members, got %zd (%s)", text, count, got, reason);
    return members;
}

//  text must not parse, the reason containing part.
static void
s_members_bad (const char *text, const char *part)
{
    group_member_t *members = NULL;
    char reason [256] = "";
    ssize_t got = group_members (text, &members, reason, sizeof reason);
    free (members);
    if (got >= 0)
        fail_msg ("'%s': expected an error, got %zd members", text, got);
    if (!strstr (reason, part))
        fail_msg ("'%s': expected '%s' in the reason, got '%s'", text, part, reason);
}

//  Load text written as name, which must succeed.
static scenario_t *
s_load_ok (const char *name, const char *text)
{
    char err [ERR_MAX] = "";
    scenario_t *scenario = scenario_load (s_write (name, text), err, sizeof err);
    if (!scenario)
        fail_msg ("%s", err);
    return scenario;
}

//  Load text, which must fail with "path:line: key: ...part...".
static void
s_load_bad (const char *text, int line, const char *key, const char *part)
{
    char err [ERR_MAX] = "";
    const char *path = s_write ("bad.ini", text);
    scenario_t *scenario = scenario_load (path, err, sizeof err);
    if (!scenario) {
        char prefix [ERR_MAX];
        if (key)
            snprintf (prefix, sizeof prefix, "%s:%d: %s: ", path, line, key);
        else
            snprintf (prefix, sizeof prefix, "%s:%d: ", path, line);
        if (strncmp (err, prefix, strlen (prefix)) || !strstr (err, part))
            fail_msg ("expected '%s...%s', got '%s'", prefix, part, err);
        return;
    }
    //  Some mistakes are the checks' to find.
    int rc = scenario_check (scenario, err, sizeof err);
    scenario_destroy (&scenario);
    char prefix [ERR_MAX];
    snprintf (prefix, sizeof prefix, "%s:%d: %s: ", path, line, key);
    if (rc == 0 || strncmp (err, prefix, strlen (prefix)) || !strstr (err, part))
        fail_msg ("expected '%s...%s', got '%s'", prefix, part, rc? err: "no error");
}

//  --------------------------------------------------------------------

static void
test_ranges_and_lists (void **state)
{
    (void) state;
    group_member_t *members = s_members_ok ("c[01-64]", 64);
    assert_string_equal (members [0].name, "c01");
    assert_string_equal (members [0].number, "01");
    assert_string_equal (members [63].name, "c64");
    free (members);

    members = s_members_ok ("c[1-3], nfs1 r[8-10]n,x[001-002,9]", 10);
    const char *names [] = {
        "c1", "c2", "c3", "nfs1", "r8n", "r9n", "r10n", "x001", "x002", "x9"
    };
    for (size_t i = 0; i < 10; i++)
        assert_string_equal (members [i].name, names [i]);
    assert_string_equal (members [3].number, "");
    assert_string_equal (members [6].number, "10");
    free (members);

    //  Up to the bound, and no further.
    free (s_members_ok ("c[1-4096]", GROUP_MEMBERS_MAX));
    s_members_bad ("c[1-4097]", "more than 4096 members");
    s_members_bad ("c[1-4000], d[1-97]", "more than 4096 members");
}

static void
test_bad_ranges (void **state)
{
    (void) state;
    s_members_bad ("c[5-1]", "'5-1' goes down");
    s_members_bad ("c[01-", "needs its closing ']'");
    s_members_bad ("c[]", "an empty range");
    s_members_bad ("c[1-2]x[3-4]", "one range per name");
    s_members_bad ("c[1-[2]]", "one range per name");
    s_members_bad ("c]", "a ']' without its '['");
    s_members_bad ("c[a-b]", "'a-b' is not a span");
    s_members_bad ("c[1-2-3]", "is not a span");
    s_members_bad ("c[1234567890]", "is not a span");
    s_members_bad ("c1, c1", "c1 is named twice");
    s_members_bad ("c[1-3], c2", "c2 is named twice");
    s_members_bad ("  ,, ", "names no agent");
    s_members_bad ("bad/name", "not a valid name");
    s_members_bad ("c[1-2]/x", "not a valid name");
}

static void
test_endpoints (void **state)
{
    (void) state;
    const group_member_t c07 = { .name = "c07", .number = "07" };
    const group_member_t nfs = { .name = "nfs1", .number = "" };
    char endpoint [256], reason [256];
    assert_int_equal (group_endpoint ("tcp://{name}.lab:7654", &c07, endpoint, sizeof endpoint,
                                      reason, sizeof reason), 0);
    assert_string_equal (endpoint, "tcp://c07.lab:7654");
    assert_int_equal (group_endpoint ("tcp://10.1.{n}.1:{n+20000}", &c07, endpoint,
                                      sizeof endpoint, reason, sizeof reason), 0);
    assert_string_equal (endpoint, "tcp://10.1.07.1:20007");
    assert_int_equal (group_endpoint ("tcp://h:{n}", &nfs, endpoint, sizeof endpoint,
                                      reason, sizeof reason), -1);
    assert_non_null (strstr (reason, "member nfs1 has no number for {n}"));
    assert_int_equal (group_endpoint ("tcp://{host}:1", &c07, endpoint, sizeof endpoint,
                                      reason, sizeof reason), -1);
    assert_non_null (strstr (reason, "'{host}' is not a placeholder"));
    assert_int_equal (group_endpoint ("tcp://{name:1", &c07, endpoint, sizeof endpoint,
                                      reason, sizeof reason), -1);
    assert_non_null (strstr (reason, "a '{' without its '}'"));
    assert_int_equal (group_endpoint ("tcp://{name}}:1", &c07, endpoint, sizeof endpoint,
                                      reason, sizeof reason), -1);
    assert_non_null (strstr (reason, "a '}' without its '{'"));
    assert_int_equal (group_endpoint ("tcp://{name}{name}{name}:1", &c07, endpoint, 16,
                                      reason, sizeof reason), -1);
    assert_non_null (strstr (reason, "longer than 15 characters"));

    assert_int_equal (group_check_pattern ("tcp://{name}.lab:7654", reason, sizeof reason), 0);
    assert_int_equal (group_check_pattern ("tcp://c.lab:7654", reason, sizeof reason), -1);
    assert_non_null (strstr (reason, "every member would get the same endpoint"));
    assert_int_equal (group_check_pattern ("tcp://{name}", reason, sizeof reason), -1);
    assert_non_null (strstr (reason, "needs a host and a port"));
    assert_int_equal (group_check_pattern ("tcp://h:{n+x}", reason, sizeof reason), -1);
    assert_non_null (strstr (reason, "'{n+x}' is not a placeholder"));
}

static void
test_paths (void **state)
{
    (void) state;
    char out [32], reason [256];
    assert_int_equal (group_path ("/mnt/{agent}/dd-{agent}", "c01", out, sizeof out,
                                  reason, sizeof reason), 0);
    assert_string_equal (out, "/mnt/c01/dd-c01");
    assert_int_equal (group_path ("{agen}t{", "c01", out, sizeof out, reason, sizeof reason), 0);
    assert_string_equal (out, "{agen}t{");
    assert_int_equal (group_path ("/a/very/long/path/xx/{agent}", "c0123456789", out,
                                  sizeof out, reason, sizeof reason), -1);
    assert_non_null (strstr (reason, "longer than 31 characters"));
}

//  64 clients, one job: 64 jobs in one test, each on its member, its path
//  its own, its options' lines the template's.
static void
test_job_on_a_group (void **state)
{
    (void) state;
    char err [ERR_MAX] = "";
    const char *text =
        "[group clients]\n"                                 //  1
        "agents = c[01-64]\n"                               //  2
        "endpoint = tcp://127.0.0.1:{n+20000}\n"            //  3
        "[agent c02]\n"                                     //  4
        "endpoint = tcp://192.0.2.2:7654\n"                 //  5
        "[job dd]\n"                                        //  6
        "agent = clients\n"                                 //  7
        "path = shared/dd-{agent}\n"                        //  8
        "size = 1M\n"                                       //  9
        "[job alone]\n"                                     //  10
        "test = dd\n"                                       //  11
        "agent = c05\n"                                     //  12
        "path = {agent}-own\n"                              //  13
        "size = 1M\n";                                      //  14
    scenario_t *scenario = s_load_ok ("group.ini", text);
    assert_int_equal (scenario_check (scenario, err, sizeof err), 0);
    assert_int_equal (scenario->job_count, 65);
    assert_int_equal (scenario->test_count, 1);
    assert_string_equal (scenario->tests [0].name, "dd");
    assert_int_equal (scenario->tests [0].job_count, 65);
    jobspec_t first, last, alone;
    scenario_job_spec (&scenario->jobs [0], &first);
    scenario_job_spec (&scenario->jobs [63], &last);
    scenario_job_spec (&scenario->jobs [64], &alone);
    assert_string_equal (first.name, "dd.c01");
    assert_string_equal (first.agent, "c01");
    assert_string_equal (first.path, "shared/dd-c01");
    assert_string_equal (last.name, "dd.c64");
    assert_string_equal (last.path, "shared/dd-c64");
    assert_string_equal (last.test, "dd");
    assert_int_equal (scenario_key_line (scenario->jobs [63].template, "path"), 8);
    assert_int_equal (scenario_key_line (scenario->jobs [63].template, "size"), 9);
    assert_string_equal (alone.path, "c05-own");
    //  The pattern's endpoints, but an [agent] section's own first.
    assert_string_equal (scenario_agent (scenario, "c01")->endpoint, "tcp://127.0.0.1:20001");
    assert_string_equal (scenario_agent (scenario, "c64")->endpoint, "tcp://127.0.0.1:20064");
    assert_string_equal (scenario_agent (scenario, "c02")->endpoint, "tcp://192.0.2.2:7654");
    assert_int_equal (scenario->group_count, 1);
    assert_int_equal (scenario->groups [0].member_count, 64);
    scenario_destroy (&scenario);
}

//  Every option of got as the table writes it, and expected's.
static void
s_assert_same_spec (const jobspec_t *got, const jobspec_t *expected)
{
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++) {
        char x [JOB_PATH_MAX + 64], y [JOB_PATH_MAX + 64];
        assert_int_equal (opt_format (opt, got, x, sizeof x), 0);
        assert_int_equal (opt_format (opt, expected, y, sizeof y), 0);
        if (strcmp (x, y) != 0)
            fail_msg ("job %s: %s = '%s', expected '%s'", expected->name, opt->name, x, y);
    }
}

//  A member's job put together is the job its member would have if it
//  were written out by hand: named JOB.MEMBER, on the member, {agent}
//  replaced in path, src and dst, every other option the template's (its
//  own keys and the [global] defaults alike).
static void
test_member_spec_as_written (void **state)
{
    (void) state;
    static const char global [] =
        "[global]\ninterval = 250ms\nbs = 16K\nkeep = yes\n";
    static const char fill [] =
        "test = cp\nworkload = fill\nsize = 3M\npattern = random\n";
    static const char copy [] =
        "test = cp\nworkload = copy\nstreams = 2\nfsync = end\nrate = 10M\n";
    char text [8192];
    snprintf (text, sizeof text, "%s[group g]\nagents = c[1-3]\nendpoint = tcp://h:{n}\n"
              "[job src]\nagent = g\npath = /d/{agent}/src\n%s"
              "[job cp]\nagent = g\nsrc = /d/{agent}/src\ndst = /out/cp-{agent}\n%s",
              global, fill, copy);
    char err [ERR_MAX] = "";
    scenario_t *grouped = s_load_ok ("grouped.ini", text);
    //  The same six jobs, one section each.
    size_t used = (size_t) snprintf (text, sizeof text, "%s", global);
    for (int c = 1; c <= 3; c++)
        used += (size_t) snprintf (text + used, sizeof text - used,
                                   "[agent c%d]\nendpoint = tcp://h:%d\n", c, c);
    for (int c = 1; c <= 3; c++)
        used += (size_t) snprintf (text + used, sizeof text - used,
                                   "[job src.c%d]\nagent = c%d\npath = /d/c%d/src\n%s",
                                   c, c, c, fill);
    for (int c = 1; c <= 3; c++)
        used += (size_t) snprintf (text + used, sizeof text - used,
                                   "[job cp.c%d]\nagent = c%d\nsrc = /d/c%d/src\n"
                                   "dst = /out/cp-c%d\n%s", c, c, c, c, copy);
    assert_true (used < sizeof text);
    scenario_t *written = s_load_ok ("written.ini", text);
    assert_int_equal (scenario_check (grouped, err, sizeof err), 0);
    assert_int_equal (grouped->job_count, 6);
    assert_int_equal (written->job_count, 6);
    for (size_t j = 0; j < grouped->job_count; j++) {
        jobspec_t got, expected;
        scenario_job_spec (&grouped->jobs [j], &got);
        scenario_job_spec (&written->jobs [j], &expected);
        s_assert_same_spec (&got, &expected);
    }
    jobspec_t cp2;
    scenario_job_spec (&grouped->jobs [4], &cp2);
    assert_string_equal (cp2.name, "cp.c2");
    assert_string_equal (cp2.agent, "c2");
    assert_string_equal (cp2.src, "/d/c2/src");
    assert_string_equal (cp2.dst, "/out/cp-c2");
    assert_int_equal (cp2.streams, 2);
    assert_int_equal (cp2.interval_ns, 250 * 1000 * 1000);
    //  The members share their template, which keeps {agent}; a member
    //  holds a path of its own only where the template's has {agent}.
    const scenario_job_t *src1 = &grouped->jobs [0], *src3 = &grouped->jobs [2];
    assert_ptr_equal (src1->template, src3->template);
    assert_ptr_equal (src1->template, &grouped->templates [0]);
    assert_string_equal (src1->template->spec.path, "/d/{agent}/src");
    assert_string_equal (src3->path, "/d/c3/src");
    assert_null (src3->src);
    assert_null (src3->dst);
    assert_null (grouped->jobs [5].path);
    assert_int_equal (grouped->template_count, 2);
    scenario_destroy (&written);
    scenario_destroy (&grouped);
}

//  A job on one agent with {agent} in its path is put together the same
//  way; one without it holds nothing but its name and agent.
static void
test_single_job_paths (void **state)
{
    (void) state;
    scenario_t *scenario = s_load_ok ("single.ini",
        "[agent a1]\nendpoint = tcp://h:1\n"
        "[job t]\nagent = a1\npath = /x/{agent}/{agent}.f\nsize = 1M\n"
        "[job u]\nagent = a1\npath = /plain\nsize = 1M\n");
    jobspec_t t, u;
    scenario_job_spec (&scenario->jobs [0], &t);
    scenario_job_spec (&scenario->jobs [1], &u);
    assert_string_equal (t.name, "t");
    assert_string_equal (t.agent, "a1");
    assert_string_equal (t.path, "/x/a1/a1.f");
    assert_string_equal (u.path, "/plain");
    assert_null (scenario->jobs [1].path);
    assert_int_equal (t.size_bytes, 1 << 20);
    scenario_destroy (&scenario);
}

//  What the making of the jobs finds is found at load time, at the line
//  of the option or the job: a path {agent} makes too long, in a group's
//  member or in a single job.
static void
test_template_errors (void **state)
{
    (void) state;
    //  A line holds fewer characters than a path may, so it takes many
    //  {agent} and a long name to pass JOB_PATH_MAX.
    char path [200] = "", name [64];
    for (int i = 0; i < 22; i++)
        strcat (path, "/{agent}");
    memset (name, 'm', 47);
    name [47] = '\0';
    char text [4096];
    snprintf (text, sizeof text, "[group g]\nagents = %s[01-02]\n"
              "endpoint = tcp://h:{n}\n[job dd]\nagent = g\nsize = 1M\npath = %s\n",
              name, path);
    char reason [128];
    snprintf (reason, sizeof reason, "with {agent} as %s01, longer than 1023 characters", name);
    s_load_bad (text, 7, "path", reason);
    snprintf (text, sizeof text, "[agent %s]\nendpoint = tcp://h:1\n[job cp]\n"
              "workload = copy\nagent = %s\nsrc = s\ndst = %s\n", name, name, path);
    snprintf (reason, sizeof reason, "with {agent} as %s, longer than 1023 characters", name);
    s_load_bad (text, 7, "dst", reason);
    //  A short name fits.
    snprintf (text, sizeof text, "[group g]\nagents = c[1-2]\n"
              "endpoint = tcp://h:{n}\n[job dd]\nagent = g\nsize = 1M\npath = %s\n", path);
    scenario_t *scenario = s_load_ok ("fits.ini", text);
    assert_int_equal (strlen (scenario->jobs [1].path), 22 * 3);
    scenario_destroy (&scenario);
}

static void
test_group_errors (void **state)
{
    (void) state;
    const char *job = "[job dd]\nagent = g\npath = p-{agent}\nsize = 1M\n";
    char text [1024];
    snprintf (text, sizeof text, "[group g]\nagents = c[3-1]\n%s", job);
    s_load_bad (text, 2, "agents", "'3-1' goes down");
    snprintf (text, sizeof text, "[group g]\nagents = c[1-2]\nendpoint = tcp://{nam}:1\n%s", job);
    s_load_bad (text, 3, "endpoint", "'{nam}' is not a placeholder");
    snprintf (text, sizeof text, "[group g]\nagents = c[1-2], solo\nendpoint = tcp://h:{n}\n%s",
              job);
    s_load_bad (text, 3, "endpoint", "member solo has no number for {n}");
    snprintf (text, sizeof text, "[group g]\nagents = c[65530-65540]\n"
              "endpoint = tcp://h:{n}\n%s", job);
    s_load_bad (text, 3, "endpoint", "member c65536: 'tcp://h:65536': the port");
    snprintf (text, sizeof text, "[group g]\nendpoint = tcp://{name}:1\n%s", job);
    s_load_bad (text, 1, "agents", "[group g] needs agents =");
    snprintf (text, sizeof text, "[group g]\nagents = a\nagents = b\n%s", job);
    s_load_bad (text, 3, "agents", "given twice (first at line 2)");
    snprintf (text, sizeof text, "[group g]\nagents = a\nsize = 1M\n%s", job);
    s_load_bad (text, 3, "size", "a [group NAME] section takes agents and endpoint");
    snprintf (text, sizeof text, "[agent g]\nendpoint = tcp://h:1\n[group g]\nagents = a\n%s",
              job);
    s_load_bad (text, 3, NULL, "[group g] and [agent g] (line 1) share a name");
    snprintf (text, sizeof text, "[group g]\nagents = c1, h\n[group h]\nagents = x\n%s", job);
    s_load_bad (text, 2, "agents", "member h is the name of a group");
    snprintf (text, sizeof text, "[group g]\nagents = a\n[group g]\nagents = b\n%s", job);
    s_load_bad (text, 3, "[group g]", "defined twice (first at line 1)");
    snprintf (text, sizeof text, "[agent a]\nagents = b\n%s", job);
    s_load_bad (text, 2, "agents", "belongs in a [group NAME] section");
    //  A member's job must have a name of at most 63 characters.
    snprintf (text, sizeof text, "[group g]\nagents = %.60s1\nendpoint = tcp://{name}:1\n"
              "[job dd]\nagent = g\npath = p\nsize = 1M\n",
              "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    s_load_bad (text, 5, "agent", "has a name longer than 63 characters");
    //  JOB.MEMBER taken by another job.
    s_load_bad ("[group g]\nagents = a\nendpoint = tcp://{name}:1\n"
                "[job dd]\nagent = g\npath = p\nsize = 1M\n"
                "[job dd.a]\nagent = a\npath = q\nsize = 1M\n",
                8, NULL, "a job is named dd.a twice (first at line 4)");
    //  A member without any endpoint is the checks' to find, at agents.
    s_load_bad ("[group g]\nagents = a, b\n[agent a]\nendpoint = tcp://h:1\n"
                "[job dd]\nagent = g\npath = p\nsize = 1M\n",
                2, "agents", "member b of [group g] has no endpoint");
}

static void
test_hosts_file (void **state)
{
    (void) state;
    char err [ERR_MAX] = "";
    scenario_t *scenario = s_load_ok ("hosts.ini",
        "[group clients]\nagents = c[1-3]\n[agent c2]\nendpoint = tcp://192.0.2.9:1\n"
        "[job dd]\nagent = clients\npath = dd\nsize = 1M\n");
    //  Without endpoints, the check says so; the hosts file gives them.
    assert_int_equal (scenario_check (scenario, err, sizeof err), -1);
    const char *hosts = s_write ("hosts", "# NAME ENDPOINT\n\nc1 tcp://127.0.0.1:7001\n"
                                 "  c2\ttcp://127.0.0.1:7002   # a comment\n"
                                 "c3 tcp://127.0.0.1:7003\nextra ipc:///run/x\n");
    assert_int_equal (scenario_load_hosts (scenario, hosts, err, sizeof err), 0);
    assert_int_equal (scenario_check (scenario, err, sizeof err), 0);
    assert_string_equal (scenario_agent (scenario, "c1")->endpoint, "tcp://127.0.0.1:7001");
    assert_string_equal (scenario_agent (scenario, "c2")->endpoint, "tcp://127.0.0.1:7002");
    assert_string_equal (scenario_agent (scenario, "extra")->endpoint, "ipc:///run/x");
    scenario_destroy (&scenario);
}

static void
test_hosts_errors (void **state)
{
    (void) state;
    char err [ERR_MAX] = "";
    char path [512];
    snprintf (path, sizeof path, "%s", s_write ("base.ini", "[agent a]\nendpoint = tcp://h:1\n"
                                                "[job j]\nagent = a\npath = p\nsize = 1M\n"));
    struct { const char *text; const char *expected; } cases [] = {
        { "a tcp://h:1\n\nb\n", "hosts:3: expected NAME ENDPOINT" },
        { "a tcp://h:1 extra\n", "hosts:1: expected NAME ENDPOINT" },
        { "a tcp://h\n", "hosts:1: a: 'tcp://h' needs a host and a port" },
        { "b/c tcp://h:1\n", "hosts:1: b/c: 'b/c' is not a valid name" },
        { "a tcp://h:1\n# x\na tcp://h:2\n", "hosts:3: a: given twice (first at line 1)" },
        { "a tcp://h:70000\n", "hosts:1: a: 'tcp://h:70000': the port" },
        { "a tcp://h:7003#port\n", "hosts:1: a: 'tcp://h:7003#port': the port" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases [0]; i++) {
        scenario_t *scenario = scenario_load (path, err, sizeof err);
        assert_non_null (scenario);
        const char *hosts = s_write ("hosts", cases [i].text);
        assert_int_equal (scenario_load_hosts (scenario, hosts, err, sizeof err), -1);
        if (!strstr (err, cases [i].expected))
            fail_msg ("expected '%s', got '%s'", cases [i].expected, err);
        scenario_destroy (&scenario);
    }
    scenario_t *scenario = scenario_load (path, err, sizeof err);
    assert_int_equal (scenario_load_hosts (scenario, s_dir, err, sizeof err), -1);
    assert_non_null (strstr (err, "is a directory, not a hosts file"));
    scenario_destroy (&scenario);
}

static int
s_setup (void **state)
{
    (void) state;
    const char *tmp = getenv ("TMPDIR");
    snprintf (s_dir, sizeof s_dir, "%s/coord_group.XXXXXX", tmp && *tmp? tmp: "/tmp");
    return mkdtemp (s_dir)? 0: -1;
}

static int
s_teardown (void **state)
{
    (void) state;
    return scratch_remove (s_dir);
}

int
main (void)
{
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_ranges_and_lists),
        cmocka_unit_test (test_bad_ranges),
        cmocka_unit_test (test_endpoints),
        cmocka_unit_test (test_paths),
        cmocka_unit_test (test_job_on_a_group),
        cmocka_unit_test (test_member_spec_as_written),
        cmocka_unit_test (test_single_job_paths),
        cmocka_unit_test (test_template_errors),
        cmocka_unit_test (test_group_errors),
        cmocka_unit_test (test_hosts_file),
        cmocka_unit_test (test_hosts_errors),
    };
    return cmocka_run_group_tests (tests, s_setup, s_teardown);
}
