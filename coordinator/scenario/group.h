/*  coordinator/scenario/group.h: groups of agents, and what a scenario makes of
    them: 64 clients doing the same dd is one [group] and one [job].

        [group clients]
        agents = c[01-64], nfs1        ; names, and ranges of names
        endpoint = tcp://{name}.lab:7654

        [job dd]
        agent = clients                ; one job per member: dd.c01 ... dd.c64
        path = /mnt/share/dd-{agent}   ; each member its own file

    agents = lists names and ranges, apart by commas or blanks. A range is
    PREFIX[SPANS]SUFFIX, SPANS a comma-separated list of A-B or A (decimal,
    A <= B), such as c[01-64] or r[1-3,7]x; a span whose first number
    begins with 0 keeps its width (c[01-10] is c01 ... c10, c[1-10] is c1
    ... c10). One range per name; a group has at most GROUP_MEMBERS_MAX
    members, each named once.

    endpoint = is a pattern: {name} is the member's name, {n} its number as
    its range wrote it ("07"), {n+K} that number plus K without padding
    (tcp://127.0.0.1:{n+20000}). It must hold {name} or {n}, else every
    member would get one endpoint. Without it, members get their endpoints
    from [agent NAME] sections, --hosts FILE or --agent; in that order of
    strength, weakest first, the pattern coming before all of them.

    A job whose agent is a group becomes one job per member, named
    JOB.MEMBER, in the job's test (so its members' streams start together
    and are one report row), {agent} in its path, src and dst replaced by
    the member's name. {agent} means the job's agent in every job.

    --hosts FILE gives endpoints as fio's --client list does: one
    `NAME ENDPOINT` per line, blank lines and # comments allowed.

    Every error is file:line: key: reason.
*/
#ifndef IOFLEET_GROUP_H
#define IOFLEET_GROUP_H

#include "scenario.h"

#include <stddef.h>

//  The most members a group may have.
#define GROUP_MEMBERS_MAX   4096

//  Digits a number in a range may have.
#define GROUP_DIGITS_MAX    9

//  One member of a group.
typedef struct {
    char name [JOB_NAME_MAX + 1];           //  its agent's name
    char number [GROUP_DIGITS_MAX + 1];     //  its number as its range wrote it, "" if none
} group_member_t;

//  Parse an agents = list into *members (the caller's to free), in the
//  order written. Returns the number of members, or -1 with a reason.
ssize_t group_members (const char *text, group_member_t **members, char *reason,
                       size_t reasonlen);

//  Write member's endpoint from pattern into endpoint. Returns 0, or -1
//  with a reason (an unknown placeholder, {n} for a member without a
//  number, a result too long).
int group_endpoint (const char *pattern, const group_member_t *member, char *endpoint,
                    size_t endpointlen, char *reason, size_t reasonlen);

//  Check a pattern as its line gives it. Returns 0, or -1 with a reason.
int group_check_pattern (const char *pattern, char *reason, size_t reasonlen);

//  Write path with every {agent} replaced by agent into out. Returns 0,
//  or -1 with a reason if the result does not fit.
int group_path (const char *path, const char *agent, char *out, size_t outlen,
                char *reason, size_t reasonlen);

//  The scenario parser's part: a [group NAME] header at line, then its
//  KEY = VALUE lines. Return 0, or -1 with a reason for file:line: key:.
int group_begin (scenario_t *scenario, const char *name, int line, char *reason,
                 size_t reasonlen);
int group_key (scenario_t *scenario, const char *key, const char *value, int line,
               char *reason, size_t reasonlen);

//  Once the file is read and the [job] sections (scenario_t.templates)
//  have their defaults: every member becomes an agent with its endpoint,
//  every section one job of scenario_t.jobs, a section on a group one per
//  member, each with its own copy of a path where {agent} is replaced.
//  Returns 0, or -1 with "file:line: key: reason" in err.
int group_expand (scenario_t *scenario, char *err, size_t errlen);

#endif
