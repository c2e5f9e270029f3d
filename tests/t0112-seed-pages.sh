#!/usr/bin/env bash
# Every seed scenario of configs/seeds/ on two real agents, its sizes made
# small and its paths local, two iterations (iozone three): each run's
# report.html holds every figure of its report.txt, and results.json and
# report.csv hold each one, table by table (tests/page_figures.py,
# report_figures.py), so that a table the text prints and the page or
# the files leave off fails here on real runs, not only on the stored
# corpus; its pictures draw the run (tests/page_charts.py: no line of
# fewer than 5 points, a bar per test and phase in the unit the text
# counts it in, axes set by whole intervals); its warnings are one line
# per test and kind, naming the hosts and iterations of every warning of
# results.json they stand for (the iozone seed: its cache warning on both
# hosts, in iterations 1-3), a warning of the machine's figures naming
# both agents (they share its boot id) and no share above 100%. The
# many-tasks seed's text stays under 150 lines at 512 streams an agent.
# A seed of one agent runs its jobs on both (each job its own test, a job
# per agent); net1 and mix3 name two agents already, the server one
# serving its export over NFS (tests/nfs.sh).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/netns.sh"
. "$TOP/tests/nfs.sh"

nfs_server "$SCRATCH/export"
start_agent a1 --allow-nfs "$NFS_ADDR"; E1=$ENDPOINT
start_agent a2 --root "$SCRATCH/export"; E2=$ENDPOINT

# small SEED OUT: the seed with the agents above, small sizes, local paths.
small () {
    python3 - "$1" "$E1" "$E2" "$SCRATCH/export" "$NFS_URL" > "$2" <<'PY'
import re, sys
seed, e1, e2, export, nfs_url = sys.argv[1:]
sections, current = [], None
for line in open(seed):
    line = re.sub(r"\s+;.*$", "", line.strip())
    if not line or line[0] in "#;":
        continue
    m = re.match(r"\[(\w+)\s*([^\]]*)\]", line)
    if m:
        current = [m.group(1), m.group(2).strip(), []]
        sections.append(current)
        continue
    key, value = [part.strip() for part in line.split("=", 1)]
    current[2].append([key, value])
agents = [name for kind, name, _ in sections if kind == "agent"]
# Small: 4 MB a stream (bonnie 8 MB, randrw 64 kB a file), a second of a
# timed test, 300 requests; --iterations says how many runs.
small = {"size": "4M", "runtime": "1s", "ramp": "0", "requests": "300"}
out = []
for kind, name, keys in sections:
    if kind == "agent":
        continue
    if kind != "job":
        out.append("[%s]" % kind)
        out += ["%s = %s" % (k, small.get(k, v)) for k, v in keys if k != "iterations"]
        continue
    d = dict(keys)
    if d.get("workload") == "randrw":
        # many files and streams stay many: the fleet-sized tables are seen.
        d["size"] = str(64 * int(d.get("files", "1"))) + "K"
    elif "size" in d:
        d["size"] = "8M" if d.get("workload") == "bonnie" else "4M"
    for k in ("runtime", "ramp", "requests"):
        if k in d:
            d[k] = small[k]
    for k in ("path", "dst"):
        if k in d:
            d[k] = re.sub(r"^/export/iofleet", export, re.sub(r"^/data/iofleet/", "", d[k]))
    if "src" in d:
        d["src"] = re.sub(r"^nfs://[^/]+/export/iofleet", nfs_url, d["src"])
    if len(agents) == 1:
        d.setdefault("test", name)
        copies = [("a1", name + "-a1"), ("a2", name + "-a2")]
    else:
        copies = [({agents[0]: "a1", agents[1]: "a2"}[d["agent"]], name)]
    for agent, job in copies:
        d["agent"] = agent
        out.append("[job %s]" % job)
        out += ["%s = %s" % kv for kv in d.items()]
print("[agent a1]\nendpoint = %s\n[agent a2]\nendpoint = %s" % (e1, e2))
print("\n".join(out))
PY
}

