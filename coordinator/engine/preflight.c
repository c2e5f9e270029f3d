/*  coordinator/engine/preflight.c: the console's preflight; see
    preflight.h.
*/
#include "preflight.h"
#include "../../proto/clock.h"
#include "../../proto/preflight.h"
#include "../../proto/printable.h"
#include "../../proto/workload.h"

#include <czmq.h>
#include <stdlib.h>
#include <string.h>

#define S_NAMES_SHOWN 6             //  names a group lists before "and N more"

//  One job asked about on one agent.
typedef struct {
    session_t *session;             //  the agent asked
    const scenario_job_t *job;      //  the job
    bool answered;                  //  its answer came (or will not)
    msg_preflight_reply_t reply;    //  the answer
} s_asked_t;

//  The whole preflight.
typedef struct {
    s_asked_t *asked;               //  every job of every test, test by test
    size_t *first;                  //  per test, its first entry in asked
    size_t count;                   //  entries in asked
    size_t answered;                //  of them answered
} s_preflight_t;

//  The entry an answer names, or NULL if it names none of session's.
static s_asked_t *
s_entry (s_preflight_t *self, const scenario_t *scenario, session_t *session,
         uint32_t test_id, uint32_t job_id)
{
    if (test_id >= scenario->test_count || job_id >= scenario->tests [test_id].job_count)
        return NULL;
    s_asked_t *asked = &self->asked [self->first [test_id] + job_id];
    return asked->session == session? asked: NULL;
}

//  Take an answer: PREFLIGHT_REPLY, or an ERROR from an agent that does
//  not know PREFLIGHT (all its jobs count as answered, unjudged).
static int
s_on_message (session_t *session, const msg_t *msg, int64_t received_ns, void *arg)
{
    (void) received_ns;
    void **args = arg;
    s_preflight_t *self = args [0];
    const scenario_t *scenario = args [1];
    if (msg->type == MSG_PREFLIGHT_REPLY) {
        const msg_preflight_reply_t *reply = &msg->u.preflight_reply;
        s_asked_t *asked = s_entry (self, scenario, session, reply->test_id, reply->job_id);
        if (asked && !asked->answered) {
            asked->reply = *reply;
            asked->answered = true;
            self->answered++;
        }
    }
    else
    if (msg->type == MSG_ERROR && streq (msg->u.error.code, "unexpected"))
        for (size_t i = 0; i < self->count; i++)
            if (self->asked [i].session == session && !self->asked [i].answered) {
                self->asked [i].answered = true;
                self->answered++;
            }
    return 0;
}

//  The directory of a path as the scenario wrote it ("/data/iofleet" for
//  "/data/iofleet/dd1"), into buf.
static const char *
s_dir_of (const char *path, char *buf, size_t buflen)
{
    snprintf (buf, buflen, "%s", path);
    char *slash = strrchr (buf, '/');
    if (slash == buf)
        slash [1] = '\0';
    else
    if (slash)
        *slash = '\0';
    return buf;
}

//  The server of an nfs:// URL, into buf.
static const char *
s_nfs_host (const char *url, char *buf, size_t buflen)
{
    const char *host = strncmp (url, "nfs://", 6) == 0? url + 6: url;
    size_t length = strcspn (host, "/:?");
    snprintf (buf, buflen, "%.*s", (int) length, host);
    return buf;
}

