#!/usr/bin/env python3
"""Every figure of a text report, found in its results file and its CSV.

    report_figures.py REPORT.txt RESULTS.json [REPORT.csv]

The text is read line by line with its structure: the header, the agents
(or a fleet's summary of them), the tests table, the failed streams, the
warnings and notices, the iterations, bonnie++'s table, iozone's ranges,
the random-I/O table, the latency and tail tables, and per test its head
line, how it ended, its streams, hosts, slowest hosts and monitors. Every
line must be one the checker knows, so that a figure on a line of a new
kind fails here until it is checked. Each figure of a line is a claim:
the stored figure it prints, in the source's own key, which must round to
the printed one at the printed precision (ns shown as ms or s, bytes as
MB, GiB or K, fractions as %, rates in the text's units); where the text
prints a spread over stored figures (a fleet's hosts, iozone's range, the
agents' kinds), it is recomputed from them as the text documents it.

The results file and report.csv are read into one view
(report_sources.py): the CSV with Python's csv module, its rows of
streams, monitors, lone hosts and agents, a test's figures in its test_
columns, a host's in host_, an agent's in agent_. A figure the text
prints that a source does not hold is a failure, named with the line it
is on. Exit 1 with the list. Besides, every column of the CSV must carry
its unit in its name, or be on the list of names without one
(report_sources.UNITLESS). The tables after the tests table are
report_blocks.py's.
"""
import csv
import json
import math
import re
import statistics
import sys

sys.dont_write_bytecode = True     # the tests leave nothing in the tree
from report_blocks import Blocks, kinds, ranges
from report_sources import (FIGURE, CsvSource, JsonSource, Missing, StreamsHost, check_columns,
                            near, optional)

MIB = 1048576.0
GIB = 1073741824.0


