/*  agent/log.h: the agent's log, one key=value line per event on stderr.

    Every line starts "agent=NAME " and is written with a single write, so
    that lines from the loop and the authentication thread never mix.
*/
#ifndef IOFLEET_AGENT_LOG_H
#define IOFLEET_AGENT_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//  Lines of one kind of event written as they come, before the rate
//  limit of agent_lograte_pass starts.
#define AGENT_LOGRATE_BURST 5

//  The rate limit of one kind of event a peer can cause at will (frames
//  that are not messages): a flood must not fill the log. Zeroed to start.
typedef struct {
    uint64_t count;                 //  events so far
    uint64_t unlogged;              //  events since the last line that got none
    int64_t last_ns;                //  when the last line was written
} agent_lograte_t;

//  Log one event of agent `name` (printf format, no newline).
void agent_log (const char *name, const char *format, ...)
    __attribute__ ((format (printf, 2, 3)));

//  The same with a va_list.
void agent_logv (const char *name, const char *format, va_list args);

//  Count one event at now_ns (CLOCK_MONOTONIC) and say whether to log
//  it: the first AGENT_LOGRATE_BURST are, then at most one a second. When
//  it returns true, *unlogged_p is the number of events since the last
//  line that were not logged, for the line to say.
bool agent_lograte_pass (agent_lograte_t *self, int64_t now_ns, uint64_t *unlogged_p);

//  Room for any text of the wire (MSG_TEXT_MAX) quoted by agent_log_quote.
#define AGENT_QUOTED_MAX 1027

//  Quote text for a log value: "..." with quotes and backslashes escaped
//  and control characters replaced, so that text from the wire cannot
//  break the one-event-per-line rule. Returns buf.
const char *agent_log_quote (const char *text, char *buf, size_t buflen);

//  A name from the wire as a bare log value: anything but letters,
//  digits and ".-_@:" becomes '_', and an empty name "-". Returns buf.
const char *agent_log_token (const char *text, char *buf, size_t buflen);

#endif
