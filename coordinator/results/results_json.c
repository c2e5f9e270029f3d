/*  coordinator/results/results_json.c: the results file (results.json) and the
    samples file (JSON lines); see report.h.

    Keys carry their unit (_ns, _mbps, _bytes, _s). JSON has no NAN, and
    jansson refuses to make one: a rate that could not be computed is
    null. Strings come from the wire and the disk and need not be UTF-8,
    which jansson requires: a string that is not is written with its
    non-ASCII bytes as '?', rather than failing the whole file.
*/
#include "results_file.h"
#include "results_schema.h"
#include "../report/report.h"
#include "json_stream.h"
#include "latency_json.h"
#include "timeline_json.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

//  An object under construction: set() calls record the first failure in
//  ok, so that a builder checks once at its end.
typedef struct {
    json_t *object;                 //  the object being filled
    bool ok;                        //  false once a value or a set failed
} builder_t;


//  --------------------------------------------------------------------------
//  Values

json_t *
results_json_string (const char *text)
{
    json_t *value = json_string (text);
    if (value)
        return value;
    char *ascii = strdup (text);
    if (!ascii)
        return NULL;
    for (char *byte = ascii; *byte; byte++)
        if ((unsigned char) *byte >= 0x80)
            *byte = '?';
    value = json_string (ascii);
    free (ascii);
    return value;
}

//  A rate, or null when it could not be computed (NAN, infinity).
static json_t *
s_json_rate (double rate_mbps)
{
    return isfinite (rate_mbps)? json_real (rate_mbps): json_null ();
}

//  An unsigned count; JSON integers here are 64-bit signed, and a count
//  beyond that range is clamped rather than wrapped to a negative one.
static json_t *
s_json_count (uint64_t count)
{
    return json_integer (count > INT64_MAX? INT64_MAX: (json_int_t) count);
}

//  An instant in ISO 8601 UTC with milliseconds, null before the epoch.
static json_t *
s_json_utc (int64_t wall_ns)
{
    char text [64];
    results_schema_utc (wall_ns, text, sizeof text);
    return text [0]? json_string (text): json_null ();
}

//  Set key to value in the builder's object, taking the value's reference.
static void
s_set (builder_t *builder, const char *key, json_t *value)
{
    if (!value || json_object_set_new (builder->object, key, value) < 0)
        builder->ok = false;
}

//  Set key to value if there is one: a NULL value is left out, and is
//  a failure if not ok.
static void
s_set_optional (builder_t *builder, const char *key, json_t *value, bool ok)
{
    if (!ok)
        builder->ok = false;
    else
    if (value)
        s_set (builder, key, value);
}

//  Start a builder with a new empty object.
static builder_t
s_builder (void)
{
    builder_t builder = { json_object (), true };
    builder.ok = builder.object != NULL;
    return builder;
}

//  End a builder: its object, or NULL (and the object freed) on failure.
static json_t *
s_finish (builder_t *builder)
{
    if (builder->ok)
        return builder->object;
    json_decref (builder->object);
    return NULL;
}


//  --------------------------------------------------------------------------
//  Objects

static json_t *s_object_json (const results_table_t *table, const void *row,
                              const void *context);

//  One field's value, or NULL with *present false when it is not written
//  (*ok false when memory ran out).
static json_t *
s_field_json (const results_field_t *field, const void *row, const void *context,
              bool *present, bool *ok)
{
    const void *at = (const char *) row + field->offset;
    *present = true;
    *ok = true;
    switch (field->kind) {
        case FIELD_TEXT: return results_json_string ((const char *) at);
        case FIELD_STRING: {
            const char *text = *(char *const *) at;
            return results_json_string (text? text: "");
        }
        case FIELD_I64: return json_integer (*(const int64_t *) at);
        case FIELD_U64: return s_json_count (*(const uint64_t *) at);
        case FIELD_U32: return json_integer (*(const uint32_t *) at);
        case FIELD_SIZE: return s_json_count (*(const size_t *) at);
        case FIELD_BOOL:
            *present = *(const bool *) at || !field->omitted_unknown;
            return *present? json_boolean (*(const bool *) at): NULL;
        case FIELD_RATE:
        case FIELD_PCT: {
            double value = *(const double *) at;
            *present = isfinite (value) || !field->omitted_unknown;
            return *present? s_json_rate (value): NULL;
        }
        case FIELD_CLASS:
            return json_string (*(const int *) at == CLASS_NETWORK? "network": "disk");
        case FIELD_FSYNC: return json_string (jobspec_fsync_name (*(const int *) at));
        case FIELD_UNITS: return json_string (aggregate_units_name (*(const int *) at));
        case FIELD_UTC: return s_json_utc (*(const int64_t *) at);
        case FIELD_SECONDS: return json_real ((double) *(const int64_t *) at / NS_PER_SEC);
        case FIELD_DERIVED: return s_json_rate (field->derive (row));
        case FIELD_LATENCY: {
            const latency_summary_t *latency = (const latency_summary_t *) at;
            *present = latency->count > 0;
            return *present? latency_summary_json (latency): NULL;
        }
        case FIELD_OBJECT:
            *present = !field->present || field->present (at);
            return *present? s_object_json (field->table, at, context): NULL;
        case FIELD_CUSTOM: {
            json_t *value = field->write (row, context, ok);
            *present = value != NULL;
            return value;
        }
    }
    *ok = false;
    return NULL;
}

