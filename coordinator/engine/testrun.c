/*  coordinator/engine/testrun.c: one iteration of one test; see testrun.h. */
#include "testrun_state.h"
#include "../numbers/aggregate.h"
#include "../numbers/latency_timeline.h"
#include "status.h"
#include "../../proto/clock.h"
#include "../../proto/workload.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

//  How often the terminal's status is redrawn and the streams' progress is
//  looked at. Keepalives and the lease are the fleet's (fleet.h).
#define TESTRUN_TICK_NS         (500 * NS_PER_MSEC)
//  How long past a sample instant a plain status line waits, at most.
#define TESTRUN_LINE_LAG_NS     (200 * NS_PER_MSEC)
//  After an abort, how long the agents get to report what they did.
#define TESTRUN_ABORT_GRACE_NS  (5 * NS_PER_SEC)
//  How long past its settle bound an agent's HOST figures are awaited.
#define TESTRUN_HOST_GRACE_NS   (3 * NS_PER_SEC)

//  --------------------------------------------------------------------------
//  Waiting

//  The status: how each agent of the test stands, the tally, then the
//  line, and whoever watches the run is told.
static void
s_show_status (testrun_t *tr)
{
    for (size_t i = 0; i < tr->session_count; i++) {
        session_t *session = tr->sessions [i];
        uint32_t began = tr->generation [session_index (session)];
        tr->status_hosts [i].name = session_name (session);
        tr->status_hosts [i].lost = began == 0 || began != session_generation (session)
                                 || session_state (session) != SESSION_READY;
    }
    status_plan_tally (&tr->status, testrun_result (tr), tr->status_hosts, tr->stream_host,
                       clock_now_ns () - tr->start_ns);
    status_show (tr->config.console, &tr->status, tr->status_hosts);
    if (tr->config.status)
        tr->config.status (tr->config.status_arg, &tr->status);
}

//  Plain status lines come once per sample interval, a moment after the
//  agents' samples of it (sent at T0 + k intervals) have arrived.
static int64_t
s_line_lag_ns (int64_t interval_ns)
{
    return interval_ns / 5 < TESTRUN_LINE_LAG_NS? interval_ns / 5: TESTRUN_LINE_LAG_NS;
}

//  Poll until done() says so, the deadline passes or the run is
//  interrupted, keeping the status fresh and the streams watched. The
//  fleet keeps every agent's lease alive meanwhile, the test's and the
//  others'. Returns 0, or -1 past the deadline or when interrupted.
static int
s_collect (testrun_t *tr, bool (*done) (testrun_t *), int64_t deadline_ns)
{
    int64_t next_tick_ns = clock_now_ns () + TESTRUN_TICK_NS;
    bool lines = console_lines (tr->config.console);
    while (!done (tr)) {
        int64_t now_ns = clock_now_ns ();
        metrics_publish (tr->config.metrics, testrun_result (tr), false);
        if (deadline_ns && now_ns >= deadline_ns)
            return -1;
        if (now_ns >= next_tick_ns) {
            testrun_watch_progress (tr, now_ns);
            if (tr->stage == STAGE_RUNNING && !lines)
                s_show_status (tr);
            next_tick_ns = now_ns + TESTRUN_TICK_NS;
        }
        bool line_due = lines && tr->stage == STAGE_RUNNING && tr->status.interval_ns > 0;
        if (line_due && now_ns >= tr->next_line_ns) {
            s_show_status (tr);
            while (tr->next_line_ns <= now_ns)
                tr->next_line_ns += tr->status.interval_ns;
        }
        int64_t wake_ns = next_tick_ns;
        if (line_due && tr->next_line_ns < wake_ns)
            wake_ns = tr->next_line_ns;
        if (deadline_ns && deadline_ns < wake_ns)
            wake_ns = deadline_ns;
        if (fleet_poll (tr->config.fleet, wake_ns, testrun_on_message, tr))
            return -1;              //  interrupted
    }
    return 0;
}

static bool
s_all_answered (testrun_t *tr)
{
    return tr->jobs_answered >= tr->jobs_sent;
}

static bool
s_all_dropped (testrun_t *tr)
{
    return tr->drops_pending == 0;
}

