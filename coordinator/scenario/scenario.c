/*  coordinator/scenario/scenario.c: read a scenario file into a scenario_t; see
    scenario.h (the checks after it are in scenario_check.c).

    The text stays in the scenario, for the results directory to save as
    run.

    The file is read (whole, bounded: a regular file or a pipe) and split
    into lines by proto/inifile.c, which knows every line's number and
    hands section headers here unparsed: an empty or repeated [job X] is
    seen, and a name is never cut short.

    Keys given twice in one section are an error, not "last one wins":
    a scenario is a record of what was measured, and a silently ignored
    line is a wrong record. [global] may appear more than once, but a key
    may still be given only once across all of them.
*/
#include "group.h"
#include "scenario_rules.h"
#include "../../proto/clock.h"
#include "../../proto/inifile.h"
#include "../../proto/workload.h"

#include <assert.h>
#include <czmq.h>
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REASON_MAX SCENARIO_REASON_MAX

//  First capacity of the job and agent arrays; they double from there.
#define FIRST_CAPACITY 8

//  The kind of section the parser is in.
typedef enum {
    S_SECTION_NONE,             //  before the first header
    S_SECTION_GLOBAL,           //  [global]
    S_SECTION_AGENT,            //  [agent NAME]
    S_SECTION_GROUP,            //  [group NAME]
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
    scenario_t *scenario;       //  being built; its text is what is parsed
    int line;                   //  number of the line being parsed, from 1
    s_section_t section;        //  kind of the current section
    size_t current;             //  index of the current agent or job
    int endpoint_line;          //  current [agent]: line of its endpoint, 0 if none yet
    size_t option_count;        //  rows in jobspec_options
    size_t run_option_count;    //  rows in scenario_run_options
    int *run_lines;             //  line of each run option in [global], 0 if not given
    s_default_t *defaults;      //  [global] value of each job option
    size_t template_capacity;   //  slots allocated in scenario->templates
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
    scenario_error_va (self->err, self->errlen, self->scenario->path, line, key, format, args);
    va_end (args);
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

//  --------------------------------------------------------------------
//  Section headers

//  Start an [agent NAME] section.
static void
s_agent_begin (s_parser_t *self, const char *header, const char *name)
{
    scenario_t *scenario = self->scenario;
    const scenario_agent_t *first = scenario_agent (scenario, name);
    if (first) {
        s_fail (self, self->line, header, "defined twice (first at line %d)", first->line);
        return;
    }
    ssize_t index = scenario_agent_add (scenario, name, self->line);
    if (index < 0) {
        s_fail (self, self->line, header, "out of memory");
        return;
    }
    self->section = S_SECTION_AGENT;
    self->current = (size_t) index;
    self->endpoint_line = 0;
}

//  Start a [job NAME] section: a template with every default, named.
static void
s_job_begin (s_parser_t *self, const char *header, const char *name)
{
    scenario_t *scenario = self->scenario;
    for (size_t t = 0; t < scenario->template_count; t++)
        if (strcmp (scenario->templates [t].spec.name, name) == 0) {
            s_fail (self, self->line, header, "defined twice (first at line %d)",
                    scenario->templates [t].line);
            return;
        }
    int *option_lines = calloc (self->option_count, sizeof (int));
    if (!option_lines
    ||  s_grow ((void **) &scenario->templates, &self->template_capacity,
                scenario->template_count, sizeof (scenario_template_t))) {
        free (option_lines);
        s_fail (self, self->line, header, "out of memory");
        return;
    }
    scenario_template_t *job = &scenario->templates [scenario->template_count++];
    memset (job, 0, sizeof (*job));
    jobspec_defaults (&job->spec);
    snprintf (job->spec.name, sizeof (job->spec.name), "%s", name);
    job->line = self->line;
    job->option_lines = option_lines;
    self->section = S_SECTION_JOB;
    self->current = scenario->template_count - 1;
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
    bool is_group = strcmp (kind, "group") == 0;
    bool is_job = strcmp (kind, "job") == 0;
    if (!is_agent && !is_group && !is_job) {
        s_fail (self, self->line, header,
                "unknown section: use [global], [agent NAME], [group NAME] or [job NAME]");
        return;
    }
    if (name_len == 0) {
        s_fail (self, self->line, header, "%s needs a name",
                is_agent? "an agent": is_group? "a group": "a job");
        return;
    }
    char reason [REASON_MAX];
    if (scenario_check_name (name, name_len, reason, sizeof (reason))) {
        s_fail (self, self->line, header, "%s", reason);
        return;
    }
    if (is_agent)
        s_agent_begin (self, header, name);
    else
    if (is_group) {
        if (group_begin (self->scenario, name, self->line, reason, sizeof (reason)))
            s_fail (self, self->line, header, "%s", reason);
        self->section = S_SECTION_GROUP;
    }
    else
        s_job_begin (self, header, name);
}

//  --------------------------------------------------------------------
//  What the reader calls

//  What a scenario file may hold.
static const inifile_limits_t s_limits = {
    .what = "scenario", .file_max = SCENARIO_FILE_MAX, .line_max = SCENARIO_LINE_MAX
};

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
    if (strcmp (name, "endpoint") == 0)
        s_fail (self, self->line, name, "belongs in an [agent NAME] or [group NAME] section");
    else
    if (strcmp (name, "agents") == 0)
        s_fail (self, self->line, name, "belongs in a [group NAME] section");
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
    if (job_option && self->section == S_SECTION_GROUP)
        s_fail (self, self->line, name, "a job option: a [group NAME] section "
                "takes agents and endpoint");
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
    if (is_name && scenario_check_name (value, strlen (value), reason, sizeof (reason))) {
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
    if (scenario_check_endpoint (value, reason, sizeof (reason))
    ||  opt_parse (endpoint, value, agent, reason, sizeof (reason))) {
        s_fail (self, self->line, name, "%s", reason);
        return;
    }
    self->endpoint_line = self->line;
}

//  A key in [group NAME]: agents or endpoint (coordinator/scenario/group.c).
static void
s_group_key (s_parser_t *self, const char *name, const char *value)
{
    char reason [REASON_MAX];
    int rc = group_key (self->scenario, name, value, self->line, reason, sizeof (reason));
    if (rc > 0)
        s_fail_misplaced (self, name);
    else
    if (rc < 0)
        s_fail (self, self->line, name, "%s", reason);
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
    scenario_template_t *job = &self->scenario->templates [self->current];
    if (s_check_twice (self, name, job->option_lines [index])
    ||  s_parse_option (self, opt, name, value, &job->spec, true))
        return;
    job->option_lines [index] = self->line;
    job->own_options |= (uint64_t) 1 << index;
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
        case S_SECTION_GROUP:
            s_group_key (self, name, value);
            break;
        case S_SECTION_JOB:
            s_job_key (self, name, value);
            break;
    }
    return self->failed? -1: 0;
}

