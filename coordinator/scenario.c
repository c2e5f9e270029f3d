/*  coordinator/scenario.c: read a scenario file into a scenario_t and
    check it; see scenario.h.

    The file is read by proto/inifile.c, which knows every line's number
    and hands section headers here unparsed: an empty or repeated [job X]
    is seen, and a name is never cut short.

    Keys given twice in one section are an error, not "last one wins":
    a scenario is a record of what was measured, and a silently ignored
    line is a wrong record. [global] may appear more than once, but a key
    may still be given only once across all of them.
*/
#include "scenario.h"
#include "../proto/clock.h"
#include "../proto/inifile.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  How much of a value an error message quotes.
#define QUOTE_MAX 64

//  Bytes a reason from opt_parse or a check may take.
#define REASON_MAX 256

//  First capacity of the job and agent arrays; they double from there.
#define FIRST_CAPACITY 8

//  O_DIRECT needs offsets, lengths and buffers aligned to the logical
//  block size; 512 bytes is the smallest any disk has.
#define DIRECT_ALIGN_BYTES 512

#define RUN_AT(f) offsetof (scenario_options_t, f)

static const char *const s_on_lost_names [] = { "continue", "abort", NULL };

const opt_def_t scenario_run_options [] = {
    { .name = "iterations", .type = OPT_COUNT, .offset = RUN_AT (iterations),
      .min = 1, .max = 1000, .default_text = "1",
      .flags = OPT_GLOBAL,
      .help = "runs of every test; the first is reported apart from the rest" },
    { .name = "lead", .type = OPT_DURATION, .offset = RUN_AT (lead_ns),
      .min = NS_PER_MSEC, .max = 60 * NS_PER_SEC, .default_text = "100ms",
      .flags = OPT_GLOBAL,
      .help = "least time between sending START and the start instant" },
    { .name = "lease", .type = OPT_DURATION, .offset = RUN_AT (lease_ns),
      .min = NS_PER_SEC, .max = 3600 * NS_PER_SEC, .default_text = "5s",
      .flags = OPT_GLOBAL,
      .help = "silence after which agent and coordinator give each other up" },
    { .name = "connect_timeout", .type = OPT_DURATION, .offset = RUN_AT (connect_timeout_ns),
      .min = 100 * NS_PER_MSEC, .max = 300 * NS_PER_SEC, .default_text = "5s",
      .flags = OPT_GLOBAL,
      .help = "how long the hello with each agent may take" },
    { .name = "clock_pings", .type = OPT_COUNT, .offset = RUN_AT (clock_pings),
      .min = 1, .max = 1000, .default_text = "9",
      .flags = OPT_GLOBAL,
      .help = "pings per clock measurement; the one with the smallest round trip is kept" },
    { .name = "keys", .type = OPT_STRING, .offset = RUN_AT (keys_dir),
      .capacity = sizeof (((scenario_options_t *) 0)->keys_dir),
      .flags = OPT_GLOBAL,
      .help = "directory of CURVE keys: ours and the agents' (iofleet keygen); --keys overrides" },
    { .name = "on_lost", .type = OPT_ENUM, .offset = RUN_AT (on_lost),
      .choices = s_on_lost_names, .default_text = "continue", .flags = OPT_GLOBAL,
      .help = "an agent lost mid-test: continue (the others finish) or abort (stop the run); --on-lost overrides" },
    { .name = NULL }
};

#define AGENT_AT(f) offsetof (scenario_agent_t, f)

const opt_def_t scenario_agent_options [] = {
    { .name = "endpoint", .type = OPT_STRING, .offset = AGENT_AT (endpoint),
      .capacity = sizeof (((scenario_agent_t *) 0)->endpoint),
      .help = "where the agent listens: tcp://HOST:PORT or ipc://PATH "
              "(--agent NAME=ENDPOINT sets or overrides it)" },
    { .name = NULL }
};

const opt_def_t *
scenario_run_option (const char *name)
{
    for (const opt_def_t *opt = scenario_run_options; opt->name; opt++)
        if (strcmp (opt->name, name) == 0)
            return opt;
    assert (false);
    return NULL;
}

