#!/usr/bin/env bash
# make demo: two agents on loopback, each with a root in a scratch
# directory, and an NFS server (rpcbind + nfs-ganesha) exporting another
# scratch directory, which is also a root of a1; run configs/demo.ini and
# print the combined report. The results directory stays in results/; the
# agents, the server and their files go.
#
# The server runs in a network namespace of its own (tests/nfs.sh says
# why), which needs root; without it the demo runs without the mix3 test.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
export IOFLEET_BIN=$top/${1:-build}
. "$top/tests/lib.sh"

scenario=$SCRATCH/demo.ini
if [ "$(id -u)" = 0 ] && command -v ganesha.nfsd >/dev/null; then
    . "$top/tests/netns.sh"
    . "$top/tests/nfs.sh"
    export_dir=$SCRATCH/export
    nfs_server "$export_dir"
    echo "demo: NFS server $NFS_ADDR exporting $export_dir ($NFS_URL)"
    sed -e "s|nfs://NFS_SERVER/EXPORT|$NFS_URL|" -e "s|EXPORT|$export_dir|" \
        "$top/configs/demo.ini" > "$scenario"
    a1_roots=(--root "$export_dir")
    a2_nfs=(--allow-nfs "$NFS_ADDR")
else
    echo "demo: not root or no ganesha.nfsd: running without the NFS test (mix3)"
    # Everything from the first mix3 job on is left out.
    sed '/^\[job mix3-source\]/,$d' "$top/configs/demo.ini" > "$scenario"
    a1_roots=()
    a2_nfs=()
fi

start_agent a1 "${a1_roots[@]}"
endpoints=(--agent "a1=$ENDPOINT")
echo "demo: agent a1 listening on $ENDPOINT, root $SCRATCH/a1"
start_agent a2 "${a2_nfs[@]}"
endpoints+=(--agent "a2=$ENDPOINT")
echo "demo: agent a2 listening on $ENDPOINT, root $SCRATCH/a2"
echo
cd "$top"
"$BIN/iofleet" run "$scenario" "${endpoints[@]}"