//  What the group of an answer is (key) and what fixes it (fix), from its
//  problem and subject.
static void
s_group_of (const msg_preflight_reply_t *reply, char *key, size_t keylen, char *fix,
            size_t fixlen, const char **title)
{
    char part [JOB_PATH_MAX + 1];
    const char *problem = reply->problem;
    snprintf (key, keylen, "%s", problem);
    if (streq (problem, PREFLIGHT_ROOTS)) {
        s_dir_of (reply->subject, part, sizeof part);
        *title = "paths outside the agent's roots";
        snprintf (key, keylen, "%s %s", problem, part);
        snprintf (fix, fixlen, "start the agent with --root %s (the packaged agent: add %s to "
                  "the root key of /etc/iofleet/agent.conf and to ReadWritePaths= of its unit, "
                  "systemctl edit iofleet-agent)", part, part);
    }
    else
    if (streq (problem, PREFLIGHT_NFS)) {
        s_nfs_host (reply->subject, part, sizeof part);
        *title = "nfs servers the agent may not read";
        snprintf (key, keylen, "%s %s", problem, part);
        snprintf (fix, fixlen, "start the agent with --allow-nfs %s (the packaged agent: the "
                  "allow-nfs key of /etc/iofleet/agent.conf)", part);
    }
    else
    if (streq (problem, PREFLIGHT_MEMORY)) {
        *title = "more memory than the agent's bound per test";
        snprintf (fix, fixlen, "fewer streams, a smaller bs or iodepth, or start the agent "
                  "with a larger --max-memory (max-memory in /etc/iofleet/agent.conf)");
    }
    else
    if (streq (problem, PREFLIGHT_ENGINE)) {
        *title = "an engine the agent's host refuses";
        snprintf (fix, fixlen, "engine = psync for the job, or a host that allows the engine");
    }
    else
    if (streq (problem, PREFLIGHT_WRITABLE)) {
        *title = "directories the agent cannot write";
        snprintf (key, keylen, "%s %s", problem, reply->subject);
        snprintf (fix, fixlen, "make %s writable for the agent's user (the packaged agent "
                  "runs as iofleet, within ReadWritePaths= of its unit)", reply->subject);
    }
    else
    if (streq (problem, PREFLIGHT_SPACE)) {
        *title = "less free space than the jobs write";
        snprintf (key, keylen, "%s %s", problem, reply->subject);
        snprintf (fix, fixlen, "free space under %s, or a smaller size", reply->subject);
    }
    else {
        *title = "jobs the agent refuses";
        snprintf (key, keylen, "%s %s", problem, reply->text);
        snprintf (fix, fixlen, "change the job in the scenario");
    }
}

//  One group of refusals: one problem, one fix, its agents and jobs.
typedef struct {
    char key [MSG_TEXT_MAX + JOB_PATH_MAX + 32];    //  what makes it one group
    char fix [2 * JOB_PATH_MAX + 256];              //  what to do about it
    const char *title;                              //  what the problem is
    const msg_preflight_reply_t *example;           //  the first refusal's answer
    size_t members;                                 //  refusals in it
    zhashx_t *jobs;                                 //  its jobs' names, each once
    zhashx_t *agents;                               //  its agents' names, each once
    const char *shown_jobs [S_NAMES_SHOWN];         //  the first of them, in order
    const char *shown_agents [S_NAMES_SHOWN];
} s_group_t;

//  Add name to a group's set of names, keeping the first few in order.
static void
s_add_name (zhashx_t *set, const char **shown, const char *name)
{
    size_t count = zhashx_size (set);
    if (zhashx_insert (set, name, (void *) name) == 0 && count < S_NAMES_SHOWN)
        shown [count] = name;
}

//  Print a set's names as "a, b, c and 4 more", made printable.
static void
s_print_names (zhashx_t *set, const char **shown, FILE *out)
{
    size_t count = zhashx_size (set);
    size_t listed = count < S_NAMES_SHOWN? count: S_NAMES_SHOWN;
    char safe [JOB_NAME_MAX * PRINTABLE_GROWTH + 1];
    for (size_t i = 0; i < listed; i++)
        fprintf (out, "%s%s", i? ", ": "", printable (shown [i], safe, sizeof safe));
    if (count > listed)
        fprintf (out, " and %zu more", count - listed);
}

