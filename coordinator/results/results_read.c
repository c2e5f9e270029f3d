/*  coordinator/results/results_read.c: a results file read back into a run
    result, for `iofleet report` to render a finished run again, and for
    `iofleet compare` and `iofleet db import`: one reader, so that a file
    one of them refuses none accepts; see report.h.

    Everything the writers print is taken from the file as written: the
    summaries are not computed again from the streams, so that a report
    rendered from the file says what the run said. Every value is checked
    for its type and its bounds, and the first one that is wrong is named
    with its place in the document ("results.json: tests[2].streams[0].bytes:
    expected an integer"), because a results file is input, not something
    this program vouches for.
*/
#include "results_file.h"
#include "results_schema.h"
#include "../report/report.h"
#include "jsonread.h"
#include "latency_json.h"
#include "timeline_json.h"
#include "../../proto/workload.h"
#include "../numbers/aggregate.h"
#include "../../proto/clock.h"

#include <assert.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//  --------------------------------------------------------------------------
//  Fields

//  A text of one of a few names: its index in names, or -1 (recorded).
static int
s_read_name (jsonread_t *self, json_t *object, const char *key, const char *const *names,
             int count, const char *expected)
{
    char text [32];
    jsonread_string (self, object, key, text, sizeof text);
    for (int nbr = 0; nbr < count; nbr++)
        if (strcmp (text, names [nbr]) == 0)
            return nbr;
    if (!self->failed)
        jsonread_fail (self, key, "\"%s\" is %s", text, expected);
    return -1;
}

//  An integer field within its bounds, or its type's range.
static int64_t
s_read_integer (jsonread_t *self, json_t *object, const results_field_t *field,
                int64_t minimum, int64_t maximum)
{
    if (field->minimum || field->maximum) {
        minimum = field->minimum;
        maximum = field->maximum;
    }
    //  CPU times: files of older versions have them in seconds.
    if (field->seconds_key && !json_object_get (object, field->name)) {
        json_t *value = jsonread_member (self, object, field->seconds_key);
        if (value && !json_is_number (value)) {
            jsonread_fail (self, field->seconds_key, "expected a number");
            return 0;
        }
        return value? (int64_t) llround (json_number_value (value) * NS_PER_SEC): 0;
    }
    return jsonread_integer (self, object, field->name, minimum, maximum);
}

//  A group of fields a file lacks: its rates unknown, the rest zero.
static void
s_unknown (const results_table_t *table, void *row)
{
    for (size_t nbr = 0; nbr < table->count; nbr++) {
        const results_field_t *field = &table->fields [nbr];
        if (field->kind == FIELD_RATE || field->kind == FIELD_PCT)
            *(double *) ((char *) row + field->offset) = NAN;
    }
}

//  One field; the place is that of the object.
static void
s_read_field (jsonread_t *self, const results_field_t *field, json_t *object, void *row,
              const void *context)
{
    char *at = (char *) row + field->offset;
    const char *key = field->name;
    if (field->optional && !json_object_get (object, key)) {
        if (field->kind == FIELD_RATE || field->kind == FIELD_PCT)
            *(double *) at = NAN;
        return;
    }
    switch (field->kind) {
        case FIELD_TEXT:
            jsonread_string (self, object, key, at, field->size);
            break;
        case FIELD_STRING: {
            char text [field->size];
            jsonread_string (self, object, key, text, sizeof text);
            free (*(char **) at);
            *(char **) at = text [0]? strdup (text): NULL;
            if (text [0] && !*(char **) at)
                jsonread_fail (self, key, "no memory for it");
            break;
        }
        case FIELD_I64:
            *(int64_t *) at = s_read_integer (self, object, field, INT64_MIN, INT64_MAX);
            break;
        case FIELD_U64:
            *(uint64_t *) at = (uint64_t) s_read_integer (self, object, field, 0, INT64_MAX);
            break;
        case FIELD_U32:
            *(uint32_t *) at = (uint32_t) s_read_integer (self, object, field, 0, UINT32_MAX);
            break;
        case FIELD_SIZE:
            *(size_t *) at = (size_t) s_read_integer (self, object, field, 0, INT64_MAX);
            break;
        case FIELD_BOOL:
            *(bool *) at = jsonread_boolean (self, object, key);
            break;
        case FIELD_RATE:
            *(double *) at = field->maximum? jsonread_number (self, object, key, 0,
                                                              (double) field->maximum)
                                           : jsonread_rate (self, object, key);
            break;
        case FIELD_PCT:
            *(double *) at = jsonread_pct (self, object, key);
            break;
        case FIELD_CLASS: {
            static const char *const classes [] = { "disk", "network" };
            int nbr = s_read_name (self, object, key, classes, 2, "neither disk nor network");
            *(int *) at = nbr == 1? CLASS_NETWORK: CLASS_DISK;
            break;
        }
        case FIELD_FSYNC: {
            const char *modes [FSYNC_CLOSE + 1];
            for (int mode = FSYNC_NONE; mode <= FSYNC_CLOSE; mode++)
                modes [mode] = jobspec_fsync_name (mode);
            *(int *) at = s_read_name (self, object, key, modes, FSYNC_CLOSE + 1,
                                       "not none, end or close");
            break;
        }
        case FIELD_UNITS: {
            const char *units [] = { aggregate_units_name (UNITS_MB),
                                     aggregate_units_name (UNITS_MIB) };
            *(int *) at = s_read_name (self, object, key, units, 2, "neither MB/s nor MiB/s") == 1?
                          UNITS_MIB: UNITS_MB;
            break;
        }
        case FIELD_LATENCY:
            latency_summary_read (self, object, key, (latency_summary_t *) at);
            break;
        case FIELD_OBJECT: {
            if (field->present && !json_object_get (object, key)) {
                s_unknown (field->table, at);
                break;
            }
            json_t *nested = jsonread_object (self, object, key);
            if (!nested)
                break;
            char saved [sizeof self->place];
            memcpy (saved, self->place, sizeof saved);
            snprintf (self->place, sizeof self->place, "%s%s%s", saved, saved [0]? ".": "", key);
            results_read_fields (self, field->table, nested, at, context);
            memcpy (self->place, saved, sizeof saved);
            break;
        }
        case FIELD_CUSTOM:
            if (field->read)
                field->read (self, object, row, context);
            break;
        case FIELD_UTC: case FIELD_SECONDS: case FIELD_DERIVED:
            break;                  //  written only: computed from the others
    }
}

