/*  coordinator/scenario/scenario_sections.c: the section headers of a scenario
    file, [global], [agent NAME], [group NAME] and [job NAME]; part of the
    parser of scenario_parser.h.

    inifile.c hands a header here unparsed: an empty or repeated [job X]
    is seen, and a name is never cut short.
*/
#include "group.h"
#include "scenario_parser.h"
#include "scenario_rules.h"
#include "../../proto/array.h"
#include "../../proto/suggest.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REASON_MAX SCENARIO_REASON_MAX

//  First capacity of the job array; it doubles from there.
#define FIRST_CAPACITY 8

//  --------------------------------------------------------------------
//  Section headers

//  Start an [agent NAME] section.
static void
s_agent_begin (scenario_parser_t *self, const char *header, const char *name)
{
    scenario_t *scenario = self->scenario;
    const scenario_agent_t *first = scenario_agent (scenario, name);
    if (first) {
        scenario_parser_fail (self, self->line, header, "defined twice (first at line %d)",
                              first->line);
        return;
    }
    ssize_t index = scenario_agent_add (scenario, name, self->line);
    if (index < 0) {
        scenario_parser_nomem (self, self->line, header);
        return;
    }
    self->section = SCENARIO_SECTION_AGENT;
    self->current = (size_t) index;
    self->endpoint_line = 0;
}

//  Start a [job NAME] section: a template with every default, named.
static void
s_job_begin (scenario_parser_t *self, const char *header, const char *name)
{
    scenario_t *scenario = self->scenario;
    for (size_t t = 0; t < scenario->template_count; t++)
        if (strcmp (scenario->templates [t].spec.name, name) == 0) {
            scenario_parser_fail (self, self->line, header, "defined twice (first at line %d)",
                    scenario->templates [t].line);
            return;
        }
    int *option_lines = calloc (self->option_count, sizeof (int));
    if (!option_lines
    ||  array_grow (&scenario->templates, &self->template_capacity,
                    scenario->template_count, sizeof (scenario_template_t), FIRST_CAPACITY)
    ||  array_grow (&self->refused, &self->refused_capacity,
                    scenario->template_count, 1, FIRST_CAPACITY)) {
        free (option_lines);
        scenario_parser_nomem (self, self->line, header);
        return;
    }
    self->refused [scenario->template_count] = 0;
    scenario_template_t *job = &scenario->templates [scenario->template_count++];
    memset (job, 0, sizeof (*job));
    jobspec_defaults (&job->spec);
    snprintf (job->spec.name, sizeof (job->spec.name), "%s", name);
    job->line = self->line;
    job->option_lines = option_lines;
    self->section = SCENARIO_SECTION_JOB;
    self->current = scenario->template_count - 1;
}

//  Parse a header line, text starting with '[' and without surrounding
//  whitespace, and start the section it names.
static void
s_section_begin (scenario_parser_t *self, char *text)
{
    char *close = strchr (text, ']');
    if (!close) {
        scenario_parser_fail (self, self->line, text, "a section header needs a closing ']'");
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
        scenario_parser_fail (self, self->line, header, "only a comment may follow the ']'");
        return;
    }

    //  Split "[ kind  name ]" into kind and name.
    char inner [JOB_NAME_MAX * 4];
    size_t inner_len = (size_t) (close - text - 1);
    if (inner_len >= sizeof (inner)) {
        scenario_parser_fail (self, self->line, header, "the header is longer than %zu characters",
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
            scenario_parser_fail (self, self->line, header, "[global] takes no name");
        else
            self->section = SCENARIO_SECTION_GLOBAL;
        return;
    }
    bool is_agent = strcmp (kind, "agent") == 0;
    bool is_group = strcmp (kind, "group") == 0;
    bool is_job = strcmp (kind, "job") == 0;
    if (!is_agent && !is_group && !is_job) {
        static const char *const kinds [] = { "global", "agent", "group", "job", NULL };
        const char *near = suggest_among (kind, kinds);
        if (near)
            scenario_parser_fail (self, self->line, header, "unknown section: did you mean "
                                  "[%s%s%s]? (use [global], [agent NAME], [group NAME] or "
                                  "[job NAME])", near, name_len? " ": "", name);
        else
            scenario_parser_fail (self, self->line, header, "unknown section: use [global], "
                                  "[agent NAME], [group NAME] or [job NAME]");
        return;
    }
    if (name_len == 0) {
        scenario_parser_fail (self, self->line, header, "%s needs a name",
                is_agent? "an agent": is_group? "a group": "a job");
        return;
    }
    char reason [REASON_MAX];
    if (scenario_check_name (name, name_len, reason, sizeof (reason))) {
        scenario_parser_fail (self, self->line, header, "%s", reason);
        return;
    }
    if (is_agent)
        s_agent_begin (self, header, name);
    else
    if (is_group) {
        if (group_begin (self->scenario, name, self->line, reason, sizeof (reason)))
            scenario_parser_fail (self, self->line, header, "%s", reason);
        self->section = SCENARIO_SECTION_GROUP;
    }
    else
        s_job_begin (self, header, name);
}

//  A "[...]" line: start the section it names.
int
scenario_sections_on_header (void *user, int line, char *header)
{
    scenario_parser_t *self = (scenario_parser_t *) user;
    self->line = line;
    size_t errors = self->errors.total;
    s_section_begin (self, header);
    //  The keys of a section that is not there would only add errors
    //  that follow from this one.
    if (self->errors.total != errors)
        self->section = SCENARIO_SECTION_REFUSED;
    return self->fatal? -1: 0;
}

