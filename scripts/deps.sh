#!/bin/sh
# Install the Debian packages iofleet needs, if any is missing:
#
#   scripts/deps.sh build    what `make` needs to build the programs
#   scripts/deps.sh deb      that, and what `make deb` needs to package them
#   scripts/deps.sh test     all of the above, and what the tests, `make demo`,
#                            `make bench` and `make fuzz` need (an NFS server,
#                            a browser, fio, clang, ...)
#
# apt-get needs root; otherwise say what to run.
set -eu

build="build-essential pkg-config
    libzmq3-dev libczmq-dev libmsgpack-dev libnfs-dev
    libinih-dev libjansson-dev libsqlite3-dev liburing-dev lowdown
    libmicrohttpd-dev"
deb="debhelper dpkg-dev lintian"
test="libcmocka-dev libnfs-utils
    iproute2 fio python3-six bonnie++ sysbench coreutils python3 chromium git
    clang libclang-rt-14-dev tcpdump strace libfuse3-dev
    nfs-ganesha nfs-ganesha-vfs rpcbind
    systemd man-db
    tmux prometheus curl"

case "${1:-build}" in
    build) packages=$build ;;
    deb)   packages="$build $deb" ;;
    test)  packages="$build $deb $test" ;;
    *)     echo "usage: $0 build|deb|test" >&2; exit 2 ;;
esac

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
