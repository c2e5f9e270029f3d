#!/usr/bin/env bash
# Every seed scenario of configs/seeds/ on two real agents, its sizes made
# small and its paths local, two iterations: each run's report.html holds
# every figure of its report.txt, and results.json and report.csv hold
# each one, table by table (tests/page_figures.py, report_figures.py),
# so that a table the text prints and the page or the files leave off
# fails here on real runs, not only on the stored corpus. A
# seed of one agent runs its jobs on both (each job its own test, a job
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

checked=0
for seed in "$TOP"/configs/seeds/*.ini; do
    name=$(basename "$seed" .ini)
    small "$seed" "$SCRATCH/$name.ini" || fail "$name: could not make it small"
    rc=0
    "$BIN/iofleet" run "$SCRATCH/$name.ini" --iterations 2 -q --no-db -o "$SCRATCH/$name" \
        > "$SCRATCH/$name.out" 2>&1 || rc=$?
    [ "$rc" = 0 ] || { cat "$SCRATCH/$name.ini" "$SCRATCH/$name.out"; fail "$name: run exited $rc"; }
    r=$SCRATCH/$name
    grep -q "^iterations: " "$r/report.txt" || fail "$name: no iterations table in the text"
    python3 "$TOP/tests/page_figures.py" "$r/report.txt" "$r/report.html" "$r/results.json" \
        "$r/report.csv" || fail "$name: the page, the results or the CSV lack figures of the text"
    echo "$name: $(wc -l < "$r/report.txt") lines of text, every figure on the page, in the" \
         "results and in the CSV"
    checked=$((checked + 1))
done
[ "$checked" -ge 7 ] || fail "only $checked seeds"
echo "seed pages: $checked seeds on two agents"
