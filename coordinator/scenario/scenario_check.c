/*  coordinator/scenario/scenario_check.c: the checks of a parsed scenario, the
    --agent overrides, and the rules the parser shares (error messages,
    quoting, names, endpoints); see scenario.h and scenario_rules.h.

    The checks run after the whole file is read and the command line has
    had its say, since an [agent] may get its endpoint from --agent. Every
    message about a job's option points at the line the option came from
    (scenario_key_line), not at the job's header.
*/
#include "scenario_rules.h"
#include "../../proto/array.h"
#include "../../proto/inifile.h"
#include "../../proto/printable.h"
#include "../../proto/workload.h"

#include <assert.h>
#include <czmq.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

//  --------------------------------------------------------------------
//  Messages

const char *
scenario_quote (scenario_quote_t *buf, const char *text, size_t len)
{
    return printable_copy (text, len, buf->text, sizeof buf->text);
}

//  "path:line: key: reason" into err, as every INI file of the project
//  says it (proto/inifile.c).
void
scenario_error_va (char *err, size_t errlen, const char *path, int line, const char *key,
                   const char *format, va_list args)
{
    inifile_verror (err, errlen, path, line, key, format, args);
}

//  scenario_error_va with its arguments inline.
void
scenario_error (char *err, size_t errlen, const char *path, int line, const char *key,
                const char *format, ...)
{
    va_list args;
    va_start (args, format);
    scenario_error_va (err, errlen, path, line, key, format, args);
    va_end (args);
}

//  --------------------------------------------------------------------
//  Names and endpoints

int
scenario_check_name (const char *name, size_t len, char *reason, size_t reasonlen)
{
    if (len == 0) {
        snprintf (reason, reasonlen, "a name may not be empty");
        return -1;
    }
    if (len > JOB_NAME_MAX) {
        snprintf (reason, reasonlen, "the name is %zu characters long, longer than %d",
                  len, JOB_NAME_MAX);
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) name [i];
        if (!isalnum (c) && c != '.' && c != '_' && c != '-') {
            scenario_quote_t quoted;
            snprintf (reason, reasonlen,
                      "'%s' is not a valid name: use letters, digits, '.', '_' and '-'",
                      scenario_quote (&quoted, name, len));
            return -1;
        }
    }
    return 0;
}

//  An endpoint to connect to.
int
scenario_check_endpoint (const char *endpoint, char *reason, size_t reasonlen)
{
    size_t len = strlen (endpoint);
    scenario_quote_t quoted;
    scenario_quote (&quoted, endpoint, len);
    if (len == 0) {
        snprintf (reason, reasonlen, "an endpoint may not be empty: use tcp://HOST:PORT");
        return -1;
    }
    if (len > SCENARIO_ENDPOINT_MAX) {
        snprintf (reason, reasonlen, "'%s' is longer than %d characters",
                  quoted.text, SCENARIO_ENDPOINT_MAX);
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        if (isspace ((unsigned char) endpoint [i]) || iscntrl ((unsigned char) endpoint [i])) {
            snprintf (reason, reasonlen, "'%s' contains a space or control character",
                      quoted.text);
            return -1;
        }
    }
    if (strncmp (endpoint, "ipc://", 6) == 0) {
        if (endpoint [6] == 0) {
            snprintf (reason, reasonlen, "ipc:// needs a path after it: ipc://PATH");
            return -1;
        }
        return 0;
    }
    if (strncmp (endpoint, "tcp://", 6) != 0) {
        snprintf (reason, reasonlen,
                  "'%s' is not an endpoint: use tcp://HOST:PORT or ipc://PATH",
                  quoted.text);
        return -1;
    }
    //  The port follows the last colon, so an IPv6 host in brackets works.
    const char *host = endpoint + 6;
    const char *colon = strrchr (host, ':');
    if (!colon || colon == host) {
        snprintf (reason, reasonlen, "'%s' needs a host and a port: tcp://HOST:PORT",
                  quoted.text);
        return -1;
    }
    const char *port = colon + 1;
    size_t digits = strspn (port, "0123456789");
    if (digits == 0 || digits > 5 || port [digits] != 0
    ||  atoi (port) < 1 || atoi (port) > 65535) {
        snprintf (reason, reasonlen, "'%s': the port must be a number from 1 to 65535",
                  quoted.text);
        return -1;
    }
    return 0;
}