void
results_read_fields (jsonread_t *reader, const results_table_t *table, json_t *object, void *row,
                     const void *context)
{
    for (size_t nbr = 0; nbr < table->count && !reader->failed; nbr++)
        if (!table->fields [nbr].written_only)
            s_read_field (reader, &table->fields [nbr], object, row, context);
}

//  An array of objects under key into a new array of `size`-byte structs
//  of table; *array and *count get them.
static void
s_read_objects (jsonread_t *self, json_t *parent_object, const char *key,
                const results_table_t *table, size_t size, void **array, size_t *count,
                const void *context)
{
    json_t *values = jsonread_array (self, parent_object, key, count);
    if (!values || self->failed)
        return;
    *array = calloc (*count? *count: 1, size);
    if (!*array) {
        jsonread_fail (self, key, "%s", strerror (ENOMEM));
        *count = 0;
        return;
    }
    char parent [sizeof self->place];
    memcpy (parent, self->place, sizeof parent);
    for (size_t nbr = 0; nbr < *count && !self->failed; nbr++) {
        jsonread_enter (self, parent, key, nbr);
        json_t *value = json_array_get (values, nbr);
        if (!json_is_object (value))
            jsonread_fail (self, NULL, "expected an object");
        else
            results_read_fields (self, table, value, (char *) *array + nbr * size, context);
    }
    memcpy (self->place, parent, sizeof parent);
}

//  One test with its streams; place is set to "tests[N]".
static void
s_read_test (jsonread_t *self, json_t *object, test_result_t *test)
{
    results_read_fields (self, &results_test_table, object, test, NULL);
    json_t *summary = jsonread_object (self, object, "summary");
    if (summary && !self->failed) {
        char saved [sizeof self->place];
        memcpy (saved, self->place, sizeof saved);
        snprintf (self->place, sizeof self->place, "%s.summary", saved);
        results_read_fields (self, &results_summary_table, summary, &test->summary, test);
        memcpy (self->place, saved, sizeof saved);
    }
    if (self->failed)
        return;
    s_read_objects (self, object, "streams", &results_stream_table, sizeof (stream_result_t),
                    (void **) &test->streams, &test->stream_count, test);
    if (self->failed)
        return;
    s_read_objects (self, object, "hosts", &results_host_table, sizeof (host_result_t),
                    (void **) &test->hosts, &test->host_count, test);
    //  What the streams did together, host by host, is computed from them
    //  as the run did, like every figure derived from a stream.
    if (!self->failed)
        aggregate_host_figures (test);
    s_read_objects (self, object, "monitors", &results_monitor_table, sizeof (monitor_result_t),
                    (void **) &test->monitors, &test->monitor_count, test);
    timeline_read (self, object, test);
    timeline_tail_read (self, object, &test->tail);
    size_t warning_count;
    json_t *warnings = jsonread_array (self, object, "warnings", &warning_count);
    if (!self->failed && warnings && warning_count > TEST_WARNINGS_MAX)
        jsonread_fail (self, "warnings", "more than %d", TEST_WARNINGS_MAX);
    char parent [sizeof self->place];
    memcpy (parent, self->place, sizeof parent);
    for (size_t nbr = 0; warnings && nbr < warning_count && !self->failed; nbr++) {
        jsonread_enter (self, parent, "warnings", nbr);
        json_t *warning = json_array_get (warnings, nbr);
        if (!json_is_object (warning))
            jsonread_fail (self, NULL, "expected an object");
        else
            results_read_fields (self, &results_warning_table, warning,
                                 &test->warnings [test->warning_count++], test);
    }
    memcpy (self->place, parent, sizeof parent);
}

