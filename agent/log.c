/*  agent/log.c: the agent's log lines; see log.h. */
#include "log.h"

#include "../proto/clock.h"

#include <stdio.h>
#include <string.h>

//  Longest line; longer ones are cut.
#define S_LINE_MAX 2048

void
agent_logv (const char *name, const char *format, va_list args)
{
    char line [S_LINE_MAX];
    int used = snprintf (line, sizeof (line), "agent=%s ", name);
    if (used < 0 || (size_t) used >= sizeof (line) - 1)
        used = 0;
    vsnprintf (line + used, sizeof (line) - (size_t) used - 1, format, args);
    size_t length = strlen (line);
    line [length++] = '\n';
    fwrite (line, 1, length, stderr);
}

void
agent_log (const char *name, const char *format, ...)
{
    va_list args;
    va_start (args, format);
    agent_logv (name, format, args);
    va_end (args);
}

bool
agent_lograte_pass (agent_lograte_t *self, int64_t now_ns, uint64_t *unlogged_p)
{
    self->count++;
    if (self->count > AGENT_LOGRATE_BURST && now_ns - self->last_ns < NS_PER_SEC) {
        self->unlogged++;
        return false;
    }
    *unlogged_p = self->unlogged;
    self->unlogged = 0;
    self->last_ns = now_ns;
    return true;
}
