#!/usr/bin/env bash
# Make the corpus of stored runs again: real runs on loopback agents (and
# an NFS server in a namespace, as root), one of every workload and of the
# cases the reports treat apart (iterations, phases, a time-bound end, a
# lost agent, a failed job, a fleet past the tables' size, a mixed test).
# Their results.json and samples.jsonl go to tests/corpus/runs/NAME/,
# with the scratch paths and the server's address made neutral, so that
# the corpus says nothing of the machine it ran on but what a report
# shows of any (host name, kernel).
#
#   tests/corpus/generate.sh [BUILD]       (BUILD defaults to build)
#
# Run it only to add a case: the stored runs are the input of the corpus
# test (t0705), and their renderings in tests/corpus/expected/ are what
# every renderer must keep writing (tests/corpus/render.sh rewrites them
# when a change of output is meant, in the same commit as the change).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
runs=$top/tests/corpus/runs

# keep NAME DIR: store the run of DIR as NAME, its paths neutral.
keep () {
    local name=$1 dir=$2 f
    rm -rf "${runs:?}/$name"
    mkdir -p "$runs/$name"
    for f in results.json samples.jsonl; do
        [ -f "$dir/$f" ] || continue
        sed -e "s#$SCRATCH#/data/iofleet#g" -e "s#${NFS_ADDR:-no-nfs-server}#192.0.2.20#g" \
            "$dir/$f" > "$runs/$name/$f"
    done
    echo "corpus: $name ($(du -sk "$runs/$name" | cut -f1) kB)"
}

# run NAME SCENARIO [flags...]: run it, keep it; any exit status.
run () {
    local name=$1 scenario=$2
    shift 2
    "$BIN/iofleet" run "$scenario" -q --no-db -o "$SCRATCH/out-$name" "$@" \
        > "$SCRATCH/$name.txt" 2>&1 || true
    keep "$name" "$SCRATCH/out-$name"
}

agents () {     # names...: their [agent] sections, started
    local a
    for a in "$@"; do
        start_agent "$a" "${AGENT_FLAGS[@]}"
        printf '[agent %s]\nendpoint = %s\n' "$a" "$ENDPOINT"
    done
}
AGENT_FLAGS=()

# disk: every block workload, three iterations, two hosts.
{
    printf '[global]\niterations = 3\nbs = 1M\ninterval = 20ms\nsettle = 0\n'
    agents a1 a2
    printf '[job dd1]\nagent = a1\npath = dd1\nsize = 24M\n'
    printf '[job dd2-dir]\nagent = a1\npath = dd2-dir\nsize = 16M\nstreams = 2\ndirect = yes\n'
    printf '[job two-a1]\ntest = two\nagent = a1\npath = two\nsize = 16M\n'
    printf '[job two-a2]\ntest = two\nagent = a2\npath = two\nsize = 16M\nrate = 40M\n'
    printf '[job iozone]\nagent = a2\nworkload = rewrite\npath = iozone\nsize = 8M\nbs = 4K\nfsync = none\n'
    printf '[job bonnie]\nagent = a1\nworkload = bonnie\npath = bonnie\nsize = 16M\nbs = 64K\n'
    printf '[job cached]\nagent = a2\nworkload = read\npath = iozone.1\nsize = 8M\n'
} > "$SCRATCH/disk.ini"
run disk "$SCRATCH/disk.ini" --label base
run disk-again "$SCRATCH/disk.ini" --label patched

# random: request- and time-bound randrw, and a test that mixes kinds.
{
    printf '[global]\niterations = 2\ninterval = 50ms\nsettle = 0\n'
    agents r1 r2
    printf '[job rndrw]\nagent = r1\nworkload = randrw\npath = rnd\nsize = 8M\nfiles = 8\nstreams = 4\nrequests = 400\n'
    printf '[job timed-r1]\ntest = timed\nagent = r1\nworkload = randrw\npath = tb\nsize = 4M\nfiles = 2\nstreams = 2\nruntime = 1s\nramp = 200ms\nmode = rndrd\n'
    printf '[job timed-r2]\ntest = timed\nagent = r2\nworkload = randrw\npath = tb\nsize = 4M\nfiles = 2\nruntime = 1s\nramp = 200ms\nmode = rndwr\nfsync_every = 10\n'
    printf '[job mixed-w]\ntest = mixed\nagent = r1\npath = mw\nsize = 8M\nbs = 1M\n'
    printf '[job mixed-r]\ntest = mixed\nagent = r2\nworkload = randrw\npath = mr\nsize = 4M\nfiles = 4\nrequests = 300\n'
    printf '[job many]\nagent = r2\nworkload = randrw\npath = many\nsize = 8M\nfiles = 24\nstreams = 24\nrequests = 48\nfsync_every = 4\n'
} > "$SCRATCH/random.ini"
run random "$SCRATCH/random.ini"

