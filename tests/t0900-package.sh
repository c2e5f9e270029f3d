#!/usr/bin/env bash
# The Debian packages: `make deb` builds iofleet and iofleet-agent (lintian
# without errors), dpkg installs both into a scratch root with its own
# admin directory, and the installed programs run a real write scenario
# against each other: two agents started by the unit's own ExecStart line
# with config files made from the packaged example config. Also checks
# that the package created the system user and the unit in that root and
# that `systemd-analyze verify` accepts the installed unit.
# runs once: it builds and installs the packages itself
. "$(dirname "$0")/lib.sh"

start=$(date +%s)
make --no-print-directory -C "$TOP" deb B="$SCRATCH/b" > "$SCRATCH/deb.log" 2>&1 ||
    { tail -40 "$SCRATCH/deb.log"; fail "make deb failed"; }
echo "make deb: $(( $(date +%s) - start )) s"
grep '^[EW]:' "$SCRATCH/b/deb/lintian.txt" && echo "(lintian warnings above)"
grep -q '^E:' "$SCRATCH/b/deb/lintian.txt" && fail "lintian reports errors"
version=$(sed -n 's/^#define IOFLEET_VERSION "\(.*\)"$/\1/p' "$TOP/proto/version.h")
debs=("$SCRATCH/b/deb/iofleet_${version}_"*.deb "$SCRATCH/b/deb/iofleet-agent_${version}_"*.deb)
[ -f "${debs[0]}" ] && [ -f "${debs[1]}" ] || fail "no packages for version $version"

# A scratch root of our own: dpkg runs the maintainer scripts outside a
# chroot with DPKG_ROOT set, so they act on the scratch root only. The
# libraries are the host's, which dpkg cannot know: --force-depends.
R=$SCRATCH/root
host_users=$(md5sum < /etc/passwd)
mkdir -p "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/info"
touch "$R/var/lib/dpkg/status"
dpkg --instdir="$R" --admindir="$R/var/lib/dpkg" --log="$SCRATCH/dpkg.log" \
    --force-script-chrootless --force-depends -i "${debs[@]}" > "$SCRATCH/install.log" 2>&1 ||
    { cat "$SCRATCH/install.log"; fail "dpkg -i failed"; }
dpkg --admindir="$R/var/lib/dpkg" -l iofleet iofleet-agent | grep -E '^ii +iofleet ' ||
    fail "iofleet not installed"
for f in usr/bin/iofleet usr/bin/iofleet-agent etc/iofleet/agent.conf \
         lib/systemd/system/iofleet-agent.service usr/lib/sysusers.d/iofleet-agent.conf \
         usr/share/man/man1/iofleet.1.gz usr/share/man/man5/iofleet-scenario.5.gz \
         usr/share/man/man8/iofleet-agent.8.gz usr/share/man/man7/iofleet.7.gz \
         usr/share/bash-completion/completions/iofleet \
         usr/share/bash-completion/completions/iofleet-agent; do
    [ -e "$R/$f" ] || fail "the packages do not install /$f"
done
grep -q '^iofleet:' "$R/etc/passwd" || fail "the package did not create the user iofleet"
[ "$(md5sum < /etc/passwd)" = "$host_users" ] || fail "the scratch install changed the host's users"
[ -L "$R/etc/systemd/system/multi-user.target.wants/iofleet-agent.service" ] ||
    fail "the unit is not enabled in the scratch root"
"$R/usr/bin/iofleet" --version | grep -q "^iofleet $version " || fail "installed iofleet --version"

# The installed unit, verified with its paths pointing into the scratch
# root (systemd is not PID 1 here, and nothing is installed on the host).
unit=$R/lib/systemd/system/iofleet-agent.service
mkdir -p "$SCRATCH/unit"
sed "s|/usr/bin/|$R/usr/bin/|g; s|/etc/iofleet/|$R/etc/iofleet/|g" "$unit" \
    > "$SCRATCH/unit/iofleet-agent.service"
MANPATH=$R/usr/share/man systemd-analyze verify "$SCRATCH/unit/iofleet-agent.service" ||
    fail "systemd-analyze verify refuses the unit"
grep -q '^Type=notify$' "$unit" || fail "the unit is not Type=notify"
grep -q '^User=iofleet$' "$unit" || fail "the unit does not run as iofleet"

