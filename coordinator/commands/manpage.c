/*  coordinator/commands/manpage.c: iofleet(1) and iofleet-scenario(5); see
    manpage.h. Only the prose is written here: every flag, key, default,
    bound and unit comes from a table.
*/
#include "manpage.h"
#include "../exit_status.h"
#include "../metrics/metrics_render.h"
#include "../scenario/fio_keys.h"
#include "../scenario/scenario.h"
#include "../report/report.h"

#include "../../proto/doc.h"
#include "../../proto/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const s_description =
    "iofleet runs one I/O scenario on many machines at once and reports it in one "
    "table. An agent, iofleet-agent(8), runs on every client and NFS server; iofleet "
    "run on the console connects to the agents of a scenario (iofleet-scenario(5)), "
    "measures their clock offsets, prepares every job, starts every stream at one "
    "absolute instant on every host, collects samples and results, and reports per "
    "stream, host, class (disk or network) and for the whole fleet.\n\n"
    "Rates are in MB/s (10^6 bytes per second), as dd prints them, unless --units MiB "
    "is given.";

//  The exit statuses, one sentence each, from the list the commands
//  return (../exit_status.h).
static const char *const s_exit =
#define S_EXIT_TEXT(name, value, text) #value ": " text ". "
    EXIT_STATUS_LIST (S_EXIT_TEXT);
#undef S_EXIT_TEXT

//  What the live status says (../engine/status.h).
static const char *const s_live_status =
    "While a test runs, iofleet run shows its status on a terminal, one line rewritten in "
    "place every half second; with --progress lines, one line on stderr once per sample "
    "interval (the shortest interval of the test's jobs), a moment after the agents' "
    "samples of it; with -q, nothing.\n\n"
    "Per test and phase (TEST/PHASE for a workload of phases), the line gives: ramp while "
    "a job is still in its ramp, else run; percent done and the ETA, from whichever bound "
    "each job has and comes first: its runtime, or its volume (requests x bs for a job of "
    "requests, size x streams for one counted in bytes), the volume left at the last "
    "interval's rate; the phase is as far as its least advanced job and ends with its "
    "latest (unknown, shown -, while a job has no bound, such as a copy of a whole file, or "
    "no rate yet); the time since the phase's start; the last interval's rate, not the "
    "average since the start: MB/s for streams of bytes, requests/s for randrw and seeks, "
    "both for randrw; and the hosts running, slow (no sample for two intervals), lost and "
    "done. Up to 8 hosts are each listed with their rate; a larger fleet names its worst "
    "three: the lost, then the slow, then the slowest.\n\n"
    "A line of --progress lines is key=value fields, separated by one space, always these "
    "in this order, - for a figure that is unknown or means nothing for the test:\n\n"
    "  status test=NAME iteration=N phase=PHASE|- state=ramp|run|done elapsed_s=S pct=P "
    "eta_s=S mbps=R iops=R hosts=N running=N slow=N lost=N done=N worst=HOST,...|-\n\n"
    "mbps is in MB/s (10^6 B/s) whatever --units says; iops is requests (reads and "
    "writes) per second; worst lists up to three hosts, worst first.";

static const char *const s_example =
    "  iofleet keygen ~/.iofleet console\n"
    "  iofleet ping c01=tcp://c01:7654 c02=tcp://c02:7654 --keys ~/.iofleet\n"
    "  iofleet run /usr/share/doc/iofleet/examples/dd.ini -o results/6.8-rc1\n"
    "  iofleet compare results/6.7/results.json results/6.8-rc1/results.json";