//  Print every refusal, grouped, in the order each group was first met;
//  one pass, a hash of the groups by key. Returns the number of refused
//  jobs.
static long
s_print (s_preflight_t *self, FILE *out)
{
    long refused = 0;
    for (size_t i = 0; i < self->count; i++)
        refused += self->asked [i].answered && self->asked [i].reply.problem [0];
    if (!refused)
        return 0;
    fprintf (out, "iofleet: preflight: the agents would refuse %ld job%s; nothing was started\n",
             refused, refused == 1? "": "s");
    s_group_t *groups = calloc ((size_t) refused, sizeof (s_group_t));
    zhashx_t *by_key = zhashx_new ();
    size_t group_count = 0;
    bool ok = groups && by_key;
    for (size_t i = 0; ok && i < self->count; i++) {
        s_asked_t *asked = &self->asked [i];
        if (!asked->answered || !asked->reply.problem [0])
            continue;
        s_group_t *group = &groups [group_count];
        s_group_of (&asked->reply, group->key, sizeof group->key, group->fix,
                    sizeof group->fix, &group->title);
        s_group_t *found = zhashx_lookup (by_key, group->key);
        if (!found) {
            found = group;
            group_count++;
            found->example = &asked->reply;
            found->jobs = zhashx_new ();
            found->agents = zhashx_new ();
            ok = found->jobs && found->agents && zhashx_insert (by_key, found->key, found) == 0;
            if (!ok)
                break;
        }
        found->members++;
        s_add_name (found->jobs, found->shown_jobs, asked->job->name);
        s_add_name (found->agents, found->shown_agents, session_name (asked->session));
    }
    for (size_t g = 0; ok && g < group_count; g++) {
        s_group_t *group = &groups [g];
        size_t jobs = zhashx_size (group->jobs), agents = zhashx_size (group->agents);
        fprintf (out, "iofleet: preflight: %zu. %s: %zu job%s (", g + 1, group->title, jobs,
                 jobs == 1? "": "s");
        s_print_names (group->jobs, group->shown_jobs, out);
        fprintf (out, ") on %zu agent%s (", agents, agents == 1? "": "s");
        s_print_names (group->agents, group->shown_agents, out);
        //  The agent's text and the paths in the fix come from the wire
        //  and the scenario: printed escaped.
        char safe_text [MSG_TEXT_MAX * PRINTABLE_GROWTH + 1];
        char safe_fix [sizeof group->fix * PRINTABLE_GROWTH + 1];
        fprintf (out, ")\n    %s%s\n    fix: %s\n",
                 printable (group->example->text, safe_text, sizeof safe_text),
                 group->members > 1? " (and the like for the others)": "",
                 printable (group->fix, safe_fix, sizeof safe_fix));
    }
    if (!ok)
        fprintf (out, "iofleet: preflight: out of memory grouping the problems\n");
    for (size_t g = 0; groups && g < group_count; g++) {
        zhashx_destroy (&groups [g].jobs);
        zhashx_destroy (&groups [g].agents);
    }
    free (groups);
    zhashx_destroy (&by_key);
    return refused;
}

long
preflight_fleet (const scenario_t *scenario, fleet_t *fleet, int64_t timeout_ns, FILE *out)
{
    s_preflight_t self = { 0 };
    size_t *asked_test = NULL;
    long rc = -1;
    self.first = calloc (scenario->test_count + 1, sizeof (size_t));
    for (size_t t = 0; t < scenario->test_count; t++)
        self.count += scenario->tests [t].job_count;
    self.asked = calloc (self.count + 1, sizeof (s_asked_t));
    if (!self.first || !self.asked)
        goto done;
    //  Per session, the last test it was asked about (+1, 0 none).
    asked_test = calloc (fleet_size (fleet) + 1, sizeof (size_t));
    if (!asked_test)
        goto done;
    size_t next = 0;
    for (size_t t = 0; t < scenario->test_count; t++) {
        const scenario_test_t *test = &scenario->tests [t];
        self.first [t] = next;
        for (size_t j = 0; j < test->job_count; j++, next++) {
            self.asked [next].job = &scenario->jobs [test->jobs [j]];
            self.asked [next].session = fleet_find (fleet, self.asked [next].job->agent);
        }
        //  Fill jobs first, then the timed ones, as PREPARE sends them: the
        //  agent checks a test's jobs together, in that order.
        for (int wave = 0; wave < 2; wave++)
            for (size_t j = 0; j < test->job_count; j++) {
                s_asked_t *asked = &self.asked [self.first [t] + j];
                bool untimed = !workload_desc (asked->job->template->spec.workload)->timed;
                if (untimed != (wave == 0))
                    continue;
                msg_t ask = { .type = MSG_PREFLIGHT };
                ask.u.preflight.test_id = (uint32_t) t;
                ask.u.preflight.job_id = (uint32_t) j;
                scenario_job_spec (asked->job, &ask.u.preflight.spec);
                size_t index = asked->session? session_index (asked->session): 0;
                ask.u.preflight.first = asked->session && asked_test [index] != t + 1;
                if (asked->session)
                    asked_test [index] = t + 1;
                if (!asked->session || session_state (asked->session) != SESSION_READY
                ||  session_send (asked->session, &ask)) {
                    asked->answered = true;
                    self.answered++;
                }
            }
    }
    int64_t deadline_ns = clock_now_ns () + timeout_ns;
    void *args [2] = { &self, (void *) scenario };
    while (self.answered < self.count && clock_now_ns () < deadline_ns)
        if (fleet_poll (fleet, deadline_ns, s_on_message, args))
            goto done;
    rc = s_print (&self, out);
done:
    free (asked_test);
    free (self.first);
    free (self.asked);
    return rc;
}
