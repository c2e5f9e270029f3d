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

//  Append name to a list of names (borrowed), each once.
static void
s_add_name (zlistx_t *names, const char *name)
{
    for (const char *seen = zlistx_first (names); seen; seen = zlistx_next (names))
        if (streq (seen, name))
            return;
    zlistx_add_end (names, (void *) name);
}

//  Print names as "a, b, c and 4 more", made printable.
static void
s_print_names (zlistx_t *names, FILE *out)
{
    size_t count = zlistx_size (names), shown = 0;
    char safe [JOB_NAME_MAX * PRINTABLE_GROWTH + 1];
    for (const char *name = zlistx_first (names); name && shown < S_NAMES_SHOWN;
         name = zlistx_next (names), shown++)
        fprintf (out, "%s%s", shown? ", ": "", printable (name, safe, sizeof safe));
    if (count > shown)
        fprintf (out, " and %zu more", count - shown);
}

//  Print every refusal, grouped. Returns the number of refused jobs.
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
    bool *printed = calloc (self->count, sizeof (bool));
    zlistx_t *agents = zlistx_new ();
    zlistx_t *jobs = zlistx_new ();
    if (!printed || !agents || !jobs) {
        free (printed);
        zlistx_destroy (&agents);
        zlistx_destroy (&jobs);
        return refused;
    }
    int group = 0;
    for (size_t i = 0; i < self->count; i++) {
        s_asked_t *first = &self->asked [i];
        if (printed [i] || !first->answered || !first->reply.problem [0])
            continue;
        char key [MSG_TEXT_MAX + JOB_PATH_MAX + 32], fix [2 * JOB_PATH_MAX + 256];
        const char *title;
        s_group_of (&first->reply, key, sizeof key, fix, sizeof fix, &title);
        zlistx_purge (agents);
        zlistx_purge (jobs);
        size_t members = 0;
        for (size_t k = i; k < self->count; k++) {
            s_asked_t *other = &self->asked [k];
            if (printed [k] || !other->answered || !other->reply.problem [0])
                continue;
            char other_key [sizeof key], other_fix [sizeof fix];
            const char *other_title;
            s_group_of (&other->reply, other_key, sizeof other_key, other_fix,
                        sizeof other_fix, &other_title);
            if (!streq (key, other_key))
                continue;
            printed [k] = true;
            members++;
            s_add_name (agents, session_name (other->session));
            s_add_name (jobs, other->job->name);
        }
        fprintf (out, "iofleet: preflight: %d. %s: %zu job%s (", ++group, title,
                 zlistx_size (jobs), zlistx_size (jobs) == 1? "": "s");
        s_print_names (jobs, out);
        fprintf (out, ") on %zu agent%s (", zlistx_size (agents),
                 zlistx_size (agents) == 1? "": "s");
        s_print_names (agents, out);
        //  The agent's text and the paths in the fix come from the wire
        //  and the scenario: printed escaped.
        char safe_text [MSG_TEXT_MAX * PRINTABLE_GROWTH + 1];
        char safe_fix [sizeof fix * PRINTABLE_GROWTH + 1];
        fprintf (out, ")\n    %s%s\n    fix: %s\n",
                 printable (first->reply.text, safe_text, sizeof safe_text),
                 members > 1? " (and the like for the others)": "",
                 printable (fix, safe_fix, sizeof safe_fix));
    }
    free (printed);
    zlistx_destroy (&agents);
    zlistx_destroy (&jobs);
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
