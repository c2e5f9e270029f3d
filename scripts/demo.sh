#!/usr/bin/env bash
# make demo: two agents on loopback, each with a root in a scratch
# directory, run configs/demo.ini and print the combined report. The
# results directory stays in results/; the agents and their files go.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$top/${1:-build}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/iofleet-demo.XXXXXX")
pids=()
cleanup () {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$scratch"
}
trap cleanup EXIT

endpoints=()
for name in a1 a2; do
    mkdir -p "$scratch/$name"
    "$bin/iofleet-agent" --bind 'tcp://127.0.0.1:*' --name "$name" \
        --root "$scratch/$name" 2>"$scratch/$name.log" &
    pids+=($!)
    endpoint=
    for _ in $(seq 100); do
        endpoint=$(sed -n 's/.*event=bound .*endpoint=\([^ ]*\).*/\1/p' "$scratch/$name.log" | head -1)
        [ -n "$endpoint" ] && break
        sleep 0.05
    done
    [ -n "$endpoint" ] || { cat "$scratch/$name.log"; echo "demo: agent $name did not start" >&2; exit 1; }
    echo "demo: agent $name listening on $endpoint, root $scratch/$name"
    endpoints+=(--agent "$name=$endpoint")
done
echo
cd "$top"
"$bin/iofleet" run configs/demo.ini "${endpoints[@]}"