//  --------------------------------------------------------------------
//  Agents

//  Agents are found by name through an index, so that a fleet's scenario
//  is not read in time that grows with the square of its agents.
ssize_t
scenario_agent_add (scenario_t *self, const char *name, int line)
{
    const scenario_agent_t *known = scenario_agent (self, name);
    if (known)
        return known - self->agents;
    if (!self->agent_index && !(self->agent_index = (struct _zhashx_t *) zhashx_new ()))
        return -1;
    if (array_grow (&self->agents, &self->agent_capacity, self->agent_count,
                    sizeof *self->agents, 8))
        return -1;
    size_t index = self->agent_count;
    scenario_agent_t *agent = &self->agents [index];
    memset (agent, 0, sizeof *agent);
    snprintf (agent->name, sizeof agent->name, "%s", name);
    agent->line = line;
    if (zhashx_insert ((zhashx_t *) self->agent_index, agent->name,
                       (void *) (uintptr_t) (index + 1)))
        return -1;
    self->agent_count++;
    return (ssize_t) index;
}

//  An agent by name.
const scenario_agent_t *
scenario_agent (const scenario_t *self, const char *name)
{
    assert (self);
    assert (name);
    uintptr_t found = self->agent_index?
                      (uintptr_t) zhashx_lookup ((zhashx_t *) self->agent_index, name): 0;
    return found? &self->agents [found - 1]: NULL;
}

//  A group by name: groups are few (each one a section), so a pass.
const scenario_group_t *
scenario_group (const scenario_t *self, const char *name)
{
    for (size_t g = 0; g < self->group_count; g++)
        if (strcmp (self->groups [g].name, name) == 0)
            return &self->groups [g];
    return NULL;
}

//  --------------------------------------------------------------------
//  The command line

int
scenario_set_agent (scenario_t *self, const char *assignment, char *err, size_t errlen)
{
    assert (self);
    assert (assignment);
    char reason [SCENARIO_REASON_MAX];
    scenario_quote_t quoted;
    scenario_quote (&quoted, assignment, strlen (assignment));
    const char *equals = strchr (assignment, '=');
    if (!equals) {
        snprintf (err, errlen, "--agent %s: expected NAME=ENDPOINT", quoted.text);
        return -1;
    }
    size_t name_len = (size_t) (equals - assignment);
    const char *endpoint = equals + 1;
    if (scenario_check_name (assignment, name_len, reason, sizeof (reason))
    ||  scenario_check_endpoint (endpoint, reason, sizeof (reason))) {
        snprintf (err, errlen, "--agent %s: %s", quoted.text, reason);
        return -1;
    }
    char name [JOB_NAME_MAX + 1];
    snprintf (name, sizeof (name), "%.*s", (int) name_len, assignment);

    //  A section of that name keeps its line: it still names the agent.
    ssize_t index = scenario_agent_add (self, name, 0);
    if (index < 0) {
        snprintf (err, errlen, "--agent %s: out of memory", quoted.text);
        return -1;
    }
    snprintf (self->agents [index].endpoint, sizeof (self->agents [index].endpoint),
              "%s", endpoint);
    return 0;
}


//  --------------------------------------------------------------------
//  Jobs

//  The line a job's option came from.
int
scenario_key_line (const scenario_template_t *template, const char *key)
{
    assert (template);
    const opt_def_t *opt = jobspec_option (key);
    assert (opt);                   //  keys are the program's own
    int line = template->option_lines? template->option_lines [opt - jobspec_options]: 0;
    return line? line: template->line;
}

//  A job's spec, put together from its template and what is its own.
void
scenario_job_spec (const scenario_job_t *job, jobspec_t *spec)
{
    assert (job);
    assert (spec);
    *spec = job->template->spec;
    snprintf (spec->name, sizeof spec->name, "%s", job->name);
    snprintf (spec->agent, sizeof spec->agent, "%s", job->agent);
    if (job->path)
        snprintf (spec->path, sizeof spec->path, "%s", job->path);
    if (job->src)
        snprintf (spec->src, sizeof spec->src, "%s", job->src);
    if (job->dst)
        snprintf (spec->dst, sizeof spec->dst, "%s", job->dst);
}

//  --------------------------------------------------------------------
//  Checks

//  An error about a job's option key, at the line it came from. Returns -1.
static int
s_job_error (const scenario_t *self, const scenario_job_t *job, const char *key,
             char *err, size_t errlen, const char *format, ...)
    __attribute__ ((format (printf, 6, 7)));

