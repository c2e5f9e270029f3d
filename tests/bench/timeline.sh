#!/usr/bin/env bash
# The cost of latency timelines at the size of a fleet, on loopback: part
# of make bench-scale.
#
# Starts TIMELINE_AGENTS agents (1024) on this machine (ports
# SCALE_PORT+1 ..., as scale.sh) and runs one time-bound test of random
# 4K reads on every one of them, TIMELINE_SECONDS (20) long, with 1 s
# intervals, each stream paced at TIMELINE_IOPS (20) requests a second, and a
# lease of 30 s: 1024 agents share two cores here.
# Prints:
#
#   wire       the INTERVAL messages the console received (its event=wire
#              line): their count, bytes per agent per second of the
#              test, and bytes per message
#   console    peak RSS and CPU seconds of `iofleet run`
#   timeline   the intervals the fleet's timeline holds, and results.json's
#              size
#
# Targets: < 2 kB/s per agent on the wire, the console < 128 MB. A figure
# past its target is marked "over" and the script exits 1.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"
. "$top/tests/bench/fleet.sh"

count=${TIMELINE_AGENTS:-1024}
seconds=${TIMELINE_SECONDS:-20}
iops=${TIMELINE_IOPS:-20}
base=${SCALE_PORT:-20000}

hard=$(ulimit -Hn)
[ "$hard" = unlimited ] || [ "$hard" -ge $((count * 4 + 64)) ] ||
    fail "the hard limit of open files ($hard) is too low for $count agents: raise it (ulimit -Hn)"
[ "$hard" = unlimited ] || ulimit -Sn "$hard"
[ $((base + count)) -lt 32768 ] || fail "SCALE_PORT $base + $count agents passes 32767"
ports_free $((base + 1)) $((base + count)) ||
    fail "a port in $((base + 1))..$((base + count)) is taken: give SCALE_PORT"

mkdir -p "$SCRATCH/logs"
start_fleet "$count"
cat > "$SCRATCH/timeline.ini" <<INI
[global]
interval = 1s
lease = 30s
$(fleet_group "$count")
[job rd]
agent = fleet
workload = randrw
mode = rndrd
path = rd
files = 1
size = 1M
bs = 4K
runtime = ${seconds}s
rate_iops = $iops
INI
/usr/bin/time -f '%M %U %S %e' -o "$SCRATCH/time" \
    "$BIN/iofleet" run "$SCRATCH/timeline.ini" -q --no-db -o "$SCRATCH/res" \
    > "$SCRATCH/out" 2> "$SCRATCH/err" ||
    { tail -20 "$SCRATCH/err"; fail "the run of $count agents failed"; }
stop_fleet
read -r rss_kb user_s sys_s wall_s < "$SCRATCH/time"
wire=$(sed -n 's/.*event=wire type=interval messages=\([0-9]*\) bytes=\([0-9]*\).*/\1 \2/p' \
       "$SCRATCH/err")
[ -n "$wire" ] || fail "the console received no INTERVAL"
read -r messages bytes <<< "$wire"
intervals=$(python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
assert t["summary"]["failed_streams"] == 0, "a stream failed"
print(len(t["latency_timeline"]["intervals"]))' "$SCRATCH/res/results.json")

per_agent_s=$(echo "$bytes / $count / $seconds" | bc -l)
rss_mb=$(echo "$rss_kb / 1024" | bc -l)
printf 'timeline: %d agents, %d s of %d requests/s each, 1 s intervals\n' "$count" "$seconds" "$iops"
printf 'wire      %d INTERVAL messages, %.0f bytes per agent per second, %.0f bytes per message\n' \
    "$messages" "$per_agent_s" "$(echo "$bytes / $messages" | bc -l)"
printf 'console   peak RSS %.1f MB, CPU %.1f s user %.1f s system over %.1f s\n' \
    "$rss_mb" "$user_s" "$sys_s" "$wall_s"
printf 'timeline  %d intervals of the fleet, results.json %.0f kB\n' "$intervals" \
    "$(echo "$(stat -c %s "$SCRATCH/res/results.json") / 1000" | bc -l)"
over=()
[ "$(echo "$per_agent_s >= 2000" | bc -l)" = 0 ] || over+=("wire bytes per agent per second")
[ "$(echo "$rss_mb >= 128" | bc -l)" = 0 ] || over+=("console peak RSS")
if [ ${#over[@]} -gt 0 ]; then
    printf 'over: %s\n' "${over[@]}"
    exit 1
fi
