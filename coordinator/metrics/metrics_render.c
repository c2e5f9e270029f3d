/*  coordinator/metrics/metrics_render.c: a snapshot as exposition text; see
    metrics_render.h.

    The families are two tables: what every scope (fleet, class, host) has,
    and what a host has besides. The formats differ in few places: an
    OpenMetrics counter family is named without its _total, timestamps are
    seconds there (milliseconds in Prometheus text), and the text ends
    with # EOF.
*/
#include "metrics_render.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum { KIND_COUNTER, KIND_GAUGE, KIND_HISTOGRAM } kind_t;

//  A family every scope has: its name after the scope's prefix.
typedef struct {
    const char *name;               //  "bytes": iofleet_fleet_bytes_total
    kind_t kind;                    //  counter, gauge or histogram
    const char *help;               //  its HELP, after the scope's words
    size_t offset;                  //  its figure in metrics_flow_t (not for a histogram)
} flow_family_t;

static const flow_family_t s_flow_families [] = {
    { .name = "bytes", .kind = KIND_COUNTER, .offset = offsetof (metrics_flow_t, bytes),
      .help = "bytes written or read by the streams of the phase, from their samples" },
    { .name = "requests", .kind = KIND_COUNTER, .offset = offsetof (metrics_flow_t, requests),
      .help = "requests of the streams of the phase (bytes / bs while a stream runs)" },
    { .name = "interval_bytes_per_second", .kind = KIND_GAUGE,
      .offset = offsetof (metrics_flow_t, bytes_per_s),
      .help = "bytes per second over each running stream's last sample interval, summed" },
    { .name = "interval_requests_per_second", .kind = KIND_GAUGE,
      .offset = offsetof (metrics_flow_t, requests_per_s),
      .help = "requests per second over each running stream's last sample interval, summed" },
    { .name = "latency_seconds", .kind = KIND_HISTOGRAM,
      .help = "latency of the reads and writes of the streams finished so far" },
    { NULL }
};

//  A family of hosts alone: a figure of metrics_host_t.
typedef struct {
    const char *name;               //  after iofleet_host_
    const char *help;
    size_t offset;                  //  in metrics_host_t, a double; NAN is left out
} host_family_t;

static const host_family_t s_host_families [] = {
    { "cpu_user_ratio", "share of the host's CPU time in user mode",
      offsetof (metrics_host_t, user_ratio) },
    { "cpu_system_ratio", "share of the host's CPU time in system mode and interrupts",
      offsetof (metrics_host_t, system_ratio) },
    { "cpu_iowait_ratio", "share of the host's CPU time waiting for I/O",
      offsetof (metrics_host_t, iowait_ratio) },
    { "dirty_bytes", "Dirty of /proc/meminfo", offsetof (metrics_host_t, dirty_bytes) },
    { "writeback_bytes", "Writeback of /proc/meminfo", offsetof (metrics_host_t, writeback_bytes) },
    { NULL }
};

//  The scopes of the flow families.
typedef enum { SCOPE_FLEET, SCOPE_CLASS, SCOPE_HOST, SCOPES } scope_t;
static const char *s_scope_names [SCOPES] = { "fleet", "class", "host" };
static const char *s_scope_words [SCOPES] = { "All hosts: ", "Per class: ", "Per host: " };
static const char *s_class_names [2] = { "disk", "network" };

//  A growing text.
typedef struct {
    char *data;
    size_t size;
    size_t capacity;
    bool failed;                    //  memory ran out: the text is void
} text_t;

static void
s_add (text_t *text, const char *format, ...)
{
    if (text->failed)
        return;
    for (;;) {
        va_list args;
        va_start (args, format);
        size_t room = text->capacity - text->size;
        int n = vsnprintf (text->data? text->data + text->size: NULL, room, format, args);
        va_end (args);
        if (n < 0) {
            text->failed = true;
            return;
        }
        if ((size_t) n < room) {
            text->size += (size_t) n;
            return;
        }
        size_t capacity = text->capacity? text->capacity * 2: 65536;
        while (capacity - text->size <= (size_t) n)
            capacity *= 2;
        char *data = (char *) realloc (text->data, capacity);
        if (!data) {
            text->failed = true;
            return;
        }
        text->data = data;
        text->capacity = capacity;
    }
}

