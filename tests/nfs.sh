# A real NFS server in userspace for integration tests: rpcbind and
# nfs-ganesha (VFS backend) exporting a scratch directory. Source it after
# tests/netns.sh (as root).
#
#   nfs_start HOST DIR       serve DIR over NFSv3 and v4 (TCP) from host
#                            HOST (a netns_host), bound to its address;
#                            waits until the export answers. Sets NFS_URL
#                            to nfs://ADDR/DIR, the export's v3 URL.
#   nfs_server DIR           the short way when the test needs no other
#                            hosts: a bridge and one host "nfs" (.2) that
#                            serves DIR; agents in the root namespace reach
#                            it at $NFS_ADDR.
#
# Why a namespace even for one server: rpcbind owns port 111 of its network
# namespace and ganesha registers there, so a server in the root namespace
# would clash with (or break) an rpcbind the machine already runs, and with
# other test runs. Inside its own namespace, rpcbind also gets a private
# /run (unshare -m, a tmpfs), so its socket and lock files meet no one's.
# netns.sh's trap stops rpcbind and ganesha with the rest of the namespace.
#
# The agent on the server host writes the exported files directly, behind
# ganesha's back: Attr_Expiration_Time = 0 makes ganesha ask the file
# system for sizes every time instead of serving ones it cached.
#
# NFSv4 clients would wait for the grace period after start; Graceless
# skips it, so ?version=4 URLs work at once too (pseudo path /export).

NFS_URL=
NFS_ADDR=

nfs_start () {
    local host=$1 dir=$2
    local ns addr conf
    ns=$(netns_name "$host")
    addr=$(ip netns exec "$ns" ip -4 -o addr show dev eth0 | sed -n 's/.* inet \([0-9.]*\)\/.*/\1/p')
    [ -n "$addr" ] || fail "host $host has no address"
    command -v ganesha.nfsd >/dev/null || fail "ganesha.nfsd missing: make deps"
    mkdir -p "$dir"
    conf="$SCRATCH/ganesha-$host.conf"
    cat > "$conf" <<CONF
NFS_CORE_PARAM {
    Protocols = 3, 4;
    Bind_addr = $addr;
}
NFSV4 {
    Graceless = true;
}
EXPORT {
    Export_Id = 1;
    Path = $dir;
    Pseudo = /export;
    Access_Type = RW;
    Squash = No_Root_Squash;
    Transports = TCP;
    Protocols = 3, 4;
    Attr_Expiration_Time = 0;
    FSAL { Name = VFS; }
}
CONF
    # ganesha daemonizes; its pid is in the pid file, rpcbind's is found
    # among the namespace's pids at the end.
    ip netns exec "$ns" unshare -m sh -c \
        "mount -t tmpfs tmpfs /run && rpcbind -w && exec ganesha.nfsd -f '$conf' \
            -L '$SCRATCH/ganesha-$host.log' -p '$SCRATCH/ganesha-$host.pid' -N NIV_WARN" ||
        fail "rpcbind or ganesha did not start in $ns"
    NFS_URL="nfs://$addr$dir"
    NFS_ADDR=$addr
    local i
    for i in $(seq 100); do
        if nfs-ls "$NFS_URL" >/dev/null 2>&1; then
            return 0
        fi
        sleep 0.1
    done
    tail -20 "$SCRATCH/ganesha-$host.log" >&2
    fail "the export $NFS_URL does not answer"
}

nfs_server () {
    netns_up
    netns_host nfs 2
    nfs_start nfs "$1"
}
