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

const char *
agent_log_quote (const char *text, char *buf, size_t buflen)
{
    size_t used = 0;
    buf [used++] = '"';
    for (const char *cursor = text; *cursor && used + 4 < buflen; cursor++) {
        unsigned char c = (unsigned char) *cursor;
        if (c == '"' || c == '\\')
            buf [used++] = '\\';
        buf [used++] = c < 0x20 || c == 0x7f? '?': (char) c;
    }
    buf [used++] = '"';
    buf [used] = '\0';
    return buf;
}

const char *
agent_log_token (const char *text, char *buf, size_t buflen)
{
    size_t used = 0;
    for (const char *cursor = text; *cursor && used + 1 < buflen; cursor++) {
        unsigned char c = (unsigned char) *cursor;
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                  || (c >= '0' && c <= '9') || strchr (".-_@:", c);
        buf [used++] = plain? (char) c: '_';
    }
    if (used == 0 && buflen > 1)
        buf [used++] = '-';
    buf [used] = '\0';
    return buf;
}
