# Shared by the benchmarks of a fleet on loopback (scale.sh, timeline.sh),
# after tests/lib.sh: agents c0001... on ports base+1..., started and
# stopped by pid, and the group that names them. The caller sets base
# (the port before the first) and makes $SCRATCH/logs.

# fleet_group COUNT: the rest of [global] and the group of COUNT agents.
fleet_group () {
    printf 'settle = 0\nconnect_timeout = 30s\n[group fleet]\n'
    printf 'agents = c[0001-%04d]\nendpoint = tcp://127.0.0.1:{n+%d}\n' "$1" "$base"
}

# ports_free FIRST LAST: no socket listens on a port in [FIRST, LAST].
ports_free () {
    [ -z "$(ss -Htln "sport >= :$1 and sport <= :$2" 2>/dev/null)" ]
}

# start_fleet COUNT: COUNT agents c0001..., on ports base+1...; their pids
# in FLEET.
start_fleet () {
    local count=$1 i name
    FLEET=()
    for i in $(seq 1 "$count"); do
        name=$(printf 'c%04d' "$i")
        mkdir -p "$SCRATCH/roots/$name"
        "$BIN/iofleet-agent" --bind "tcp://127.0.0.1:$((base + i))" --name "$name" \
            --root "$SCRATCH/roots/$name" 2>"$SCRATCH/logs/$name.log" &
        PIDS+=($!)
        FLEET+=($!)
    done
    for _ in $(seq 600); do
        [ "$(grep -l "event=bound" "$SCRATCH"/logs/c*.log 2>/dev/null | wc -l)" -ge "$count" ] &&
            return 0
        sleep 0.1
    done
    fail "not all of $count agents started"
}

# stop_fleet: the agents of this size, by pid.
stop_fleet () {
    local pid
    for pid in "${FLEET[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${FLEET[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    PIDS=()
    rm -rf "$SCRATCH/roots" "$SCRATCH/logs"
}