//  Every stream of the phase has reported, and every host has sent its
//  figures or will not in time: an agent whose settle period outlasts
//  its bound by a few seconds, or that could not read /proc, leaves its
//  host unmeasured rather than holding the run.
static bool
s_all_reported (testrun_t *tr)
{
    if (tr->lost && tr->stage == STAGE_RUNNING
    &&  tr->config.scenario->options.on_lost == ON_LOST_ABORT)
        return true;
    test_result_t *result = testrun_result (tr);
    if (tr->streams_reported < result->stream_count)
        return false;
    if (tr->stage != STAGE_RUNNING
    ||  tr->hosts_reported + tr->hosts_excused >= result->host_count)
        return true;
    int64_t now_ns = clock_now_ns ();
    if (!tr->hosts_deadline_ns)
        tr->hosts_deadline_ns = now_ns + tr->settle_ns + TESTRUN_HOST_GRACE_NS;
    return now_ns >= tr->hosts_deadline_ns;
}

//  Stop the test on every agent and give them a moment to report.
static void
s_abort (testrun_t *tr, const char *reason)
{
    msg_t abort = { .type = MSG_ABORT };
    abort.u.abort.test_id = tr->config.test_id;
    msg_strcpy (abort.u.abort.reason, reason, sizeof abort.u.abort.reason);
    for (size_t i = 0; i < tr->session_count; i++)
        if (testrun_current (tr, tr->sessions [i]))
            session_send (tr->sessions [i], &abort);
    if (tr->stage != STAGE_RUNNING)
        return;                     //  nothing started: nothing to report
    tr->stage = STAGE_ABORTING;
    fleet_set_draining (tr->config.fleet, true);
    s_collect (tr, s_all_reported, clock_now_ns () + TESTRUN_ABORT_GRACE_NS);
    fleet_set_draining (tr->config.fleet, false);
    for (size_t i = 0; i < tr->session_count; i++)
        testrun_fail_streams (tr, tr->sessions [i], -1, reason);
}

//  A test aborted at prepare: the streams of the jobs that did prepare
//  never started, and say why (the first job that failed), rather than
//  pass for streams whose agent sent nothing.
static void
s_not_started (testrun_t *tr)
{
    test_result_t *result = testrun_result (tr);
    const stream_result_t *failed = NULL;
    for (size_t nbr = 0; !failed && nbr < result->stream_count; nbr++)
        if (result->streams [nbr].error)
            failed = &result->streams [nbr];
    char reason [MSG_TEXT_MAX + 1] = "not started: another job of the test failed to prepare";
    if (failed)
        snprintf (reason, sizeof reason, "not started: job %s on agent %s failed to prepare",
                  failed->job, failed->agent);
    for (size_t i = 0; i < tr->session_count; i++)
        testrun_fail_streams (tr, tr->sessions [i], -1, reason);
}

//  Aggregate the phase's result and hand it to the run.
static void
s_record (testrun_t *tr)
{
    console_clear (tr->config.console);
    test_result_t *result = testrun_result (tr);
    if (tr->dropped)
        fprintf (stderr, "iofleet: test=%s event=dropped messages=%" PRIu64 "\n",
                 result->name, tr->dropped);
    tr->dropped = 0;
    if (tr->timeline && latency_timeline_builder_store (tr->timeline, result))
        fprintf (stderr, "iofleet: test=%s event=timeline error=\"out of memory\"\n",
                 result->name);
    aggregate_test (result);
    tr->config.recorded (tr->config.recorded_arg, result);
}

//  --------------------------------------------------------------------------
//  The stages

//  Agents lost earlier get another hello, not waited for (fleet_hello):
//  one restarted, or woken up, answers in the background and takes part
//  in the next test. Those not ready now are absent: the test runs
//  without them at once and is partial, so that a host known lost costs
//  it no timeout. Every other session is kept alive meanwhile.
static void
s_hello (testrun_t *tr)
{
    fleet_hello (tr->config.fleet, tr->sessions, tr->session_count, false,
                 tr->config.scenario->options.connect_timeout_ns, NULL, NULL);
    for (size_t i = 0; i < tr->session_count; i++) {
        session_t *session = tr->sessions [i];
        if (session_state (session) == SESSION_READY) {
            tr->generation [session_index (session)] = session_generation (session);
            continue;
        }
        fprintf (stderr, "iofleet: agent=%s test=%s event=absent reason=\"%s\"\n",
                 session_name (session), tr->test->name, session_reason (session));
        testrun_fail_streams (tr, session, -1, session_reason (session));
        testrun_excuse_host (tr, session);
        tr->lost = true;
    }
}

