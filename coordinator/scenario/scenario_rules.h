/*  coordinator/scenario/scenario_rules.h: what the scenario parser (scenario.c)
    and the checks after it (scenario_check.c) share: the form of an error
    message, how a message quotes what the file holds, and the rules for
    names and endpoints. Not for other modules: they see scenario.h.
*/
#ifndef IOFLEET_SCENARIO_RULES_H
#define IOFLEET_SCENARIO_RULES_H

#include "scenario.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

//  How much of a value an error message quotes, and of a key or a
//  section header (enough for any header with a name of valid length).
#define SCENARIO_QUOTE_MAX      64
#define SCENARIO_KEY_QUOTE_MAX  128

//  Bytes a reason from opt_parse or a check may take.
#define SCENARIO_REASON_MAX     256

//  A quoted value in a message: len bytes of text, printable (control
//  bytes and stray bytes as \xNN), cut with "..." past
//  SCENARIO_QUOTE_MAX. Returns buf.
typedef struct {
    char text [SCENARIO_QUOTE_MAX + 4];
} scenario_quote_t;

const char *scenario_quote (scenario_quote_t *buf, const char *text, size_t len);

//  Write "path:line: key: reason" into err; without a line (0) or a key
//  (NULL) that part is left out: "path: reason" for the whole file. The
//  key is quoted (it comes from the file).
void scenario_error_va (char *err, size_t errlen, const char *path, int line,
                        const char *key, const char *format, va_list args);
void scenario_error (char *err, size_t errlen, const char *path, int line,
                     const char *key, const char *format, ...)
    __attribute__ ((format (printf, 6, 7)));

//  The errors of one file, for a message that lists them all: at most
//  SCENARIO_ERRORS_MAX kept, the rest counted; one given twice (a job
//  on a group fails once per member) is kept once.
typedef struct {
    struct {
        int line;                   //  its line, for the order; 0 for the whole file
        char *text;                 //  "file:line: key: reason"
    } items [SCENARIO_ERRORS_MAX];
    size_t count;                   //  errors kept
    size_t total;                   //  errors found, kept or past the bound
    bool nomem;                     //  memory ran out keeping one
} scenario_errors_t;

//  Keep text, an error "path:line: key: reason" (or "path: reason") of
//  the file at path.
void scenario_errors_add (scenario_errors_t *self, const char *path, const char *text);

//  Write the errors into err, one a line, in line order (those of one
//  line as found), then "path: ... and N more errors" past the bound.
void scenario_errors_write (scenario_errors_t *self, const char *path, char *err,
                            size_t errlen);

//  Free what the errors hold.
void scenario_errors_clear (scenario_errors_t *self);

//  Check a name of len bytes (agent, job, test): 1 to JOB_NAME_MAX
//  letters, digits, '.', '_' and '-'. Returns 0, or -1 with a reason.
int scenario_check_name (const char *name, size_t len, char *reason, size_t reasonlen);

//  Check an endpoint the coordinator will connect to: tcp://HOST:PORT
//  with a numeric port, or ipc://PATH. Returns 0, or -1 with a reason.
int scenario_check_endpoint (const char *endpoint, char *reason, size_t reasonlen);

#endif
