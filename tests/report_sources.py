"""The results file and the CSV of a run read into one view, for
tests/report_figures.py: a test's figures by their path in results.json
("summary", "latency", "read", "p99_ns"), its streams, hosts, monitors,
warnings and tail, and the agents and iterations of the run. The CSV
names a figure by its path joined with "_" under its struct's prefix
(test_latency_read_p99_ns), as the results' tables flatten it.

Also what a figure printed with some decimals is (near), and the units a
CSV column's name ends in (check_columns).
"""
import math
import re


class Missing(Exception):
    """The source does not hold a figure at all."""


# --------------------------------------------------------------------------
# Sources: the results file and the CSV read into one view

def _walk(obj, path, what):
    for key in path:
        if not isinstance(obj, dict) or key not in obj:
            raise Missing("%s has no %s" % (what, ".".join(path)))
        obj = obj[key]
    return obj


class JsonTest:
    def __init__(self, test):
        self.t = test
        self.name, self.iteration = test["name"], test["iteration"]

    def get(self, *path):
        return _walk(self.t, path, "the test")

    def streams(self):
        return [JsonRow(s, "stream %s %s.%s" % (s["agent"], s["job"], s["index"]))
                for s in self.t["streams"]]

    def hosts(self):
        return [JsonRow(h, "host " + h["agent"]) for h in self.t["hosts"]]

    def monitors(self):
        return [JsonRow(m, "monitor %s %s" % (m["agent"], m["job"])) for m in self.t["monitors"]]

    def tail_hosts(self):
        tail = self.t.get("latency_tail") or {}
        return [JsonRow(h, "tail host " + h["agent"]) for h in tail.get("hosts", [])]

    def tail(self, key):
        return _walk(self.t, ("latency_tail", key), "the test")

    def warnings(self):
        return [(w["kind"], w["agent"], w["text"]) for w in self.t["warnings"]]


class JsonRow:
    def __init__(self, row, what):
        self.row, self.what = row, what

    def get(self, *path):
        return _walk(self.row, path, "the " + self.what)


class JsonSource:
    name = "results.json"

    def __init__(self, results):
        self.r = results
        self.tests = [JsonTest(t) for t in results["tests"]]
        self.agents = {a["name"]: JsonRow(a, "agent " + a["name"]) for a in results["agents"]}

    def run(self, key):
        return _walk(self.r, (key,), "the run")

    def iterations(self, name):
        for it in self.r.get("iterations", []):
            if it["test"] == name:
                return JsonRow(it, "iterations of " + name)
        raise Missing("no iterations of %s" % name)


# The CSV names a nested figure by its path joined with "_", under the
# prefix of the struct that holds it; these keys have a column of their
# own name.
CSV_RENAMES = {
    "stream": {"index": "stream", "rate": "stream_rate"},
    "test": {"disk_combined_mbps": "disk_mbps", "network_combined_mbps": "network_mbps"},
    "run": {"display_units": "units"},
}


# Columns of text, read as they are written.
TEXTS = {"notation", "kernel", "hostname", "error", "scenario", "started_utc", "iofleet_version",
         "bound", "name", "test", "phase", "agent", "job", "path", "label", "rate", "workload",
         "class", "fsync", "warnings", "index", "stream"}


def _number(text):
    if text in ("", None):
        return None
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


class CsvRow:
    def __init__(self, row, prefix, kind, what):
        self.row, self.prefix, self.kind, self.what = row, prefix, kind, what

    def get(self, *path):
        key = "_".join(path)
        key = CSV_RENAMES.get(self.kind, {}).get(key, key)
        column = self.prefix + key
        if column not in self.row:
            raise Missing("report.csv has no column %s (the %s's %s)"
                          % (column, self.what, ".".join(path)))
        if path[-1] in TEXTS:
            return self.row[column]
        return _number(self.row[column])


