/*  coordinator/scenario/scenario_keys.c: the KEY = VALUE lines of a scenario
    file, by the section they are in; part of the parser of
    scenario_parser.h.

    Keys given twice in one section are an error, not "last one wins":
    a scenario is a record of what was measured, and a silently ignored
    line is a wrong record. [global] may appear more than once, but a key
    may still be given only once across all of them.
*/
#include "fio_keys.h"
#include "group.h"
#include "scenario_parser.h"
#include "scenario_rules.h"
#include "../../proto/suggest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REASON_MAX SCENARIO_REASON_MAX

//  --------------------------------------------------------------------
//  Keys

//  Offer the names of a table's keys to suggest; with header false, not
//  those that come from a section header.
static void
s_offer_keys (suggest_t *suggest, const opt_def_t *table, bool header)
{
    for (const opt_def_t *opt = table; opt->name; opt++)
        if (header || !(opt->flags & OPT_HEADER))
            suggest_offer (suggest, opt->name);
}

//  The known key nearest to name, or NULL if none is close: the keys of
//  the current section first, so that they win a tie.
static const char *
s_nearest_key (const scenario_parser_t *self, const char *name)
{
    suggest_t suggest;
    suggest_start (&suggest, name);
    const opt_def_t *own [] = {
        [SCENARIO_SECTION_GLOBAL] = scenario_run_options,
        [SCENARIO_SECTION_AGENT] = scenario_agent_options,
        [SCENARIO_SECTION_GROUP] = scenario_group_options,
        [SCENARIO_SECTION_JOB] = jobspec_options
    };
    if (self->section < sizeof own / sizeof own [0] && own [self->section])
        s_offer_keys (&suggest, own [self->section], false);
    s_offer_keys (&suggest, jobspec_options, false);
    s_offer_keys (&suggest, scenario_run_options, true);
    s_offer_keys (&suggest, scenario_agent_options, true);
    s_offer_keys (&suggest, scenario_group_options, true);
    return suggest_best (&suggest);
}

//  Why a key that does not belong in the current section is refused:
//  "unknown key" if it belongs nowhere, else where it does belong; one of
//  fio's keys gets what it is here.
static void
s_fail_misplaced (scenario_parser_t *self, const char *name, const char *value)
{
    char fio [2 * REASON_MAX];
    const opt_def_t *job_option = jobspec_option (name);
    bool is_run_option = false;
    for (const opt_def_t *opt = scenario_run_options; opt->name; opt++)
        if (strcmp (opt->name, name) == 0)
            is_run_option = true;

    if (is_run_option && self->section != SCENARIO_SECTION_GLOBAL)
        scenario_parser_fail (self, self->line, name, "a run option: it belongs in [global]");
    else
    if (strcmp (name, "endpoint") == 0)
        scenario_parser_fail (self, self->line, name,
                              "belongs in an [agent NAME] or [group NAME] section");
    else
    if (strcmp (name, "agents") == 0)
        scenario_parser_fail (self, self->line, name, "belongs in a [group NAME] section");
    else
    if (job_option && (job_option->flags & OPT_HEADER))
        scenario_parser_fail (self, self->line, name, "comes from the section header, [job NAME]");
    else
    if (job_option && self->section == SCENARIO_SECTION_GLOBAL)
        scenario_parser_fail (self, self->line, name, "a job option that cannot be a default: "
                "set it in each [job NAME] section");
    else
    if (job_option && self->section == SCENARIO_SECTION_AGENT)
        scenario_parser_fail (self, self->line, name, "a job option: an [agent NAME] section "
                "takes only endpoint");
    else
    if (job_option && self->section == SCENARIO_SECTION_GROUP)
        scenario_parser_fail (self, self->line, name, "a job option: a [group NAME] section "
                "takes agents and endpoint");
    else
    if (fio_keys_explain (name, value, fio, sizeof fio) == 0)
        scenario_parser_fail (self, self->line, name, "%s", fio);
    else {
        const char *near = s_nearest_key (self, name);
        scenario_parser_fail (self, self->line, name, "unknown key%s%s%s",
                              near? ": did you mean ": "", near? near: "", near? "?": "");
    }
}