//  The kind of section the parser is in.
typedef enum {
    S_SECTION_NONE,             //  before the first header
    S_SECTION_GLOBAL,           //  [global]
    S_SECTION_AGENT,            //  [agent NAME]
    S_SECTION_JOB               //  [job NAME]
} s_section_t;

//  A job option given in [global], applied at the end to every job that
//  does not give it itself.
typedef struct {
    char *text;                 //  value as written, NULL if not given
    int line;                   //  line of the key
} s_default_t;

//  Everything the line reader and the key handler share while one file
//  is read.
typedef struct {
    scenario_t *scenario;       //  being built
    int line;                   //  number of the line being parsed, from 1
    s_section_t section;        //  kind of the current section
    size_t current;             //  index of the current agent or job
    int endpoint_line;          //  current [agent]: line of its endpoint, 0 if none yet
    size_t option_count;        //  rows in jobspec_options
    size_t run_option_count;    //  rows in scenario_run_options
    int *run_lines;             //  line of each run option in [global], 0 if not given
    s_default_t *defaults;      //  [global] value of each job option
    int *job_lines;             //  line of each option in each job, job_count x option_count
    size_t agent_capacity;      //  slots allocated in scenario->agents
    size_t job_capacity;        //  slots allocated in scenario->jobs and job_lines
    bool failed;                //  an error is in err; stop
    char *err;                  //  where the first error goes
    size_t errlen;              //  size of err
} s_parser_t;

//  --------------------------------------------------------------------
//  Error messages

//  Record the parser's first error; later ones are consequences and are
//  dropped.
static void
s_fail (s_parser_t *self, int line, const char *key, const char *format, ...)
{
    if (self->failed)
        return;
    self->failed = true;
    va_list args;
    va_start (args, format);
    inifile_verror (self->err, self->errlen, self->scenario->path, line, key, format, args);
    va_end (args);
}

//  --------------------------------------------------------------------
//  Names and endpoints

//  Check a name of len bytes (agent, job, test). Returns 0, or -1 with a
//  reason in reason.
static int
s_check_name (const char *name, size_t len, char *reason, size_t reasonlen)
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
            snprintf (reason, reasonlen,
                      "'%.*s' is not a valid name: use letters, digits, '.', '_' and '-'",
                      (int) len, name);
            return -1;
        }
    }
    return 0;
}

//  Check an endpoint the coordinator will connect to: tcp://HOST:PORT
//  with a numeric port, or ipc://PATH. Returns 0, or -1 with a reason.
static int
s_check_endpoint (const char *endpoint, char *reason, size_t reasonlen)
{
    size_t len = strlen (endpoint);
    if (len == 0) {
        snprintf (reason, reasonlen, "an endpoint may not be empty: use tcp://HOST:PORT");
        return -1;
    }
    if (len > SCENARIO_ENDPOINT_MAX) {
        snprintf (reason, reasonlen, "'%.*s...' is longer than %d characters",
                  QUOTE_MAX / 2, endpoint, SCENARIO_ENDPOINT_MAX);
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        if (isspace ((unsigned char) endpoint [i]) || iscntrl ((unsigned char) endpoint [i])) {
            snprintf (reason, reasonlen, "'%.*s' contains a space or control character",
                      QUOTE_MAX, endpoint);
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
                  "'%.*s' is not an endpoint: use tcp://HOST:PORT or ipc://PATH",
                  QUOTE_MAX, endpoint);
        return -1;
    }
    //  The port follows the last colon, so an IPv6 host in brackets works.
    const char *host = endpoint + 6;
    const char *colon = strrchr (host, ':');
    if (!colon || colon == host) {
        snprintf (reason, reasonlen, "'%.*s' needs a host and a port: tcp://HOST:PORT",
                  QUOTE_MAX, endpoint);
        return -1;
    }
    const char *port = colon + 1;
    size_t digits = strspn (port, "0123456789");
    if (digits == 0 || digits > 5 || port [digits] != 0
    ||  atoi (port) < 1 || atoi (port) > 65535) {
        snprintf (reason, reasonlen, "'%.*s': the port must be a number from 1 to 65535",
                  QUOTE_MAX, endpoint);
        return -1;
    }
    return 0;
}

