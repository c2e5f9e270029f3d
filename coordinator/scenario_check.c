/*  coordinator/scenario_check.c: the checks of a parsed scenario, the
    --agent overrides, and the rules the parser shares (error messages,
    quoting, names, endpoints); see scenario.h and scenario_rules.h.

    The checks run after the whole file is read and the command line has
    had its say, since an [agent] may get its endpoint from --agent. Every
    message about a job's option points at the line the option came from
    (scenario_key_line), not at the job's header.
*/
#include "scenario_rules.h"
#include "../proto/inifile.h"
#include "../proto/printable.h"
#include "../proto/workload.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

//  O_DIRECT needs offsets, lengths and buffers aligned to the logical
//  block size; 512 bytes is the smallest any disk has.
#define DIRECT_ALIGN_BYTES 512

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
    const scenario_agent_t *known = scenario_agent (self, name);
    ssize_t index = known? known - self->agents: -1;
    if (index < 0) {
        scenario_agent_t *grown = realloc (self->agents,
                                           (self->agent_count + 1) * sizeof (scenario_agent_t));
        if (!grown) {
            snprintf (err, errlen, "--agent %s: out of memory", quoted.text);
            return -1;
        }
        self->agents = grown;
        index = (ssize_t) self->agent_count++;
        memset (&self->agents [index], 0, sizeof (scenario_agent_t));
        snprintf (self->agents [index].name, sizeof (self->agents [index].name), "%s", name);
        self->agents [index].line = 0;
    }
    snprintf (self->agents [index].endpoint, sizeof (self->agents [index].endpoint),
              "%s", endpoint);
    return 0;
}


//  --------------------------------------------------------------------
//  Checks

//  Does stream file set (a_path, a_streams) share a file with
//  (b_path, b_streams)? One stream writes its path; n > 1 streams write
//  path.1 ... path.n, so "x" with 3 streams and "x.2" with one collide,
//  while "x" with one stream and "x" with three do not.
static bool
s_paths_overlap (const char *a_path, uint64_t a_streams,
                 const char *b_path, uint64_t b_streams)
{
    if ((a_streams > 1) == (b_streams > 1))
        return strcmp (a_path, b_path) == 0;
    const char *single = a_streams > 1? b_path: a_path;
    const char *base = a_streams > 1? a_path: b_path;
    uint64_t streams = a_streams > 1? a_streams: b_streams;
    size_t base_len = strlen (base);
    if (strncmp (single, base, base_len) != 0 || single [base_len] != '.')
        return false;
    const char *suffix = single + base_len + 1;
    if (*suffix < '1' || *suffix > '9' || strspn (suffix, "0123456789") != strlen (suffix)
    ||  strlen (suffix) > 5)
        return false;
    uint64_t index = strtoull (suffix, NULL, 10);
    return index >= 1 && index <= streams;
}

//  A copy source is a path or nfs://server/export/file (with an optional
//  ?query for libnfs, e.g. ?version=4). Returns 0, or -1 with a reason.
static int
s_check_source (const char *src, char *reason, size_t reasonlen)
{
    scenario_quote_t quoted;
    scenario_quote (&quoted, src, strlen (src));
    if (strncmp (src, "nfs://", 6) != 0) {
        if (strstr (src, "://")) {
            snprintf (reason, reasonlen, "'%s' is neither a path nor an nfs:// URL", quoted.text);
            return -1;
        }
        return 0;
    }
    const char *server = src + 6;
    const char *slash = strchr (server, '/');
    size_t path_len = slash? strcspn (slash, "?"): 0;
    if (!slash || slash == server || path_len < 2 || slash [path_len - 1] == '/') {
        snprintf (reason, reasonlen, "'%s' is not nfs://server/export/file", quoted.text);
        return -1;
    }
    return 0;
}

//  The line a job's option came from.
int
scenario_key_line (const scenario_job_t *job, const char *key)
{
    assert (job);
    const opt_def_t *opt = jobspec_option (key);
    assert (opt);                   //  keys are the program's own
    int line = job->option_lines? job->option_lines [opt - jobspec_options]: 0;
    return line? line: job->line;
}

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
    scenario_error_va (err, errlen, self->path, scenario_key_line (job, key), key, format, args);
    va_end (args);
    return -1;
}

//  Whether the job gave key itself or through a [global] default.
static bool
s_given (const scenario_job_t *job, const char *key)
{
    return scenario_key_line (job, key) != job->line;
}