//  No agent, and no run of a test, twice: a run names each once, and
//  the archive and compare count on it.
static void
s_check_unique (jsonread_t *self, const run_result_t *run)
{
    for (size_t nbr = 0; nbr < run->agent_count && !self->failed; nbr++)
        for (size_t before = 0; before < nbr; before++)
            if (!strcmp (run->agents [nbr].name, run->agents [before].name)) {
                jsonread_enter (self, "", "agents", nbr);
                jsonread_fail (self, "name", "agent \"%s\" is there twice (also agents[%zu])",
                               run->agents [nbr].name, before);
                return;
            }
    for (size_t nbr = 0; nbr < run->test_count && !self->failed; nbr++)
        for (size_t before = 0; before < nbr; before++) {
            const test_result_t *test = &run->tests [nbr], *other = &run->tests [before];
            if (test->iteration == other->iteration && !strcmp (test->name, other->name)) {
                jsonread_enter (self, "", "tests", nbr);
                jsonread_fail (self, "name", "test \"%s\" iteration %u is there twice (also "
                               "tests[%zu])", test->name, test->iteration, before);
                return;
            }
        }
}

//  The whole document into run.
static void
s_read_run (jsonread_t *self, json_t *root, run_result_t *run)
{
    if (!json_is_object (root)) {
        jsonread_fail (self, NULL, "expected a JSON object at the top");
        return;
    }
    results_read_fields (self, &results_run_table, root, run, NULL);
    size_t agent_count, test_count;
    json_t *agents = jsonread_array (self, root, "agents", &agent_count);
    json_t *tests = jsonread_array (self, root, "tests", &test_count);
    if (self->failed)
        return;
    run->agents = (agent_info_t *) calloc (agent_count? agent_count: 1, sizeof (agent_info_t));
    run->tests = (test_result_t *) calloc (test_count? test_count: 1, sizeof (test_result_t));
    if (!run->agents || !run->tests) {
        jsonread_fail (self, NULL, "%s", strerror (ENOMEM));
        return;
    }
    run->test_capacity = test_count? test_count: 1;
    for (size_t nbr = 0; nbr < agent_count && !self->failed; nbr++) {
        jsonread_enter (self, "", "agents", nbr);
        json_t *agent = json_array_get (agents, nbr);
        if (!json_is_object (agent))
            jsonread_fail (self, NULL, "expected an object");
        else
            results_read_fields (self, &results_agent_table, agent, &run->agents [nbr], run);
        run->agent_count = nbr + 1;
    }
    for (size_t nbr = 0; nbr < test_count && !self->failed; nbr++) {
        jsonread_enter (self, "", "tests", nbr);
        json_t *test = json_array_get (tests, nbr);
        //  Counted before it is read, so that clearing the run on a
        //  failure halfway through frees what this test allocated.
        run->test_count = nbr + 1;
        if (!json_is_object (test))
            jsonread_fail (self, NULL, "expected an object");
        else
            s_read_test (self, test, &run->tests [nbr]);
    }
    s_check_unique (self, run);
    self->place [0] = 0;
}


//  --------------------------------------------------------------------------
//  Samples

//  Where the last sample line went: lines of one stream come together,
//  so most lines find their stream here without a search.
typedef struct {
    test_result_t *test;            //  test of the last line, or NULL
    stream_result_t *stream;        //  its stream, or NULL
} sample_cache_t;

//  Whether a stream of a test is the one a line names.
static bool
s_is_stream (const test_result_t *test, const stream_result_t *stream, const char *test_name,
             uint32_t iteration, const char *agent, const char *job, uint32_t index)
{
    return test->iteration == iteration && stream->index == index
        && !strcmp (test->name, test_name) && !strcmp (stream->agent, agent)
        && !strcmp (stream->job, job);
}

//  The stream a sample line names, or NULL if the results do not hold it
//  (a test whose results were not written before the run stopped).
static stream_result_t *
s_find_stream (run_result_t *run, sample_cache_t *cache, const char *test_name,
               uint32_t iteration, const char *agent, const char *job, uint32_t index)
{
    if (cache->stream
    &&  s_is_stream (cache->test, cache->stream, test_name, iteration, agent, job, index))
        return cache->stream;
    for (size_t test_nbr = 0; test_nbr < run->test_count; test_nbr++) {
        test_result_t *test = &run->tests [test_nbr];
        for (size_t nbr = 0; nbr < test->stream_count; nbr++) {
            stream_result_t *stream = &test->streams [nbr];
            if (s_is_stream (test, stream, test_name, iteration, agent, job, index)) {
                cache->test = test;
                cache->stream = stream;
                return stream;
            }
        }
    }
    return NULL;
}