# faults: a job that fails at prepare, a time-bound write, an agent lost.
{
    printf '[global]\nlease = 1s\ninterval = 50ms\nsettle = 0\nbs = 256K\n'
    agents f1 f2
    printf '[job timed]\nagent = f1\npath = timed\nsize = 64M\nruntime = 500ms\nrate = 20M\nstreams = 2\n'
    printf '[job fails-f1]\ntest = fails\nagent = f1\nworkload = read\npath = missing\n'
    printf '[job fails-f2]\ntest = fails\nagent = f2\npath = fine\nsize = 1M\n'
    printf '[job held-f1]\ntest = held\nagent = f1\npath = held\nsize = 8M\nrate = 2M\n'
    printf '[job held-f2]\ntest = held\nagent = f2\npath = held\nsize = 8M\nrate = 2M\n'
} > "$SCRATCH/faults.ini"
f2_pid=${PIDS[-1]}
"$BIN/iofleet" run "$SCRATCH/faults.ini" -q --no-db -o "$SCRATCH/out-faults" \
    > "$SCRATCH/faults.txt" 2>&1 &
faults=$!
for _ in $(seq 200); do
    grep -q 'test=held.*event=start\|event=start.*test=held' "$SCRATCH/f2.log" 2>/dev/null && break
    grep -c 'event=start ' "$SCRATCH/f2.log" 2>/dev/null | grep -q '^[3-9]' && break
    sleep 0.05
done
sleep 0.5
kill -KILL "$f2_pid"
wait "$faults" || true
keep faults "$SCRATCH/out-faults"

# fleet: twenty agents, past the tables' sixteen rows, their endpoints
# from a --hosts file as fio's --client list gives them.
for i in $(seq -w 1 20); do
    start_agent "h$i"
    echo "h$i $ENDPOINT"
done > "$SCRATCH/fleet.hosts"
{
    printf '[global]\ninterval = 20ms\nsettle = 0\n'
    printf '[group fleet]\nagents = h[01-20]\n'
    printf '[job nothing]\nagent = fleet\nworkload = null\nsize = 1M\n'
    printf '[job small]\nagent = fleet\npath = small\nsize = 2M\n'
} > "$SCRATCH/fleet.ini"
run fleet "$SCRATCH/fleet.ini" --hosts "$SCRATCH/fleet.hosts"

# tail: one host of four slow for a second (t0530's scenario), for the
# latency timeline and the tail attribution; needs FUSE.
if pkg-config --exists fuse3 && [ -c /dev/fuse ]; then
    . "$top/tests/delayfs.sh"
    delayfs_build
    delayfs_tail_scenario > "$SCRATCH/tail.ini"
    run tail "$SCRATCH/tail.ini"
else
    echo "corpus: tail kept as it was (no FUSE here)"
fi

# net: a source filled, copied over NFS and from a path, a monitor on
# the server; needs root for the server's namespace.
if [ "$(id -u)" = 0 ] && command -v ganesha.nfsd > /dev/null; then
    . "$top/tests/netns.sh"
    . "$top/tests/nfs.sh"
    nfs_server "$SCRATCH/export"
    AGENT_FLAGS=(--allow-nfs "$NFS_ADDR")
    {
        printf '[global]\niterations = 2\nbs = 1M\ninterval = 20ms\nsettle = 0\n'
        agents c1
        AGENT_FLAGS=(--root "$SCRATCH/export")
        agents s1
        printf '[job net1-source]\ntest = net1\nagent = s1\nworkload = fill\npath = %s/src\nsize = 16M\npattern = random\n' "$SCRATCH/export"
        printf '[job net1]\ntest = net1\nagent = c1\nworkload = copy\nsrc = %s/src\ndst = net1\n' "$NFS_URL"
        printf '[job watch]\ntest = net1\nagent = s1\nworkload = monitor\n'
        printf '[job local-source]\ntest = local\nagent = c1\nworkload = fill\npath = lsrc\nsize = 8M\n'
        printf '[job local]\nagent = c1\nworkload = copy\nsrc = lsrc\ndst = local\nstreams = 2\n'
        printf '[job idle]\nagent = c1\nworkload = null\nsize = 4M\n'
    } > "$SCRATCH/net.ini"
    run net "$SCRATCH/net.ini"
else
    echo "corpus: not root or no ganesha.nfsd: net kept as it was" >&2
fi