//  Prepare in two waves. Fills first: a copy measures its source when it
//  prepares, so the sources must be complete by then. Then every other
//  job at once; agents prepare in parallel. Returns 0, or -1 if
//  interrupted.
static int
s_prepare (testrun_t *tr)
{
    tr->stage = STAGE_PREPARING;
    for (int wave = 0; wave < 2 && !tr->prepare_failed; wave++) {
        for (size_t j = 0; j < tr->test->job_count; j++) {
            bool untimed = !workload_desc (tr->job_options [j]->workload)->timed;
            if (untimed != (wave == 0))
                continue;
            msg_t prepare = { .type = MSG_PREPARE };
            prepare.u.prepare.test_id = tr->config.test_id;
            prepare.u.prepare.job_id = (uint32_t) j;
            scenario_job_spec (tr->job [j], &prepare.u.prepare.spec);
            tr->jobs_sent++;
            if (testrun_current (tr, tr->job_session [j]))
                session_send (tr->job_session [j], &prepare);
            else
                testrun_job_answered (tr, j);
        }
        if (s_collect (tr, s_all_answered, 0))
            return -1;
    }
    return 0;
}

//  Every agent with a job that asks for cold caches writes its page
//  cache back and drops it, once every job of the test is prepared (its
//  files laid out). Returns 0, or -1 if interrupted.
static int
s_drop_caches (testrun_t *tr)
{
    tr->stage = STAGE_DROPPING;
    msg_t drop = { .type = MSG_DROP };
    drop.u.drop.test_id = tr->config.test_id;
    for (size_t j = 0; j < tr->test->job_count; j++) {
        session_t *session = tr->job_session [j];
        size_t index = session_index (session);
        if (!tr->job_options [j]->drop_caches || tr->drop_pending [index]
        ||  !testrun_current (tr, session))
            continue;
        tr->drop_pending [index] = true;
        tr->drops_pending++;
        session_send (session, &drop);
    }
    return s_collect (tr, s_all_dropped, 0);
}

//  Run one phase: measure clocks, START every agent at one instant,
//  collect until every stream and host reported. Returns 0, or -1 if
//  interrupted.
static int
s_run_phase (testrun_t *tr, uint32_t phase)
{
    //  Measure clocks just before the start, those not measured within
    //  clock_refresh, so that the offsets are fresh; then pick T0 far
    //  enough ahead that START reaches the slowest agent in time.
    const scenario_options_t *options = &tr->config.scenario->options;
    fleet_sync_clocks (tr->config.fleet, tr->sessions, tr->session_count, options->clock_pings,
                       options->clock_refresh_ns, options->connect_timeout_ns,
                       testrun_on_message, tr);
    if (fleet_interrupted ())
        return -1;
    for (size_t i = 0; i < tr->config.run->agent_count; i++)
        tr->config.run->agents [i] = *session_info (fleet_session (tr->config.fleet, i));
    //  The lead covers the slowest round trip, and the time a message to
    //  the whole fleet takes to reach its last agent (sending thousands
    //  of STARTs, and thousands of agents woken to read them, take a
    //  while on a busy host), twice over.
    int64_t lead_ns = options->lead_ns;
    for (size_t i = 0; i < tr->session_count; i++)
        if (4 * session_info (tr->sessions [i])->clock_rtt_ns > lead_ns)
            lead_ns = 4 * session_info (tr->sessions [i])->clock_rtt_ns;
    if (2 * fleet_reach_ns (tr->config.fleet) > lead_ns)
        lead_ns = 2 * fleet_reach_ns (tr->config.fleet);
    tr->start_ns = clock_now_ns () + lead_ns;
    //  The plan of the phase, from its jobs' specs, once.
    status_plan_clear (&tr->status);
    status_plan_init (&tr->status, tr->job_options, tr->first_stream, tr->test->job_count,
                      phase, tr->session_count);
    tr->status.test = tr->test->name;
    tr->status.phase = tr->desc? workload_phase_name (tr->desc, phase): NULL;
    tr->status.iteration = tr->config.iteration;
    tr->next_line_ns = tr->start_ns + tr->status.interval_ns
                     + s_line_lag_ns (tr->status.interval_ns);
    testrun_result (tr)->announced_wall_ns = clock_wall_ns () + lead_ns;
    for (size_t i = 0; i < tr->session_count; i++) {
        if (!testrun_current (tr, tr->sessions [i]))
            continue;
        msg_t start = { .type = MSG_START };
        start.u.start.test_id = tr->config.test_id;
        start.u.start.phase = phase;
        start.u.start.phase_count = tr->phase_count;
        start.u.start.start_ns = clock_to_agent (tr->start_ns,
                                                 session_offset_ns (tr->sessions [i]));
        session_send (tr->sessions [i], &start);
        //  Progress is awaited from the start instant on.
        tr->progress_ns [session_index (tr->sessions [i])] = tr->start_ns;
    }
    tr->stage = STAGE_RUNNING;
    testrun_stop_phase (tr);              //  a phase without streams is over at once
    return s_collect (tr, s_all_reported, 0);
}