//  One line of the samples file into its stream.
static void
s_read_sample (jsonread_t *self, json_t *line, run_result_t *run, sample_cache_t *cache)
{
    if (!json_is_object (line)) {
        jsonread_fail (self, NULL, "expected an object");
        return;
    }
    char test [JOB_NAME_MAX + 1], agent [JOB_NAME_MAX + 1], job [JOB_NAME_MAX + 1];
    jsonread_string (self, line, "test", test, sizeof test);
    uint32_t iteration = (uint32_t) jsonread_integer (self, line, "iteration", 1, UINT32_MAX);
    jsonread_string (self, line, "agent", agent, sizeof agent);
    jsonread_string (self, line, "job", job, sizeof job);
    uint32_t index = (uint32_t) jsonread_integer (self, line, "stream", 0, UINT32_MAX);
    int64_t t_ns = jsonread_integer (self, line, "t_ns", INT64_MIN, INT64_MAX);
    uint64_t bytes = (uint64_t) jsonread_integer (self, line, "bytes", 0, INT64_MAX);
    if (self->failed)
        return;
    stream_result_t *stream = s_find_stream (run, cache, test, iteration, agent, job, index);
    if (stream && stream_result_add_sample (stream, t_ns, bytes))
        jsonread_fail (self, NULL, "%s", strerror (ENOMEM));
}

//  The samples file beside the results file, if there is one.
static void
s_read_samples (jsonread_t *self, const char *results_path, run_result_t *run)
{
    const char *slash = strrchr (results_path, '/');
    char *path = NULL;
    if (asprintf (&path, "%.*ssamples.jsonl",
                  slash? (int) (slash - results_path + 1): 0, results_path) < 0) {
        jsonread_fail (self, NULL, "%s", strerror (ENOMEM));
        return;
    }
    FILE *in = fopen (path, "r");
    if (!in) {
        //  A results file copied away on its own (--json) has no samples:
        //  every report but the timelines can still be rendered.
        if (errno != ENOENT)
            jsonread_fail (self, NULL, "fopen(%s): %s", path, strerror (errno));
        free (path);
        return;
    }
    jsonread_t lines = { .file = path, .err = self->err, .errlen = self->errlen };
    char *text = NULL;
    size_t capacity = 0;
    size_t line_nbr = 0;
    sample_cache_t cache = { NULL, NULL };
    while (!lines.failed && getline (&text, &capacity, in) >= 0) {
        line_nbr++;
        if (strspn (text, " \t\r\n") == strlen (text))
            continue;
        snprintf (lines.place, sizeof lines.place, "line %zu", line_nbr);
        json_error_t error;
        json_t *line = json_loads (text, 0, &error);
        if (!line)
            jsonread_fail (&lines, NULL, "%s", error.text);
        else
            s_read_sample (&lines, line, run, &cache);
        json_decref (line);
    }
    if (!lines.failed && ferror (in))
        jsonread_fail (&lines, NULL, "read: %s", strerror (errno));
    self->failed = lines.failed;
    free (text);
    fclose (in);
    free (path);
}


//  --------------------------------------------------------------------------
//  Entry

//  Read results.json into run, without its samples.
int
results_read_no_samples (const char *path, run_result_t *run, char *err, size_t errlen)
{
    assert (path);
    assert (run);
    memset (run, 0, sizeof *run);
    jsonread_t self = { .file = path, .err = err, .errlen = errlen };
    json_error_t error;
    json_t *root = json_load_file (path, 0, &error);
    if (!root) {
        if (err && errlen) {
            //  jansson says "unable to open" for a missing file; errno is
            //  clearer, and a syntax error gets its line and column.
            if (error.line < 0 && errno)
                snprintf (err, errlen, "%s: %s", path, strerror (errno));
            else
                snprintf (err, errlen, "%s:%d:%d: %s", path, error.line, error.column, error.text);
        }
        return -1;
    }
    s_read_run (&self, root, run);
    json_decref (root);
    if (self.failed) {
        run_result_clear (run);
        return -1;
    }
    return 0;
}

//  Read results.json and its samples into run.
int
results_read (const char *path, run_result_t *run, char *err, size_t errlen)
{
    if (results_read_no_samples (path, run, err, errlen))
        return -1;
    jsonread_t self = { .file = path, .err = err, .errlen = errlen };
    s_read_samples (&self, path, run);
    if (self.failed) {
        run_result_clear (run);
        return -1;
    }
    return 0;
}