//  --------------------------------------------------------------------
//  Building the arrays

//  Make room for one more item in *array (count used of *capacity),
//  doubling. Returns 0 or -1 if memory is short.
static int
s_grow (void **array, size_t *capacity, size_t count, size_t item_size)
{
    if (count < *capacity)
        return 0;
    size_t wanted = *capacity? *capacity * 2: FIRST_CAPACITY;
    if (wanted > SIZE_MAX / item_size)
        return -1;
    void *grown = realloc (*array, wanted * item_size);
    if (!grown)
        return -1;
    *array = grown;
    *capacity = wanted;
    return 0;
}

//  Index of the agent called name, or -1.
static ssize_t
s_agent_index (const scenario_t *self, const char *name)
{
    for (size_t i = 0; i < self->agent_count; i++)
        if (strcmp (self->agents [i].name, name) == 0)
            return (ssize_t) i;
    return -1;
}

//  Index of the job called name, or -1.
static ssize_t
s_job_index (const scenario_t *self, const char *name)
{
    for (size_t i = 0; i < self->job_count; i++)
        if (strcmp (self->jobs [i].spec.name, name) == 0)
            return (ssize_t) i;
    return -1;
}

//  --------------------------------------------------------------------
//  Section headers

//  Start an [agent NAME] section.
static void
s_agent_begin (s_parser_t *self, const char *header, const char *name)
{
    scenario_t *scenario = self->scenario;
    ssize_t first = s_agent_index (scenario, name);
    if (first >= 0) {
        s_fail (self, self->line, header, "defined twice (first at line %d)",
                scenario->agents [first].line);
        return;
    }
    if (s_grow ((void **) &scenario->agents, &self->agent_capacity,
                scenario->agent_count, sizeof (scenario_agent_t))) {
        s_fail (self, self->line, header, "out of memory");
        return;
    }
    scenario_agent_t *agent = &scenario->agents [scenario->agent_count++];
    memset (agent, 0, sizeof (*agent));
    snprintf (agent->name, sizeof (agent->name), "%s", name);
    agent->line = self->line;
    self->section = S_SECTION_AGENT;
    self->current = scenario->agent_count - 1;
    self->endpoint_line = 0;
}

//  Start a [job NAME] section: a spec with every default, named.
static void
s_job_begin (s_parser_t *self, const char *header, const char *name)
{
    scenario_t *scenario = self->scenario;
    ssize_t first = s_job_index (scenario, name);
    if (first >= 0) {
        s_fail (self, self->line, header, "defined twice (first at line %d)",
                scenario->jobs [first].line);
        return;
    }
    //  jobs and job_lines grow together; grow a copy of the capacity for
    //  the second so both see the same old value.
    size_t lines_capacity = self->job_capacity;
    if (s_grow ((void **) &self->job_lines, &lines_capacity, scenario->job_count,
                self->option_count * sizeof (int))
    ||  s_grow ((void **) &scenario->jobs, &self->job_capacity, scenario->job_count,
                sizeof (scenario_job_t))) {
        s_fail (self, self->line, header, "out of memory");
        return;
    }
    assert (lines_capacity == self->job_capacity);
    scenario_job_t *job = &scenario->jobs [scenario->job_count++];
    memset (job, 0, sizeof (*job));
    jobspec_defaults (&job->spec);
    snprintf (job->spec.name, sizeof (job->spec.name), "%s", name);
    job->line = self->line;
    job->agent_line = self->line;
    memset (self->job_lines + (scenario->job_count - 1) * self->option_count, 0,
            self->option_count * sizeof (int));
    self->section = S_SECTION_JOB;
    self->current = scenario->job_count - 1;
}