static int
s_job_error (const scenario_t *self, const scenario_job_t *job, const char *key,
             char *err, size_t errlen, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    scenario_error_va (err, errlen, self->path, scenario_key_line (job->template, key), key,
                       format, args);
    va_end (args);
    return -1;
}

//  Whether the job gave key itself or through a [global] default.
static bool
s_given (const scenario_job_t *job, const char *key)
{
    return scenario_key_line (job->template, key) != job->template->line;
}

//  Check what the job's workload needs, as its row in proto/workload.c
//  says: the options it uses, what it requires, the form of its files.
//  Returns 0, or -1 with the error.
static int
s_check_workload (const scenario_t *self, const scenario_job_t *job,
                  char *err, size_t errlen)
{
    //  Whole: the form of its files is that of its own paths.
    jobspec_t whole;
    scenario_job_spec (job, &whole);
    const jobspec_t *spec = &whole;
    const workload_desc_t *desc = workload_desc (spec->workload);
    //  A key the workload does not use is a mistake (a src in a write
    //  job): the record of what was measured must not carry it. Keys
    //  from [global] are defaults for every job and not checked.
    for (size_t i = 0; jobspec_options [i].name; i++) {
        const char *name = jobspec_options [i].name;
        if ((job->template->own_options & ((uint64_t) 1 << i)) && !workload_uses_key (desc, name))
            return s_job_error (self, job, name, err, errlen,
                                "the %s workload does not use %s", desc->name, name);
    }
    //  0 is what "no size" looks like in a jobspec; written out, it is a
    //  size that cannot be meant.
    if (spec->size_bytes == 0 && s_given (job, "size"))
        return s_job_error (self, job, "size", err, errlen, "must be more than 0%s",
                            desc->size_required? "": " (leave size out for the whole file)");
    const char *key;
    char reason [JOB_PATH_MAX + 96];
    if (workload_check (spec, &key, reason, sizeof (reason)) == 0)
        return 0;
    //  An alignment that direct = yes makes wrong: at the block size when
    //  the job chose it, else at the direct that asks for it.
    if (strcmp (key, "bs") == 0 && !s_given (job, "bs"))
        key = "direct";
    return s_job_error (self, job, key, err, errlen, "%s", reason);
}

//  A path as written, with doubled slashes and "./" components taken
//  out, so that "d//f" and "./d/f" name one file.
static void
s_normal_path (const char *path, char *buf, size_t buflen)
{
    size_t used = 0;
    for (const char *p = path; *p && used + 1 < buflen; ) {
        if (*p == '/' && used > 0 && buf [used - 1] == '/') {
            p++;
            continue;
        }
        if (p [0] == '.' && (p [1] == '/' || p [1] == '\0') && (p == path || p [-1] == '/')) {
            p += p [1]? 2: 1;
            continue;
        }
        buf [used++] = *p++;
    }
    buf [used] = '\0';
}

//  Whether two jobs of a test on one agent would get in each other's way:
//  a file one writes that the other writes or reads (the copies of a
//  fill's file are what it is for). Returns the file option of later at
//  fault, or NULL.
static const char *
s_jobs_collide (const jobspec_t *earlier, const jobspec_t *later, char *file, size_t filelen)
{
    const workload_desc_t *a = workload_desc (earlier->workload);
    const workload_desc_t *b = workload_desc (later->workload);
    for (size_t fa = 0; workload_file (a, fa); fa++)
        for (size_t fb = 0; workload_file (b, fb); fb++) {
            bool a_writes = workload_file (a, fa)->writes, b_writes = workload_file (b, fb)->writes;
            if (!a_writes && !b_writes)
                continue;
            //  A fill creates a source for the copies of its test.
            if ((a_writes && !a->timed && !b_writes) || (b_writes && !b->timed && !a_writes))
                continue;
            for (uint64_t ka = 0; ka < workload_file_count (earlier, fa); ka++) {
                char pa [JOB_PATH_MAX + 1], na [JOB_PATH_MAX + 1];
                workload_file_path (earlier, fa, ka, pa, sizeof (pa));
                s_normal_path (pa, na, sizeof (na));
                for (uint64_t kb = 0; kb < workload_file_count (later, fb); kb++) {
                    char pb [JOB_PATH_MAX + 1], nb [JOB_PATH_MAX + 1];
                    workload_file_path (later, fb, kb, pb, sizeof (pb));
                    s_normal_path (pb, nb, sizeof (nb));
                    if (strcmp (na, nb) == 0) {
                        snprintf (file, filelen, "%s", pb);
                        return b->files [fb].option;
                    }
                }
            }
        }
    return NULL;
}