//  A label value, escaped as both formats want: \\, \" and \n.
static void
s_add_escaped (text_t *text, const char *value)
{
    for (const char *c = value; *c; c++) {
        if (*c == '\\')
            s_add (text, "\\\\");
        else if (*c == '"')
            s_add (text, "\\\"");
        else if (*c == '\n')
            s_add (text, "\\n");
        else
            s_add (text, "%c", *c);
    }
}

//  What one rendering writes every series with.
typedef struct {
    text_t *text;
    metrics_format_t format;
    const metrics_snapshot_t *snap;
} render_t;

//  # HELP and # TYPE of a family.
static void
s_header (render_t *r, const char *name, kind_t kind, const char *words, const char *help)
{
    static const char *types [] = { "counter", "gauge", "histogram" };
    const char *total = kind == KIND_COUNTER && r->format == METRICS_PROMETHEUS? "_total": "";
    s_add (r->text, "# HELP %s%s %s%s\n# TYPE %s%s %s\n", name, total, words, help,
           name, total, types [kind]);
}

//  One series: name and suffix, the common labels, one more label (or
//  none), a value, a timestamp (0: none).
static void
s_series (render_t *r, const char *name, const char *suffix, const char *label,
          const char *label_value, const char *le, double value, int64_t at_ms)
{
    s_add (r->text, "%s%s{test=\"", name, suffix);
    s_add_escaped (r->text, r->snap->test);
    s_add (r->text, "\",phase=\"");
    s_add_escaped (r->text, r->snap->phase);
    s_add (r->text, "\",iteration=\"%" PRIu32 "\"", r->snap->iteration);
    if (label) {
        s_add (r->text, ",%s=\"", label);
        s_add_escaped (r->text, label_value);
        s_add (r->text, "\"");
    }
    if (le)
        s_add (r->text, ",le=\"%s\"", le);
    if (value == floor (value) && fabs (value) < 9007199254740992.0)
        s_add (r->text, "} %.0f", value);
    else
        s_add (r->text, "} %.17g", value);
    if (at_ms > 0 && r->format == METRICS_OPENMETRICS)
        s_add (r->text, " %" PRId64 ".%03" PRId64, at_ms / 1000, at_ms % 1000);
    else if (at_ms > 0)
        s_add (r->text, " %" PRId64, at_ms);
    s_add (r->text, "\n");
}

//  The series of one flow of a family: a value, or a histogram's
//  cumulative buckets, count and sum.
static void
s_flow (render_t *r, const flow_family_t *family, const char *name, const char *label,
        const char *label_value, const metrics_flow_t *flow)
{
    if (family->kind != KIND_HISTOGRAM) {
        double value = *(const double *) ((const char *) flow + family->offset);
        s_series (r, name, family->kind == KIND_COUNTER? "_total": "", label, label_value,
                  NULL, value, r->snap->as_of_ms);
        return;
    }
    uint64_t cumulative = 0;
    for (size_t slot = 0; slot <= METRICS_BOUNDS; slot++) {
        cumulative += flow->latency.buckets [slot];
        s_series (r, name, "_bucket", label, label_value,
                  slot < METRICS_BOUNDS? metrics_bounds [slot].le: "+Inf", (double) cumulative, 0);
    }
    s_series (r, name, "_count", label, label_value, NULL, (double) flow->latency.count, 0);
    s_series (r, name, "_sum", label, label_value, NULL, flow->latency.sum_s, 0);
}

