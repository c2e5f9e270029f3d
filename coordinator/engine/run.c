/*  coordinator/engine/run.c: the run engine; see run.h.

    The run connects to every agent the scenario names and says hello,
    runs every test as many iterations as asked, one after another
    (testrun.h has what one test does on the wire), and writes each test's
    results (each phase's, for a test with phases) into the results
    directory and the archive before the next begins.
*/
#include "run.h"
#include "../archive/archive.h"
#include "console.h"
#include "../fleet/fleet.h"
#include "../metrics/metrics.h"
#include "../results/results.h"
#include "../results/resultsdir.h"
#include "preflight.h"
#include "testrun.h"
#include "../report/report.h"
#include "../../proto/clock.h"

#include <pwd.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    const scenario_t *scenario;     //  what to run
    const run_options_t *options;   //  how
    fleet_t *fleet;                 //  one session per agent used
    console_t *console;             //  live status line
    run_result_t result;            //  everything measured so far
    resultsdir_t *results;          //  the results directory
    archive_t *archive;             //  the runs database, or NULL (--no-db)
    metrics_t *metrics;             //  --metrics: the live figures' server, or NULL
    uint32_t next_test_id;          //  test ids within the agents' sessions
    bool failed;                    //  a test failed or an agent was lost
    char coordinator [MSG_TEXT_MAX + 1];    //  how agents see us: "user@host pid=N"
} run_t;

//  "user@host pid=N": how a busy agent names us to a second coordinator.
static void
s_coordinator_name (char *buf, size_t buflen)
{
    char host [256] = "?";
    gethostname (host, sizeof host - 1);
    struct passwd *pw = getpwuid (getuid ());
    snprintf (buf, buflen, "%s@%s pid=%d", pw? pw->pw_name: "?", host, (int) getpid ());
}

//  Record the agents as the run met them.
static int
s_record_agents (run_t *self)
{
    size_t count = fleet_size (self->fleet);
    self->result.agents = (agent_info_t *) calloc (count? count: 1, sizeof (agent_info_t));
    if (!self->result.agents)
        return -1;
    self->result.agent_count = count;
    for (size_t i = 0; i < count; i++)
        self->result.agents [i] = *session_info (fleet_session (self->fleet, i));
    return 0;
}

//  An agent lost between tests: its next test says hello again.
static void
s_on_lost (session_t *session, const char *reason, void *arg)
{
    (void) arg;
    fprintf (stderr, "iofleet: agent=%s event=lost test=- reason=\"%s\"\n",
             session_name (session), reason);
}

//  A test's result (a phase's) is complete: write it down before the
//  next begins, so that a coordinator killed at any point leaves every
//  finished one readable.
static void
s_recorded (void *arg, test_result_t *result)
{
    run_t *self = (run_t *) arg;
    //  Frames dropped during the test are counted against their agents.
    for (size_t i = 0; i < self->result.agent_count; i++)
        self->result.agents [i] = *session_info (fleet_session (self->fleet, i));
    metrics_publish (self->metrics, result, true);
    //  At thousands of agents this takes seconds without a poll: the
    //  leases start it afresh and hear from us again after it.
    fleet_keep_alive (self->fleet);
    resultsdir_append_samples (self->results, result);
    resultsdir_write_reports (self->results, &self->result);
    archive_record_test (self->archive, &self->result);
    fleet_keep_alive (self->fleet);
}

//  Run one iteration of one test. Returns 0, or -1 if the run must stop.
static int
s_run_test (run_t *self, const scenario_test_t *test, uint32_t iteration)
{
    testrun_config_t config = {
        .scenario = self->scenario,
        .test = test,
        .iteration = iteration,
        .test_id = ++self->next_test_id,
        .fleet = self->fleet,
        .console = self->console,
        .run = &self->result,
        .recorded = s_recorded,
        .recorded_arg = self,
        .metrics = self->metrics,
        .idle_lost = s_on_lost,
        .idle_lost_arg = self
    };
    bool failed = false;
    int rc = testrun_run (&config, &failed);
    if (failed)
        self->failed = true;
    return rc;
}

