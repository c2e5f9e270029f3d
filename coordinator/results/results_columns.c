/*  coordinator/results/results_columns.c: a results table flattened into
    the columns of the flat outputs (the archive's, the CSV's); see
    results_schema.h. The tables themselves are results_schema.c's.
*/
#include "results_schema.h"
#include "../../proto/clock.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

//  Whether an output holds a field (its nested ones aside).
static bool
s_holds (results_output_t output, const results_field_t *field)
{
    if (output == RESULTS_ARCHIVE)
        return !field->not_archived && field->kind != FIELD_CUSTOM
            && field->kind != FIELD_LATENCY && field->kind != FIELD_SECONDS;
    return field->kind != FIELD_LATENCY && (field->kind != FIELD_CUSTOM || field->scalar);
}

size_t
results_schema_columns (const results_table_t *table, const char *prefix, size_t base,
                        results_output_t output, results_column_t *columns, size_t capacity)
{
    size_t count = 0;
    for (size_t nbr = 0; nbr < table->count; nbr++) {
        const results_field_t *field = &table->fields [nbr];
        const char *name = field->column? field->column: field->name;
        //  A latency summary is one object in the JSON, a column per
        //  figure in the CSV (disk_latency_p99_ns).
        bool latency_columns = field->kind == FIELD_LATENCY && output == RESULTS_CSV;
        if (field->kind == FIELD_OBJECT || latency_columns) {
            char nested [64];
            snprintf (nested, sizeof nested, "%s%s%s", prefix, name, name [0]? "_": "");
            const results_table_t *nested_table = latency_columns? &results_latency_summary_table
                                                                : field->table;
            count += results_schema_columns (nested_table, nested, base + field->offset, output,
                                             count < capacity? columns + count: NULL,
                                             count < capacity? capacity - count: 0);
        }
        else
        if (s_holds (output, field)) {
            if (count < capacity) {
                results_column_t *column = &columns [count];
                snprintf (column->name, sizeof column->name, "%s%s", prefix, name);
                column->field = field;
                column->base = base;
            }
            count++;
        }
    }
    return count;
}

const void *
results_schema_holder (const results_column_t *column, const void *row)
{
    return (const char *) row + column->base;
}

const void *
results_schema_field (const results_column_t *column, const void *row)
{
    return (const char *) row + column->base + column->field->offset;
}

void
results_schema_utc (int64_t wall_ns, char *buf, size_t buflen)
{
    time_t seconds = (time_t) (wall_ns / NS_PER_SEC);
    struct tm utc;
    char stamp [40];
    buf [0] = 0;
    if (wall_ns >= 0 && gmtime_r (&seconds, &utc)
    &&  strftime (stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc))
        snprintf (buf, buflen, "%s.%03dZ", stamp, (int) ((wall_ns % NS_PER_SEC) / NS_PER_MSEC));
}