//  Parse a header line, text starting with '[' and without surrounding
//  whitespace, and start the section it names.
static void
s_section_begin (s_parser_t *self, char *text)
{
    char *close = strchr (text, ']');
    if (!close) {
        s_fail (self, self->line, text, "a section header needs a closing ']'");
        return;
    }
    //  After the ']' only a comment may follow.
    char *rest = close + 1;
    while (isspace ((unsigned char) *rest))
        rest++;
    bool junk_after = *rest && *rest != ';' && *rest != '#';
    close [1] = 0;
    const char *header = text;          //  "[job dd1]" as written, for messages
    if (junk_after) {
        s_fail (self, self->line, header, "only a comment may follow the ']'");
        return;
    }

    //  Split "[ kind  name ]" into kind and name.
    char inner [JOB_NAME_MAX * 4];
    size_t inner_len = (size_t) (close - text - 1);
    if (inner_len >= sizeof (inner)) {
        s_fail (self, self->line, header, "the header is longer than %zu characters",
                sizeof (inner) - 1);
        return;
    }
    memcpy (inner, text + 1, inner_len);
    inner [inner_len] = 0;
    char *kind = inner;
    while (isspace ((unsigned char) *kind))
        kind++;
    char *name = kind;
    while (*name && !isspace ((unsigned char) *name))
        name++;
    if (*name)
        *name++ = 0;
    while (isspace ((unsigned char) *name))
        name++;
    size_t name_len = strlen (name);
    while (name_len > 0 && isspace ((unsigned char) name [name_len - 1]))
        name [--name_len] = 0;

    if (strcmp (kind, "global") == 0) {
        if (name_len > 0)
            s_fail (self, self->line, header, "[global] takes no name");
        else
            self->section = S_SECTION_GLOBAL;
        return;
    }
    bool is_agent = strcmp (kind, "agent") == 0;
    bool is_job = strcmp (kind, "job") == 0;
    if (!is_agent && !is_job) {
        s_fail (self, self->line, header,
                "unknown section: use [global], [agent NAME] or [job NAME]");
        return;
    }
    if (name_len == 0) {
        s_fail (self, self->line, header, is_agent? "an agent needs a name"
                                                  : "a job needs a name");
        return;
    }
    char reason [REASON_MAX];
    if (s_check_name (name, name_len, reason, sizeof (reason))) {
        s_fail (self, self->line, header, "%s", reason);
        return;
    }
    if (is_agent)
        s_agent_begin (self, header, name);
    else
        s_job_begin (self, header, name);
}

//  --------------------------------------------------------------------
//  What the reader calls

//  A "[...]" line: start the section it names.
static int
s_on_section (void *user, int line, char *header)
{
    s_parser_t *self = (s_parser_t *) user;
    self->line = line;
    s_section_begin (self, header);
    return self->failed? -1: 0;
}

//  --------------------------------------------------------------------
//  Keys

//  Why a key that does not belong in the current section is refused:
//  "unknown key" if it belongs nowhere, else where it does belong.
static void
s_fail_misplaced (s_parser_t *self, const char *name)
{
    const opt_def_t *job_option = jobspec_option (name);
    bool is_run_option = false;
    for (const opt_def_t *opt = scenario_run_options; opt->name; opt++)
        if (strcmp (opt->name, name) == 0)
            is_run_option = true;

    if (is_run_option && self->section != S_SECTION_GLOBAL)
        s_fail (self, self->line, name, "a run option: it belongs in [global]");
    else
    if (strcmp (name, "endpoint") == 0 && self->section != S_SECTION_AGENT)
        s_fail (self, self->line, name, "belongs in an [agent NAME] section");
    else
    if (job_option && (job_option->flags & OPT_HEADER))
        s_fail (self, self->line, name, "comes from the section header, [job NAME]");
    else
    if (job_option && self->section == S_SECTION_GLOBAL)
        s_fail (self, self->line, name, "a job option that cannot be a default: "
                "set it in each [job NAME] section");
    else
    if (job_option && self->section == S_SECTION_AGENT)
        s_fail (self, self->line, name, "a job option: an [agent NAME] section "
                "takes only endpoint");
    else
        s_fail (self, self->line, name, "unknown key");
}

//  Refuse a key given before in the same place; first_line is where it
//  was, 0 if nowhere. Returns 0 if it is new.
static int
s_check_twice (s_parser_t *self, const char *name, int first_line)
{
    if (first_line == 0)
        return 0;
    s_fail (self, self->line, name, "given twice (first at line %d)", first_line);
    return -1;
}