# Two agents, each started by the unit's ExecStart line (paths into the
# scratch root) with a config made from the example: a root in the
# scratch directory and a free loopback port.
execstart=$(sed -n 's/^ExecStart=//p' "$SCRATCH/unit/iofleet-agent.service")
for a in a1 a2; do
    mkdir -p "$SCRATCH/$a"
    sed -e "s|^bind = .*|bind = tcp://127.0.0.1:*|" -e "s|^root = .*|root = $SCRATCH/$a|" \
        -e "s|^; name = .*|name = $a|" "$R/etc/iofleet/agent.conf" > "$SCRATCH/$a.conf"
    # shellcheck disable=SC2086
    ${execstart//$R\/etc\/iofleet\/agent.conf/$SCRATCH/$a.conf} 2>"$SCRATCH/$a.log" &
    PIDS+=($!)
    wait_bound "$a"
    eval "E_$a=\$ENDPOINT"
done
grep -q "agent=a1 event=root dir=$SCRATCH/a1" "$SCRATCH/a1.log" || fail "a1 did not take its root"

cat > "$SCRATCH/write.ini" <<INI
[global]
bs = 1M
[agent a1]
endpoint = $E_a1
[agent a2]
endpoint = $E_a2
[job w1]
test = pair
agent = a1
path = pair
size = 16M
keep = yes
[job w2]
test = pair
agent = a2
path = pair
size = 16M
streams = 2
keep = yes
INI
RESULTS=$SCRATCH/results
"$R/usr/bin/iofleet" run -q "$SCRATCH/write.ini" -o "$RESULTS" > "$SCRATCH/report.txt" ||
    { cat "$SCRATCH/report.txt"; fail "the installed iofleet run exited $?"; }
cat "$SCRATCH/report.txt"
grep -qE '^pair +3 ' "$SCRATCH/report.txt" || fail "no report row for test pair with 3 streams"
[ "$(stat -c %s "$SCRATCH/a1/pair")" = $((16 << 20)) ] || fail "a1 did not write 16M"
[ "$(stat -c %s "$SCRATCH/a2/pair.2")" = $((16 << 20)) ] || fail "a2 did not write 16M"
[ "$(json 'r["tests"][0]["summary"]["bytes"]')" = $((48 << 20)) ] || fail "results bytes"

# The agent's default root is the package's, owned by its user, whether
# or not systemd's StateDirectory= ever made it.
uid=$(awk -F: '$1 == "iofleet" { print $3 }' "$R/etc/passwd")
[ -d "$R/var/lib/iofleet" ] || fail "the package did not make /var/lib/iofleet"
[ "$(stat -c '%u %a' "$R/var/lib/iofleet")" = "$uid 750" ] ||
    fail "/var/lib/iofleet is $(stat -c '%u %a' "$R/var/lib/iofleet"), not owned by iofleet ($uid) 750"

# The shipped seeds run as they stand against a packaged agent: their
# paths are relative to its root. Only the size is cut for this machine.
examples=$R/usr/share/doc/iofleet/examples
for f in "$TOP"/configs/seeds/*.ini "$TOP"/configs/demo.ini; do
    [ -f "$examples/${f##*/}" ] || fail "the console package does not ship ${f##*/}"
done
grep -n '/data/iofleet' "$examples"/*.ini && fail "a shipped example names /data/iofleet"
# The drop-in that the agent's drop_caches error names is in the package.
dropin=$(grep -ao '/usr/share/doc/iofleet-agent/examples/[a-z.-]*' "$R/usr/bin/iofleet-agent" | head -1)
[ -n "$dropin" ] && [ -f "$R$dropin" ] || fail "the agent names a drop-in '$dropin' it does not ship"
sed -e 's/^size = .*/size = 4M/' -e 's/^iterations = .*/iterations = 1/' \
    "$examples/dd.ini" > "$SCRATCH/dd.ini"
"$R/usr/bin/iofleet" run -q "$SCRATCH/dd.ini" --agent "client=$E_a1" -o "$SCRATCH/dd" \
    > "$SCRATCH/dd.txt" 2>&1 || { cat "$SCRATCH/dd.txt"; fail "the shipped dd seed exited $?"; }
grep -qE '^dd3-dir +3 ' "$SCRATCH/dd.txt" || { cat "$SCRATCH/dd.txt"; fail "no row for dd3-dir"; }

# Every workload the console knows is named in the agent's description.
description=$(dpkg-deb -f "${debs[1]}" Description)
for workload in $("$R/usr/bin/iofleet" run --help | sed -n 's/.*\[\(null|.*\)\]$/\1/p' | tr '|' ' '); do
    grep -qw "$workload" <<< "$description" ||
        fail "the description of iofleet-agent does not name the workload $workload"
done

# Purged, the packages leave nothing of iofleet in the root: no file, no
# directory, no user or group.
for pid in "${PIDS[@]}"; do kill "$pid"; wait "$pid" || true; done
PIDS=()
dpkg --instdir="$R" --admindir="$R/var/lib/dpkg" --log="$SCRATCH/dpkg.log" \
    --force-script-chrootless --force-depends -P iofleet iofleet-agent > "$SCRATCH/purge.log" 2>&1 ||
    { cat "$SCRATCH/purge.log"; fail "dpkg -P failed"; }
left=$(find "$R" -path "$R/var/lib/dpkg" -prune -o -printf "/%P\n" | grep -i iofleet || true)
[ -z "$left" ] || { echo "$left"; fail "dpkg -P left files of iofleet"; }
grep -h '^iofleet:' "$R/etc/passwd" "$R/etc/group" "$R/etc/shadow" "$R/etc/gshadow" 2>/dev/null &&
    fail "dpkg -P left the user or group iofleet"
[ "$(md5sum < /etc/passwd)" = "$host_users" ] || fail "the scratch purge changed the host's users"
echo "package: ok"