# warnings_grouped DIR: the text's warnings and notices of the run in
# DIR are one line per test and kind of results.json's, its first
# warning's text, "(N KIND warnings alike: on HOSTS, in iterations R)"
# after it for several; prints the groups that span iterations and hosts.
warnings_grouped () {
    python3 - "$1/report.txt" "$1/results.json" <<'PY'
import collections, json, re, sys
text = open(sys.argv[1]).read().splitlines()
r = json.load(open(sys.argv[2]))
def section(title):
    if title not in text:
        return []
    lines = text[text.index(title) + 1:]
    return lines[:lines.index("")] if "" in lines else lines
def ranges(values):
    out, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append("%d-%d" % (values[i], values[j]) if j > i else "%d" % values[i])
        i = j + 1
    return ", ".join(out)
groups = collections.OrderedDict()
for t in r["tests"]:
    for w in t["warnings"]:
        groups.setdefault((t["name"], w["kind"]), []).append((t["iteration"], w["agent"], w["text"]))
        # The two agents share this machine: a warning of its figures
        # names both where both moved bytes in the test (mix3's server
        # only fills its source, untimed: a warning of that test's is
        # a1's alone), and no share of it is above 100%.
        shares = [float(p) for p in re.findall(r"(\d+(?:\.\d+)?)%", w["text"])]
        assert all(p <= 100 for p in shares), w["text"]
        movers = [h["agent"] for h in t["hosts"] if h["received"] and h["stream_bytes"]]
        if w["agent"]:
            machine = "a1 and a2 (one machine): " if len(movers) == 2 else movers[0] + ": "
            assert w["text"].startswith(machine), (w["text"], movers)
for title, notice in (("warnings", False), ("notices", True)):
    lines = section(title)
    mine = [(k, v) for k, v in groups.items() if (k[1] == "layout") == notice]
    assert len(lines) == len(mine), (title, lines, [k for k, v in mine])
    for (name, kind), items in mine:
        iterations = sorted({i for i, _, _ in items})
        hosts = [a for a in dict.fromkeys(a for _, a, _ in items) if a]
        label = name if len(iterations) > 1 or items[0][0] == 1 else "%s #%d" % (name, items[0][0])
        found = [l for l in lines if l.startswith("  %s: %s" % (label, items[0][2]))]
        assert len(found) == 1, (name, kind, found)
        line = found[0]
        if len(items) > 1:
            where = "(%d %s %s alike" % (len(items), kind, "notices" if notice else "warnings")
            assert where in line, (line, where)
            assert all(re.search(r"\b%s\b" % re.escape(h), line) for h in hosts), (line, hosts)
            if len(iterations) > 1:
                assert line.endswith("in iterations %s)" % ranges(iterations)), (line, iterations)
            print("  %s %s: %d, iterations %s, hosts %s" % (name, kind, len(items),
                                                          ranges(iterations), ", ".join(hosts)))
PY
}

checked=0
for seed in "$TOP"/configs/seeds/*.ini; do
    name=$(basename "$seed" .ini)
    small "$seed" "$SCRATCH/$name.ini" || fail "$name: could not make it small"
    rc=0
    iterations=2
    [ "$name" != iozone ] || iterations=3
    "$BIN/iofleet" run "$SCRATCH/$name.ini" --iterations $iterations -q --no-db -o "$SCRATCH/$name" \
        > "$SCRATCH/$name.out" 2>&1 || rc=$?
    [ "$rc" = 0 ] || { cat "$SCRATCH/$name.ini" "$SCRATCH/$name.out"; fail "$name: run exited $rc"; }
    r=$SCRATCH/$name
    grep -q "^iterations: " "$r/report.txt" || fail "$name: no iterations table in the text"
    python3 "$TOP/tests/page_figures.py" "$r/report.txt" "$r/report.html" "$r/results.json" \
        "$r/report.csv" || fail "$name: the page, the results or the CSV lack figures of the text"
    python3 "$TOP/tests/page_charts.py" "$r/report.txt" "$r/report.html" "$r/results.json" \
        > "$SCRATCH/$name.charts" || { cat "$SCRATCH/$name.charts"; fail "$name: the pictures"; }
    warnings_grouped "$r" > "$SCRATCH/$name.warnings" ||
        { cat "$SCRATCH/$name.warnings"; fail "$name: warnings not one line per test and kind"; }
    echo "$name: $(wc -l < "$r/report.txt") lines of text, every figure on the page, in the" \
         "results and in the CSV; $(cat "$SCRATCH/$name.charts")"
    cat "$SCRATCH/$name.warnings"
    case $name in
    iozone)
        # The seed's cache warning comes on both hosts (one machine) in
        # every iteration: one line, naming both and iterations 1-3.
        grep -q "^  iozone/write cache: 3, iterations 1-3, hosts a1$" "$SCRATCH/$name.warnings" ||
            fail "iozone: its cache warning is not one line over its 3 iterations"
        grep -q "^  iozone/write: a1 and a2 (one machine): .*(3 cache warnings alike: on a1, in iterations 1-3)$" \
            "$r/report.txt" || fail "iozone: its cache warning does not name both hosts and iterations 1-3"
        ;;
    many-tasks)
        python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
per_agent = [sum(1 for s in t["streams"] if s["agent"] == a) for t in r["tests"] for a in ("a1", "a2")]
assert min(per_agent) >= 512, per_agent' "$r/results.json" || fail "many-tasks: fewer than 512 streams an agent"
        [ "$(wc -l < "$r/report.txt")" -lt 150 ] ||
            fail "many-tasks: $(wc -l < "$r/report.txt") lines of text at 512 streams an agent"
        ;;
    esac
    checked=$((checked + 1))
done
[ "$checked" -ge 7 ] || fail "only $checked seeds"
echo "seed pages: $checked seeds on two agents"
