/*  coordinator/scenario/group_expand.c: a scenario's groups made agents and
    its [job] sections made jobs, once the file is read; see group.h.

    A job on a group becomes one small scenario_job_t per member, which
    holds its name, its agent and the paths {agent} makes its own; the
    [job] section's spec is the template they share.
*/
#include "group.h"
#include "scenario_rules.h"

#include <czmq.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  --------------------------------------------------------------------
//  Expansion

//  The group before g whose pattern gave agent index its endpoint.
static const scenario_group_t *
s_placed_by (const scenario_t *scenario, size_t g, size_t index)
{
    for (size_t earlier = 0; earlier < g; earlier++) {
        const scenario_group_t *group = &scenario->groups [earlier];
        for (size_t m = 0; group->endpoint_line && m < group->member_count; m++)
            if (group->members [m] == index)
                return group;
    }
    return &scenario->groups [0];   //  not reached: only a pattern places a member
}

//  Make the members of group g agents, with the endpoints of its pattern
//  where they have none. Returns 0, or -1 with the error.
static int
s_expand_group (scenario_t *scenario, size_t g, char *err, size_t errlen)
{
    scenario_group_t *group = &scenario->groups [g];
    const char *path = scenario->path;
    char reason [SCENARIO_REASON_MAX];
    if (!group->agents_line) {
        scenario_error (err, errlen, path, group->line, "agents",
                        "[group %s] needs agents = its members, such as c[01-64]", group->name);
        return -1;
    }
    const scenario_agent_t *twin = scenario_agent (scenario, group->name);
    if (twin) {
        scenario_error (err, errlen, path, group->line, NULL, "[group %s] and [agent %s] "
                        "(line %d) share a name, which a job's agent = could not tell apart",
                        group->name, group->name, twin->line);
        return -1;
    }
    group_member_t *members = NULL;
    ssize_t count = group_members (group->agents, &members, reason, sizeof reason);
    if (count < 0) {
        scenario_error (err, errlen, path, group->agents_line, "agents", "%s", reason);
        return -1;
    }
    group->members = calloc ((size_t) count, sizeof (size_t));
    if (!group->members)
        goto nomem;
    for (ssize_t m = 0; m < count; m++) {
        const group_member_t *member = &members [m];
        if (scenario_group (scenario, member->name)) {
            scenario_error (err, errlen, path, group->agents_line, "agents", "member %s is "
                            "the name of a group: a job's agent = could not tell them apart",
                            member->name);
            goto fail;
        }
        bool known = scenario_agent (scenario, member->name) != NULL;
        ssize_t index = scenario_agent_add (scenario, member->name, group->agents_line);
        if (index < 0)
            goto nomem;
        scenario_agent_t *agent = &scenario->agents [index];
        if (!known)
            agent->group = g + 1;
        group->members [group->member_count++] = (size_t) index;
        //  Its [agent] section says where it is, or nobody yet.
        bool from_pattern = agent->group && agent->group != g + 1;
        if (!group->endpoint_line || (agent->endpoint [0] && !from_pattern))
            continue;
        char endpoint [SCENARIO_ENDPOINT_MAX + 1];
        int placed = group_endpoint (group->endpoint, member, endpoint, sizeof endpoint,
                                     reason, sizeof reason);
        if (placed && agent->endpoint [0])
            continue;               //  this pattern cannot place it; the other one did
        if (placed || scenario_check_endpoint (endpoint, reason, sizeof reason)) {
            scenario_error (err, errlen, path, group->endpoint_line, "endpoint",
                            "member %s: %s", member->name, reason);
            goto fail;
        }
        //  A member of two groups whose patterns disagree: neither wins.
        if (agent->endpoint [0]) {
            if (streq (agent->endpoint, endpoint))
                continue;
            const scenario_group_t *first = s_placed_by (scenario, g, (size_t) index);
            scenario_quote_t mine, theirs;
            scenario_error (err, errlen, path, group->endpoint_line, "endpoint",
                            "member %s of [group %s] is at %s by this pattern, and at %s by "
                            "the pattern of [group %s] (line %d): give it an [agent %s] "
                            "section, or one group", member->name, group->name,
                            scenario_quote (&mine, endpoint, strlen (endpoint)),
                            scenario_quote (&theirs, agent->endpoint, strlen (agent->endpoint)),
                            first->name, first->endpoint_line, member->name);
            goto fail;
        }
        snprintf (agent->endpoint, sizeof agent->endpoint, "%s", endpoint);
    }
    free (members);
    return 0;

nomem:
    scenario_error (err, errlen, path, group->line, NULL, "out of memory");
fail:
    free (members);
    return -1;
}

