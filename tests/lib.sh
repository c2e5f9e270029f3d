# Shared by the integration scripts (tests/t*.sh): a scratch directory per
# test, agents started on loopback with ephemeral ports, and a trap that
# stops every process the test started, by pid, and removes what it made.
#
# IOFLEET_BIN is the build directory holding iofleet and iofleet-agent.
set -eu

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${IOFLEET_BIN:-$TOP/build}
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/iofleet-t.XXXXXX")
PIDS=()
MOUNTS=()

# Stop what the test started, unmount what it mounted, remove its scratch
# directory. A stopped process is woken first so that it sees its
# SIGTERM; a running one gets no SIGCONT, which would arrive while it
# exits, and under LeakSanitizer (whose leak check stops the process's
# threads with ptrace) can leave the check waiting for ever.
cleanup () {
    local pid mount state
    for pid in "${PIDS[@]}"; do
        state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$pid/status" 2>/dev/null || true)
        [ "$state" != T ] || kill -CONT "$pid" 2>/dev/null || true
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    for mount in "${MOUNTS[@]}"; do
        umount "$mount" 2>/dev/null || true
    done
    rm -rf "$SCRATCH"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail () {
    echo "FAIL: $*" >&2
    exit 1
}

# start_agent NAME [extra flags...]: an agent with its own root
# $SCRATCH/NAME, logging to $SCRATCH/NAME.log; sets ENDPOINT to where it
# listens (the ephemeral port it was given).
start_agent () {
    local name=$1
    shift
    mkdir -p "$SCRATCH/$name"
    "$BIN/iofleet-agent" --bind 'tcp://127.0.0.1:*' --name "$name" \
        --root "$SCRATCH/$name" "$@" 2>"$SCRATCH/$name.log" &
    PIDS+=($!)
    wait_bound "$name"
}

# wait_bound NAME: wait for the agent last started (the last of PIDS) to
# log where it listens in $SCRATCH/NAME.log; sets ENDPOINT.
wait_bound () {
    local name=$1 i
    for i in $(seq 100); do
        ENDPOINT=$(sed -n 's/.*event=bound .*endpoint=\([^ ]*\).*/\1/p' "$SCRATCH/$name.log" | head -1)
        [ -n "$ENDPOINT" ] && return 0
        kill -0 "${PIDS[-1]}" 2>/dev/null || break
        sleep 0.05
    done
    cat "$SCRATCH/$name.log" >&2
    fail "agent $name did not start"
}

# wait_log FILE PATTERN: wait up to 10 s for a line matching PATTERN
# (grep -E) in FILE; fails the test if none comes.
wait_log () {
    local i
    for i in $(seq 200); do
        grep -Eq "$2" "$1" 2>/dev/null && return 0
        sleep 0.05
    done
    fail "no line matching '$2' in $1"
}

# json EXPR: evaluate a Python expression over the results JSON
# ($RESULTS/results.json bound to r) and print it.
json () {
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
        "$RESULTS/results.json" "$1"
}

# dump_dom PAGE OUT: the DOM headless Chromium builds from the file PAGE,
# into OUT; fails the test when Chromium is missing or cannot load it.
dump_dom () {
    local page=$1 out=$2
    command -v chromium > /dev/null || fail "chromium is not installed (scripts/deps.sh installs it)"
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run \
        --user-data-dir="$SCRATCH/chrome" --dump-dom "file://$page" \
        > "$out" 2> "$SCRATCH/chrome.log" ||
        { tail -20 "$SCRATCH/chrome.log"; fail "chromium could not load $page"; }
}

# job_file_beside_fio FILE: the fio job file FILE run by iofleet on every
# agent of $SCRATCH/hosts (results in $RESULTS, the run's stdout and
# stderr in $SCRATCH/run.txt and run.err), then by fio itself in a
# directory of its own, its json in $SCRATCH/fio.json.
job_file_beside_fio () {
    RESULTS=$SCRATCH/res
    "$BIN/iofleet" run "$1" --hosts "$SCRATCH/hosts" -o "$RESULTS" -q --no-db \
        > "$SCRATCH/run.txt" 2> "$SCRATCH/run.err" || { cat "$SCRATCH/run.err"; fail "the run failed"; }
    mkdir -p "$SCRATCH/fio"
    (cd "$SCRATCH/fio" && fio --output-format=json --output="$SCRATCH/fio.json" "$1") ||
        fail "fio could not run the job file"
}
