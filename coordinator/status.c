/*  coordinator/status.c: the live status line; see status.h. */
#include "status.h"
#include "../proto/clock.h"

#include <stdio.h>
#include <string.h>

void
status_show (console_t *console, const test_result_t *result, session_t **sessions,
             size_t count, const uint32_t *generation, int64_t start_ns,
             double planned_bytes)
{
    char line [1024];
    int64_t elapsed_ns = clock_now_ns () - start_ns;
    int64_t interval_ns = 0;
    int used = 0;
    double total_mbps = 0, total_bytes = 0;
    for (size_t i = 0; i < count && used < (int) sizeof line - 96; i++) {
        double bytes = 0;
        int64_t latest_ns = 0;
        bool running = false;
        for (size_t s = 0; s < result->stream_count; s++) {
            const stream_result_t *stream = &result->streams [s];
            if (!streq (stream->agent, session_name (sessions [i])))
                continue;
            running |= !stream->finished && !stream->error [0];
            if (!stream->sample_count)
                continue;
            const sample_point_t *last = &stream->samples [stream->sample_count - 1];
            bytes += (double) (stream->finished? stream->bytes: last->bytes);
            if (last->t_ns > latest_ns)
                latest_ns = last->t_ns;
            if (stream->sample_count > 1) {
                int64_t step_ns = last->t_ns - stream->samples [stream->sample_count - 2].t_ns;
                if (step_ns > interval_ns)
                    interval_ns = step_ns;
            }
        }
        double mbps = latest_ns > 0? bytes / ((double) latest_ns / NS_PER_SEC) / 1e6: 0;
        total_mbps += mbps;
        total_bytes += bytes;
        uint32_t began = generation [session_index (sessions [i])];
        const char *flag = "";
        if (began == 0 || began != session_generation (sessions [i])
        ||  session_state (sessions [i]) != SESSION_READY)
            flag = " LOST";
        else
        if (running && interval_ns && elapsed_ns - latest_ns > 2 * interval_ns)
            flag = " slow";
        used += snprintf (line + used, sizeof line - used, "  %s %.0f MB/s%s",
                          session_name (sessions [i]), mbps, flag);
    }
    char expected [32] = "?";
    if (total_mbps > 0 && planned_bytes > 0 && total_bytes > 0)
        snprintf (expected, sizeof expected, "%.1f", planned_bytes / (total_mbps * 1e6));
    console_status (console, "%s #%u  %.1f / %s s %s  total %.0f MB/s", result->name,
                    result->iteration, (double) elapsed_ns / NS_PER_SEC, expected, line,
                    total_mbps);
}
