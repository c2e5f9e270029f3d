#!/bin/sh
# Build the Debian packages iofleet and iofleet-agent into OUT (build/deb):
#
#   scripts/deb.sh OUT
#
# dpkg-buildpackage writes its packages beside the source tree, so the
# source is copied into OUT/iofleet-VERSION first (the checkout's files,
# committed or not, without build trees), and debian/changelog is written
# there from IOFLEET_VERSION in proto/version.h, the one place the version
# is kept. Then lintian checks the result; its report is OUT/lintian.txt.
set -eu
out=${1:-build/deb}
top=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^#define IOFLEET_VERSION "\(.*\)"$/\1/p' "$top/proto/version.h")
[ -n "$version" ] || { echo "deb: no IOFLEET_VERSION in proto/version.h" >&2; exit 1; }
case $out in /*) ;; *) out=$top/$out ;; esac
src=$out/iofleet-$version

rm -rf "$out"
mkdir -p "$src"
cd "$top"
if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$src"
else
    tar -cf - --exclude='./build*' --exclude=./results . | tar -xf - -C "$src"
fi

# The date of the last commit keeps a rebuild of the same tree the same.
date=$(git log -1 --format=%cD 2>/dev/null || date -R)
cat > "$src/debian/changelog" <<CHANGELOG
iofleet ($version) unstable; urgency=medium

  * iofleet $version.

 -- iofleet maintainers <maintainers@iofleet.example>  $date
CHANGELOG

# A make that called us must not hand its variables (B=...) to the
# package's own build.
cd "$src"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
    dpkg-buildpackage --build=binary --no-sign >"$out/build.log" 2>&1 || {
    tail -40 "$out/build.log" >&2
    echo "deb: dpkg-buildpackage failed; the whole log is $out/build.log" >&2
    exit 1
}
cd "$out"
ls ./*.deb
# Errors fail the build; warnings and notes are shown.
lintian --info --display-info ./*.changes >lintian.txt 2>&1 || true
cat lintian.txt
if grep -q '^E:' lintian.txt; then
    echo "deb: lintian found errors" >&2
    exit 1
fi
