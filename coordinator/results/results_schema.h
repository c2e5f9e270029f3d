/*  coordinator/results/results_schema.h: every figure of the results,
    described once.

    Each results struct (results.h) has one table of its fields: name,
    kind, offset, and what older files lack. The table drives all four
    places a figure goes: the JSON writer (results_json.c), the JSON
    reader (results_read.c), the SQLite archive (archive_schema.c) and the
    CSV (report/csv.c). A figure added to a table appears in all four.

    The JSON keys, and their order, are the table's. The flat outputs (the
    archive's columns, the CSV's) take a nested struct's fields with its
    prefix ("disk_streams") and name a field by its column where that
    differs from its key. A field of kind FIELD_CUSTOM is written and
    read by functions of its own (the latency histograms, the stop
    figures): JSON only, and in the CSV when it is one value.
*/
#ifndef IOFLEET_RESULTS_SCHEMA_H
#define IOFLEET_RESULTS_SCHEMA_H

#include "jsonread.h"
#include "results.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

//  How a field is held, written and read.
typedef enum {
    FIELD_TEXT,                     //  char [size]
    FIELD_STRING,                   //  char *, malloc'ed, NULL for ""; size: its room
    FIELD_I64,                      //  int64_t
    FIELD_U64,                      //  uint64_t, a count (JSON and SQL clamp it to INT64_MAX)
    FIELD_U32,                      //  uint32_t
    FIELD_SIZE,                     //  size_t
    FIELD_BOOL,                     //  bool
    FIELD_RATE,                     //  double, 0 or more; null when it could not be computed
    FIELD_PCT,                      //  double, a share in percent; null likewise
    FIELD_CLASS,                    //  int CLASS_DISK or CLASS_NETWORK, as "disk" or "network"
    FIELD_FSYNC,                    //  int fsync_mode_t, by its name
    FIELD_UNITS,                    //  int units_t, by its name (the archive keeps the number)
    FIELD_UTC,                      //  int64_t wall ns, as ISO 8601 UTC text; written only
    FIELD_SECONDS,                  //  int64_t ns, as seconds; written only (JSON)
    FIELD_DERIVED,                  //  double computed from the row; written only
    FIELD_LATENCY,                  //  latency_summary_t, written when it counted requests
    FIELD_OBJECT,                   //  a nested struct with a table of its own
    FIELD_CUSTOM                    //  written and read by functions of its own
} field_kind_t;

typedef struct _results_table_t results_table_t;

//  One field of a results struct.
typedef struct {
    const char *name;               //  its JSON key
    field_kind_t kind;              //  how it is held
    size_t offset;                  //  in the struct
    size_t size;                    //  of a FIELD_TEXT, the room of a FIELD_STRING
    int64_t minimum;                //  integers: bounds when read; both 0 for the
    int64_t maximum;                //  type's range (a count: 0 to INT64_MAX); a rate:
                                    //  its greatest when not JSONREAD_RATE_MAX
    bool optional;                  //  files of older versions lack it: when absent, a
                                    //  number reads as 0 (a rate as NAN), a text as ""
    bool omitted_unknown;           //  not written at all when unknown: a real when NAN,
                                    //  a bool when false
    bool written_only;              //  the reader takes it from elsewhere (samples)
    bool scalar;                    //  a FIELD_CUSTOM of one value: the CSV holds it
    bool flat_only;                 //  in the flat outputs only: the JSON has it in a
                                    //  form of its own
    const char *seconds_key;        //  files of older versions have it in seconds here
    const char *column;             //  its name in the archive and the CSV, if not name;
                                    //  "" for a FIELD_OBJECT whose fields go unprefixed
    bool not_archived;              //  the archive has no column for it
    int since;                      //  archive schema version that added it; 0 means 1
    const results_table_t *table;   //  FIELD_OBJECT: the nested struct's (offset 0 and a
                                    //  table of the row's own fields: a group of them)
    bool (*present) (const void *nested);   //  FIELD_OBJECT: written only when this says
                                    //  so (NULL: always); files may lack it, its rates
                                    //  then read as NAN
    double (*derive) (const void *row);     //  FIELD_DERIVED
    //  FIELD_CUSTOM: its JSON value, or NULL for none (*ok false when
    //  memory ran out); and its reading back, from the enclosing object.
    //  context is the struct whose array holds the row (a stream's test),
    //  or NULL.
    json_t *(*write) (const void *row, const void *context, bool *ok);
    void (*read) (jsonread_t *reader, json_t *object, void *row, const void *context);
} results_field_t;

