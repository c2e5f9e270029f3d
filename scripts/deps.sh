#!/bin/sh
# Install the Debian packages iofleet needs to build, test and run its
# demo, if any is missing. apt-get needs root; otherwise say what to run.
set -eu

packages="build-essential pkg-config
    libzmq3-dev libczmq-dev libmsgpack-dev libnfs-dev libnfs-utils
    libinih-dev libjansson-dev libcmocka-dev libsqlite3-dev
    iproute2 fio coreutils python3 chromium git
    clang libclang-rt-14-dev tcpdump
    nfs-ganesha nfs-ganesha-vfs rpcbind"

missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
    echo "deps: missing Debian packages:$missing" >&2
    echo "deps: run as root: apt-get install$missing" >&2
    exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