//  Connect to every agent that a job names and say hello.
static int
s_connect (run_t *self)
{
    char err [512];
    const char *keys_dir = self->scenario->options.keys_dir;
    if (keys_dir [0] && fleet_set_keys (self->fleet, keys_dir, err, sizeof err)) {
        fprintf (stderr, "iofleet: %s\n", err);
        return -1;
    }
    for (size_t j = 0; j < self->scenario->job_count; j++) {
        const char *name = self->scenario->jobs [j].agent;
        if (fleet_find (self->fleet, name))
            continue;
        const scenario_agent_t *agent = scenario_agent (self->scenario, name);
        if (!agent || !fleet_add (self->fleet, name, agent->endpoint, err, sizeof err)) {
            fprintf (stderr, "iofleet: %s\n", agent? err: "job names an unknown agent");
            return -1;
        }
    }
    s_coordinator_name (self->coordinator, sizeof self->coordinator);
    fleet_set_lease (self->fleet, self->coordinator, self->scenario->options.lease_ns,
                     self->scenario->options.connect_timeout_ns);
    fleet_set_lost_handler (self->fleet, s_on_lost, self);
    const scenario_options_t *options = &self->scenario->options;
    int64_t began_ns = clock_now_ns ();
    size_t ready = fleet_hello (self->fleet, NULL, 0, false, options->connect_timeout_ns,
                                NULL, NULL);
    if (ready == fleet_size (self->fleet)) {
        //  Every clock is measured once, all agents at once, before the
        //  first test: the agents table then says what the fleet's clocks
        //  are, and the first test only measures again those it must.
        int64_t hello_ns = clock_now_ns () - began_ns;
        fleet_sync_clocks (self->fleet, NULL, 0, options->clock_pings, 0,
                           options->connect_timeout_ns, NULL, NULL);
        fprintf (stderr, "iofleet: event=connected agents=%zu hello_s=%.3f clock_s=%.3f\n",
                 ready, (double) hello_ns / NS_PER_SEC,
                 (double) (clock_now_ns () - began_ns - hello_ns) / NS_PER_SEC);
        return fleet_interrupted ()? -1: 0;
    }
    for (size_t i = 0; i < fleet_size (self->fleet); i++) {
        session_t *session = fleet_session (self->fleet, i);
        if (session_state (session) != SESSION_READY)
            fprintf (stderr, "iofleet: %s\n", session_reason (session));
    }
    return -1;
}

//  Tell every agent the run is over: each ends its session at once
//  instead of when its lease runs out.
static void
s_bye (run_t *self)
{
    msg_t bye = { .type = MSG_BYE };
    msg_strcpy (bye.u.bye.reason, "run over", sizeof bye.u.bye.reason);
    fleet_broadcast (self->fleet, &bye);
}

//  The agents the jobs name, each once.
static size_t
s_agents_named (const scenario_t *scenario)
{
    zhashx_t *seen = zhashx_new ();
    if (!seen)
        return scenario->job_count;
    for (size_t j = 0; j < scenario->job_count; j++)
        zhashx_insert (seen, scenario->jobs [j].agent, (void *) 1);
    size_t count = zhashx_size (seen);
    zhashx_destroy (&seen);
    return count;
}