//  --------------------------------------------------------------------
//  After the last line

//  True if the job set option (itself or through [global]).
static bool
s_option_given (const char *option, void *arg)
{
    const scenario_template_t *job = (const scenario_template_t *) arg;
    const opt_def_t *opt = jobspec_option (option);
    return opt && job->option_lines [opt - jobspec_options] != 0;
}

//  Give every job the [global] defaults it does not override, its
//  workload's defaults, its test (its own name unless given) and check
//  it has an agent.
static void
s_finish_jobs (s_parser_t *self)
{
    scenario_t *scenario = self->scenario;
    for (size_t j = 0; j < scenario->template_count && !self->failed; j++) {
        scenario_template_t *job = &scenario->templates [j];
        for (size_t i = 0; i < self->option_count; i++) {
            const s_default_t *fallback = &self->defaults [i];
            if (!fallback->text || job->option_lines [i])
                continue;
            //  The value was parsed once already, at its own line, so
            //  this does not fail; if it did, the message points there.
            char reason [REASON_MAX];
            if (opt_parse (&jobspec_options [i], fallback->text, &job->spec,
                           reason, sizeof (reason))) {
                s_fail (self, fallback->line, jobspec_options [i].name, "%s", reason);
                return;
            }
            //  From here on the option's line is its default's: a check
            //  of its value points there.
            job->option_lines [i] = fallback->line;
        }
        //  The workload's own defaults (bonnie's bs of 8K) for options
        //  neither the job nor [global] set.
        const char *key = "workload";
        char reason [512];
        if (workload_apply_defaults (&job->spec, s_option_given, job, &key, reason,
                                     sizeof (reason))) {
            s_fail (self, scenario_key_line (job, key), key, "%s", reason);
            return;
        }
        if (job->spec.test [0] == 0)
            snprintf (job->spec.test, sizeof (job->spec.test), "%s", job->spec.name);
        if (job->spec.agent [0] == 0)
            s_fail (self, job->line, "agent", "[job %s] needs agent = NAME, "
                    "the name of an [agent NAME] or [group NAME] section", job->spec.name);
    }
}

//  Group the jobs into tests, in order of each test's first job.
static void
s_build_tests (s_parser_t *self)
{
    scenario_t *scenario = self->scenario;
    if (scenario->job_count == 0)
        return;
    //  At most one test per [job] section. The first pass names the
    //  tests and counts their jobs, the second fills exact-size arrays.
    size_t *test_of_job = calloc (scenario->job_count, sizeof (size_t));
    scenario->tests = calloc (scenario->template_count, sizeof (scenario_test_t));
    if (!test_of_job || !scenario->tests)
        goto fail;
    for (size_t j = 0; j < scenario->job_count; j++) {
        const char *name = scenario->jobs [j].template->spec.test;
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
        scenario_error (err, errlen, path, 0, NULL, "out of memory");
        return NULL;
    }
    parser.scenario = self;
    if (strlen (path) > JOB_PATH_MAX) {
        scenario_error (err, errlen, path, 0, NULL, "the file name is longer than %d characters",
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
        scenario_error (err, errlen, path, 0, NULL, "out of memory");
        goto fail;
    }

    if (inifile_load (path, &s_limits, &self->text, &self->text_length, err, errlen))
        goto fail;
    if (inifile_parse (path, &s_limits, self->text, self->text_length,
                       s_on_section, s_on_key, &parser, err, errlen))
        parser.failed = true;
    if (!parser.failed)
        s_finish_jobs (&parser);
    if (!parser.failed && group_expand (self, err, errlen))
        parser.failed = true;
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

void
scenario_destroy (scenario_t **self_p)
{
    assert (self_p);
    scenario_t *self = *self_p;
    if (!self)
        return;
    for (size_t t = 0; t < self->test_count; t++)
        free (self->tests [t].jobs);
    for (size_t j = 0; j < self->template_count; j++)
        free (self->templates [j].option_lines);
    for (size_t j = 0; j < self->job_count; j++) {
        free (self->jobs [j].path);
        free (self->jobs [j].src);
        free (self->jobs [j].dst);
    }
    for (size_t g = 0; g < self->group_count; g++)
        free (self->groups [g].members);
    free (self->groups);
    free (self->tests);
    free (self->templates);
    free (self->jobs);
    free (self->text);
    free (self->agents);
    zhashx_t *index = (zhashx_t *) self->agent_index;
    zhashx_destroy (&index);
    free (self);
    *self_p = NULL;
}
