/*  coordinator/scenario/group.c: groups of agents and the --hosts file; see group.h.

    Members are generated once into a list whose names are hashed, so that
    a group of thousands checks each name once. A job on a group becomes
    one small scenario_job_t per member, which holds its name, its agent
    and the paths {agent} makes its own; the [job] section's spec is the
    template they share.
*/
#include "group.h"
#include "scenario_rules.h"
#include "../../proto/inifile.h"

#include <czmq.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  Room to build a member's name before it is checked: a prefix, a
//  number and a suffix, each as long as a name may be.
#define S_NAME_ROOM (3 * JOB_NAME_MAX + GROUP_DIGITS_MAX + 1)

//  A list of members under construction, each name once.
typedef struct {
    group_member_t *members;        //  in the order written
    size_t count;                   //  members so far
    size_t capacity;                //  slots allocated
    zhashx_t *names;                //  the names so far
} s_list_t;

//  --------------------------------------------------------------------
//  Members

//  Add one member: name (name_len bytes) with its number. Returns 0, or -1
//  with a reason.
static int
s_add (s_list_t *list, const char *name, size_t name_len, const char *number,
       char *reason, size_t reasonlen)
{
    if (scenario_check_name (name, name_len, reason, reasonlen))
        return -1;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity? list->capacity * 2: 16;
        group_member_t *grown = realloc (list->members, capacity * sizeof *grown);
        if (!grown) {
            snprintf (reason, reasonlen, "out of memory");
            return -1;
        }
        list->members = grown;
        list->capacity = capacity;
    }
    group_member_t *member = &list->members [list->count];
    snprintf (member->name, sizeof member->name, "%.*s", (int) name_len, name);
    snprintf (member->number, sizeof member->number, "%s", number);
    if (zhashx_lookup (list->names, member->name)) {
        snprintf (reason, reasonlen, "%s is named twice", member->name);
        return -1;
    }
    zhashx_insert (list->names, member->name, (void *) 1);
    list->count++;
    return 0;
}

//  The decimal number of len digits at text into *value. Returns 0, or -1
//  if it is not one.
static int
s_number (const char *text, size_t len, unsigned long *value)
{
    if (len == 0 || len > GROUP_DIGITS_MAX)
        return -1;
    *value = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit ((unsigned char) text [i]))
            return -1;
        *value = *value * 10 + (unsigned long) (text [i] - '0');
    }
    return 0;
}

//  One span of a range, A-B or A (len bytes at span), as members named
//  prefix NUMBER suffix; item is the whole range, quoted for messages.
//  Returns 0, or -1 with a reason.
static int
s_span (s_list_t *list, const char *item, const char *prefix, size_t prefix_len,
        const char *span, size_t len, const char *suffix, size_t suffix_len,
        char *reason, size_t reasonlen)
{
    scenario_quote_t quoted;
    scenario_quote (&quoted, span, len);
    const char *dash = memchr (span, '-', len);
    size_t first_len = dash? (size_t) (dash - span): len;
    unsigned long first, last;
    if (s_number (span, first_len, &first)
    ||  (dash && s_number (dash + 1, len - first_len - 1, &last))) {
        snprintf (reason, reasonlen, "'%s' is not a span: write A-B or A, numbers of 1 to %d "
                  "digits", quoted.text, GROUP_DIGITS_MAX);
        return -1;
    }
    if (!dash)
        last = first;
    if (first > last) {
        snprintf (reason, reasonlen, "'%s' goes down: write the smaller number first", quoted.text);
        return -1;
    }
    if (last - first + 1 > GROUP_MEMBERS_MAX - list->count) {
        snprintf (reason, reasonlen, "'%s' makes the group more than %d members", item,
                  GROUP_MEMBERS_MAX);
        return -1;
    }
    //  A first number written with a leading zero sets the width.
    int width = first_len > 1 && span [0] == '0'? (int) first_len: 0;
    for (unsigned long n = first; n <= last; n++) {
        char number [GROUP_DIGITS_MAX + 1];
        char name [S_NAME_ROOM];
        snprintf (number, sizeof number, "%0*lu", width, n);
        int name_len = snprintf (name, sizeof name, "%.*s%s%.*s", (int) prefix_len, prefix,
                                 number, (int) suffix_len, suffix);
        if (s_add (list, name, (size_t) name_len, number, reason, reasonlen))
            return -1;
    }
    return 0;
}