//  The results directory, and report.csv's columns from the tables that
//  write them.
static void
s_files (FILE *out)
{
    doc_roff_text (out, "run -o DIR writes DIR/results.json (every figure), samples.jsonl "
                        "(every sample), report.txt (the report as printed), report.html "
                        "(the page), report.csv and the scenario as run. report.csv has one "
                        "row per test x iteration x stream, one per monitor job, one per "
                        "host with neither and one per agent no other row names (a row's "
                        "columns of another kind empty), RFC 4180, lines ending in CRLF: the "
                        "run's "
                        "columns (run_), the test's, the stream's, its agent's (agent_), its "
                        "host's in the test (host_) and its part in the test's tail "
                        "(host_tail_), a monitor's (monitor_), the test's summary (test_), "
                        "its tail (test_tail_) and its iterations (test_iterations_): every "
                        "figure the text "
                        "report prints. A column's name ends in its unit: _ns, _s "
                        "(nanoseconds, seconds), _bytes, _mbps (10^6 bytes/s), _per_s, "
                        "_per_min, _pct (percent), _share (a fraction of 1), _ticks (of "
                        "/proc/stat), _ops (NFS operations), _s_per_gb, _utc (ISO 8601); the "
                        "others are counts, names, flags and texts (warnings: those about "
                        "the whole test, host_warnings: those about the host, \"KIND: TEXT\" "
                        "each, \" | \" between two). An empty field "
                        "is a figure that could not be computed, or that the row's kind has "
                        "not. Its columns, in their order:");
    char *names = NULL;
    size_t size = 0;
    FILE *list = open_memstream (&names, &size);
    if (list) {
        csv_column_names (", ", list);
        fclose (list);
        doc_roff_text (out, names);
    }
    free (names);
}

//  iofleet(1)'s METRICS: what --metrics serves, and how many series.
static void
s_metrics (FILE *out)
{
    char text [4096];
    snprintf (text, sizeof text,
        "iofleet run --metrics HOST:PORT serves the figures of the phase under way at "
        "http://HOST:PORT/metrics while the run lasts: Prometheus text (version 0.0.4), "
        "or OpenMetrics 1.0.0 to a scraper whose Accept header prefers it. A bad address "
        "or a port in use is bad usage (exit 2); port 0 takes a free port, and the run "
        "says which on stderr (event=metrics url=...). --metrics-linger keeps the last "
        "figures up after the run, so that a scrape interval cannot miss its end.\n\n"
        "Every series has the labels test, phase and iteration. Per host (label host), "
        "per class (label class, disk or network) and for the fleet: "
        "iofleet_SCOPE_bytes_total and iofleet_SCOPE_requests_total (counters, from the "
        "streams' samples; requests are bytes / bs while a stream runs and its exact "
        "count once it finished), iofleet_SCOPE_interval_bytes_per_second and "
        "iofleet_SCOPE_interval_requests_per_second (each running stream's last sample "
        "interval, summed), and iofleet_SCOPE_latency_seconds, a histogram of the reads "
        "and writes of the streams finished so far, whose %d le boundaries go 1-2-5 "
        "from 0.000001 to 10 seconds (then +Inf); SCOPE is host, class or fleet. Per "
        "host also: iofleet_host_cpu_user_ratio, iofleet_host_cpu_system_ratio, "
        "iofleet_host_cpu_iowait_ratio, iofleet_host_dirty_bytes and "
        "iofleet_host_writeback_bytes, from a monitor job of the host while the phase "
        "runs and from its host figures once the phase is over (left out while not "
        "known). For the fleet: iofleet_agents (label state: running, done, failed, "
        "lost) and iofleet_hosts_omitted.\n\n"
        "Counters and rates carry the instant they are true of as their timestamp: the "
        "latest instant every running stream has sent a sample at or after, so that "
        "rate() over a window is exact to the samples whenever the scrapes came. The "
        "figures are published at most every 250 ms and at the end of every phase; a "
        "scrape never holds the run.\n\n"
        "Cardinality: %d series per host, for the first %d hosts of a phase (the others "
        "count in the class and fleet figures only, and in iofleet_hosts_omitted), and "
        "at most %d series besides: at most %d in all for a phase. "
        "configs/grafana/iofleet.json is a Grafana dashboard over them.",
        METRICS_BOUNDS, METRICS_SERIES_PER_HOST, METRICS_HOSTS_MAX, METRICS_SERIES_FIXED,
        METRICS_SERIES_PER_HOST * METRICS_HOSTS_MAX + METRICS_SERIES_FIXED);
    doc_roff_section (out, "METRICS");
    doc_roff_text (out, text);
}