class CsvTest:
    def __init__(self, rows):
        self.rows = rows
        first = rows[0]
        self.name, self.iteration = first["name"], int(first["iteration"])
        self.stream_rows = [r for r in rows if r.get("agent")]
        self.monitor_rows = [r for r in rows if r.get("monitor_job")]

    def get(self, *path):
        row = self.rows[0]
        if path[0] == "summary":
            return CsvRow(row, "test_", "test", "test").get(*path[1:])
        return CsvRow(row, "", "test", "test").get(*path)

    def streams(self):
        return [CsvRow(r, "", "stream", "stream %s %s.%s" % (r["agent"], r["job"], r["stream"]))
                for r in self.stream_rows]

    def _by_agent(self, prefix, what, rows):
        seen, out = set(), []
        for r in rows:
            agent = r.get(prefix + "agent")
            if agent and agent not in seen:
                seen.add(agent)
                out.append(CsvRow(r, prefix, "host", what + " " + agent))
        return out

    def hosts(self):
        return self._by_agent("host_", "host", self.rows)

    def monitors(self):
        return [CsvRow(r, "monitor_", "monitor", "monitor %s %s" % (r["monitor_agent"],
                                                                    r["monitor_job"]))
                for r in self.monitor_rows]

    def tail_hosts(self):
        return self._by_agent("host_tail_", "tail host", self.rows)

    def tail(self, key):
        return CsvRow(self.rows[0], "test_tail_", "tail", "test's tail").get(key)

    def warnings(self):
        """The test's warnings: those about the whole test in its
        warnings column, a host's in its rows' host_warnings; in the
        order of the rows, not the results' own."""
        for column in ("warnings", "host_warnings"):
            if column not in self.rows[0]:
                raise Missing("report.csv has no column %s" % column)
        out = [("", self.rows[0]["warnings"])]
        seen = set()
        for row in self.rows:
            agent = row.get("host_agent")
            if agent and agent not in seen:
                seen.add(agent)
                out.append((agent, row["host_warnings"]))
        warnings = []
        for agent, text in out:
            for item in text.split(" | ") if text else []:
                m = re.match(r"(\S+): (.*)$", item, re.S)
                if m:
                    warnings.append((m.group(1), agent, m.group(2)))
        return warnings


class CsvIterations:
    def __init__(self, row):
        self.row = row

    def get(self, *path):
        ops = self.row.get("rate") in ("ops", "requests")
        unit = "ops_per_s" if ops else "mbps"
        if path[0] in ("first_mbps", "first_ops_per_s"):
            key = "first_" + unit
        elif path[0] == "rest" and path[1] == "count":
            key = "rest_count"
        elif path[0] == "rest":
            key = "rest_%s_%s" % (path[1], unit)
        else:
            key = "rest_sys_%s_pct" % path[1]
        return CsvRow(self.row, "test_iterations_", "iterations", "iterations").get(key)


class CsvSource:
    name = "report.csv"

    def __init__(self, rows, header):
        self.header = header
        self.tests, index = [], {}
        for row in rows:
            key = (row["name"], row["iteration"])
            if not row["name"]:
                continue            # an agent's own row: no test's
            if key not in index:
                index[key] = CsvTest([row])
                self.tests.append(index[key])
            else:
                index[key].rows.append(row)
        for test in self.tests:
            test.__init__(test.rows)
        self.agents = {}
        for row in rows:
            name = row.get("agent_name")
            if name and name not in self.agents:
                self.agents[name] = CsvRow(row, "agent_", "agent", "agent " + name)
        self.first = rows[0] if rows else {}

    def run(self, key):
        return CsvRow(self.first, "run_", "run", "run").get(key)

    def iterations(self, name):
        for test in self.tests:
            if test.name == name:
                return CsvIterations(test.rows[0])
        raise Missing("report.csv has no row of %s" % name)



# --------------------------------------------------------------------------
# Figures

FIGURE = re.compile(r"[-+]?\d+(?:\.\d+)?")


def decimals(printed):
    m = re.match(r"[-+]?\d+(?:\.(\d+))?$", printed)
    return len(m.group(1) or "") if m else None


