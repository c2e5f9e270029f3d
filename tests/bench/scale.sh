#!/usr/bin/env bash
# make bench-scale: the console at the size of a fleet, on loopback.
#
# For each fleet size (SCALE_AGENTS, default "1 16 256 1024 4096"), starts that
# many agents on this machine (ports SCALE_PORT+1 ... below 32768, where
# outgoing connections do not take them), runs one scenario of a [group]
# with a null test and a 1 MB write test, three iterations each, and
# prints:
#
#   hello, clock   the hello to every agent and the first clock
#                  measurement of them all (the run's event=connected line)
#   null test      the round trip of a null test on every agent: from one
#                  iteration's start instant to the next one's, less its
#                  window (median of two): the fixed cost of a test; and
#                  its host skew with the clock uncertainty (the worst of
#                  the three iterations); then, apart, that skew, that
#                  uncertainty, and the skew of as many bare processes
#                  started at one instant as the agent's streams are
#                  (tests/bench/wakefloor.c): with fewer CPUs than agents
#                  each must be given a CPU after the instant, and what
#                  that costs on this machine is the floor of any skew
#   1 MB write     the same for the write test: everything a test costs
#   coordinator    peak RSS and CPU seconds of `iofleet run`, and the
#                  seconds from the last file it wrote in its results
#                  directory to its exit
#   agent idle     RSS of the agents (median and largest) and the CPU ticks
#                  all of them used in 10 s of idleness after the run; then,
#                  apart, the anonymous part of that RSS (the rest is pages
#                  of shared libraries, the same pages in every agent)
#
# At 256 agents (or the first size at least that), one more run writes
# for 120 sample intervals on every agent, and its report sizes are
# printed: report.html, report.txt, results.json.
#
# Targets on a 2-core machine: the fixed cost of a test on one agent
# < 0.2 s; 1024 agents connected and synchronized in < 3 s, a null test
# round trip < 1 s at 1024, the null test's host skew (clock uncertainty
# included) < 5 ms at every size, the coordinator < 64 MB, an idle agent
# < 8 MiB and no tick in 10 s; the console gone within 1 s of its
# results; the page of 256 hosts x 120 samples
# < 2 MB. A figure past its target is marked "over"; the script exits 1
# if any is. The agents of a size are stopped (by pid) before the next
# size starts. The console raises its own limit of open files; this
# script needs the shell's hard limit to allow an agent's few each.
# SCALE_KEEP=DIR keeps what a failed run leaves: the agents' logs, the
# console's stderr and the results directory are copied to DIR before the
# scratch directory goes.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/bench/fleet.sh"

sizes=${SCALE_AGENTS:-1 16 256 1024 4096}
base=${SCALE_PORT:-20000}
idle_s=${SCALE_IDLE:-10}
ticks_per_s=$(getconf CLK_TCK)
results=()
over=()
page_done=

# keep_logs ERR: copy the agents' logs and the console's stderr ERR to
# SCALE_KEEP, if given.
keep_logs () {
    [ -n "${SCALE_KEEP:-}" ] || return 0
    mkdir -p "$SCALE_KEEP"
    cp -r "$SCRATCH/logs" "$1" "$SCALE_KEEP/"
    [ ! -d "$SCRATCH/res" ] || cp -r "$SCRATCH/res" "$SCALE_KEEP/"
    echo "logs kept in $SCALE_KEEP" >&2
}

# target NAME VALUE LIMIT: VALUE past LIMIT is recorded as over.
target () {
    if [ "$(echo "$2 >= $3" | bc -l)" = 1 ]; then
        over+=("$1: $2 (target < $3)")
    fi
}