//  Every family of the snapshot.
static void
s_families (render_t *r)
{
    const metrics_snapshot_t *snap = r->snap;
    char name [128];
    for (const flow_family_t *family = s_flow_families; family->name; family++)
        for (int scope = 0; scope < SCOPES; scope++) {
            snprintf (name, sizeof name, "iofleet_%s_%s", s_scope_names [scope], family->name);
            s_header (r, name, family->kind, s_scope_words [scope], family->help);
            if (scope == SCOPE_FLEET)
                s_flow (r, family, name, NULL, NULL, &snap->fleet);
            else if (scope == SCOPE_CLASS)
                for (int c = 0; c < 2; c++)
                    s_flow (r, family, name, "class", s_class_names [c], &snap->classes [c]);
            else
                for (size_t h = 0; h < snap->host_count; h++)
                    s_flow (r, family, name, "host", snap->hosts [h].name, &snap->hosts [h].flow);
        }
    for (const host_family_t *family = s_host_families; family->name; family++) {
        snprintf (name, sizeof name, "iofleet_host_%s", family->name);
        s_header (r, name, KIND_GAUGE, s_scope_words [SCOPE_HOST], family->help);
        for (size_t h = 0; h < snap->host_count; h++) {
            double value = *(const double *) ((const char *) &snap->hosts [h] + family->offset);
            if (!isnan (value))
                s_series (r, name, "", "host", snap->hosts [h].name, NULL, value, 0);
        }
    }
    s_header (r, "iofleet_agents", KIND_GAUGE, "", "agents of the phase by state");
    for (int state = 0; state < METRICS_STATES; state++)
        s_series (r, "iofleet_agents", "", "state", metrics_state_name (state), NULL,
                  snap->agents [state], 0);
    s_header (r, "iofleet_hosts_omitted", KIND_GAUGE, "",
              "hosts past the first 4096 of the phase: in the fleet's figures only");
    s_series (r, "iofleet_hosts_omitted", "", NULL, NULL, NULL, (double) snap->hosts_omitted, 0);
}

char *
metrics_render (const metrics_snapshot_t *snapshot, metrics_format_t format, size_t *size)
{
    text_t text = { 0 };
    render_t r = { .text = &text, .format = format, .snap = snapshot };
    s_add (&text, "%s", "");
    if (snapshot)
        s_families (&r);
    if (format == METRICS_OPENMETRICS)
        s_add (&text, "# EOF\n");
    if (text.failed) {
        free (text.data);
        return NULL;
    }
    *size = text.size;
    return text.data;
}

const char *
metrics_content_type (metrics_format_t format)
{
    return format == METRICS_OPENMETRICS?
           "application/openmetrics-text; version=1.0.0; charset=utf-8":
           "text/plain; version=0.0.4; charset=utf-8";
}

//  The q of one media range of an Accept header ("type/sub;q=0.5;..."),
//  and whether it names OpenMetrics, Prometheus text, or anything.
static double
s_quality (const char *range, size_t length, int *serves)
{
    char item [256];
    snprintf (item, sizeof item, "%.*s", (int) (length < 255? length: 255), range);
    char *type = item;
    while (*type == ' ' || *type == '\t')
        type++;
    size_t type_length = strcspn (type, "; \t");
    *serves = -1;
    if (strncasecmp (type, "application/openmetrics-text", type_length) == 0 && type_length == 28)
        *serves = METRICS_OPENMETRICS;
    else if ((type_length == 10 && strncasecmp (type, "text/plain", 10) == 0)
         ||  (type_length == 6 && strncasecmp (type, "text/*", 6) == 0)
         ||  (type_length == 3 && strncmp (type, "*/*", 3) == 0))
        *serves = METRICS_PROMETHEUS;
    const char *q = strstr (type, ";q=");
    if (!q)
        q = strstr (type, "; q=");
    return q? strtod (strchr (q, '=') + 1, NULL): 1;
}

metrics_format_t
metrics_format_for (const char *accept)
{
    if (!accept)
        return METRICS_PROMETHEUS;
    double best [2] = { -1, -1 };
    for (const char *range = accept; *range; ) {
        size_t length = strcspn (range, ",");
        int serves;
        double q = s_quality (range, length, &serves);
        if (serves >= 0 && q > best [serves])
            best [serves] = q;
        range += length;
        if (*range == ',')
            range++;
    }
    //  OpenMetrics where it is asked for at least as much as plain text.
    return best [METRICS_OPENMETRICS] > 0 && best [METRICS_OPENMETRICS] >= best [METRICS_PROMETHEUS]?
           METRICS_OPENMETRICS: METRICS_PROMETHEUS;
}
