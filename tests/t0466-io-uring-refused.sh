#!/usr/bin/env bash
# A host that refuses io_uring refuses an engine = io_uring job before
# the run (the preflight asks the admission prepare makes), never at the
# start instant and never by falling back to psync: the console names
# the host, the reason and what to use instead, the run exits 2, and
# nothing is left on disk. Refused two
# ways where the machine lets the test: an agent under a seccomp filter
# (tests/tools/nouring.c, as a container's policy), and the whole host
# with kernel.io_uring_disabled = 2 (set, then restored). The same job
# on engine = psync runs on that agent. Exit 125 if neither can be set
# up here.
. "$(dirname "$0")/lib.sh"

SYSCTL=/proc/sys/kernel/io_uring_disabled
SAVED=""
restore () {
    [ -z "$SAVED" ] || echo "$SAVED" > "$SYSCTL" 2>/dev/null || true
    cleanup
}
trap restore EXIT

cc -O2 -Wall -Wextra -Werror "$TOP/tests/tools/nouring.c" -o "$SCRATCH/nouring" ||
    fail "nouring does not build"

# scenario NAME ENDPOINT ENGINE: a randrw job on one agent, into $SCRATCH/NAME.ini
scenario () {
    cat > "$SCRATCH/$1.ini" <<INI
[global]
settle = 0
[agent $1]
endpoint = $2
[job rr]
agent = $1
workload = randrw
path = set/f
size = 4M
files = 4
bs = 4K
requests = 1000
engine = $3
iodepth = $([ "$3" = psync ] && echo 1 || echo 16)
INI
}

# refused NAME WHY: the run on agent NAME fails at prepare, says so, and
# leaves nothing in its root.
refused () {
    local name=$1 why=$2 rc=0
    "$BIN/iofleet" run --no-db "$SCRATCH/$name.ini" -o "$SCRATCH/r-$name" \
        > "$SCRATCH/$name.out" 2>&1 || rc=$?
    cat "$SCRATCH/$name.out"
    [ "$rc" = 2 ] || fail "$why: the run exited $rc, not 2"
    grep -q "$name" "$SCRATCH/$name.out" || fail "$why: the host is not named"
    grep -q "io_uring_setup" "$SCRATCH/$name.out" || fail "$why: no reason given"
    grep -q "use engine = psync" "$SCRATCH/$name.out" || fail "$why: no advice given"
    grep -Eq "preflight: .*engine the agent's host refuses" "$SCRATCH/$name.out" ||
        fail "$why: not said by the preflight"
    [ -z "$(ls -A "$SCRATCH/$name")" ] || { ls -lR "$SCRATCH/$name"; fail "$why: files left"; }
}

ran=0
# A container's seccomp policy: only that agent is refused.
if "$SCRATCH/nouring" true 2> "$SCRATCH/nouring.err"; then
    mkdir -p "$SCRATCH/jail"
    "$SCRATCH/nouring" "$BIN/iofleet-agent" --bind 'tcp://127.0.0.1:*' --name jail \
        --root "$SCRATCH/jail" 2> "$SCRATCH/jail.log" &
    PIDS+=($!)
    wait_bound jail
    scenario jail "$ENDPOINT" io_uring
    refused jail "seccomp"
    grep -q "seccomp" "$SCRATCH/jail.out" || fail "seccomp: the reason does not say seccomp"
    scenario jail "$ENDPOINT" psync
    "$BIN/iofleet" run --no-db "$SCRATCH/jail.ini" -o "$SCRATCH/r-psync" \
        > "$SCRATCH/psync.out" 2>&1 || { cat "$SCRATCH/psync.out"; fail "psync under seccomp failed"; }
    ran=$((ran + 1))
else
    echo "no seccomp filter here: $(cat "$SCRATCH/nouring.err")"
fi

# The host's own switch, where the test may turn it.
if [ -w "$SYSCTL" ] && SAVED=$(cat "$SYSCTL") && echo 2 > "$SYSCTL" 2>/dev/null; then
    start_agent host
    scenario host "$ENDPOINT" io_uring
    refused host "io_uring_disabled"
    grep -q "io_uring_disabled = 2" "$SCRATCH/host.out" ||
        fail "io_uring_disabled: the reason does not name the sysctl"
    echo "$SAVED" > "$SYSCTL"
    SAVED=""
    ran=$((ran + 1))
else
    SAVED=""
    echo "kernel.io_uring_disabled cannot be set here"
fi
[ "$ran" -gt 0 ] || { echo "skip: io_uring cannot be refused here"; exit 125; }