# page_sizes COUNT: a run of 120 sample intervals on COUNT agents, and
# the sizes of its reports. A run that fails is recorded as over, with
# the agents it lost, and the sizes after it are still measured: on a
# machine of few cores, a thousand agents writing every 50 ms starve the
# console of CPU (it has one share among a thousand), and it falls
# silent for a lease.
page_sizes () {
    local count=$1 page
    cat > "$SCRATCH/page.ini" <<INI
[global]
interval = 50ms
$(fleet_group "$count")
[job page]
agent = fleet
path = page
size = 6M
rate = 1M
bs = 64K
INI
    rm -rf "$SCRATCH/page"
    if ! "$BIN/iofleet" run "$SCRATCH/page.ini" -q --no-db -o "$SCRATCH/page" \
            > /dev/null 2> "$SCRATCH/page.err"; then
        grep -v 'event=lost' "$SCRATCH/page.err" | tail -5
        keep_logs "$SCRATCH/page.err"
        PAGE_LINE="$count hosts: the page run failed, $(grep -c 'event=lost' "$SCRATCH/page.err") agents lost"
        echo "$PAGE_LINE"
        over+=("page run at $count agents: failed")
        return 0
    fi
    page=$(stat -c %s "$SCRATCH/page/report.html")
    PAGE_LINE=$(printf '%d hosts x %s samples: report.html %.0f kB, report.txt %.0f kB, results.json %.0f kB' \
        "$count" "$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["tests"][0]; print(max(s["samples"] for s in t["streams"]))' "$SCRATCH/page/results.json")" \
        "$(echo "$page / 1000" | bc -l)" \
        "$(echo "$(stat -c %s "$SCRATCH/page/report.txt") / 1000" | bc -l)" \
        "$(echo "$(stat -c %s "$SCRATCH/page/results.json") / 1000" | bc -l)")
    echo "$PAGE_LINE"
    target "page of $count hosts (bytes)" "$page" 2000000
}