int
results_json_fields (const results_table_t *table, const void *row, const void *context,
                     json_t *object)
{
    for (size_t nbr = 0; nbr < table->count; nbr++) {
        bool present, ok;
        if (table->fields [nbr].flat_only)
            continue;
        json_t *value = s_field_json (&table->fields [nbr], row, context, &present, &ok);
        if (!ok || (present && (!value || json_object_set_new (object, table->fields [nbr].name,
                                                               value) < 0)))
            return -1;
    }
    return 0;
}

//  A struct as an object, or NULL when memory ran out.
static json_t *
s_object_json (const results_table_t *table, const void *row, const void *context)
{
    json_t *object = json_object ();
    if (object && results_json_fields (table, row, context, object)) {
        json_decref (object);
        object = NULL;
    }
    return object;
}

//  An array of structs, each an object; the first `count` of `items`.
static json_t *
s_array_json (const results_table_t *table, const void *items, size_t size, size_t count,
              const void *context)
{
    json_t *array = json_array ();
    for (size_t nbr = 0; array && nbr < count; nbr++)
        if (json_array_append_new (array, s_object_json (table, (const char *) items + nbr * size,
                                                         context)) < 0) {
            json_decref (array);
            array = NULL;
        }
    return array;
}

//  Statistics of one figure over iterations.
static json_t *
s_stats_json (const aggregate_stats_t *stats)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    s_set (&builder, "count", json_integer ((json_int_t) stats->count));
    s_set (&builder, "min", s_json_rate (stats->min));
    s_set (&builder, "median", s_json_rate (stats->median));
    s_set (&builder, "max", s_json_rate (stats->max));
    s_set (&builder, "mean", s_json_rate (stats->mean));
    s_set (&builder, "stddev", s_json_rate (stats->stddev));
    return s_finish (&builder);
}

//  The iterations of every test name, first run apart, in the order the
//  tests first ran. Derived from the tests' summaries, for programs.
static json_t *
s_iterations_json (const run_result_t *run)
{
    json_t *array = json_array ();
    for (size_t t = 0; array && t < run->test_count; t++) {
        const test_result_t *test = &run->tests [t];
        if (test->iteration != 1)
            continue;
        aggregate_iterations_t it = aggregate_iterations (run, test->name);
        builder_t builder = s_builder ();
        if (!builder.ok)
            break;
        s_set (&builder, "test", results_json_string (test->name));
        //  A test of operations counts them per second, and says so.
        s_set (&builder, it.rate_ops? "first_ops_per_s": "first_mbps", s_json_rate (it.first_mbps));
        s_set (&builder, "rest", s_stats_json (&it.rest));
        s_set (&builder, "rest_sys_pct", s_stats_json (&it.rest_sys_pct));
        if (json_array_append_new (array, s_finish (&builder)) < 0) {
            json_decref (array);
            return NULL;
        }
    }
    return array;
}

//  One run of one test with its summary and its streams; unless whole,
//  its streams and hosts are left empty for the writer to fill.
static json_t *
s_test_json (const test_result_t *test, bool whole)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    if (results_json_fields (&results_test_table, test, NULL, builder.object))
        builder.ok = false;
    s_set (&builder, "summary", s_object_json (&results_summary_table, &test->summary, test));
    s_set (&builder, "streams", s_array_json (&results_stream_table, test->streams,
                                              sizeof (stream_result_t),
                                              whole? test->stream_count: 0, test));
    s_set (&builder, "hosts", s_array_json (&results_host_table, test->hosts,
                                            sizeof (host_result_t), whole? test->host_count: 0,
                                            test));
    s_set (&builder, "warnings", s_array_json (&results_warning_table, test->warnings,
                                               sizeof (warning_t), test->warning_count, test));
    s_set (&builder, "monitors", s_array_json (&results_monitor_table, test->monitors,
                                               sizeof (monitor_result_t), test->monitor_count,
                                               test));
    bool ok;
    json_t *timeline = timeline_json (test, &ok);
    s_set_optional (&builder, "latency_timeline", timeline, ok);
    json_t *tail = timeline_tail_json (&test->tail, &ok);
    s_set_optional (&builder, "latency_tail", tail, ok);
    return s_finish (&builder);
}