//  One item of the list (len bytes): a name, or PREFIX[SPANS]SUFFIX.
//  Returns 0, or -1 with a reason.
static int
s_item (s_list_t *list, const char *item, size_t len, char *reason, size_t reasonlen)
{
    scenario_quote_t quoted;
    scenario_quote (&quoted, item, len);
    const char *open = memchr (item, '[', len);
    if (!open) {
        if (memchr (item, ']', len)) {
            snprintf (reason, reasonlen, "'%s': a ']' without its '['", quoted.text);
            return -1;
        }
        return s_add (list, item, len, "", reason, reasonlen);
    }
    size_t prefix_len = (size_t) (open - item);
    const char *close = memchr (open, ']', len - prefix_len);
    if (!close) {
        snprintf (reason, reasonlen, "'%s': a range needs its closing ']'", quoted.text);
        return -1;
    }
    const char *suffix = close + 1;
    size_t suffix_len = len - (size_t) (suffix - item);
    if (memchr (item, ']', prefix_len) || memchr (suffix, '[', suffix_len)
    ||  memchr (suffix, ']', suffix_len) || memchr (open + 1, '[', (size_t) (close - open - 1))) {
        snprintf (reason, reasonlen, "'%s': one range per name", quoted.text);
        return -1;
    }
    if (close == open + 1) {
        snprintf (reason, reasonlen, "'%s': an empty range", quoted.text);
        return -1;
    }
    for (const char *span = open + 1; span < close; ) {
        const char *end = memchr (span, ',', (size_t) (close - span));
        if (!end)
            end = close;
        if (s_span (list, quoted.text, item, prefix_len, span, (size_t) (end - span), suffix,
                    suffix_len, reason, reasonlen))
            return -1;
        span = end + 1;
    }
    return 0;
}

ssize_t
group_members (const char *text, group_member_t **members, char *reason, size_t reasonlen)
{
    s_list_t list = { .names = zhashx_new () };
    ssize_t rc = -1;
    if (!list.names) {
        snprintf (reason, reasonlen, "out of memory");
        goto done;
    }
    //  Items end at a comma or a blank outside brackets.
    for (const char *at = text; *at; ) {
        if (*at == ',' || isspace ((unsigned char) *at)) {
            at++;
            continue;
        }
        const char *end = at;
        for (bool inside = false; *end; end++) {
            if (*end == '[')
                inside = true;
            else
            if (*end == ']')
                inside = false;
            else
            if (!inside && (*end == ',' || isspace ((unsigned char) *end)))
                break;
        }
        if (s_item (&list, at, (size_t) (end - at), reason, reasonlen))
            goto done;
        at = end;
    }
    if (list.count == 0) {
        snprintf (reason, reasonlen, "names no agent: list names and ranges such as c[01-64]");
        goto done;
    }
    *members = list.members;
    list.members = NULL;
    rc = (ssize_t) list.count;
done:
    free (list.members);
    zhashx_destroy (&list.names);
    return rc;
}

//  --------------------------------------------------------------------
//  Endpoints and paths

//  Append len bytes to out (used bytes of outlen). Returns 0, or -1 when
//  out is full.
static int
s_append (char *out, size_t outlen, size_t *used, const char *text, size_t len)
{
    if (*used + len >= outlen)
        return -1;
    memcpy (out + *used, text, len);
    *used += len;
    out [*used] = '\0';
    return 0;
}

//  Expand pattern for member into endpoint; *varies is set if the result
//  depends on the member. Returns 0, or -1 with a reason.
static int
s_expand (const char *pattern, const group_member_t *member, char *endpoint, size_t endpointlen,
          bool *varies, char *reason, size_t reasonlen)
{
    size_t used = 0;
    endpoint [0] = '\0';
    *varies = false;
    for (const char *at = pattern; *at; ) {
        if (*at == '}') {
            snprintf (reason, reasonlen, "a '}' without its '{'");
            return -1;
        }
        if (*at != '{') {
            if (s_append (endpoint, endpointlen, &used, at++, 1))
                goto too_long;
            continue;
        }
        const char *close = strchr (at, '}');
        if (!close) {
            snprintf (reason, reasonlen, "a '{' without its '}'");
            return -1;
        }
        const char *inner = at + 1;
        size_t len = (size_t) (close - inner);
        char piece [JOB_NAME_MAX + 32];
        unsigned long plus;
        if (len == 4 && memcmp (inner, "name", 4) == 0)
            snprintf (piece, sizeof piece, "%s", member->name);
        else
        if ((len == 1 && inner [0] == 'n')
        ||  (len > 2 && inner [0] == 'n' && inner [1] == '+'
             && s_number (inner + 2, len - 2, &plus) == 0)) {
            if (!member->number [0]) {
                snprintf (reason, reasonlen, "member %s has no number for {n}: it is not named "
                          "by a range", member->name);
                return -1;
            }
            if (len == 1)
                snprintf (piece, sizeof piece, "%s", member->number);
            else
                snprintf (piece, sizeof piece, "%lu", strtoul (member->number, NULL, 10) + plus);
        }
        else {
            scenario_quote_t quoted;
            snprintf (reason, reasonlen, "'{%s}' is not a placeholder: use {name}, {n} or {n+K}",
                      scenario_quote (&quoted, inner, len));
            return -1;
        }
        *varies = true;
        if (s_append (endpoint, endpointlen, &used, piece, strlen (piece)))
            goto too_long;
        at = close + 1;
    }
    return 0;

too_long:
    snprintf (reason, reasonlen, "the endpoint of member %s is longer than %zu characters",
              member->name, endpointlen - 1);
    return -1;
}