# median LINES: the median of sorted numbers, one a line.
median () {
    echo "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# cpu_ticks PID...: user + system ticks of the processes, summed.
cpu_ticks () {
    local pid total=0 fields
    for pid in "$@"; do
        fields=$(sed 's/^.*) //' "/proc/$pid/stat")
        total=$(( total + $(echo "$fields" | awk '{ print $12 + $13 }') ))
    done
    echo "$total"
}

largest=$(printf '%s\n' $sizes | sort -n | tail -1)
hard=$(ulimit -Hn)
[ "$hard" = unlimited ] || [ "$hard" -ge $((largest * 4 + 64)) ] ||
    fail "the hard limit of open files ($hard) is too low for $largest agents: raise it (ulimit -Hn)"
[ "$hard" = unlimited ] || ulimit -Sn "$hard"

cc -O2 -Wall -Wextra -Werror "$top/tests/bench/wakefloor.c" "$top/proto/clock.c" \
    -o "$SCRATCH/wakefloor" || fail "wakefloor does not build"

for count in $sizes; do
    [ $((base + count)) -lt 32768 ] || fail "SCALE_PORT $base + $count agents passes 32767"
    ports_free $((base + 1)) $((base + count)) ||
        fail "a port in $((base + 1))..$((base + count)) is taken: give SCALE_PORT"
    mkdir -p "$SCRATCH/logs"
    started=$(date +%s.%N)
    start_fleet "$count"
    printf 'agents=%d started in %.1f s\n' "$count" "$(echo "$(date +%s.%N) - $started" | bc)"
    cat > "$SCRATCH/scale.ini" <<INI
[global]
iterations = 3
$(fleet_group "$count")
[job null]
agent = fleet
workload = null
size = 1M
[job w]
agent = fleet
path = w
size = 1M
INI
    rm -rf "$SCRATCH/res"
    /usr/bin/time -f '%M %U %S %e' -o "$SCRATCH/time" \
        "$BIN/iofleet" run "$SCRATCH/scale.ini" -q --no-db -o "$SCRATCH/res" \
        > "$SCRATCH/out" 2> "$SCRATCH/err" ||
        { tail -20 "$SCRATCH/err"; keep_logs "$SCRATCH/err"; fail "the run of $count failed"; }
    ended=$(date +%s.%N)
    written=$(find "$SCRATCH/res" -type f -printf '%T@\n' | sort -n | tail -1)
    exit_s=$(echo "$ended - $written" | bc -l)
    read -r rss_kb user_s sys_s wall_s < "$SCRATCH/time"
    connected=$(sed -n 's/.*event=connected .*hello_s=\([0-9.]*\) clock_s=\([0-9.]*\).*/\1 \2/p' \
                "$SCRATCH/err")
    read -r hello_s clock_s <<< "$connected"
    # Round trips: from a test's start instant to the next one's.
    trips=$(python3 - "$SCRATCH/res/results.json" <<'PY'
import json, sys, statistics
tests = json.load(open(sys.argv[1]))["tests"]
def trip(name):
    runs = [t for t in tests if t["name"] == name]
    gaps = []
    for a, b in zip(runs, runs[1:]):
        window = (a["summary"]["last_end_ns"] - min(0, a["summary"]["first_start_ns"])) / 1e9
        gaps.append((b["announced_wall_ns"] - a["announced_wall_ns"]) / 1e9 - max(window, 0))
    return statistics.median(gaps)
w = [t for t in tests if t["name"] == "w"]
assert all(t["summary"]["failed_streams"] == 0 for t in tests), "a stream failed"
worst = max((t["summary"] for t in tests if t["name"] == "null"),
            key=lambda s: s["host_skew_ns"] + s["clock_uncertainty_ns"])
print("%.3f %.3f %.3f %.3f %.3f %.3f" % (trip("null"), trip("w"),
      statistics.median((t["summary"]["last_end_ns"] - t["summary"]["first_start_ns"]) / 1e9 for t in w),
      (worst["host_skew_ns"] + worst["clock_uncertainty_ns"]) / 1e6,
      worst["host_skew_ns"] / 1e6, worst["clock_uncertainty_ns"] / 1e6))
PY
)
    read -r null_s write_s write_window_s skew_ms skew_only_ms uncertainty_ms <<< "$trips"
    # The agents now idle: their RSS, and their ticks over idle_s.
    rss=$(for pid in "${FLEET[@]}"; do awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; done | sort -n)
    rss_median=$(median "$rss")
    rss_max=$(echo "$rss" | tail -1)
    before=$(cpu_ticks "${FLEET[@]}")
    sleep "$idle_s"
    idle_ticks=$(( $(cpu_ticks "${FLEET[@]}") - before ))
    anon=$(for pid in "${FLEET[@]}"; do awk '/^RssAnon/ { print $2 }' "/proc/$pid/status"; done | sort -n)
    # As many bare processes started at one instant as there are agents.
    floor=$("$SCRATCH/wakefloor" "$count") || fail "wakefloor $count failed"
    floor_ms=$(echo "${floor##*spread_ns=}" | awk '{ print $1 / 1e6 }')
    results+=("$(printf '%6d  %6.3f + %6.3f s  %7.3f s %7.3f ms  %7.3f s (window %.3f)  %6.1f MB  %5.2f s  %5.2f s  %5.1f / %5.1f MiB  %d ticks' \
        "$count" "$hello_s" "$clock_s" "$null_s" "$skew_ms" "$write_s" "$write_window_s" \
        "$(echo "$rss_kb / 1000" | bc -l)" "$(echo "$user_s + $sys_s" | bc)" "$exit_s" \
        "$(echo "$rss_median / 1024" | bc -l)" "$(echo "$rss_max / 1024" | bc -l)" "$idle_ticks")")
    echo "${results[-1]}"
    ratio=-
    [ "$(echo "$floor_ms > 0" | bc -l)" = 0 ] ||
        ratio=$(printf '%.2f' "$(echo "$skew_only_ms / $floor_ms" | bc -l)")
    results+=("$(printf '        null test: host skew %.3f ms + clock uncertainty %.3f ms; %d bare processes started at one instant: %.3f ms (skew / that: %s)' \
        "$skew_only_ms" "$uncertainty_ms" "$count" "$floor_ms" "$ratio")")
    results+=("$(printf '        agents idle: RssAnon median / max %.1f / %.1f MiB (the rest of their RSS is pages of shared libraries)' \
        "$(echo "$(median "$anon") / 1024" | bc -l)" "$(echo "$(echo "$anon" | tail -1) / 1024" | bc -l)")")
    printf '%s\n' "${results[@]: -2}"
    [ "$count" != 1 ] || target "fixed cost of a test on 1 agent (s)" "$null_s" 0.2
    target "null test host skew at $count (ms, clock uncertainty included)" "$skew_ms" 5
    if [ "$count" = 1024 ]; then
        target "hello + clock at 1024 (s)" "$(echo "$hello_s + $clock_s" | bc -l)" 3
        target "null test round trip at 1024 (s)" "$null_s" 1
        target "coordinator peak RSS at 1024 (kB)" "$rss_kb" 65536
    fi
    target "coordinator's exit after its results at $count (s)" "$exit_s" 1
    target "agent idle RSS at $count (KiB)" "$rss_max" 8192
    target "agent idle ticks at $count" "$idle_ticks" 1
    if [ -z "$page_done" ] && [ "$count" -ge 256 ]; then
        page_sizes "$count"
        page_done=1
    fi
    stop_fleet
done

echo
echo "agents  hello + clock sync    null test  host skew   1 MB write test            coordinator                agent idle RSS        CPU in ${idle_s} s"
echo "                              (fixed)    (null, ±)   (round trip)               peak RSS  CPU      exit    median / max          all agents (${ticks_per_s}/s)"
printf '%s\n' "${results[@]}"
[ -z "$page_done" ] || { echo; echo "$PAGE_LINE"; }
if [ ${#over[@]} -gt 0 ]; then
    echo
    printf 'over: %s\n' "${over[@]}"
    exit 1
fi
