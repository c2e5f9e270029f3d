/*  coordinator/scenario/scenario.c: read a scenario file into a scenario_t; see
    scenario.h (the checks after it are in scenario_check.c).

    The text stays in the scenario, for the results directory to save as
    run.

    The file is read (whole, bounded: a regular file or a pipe) and split
    into lines by proto/inifile.c, which knows every line's number; the
    parser's state is in scenario_parser.h, its section headers in
    scenario_sections.c and its keys in scenario_keys.c.
*/
#include "group.h"
#include "scenario_parser.h"
#include "scenario_rules.h"
#include "../../proto/inifile.h"
#include "../../proto/workload.h"

#include <assert.h>
#include <czmq.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REASON_MAX SCENARIO_REASON_MAX

//  --------------------------------------------------------------------
//  Error messages

void
scenario_parser_fail (scenario_parser_t *self, int line, const char *key, const char *format, ...)
{
    //  A path, a quoted key and a reason.
    char text [JOB_PATH_MAX + SCENARIO_KEY_QUOTE_MAX + 2 * SCENARIO_REASON_MAX];
    va_list args;
    va_start (args, format);
    scenario_error_va (text, sizeof text, self->scenario->path, line, key, format, args);
    va_end (args);
    self->failed = true;
    scenario_errors_add (&self->errors, self->scenario->path, text);
    self->fatal = self->fatal || self->errors.nomem;
}

void
scenario_parser_nomem (scenario_parser_t *self, int line, const char *key)
{
    scenario_parser_fail (self, line, key, "out of memory");
    self->fatal = true;
}

//  --------------------------------------------------------------------
//  What the reader calls

//  What a scenario file may hold.
static const inifile_limits_t s_limits = {
    .what = "scenario", .file_max = SCENARIO_FILE_MAX, .line_max = SCENARIO_LINE_MAX
};

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
s_finish_jobs (scenario_parser_t *self)
{
    scenario_t *scenario = self->scenario;
    for (size_t j = 0; j < scenario->template_count && !self->fatal; j++) {
        scenario_template_t *job = &scenario->templates [j];
        if (self->refused [j])
            continue;           //  what it lacks may be the refused line
        for (size_t i = 0; i < self->option_count; i++) {
            const scenario_default_t *fallback = &self->defaults [i];
            if (!fallback->text || job->option_lines [i])
                continue;
            //  The value was parsed once already, at its own line, so
            //  this does not fail; if it did, the message points there.
            char reason [REASON_MAX];
            if (opt_parse (&jobspec_options [i], fallback->text, &job->spec,
                           reason, sizeof (reason))) {
                scenario_parser_fail (self, fallback->line, jobspec_options [i].name, "%s", reason);
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
            scenario_parser_fail (self, scenario_key_line (job, key), key, "%s", reason);
            continue;
        }
        if (job->spec.test [0] == 0)
            snprintf (job->spec.test, sizeof (job->spec.test), "%s", job->spec.name);
        if (job->spec.agent [0] == 0)
            scenario_parser_fail (self, job->line, "agent", "[job %s] needs agent = NAME, "
                    "the name of an [agent NAME] or [group NAME] section", job->spec.name);
    }
}

//  Group the jobs into tests, in order of each test's first job.
static void
s_build_tests (scenario_parser_t *self)
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
    scenario_parser_nomem (self, 0, NULL);
}

//  Free what the parser owns (not the scenario).
static void
s_parser_clear (scenario_parser_t *self)
{
    if (self->defaults)
        for (size_t i = 0; i < self->option_count; i++)
            free (self->defaults [i].text);
    free (self->defaults);
    free (self->run_lines);
    free (self->refused);
    scenario_errors_clear (&self->errors);
}

//  --------------------------------------------------------------------
//  Public functions

//  scenario_load of the file at path, or of text (length bytes, taken)
//  if it is not NULL.
static scenario_t *
s_load (const char *path, char *text, size_t length, char *err, size_t errlen)
{
    assert (path);
    scenario_parser_t parser = { .scenario = NULL };
    scenario_t *self = calloc (1, sizeof (scenario_t));
    if (!self) {
        scenario_error (err, errlen, path, 0, NULL, "out of memory");
        free (text);
        return NULL;
    }
    parser.scenario = self;
    self->text = text;
    self->text_length = length;
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
    parser.defaults = calloc (parser.option_count, sizeof (scenario_default_t));
    if (!parser.run_lines || !parser.defaults) {
        scenario_error (err, errlen, path, 0, NULL, "out of memory");
        goto fail;
    }

    if (!text && inifile_load (path, &s_limits, &self->text, &self->text_length, err, errlen))
        goto fail;
    //  The reader stops at a line it cannot split (its error is the
    //  last, and the jobs are not finished: the rest of the file is
    //  unread), or when memory runs out; every other error is collected.
    bool stopped = inifile_parse (path, &s_limits, self->text, self->text_length,
                                  scenario_sections_on_header, scenario_keys_on_key, &parser,
                                  err, errlen) != 0;
    if (stopped && !parser.fatal) {
        parser.failed = true;
        scenario_errors_add (&parser.errors, path, err);
    }
    if (!stopped)
        s_finish_jobs (&parser);
    //  Groups and tests are made of what is right, and only then: an
    //  error there is one, and follows from the file as a whole.
    if (!parser.failed && group_expand (self, err, errlen))
        goto fail;
    if (!parser.failed)
        s_build_tests (&parser);
    if (parser.failed) {
        scenario_errors_write (&parser.errors, path, err, errlen);
        goto fail;
    }
    s_parser_clear (&parser);
    return self;

fail:
    s_parser_clear (&parser);
    scenario_destroy (&self);
    return NULL;
}

scenario_t *
scenario_load (const char *path, char *err, size_t errlen)
{
    return s_load (path, NULL, 0, err, errlen);
}

scenario_t *
scenario_load_text (const char *path, char *text, char *err, size_t errlen)
{
    assert (text);
    return s_load (path, text, strlen (text), err, errlen);
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