//  Parse value as option opt into base. In a job (a jobspec_t base), the
//  test and agent fields must be valid names as well. Returns 0, or -1
//  after recording the error.
static int
s_parse_option (s_parser_t *self, const opt_def_t *opt, const char *name,
                const char *value, void *base, bool in_job)
{
    char reason [REASON_MAX];
    bool is_name = in_job && opt->type == OPT_STRING
                && (opt->offset == offsetof (jobspec_t, test)
                ||  opt->offset == offsetof (jobspec_t, agent));
    if (is_name && s_check_name (value, strlen (value), reason, sizeof (reason))) {
        s_fail (self, self->line, name, "%s", reason);
        return -1;
    }
    if (opt_parse (opt, value, base, reason, sizeof (reason))) {
        s_fail (self, self->line, name, "%s", reason);
        return -1;
    }
    return 0;
}

//  A key in [global]: a run option, or a default for a job option.
static void
s_global_key (s_parser_t *self, const char *name, const char *value)
{
    for (size_t i = 0; i < self->run_option_count; i++) {
        const opt_def_t *opt = &scenario_run_options [i];
        if (strcmp (opt->name, name) == 0) {
            if (s_check_twice (self, name, self->run_lines [i]) == 0
            &&  s_parse_option (self, opt, name, value, &self->scenario->options, false) == 0)
                self->run_lines [i] = self->line;
            return;
        }
    }
    const opt_def_t *opt = jobspec_option (name);
    if (!opt || !(opt->flags & OPT_GLOBAL) || (opt->flags & OPT_HEADER)) {
        s_fail_misplaced (self, name);
        return;
    }
    s_default_t *fallback = &self->defaults [opt - jobspec_options];
    if (s_check_twice (self, name, fallback->line))
        return;
    //  Parse it now so a bad value is reported at its own line; the value
    //  reaches the jobs at the end.
    jobspec_t scratch;
    jobspec_defaults (&scratch);
    if (s_parse_option (self, opt, name, value, &scratch, true))
        return;
    fallback->text = strdup (value);
    if (!fallback->text) {
        s_fail (self, self->line, name, "out of memory");
        return;
    }
    fallback->line = self->line;
}

//  A key in [agent NAME]: only endpoint.
static void
s_agent_key (s_parser_t *self, const char *name, const char *value)
{
    const opt_def_t *endpoint = &scenario_agent_options [0];
    if (strcmp (name, endpoint->name) != 0) {
        s_fail_misplaced (self, name);
        return;
    }
    if (s_check_twice (self, name, self->endpoint_line))
        return;
    char reason [REASON_MAX];
    scenario_agent_t *agent = &self->scenario->agents [self->current];
    if (s_check_endpoint (value, reason, sizeof (reason))
    ||  opt_parse (endpoint, value, agent, reason, sizeof (reason))) {
        s_fail (self, self->line, name, "%s", reason);
        return;
    }
    self->endpoint_line = self->line;
}

//  A key in [job NAME]: any job option but the header's.
static void
s_job_key (s_parser_t *self, const char *name, const char *value)
{
    const opt_def_t *opt = jobspec_option (name);
    if (!opt || (opt->flags & OPT_HEADER)) {
        s_fail_misplaced (self, name);
        return;
    }
    size_t index = (size_t) (opt - jobspec_options);
    int *lines = self->job_lines + self->current * self->option_count;
    scenario_job_t *job = &self->scenario->jobs [self->current];
    if (s_check_twice (self, name, lines [index])
    ||  s_parse_option (self, opt, name, value, &job->spec, true))
        return;
    lines [index] = self->line;
    if (opt->offset == offsetof (jobspec_t, agent))
        job->agent_line = self->line;
}

//  A KEY = VALUE line of the current section.
static int
s_on_key (void *user, int line, const char *name, const char *value)
{
    s_parser_t *self = (s_parser_t *) user;
    self->line = line;
    switch (self->section) {
        case S_SECTION_NONE:
            s_fail (self, self->line, name, "comes before any section: start with "
                    "[global], [agent NAME] or [job NAME]");
            break;
        case S_SECTION_GLOBAL:
            s_global_key (self, name, value);
            break;
        case S_SECTION_AGENT:
            s_agent_key (self, name, value);
            break;
        case S_SECTION_JOB:
            s_job_key (self, name, value);
            break;
    }
    return self->failed? -1: 0;
}