//  iofleet(1).
static void
s_iofleet (const cli_command_t *const *commands, FILE *out)
{
    doc_roff_header (out, "iofleet", 1, "iofleet manual");
    doc_roff_section (out, "NAME");
    doc_roff_text (out, "iofleet - run I/O tests on a fleet of hosts at one instant, and report them");
    doc_roff_section (out, "SYNOPSIS");
    for (size_t i = 0; commands [i]; i++) {
        char line [256];
        snprintf (line, sizeof (line), "iofleet %s %s", commands [i]->name,
                  commands [i]->synopsis);
        if (i)
            fputs (".br\n", out);
        doc_roff_escape (out, line);
        fputc ('\n', out);
    }
    doc_roff_section (out, "DESCRIPTION");
    doc_roff_text (out, s_description);
    doc_roff_section (out, "COMMANDS");
    doc_roff_text (out, "Every command takes -h or --help, which prints its flags.");
    for (size_t i = 0; commands [i]; i++)
        cli_man (commands [i], out);
    doc_roff_section (out, "LIVE STATUS");
    doc_roff_text (out, s_live_status);
    s_metrics (out);
    doc_roff_section (out, "EXIT STATUS");
    doc_roff_text (out, s_exit);
    doc_roff_section (out, "FILES");
    s_files (out);
    doc_roff_section (out, "EXAMPLES");
    doc_roff_text (out, s_example);
    doc_roff_section (out, "SEE ALSO");
    doc_roff_text (out, "iofleet-scenario(5), iofleet-agent(8), iofleet(7)");
}

//  One key of a scenario section as a manual item: help (a job's says
//  which workloads take it), choices, default, bounds and unit, all from
//  its row.
static void
s_key_item (const opt_def_t *opt, const char *help, const char *where, FILE *out)
{
    char body [2048];
    size_t used = (size_t) snprintf (body, sizeof (body), "%s.", help);
    if (opt->choices) {
        used += (size_t) snprintf (body + used, sizeof (body) - used, " One of:");
        for (const char *const *choice = opt->choices; *choice; choice++)
            used += (size_t) snprintf (body + used, sizeof (body) - used, "%s %s",
                                       choice == opt->choices? "": ",", *choice);
        used += (size_t) snprintf (body + used, sizeof (body) - used, ".");
    }
    if (opt->default_text)
        used += (size_t) snprintf (body + used, sizeof (body) - used, " Default: %s.",
                                   opt->default_text);
    else
        used += (size_t) snprintf (body + used, sizeof (body) - used, " No default.");
    if (opt->type == OPT_SIZE || opt->type == OPT_COUNT || opt->type == OPT_DURATION
    ||  opt->type == OPT_DECIMAL) {
        char low [48], high [48];
        opt_format_number (opt, opt->min, low, sizeof (low));
        opt_format_number (opt, opt->max, high, sizeof (high));
        used += (size_t) snprintf (body + used, sizeof (body) - used,
                                   opt->max? " From %s to %s.": " At least %s.", low, high);
    }
    if (opt->type != OPT_ENUM)
        used += (size_t) snprintf (body + used, sizeof (body) - used, " Value: %s.",
                                   doc_option_unit (opt));
    if (where)
        snprintf (body + used, sizeof (body) - used, " %s", where);
    char tag [96];
    snprintf (tag, sizeof (tag), "%s =", opt->name);
    static const char *const values [] = {
        [OPT_STRING] = "text", [OPT_SIZE] = "size", [OPT_COUNT] = "number",
        [OPT_BOOL] = "yes|no", [OPT_ENUM] = "name", [OPT_DURATION] = "duration",
        [OPT_DECIMAL] = "decimal"
    };
    doc_roff_item (out, tag, values [opt->type], body);
}


static const char *const s_scenario_description =
    "A scenario is an INI file that says which agents take part and what each of them "
    "does. Its sections are [global] (run options, and defaults for the job options "
    "that allow it), [agent NAME] (where an agent listens), [group NAME] (many agents "
    "at once) and [job NAME] (one job on one agent, or on every member of a group). "
    "Every job belongs to a test; all jobs of a test start together on all their "
    "agents, tests run one after another in file order, and a report row is a "
    "test.\n\n"
    "Lines are KEY = VALUE; ; and # at the start of a line begin a comment, and so "
    "does ; after a blank. A key may be given once per section. Names (agents, jobs, "
    "tests) are 1 to 63 letters, digits, '.', '_' and '-'. A mistake is reported as "
    "file:line: key: reason, and then nothing is started. Every mistake of the file "
    "is reported in one run, in line order: the first 25, then how many more; the "
    "keys of a refused section header are not read. A mistyped key, value or "
    "section kind gets the nearest known one (szie: unknown key: did you mean "
    "size?), when one is close; one of fio's keys gets what it is here (rw = randread: "
    "rw is fio's; here: workload = randrw, mode = rndrd; filename is path, numjobs "
    "streams, ramp_time ramp, rwmixread read_pct, ioengine engine).";