int
run_scenario (const scenario_t *scenario, const run_options_t *options)
{
    //  The open files the fleet needs, before its first socket: bad
    //  usage of this machine, said before anything starts.
    char reserve_err [512];
    if (fleet_reserve (s_agents_named (scenario), reserve_err, sizeof reserve_err)) {
        fprintf (stderr, "iofleet: %s\n", reserve_err);
        return EXIT_STATUS_USAGE;
    }
    run_t self = {
        .scenario = scenario,
        .options = options,
        .fleet = fleet_new (),
        .console = console_new (stdout, options->quiet)
    };
    if (options->progress_lines)
        console_set_lines (self.console, stderr);
    char err [1024];
    int status = EXIT_STATUS_FAILED;
    msg_strcpy (self.result.scenario_path, scenario->path, sizeof self.result.scenario_path);
    msg_strcpy (self.result.label, options->label? options->label: "", sizeof self.result.label);
    self.result.started_wall_ns = clock_wall_ns ();
    self.result.units = options->units;
    if (!self.fleet || !self.console)
        goto done;
    //  An -o that would mix two runs is bad usage: said before any agent
    //  hears of this run.
    if (resultsdir_check (options->results_dir, err, sizeof err)) {
        fprintf (stderr, "iofleet: %s\n", err);
        status = EXIT_STATUS_USAGE;
        goto done;
    }
    if (options->metrics_address) {
        self.metrics = metrics_new (options->metrics_address, err, sizeof err);
        if (!self.metrics) {
            fprintf (stderr, "iofleet: %s\n", err);
            status = EXIT_STATUS_USAGE;
            goto done;
        }
        fprintf (stderr, "iofleet: event=metrics url=%s\n", metrics_url (self.metrics));
    }

    //  Nothing is started unless every agent answers: a fleet run with a
    //  host missing would measure a different fleet.
    if (s_connect (&self))
        goto bye;
    //  Every agent is asked about every job before anything starts: what
    //  they would refuse is said at once, grouped, and nothing runs.
    long refused = preflight_fleet (scenario, self.fleet, scenario->options.connect_timeout_ns,
                                    stderr);
    if (refused < 0)
        goto bye;
    if (refused > 0) {
        status = EXIT_STATUS_USAGE;
        goto bye;
    }
    if (options->check_agents) {
        fprintf (stderr, "iofleet: preflight: every agent would accept every job\n");
        status = EXIT_STATUS_OK;
        goto bye;
    }
    if (s_record_agents (&self))
        goto bye;
    self.results = resultsdir_new (options->results_dir, scenario->path, options->json_path,
                                   err, sizeof err);
    if (!self.results) {
        fprintf (stderr, "iofleet: %s\n", err);
        goto bye;
    }
    resultsdir_save_scenario (self.results, scenario);
    if (!options->no_db)
        self.archive = archive_new_for_run (options->db_path, resultsdir_path (self.results));
    uint64_t iterations = options->iterations? options->iterations: scenario->options.iterations;
    //  Until its last test is over, what is written of the run says it
    //  may be cut short: a console killed leaves it so.
    self.result.cut_short = true;
    for (size_t t = 0; t < scenario->test_count; t++)
        for (uint64_t n = 1; n <= iterations; n++)
            if (s_run_test (&self, &scenario->tests [t], (uint32_t) n) || fleet_interrupted ())
                goto report;
    self.result.cut_short = false;

report:
    //  The tests are over: the agents are free for other consoles from
    //  here, not once the reports of a whole fleet are written.
    s_bye (&self);
    if (!self.result.cut_short)
        resultsdir_write_reports (self.results, &self.result);
    archive_finish_run (self.archive, &self.result);
    console_clear (self.console);
    text_report (&self.result, stdout);
    fflush (stdout);
    if (fleet_malformed (self.fleet))
        fprintf (stderr, "iofleet: event=malformed frames=%" PRIu64 " scope=run\n",
                 fleet_malformed (self.fleet));
    //  What the latency timelines cost the wire (tests/bench/timeline.sh).
    uint64_t intervals, interval_bytes;
    fleet_received (self.fleet, MSG_INTERVAL, &intervals, &interval_bytes);
    if (intervals)
        fprintf (stderr, "iofleet: event=wire type=interval messages=%" PRIu64 " bytes=%" PRIu64
                 "\n", intervals, interval_bytes);
    //  Results that could not be written fail the run, however well the
    //  tests went: what is not on disk was not recorded.
    resultsdir_print_problems (self.results, stderr);
    fprintf (stderr, "iofleet: results in %s\n", resultsdir_path (self.results));
    status = self.failed || fleet_interrupted () || resultsdir_failed (self.results)?
             EXIT_STATUS_FAILED: archive_failed (self.archive)? EXIT_STATUS_ARCHIVE: EXIT_STATUS_OK;
    goto done;

bye:
    s_bye (&self);
done:
    metrics_linger (self.metrics, options->metrics_linger_ns);
    metrics_destroy (&self.metrics);
    resultsdir_destroy (&self.results);
    archive_destroy (&self.archive);
    run_result_clear (&self.result);
    console_destroy (&self.console);
    fleet_destroy (&self.fleet);
    return status;
}