//  --------------------------------------------------------------------
//  After the last line

//  Give every job the [global] defaults it does not override, its test
//  (its own name unless given) and check it has an agent.
static void
s_finish_jobs (s_parser_t *self)
{
    scenario_t *scenario = self->scenario;
    for (size_t j = 0; j < scenario->job_count && !self->failed; j++) {
        scenario_job_t *job = &scenario->jobs [j];
        const int *lines = self->job_lines + j * self->option_count;
        for (size_t i = 0; i < self->option_count; i++) {
            const s_default_t *fallback = &self->defaults [i];
            if (!fallback->text || lines [i])
                continue;
            //  The value was parsed once already, at its own line, so
            //  this does not fail; if it did, the message points there.
            char reason [REASON_MAX];
            if (opt_parse (&jobspec_options [i], fallback->text, &job->spec,
                           reason, sizeof (reason))) {
                s_fail (self, fallback->line, jobspec_options [i].name, "%s", reason);
                return;
            }
            if (jobspec_options [i].offset == offsetof (jobspec_t, agent))
                job->agent_line = fallback->line;
        }
        if (job->spec.test [0] == 0)
            snprintf (job->spec.test, sizeof (job->spec.test), "%s", job->spec.name);
        if (job->spec.agent [0] == 0)
            s_fail (self, job->line, "agent", "[job %s] needs agent = NAME, "
                    "the name of an [agent NAME] section", job->spec.name);
    }
}

//  Group the jobs into tests, in order of each test's first job.
static void
s_build_tests (s_parser_t *self)
{
    scenario_t *scenario = self->scenario;
    if (scenario->job_count == 0)
        return;
    //  At most one test per job. The first pass names the tests and
    //  counts their jobs, the second fills exact-size index arrays.
    size_t *test_of_job = calloc (scenario->job_count, sizeof (size_t));
    scenario->tests = calloc (scenario->job_count, sizeof (scenario_test_t));
    if (!test_of_job || !scenario->tests)
        goto fail;
    for (size_t j = 0; j < scenario->job_count; j++) {
        const char *name = scenario->jobs [j].spec.test;
        size_t t = 0;
        while (t < scenario->test_count && strcmp (scenario->tests [t].name, name) != 0)
            t++;
        if (t == scenario->test_count) {
            snprintf (scenario->tests [t].name, sizeof (scenario->tests [t].name), "%s", name);
            scenario->test_count++;
        }
        test_of_job [j] = t;
        scenario->tests [t].job_count++;
    }
    for (size_t t = 0; t < scenario->test_count; t++) {
        scenario_test_t *test = &scenario->tests [t];
        test->jobs = calloc (test->job_count, sizeof (size_t));
        if (!test->jobs)
            goto fail;
        test->job_count = 0;
    }
    for (size_t j = 0; j < scenario->job_count; j++) {
        scenario_test_t *test = &scenario->tests [test_of_job [j]];
        test->jobs [test->job_count++] = j;
    }
    free (test_of_job);
    return;

fail:
    free (test_of_job);
    s_fail (self, 0, NULL, "out of memory");
}

//  Free what the parser owns (not the scenario).
static void
s_parser_clear (s_parser_t *self)
{
    if (self->defaults)
        for (size_t i = 0; i < self->option_count; i++)
            free (self->defaults [i].text);
    free (self->defaults);
    free (self->run_lines);
    free (self->job_lines);
}

//  --------------------------------------------------------------------
//  Public functions