static const char *const s_units =
    "Sizes are bytes: a number with K, M, G, T or P, powers of 1024 (4K = 4096), with "
    "or without B or iB, and decimals allowed (5.2G). Durations are a number with ns, "
    "us, ms, s, m or h; a bare number is seconds. Booleans are yes or no (or true/false, "
    "on/off, 1/0). Rates in the reports are MB/s, 10^6 bytes per second.";

static const char *const s_group_text =
    "A [group NAME] section names many agents at once. A job whose agent is a group runs "
    "on every member: it becomes one job per member, named JOB.MEMBER, all in the job's "
    "test, so that every member's streams start at one instant and are one report row. "
    "In a job's path, src and dst, {agent} is the name of the job's agent (of each member, "
    "for a job on a group): members that share a file system each get their own file. "
    "Members without an endpoint pattern take theirs from [agent NAME] sections, from "
    "iofleet run --hosts FILE (one NAME ENDPOINT a line, # comments) or from --agent; "
    "each of these overrides the ones before it, the pattern first.";

static const char *const s_fio_text =
    "iofleet run JOB.fio --hosts FILE (a file named *.fio, or --fio) reads a fio job file "
    "and runs its jobs on every agent of --hosts and --agent, as fio --client would, but "
    "each test started at one instant on every host; --check prints it as a scenario "
    "whose jobs run on [group fleet], "
    "those agents, and runs nothing. Every message, those of the checks made on the "
    "translation too, points at the line of the fio file (or of the file it includes) "
    "and names fio's key: JOB.fio:LINE: key: reason. The file: [global] and job "
    "sections, KEY=VALUE lines or a bare KEY for a flag (time_based, stonewall), lines "
    "beginning with ; or # as comments, ${VAR} from the environment. A [global] applies "
    "to the jobs after it. The jobs of the file are one test until a job with stonewall "
    "or new_group, which begins the next. fio's defaults are written out where ours "
    "differ (rw read, bs 4k, no fsync at the end, files kept; a random job on one file, "
    "with no fsync on the way and a mix of half reads); rw=rw and readwrite, fio's "
    "sequential mix, are a randrw job with access = sequential; a random or mixed job "
    "bound by its size "
    "gets fio's request count, size / bs per stream, and number_ios is per stream as in "
    "fio. fio's values per direction (bs=4k,8k, rate=1m,2m, rate_iops=100,200: reads, "
    "writes, trims) are taken where one value says the same here: a job that reads takes "
    "the reads', one that writes the writes'; a mixed job has one block size (fio's two "
    "must be equal, else make it a randread and a randwrite job of one test) and one cap "
    "on its reads and writes together that keeps its mix, where fio paces each to its "
    "own and leaves the mix when one binds: fio's caps must be in the mix, within one "
    "as whole numbers allow (rwmixread=70 with rate_iops=70,30 is rate_iops = 100 here, "
    "rwmixread=60 with rate_iops=100,67 is 167). fsync=N and "
    "fdatasync=N (a flush after every N writes) are a random job's fsync_every, with "
    "fsync_call = fdatasync for the latter; a mixed job's fsync_every counts its reads "
    "too, so it becomes the requests that hold N writes in the mix. end_fsync is a "
    "random job's fsync_end and a sequential write's fsync = end. iomem (or mem) is "
    "iomem = huge for fio's shmhuge and mmaphuge (with or without their file), "
    "iomem = malloc for its other kinds and by default. "
    "The keys read are name, filename, directory, nrfiles, size, filesize, number_ios, "
    "bs, blocksize, rw, readwrite, rwmixread, rwmixwrite, numjobs, iodepth (with "
    "io_uring), ioengine, iomem, mem, direct, buffered, runtime with time_based, "
    "ramp_time, fsync, fdatasync, end_fsync, rate, rate_iops, random_distribution, "
    "randseed, stonewall, new_group, wait_for_previous, group_reporting and "
    "fallocate=none (files are never preallocated here), and include FILE (relative to the including "
    "file) reads a file's lines where it stands; anything else is refused at file:line "
    "with what to use. In a scenario, one of fio's keys is refused with what it "
    "is here:";