//  The test's agents, each once, and what the test needs per job and per
//  session: who runs what, found once here so that no message has to
//  search for it. Returns 0, or -1 if memory ran out.
static int
s_setup (testrun_t *tr)
{
    size_t jobs = tr->test->job_count;
    size_t fleet_count = fleet_size (tr->config.fleet);
    for (size_t j = 0; j < jobs; j++)
        tr->stream_total += testrun_timed_streams (
            &tr->config.scenario->jobs [tr->test->jobs [j]].template->spec);
    tr->job = (const scenario_job_t **) calloc (jobs, sizeof (scenario_job_t *));
    tr->job_options = (const jobspec_t **) calloc (jobs, sizeof (jobspec_t *));
    tr->job_session = (session_t **) calloc (jobs, sizeof (session_t *));
    tr->next_job = (size_t *) calloc (jobs, sizeof (size_t));
    tr->job_monitor = (size_t *) calloc (jobs, sizeof (size_t));
    tr->first_stream = (size_t *) calloc (jobs, sizeof (size_t));
    tr->job_class = (int *) calloc (jobs, sizeof (int));
    tr->job_answered = (bool *) calloc (jobs, sizeof (bool));
    tr->sessions = (session_t **) calloc (jobs, sizeof (session_t *));
    tr->stream_host = (size_t *) calloc (tr->stream_total + 1, sizeof (size_t));
    tr->status_hosts = (status_host_t *) calloc (jobs, sizeof (status_host_t));
    tr->first_job = (size_t *) calloc (fleet_count, sizeof (size_t));
    tr->place = (size_t *) calloc (fleet_count, sizeof (size_t));
    tr->host_index = (size_t *) calloc (fleet_count, sizeof (size_t));
    tr->generation = (uint32_t *) calloc (fleet_count, sizeof (uint32_t));
    tr->progress_ns = (int64_t *) calloc (fleet_count, sizeof (int64_t));
    tr->excused = (bool *) calloc (fleet_count, sizeof (bool));
    tr->drop_pending = (bool *) calloc (fleet_count, sizeof (bool));
    if (!tr->job || !tr->job_options || !tr->job_session || !tr->next_job || !tr->job_monitor
    ||  !tr->first_stream || !tr->job_class || !tr->job_answered || !tr->sessions
    ||  !tr->stream_host || !tr->status_hosts || !tr->first_job || !tr->place || !tr->host_index || !tr->generation
    ||  !tr->progress_ns || !tr->excused || !tr->drop_pending)
        return -1;
    for (size_t i = 0; i < fleet_count; i++)
        tr->first_job [i] = tr->host_index [i] = SIZE_MAX;
    tr->away_ns = fleet_away_ns (tr->config.fleet);
    //  The jobs of each agent are chained in file order, from first_job.
    size_t *last_job = (size_t *) calloc (fleet_count, sizeof (size_t));
    if (!last_job)
        return -1;
    tr->phase_count = 1;
    for (size_t j = 0; j < jobs; j++) {
        const scenario_job_t *job = &tr->config.scenario->jobs [tr->test->jobs [j]];
        const jobspec_t *spec = &job->template->spec;
        const workload_desc_t *desc = workload_desc (spec->workload);
        session_t *session = fleet_find (tr->config.fleet, job->agent);
        tr->job [j] = job;
        tr->job_options [j] = spec;
        tr->job_session [j] = session;
        tr->next_job [j] = tr->job_monitor [j] = SIZE_MAX;
        //  A class follows from its paths too (an nfs:// src), which
        //  may be the job's own.
        jobspec_t whole;
        scenario_job_spec (job, &whole);
        tr->job_class [j] = workload_job_class (&whole);
        if (spec->settle_ns > tr->settle_ns)
            tr->settle_ns = spec->settle_ns;
        //  The scenario check makes every reporting job of a test run
        //  the same phases.
        if (desc->stream_results && workload_phase_count (desc) >= tr->phase_count) {
            tr->desc = desc;
            tr->phase_count = workload_phase_count (desc);
        }
        size_t index = session_index (session);
        if (tr->first_job [index] == SIZE_MAX) {
            tr->first_job [index] = j;
            tr->place [index] = tr->session_count;
            tr->sessions [tr->session_count++] = session;
        }
        else
            tr->next_job [last_job [index]] = j;
        last_job [index] = j;
    }
    free (last_job);
    return 0;
}