scenario_t *
scenario_load (const char *path, char *err, size_t errlen)
{
    assert (path);
    s_parser_t parser = { .err = err, .errlen = errlen };
    scenario_t *self = calloc (1, sizeof (scenario_t));
    if (!self) {
        inifile_error (err, errlen, path, 0, NULL, "out of memory");
        return NULL;
    }
    parser.scenario = self;
    if (strlen (path) > JOB_PATH_MAX) {
        inifile_error (err, errlen, path, 0, NULL, "the file name is longer than %d characters",
                 JOB_PATH_MAX);
        goto fail;
    }
    snprintf (self->path, sizeof (self->path), "%s", path);

    for (const opt_def_t *opt = scenario_run_options; opt->name; opt++) {
        char reason [REASON_MAX];
        parser.run_option_count++;
        if (!opt->default_text)
            continue;               //  stays empty (keys)
        int rc = opt_parse (opt, opt->default_text, &self->options, reason, sizeof (reason));
        assert (rc == 0);           //  the table's own defaults are valid
        (void) rc;
    }
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++)
        parser.option_count++;
    parser.run_lines = calloc (parser.run_option_count, sizeof (int));
    parser.defaults = calloc (parser.option_count, sizeof (s_default_t));
    if (!parser.run_lines || !parser.defaults) {
        inifile_error (err, errlen, path, 0, NULL, "out of memory");
        goto fail;
    }

    if (inifile_read (path, s_on_section, s_on_key, &parser, err, errlen))
        parser.failed = true;
    if (!parser.failed)
        s_finish_jobs (&parser);
    if (!parser.failed)
        s_build_tests (&parser);
    if (parser.failed)
        goto fail;
    s_parser_clear (&parser);
    return self;

fail:
    s_parser_clear (&parser);
    scenario_destroy (&self);
    return NULL;
}

int
scenario_set_agent (scenario_t *self, const char *assignment, char *err, size_t errlen)
{
    assert (self);
    assert (assignment);
    char reason [REASON_MAX];
    const char *equals = strchr (assignment, '=');
    if (!equals) {
        snprintf (err, errlen, "--agent %.*s: expected NAME=ENDPOINT", QUOTE_MAX, assignment);
        return -1;
    }
    size_t name_len = (size_t) (equals - assignment);
    const char *endpoint = equals + 1;
    if (s_check_name (assignment, name_len, reason, sizeof (reason))
    ||  s_check_endpoint (endpoint, reason, sizeof (reason))) {
        snprintf (err, errlen, "--agent %.*s: %s", QUOTE_MAX, assignment, reason);
        return -1;
    }
    char name [JOB_NAME_MAX + 1];
    snprintf (name, sizeof (name), "%.*s", (int) name_len, assignment);

    //  A section of that name keeps its line: it still names the agent.
    ssize_t index = s_agent_index (self, name);
    if (index < 0) {
        scenario_agent_t *grown = realloc (self->agents,
                                           (self->agent_count + 1) * sizeof (scenario_agent_t));
        if (!grown) {
            snprintf (err, errlen, "--agent %.*s: out of memory", QUOTE_MAX, assignment);
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
    if (strncmp (src, "nfs://", 6) != 0) {
        if (strstr (src, "://")) {
            snprintf (reason, reasonlen, "'%s' is neither a path nor an nfs:// URL", src);
            return -1;
        }
        return 0;
    }
    const char *server = src + 6;
    const char *slash = strchr (server, '/');
    size_t path_len = slash? strcspn (slash, "?"): 0;
    if (!slash || slash == server || path_len < 2 || slash [path_len - 1] == '/') {
        snprintf (reason, reasonlen, "'%s' is not nfs://server/export/file", src);
        return -1;
    }
    return 0;
}

//  Check what the job's workload needs. Returns 0, or -1 with the error.
static int
s_check_workload (const scenario_t *self, const scenario_job_t *job,
                  char *err, size_t errlen)
{
    const jobspec_t *spec = &job->spec;
    char reason [JOB_PATH_MAX + 64];
    const char *workload = jobspec_workload_name (spec->workload);
    if (spec->workload == WORKLOAD_WRITE && spec->path [0] == 0) {
        inifile_error (err, errlen, self->path, job->line, "path",
                 "the %s workload needs a path", workload);
        return -1;
    }
    if (spec->workload == WORKLOAD_FILL && spec->path [0] == 0) {
        inifile_error (err, errlen, self->path, job->line, "path",
                 "the %s workload needs a path (the file to create)", workload);
        return -1;
    }
    if (spec->workload == WORKLOAD_COPY && spec->src [0] == 0) {
        inifile_error (err, errlen, self->path, job->line, "src",
                 "the %s workload needs a src: a path or nfs://server/export/file", workload);
        return -1;
    }
    if (spec->workload == WORKLOAD_COPY && spec->dst [0] == 0) {
        inifile_error (err, errlen, self->path, job->line, "dst",
                 "the %s workload needs a dst", workload);
        return -1;
    }
    if (spec->src [0] && s_check_source (spec->src, reason, sizeof (reason))) {
        inifile_error (err, errlen, self->path, job->line, "src", "%s", reason);
        return -1;
    }
    if ((spec->workload == WORKLOAD_WRITE || spec->workload == WORKLOAD_NULL
    ||   spec->workload == WORKLOAD_FILL)
    &&  spec->size_bytes == 0) {
        inifile_error (err, errlen, self->path, job->line, "size",
                 "the %s workload needs a size", workload);
        return -1;
    }
    if (spec->workload == WORKLOAD_MONITOR && spec->streams != 1) {
        inifile_error (err, errlen, self->path, job->line, "streams",
                 "a monitor watches its host once: streams must be 1");
        return -1;
    }
    if (spec->direct && spec->bs_bytes % DIRECT_ALIGN_BYTES) {
        inifile_error (err, errlen, self->path, job->line, "bs",
                 "direct = yes needs a multiple of %d bytes, and %" PRIu64 " is not",
                 DIRECT_ALIGN_BYTES, spec->bs_bytes);
        return -1;
    }
    if (spec->direct && spec->size_bytes % DIRECT_ALIGN_BYTES) {
        inifile_error (err, errlen, self->path, job->line, "size",
                 "direct = yes needs a multiple of %d bytes, and %" PRIu64 " is not",
                 DIRECT_ALIGN_BYTES, spec->size_bytes);
        return -1;
    }
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
            inifile_error (err, errlen, self->path, later->line, "path",
                     "[job %s] and [job %s] (line %d) write the same file on agent %s "
                     "in test %s; they would overwrite each other",
                     later->spec.name, earlier->spec.name, earlier->line,
                     later->spec.agent, test->name);
            return -1;
        }
    }
    return 0;
}