//  Check that no two jobs of one test touch the same file on one agent in
//  a way that spoils the other's figures, and that the jobs that report
//  figures run the same phases (each phase starts on every host at one
//  instant). Returns 0, or -1 with the error.
static int
s_check_test (const scenario_t *self, const scenario_test_t *test, char *err, size_t errlen)
{
    //  Only jobs on one agent can collide: each job is compared with the
    //  earlier ones of its agent, found through a chain (previous), so
    //  that a test on a thousand agents is not a million comparisons.
    size_t *previous = calloc (test->job_count + 1, sizeof (size_t));
    //  Jobs and streams of the test on the job's agent so far, along the
    //  chain: what the agent would refuse at prepare is refused here.
    uint64_t *jobs_on = calloc (test->job_count + 1, sizeof (uint64_t));
    uint64_t *streams_on = calloc (test->job_count + 1, sizeof (uint64_t));
    zhashx_t *last = zhashx_new ();
    int rc = 0;
    if (!previous || !jobs_on || !streams_on || !last) {
        scenario_error (err, errlen, self->path, 0, NULL, "out of memory");
        rc = -1;
    }
    const scenario_job_t *phased = NULL;
    for (size_t b = 0; rc == 0 && b < test->job_count; b++) {
        const scenario_job_t *later = &self->jobs [test->jobs [b]];
        const workload_desc_t *desc = workload_desc (later->template->spec.workload);
        if (desc->stream_results) {
            const workload_desc_t *first = phased? workload_desc (phased->template->spec.workload)
                                                 : NULL;
            bool same = !first || workload_phase_count (first) == workload_phase_count (desc);
            for (uint32_t p = 0; same && first && p < workload_phase_count (desc); p++) {
                const char *x = workload_phase_name (first, p), *y = workload_phase_name (desc, p);
                same = (!x && !y) || (x && y && strcmp (x, y) == 0);
            }
            if (!same) {
                rc = s_job_error (self, later, "workload", err, errlen,
                                  "[job %s] (%s) and [job %s] (line %d, %s) have other phases; "
                                  "the jobs of test %s must run the same phases",
                                  later->name, desc->name, phased->name, phased->template->line,
                                  first->name, test->name);
                break;
            }
            if (!phased)
                phased = later;
        }
        uintptr_t before = (uintptr_t) zhashx_lookup (last, later->agent);
        previous [b] = before? before - 1: SIZE_MAX;
        zhashx_update (last, later->agent, (void *) (uintptr_t) (b + 1));
        jobs_on [b] = 1 + (before? jobs_on [before - 1]: 0);
        streams_on [b] = later->template->spec.streams + (before? streams_on [before - 1]: 0);
        if (jobs_on [b] > TEST_AGENT_JOBS_MAX) {
            rc = s_job_error (self, later, "agent", err, errlen,
                              "test %s holds more than %d jobs on agent %s, the most an agent "
                              "holds in one test: spread them over more agents or tests",
                              test->name, TEST_AGENT_JOBS_MAX, later->agent);
            break;
        }
        if (streams_on [b] > TEST_AGENT_STREAMS_MAX) {
            rc = s_job_error (self, later, "streams", err, errlen,
                              "test %s asks agent %s for %" PRIu64 " streams with this job, more "
                              "than the %d an agent runs in one test",
                              test->name, later->agent, streams_on [b], TEST_AGENT_STREAMS_MAX);
            break;
        }
        //  Compared whole, one pair at a time: a job's paths may be its own.
        jobspec_t later_spec, earlier_spec;
        if (previous [b] != SIZE_MAX)
            scenario_job_spec (later, &later_spec);
        for (size_t a = previous [b]; a != SIZE_MAX; a = previous [a]) {
            const scenario_job_t *earlier = &self->jobs [test->jobs [a]];
            scenario_job_spec (earlier, &earlier_spec);
            char file [JOB_PATH_MAX + 1];
            const char *option = s_jobs_collide (&earlier_spec, &later_spec, file, sizeof (file));
            if (!option)
                continue;
            scenario_quote_t quoted;
            rc = s_job_error (self, later, option, err, errlen,
                              "[job %s] and [job %s] (line %d) both use %s on agent %s in "
                              "test %s, and one of them writes it",
                              later->name, earlier->name, earlier->template->line,
                              scenario_quote (&quoted, file, strlen (file)),
                              later->agent, test->name);
            break;
        }
    }
    free (previous);
    free (jobs_on);
    free (streams_on);
    zhashx_destroy (&last);
    return rc;
}

