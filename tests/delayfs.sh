# Shared by the scripts that need a host slow on purpose (t0530, t0469,
# the corpus), after tests/lib.sh: tests/bench/delayfs.c built and
# mounted under SCRATCH, each mount unmounted and its process stopped by
# the cleanup of lib.sh; what each counted (delayfs_stats); and the
# scenario of a fleet with one slow host.

# delayfs_build: $SCRATCH/delayfs, or the test fails.
delayfs_build () {
    pkg-config --exists fuse3 || fail "libfuse3 missing: make deps-test"
    [ -c /dev/fuse ] || fail "no /dev/fuse"
    cc -O2 -Wall -Wextra -Werror "$TOP/tests/bench/delayfs.c" $(pkg-config --cflags --libs fuse3) \
        -o "$SCRATCH/delayfs" || fail "delayfs does not build"
}

# delayfs_mount NAME DELAY_US [WINDOW [FUSE OPTIONS...]]: a delayfs of
# its own at $SCRATCH/mnt-NAME, its requests held DELAY_US (within
# WINDOW, as delayfs.c's DELAYFS_WINDOW, if not empty), with the FUSE
# options given (-o max_threads=N ...). DELAYFS_SLEEP in the caller's
# environment reaches it.
delayfs_mount () {
    local name=$1 delay_us=$2 window=${3:-}
    local mnt=$SCRATCH/mnt-$name
    shift $(($# < 3? $#: 3))
    mkdir -p "$mnt"
    env ${window:+DELAYFS_WINDOW=$window} "$SCRATCH/delayfs" "$delay_us" 64 "$mnt" -f "$@" \
        2> "$SCRATCH/delayfs-$name.log" &
    PIDS+=($!)
    MOUNTS+=("$mnt")
    for _ in $(seq 100); do
        mountpoint -q "$mnt" && return 0
        sleep 0.05
    done
    cat "$SCRATCH/delayfs-$name.log" >&2
    fail "delayfs $name did not mount"
}

# delayfs_depth_mount NAME DELAY_US DEPTH: a delayfs for DEPTH requests
# in flight, each sleeping its whole DELAY_US (no final spin: DEPTH of
# them would spin as many CPUs). The kernel hands a FUSE mount at most
# max_background asynchronous requests at once (12 unless raised), and
# io_uring's O_DIRECT requests are such; libfuse 3.14 serves them with
# 10 threads unless max_threads says. Both are twice DEPTH: a request
# past DEPTH would be held and seen. Measured on a 2-CPU machine, one
# stream at iodepth 32, 1 ms a request: 9.1k requests/s with neither
# raised (the file system's peak 10), 11.0k with max_threads alone
# (peak 12), 26.2k with both (peak 32).
delayfs_depth_mount () {
    DELAYFS_SLEEP=1 delayfs_mount "$1" "$2" "" -o max_threads=$((2 * $3)) \
        -o max_background=$((2 * $3))
}

# delayfs_stats NAME [KEY]: the counts of the delayfs NAME (the line of
# its .stats: reads= writes= fsyncs= in_flight= peak=), or the one of
# KEY. delayfs_reset NAME sets them to zero.
delayfs_stats () {
    local line
    line=$(cat "$SCRATCH/mnt-$1/.stats") || fail "delayfs $1 gives no counts"
    if [ $# -lt 2 ]; then
        echo "$line"
        return
    fi
    echo "$line" | tr ' ' '\n' | sed -n "s/^$2=//p"
}
delayfs_reset () {
    echo 0 > "$SCRATCH/mnt-$1/.stats" || fail "delayfs $1 does not reset its counts"
}

# delayfs_tail_scenario: four agents started, each reading 4K direct from
# a delayfs of its own at a fixed request rate for 6 s, 500 ms intervals;
# a3's holds every request 50 ms (past what a loaded machine's scheduler
# adds to the others), but only from 2 s after its first request for
# 1 s, and a3 asks less of it: its slow second is over 1% of the
# requests of its intervals and under 1% of the test's. The scenario
# goes to stdout.
delayfs_tail_scenario () {
    local a rate
    printf '[global]\ninterval = 500ms\nsettle = 0\n'
    for a in a1 a2 a3 a4; do
        if [ "$a" = a3 ]; then
            delayfs_mount "$a" 50000 2000:1000
        else
            delayfs_mount "$a" 1
        fi
        start_agent "$a" --root "$SCRATCH/mnt-$a"
        printf '[agent %s]\nendpoint = %s\n' "$a" "$ENDPOINT"
        rate=200
        [ "$a" = a3 ] && rate=40
        printf '[job rd-%s]\ntest = rd\nagent = %s\nworkload = read\npath = %s\nbs = 4K\n' \
            "$a" "$a" "$SCRATCH/mnt-$a/data"
        printf 'direct = yes\nruntime = 6s\nrate_iops = %s\n' "$rate"
    done
}