int
scenario_check (const scenario_t *self, char *err, size_t errlen)
{
    assert (self);
    if (self->job_count == 0) {
        inifile_error (err, errlen, self->path, 0, NULL, "no [job] sections");
        return -1;
    }
    for (size_t i = 0; i < self->agent_count; i++) {
        const scenario_agent_t *agent = &self->agents [i];
        if (agent->endpoint [0] == 0) {
            inifile_error (err, errlen, self->path, agent->line, "endpoint",
                     "[agent %s] has no endpoint and no --agent %s=ENDPOINT was given",
                     agent->name, agent->name);
            return -1;
        }
    }
    for (size_t j = 0; j < self->job_count; j++) {
        const scenario_job_t *job = &self->jobs [j];
        if (!scenario_agent (self, job->spec.agent)) {
            inifile_error (err, errlen, self->path, job->agent_line, "agent",
                     "no [agent %s] section and no --agent %s=ENDPOINT",
                     job->spec.agent, job->spec.agent);
            return -1;
        }
        if (s_check_workload (self, job, err, errlen))
            return -1;
    }
    for (size_t t = 0; t < self->test_count; t++)
        if (s_check_overlaps (self, &self->tests [t], err, errlen))
            return -1;
    return 0;
}

const scenario_agent_t *
scenario_agent (const scenario_t *self, const char *name)
{
    assert (self);
    assert (name);
    ssize_t index = s_agent_index (self, name);
    return index < 0? NULL: &self->agents [index];
}

void
scenario_destroy (scenario_t **self_p)
{
    assert (self_p);
    scenario_t *self = *self_p;
    if (!self)
        return;
    for (size_t t = 0; t < self->test_count; t++)
        free (self->tests [t].jobs);
    free (self->tests);
    free (self->jobs);
    free (self->agents);
    free (self);
    *self_p = NULL;
}
