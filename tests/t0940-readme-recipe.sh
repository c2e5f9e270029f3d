#!/usr/bin/env bash
# README's two-machine recipe, followed as written: its shell blocks
# (each after a `<!-- recipe: STEP -->` line) run in order, the client's
# in a network namespace of its own with real CURVE keys, the console's in
# the root namespace. What the test changes, and only that: `make` is the
# build under test (a directory per host, holding a link to it), CLIENT is
# the client's address, /data/iofleet is a directory of the scratch space,
# the public keys are copied as the prose says, and the dd seed is cut to
# 4M a stream and one iteration.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/netns.sh"

# recipe STEP: the commands of README's block for STEP, with the test's
# substitutions.
recipe () {
    sed -n "/^<!-- recipe: $1 -->\$/,/^\`\`\`\$/p" "$TOP/README.md" |
        sed -e '1,2d' -e '$d' |
        sed -e "s#/data/iofleet#$SCRATCH/data/iofleet#g" -e "s#CLIENT#$CLIENT#g"
}

netns_up
netns_host client 2
CLIENT=$HOST_ADDR
for step in client console agent run; do
    [ -n "$(recipe "$step")" ] || fail "README has no recipe block for $step"
done

# A host: a directory with the build and the checkout's configs; `make`
# there finds the programs built.
for host in client console; do
    mkdir -p "$SCRATCH/$host"
    ln -s "$BIN" "$SCRATCH/$host/build"
    mkdir -p "$SCRATCH/$host/configs/seeds"
    sed -e 's/^size = .*/size = 4M/' -e 's/^iterations = .*/iterations = 1/' -e "s#/data/iofleet#$SCRATCH/data/iofleet#g" \
        "$TOP/configs/seeds/dd.ini" > "$SCRATCH/$host/configs/seeds/dd.ini"
done
cat > "$SCRATCH/make" <<'SH'
#!/bin/sh
# The recipe's `make`: the programs of the build under test are there.
[ -x build/iofleet ] && [ -x build/iofleet-agent ]
SH
chmod +x "$SCRATCH/make"
export PATH="$SCRATCH:$PATH"

(cd "$SCRATCH/client" && netns_exec client bash -eux -c "$(recipe client)") ||
    fail "the client's recipe failed"
(cd "$SCRATCH/console" && bash -eux -c "$(recipe console)") || fail "the console's recipe failed"
[ -d "$SCRATCH/data/iofleet" ] || fail "the client's recipe made no /data/iofleet"

# "Give each side the other's public key", and only that.
cp "$SCRATCH/console/keys/console.key" "$SCRATCH/client/keys/"
cp "$SCRATCH/client/keys/client.key" "$SCRATCH/console/keys/"

cd "$SCRATCH/client"
netns_exec client bash -eu -c "exec $(recipe agent)" 2>"$SCRATCH/client.log" &
PIDS+=($!)
wait_bound client

cd "$SCRATCH/console"
bash -eux -c "$(recipe run)" > "$SCRATCH/run.txt" 2>&1 ||
    { cat "$SCRATCH/run.txt"; fail "the console's recipe failed"; }
cat "$SCRATCH/run.txt"
grep -q '^client ' "$SCRATCH/run.txt" || fail "ping printed no line for client"
for t in dd1 dd1-dir dd2 dd2-dir dd3 dd3-dir; do
    grep -qE "^$t +[123] " results/first/report.txt || fail "no report row for $t"
done
RESULTS=$SCRATCH/console/results/first
[ "$(json 'r["agents"][0]["insecure"]')" = False ] || fail "the run was not authenticated"
echo "readme recipe: ok"