int
group_endpoint (const char *pattern, const group_member_t *member, char *endpoint,
                size_t endpointlen, char *reason, size_t reasonlen)
{
    bool varies;
    return s_expand (pattern, member, endpoint, endpointlen, &varies, reason, reasonlen);
}

int
group_check_pattern (const char *pattern, char *reason, size_t reasonlen)
{
    //  A member with a name and a number tries every placeholder.
    const group_member_t sample = { .name = "m1", .number = "1" };
    char endpoint [SCENARIO_ENDPOINT_MAX + 1];
    bool varies;
    if (s_expand (pattern, &sample, endpoint, sizeof endpoint, &varies, reason, reasonlen))
        return -1;
    if (!varies) {
        snprintf (reason, reasonlen, "holds no {name} and no {n}: every member would get the "
                  "same endpoint");
        return -1;
    }
    return scenario_check_endpoint (endpoint, reason, reasonlen);
}

int
group_path (const char *path, const char *agent, char *out, size_t outlen,
            char *reason, size_t reasonlen)
{
    static const char placeholder [] = "{agent}";
    size_t used = 0;
    out [0] = '\0';
    for (const char *at = path; *at; ) {
        const char *found = strstr (at, placeholder);
        size_t len = found? (size_t) (found - at): strlen (at);
        if (s_append (out, outlen, &used, at, len)
        ||  (found && s_append (out, outlen, &used, agent, strlen (agent)))) {
            snprintf (reason, reasonlen, "with {agent} as %s, longer than %zu characters",
                      agent, outlen - 1);
            return -1;
        }
        at += len + (found? strlen (placeholder): 0);
    }
    return 0;
}

//  --------------------------------------------------------------------
//  The parser's part

int
group_begin (scenario_t *scenario, const char *name, int line, char *reason, size_t reasonlen)
{
    const scenario_group_t *first = scenario_group (scenario, name);
    if (first) {
        snprintf (reason, reasonlen, "defined twice (first at line %d)", first->line);
        return -1;
    }
    scenario_group_t *grown = realloc (scenario->groups,
                                       (scenario->group_count + 1) * sizeof *grown);
    if (!grown) {
        snprintf (reason, reasonlen, "out of memory");
        return -1;
    }
    scenario->groups = grown;
    scenario_group_t *group = &scenario->groups [scenario->group_count++];
    memset (group, 0, sizeof *group);
    snprintf (group->name, sizeof group->name, "%s", name);
    group->line = line;
    return 0;
}

int
group_key (scenario_t *scenario, const char *key, const char *value, int line,
           char *reason, size_t reasonlen)
{
    scenario_group_t *group = &scenario->groups [scenario->group_count - 1];
    const opt_def_t *opt = NULL;
    for (const opt_def_t *row = scenario_group_options; row->name; row++)
        if (strcmp (row->name, key) == 0)
            opt = row;
    if (!opt)
        return 1;                   //  not a group's key: the parser says where it belongs
    int *seen = opt->offset == offsetof (scenario_group_t, agents)? &group->agents_line
                                                                   : &group->endpoint_line;
    if (*seen) {
        snprintf (reason, reasonlen, "given twice (first at line %d)", *seen);
        return -1;
    }
    if (opt_parse (opt, value, group, reason, reasonlen))
        return -1;
    //  Both are checked at their own line; the members are made later.
    if (seen == &group->agents_line) {
        group_member_t *members = NULL;
        ssize_t count = group_members (group->agents, &members, reason, reasonlen);
        free (members);
        if (count < 0)
            return -1;
    }
    else
    if (group_check_pattern (group->endpoint, reason, reasonlen))
        return -1;
    *seen = line;
    return 0;
}

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