class Checker(Blocks):
    """The claims of one text on one source; failures in self.failures."""

    def __init__(self, text, source):
        self.lines = text.splitlines()
        self.src = source
        self.failures = []
        self.scale = 1.0                # MB/s to the text's units
        self.units = "MB/s"
        self.label = {}                 # a text.h table's last row label, by table
        self.no = 0
        self.section = "header"

    # -- claims --------------------------------------------------------

    def fail(self, what):
        line = self.lines[self.no - 1] if 0 < self.no <= len(self.lines) else ""
        self.failures.append("%s: line %d (%s): %s\n    %s"
                             % (self.src.name, self.no, self.section, what, line.strip()[:160]))

    def value(self, getter):
        try:
            return getter()
        except Missing as e:
            self.fail(str(e))
        except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError,
                StopIteration, statistics.StatisticsError) as e:
            self.fail("cannot compute it: %r" % (e,))
        return Missing

    def figure(self, what, printed, getter, scale=1.0, dash_ok=None):
        """printed (a figure, or "-") is the getter's value times scale;
        "-" stands for an unknown value, or where dash_ok says so."""
        value = self.value(getter)
        if value is Missing:
            return
        if isinstance(value, bool):
            value = int(value)
        if printed == "-":
            if value is None or (isinstance(value, float) and not math.isfinite(value)):
                return
            if dash_ok is not None and dash_ok():
                return
            self.fail("%s: the text has -, %s has %r" % (what, self.src.name, value))
            return
        scaled = None if value is None else value * scale
        if not near(printed, scaled):
            self.fail("%s: the text has %s, %s has %r (x %g = %r)"
                      % (what, printed, self.src.name, value, scale, scaled))

    def same(self, what, printed, getter, transform=lambda v: v):
        value = self.value(getter)
        if value is Missing:
            return
        if transform(value) != printed:
            self.fail("%s: the text has %r, %s has %r" % (what, printed, self.src.name, value))

    def ms(self, what, printed, getter):
        self.figure(what, re.sub(r" ms$", "", printed), getter, 1e-6)

    def rate(self, what, printed, getter):
        self.figure(what, printed, getter, self.scale)

    # -- tests by their labels -----------------------------------------

    def test(self, label):
        m = re.match(r"(.*) #(\d+)$", label)
        name, iteration = (m.group(1), int(m.group(2))) if m else (label, 1)
        for t in self.src.tests:
            if t.name == name and t.iteration == iteration:
                return t
        if not m:
            runs = [t for t in self.src.tests if t.name == name]
            if len(runs) == 1:
                return runs[0]
        raise Missing("%s has no test %s" % (self.src.name, label))

    def find(self, rows, what, **keys):
        for row in rows:
            try:
                if all(str(row.get(k)) == str(v) for k, v in keys.items()):
                    return row
            except Missing:
                continue
        raise Missing("%s has no %s %s" % (self.src.name, what,
                                           " ".join("%s=%s" % kv for kv in keys.items())))

    def stream(self, test, agent, job, index):
        return self.find(test.streams(), "stream", agent=agent, job=job, index=index)

    def host(self, test, agent):
        return self.find(test.hosts(), "host", agent=agent)

    def stream_host(self, test, agent):
        """A host of the test's streams: its entry, or for an agent that
        sent no HOST figures (a workload without them) its figures from
        its streams, as aggregate_streams_figures computes them."""
        try:
            return self.host(test, agent)
        except Missing:
            return StreamsHost([st for st in test.streams() if st.get("agent") == agent])

    def stream_hosts(self, test):
        agents = []
        for st in test.streams():
            if st.get("agent") not in agents:
                agents.append(st.get("agent"))
        return [self.stream_host(test, a) for a in agents]

    # -- the text ------------------------------------------------------

    def run(self):
        handlers = {
            "header": self.header, "agents": self.agents, "fleet agents": self.fleet_agents,
            "tests": self.tests_row, "warnings": self.warning, "iterations": self.iteration,
            "bonnie": self.bonnie, "iozone": self.iozone, "random": self.requests,
            "latency": self.latency, "tail": self.tail, "test": self.test_line,
        }
        for self.no, line in enumerate(self.lines, 1):
            if not line.strip():
                if self.section in ("agents", "fleet agents"):
                    self.section = "before tests"
                continue
            if self.heading(line):
                continue
            handler = handlers.get(self.section)
            try:
                known = handler and handler(line)
            except (AttributeError, KeyError, IndexError, TypeError, ValueError) as e:
                self.fail("the checker could not read it: %r" % (e,))
                continue
            if not known:
                self.fail("a line the checker does not know: its figures are unchecked")
        return self.failures

    def heading(self, line):
        """The lines that open a section; True if line is one."""
        if self.section == "header":
            return False
        caption = [
            (r"^agent\s+host\s+kernel\s+cpus\s+memory\s+clock offset\s+rtt$", "agents"),
            (r"^test\s+streams\s+per stream\s+combined\s+all-running\s+%sys\s+%iowait\s+"
             r"host skew\s+stream skew\s+clock ±$", "tests"),
            (r"^(warnings|notices)$", "warnings"),
            (r"^iterations: the first run apart; the rest as min / median / max and stddev, "
             r"(MB/s|MiB/s)$", "iterations"),
            (r"^test\s+first\s+rest\s+min\s+median\s+max\s+stddev\s+%sys median$", "iterations"),
            (r"^bonnie\+\+ block tests \(K/sec in 1024 bytes; %CP: CPU time of the streams "
             r"over the phase\):$", "bonnie"),
            (r"^test\s+Machine\s+Size\s+Output K/s\s+%CP\s+Rewrite K/s\s+%CP\s+Input K/s\s+"
             r"%CP\s+Seeks /s\s+%CP$", "bonnie"),
            (r"^iozone -i 0 \(min-max over the runs after the first, or of the one run, "
             r"(MB/s|MiB/s)\)$", "iozone"),
            (r"^random I/O \(per second over each one's window; time: first start to last "
             r"end; ops/min: reads and writes per minute\):$", "random"),
            (r"^test\s+reads/s\s+writes/s\s+fsyncs/s\s+read MB/s\s+written MB/s\s+time s\s+"
             r"ops/min\s+%sys$", "random"),
            (r"^latency in ms, every request of every host merged \(no average of "
             r"percentiles\):$", "latency"),
            (r"^test\s+requests\s+count\s+min\s+mean\s+p50\s+p95\s+p99\s+p99\.9\s+max$", "latency"),
            (r"^tail of requests: the hosts that sent those slower than the fleet's p99 and "
             r"p99\.9, ranked:$", "tail"),
            (r"^test\s+host\s+requests\s+share\s+>p99\s+share\s+>p99\.9\s+share$", "tail"),
        ]
        for pattern, section in caption:
            if re.match(pattern, line):
                if section == "agents" and self.section == "tests":
                    continue
                self.section = section
                if section == "tests":
                    self.test_names = [t.name for t in self.src.tests]
                return True
        if self.section in ("agents", "fleet agents", "before tests") \
                and re.match(r"^\d+ agents \(results\.json lists every one\)$", line):
            self.section = "fleet agents"
            return False
        if line.startswith("malformed frames dropped: "):
            self.section = "malformed"
            self.malformed(line)
            return True
        if self.section != "tests" and not line.startswith(" ") and re.search(
                r": \d+ streams? on \d+ hosts?", line):
            self.section = "test"
        return False

    def header(self, line):
        m = re.match(r"^iofleet (\S+)  scenario (.*)  started (.*)$", line)
        if m:
            self.same("version", m.group(1), lambda: self.src.run("iofleet_version"))
            self.same("scenario", m.group(2), lambda: self.src.run("scenario") or "-")
            self.same("start", m.group(3), lambda: self.src.run("started_utc"),
                      lambda v: v[:19].replace("T", " ") + " UTC")
            return True
        m = re.match(r"^rates in (MB/s \(10\^6|MiB/s \(2\^20) bytes/s\); a stream's window "
                     r"ends after its fsync when fsync is on$", line)
        if m:
            if m.group(1).startswith("MiB"):
                self.scale, self.units = 1e6 / MIB, "MiB/s"
            self.section = "agents"
            return True
        return False

    def agents(self, line):
        if line == "no agents":
            return True
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) != 7:
            return False
        name, hostname, kernel, cpus, memory, offset, rtt = cells
        agent = self.src.agents.get(name)
        if agent is None:
            self.fail("agent %s: not in %s" % (name, self.src.name))
            return True
        self.same("host", hostname, lambda: agent.get("hostname") or "-")
        self.same("kernel", kernel, lambda: agent.get("kernel") or "-")
        self.figure("cpus", cpus, lambda: agent.get("cpus"))
        m = re.match(r"^(\S+) (GiB|MiB)$", memory)
        self.figure("memory", m.group(1), lambda: agent.get("mem_bytes"),
                    1 / (GIB if m.group(2) == "GiB" else MIB))
        self.ms("clock offset", offset, lambda: agent.get("clock_offset_ns"))
        self.ms("rtt", rtt, lambda: agent.get("clock_rtt_ns"))
        return True

    def fleet_agents(self, line):
        agents = list(self.src.agents.values())
        m = re.match(r"^(\d+) agents \(results\.json lists every one\)$", line)
        if m:
            self.figure("agents", m.group(1), lambda: len(agents))
            return True
        m = re.match(r"^  (kernel|cpus|memory)\s+(.*)$", line)
        if m:
            def value(agent):
                if m.group(1) == "kernel":
                    return agent.get("kernel") or "-"
                if m.group(1) == "cpus":
                    return str(agent.get("cpus"))
                return "%.1f GiB" % (agent.get("mem_bytes") / GIB)
            self.same(m.group(1) + " kinds", m.group(2), lambda: kinds([value(a) for a in agents]))
            return True
        m = re.match(r"^  clock offsets (\S+) \.\. (\S+) ms, round trips (\S+) \.\. (\S+) ms$", line)
        if m:
            offsets = lambda: [a.get("clock_offset_ns") for a in agents]
            rtts = lambda: [a.get("clock_rtt_ns") for a in agents]
            self.figure("least clock offset", m.group(1), lambda: min(offsets()), 1e-6)
            self.figure("greatest clock offset", m.group(2), lambda: max(offsets()), 1e-6)
            self.figure("least round trip", m.group(3), lambda: min(rtts()), 1e-6)
            self.figure("greatest round trip", m.group(4), lambda: max(rtts()), 1e-6)
            return True
        return False

    # -- the tests table and what follows it ---------------------------

    def tests_row(self, line):
        if line.startswith("FAILED  "):
            return self.failed(line)
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) != 10:
            return False
        label, streams, per_stream, combined, running, sys_pct, iowait, host_skew, \
            stream_skew, clock = cells
        t = self.value(lambda: self.test(label))
        if t is Missing:
            return True
        s = lambda *path: (lambda: t.get("summary", *path))
        rate = self.value(lambda: t.get("rate"))
        ops = rate in ("ops", "requests")
        self.figure("streams", streams, s("streams"))
        self.per_stream(t, per_stream, ops)
        m = re.match(r"^(?:(?P<mb>[\d.]+|-)(?: & (?P<mixed>[\d.]+|-)(?:/s)?)?|(?P<ops>[\d.]+)/s)"
                     r"(?P<partial> partial)?$", combined)
        if not m:
            self.fail("combined: %r is no rate" % combined)
        else:
            if m.group("ops") or (ops and m.group("mb") == "-"):
                self.figure("combined requests/s", m.group("ops") or "-", s("combined_ops_per_s"))
            else:
                self.rate("combined", m.group("mb"), s("combined_mbps"))
            if m.group("mixed"):
                self.figure("combined requests/s", m.group("mixed"), s("combined_ops_per_s"))
            failed = self.value(s("failed_streams"))
            known = m.group("mb") not in ("-", None) or m.group("ops")
            if failed is not Missing and bool(m.group("partial")) != bool(failed and known):
                self.fail("combined: 'partial' with %s failed streams" % failed)
        self.figure("all-running", running, s("all_running_mbps"), self.scale, dash_ok=lambda: ops)
        self.figure("%sys", sys_pct, s("sys_pct"))
        self.figure("%iowait", iowait, s("iowait_pct"))
        one_host = lambda: t.get("summary", "hosts") <= 1
        self.figure("host skew", host_skew.replace(" ms", ""), s("host_skew_ns"), 1e-6,
                    dash_ok=one_host)
        self.figure("stream skew", stream_skew.replace(" ms", ""), s("stream_skew_ns"), 1e-6,
                    dash_ok=lambda: t.get("summary", "streams") <= 1)
        self.figure("clock ±", clock.replace(" ms", ""), s("clock_uncertainty_ns"), 1e-6,
                    dash_ok=one_host)
        return True

    def per_stream(self, t, printed, ops):
        """The per-stream notation: in MB/s the classes' stored notations;
        in other units their figures against the streams' rates."""
        if self.scale == 1.0:
            def stored():
                disk = t.get("summary", "disk", "notation")
                network = t.get("summary", "network", "notation")
                classes = [n for n, c in ((disk, "disk"), (network, "network"))
                           if t.get("summary", c, "streams")]
                text = "/".join(classes) if classes else "-"
                return text + "/s" if ops and text != "-" else text
            self.same("per stream", printed, stored)
            return
        streams = self.value(lambda: t.streams())
        if streams is Missing:
            return
        figures = FIGURE.findall(re.sub(r"^\d+: |\d+x", "", printed))
        rates = []
        for st in streams:
            rate = self.value(lambda: self.stream_rate(t, st, ops))
            if rate is not Missing and rate is not None:
                rates.append(rate)
        for f in figures:
            if not any(near(f, r) for r in rates) and not (
                    rates and (near(f, statistics.mean(rates)) or near(f, statistics.median(rates)))):
                self.fail("per stream: %s is no stream's rate of %r" % (f, rates))

    def stream_rate(self, t, st, ops):
        """A stream's rate as the notation counts it: requests (or seeks)
        per second, else MB/s in the text's units."""
        requests = t.get("rate") == "requests" or optional(st, "rate") == "requests"
        if ops or requests:
            writes = (st.get("writes_per_s") or 0) if requests else 0
            return (st.get("reads_per_s") or 0) + writes
        value = st.get("rate_mbps")
        return None if value is None else value * self.scale

    def failed(self, line):
        m = re.match(r"^FAILED  test (.+) agent (\S+) job (\S+) stream (\d+): (.*) "
                     r"\((?:bytes (\d+)|last sample (\d+) bytes at (\S+) s)\)$", line)
        if m:
            t = self.value(lambda: self.test(m.group(1)))
            if t is Missing:
                return True
            st = self.value(lambda: self.stream(t, m.group(2), m.group(3), m.group(4)))
            if st is Missing:
                return True
            self.same("error", m.group(5), lambda: st.get("error") or "no result from the agent")
            if m.group(6):
                self.figure("bytes", m.group(6), lambda: st.get("bytes"))
            else:
                self.figure("bytes", m.group(7), lambda: st.get("bytes"))
                self.figure("sampled at", m.group(8), lambda: st.get("sampled_ns"), 1e-9)
            return True
        m = re.match(r"^FAILED  test (.+): (\d+) streams more \(results\.json and report\.csv "
                     r"list every one\)$", line)
        if m:
            t = self.value(lambda: self.test(m.group(1)))
            if t is not Missing:
                self.figure("streams more", m.group(2),
                            lambda: t.get("summary", "failed_streams") - 8)
            return True
        return False

    def warning(self, line):
        names = sorted({t.name for t in self.src.tests}, key=len, reverse=True)
        name = next((n for n in names if line.startswith("  " + n + ": ")
                     or line.startswith("  " + n + " #")), None)
        if name is None:
            return False
        rest = line[2 + len(name):]
        m = re.match(r"^(?: #(\d+))?: (.*?)(?: \((\d+) (\S+) (warnings|notices) alike"
                     r"(?::(?: on (.*?)(?: and (\d+) more)?)?(?:,? in iterations ([\d, -]+))?)?\))?$",
                     rest)
        if not m:
            return False
        iteration, text, count, kind = m.group(1), m.group(2), m.group(3), m.group(4)
        runs = [t for t in self.src.tests if t.name == name]
        every = []
        for t in runs:
            ws = self.value(t.warnings)
            if ws is Missing:
                return True
            every += [(t.iteration, w) for w in ws]
        first = next(((it, w) for it, w in every if w[2] == text
                      and (kind is None or w[0] == kind)), None)
        if first is None:
            self.fail("the warning's text is none of %s's warnings of %s" % (self.src.name, name))
            return True
        group = [(it, w) for it, w in every if w[0] == first[1][0]]
        # The CSV holds the warnings by row: their order is the results'.
        ordered = isinstance(self.src, JsonSource)
        if ordered and group[0] != first:
            self.fail("the text is of a later warning of its kind, not the first")
        if count is None:
            if len(group) != 1:
                self.fail("one warning printed, %d of kind %s stored" % (len(group), first[1][0]))
            if (iteration is not None) != (first[0] > 1) or (iteration and int(iteration) != first[0]):
                self.fail("printed for iteration %s, stored in iteration %d" % (iteration, first[0]))
            return True
        self.figure("warnings alike", count, lambda: len(group))
        hosts = []
        for it, w in group:
            if w[1] and w[1] not in hosts:
                hosts.append(w[1])
        if m.group(6) is not None or hosts:
            printed = (m.group(6) or "").split(", ") if m.group(6) else []
            if (printed != hosts[:8]) if ordered else not (
                    set(printed) <= set(hosts) and len(printed) == min(8, len(hosts))):
                self.fail("hosts %r, stored %r" % (printed, hosts[:8]))
            if m.group(7):
                self.figure("hosts more", m.group(7), lambda: len(hosts) - 8)
        its = sorted({it for it, w in group})
        if len(its) > 1:
            self.same("iterations", m.group(8) or "", lambda: ranges(its))
        return True

    def iteration(self, line):
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) != 8:
            return False
        name = cells[0]
        it = self.value(lambda: self.src.iterations(name))
        if it is Missing:
            return True
        ops = cells[1].endswith("/s") or cells[3].endswith("/s")
        scale = 1.0 if ops else self.scale
        strip = lambda c: c[:-2] if c.endswith("/s") else c
        self.figure("first", strip(cells[1]),
                    lambda: it.get("first_ops_per_s" if ops else "first_mbps"), scale)
        self.figure("rest", cells[2], lambda: it.get("rest", "count"))
        for cell, stat in zip(cells[3:7], ("min", "median", "max", "stddev")):
            self.figure(stat, strip(cell), lambda stat=stat: it.get("rest", stat), scale)
        self.figure("%sys median", cells[7], lambda: it.get("rest_sys_pct", "median"))
        return True


def check(text, results=None, csv_text=None):
    """The failures of text against the results (a parsed results.json)
    and the CSV (its text), each source on its own."""
    failures = []
    if results is not None:
        failures += Checker(text, JsonSource(results)).run()
    if csv_text is not None:
        reader = csv.DictReader(csv_text.splitlines())
        rows = list(reader)
        failures += check_columns(reader.fieldnames or [])
        failures += Checker(text, CsvSource(rows, reader.fieldnames)).run()
    return failures


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    text = open(argv[1], encoding="utf-8").read()
    results = json.load(open(argv[2], encoding="utf-8"))
    csv_text = open(argv[3], encoding="utf-8", newline="").read() if len(argv) == 4 else None
    failures = check(text, results, csv_text)
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