//  The whole results document.
static json_t *
s_run_json (const run_result_t *run)
{
    builder_t builder = s_builder ();
    if (!builder.ok)
        return NULL;
    if (builder.ok && results_json_fields (&results_run_table, run, NULL, builder.object))
        builder.ok = false;
    s_set (&builder, "agents", s_array_json (&results_agent_table, run->agents,
                                             sizeof (agent_info_t), run->agent_count, run));
    json_t *tests = json_array ();
    for (size_t nbr = 0; tests && nbr < run->test_count; nbr++)
        if (json_array_append_new (tests, s_test_json (&run->tests [nbr], true)) < 0)
            builder.ok = false;
    s_set (&builder, "tests", tests);
    s_set (&builder, "iterations", s_iterations_json (run));
    return s_finish (&builder);
}


//  --------------------------------------------------------------------------
//  Writers

//  The results document as indented JSON text.
char *
results_json_text (const run_result_t *run)
{
    assert (run);
    json_t *root = s_run_json (run);
    if (!root)
        return NULL;
    char *body = json_dumps (root, JSON_INDENT (2));
    json_decref (root);
    if (!body)
        return NULL;
    //  A text file ends in a newline; jansson's text does not.
    char *text = NULL;
    if (asprintf (&text, "%s\n", body) < 0)
        text = NULL;
    free (body);
    return text;
}

//  Writers of one element of the arrays a document streams; their items
//  are the test, which says what kind its streams are.
static int
s_write_stream (FILE *out, int depth, const void *items, size_t nbr)
{
    const test_result_t *test = (const test_result_t *) items;
    return json_stream_value (out, depth, s_object_json (&results_stream_table,
                                                         &test->streams [nbr], test));
}

static int
s_write_host (FILE *out, int depth, const void *items, size_t nbr)
{
    const test_result_t *test = (const test_result_t *) items;
    return json_stream_value (out, depth, s_object_json (&results_host_table,
                                                         &test->hosts [nbr], test));
}

static int
s_write_test (FILE *out, int depth, const void *items, size_t nbr)
{
    const test_result_t *test = &((const test_result_t *) items) [nbr];
    const json_stream_array_t arrays [] = {
        { "streams", test->stream_count, s_write_stream, test },
        { "hosts", test->host_count, s_write_host, test }
    };
    return json_stream_object (out, depth, s_test_json (test, false), arrays, 2);
}

//  Print the results document, the same text as results_json_text, one
//  stream or host at a time: a fleet's run holds thousands of streams
//  per test, and the tree of a test would be many times its text.
int
results_json_write (const run_result_t *run, FILE *out)
{
    assert (run);
    assert (out);
    run_result_t header = *run;
    header.test_count = 0;
    json_t *root = s_run_json (&header);
    //  The iterations are the whole run's, not the header's.
    if (root && json_object_set_new (root, "iterations", s_iterations_json (run)) < 0) {
        json_decref (root);
        root = NULL;
    }
    const json_stream_array_t tests = { "tests", run->test_count, s_write_test, run->tests };
    if (json_stream_object (out, 0, root, &tests, 1) || fputc ('\n', out) == EOF)
        return -1;
    return ferror (out)? -1: 0;
}

//  A string as a JSON literal with its quotes, for the caller to free.
static char *
s_json_literal (const char *text)
{
    json_t *value = results_json_string (text);
    if (!value)
        return NULL;
    char *literal = json_dumps (value, JSON_ENCODE_ANY);
    json_decref (value);
    return literal;
}

//  Append a test's samples as JSON lines.
int
results_json_samples_append (const test_result_t *test, FILE *out)
{
    assert (test);
    assert (out);
    //  The names are encoded once per stream, and each sample prints two
    //  numbers after them: a long test with many samples stays cheap.
    char *test_name = s_json_literal (test->name);
    if (!test_name)
        return -1;
    int rc = 0;
    for (size_t nbr = 0; nbr < test->stream_count && rc == 0; nbr++) {
        const stream_result_t *stream = &test->streams [nbr];
        char *agent = s_json_literal (stream->agent);
        char *job = s_json_literal (stream->job);
        if (!agent || !job)
            rc = -1;
        for (size_t sample_nbr = 0; rc == 0 && sample_nbr < stream->sample_count; sample_nbr++) {
            const sample_point_t *sample = &stream->samples [sample_nbr];
            if (fprintf (out, "{\"test\":%s,\"iteration\":%" PRIu32 ",\"agent\":%s,\"job\":%s,"
                              "\"stream\":%" PRIu32 ",\"t_ns\":%" PRId64 ",\"bytes\":%" PRIu64 "}\n",
                         test_name, test->iteration, agent, job,
                         stream->index, sample->t_ns, sample->bytes) < 0)
                rc = -1;
        }
        free (agent);
        free (job);
    }
    free (test_name);
    if (ferror (out))
        rc = -1;
    return rc;
}
