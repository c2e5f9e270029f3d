/*  agent/log.h: the agent's log, one key=value line per event on stderr.

    Every line starts "agent=NAME " and is written with a single write, so
    that lines from the loop and the authentication thread never mix.
*/
#ifndef IOFLEET_AGENT_LOG_H
#define IOFLEET_AGENT_LOG_H

#include <stdarg.h>

//  Log one event of agent `name` (printf format, no newline).
void agent_log (const char *name, const char *format, ...)
    __attribute__ ((format (printf, 2, 3)));

//  The same with a va_list.
void agent_logv (const char *name, const char *format, va_list args);

#endif
