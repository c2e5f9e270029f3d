"""The parts of a text report after its tests table, for
tests/report_figures.py: bonnie++'s table and iozone's ranges, the
random-I/O, latency and tail tables, and each test's block (its head
line, how it ended, its streams, hosts, slowest hosts and monitors).
Each line's figures are claims on the source, as the Checker makes them.
"""
import re
import statistics

from report_sources import Missing


class Blocks:
    """The Checker's handlers of those lines (a mixin of it)."""

    # -- the seed tools' notations -------------------------------------

    def rows_line(self, line, figures):
        """A line of text.h's rows: its label (a test's, or "" below the
        first), where it is from and its figures; None if not one."""
        tokens = line.split()
        if len(tokens) < figures + 1:
            return None
        label = ""
        if not line.startswith(" "):
            labels = sorted(self.row_labels(), key=len, reverse=True)
            label = next((l for l in labels if line.startswith(l + " ")), None)
            if label is None:
                return None
        rest = line[len(label):].split()
        return label, " ".join(rest[:-figures]), rest[-figures:]

    def labelled(self, line, figures, table):
        """A row of a text.h table with the test it is of: the row's
        label, or the last one of the table's (kept as self.label[table]);
        (test or Missing, label, where, cells), or None for no row."""
        row = self.rows_line(line, figures)
        if not row:
            return None
        label, where, cells = row
        if label:
            self.label[table] = label
        return self.value(lambda: self.test(self.label[table])), label, where, cells

    def last_test(self, table):
        """The test of the last labelled row of a table, or Missing."""
        return self.value(lambda: self.test(self.label[table]))

    def row_labels(self):
        out = []
        for t in self.src.tests:
            for name in (t.name, self.value(lambda: t.get("test"))):
                if name is not Missing:
                    out += [name, "%s #%d" % (name, t.iteration)]
        return out

    def bonnie(self, line):
        row = self.rows_line(line, 9)
        if not row:
            return False
        label, machine, cells = row
        if label:
            self.bonnie_label = label
        m = re.match(r"(.*) #(\d+)$", self.bonnie_label)
        test, iteration = (m.group(1), int(m.group(2))) if m else (self.bonnie_label, 1)
        phases = {}
        for t in self.src.tests:
            if t.iteration == iteration and self.value(lambda: t.get("test")) == test:
                phases[self.value(lambda: t.get("phase_index"))] = t
        if 0 not in phases:
            self.fail("no first phase of %s in %s" % (self.bonnie_label, self.src.name))
            return True
        first = self.value(lambda: next(st for st in phases[0].streams() if st.get("agent") == machine))
        if first is not Missing:
            self.same("size", cells[0], lambda: "%s:%s" % (bonnie_size(first.get("bytes")),
                                                         bonnie_size(first.get("bs_bytes"))))
        for p in range(4):
            t = phases.get(p)
            if t is None:
                if cells[1 + 2 * p] != "-" or cells[2 + 2 * p] != "-":
                    self.fail("phase %d: figures without a phase row" % p)
                continue
            h = self.value(lambda: self.host(t, machine))
            if h is Missing:
                continue
            if p == 3:
                self.figure("seeks/s", cells[7], lambda: h.get("ops_per_s"))
            else:
                self.figure("K/s", cells[1 + 2 * p], lambda: h.get("rate_mbps"), 1e6 / 1024)
            self.figure("%CP", cells[2 + 2 * p], lambda: h.get("streams_cpu_pct"))
        return True

    def iozone(self, line):
        m = re.match(r"^  (\S+): (.*)$", line)
        if not m:
            return False
        test = m.group(1)
        for part in m.group(2).split(", "):
            p = re.match(r"^(\S+)-(\S+) (?:MB/s|MiB/s) (\S+)$", part)
            if not p:
                self.fail("iozone: %r is no range" % part)
                continue
            rows = [t for t in self.src.tests if self.value(lambda: t.get("test")) == test
                    and self.value(lambda: t.get("phase")) == p.group(3)]
            later = [t for t in rows if t.iteration > 1] or rows

            def rates():
                return [r for r in (t.get("summary", "combined_mbps") for t in later)
                        if r is not None]
            self.rate("lowest " + p.group(3), p.group(1), lambda: min(rates()))
            self.rate("highest " + p.group(3), p.group(2), lambda: max(rates()))
        return True

    # -- the random-I/O, latency and tail tables -----------------------

    REQUESTS = ("reads_per_s", "writes_per_s", "fsyncs_per_s", "read_mbps", "written_mbps",
                "window_s", "ops_per_min")

    def requests(self, line):
        m = re.match(r"^\s+(\d+) streams: (\d+)\.\.(\d+), median (\d+) requests/s each; the "
                     r"(\d+) slowest:$", line)
        if m:
            return self.requests_spread(m)
        row = self.labelled(line, 8, "random")
        if not row:
            return False
        t, label, where, cells = row
        if t is Missing:
            return True
        if where == "all":
            get = lambda k: (lambda: t.get("summary", "requests", k))
            sys_pct = lambda: t.get("summary", "sys_pct")
        elif where.startswith("@"):
            h = self.value(lambda: self.host(t, where[1:]))
            if h is Missing:
                return True
            get = lambda k: (lambda: h.get("requests", k))
            sys_pct = lambda: h.get("sys_pct")
        else:
            w = re.match(r"^(\S+) (\S+)\.(\d+)$", where)
            if not w:
                return False
            st = self.value(lambda: self.stream(t, w.group(1), w.group(2), w.group(3)))
            if st is Missing:
                return True
            get = lambda k: (lambda: st.get(k))
            sys_pct = lambda: None
        for cell, key in zip(cells, self.REQUESTS):
            self.figure(key, cell, get(key))
        self.figure("%sys", cells[7], sys_pct)
        return True

    def requests_spread(self, m):
        t = self.last_test("random")
        if t is Missing:
            return True

        def per_s():
            out = []
            for st in t.streams():
                if st.get("ops_per_min") is not None and (
                        t.get("rate") == "requests" or st.get("rate") == "requests"):
                    out.append(st.get("ops_per_min") / 60)
            return out
        self.figure("streams", m.group(1), lambda: t.get("summary", "requests", "streams"))
        self.figure("least requests/s", m.group(2), lambda: min(per_s()))
        self.figure("most requests/s", m.group(3), lambda: max(per_s()))
        self.figure("median requests/s", m.group(4), lambda: statistics.median(per_s()))
        self.figure("slowest shown", m.group(5), lambda: min(3, len(per_s())))
        return True

    LATENCY = ("count", "min_ns", "mean_ns", "p50_ns", "p95_ns", "p99_ns", "p999_ns", "max_ns")

    def latency(self, line):
        m = re.match(r"^\s+(\d+) more hosts, by p99 below these \(every host in results\.json\)$",
                     line)
        if m:
            t = self.last_test("latency")
            if t is not Missing:
                self.figure("hosts more", m.group(1), lambda: sum(
                    1 for h in t.hosts() if (h.get("latency", "count") or 0) > 0)
                    - self.latency_hosts)
            return True
        row = self.labelled(line, 8, "latency")
        if not row:
            return False
        t, label, where, cells = row
        if label:
            self.latency_hosts = 0
        if t is Missing:
            return True
        if where.startswith("@"):
            self.latency_hosts += 1
            h = self.value(lambda: self.host(t, where[1:]))
            if h is Missing:
                return True
            get = lambda k: (lambda: h.get("latency", k))
        else:
            get = lambda k: (lambda: t.get("summary", "latency", where, k))
        for cell, key in zip(cells, self.LATENCY):
            self.figure("%s %s" % (where, key), cell, get(key), 1 if key == "count" else 1e-6)
        return True

    def tail(self, line):
        m = re.match(r"^\s+(?:(\d+) more hosts below; )?p99 (\S+) ms, p99\.9 (\S+) ms: "
                     r"(?:the cause is (.*)|no host stands out)$", line)
        if m:
            t = self.last_test("tail")
            if t is Missing:
                return True
            if m.group(1):
                self.figure("hosts more", m.group(1), lambda: t.tail("hosts_ranked") - self.tail_shown)
            self.figure("p99", m.group(2), lambda: t.tail("p99_ns"), 1e-6)
            self.figure("p99.9", m.group(3), lambda: t.tail("p999_ns"), 1e-6)
            self.same("cause", m.group(4) or "", lambda: ", ".join(
                h.get("agent") for h in t.tail_hosts() if h.get("cause")))
            return True
        tokens = line.split()
        cause = tokens and tokens[-1] == "cause"
        row = self.labelled(line, 7 if cause else 6, "tail")
        if not row:
            return False
        t, label, where, cells = row
        if label:
            self.tail_shown = 0
        if t is Missing:
            return True
        rank = self.tail_shown
        self.tail_shown += 1
        hosts = self.value(t.tail_hosts)
        if hosts is Missing:
            return True
        h = self.value(lambda: self.find(hosts, "tail host", agent=where[1:]))
        if h is Missing:
            return True
        if hosts.index(h) != rank and self.src.name == "results.json":
            self.fail("%s is ranked %d in the text, %d in the results" % (where, rank, hosts.index(h)))
        keys = ("requests", "requests_share", "over_p99", "p99_share", "over_p999", "p999_share")
        for cell, key in zip(cells, keys):
            share = key.endswith("share")
            self.figure(key, cell.rstrip("%"), lambda key=key: h.get(key), 100 if share else 1)
        self.same("cause", cause, lambda: bool(h.get("cause")))
        return True

    # -- a test's block ------------------------------------------------

    def test_line(self, line):
        m = re.match(r"^(.+?): (\d+) streams? on (\d+) hosts?(?: \((\d+) failed\))?, (≥ )?(\d+) "
                     r"bytes, window (?:(\S+) \.\. (\S+) ms|-)$", line)
        if m:
            t = self.block = self.value(lambda: self.test(m.group(1)))
            if t is Missing:
                return True
            s = lambda *path: (lambda: t.get("summary", *path))
            self.figure("streams", m.group(2), s("streams"))
            self.figure("hosts", m.group(3), s("hosts"))
            self.figure("failed", m.group(4) or "0", s("failed_streams"))
            self.figure("bytes", m.group(6), s("bytes"))
            self.same("at least", bool(m.group(5)), lambda: any(
                st.get("bytes_from_sample") for st in t.streams()))
            if m.group(7):
                self.figure("window start", m.group(7), s("first_start_ns"), 1e-6)
                self.figure("window end", m.group(8), s("last_end_ns"), 1e-6)
            self.table = None
            return True
        t = getattr(self, "block", Missing)
        if t is Missing:
            return True
        s = lambda *path: (lambda: t.get("summary", *path))
        m = re.match(r"^  requests in flight per stream: (\S+) on the mean, (\d+) at most$", line)
        if m:
            self.figure("depth mean", m.group(1), s("depth", "mean"))
            self.figure("depth max", m.group(2), s("depth", "max"))
            return True
        m = re.match(r"^  (\w+)-bound(?:, streams ended (\S+) ms apart)?$", line)
        if m:
            self.same("bound", m.group(1), lambda: t.get("bound"))
            if m.group(2):
                self.figure("end skew", m.group(2), s("end_skew_ns"), 1e-6)
            return True
        m = re.match(r"^  (?:every stream|the (\d+) streams that ran to it) stopped (?:within (\S+) ms "
                     r"of|by) the stop instant, (\S+) s after the start \((?:(\d+) requests in flight "
                     r"then, the last done up to (\S+) ms after the last issue|the request in "
                     r"flight then: up to (\S+) ms|no request in flight then)(?:; one issued (\S+) ms "
                     r"after the instant)?\); fsync and close after it: up to (\S+) ms more$", line)
        if m:
            self.figure("stop streams", m.group(1) or str(self.value(s("streams"))),
                        s("stop", "streams"))
            if m.group(2):
                self.figure("late", m.group(2), s("stop", "late_ns"), 1e-6)
            self.figure("stop instant", m.group(3), s("stop", "instant_ns"), 1e-9)
            if m.group(4):
                self.figure("in flight at stop", m.group(4), s("depth", "inflight_at_stop"))
            if m.group(5) or m.group(6):
                self.figure("in flight", m.group(5) or m.group(6), s("stop", "in_flight_ns"), 1e-6)
            if m.group(7):
                self.figure("issued late", m.group(7), s("stop", "issue_late_ns"), 1e-6)
            self.figure("fsync and close", m.group(8), s("stop", "tail_ns"), 1e-6)
            return True
        return self.block_table(t, line)

    TABLES = {
        "streams": r"^  agent\s+job\s+stream\s+bytes\s+start ms\s+last write ms\s+end ms\s+"
                   r"(MB/s|MiB/s)\s+(MB/s|MiB/s) to last write\s+usr s\s+sys s\s+sys s/GB$",
        "hosts": r"^  host\s+%usr\s+%sys\s+%iowait\s+%idle\s+MB its streams moved\s+"
                 r"MB dirty at the end\s+MB written after\s+settle s$",
        "monitors": r"^  monitor\s+job\s+%usr\s+%sys\s+%iowait\s+disk read (MB/s|MiB/s)\s+"
                    r"disk write (MB/s|MiB/s)\s+nfsd read (MB/s|MiB/s)\s+nfsd write (MB/s|MiB/s)\s+"
                    r"samples$",
        "slowest": r"^  slowest hosts\s+streams\s+failed\s+MB\s+(MB/s|MiB/s)\s+slowest stream "
                   r"(MB/s|MiB/s)\s+%sys\s+%iowait$",
    }

    def block_table(self, t, line):
        for table, pattern in self.TABLES.items():
            if re.match(pattern, line):
                self.table, self.slowest_rows = table, 0
                return True
        m = re.match(r"^  hosts (?:MB/s|MiB/s) (\S+) \.\. (\S+), median (\S+)(?:, (\d+) without "
                     r"a rate)?$", line)
        if m:
            def rates():
                return [h.get("rate_mbps") for h in self.stream_hosts(t)]
            known = lambda: [r for r in rates() if r is not None]
            self.rate("hosts' least", m.group(1), lambda: min(known()))
            self.rate("hosts' most", m.group(2), lambda: max(known()))
            self.rate("hosts' median", m.group(3), lambda: statistics.median(known()))
            if m.group(4):
                self.figure("without a rate", m.group(4), lambda: len(rates()) - len(known()))
            return True
        m = re.match(r"^  \(the (\d+) slowest of (\d+) hosts; results\.json and report\.csv list "
                     r"every stream and host\)$", line)
        if m:
            hosts = lambda: len(self.stream_hosts(t))
            self.figure("hosts", m.group(2), hosts)
            self.figure("slowest hosts shown", m.group(1), lambda: min(8, hosts()))
            if int(m.group(1)) != self.slowest_rows:
                self.fail("the %s slowest hosts said, %d listed" % (m.group(1), self.slowest_rows))
            return True
        if line == "  (results.json and report.csv list every stream and host)":
            return True
        cells = re.split(r"\s{2,}", line.strip())
        handler = {"streams": self.stream_row, "hosts": self.host_row,
                   "monitors": self.monitor_row, "slowest": self.slowest_row}.get(self.table)
        return handler(t, cells) if handler else False

    def stream_row(self, t, cells):
        if len(cells) != 12:
            return False
        st = self.value(lambda: self.stream(t, *cells[:3]))
        if st is Missing:
            return True
        g = lambda key: (lambda: st.get(key))
        at_least = cells[3].startswith("≥ ")
        self.figure("bytes", cells[3].replace("≥ ", ""), g("bytes"))
        self.same("bytes at least", at_least, lambda: bool(st.get("bytes_from_sample")))
        unfinished = lambda: not st.get("finished")
        for cell, key, scale in (
                (cells[4], "start_ns", 1e-6), (cells[5], "last_write_ns", 1e-6),
                (cells[6], "end_ns", 1e-6), (cells[7], "rate_mbps", self.scale),
                (cells[8], "write_rate_mbps", self.scale), (cells[9], "usr_ns", 1e-9),
                (cells[10], "sys_ns", 1e-9), (cells[11], "sys_s_per_gb", 1)):
            self.figure(key, cell, g(key), scale, dash_ok=unfinished)
        return True

    def host_row(self, t, cells):
        if len(cells) != 9:
            return False
        h = self.value(lambda: self.host(t, cells[0]))
        if h is Missing:
            return True
        g = lambda key: (lambda: h.get(key))
        unheard = lambda: not h.get("received")
        for cell, key, scale in (
                (cells[1], "usr_pct", 1), (cells[2], "sys_pct", 1), (cells[3], "iowait_pct", 1),
                (cells[4], "idle_pct", 1), (cells[5], "stream_bytes", 1e-6),
                (cells[6], "dirty_writeback_end_bytes", 1e-6),
                (cells[7], "settle_written_bytes", 1e-6), (cells[8], "settle_s", 1)):
            self.figure(key, cell, g(key), scale, dash_ok=unheard)
        return True

    def monitor_row(self, t, cells):
        if len(cells) != 10:
            return False
        mon = self.value(lambda: self.find(t.monitors(), "monitor", agent=cells[0], job=cells[1]))
        if mon is Missing:
            return True
        g = lambda key: (lambda: mon.get(key))
        for cell, key, scale in (
                (cells[2], "usr_pct", 1), (cells[3], "sys_pct", 1), (cells[4], "iowait_pct", 1),
                (cells[5], "disk_read_mbps", self.scale), (cells[6], "disk_write_mbps", self.scale),
                (cells[7], "nfsd_read_mbps", self.scale), (cells[8], "nfsd_write_mbps", self.scale),
                (cells[9], "samples", 1)):
            self.figure(key, cell, g(key), scale)
        return True

    def slowest_row(self, t, cells):
        if len(cells) != 8:
            return False
        self.slowest_rows += 1
        h = self.value(lambda: self.stream_host(t, cells[0]))
        if h is Missing:
            return True
        g = lambda key: (lambda: h.get(key))
        for cell, key, scale in (
                (cells[1], "streams", 1), (cells[2], "failed_streams", 1),
                (cells[3], "stream_bytes", 1e-6), (cells[4], "rate_mbps", self.scale),
                (cells[5], "slowest_stream_mbps", self.scale), (cells[6], "sys_pct", 1),
                (cells[7], "iowait_pct", 1)):
            self.figure(key, cell, g(key), scale, dash_ok=lambda: not h.get("received"))
        return True

    def malformed(self, line):
        for part in line[len("malformed frames dropped: "):].split(", "):
            name, count = part.rsplit(" ", 1)
            agent = self.src.agents.get(name)
            if agent is None:
                self.fail("malformed frames of %s, an agent %s lacks" % (name, self.src.name))
            else:
                self.figure("malformed frames", count, lambda: agent.get("malformed_frames"))


def kinds(values):
    """The kinds among values as text_fleet.c names them: the three most
    common, "6.1.0 (1000), 6.8-rc1 (24)", and how many more."""
    counts = {}
    for v in sorted(values):
        counts[v] = counts.get(v, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    text = ", ".join("%s (%d)" % kv for kv in ranked[:3])
    if len(ranked) > 3:
        text += " and %d more" % (len(ranked) - 3)
    return text


def ranges(values):
    out, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append("%d-%d" % (values[i], values[j]) if j > i else "%d" % values[i])
        i = j + 1
    return ", ".join(out)


def bonnie_size(count):
    for shift, suffix in ((30, "G"), (20, "M"), (10, "k")):
        if count and count % (1 << shift) == 0:
            return "%d%s" % (count >> shift, suffix)
    return "%d" % count
