/*  coordinator/scenario/plan.c: what a scenario would run; see plan.h.  */

#include "plan.h"

#include "../../proto/append.h"
#include "../../proto/workload.h"

#include <inttypes.h>
#include <string.h>

//  The workloads of a test, each once, in job order ("write, copy").
static void
s_workloads (const scenario_t *scenario, const scenario_test_t *test, char *buf, size_t buflen)
{
    size_t used = 0;
    buf [0] = 0;
    for (size_t j = 0; j < test->job_count; j++) {
        int workload = scenario->jobs [test->jobs [j]].template->spec.workload;
        size_t first = 0;
        while (scenario->jobs [test->jobs [first]].template->spec.workload != workload)
            first++;
        const workload_desc_t *desc = workload_desc (workload);
        if (first < j || !desc)
            continue;                   //  named already, or not a workload
        append_printf (buf, buflen, &used, "%s", used? ", ": "");
        append_printf (buf, buflen, &used, "%s", desc->name);
    }
}

//  The phases of a test: those of its first job with phases (the checker
//  made every job of a test agree), or "-".
static void
s_phases (const scenario_t *scenario, const scenario_test_t *test, char *buf, size_t buflen)
{
    size_t used = 0;
    buf [0] = 0;
    for (size_t j = 0; j < test->job_count && !used; j++) {
        const scenario_job_t *job = &scenario->jobs [test->jobs [j]];
        const workload_desc_t *desc = workload_desc (job->template->spec.workload);
        for (uint32_t phase = 0; desc && workload_phase_name (desc, phase); phase++) {
            append_printf (buf, buflen, &used, "%s", phase? ", ": "");
            append_printf (buf, buflen, &used, "%s", workload_phase_name (desc, phase));
        }
    }
    if (!used)
        snprintf (buf, buflen, "-");
}

//  How many distinct agents the jobs of a test run on.
static size_t
s_agent_count (const scenario_t *scenario, const scenario_test_t *test)
{
    size_t count = 0;
    for (size_t j = 0; j < test->job_count; j++) {
        const char *agent = scenario->jobs [test->jobs [j]].agent;
        bool before = false;
        for (size_t k = 0; k < j && !before; k++)
            before = strcmp (scenario->jobs [test->jobs [k]].agent, agent) == 0;
        count += !before;
    }
    return count;
}

//  What ends a job's timed part: "size", "10000 requests", "runtime 60s".
static void
s_ends (const jobspec_t *spec, char *buf, size_t buflen)
{
    char text [48];
    switch (workload_bound (spec)) {
        case BOUND_TIME:
            opt_format (jobspec_option ("runtime"), spec, text, sizeof text);
            snprintf (buf, buflen, "runtime %s", text);
            break;
        case BOUND_REQUESTS:
            snprintf (buf, buflen, "%" PRIu64 " requests", spec->requests);
            break;
        case BOUND_SIZE:
            snprintf (buf, buflen, "size");
            break;
    }
}

void
plan_print (const scenario_t *scenario, FILE *out)
{
    const opt_def_t *size_opt = jobspec_option ("size");
    fprintf (out, "%s: %zu test%s, %zu job%s, %zu agent%s, %" PRIu64 " iteration%s each\n",
             scenario->path, scenario->test_count, scenario->test_count == 1? "": "s",
             scenario->job_count, scenario->job_count == 1? "": "s",
             scenario->agent_count, scenario->agent_count == 1? "": "s",
             scenario->options.iterations, scenario->options.iterations == 1? "": "s");
    fprintf (out, "%-20s %-24s %-28s %6s %6s %8s %10s  %s\n",
             "test", "workloads", "phases", "jobs", "agents", "streams", "bytes", "ends");
    bool any_whole_file = false;
    for (size_t t = 0; t < scenario->test_count; t++) {
        const scenario_test_t *test = &scenario->tests [t];
        uint64_t streams = 0, bytes = 0;
        bool whole_file = false;
        char ends [64] = "-";
        //  Only the options a job shares with its template count here.
        for (size_t j = 0; j < test->job_count; j++) {
            const jobspec_t *spec = &scenario->jobs [test->jobs [j]].template->spec;
            const workload_desc_t *desc = workload_desc (spec->workload);
            if (!desc || !desc->timed || !desc->stream_results)
                continue;           //  fills and monitors move no bytes of the test
            if (streams == 0)
                s_ends (spec, ends, sizeof ends);
            streams += spec->streams;
            //  A file set's size is the set's, shared by the streams.
            bool set = desc->files [0].option && desc->files [0].naming == FILES_SET;
            bytes += set? spec->size_bytes: spec->streams * spec->size_bytes;
            whole_file |= spec->size_bytes == 0;
        }
        char workloads [128], phases [128], amount [48];
        s_workloads (scenario, test, workloads, sizeof workloads);
        s_phases (scenario, test, phases, sizeof phases);
        if (whole_file && bytes == 0)
            snprintf (amount, sizeof amount, "sources");
        else
            opt_format_number (size_opt, bytes, amount, sizeof amount);
        fprintf (out, "%-20s %-24s %-28s %6zu %6zu %8" PRIu64 " %9s%s %s\n", test->name,
                 workloads, phases, test->job_count, s_agent_count (scenario, test), streams,
                 amount, whole_file && bytes? "+": " ", ends);
        any_whole_file |= whole_file;
    }
    if (any_whole_file)
        fprintf (out, "+: and the whole of each source a copy or read without a size takes\n");
}