//  One agent per endpoint: a process answers one name, and two sessions
//  of one console on one agent would have it refuse the second as
//  serving a coordinator (the console itself). Endpoints are compared
//  as written. Returns 0, or -1 with the error at the later agent.
static int
s_check_endpoints (const scenario_t *self, char *err, size_t errlen)
{
    zhashx_t *seen = zhashx_new ();
    if (!seen) {
        scenario_error (err, errlen, self->path, 0, NULL, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < self->agent_count && rc == 0; i++) {
        const scenario_agent_t *agent = &self->agents [i];
        const scenario_agent_t *first = zhashx_lookup (seen, agent->endpoint);
        if (!first) {
            zhashx_insert (seen, agent->endpoint, (void *) agent);
            continue;
        }
        scenario_quote_t quoted;
        scenario_error (err, errlen, self->path, agent->line, agent->group? "agents": "endpoint",
                        "agents %s and %s (line %d) are both at %s: an agent answers for one "
                        "name; give each its own endpoint (--agent NAME=ENDPOINT, --hosts FILE)",
                        first->name, agent->name, first->line,
                        scenario_quote (&quoted, agent->endpoint, strlen (agent->endpoint)));
        rc = -1;
    }
    zhashx_destroy (&seen);
    return rc;
}

//  The checks once the file and the command line have had their say:
//  every error, but none that only follows from another (endpoints are
//  compared once every agent has one, tests once every job is right).
int
scenario_check (const scenario_t *self, char *err, size_t errlen)
{
    assert (self);
    if (self->job_count == 0) {
        scenario_error (err, errlen, self->path, 0, NULL, "no [job] sections");
        return -1;
    }
    scenario_errors_t errors = { .count = 0 };
    char one [2 * JOB_PATH_MAX + 1024];
    for (size_t i = 0; i < self->agent_count; i++) {
        const scenario_agent_t *agent = &self->agents [i];
        if (agent->endpoint [0] == 0 && agent->group)
            scenario_error (one, sizeof one, self->path, agent->line, "agents",
                            "member %s of [group %s] has no endpoint: give the group an "
                            "endpoint = pattern, --hosts FILE or --agent %s=ENDPOINT",
                            agent->name, self->groups [agent->group - 1].name, agent->name);
        else
        if (agent->endpoint [0] == 0)
            scenario_error (one, sizeof one, self->path, agent->line, "endpoint",
                           "[agent %s] has no endpoint and no --agent %s=ENDPOINT was given",
                           agent->name, agent->name);
        else
            continue;
        scenario_errors_add (&errors, self->path, one);
    }
    if (errors.total == 0 && s_check_endpoints (self, one, sizeof one))
        scenario_errors_add (&errors, self->path, one);
    size_t before_jobs = errors.total;
    for (size_t j = 0; j < self->job_count; j++) {
        const scenario_job_t *job = &self->jobs [j];
        if (!scenario_agent (self, job->agent))
            s_job_error (self, job, "agent", one, sizeof one,
                         "no [agent %s] or [group %s] section, and no --agent %s=ENDPOINT",
                         job->agent, job->agent, job->agent);
        else
        if (s_check_workload (self, job, one, sizeof one) == 0)
            continue;
        scenario_errors_add (&errors, self->path, one);
    }
    for (size_t t = 0; t < self->test_count && errors.total == before_jobs; t++)
        if (s_check_test (self, &self->tests [t], one, sizeof one))
            scenario_errors_add (&errors, self->path, one);
    if (errors.total == 0 && !errors.nomem)
        return 0;
    if (errors.nomem && errors.count == 0)
        scenario_error (err, errlen, self->path, 0, NULL, "out of memory");
    else
        scenario_errors_write (&errors, self->path, err, errlen);
    scenario_errors_clear (&errors);
    return -1;
}