static const char *const s_scenario_example =
    "  [global]\n"
    "  bs = 1M\n"
    "  fsync = end\n"
    "  \n"
    "  [agent client]\n"
    "  endpoint = tcp://192.0.2.10:7654\n"
    "  \n"
    "  [job dd3]\n"
    "  agent = client\n"
    "  path = /data/iofleet/dd3\n"
    "  size = 5.2G\n"
    "  streams = 3\n"
    "  \n"
    "  [group clients]\n"
    "  agents = c[01-64]\n"
    "  endpoint = tcp://{name}.lab:7654\n"
    "  \n"
    "  [job dd64]\n"
    "  agent = clients\n"
    "  path = /mnt/share/dd-{agent}\n"
    "  size = 16G";

//  iofleet-scenario(5).
static void
s_scenario (FILE *out)
{
    doc_roff_header (out, "iofleet-scenario", 5, "iofleet manual");
    doc_roff_section (out, "NAME");
    doc_roff_text (out, "iofleet-scenario - the scenario files of iofleet run");
    doc_roff_section (out, "DESCRIPTION");
    doc_roff_text (out, s_scenario_description);
    doc_roff_section (out, "UNITS");
    doc_roff_text (out, s_units);
    doc_roff_section (out, "RUN OPTIONS");
    doc_roff_text (out, "These stand in [global] only.");
    for (const opt_def_t *opt = scenario_run_options; opt->name; opt++)
        s_key_item (opt, opt->help, NULL, out);
    doc_roff_section (out, "AGENT SECTIONS");
    doc_roff_text (out, "An [agent NAME] section takes one key.");
    for (const opt_def_t *opt = scenario_agent_options; opt->name; opt++)
        s_key_item (opt, opt->help, NULL, out);
    doc_roff_section (out, "GROUP SECTIONS");
    doc_roff_text (out, s_group_text);
    for (const opt_def_t *opt = scenario_group_options; opt->name; opt++)
        s_key_item (opt, opt->help, NULL, out);
    doc_roff_section (out, "JOB OPTIONS");
    doc_roff_text (out, "These stand in a [job NAME] section; those marked so may also "
                        "stand in [global], as a default for every job.");
    for (const opt_def_t *opt = jobspec_options; opt->name; opt++) {
        if (opt->flags & OPT_HEADER)
            continue;               //  the name comes from the section header
        char help [1024];
        workload_option_help (opt, help, sizeof help);
        s_key_item (opt, help, (opt->flags & OPT_GLOBAL)? "May stand in [global].": NULL, out);
    }
    char common [256], intro [1024];
    workload_common_text (common, sizeof (common));
    snprintf (intro, sizeof (intro),
              "A job's workload says what it does and which keys it takes beyond those "
              "every job has (%s). A workload with phases runs them one after another, "
              "each starting at one instant on every host once every host finished the "
              "phase before; each phase is a report row TEST/PHASE.", common);
    doc_roff_section (out, "WORKLOADS");
    doc_roff_text (out, intro);
    const workload_desc_t *desc;
    for (int workload = 0; (desc = workload_desc (workload)); workload++) {
        char text [1024];
        workload_describe (desc, text, sizeof (text));
        doc_roff_item (out, desc->name, NULL, text);
    }
    doc_roff_section (out, "FIO JOB FILES");
    doc_roff_text (out, s_fio_text);
    for (const fio_key_t *row = fio_keys; row->fio; row++) {
        char text [512];
        if (row->ours)
            snprintf (text, sizeof text, "%s", row->ours);
        else
        if (row->values)
            snprintf (text, sizeof text, "%s %s: %s", row->fio, row->values [0].fio,
                      row->values [0].ours);
        else
            snprintf (text, sizeof text, "%s", row->otherwise);
        doc_roff_item (out, row->fio, NULL, text);
    }
    doc_roff_section (out, "EXAMPLE");
    doc_roff_text (out, s_scenario_example);
    doc_roff_section (out, "SEE ALSO");
    doc_roff_text (out, "iofleet(1), iofleet-agent(8), iofleet(7)");
}

int
manpage_write (const char *page, const cli_command_t *const *commands, FILE *out)
{
    if (strcmp (page, "iofleet.1") == 0)
        s_iofleet (commands, out);
    else
    if (strcmp (page, "iofleet-scenario.5") == 0)
        s_scenario (out);
    else {
        fprintf (stderr, "iofleet: --man: no page %s (iofleet.1, iofleet-scenario.5)\n", page);
        return -1;
    }
    return 0;
}
