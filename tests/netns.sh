# Network namespaces as hosts, for integration tests that need machines
# that really are apart on the network. Source it after lib.sh (as root):
#
#   netns_up                 a bridge in the root namespace, address .1 of a
#                            private /24 picked at random in 10.231.0.0/16
#                            (one no interface here uses yet); sets SUBNET
#   netns_host NAME INDEX    a namespace (a "host") on that bridge with
#                            address $SUBNET.INDEX; sets HOST_NS, HOST_ADDR
#   netns_exec NAME CMD...   run CMD in host NAME's namespace
#   netns_agent NAME ROOT    an iofleet-agent in host NAME, bound to its
#                            address (so --insecure), root ROOT, logging to
#                            $SCRATCH/NAME.log; sets ENDPOINT
#
# The coordinator stays in the root namespace and reaches every host over
# the bridge. The trap installed here stops, by pid, every process left in
# the namespaces (agents, rpcbind, ganesha), deletes the namespaces and the
# bridge, then runs lib.sh's cleanup. Names carry this shell's pid, so two
# runs side by side do not meet, and neither do their subnets.

NETNS_TAG="iof$$"
NETNS_BRIDGE="${NETNS_TAG}br"
NETNS_HOSTS=()
SUBNET=
NETNS_LOCK=$(realpath "${BASH_SOURCE[0]}")     # see netns_up

# The namespace of host NAME.
netns_name () {
    echo "${NETNS_TAG}-$1"
}

# Stop whatever still runs in our namespaces, then remove them.
netns_down () {
    local ns pid
    for ns in "${NETNS_HOSTS[@]}"; do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do
            kill "$pid" 2>/dev/null || true
        done
    done
    for ns in "${NETNS_HOSTS[@]}"; do
        # ganesha takes seconds to shut down cleanly; a test server
        # need not, so after a second it is killed.
        for _ in $(seq 10); do
            [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break
            sleep 0.1
        done
        for pid in $(ip netns pids "$ns" 2>/dev/null); do
            kill -9 "$pid" 2>/dev/null || true
        done
        ip netns delete "$ns" 2>/dev/null || true
    done
    NETNS_HOSTS=()
    ip link delete "$NETNS_BRIDGE" 2>/dev/null || true
}

netns_cleanup_all () {
    netns_down
    cleanup
}
trap netns_cleanup_all EXIT

# A /24 in 10.231.0.0/16 that no address or route of this machine uses.
netns_pick_subnet () {
    local n
    for _ in $(seq 50); do
        n=$(( (RANDOM % 230) + 20 ))
        if ! ip -4 addr show | grep -q "inet 10\.231\.$n\." &&
           ! ip -4 route show | grep -q "^10\.231\.$n\."; then
            echo "10.231.$n"
            return 0
        fi
    done
    fail "no free 10.231.x.0/24 subnet"
}

# Two scripts run side by side (tests/run.sh) pick theirs one after the
# other, under a lock on this file: the subnet is taken (its address on
# the bridge) before the lock is let go.
netns_up () {
    [ "$(id -u)" = 0 ] || fail "network namespaces need root"
    local lock
    exec {lock}< "$NETNS_LOCK"
    flock "$lock"
    SUBNET=$(netns_pick_subnet)
    ip link add "$NETNS_BRIDGE" type bridge || fail "cannot create bridge $NETNS_BRIDGE"
    ip addr add "$SUBNET.1/24" dev "$NETNS_BRIDGE"
    ip link set "$NETNS_BRIDGE" up
    exec {lock}>&-
}

netns_host () {
    local name=$1 index=$2
    local ns
    ns=$(netns_name "$name")
    local outside="${NETNS_TAG}h$index" inside="eth0"
    ip netns add "$ns" || fail "cannot create namespace $ns"
    NETNS_HOSTS+=("$ns")
    ip link add "$outside" type veth peer name "${NETNS_TAG}n$index"
    ip link set "${NETNS_TAG}n$index" netns "$ns"
    ip netns exec "$ns" ip link set "${NETNS_TAG}n$index" name "$inside"
    ip link set "$outside" master "$NETNS_BRIDGE"
    ip link set "$outside" up
    ip netns exec "$ns" ip addr add "$SUBNET.$index/24" dev "$inside"
    ip netns exec "$ns" ip link set "$inside" up
    ip netns exec "$ns" ip link set lo up
    HOST_NS=$ns
    HOST_ADDR=$SUBNET.$index
}

netns_exec () {
    local ns
    ns=$(netns_name "$1")
    shift
    ip netns exec "$ns" "$@"
}

# netns_agent NAME ROOT [extra flags...]
netns_agent () {
    local name=$1 root=$2 addr
    shift 2
    local ns
    ns=$(netns_name "$name")
    addr=$(ip netns exec "$ns" ip -4 -o addr show dev eth0 | sed -n 's/.* inet \([0-9.]*\)\/.*/\1/p')
    mkdir -p "$root"
    ip netns exec "$ns" "$BIN/iofleet-agent" --bind "tcp://$addr:7654" --insecure \
        --name "$name" --root "$root" "$@" 2>"$SCRATCH/$name.log" &
    PIDS+=($!)
    wait_bound "$name"
}