//  Check what the job's workload needs. Returns 0, or -1 with the error.
static int
s_check_workload (const scenario_t *self, const scenario_job_t *job,
                  char *err, size_t errlen)
{
    const jobspec_t *spec = &job->spec;
    char reason [JOB_PATH_MAX + 64];
    const char *workload = jobspec_workload_name (spec->workload);
    if (spec->workload == WORKLOAD_WRITE && spec->path [0] == 0)
        return s_job_error (self, job, "path", err, errlen,
                            "the %s workload needs a path", workload);
    if (spec->workload == WORKLOAD_FILL && spec->path [0] == 0)
        return s_job_error (self, job, "path", err, errlen,
                            "the %s workload needs a path (the file to create)", workload);
    if (spec->workload == WORKLOAD_COPY && spec->src [0] == 0)
        return s_job_error (self, job, "src", err, errlen,
                            "the %s workload needs a src: a path or nfs://server/export/file",
                            workload);
    if (spec->workload == WORKLOAD_COPY && spec->dst [0] == 0)
        return s_job_error (self, job, "dst", err, errlen,
                            "the %s workload needs a dst", workload);
    if (spec->src [0] && s_check_source (spec->src, reason, sizeof (reason)))
        return s_job_error (self, job, "src", err, errlen, "%s", reason);
    //  0 is what "no size" looks like in a jobspec; written out, it is a
    //  size that cannot be meant.
    if (spec->size_bytes == 0 && s_given (job, "size"))
        return s_job_error (self, job, "size", err, errlen, "must be more than 0%s",
                            spec->workload == WORKLOAD_COPY?
                            " (leave size out to copy the whole source)": "");
    if ((spec->workload == WORKLOAD_WRITE || spec->workload == WORKLOAD_NULL
    ||   spec->workload == WORKLOAD_FILL)
    &&  spec->size_bytes == 0)
        return s_job_error (self, job, "size", err, errlen,
                            "the %s workload needs a size", workload);
    if (spec->workload == WORKLOAD_MONITOR && spec->streams != 1)
        return s_job_error (self, job, "streams", err, errlen,
                            "a monitor watches its host once: streams must be 1");
    //  An alignment that direct = yes makes wrong: at the size or block
    //  size when the job chose it, else at the direct that asks for it.
    const char *direct_bs = s_given (job, "bs")? "bs": "direct";
    if (spec->direct && spec->bs_bytes % DIRECT_ALIGN_BYTES)
        return s_job_error (self, job, direct_bs, err, errlen,
                            "direct = yes needs a bs that is a multiple of %d bytes, "
                            "and %" PRIu64 " is not", DIRECT_ALIGN_BYTES, spec->bs_bytes);
    if (spec->direct && spec->size_bytes % DIRECT_ALIGN_BYTES)
        return s_job_error (self, job, "size", err, errlen,
                            "direct = yes needs a size that is a multiple of %d bytes, "
                            "and %" PRIu64 " is not", DIRECT_ALIGN_BYTES, spec->size_bytes);
    return 0;
}

//  Check that no two jobs of one test write the same file on one agent.
static int
s_check_overlaps (const scenario_t *self, const scenario_test_t *test,
                  char *err, size_t errlen)
{
    for (size_t b = 1; b < test->job_count; b++) {
        const scenario_job_t *later = &self->jobs [test->jobs [b]];
        if (later->spec.workload != WORKLOAD_WRITE)
            continue;
        for (size_t a = 0; a < b; a++) {
            const scenario_job_t *earlier = &self->jobs [test->jobs [a]];
            if (earlier->spec.workload != WORKLOAD_WRITE
            ||  strcmp (earlier->spec.agent, later->spec.agent) != 0
            ||  !s_paths_overlap (earlier->spec.path, earlier->spec.streams,
                                  later->spec.path, later->spec.streams))
                continue;
            return s_job_error (self, later, "path", err, errlen,
                                "[job %s] and [job %s] (line %d) write the same file on "
                                "agent %s in test %s; they would overwrite each other",
                                later->spec.name, earlier->spec.name, earlier->line,
                                later->spec.agent, test->name);
        }
    }
    return 0;
}

//  The checks once the file and the command line have had their say.
int
scenario_check (const scenario_t *self, char *err, size_t errlen)
{
    assert (self);
    if (self->job_count == 0) {
        scenario_error (err, errlen, self->path, 0, NULL, "no [job] sections");
        return -1;
    }
    for (size_t i = 0; i < self->agent_count; i++) {
        const scenario_agent_t *agent = &self->agents [i];
        if (agent->endpoint [0] == 0) {
            scenario_error (err, errlen, self->path, agent->line, "endpoint",
                           "[agent %s] has no endpoint and no --agent %s=ENDPOINT was given",
                           agent->name, agent->name);
            return -1;
        }
    }
    for (size_t j = 0; j < self->job_count; j++) {
        const scenario_job_t *job = &self->jobs [j];
        if (!scenario_agent (self, job->spec.agent)) {
            return s_job_error (self, job, "agent", err, errlen,
                                "no [agent %s] section and no --agent %s=ENDPOINT",
                                job->spec.agent, job->spec.agent);
        }
        if (s_check_workload (self, job, err, errlen))
            return -1;
    }
    for (size_t t = 0; t < self->test_count; t++)
        if (s_check_overlaps (self, &self->tests [t], err, errlen))
            return -1;
    return 0;
}


//  An agent by name.
const scenario_agent_t *
scenario_agent (const scenario_t *self, const char *name)
{
    assert (self);
    assert (name);
    for (size_t i = 0; i < self->agent_count; i++)
        if (strcmp (self->agents [i].name, name) == 0)
            return &self->agents [i];
    return NULL;
}