//  {agent} in the template's path, src and dst, replaced by the job's
//  agent, into the job's own copies; a path without it stays the
//  template's alone. Returns 0, or -1 with the error at the option's line.
static int
s_template_paths (const scenario_t *scenario, scenario_job_t *job, char *err, size_t errlen)
{
    const scenario_template_t *template = job->template;
    struct { const char *key; const char *pattern; char **own; } paths [] = {
        { "path", template->spec.path, &job->path }, { "src", template->spec.src, &job->src },
        { "dst", template->spec.dst, &job->dst }
    };
    for (size_t i = 0; i < sizeof paths / sizeof paths [0]; i++) {
        if (!strstr (paths [i].pattern, "{agent}"))
            continue;
        char templated [JOB_PATH_MAX + 1];
        char reason [SCENARIO_REASON_MAX];
        if (group_path (paths [i].pattern, job->agent, templated, sizeof templated,
                        reason, sizeof reason)) {
            int line = scenario_key_line (template, paths [i].key);
            scenario_error (err, errlen, scenario->path, line, paths [i].key, "%s", reason);
            return -1;
        }
        *paths [i].own = strdup (templated);
        if (!*paths [i].own) {
            scenario_error (err, errlen, scenario->path, template->line, NULL, "out of memory");
            return -1;
        }
    }
    return 0;
}

//  A job of template on agent: itself, or JOB.MEMBER when the template's
//  agent is a group. Returns 0, or -1 with the error.
static int
s_job (const scenario_t *scenario, const scenario_template_t *template,
       const scenario_group_t *group, const char *agent, scenario_job_t *job,
       char *err, size_t errlen)
{
    job->template = template;
    snprintf (job->agent, sizeof job->agent, "%s", agent);
    if (!group) {
        snprintf (job->name, sizeof job->name, "%s", template->spec.name);
        return 0;
    }
    int length = snprintf (job->name, sizeof job->name, "%s.%s", template->spec.name, agent);
    if (length < 0 || (size_t) length >= sizeof job->name) {
        scenario_error (err, errlen, scenario->path, scenario_key_line (template, "agent"),
                        "agent", "[job %s] on [group %s]: its member's job %s.%s has a name "
                        "longer than %d characters", template->spec.name, group->name,
                        template->spec.name, agent, JOB_NAME_MAX);
        return -1;
    }
    return 0;
}

int
group_expand (scenario_t *scenario, char *err, size_t errlen)
{
    for (size_t g = 0; g < scenario->group_count; g++)
        if (s_expand_group (scenario, g, err, errlen))
            return -1;
    //  Every [job] once, a job on a group once per member, in file order.
    size_t total = 0;
    for (size_t t = 0; t < scenario->template_count; t++) {
        const char *agent = scenario->templates [t].spec.agent;
        const scenario_group_t *group = scenario_group (scenario, agent);
        total += group? group->member_count: 1;
    }
    //  Made in place, so that the scenario frees what an error leaves.
    scenario->jobs = calloc (total? total: 1, sizeof (scenario_job_t));
    zhashx_t *names = zhashx_new ();
    int rc = -1;
    if (!scenario->jobs || !names) {
        scenario_error (err, errlen, scenario->path, 0, NULL, "out of memory");
        goto done;
    }
    for (size_t t = 0; t < scenario->template_count; t++) {
        const scenario_template_t *template = &scenario->templates [t];
        const scenario_group_t *group = scenario_group (scenario, template->spec.agent);
        size_t count = group? group->member_count: 1;
        for (size_t m = 0; m < count; m++) {
            const char *agent = group? scenario->agents [group->members [m]].name
                                     : template->spec.agent;
            scenario_job_t *job = &scenario->jobs [scenario->job_count];
            if (s_job (scenario, template, group, agent, job, err, errlen))
                goto done;
            scenario->job_count++;
            const scenario_job_t *twin = zhashx_lookup (names, job->name);
            if (twin) {
                scenario_error (err, errlen, scenario->path, template->line, NULL,
                                "a job is named %s twice (first at line %d)%s",
                                job->name, twin->template->line,
                                group? ": a job on a group is named JOB.MEMBER": "");
                goto done;
            }
            zhashx_insert (names, job->name, job);
            if (s_template_paths (scenario, job, err, errlen))
                goto done;
        }
    }
    rc = 0;
done:
    zhashx_destroy (&names);
    return rc;
}