//  A struct's fields, in the order of its JSON object.
struct _results_table_t {
    const char *name;               //  what a row is, for messages
    const results_field_t *fields;
    size_t count;
};

//  A field of a struct, for a table's designated initializers.
#define RESULTS_AT(type, member) \
    .offset = offsetof (type, member), .size = sizeof (((type *) 0)->member)

extern const results_table_t results_run_table;         //  run_result_t, without its arrays
extern const results_table_t results_agent_table;       //  agent_info_t
extern const results_table_t results_test_table;        //  test_result_t, without its summary
                                                        //  and arrays
extern const results_table_t results_summary_table;     //  test_summary_t
extern const results_table_t results_class_table;       //  class_summary_t
extern const results_table_t results_stream_table;      //  stream_result_t
extern const results_table_t results_host_table;        //  host_result_t
extern const results_table_t results_warning_table;     //  warning_t
extern const results_table_t results_monitor_table;     //  monitor_result_t
extern const results_table_t results_monitor_point_table;   //  msg_monitor_t of a series
extern const results_table_t results_latency_summary_table; //  latency_summary_t, as columns
extern const results_table_t results_requests_table;    //  requests_summary_t
extern const results_table_t results_tail_table;        //  latency_tail_t, without its hosts
extern const results_table_t results_tail_host_table;   //  tail_host_t
extern const results_table_t results_iterations_table;  //  aggregate_iterations_t (numbers/
                                                        //  aggregate.h), for the flat outputs

//  A leaf field of a flattened table: its flat name ("disk_streams") and
//  where the struct that holds it begins in the row.
typedef struct {
    char name [64];                 //  prefix and column
    const results_field_t *field;   //  the field
    size_t base;                    //  offset of its struct in the row
} results_column_t;

//  The flat outputs, which differ in what they can hold.
typedef enum {
    RESULTS_ARCHIVE,                //  no custom field, none not_archived, no seconds
    RESULTS_CSV                     //  every field of one value
} results_output_t;

//  The leaf fields of table and its nested tables that output holds,
//  named with prefix before their names, into columns (at most capacity),
//  each with base added to where its struct begins. Returns how many
//  there are, which the caller checks against capacity.
size_t results_schema_columns (const results_table_t *table, const char *prefix, size_t base,
                               results_output_t output, results_column_t *columns,
                               size_t capacity);

//  The bytes of a column's field in a row, and the struct that holds it.
const void *results_schema_field (const results_column_t *column, const void *row);
const void *results_schema_holder (const results_column_t *column, const void *row);

//  An instant in ISO 8601 UTC with milliseconds ("2026-11-30T03:10:00.123Z")
//  into buf; "" for an instant before the epoch.
void results_schema_utc (int64_t wall_ns, char *buf, size_t buflen);

//  The warnings of test about agent ("" for those about the whole test)
//  as one text for the flat outputs, "KIND: TEXT" each, " | " between
//  two (results.json has them as an array of objects); NULL with *ok
//  false when memory ran out.
json_t *results_warnings_json (const test_result_t *test, const char *agent, bool *ok);

//  A JSON string of text; bytes that make it invalid UTF-8 become '?'.
json_t *results_json_string (const char *text);

//  Write a struct's fields into a JSON object; context as for a custom
//  field. Returns 0, or -1 when memory ran out.
int results_json_fields (const results_table_t *table, const void *row, const void *context,
                         json_t *object);

//  Read a struct's fields from a JSON object, each checked as its kind
//  says; failures go to the reader.
void results_read_fields (jsonread_t *reader, const results_table_t *table, json_t *object,
                          void *row, const void *context);

#endif
