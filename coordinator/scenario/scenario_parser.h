/*  coordinator/scenario/scenario_parser.h: the state of the scenario parser,
    a class split over three files: scenario.c (loading, the errors, what
    follows the last line), scenario_sections.c (section headers) and
    scenario_keys.c (KEY = VALUE lines). Not for other modules: they see
    scenario.h.
*/
#ifndef IOFLEET_SCENARIO_PARSER_H
#define IOFLEET_SCENARIO_PARSER_H

#include "scenario_rules.h"

#include <stdbool.h>
#include <stddef.h>

//  The kind of section the parser is in.
typedef enum {
    SCENARIO_SECTION_NONE,    //  before the first header
    SCENARIO_SECTION_GLOBAL,  //  [global]
    SCENARIO_SECTION_AGENT,   //  [agent NAME]
    SCENARIO_SECTION_GROUP,   //  [group NAME]
    SCENARIO_SECTION_JOB,     //  [job NAME]
    SCENARIO_SECTION_REFUSED  //  a header in error: its keys are not read
} scenario_section_t;

//  A job option given in [global], applied at the end to every job that
//  does not give it itself.
typedef struct {
    char *text;                 //  value as written, NULL if not given
    int line;                   //  line of the key
} scenario_default_t;

//  Everything the line reader and the key handler share while one file
//  is read.
typedef struct {
    scenario_t *scenario;       //  being built; its text is what is parsed
    int line;                   //  number of the line being parsed, from 1
    scenario_section_t section;  //  kind of the current section
    size_t current;             //  index of the current agent or job
    int endpoint_line;          //  current [agent]: line of its endpoint, 0 if none yet
    size_t option_count;        //  rows in jobspec_options
    size_t run_option_count;    //  rows in scenario_run_options
    int *run_lines;             //  line of each run option in [global], 0 if not given
    scenario_default_t *defaults;   //  [global] value of each job option
    size_t template_capacity;   //  slots allocated in scenario->templates
    unsigned char *refused;     //  per template: a line of its section was refused, so
                                //  what follows the last line leaves it alone
    size_t refused_capacity;    //  slots allocated in refused
    scenario_errors_t errors;   //  the errors found
    bool failed;                //  an error was found: the scenario is refused
    bool fatal;                 //  memory ran out: stop reading
} scenario_parser_t;

//  Record an error of the file at line (0: the whole file) about key
//  (NULL: none). Reading goes on, so that one run shows every mistake.
void scenario_parser_fail (scenario_parser_t *self, int line, const char *key,
                           const char *format, ...)
    __attribute__ ((format (printf, 4, 5)));

//  Record that memory ran out at line; reading stops.
void scenario_parser_nomem (scenario_parser_t *self, int line, const char *key);

//  The reader's callbacks (proto/inifile.h): a "[...]" line, a KEY = VALUE
//  line; user is the scenario_parser_t.
int scenario_sections_on_header (void *user, int line, char *header);
int scenario_keys_on_key (void *user, int line, const char *name, const char *value);

#endif
