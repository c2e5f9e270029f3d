/*  coordinator/scenario/group.c: groups of agents: their members, endpoint
    patterns, {agent} in paths and the parser's part; see group.h (the
    expansion into agents and jobs is in group_expand.c).

    Members are generated once into a list whose names are hashed, so that
    a group of thousands checks each name once.
*/
#include "group.h"
#include "scenario_rules.h"
#include "../../proto/array.h"
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
    if (array_grow (&list->members, &list->capacity, list->count, sizeof *list->members, 16)) {
        snprintf (reason, reasonlen, "out of memory");
        return -1;
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