//  Refuse a key given before in the same place; first_line is where it
//  was, 0 if nowhere. Returns 0 if it is new.
static int
s_check_twice (scenario_parser_t *self, const char *name, int first_line)
{
    if (first_line == 0)
        return 0;
    scenario_parser_fail (self, self->line, name, "given twice (first at line %d)", first_line);
    return -1;
}

//  Parse value as option opt into base. In a job (a jobspec_t base), the
//  test and agent fields must be valid names as well. Returns 0, or -1
//  after recording the error.
static int
s_parse_option (scenario_parser_t *self, const opt_def_t *opt, const char *name,
                const char *value, void *base, bool in_job)
{
    char reason [REASON_MAX];
    bool is_name = in_job && opt->type == OPT_STRING
                && (opt->offset == offsetof (jobspec_t, test)
                ||  opt->offset == offsetof (jobspec_t, agent));
    if (is_name && scenario_check_name (value, strlen (value), reason, sizeof (reason))) {
        scenario_parser_fail (self, self->line, name, "%s", reason);
        return -1;
    }
    if (opt_parse (opt, value, base, reason, sizeof (reason))) {
        scenario_parser_fail (self, self->line, name, "%s", reason);
        return -1;
    }
    return 0;
}

//  A key in [global]: a run option, or a default for a job option.
static void
s_global_key (scenario_parser_t *self, const char *name, const char *value)
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
        s_fail_misplaced (self, name, value);
        return;
    }
    scenario_default_t *fallback = &self->defaults [opt - jobspec_options];
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
        scenario_parser_nomem (self, self->line, name);
        return;
    }
    fallback->line = self->line;
}

//  A key in [agent NAME]: only endpoint.
static void
s_agent_key (scenario_parser_t *self, const char *name, const char *value)
{
    const opt_def_t *endpoint = &scenario_agent_options [0];
    if (strcmp (name, endpoint->name) != 0) {
        s_fail_misplaced (self, name, value);
        return;
    }
    if (s_check_twice (self, name, self->endpoint_line))
        return;
    char reason [REASON_MAX];
    scenario_agent_t *agent = &self->scenario->agents [self->current];
    if (scenario_check_endpoint (value, reason, sizeof (reason))
    ||  opt_parse (endpoint, value, agent, reason, sizeof (reason))) {
        scenario_parser_fail (self, self->line, name, "%s", reason);
        return;
    }
    self->endpoint_line = self->line;
}

//  A key in [group NAME]: agents or endpoint (coordinator/scenario/group.c).
static void
s_group_key (scenario_parser_t *self, const char *name, const char *value)
{
    char reason [REASON_MAX];
    int rc = group_key (self->scenario, name, value, self->line, reason, sizeof (reason));
    if (rc > 0)
        s_fail_misplaced (self, name, value);
    else
    if (rc < 0)
        scenario_parser_fail (self, self->line, name, "%s", reason);
}

//  A key in [job NAME]: any job option but the header's.
static void
s_job_key (scenario_parser_t *self, const char *name, const char *value)
{
    const opt_def_t *opt = jobspec_option (name);
    if (!opt || (opt->flags & OPT_HEADER)) {
        s_fail_misplaced (self, name, value);
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
int
scenario_keys_on_key (void *user, int line, const char *name, const char *value)
{
    scenario_parser_t *self = (scenario_parser_t *) user;
    self->line = line;
    switch (self->section) {
        case SCENARIO_SECTION_NONE:
            scenario_parser_fail (self, self->line, name, "comes before any section: "
                                  "start with [global], [agent NAME] or [job NAME]");
            break;
        case SCENARIO_SECTION_GLOBAL:
            s_global_key (self, name, value);
            break;
        case SCENARIO_SECTION_AGENT:
            s_agent_key (self, name, value);
            break;
        case SCENARIO_SECTION_GROUP:
            s_group_key (self, name, value);
            break;
        case SCENARIO_SECTION_JOB: {
            size_t errors = self->errors.total;
            s_job_key (self, name, value);
            if (self->errors.total != errors)
                self->refused [self->current] = 1;
            break;
        }
        case SCENARIO_SECTION_REFUSED:
            break;              //  its header is in error
    }
    return self->fatal? -1: 0;
}

