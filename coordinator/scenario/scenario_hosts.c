/*  coordinator/scenario/scenario_hosts.c: --hosts FILE, the endpoints of many agents at
    once, as fio's --client list gives them; see scenario.h.

        # NAME  ENDPOINT
        c01     tcp://10.0.0.1:7654
        c02     tcp://10.0.0.2:7654

    One NAME ENDPOINT a line; blank lines and comments (# at the start or
    after a blank) are skipped. Each line sets the endpoint of agent NAME,
    whether a section or a group names it, or adds the agent; a name given
    twice is an error, as in a scenario.
*/
#include "scenario_rules.h"
#include "../../proto/inifile.h"

#include <czmq.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  What a hosts file may hold: as much as a scenario.
static const inifile_limits_t s_hosts_limits = {
    .what = "hosts", .file_max = SCENARIO_FILE_MAX, .line_max = SCENARIO_LINE_MAX
};

//  One line of a hosts file (its comment cut): NAME ENDPOINT, or
//  nothing. Returns 0, or -1 with the error.
static int
s_hosts_line (scenario_t *scenario, const char *path, int number, char *line,
              zhashx_t *seen, char *err, size_t errlen)
{
    char *words [3] = { NULL };
    size_t count = 0;
    for (char *save = NULL, *word = strtok_r (line, " \t\r\v\f", &save); word;
         word = strtok_r (NULL, " \t\r\v\f", &save))
        words [count < 3? count++: 2] = word;
    if (count == 0)
        return 0;
    if (count != 2) {
        inifile_error (err, errlen, path, number, NULL,
                       "expected NAME ENDPOINT, as in `c01 tcp://c01.lab:7654`");
        return -1;
    }
    char reason [SCENARIO_REASON_MAX];
    if (scenario_check_name (words [0], strlen (words [0]), reason, sizeof reason)
    ||  scenario_check_endpoint (words [1], reason, sizeof reason)) {
        inifile_error (err, errlen, path, number, words [0], "%s", reason);
        return -1;
    }
    uintptr_t first = (uintptr_t) zhashx_lookup (seen, words [0]);
    if (first) {
        inifile_error (err, errlen, path, number, words [0], "given twice (first at line %d)",
                       (int) first);
        return -1;
    }
    zhashx_insert (seen, words [0], (void *) (uintptr_t) number);
    ssize_t index = scenario_agent_add (scenario, words [0], 0);
    if (index < 0) {
        inifile_error (err, errlen, path, number, NULL, "out of memory");
        return -1;
    }
    snprintf (scenario->agents [index].endpoint, sizeof scenario->agents [index].endpoint,
              "%s", words [1]);
    return 0;
}

int
scenario_load_hosts (scenario_t *self, const char *path, char *err, size_t errlen)
{
    char *text = NULL;
    size_t length = 0;
    if (inifile_load (path, &s_hosts_limits, &text, &length, err, errlen))
        return -1;
    zhashx_t *seen = zhashx_new ();
    int rc = seen? 0: -1;
    if (!seen)
        inifile_error (err, errlen, path, 0, NULL, "out of memory");
    char *line = text;
    for (int number = 1; rc == 0 && line < text + length; number++) {
        char *end = memchr (line, '\n', (size_t) (text + length - line));
        if (!end)
            end = text + length;
        *end = '\0';
        if (strlen (line) != (size_t) (end - line)) {
            inifile_error (err, errlen, path, number, NULL, "holds a NUL byte: not a text file");
            rc = -1;
            break;
        }
        if (end - line > (ptrdiff_t) SCENARIO_LINE_MAX) {
            inifile_error (err, errlen, path, number, NULL, "longer than %d bytes",
                           SCENARIO_LINE_MAX);
            rc = -1;
            break;
        }
        //  A comment starts with # at the start or after a blank.
        for (char *hash = strchr (line, '#'); hash; hash = strchr (hash + 1, '#'))
            if (hash == line || isspace ((unsigned char) hash [-1])) {
                *hash = '\0';
                break;
            }
        rc = s_hosts_line (self, path, number, line, seen, err, errlen);
        line = end + 1;
    }
    zhashx_destroy (&seen);
    free (text);
    return rc;
}
