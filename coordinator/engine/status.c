/*  coordinator/engine/status.c: the live status line; see status.h. */
#include "status.h"
#include "../../proto/append.h"
#include "../../proto/clock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

//  A figure with precision digits, or "-" when unknown.
static const char *
s_figure (char *buf, size_t buflen, double value, int precision)
{
    if (isnan (value))
        snprintf (buf, buflen, "-");
    else
        snprintf (buf, buflen, "%.*f", precision, value);
    return buf;
}

static const char *
s_state (const status_figures_t *figures)
{
    return figures->done? "done": figures->ramp? "ramp": "run";
}

static const char *
s_standing_name (status_standing_t standing)
{
    return standing == STATUS_LOST? "LOST": standing == STATUS_SLOW? "slow": "";
}

//  The key=value line.
static void
s_fields (char *line, size_t linelen, const status_plan_t *plan, const status_host_t *hosts)
{
    const status_figures_t *f = &plan->figures;
    char pct [32], eta [32], mbps [32], iops [32];
    size_t used = 0;
    append_printf (line, linelen, &used, "status test=%s iteration=%u phase=%s state=%s "
                   "elapsed_s=%.1f pct=%s eta_s=%s mbps=%s iops=%s hosts=%zu running=%zu "
                   "slow=%zu lost=%zu done=%zu worst=", plan->test, plan->iteration,
                   plan->phase? plan->phase: "-", s_state (f),
                   (double) f->elapsed_ns / NS_PER_SEC, s_figure (pct, sizeof pct, f->pct, 1),
                   s_figure (eta, sizeof eta, f->eta_s, 1),
                   s_figure (mbps, sizeof mbps, f->mbps, 1),
                   s_figure (iops, sizeof iops, f->rps, 0),
                   f->hosts, f->running, f->slow, f->lost, f->finished);
    for (size_t n = 0; n < plan->worst_named; n++)
        append_printf (line, linelen, &used, "%s%s", n? ",": "", hosts [plan->worst [n]].name);
    if (!plan->worst_named)
        append_printf (line, linelen, &used, "-");
}

void
status_line (char *line, size_t linelen, const status_plan_t *plan,
             const status_host_t *hosts, bool fields)
{
    if (fields) {
        s_fields (line, linelen, plan, hosts);
        return;
    }
    const status_figures_t *f = &plan->figures;
    char pct [32], eta [32];
    size_t used = 0;
    append_printf (line, linelen, &used, "%s%s%s #%u  %s  %s%%  eta %s s  %.1f s",
                   plan->test, plan->phase? "/": "", plan->phase? plan->phase: "",
                   plan->iteration, s_state (f), s_figure (pct, sizeof pct, f->pct, 0),
                   s_figure (eta, sizeof eta, f->eta_s, 1), (double) f->elapsed_ns / NS_PER_SEC);
    char rate [32];
    if (plan->counts_bytes)
        append_printf (line, linelen, &used, "  %s MB/s",
                       s_figure (rate, sizeof rate, f->mbps, 1));
    if (plan->counts_requests)
        append_printf (line, linelen, &used, "  %s req/s",
                       s_figure (rate, sizeof rate, f->rps, 0));
    append_printf (line, linelen, &used, "  hosts %zu: %zu running, %zu slow, %zu lost, %zu done",
                   f->hosts, f->running, f->slow, f->lost, f->finished);
    if (plan->host_count <= STATUS_HOSTS_LISTED) {
        for (size_t h = 0; h < plan->host_count; h++) {
            const status_host_tally_t *tally = &plan->host_tally [h];
            append_printf (line, linelen, &used, "%s %s %.1f MB/s%s%s", h? ",": ";",
                           hosts [h].name, tally->bytes_per_s / 1e6,
                           tally->standing >= STATUS_SLOW? " ": "",
                           s_standing_name (tally->standing));
        }
        return;
    }
    for (size_t n = 0; n < plan->worst_named; n++) {
        const status_host_tally_t *tally = &plan->host_tally [plan->worst [n]];
        if (tally->standing >= STATUS_SLOW)
            append_printf (line, linelen, &used, "%s %s %s", n? ",": "; worst",
                           hosts [plan->worst [n]].name, s_standing_name (tally->standing));
        else
            append_printf (line, linelen, &used, "%s %s %.1f MB/s", n? ",": "; worst",
                           hosts [plan->worst [n]].name, tally->bytes_per_s / 1e6);
    }
}

void
status_show (console_t *console, const status_plan_t *plan, const status_host_t *hosts)
{
    char line [STATUS_LINE_MAX];
    status_line (line, sizeof line, plan, hosts, console_lines (console));
    console_status (console, "%s", line);
}