def near(printed, value):
    """Whether printed is value as the text rounds it."""
    places = decimals(printed)
    if places is None or value is None or isinstance(value, (bool, str)):
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    if isinstance(value, int):
        return places == 0 and int(printed) == value
    # The CSV writes reals to six decimals: half of the last of them more.
    tolerance = 0.5 * 10 ** -places + 5e-7 + 1e-12 * abs(value)
    return abs(float(printed) - value) <= tolerance


class StreamsHost:
    """The figures of a host's streams, computed as aggregate_streams_figures
    does: bytes over the span from the first start to the last end of
    those with a window (finished, and an end after the start, else the
    last write), the slowest stream's rate."""

    def __init__(self, streams):
        self.streams = streams

    def get(self, key):
        spans = []
        for st in self.streams:
            start, end = st.get("start_ns"), st.get("end_ns")
            if end is not None and start is not None and end <= start:
                end = st.get("last_write_ns")
            if st.get("finished") and end is not None and end > start:
                spans.append((start, end))
        rates = [st.get("rate_mbps") for st in self.streams if st.get("rate_mbps") is not None]
        if key == "streams":
            return len(self.streams)
        if key == "failed_streams":
            return sum(1 for st in self.streams if st.get("error") or not st.get("finished"))
        if key == "stream_bytes":
            return sum(st.get("bytes") for st in self.streams)
        if key == "rate_mbps":
            if not spans:
                return None
            ns = max(e for s, e in spans) - min(s for s, e in spans)
            return self.get("stream_bytes") * 1e3 / ns if ns > 0 else None
        if key == "slowest_stream_mbps":
            return min(rates) if rates else None
        if key in ("received", "sys_pct", "iowait_pct"):
            return None
        raise Missing("a host without HOST figures has no %s" % key)


def optional(row, *path):
    """A figure that files and rows may leave out: None then."""
    try:
        return row.get(*path)
    except Missing:
        return None



# --------------------------------------------------------------------------
# The CSV's columns and their units

# A column's name ends in its unit (iofleet(1) lists them)...
UNITS = ("_ns", "_s", "_bytes", "_mbps", "_per_s", "_per_min", "_pct", "_ticks", "_ops",
         "_utc", "_s_per_gb", "_share")
# ...or it is one of these: counts, names, flags and texts, without one. A
# column added without a unit fails until it is named with one or listed.
UNITLESS = frozenset("""
    run_iofleet_version run_scenario run_label run_units run_cut_short
    name test phase phase_index rate workload bound iteration warnings
    agent job class stream path finished lost bytes reads writes fsyncs reads_data cold
    stream_rate bytes_from_sample depth_mean depth_max depth_inflight_at_stop error samples
    direct fsync requests_latency_count
    agent_name agent_endpoint agent_hostname agent_kernel agent_boot_id agent_cpus
    agent_version agent_insecure agent_malformed_frames
    host_agent host_boot_id host_received host_latency_count host_streams host_failed_streams
    host_requests_streams
    host_tail_agent host_tail_requests host_tail_over_p99 host_tail_over_p999 host_tail_cause
    monitor_agent monitor_job monitor_samples
    test_streams test_hosts test_failed_streams test_lost_streams test_partial
    test_disk_streams test_disk_notation test_disk_latency_count test_network_streams
    test_network_notation test_network_latency_count test_hosts_measured test_stop_streams
    test_depth_mean test_depth_max test_depth_inflight_at_stop test_latency_read_count
    test_latency_write_count test_latency_fsync_count test_latency_requests_count
    test_requests_streams test_iterations_rest_count test_tail_requests test_tail_over_p99
    test_tail_over_p999 test_tail_hosts_ranked host_warnings
""".split())


def check_columns(header):
    """Every column named, and its unit in its name or no unit to have."""
    bad = []
    for name in header:
        if not name:
            bad.append("report.csv: a column without a name")
        elif not name.endswith(UNITS) and name not in UNITLESS:
            bad.append("report.csv: column %s: no unit in its name, and not one of those "
                       "without (a count, a name, a flag)" % name)
    if len(set(header)) != len(header):
        bad.append("report.csv: columns named twice: %s"
                   % sorted({n for n in header if header.count(n) > 1}))
    return bad