//  Free what the test run holds (its results stay in the run).
static void
s_teardown (testrun_t *tr)
{
    free (tr->job);
    free (tr->job_options);
    free (tr->job_session);
    free (tr->next_job);
    free (tr->job_monitor);
    free (tr->first_stream);
    free (tr->job_class);
    free (tr->job_answered);
    free (tr->sessions);
    free (tr->stream_host);
    free (tr->status_hosts);
    free (tr->first_job);
    free (tr->place);
    free (tr->host_index);
    free (tr->generation);
    free (tr->progress_ns);
    free (tr->excused);
    free (tr->drop_pending);
    latency_timeline_builder_destroy (&tr->timeline);
    status_plan_clear (&tr->status);
}

int
testrun_run (const testrun_config_t *config, bool *failed)
{
    testrun_t tr = { .config = *config, .test = config->test };
    int rc = -1;
    if (s_setup (&tr) || testrun_new_phase_result (&tr, 0))
        goto done;
    fleet_set_lost_handler (config->fleet, testrun_on_lost, &tr);
    const scenario_options_t *options = &config->scenario->options;

    s_hello (&tr);
    if (fleet_interrupted ())
        goto interrupted;
    if (tr.lost && options->on_lost == ON_LOST_ABORT) {
        fprintf (stderr, "iofleet: test=%s event=abort reason=\"an agent is absent, "
                 "on_lost = abort\"\n", tr.test->name);
        s_record (&tr);
        goto done;                  //  rc stays -1: the run ends here
    }
    if (s_prepare (&tr))
        goto interrupted;
    if (!tr.prepare_failed && s_drop_caches (&tr))
        goto interrupted;
    if (tr.prepare_failed) {
        s_abort (&tr, "another job of the test failed to prepare");
        s_not_started (&tr);
        s_record (&tr);
        rc = 0;
        goto done;
    }
    for (uint32_t phase = 0; phase < tr.phase_count; phase++) {
        if (phase > 0 && testrun_new_phase_result (&tr, phase))
            goto done;
        if (s_run_phase (&tr, phase))
            goto interrupted;
        if (tr.lost && options->on_lost == ON_LOST_ABORT) {
            fprintf (stderr, "iofleet: test=%s event=abort reason=\"an agent was lost, "
                     "on_lost = abort\"\n", testrun_result (&tr)->name);
            s_abort (&tr, "an agent was lost (on_lost = abort)");
            s_record (&tr);
            goto done;              //  rc stays -1: the run ends after this test
        }
        s_record (&tr);
    }
    rc = 0;
    goto done;

interrupted:
    console_clear (config->console);
    fprintf (stderr, "iofleet: test=%s event=interrupted\n", testrun_result (&tr)->name);
    s_abort (&tr, "interrupted on the console");
    tr.failed = true;
    s_record (&tr);

done:
    fleet_set_lost_handler (config->fleet, config->idle_lost, config->idle_lost_arg);
    *failed = tr.failed || tr.lost;
    s_teardown (&tr);
    return rc;
}
