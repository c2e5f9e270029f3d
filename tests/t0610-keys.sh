#!/usr/bin/env bash
# CURVE keys: a coordinator whose key the agent trusts runs a test; one
# whose key it does not trust gets a clear error naming the agent and the
# reason within the connect timeout, the agent logs the refused key, and
# nothing is written. A coordinator without keys is told the agent wants
# them; a secret key readable by others is refused on both sides.
. "$(dirname "$0")/lib.sh"

K=$SCRATCH/keys
"$BIN/iofleet" keygen "$K/agent" a1 >/dev/null || fail "keygen a1"
"$BIN/iofleet" keygen "$K/console" console >/dev/null || fail "keygen console"
"$BIN/iofleet" keygen "$K/stranger" console >/dev/null || fail "keygen stranger"
[ "$(stat -c %a "$K/agent/a1.key_secret")" = 600 ] || fail "secret key not 0600"
[ "$(stat -c %a "$K/agent/a1.key")" = 644 ] || fail "public key not 0644"
rc=0; "$BIN/iofleet" keygen "$K/agent" a1 2>"$SCRATCH/err" || rc=$?
[ "$rc" = 2 ] && grep -q "exists" "$SCRATCH/err" || fail "keygen overwrote a key pair"

cp "$K/console/console.key" "$K/agent/"          # the agent trusts console
cp "$K/agent/a1.key" "$K/console/"               # both coordinators know a1
cp "$K/agent/a1.key" "$K/stranger/"

start_agent a1 --keys "$K/agent"
grep -q "event=security security=curve .*trusted=1" "$SCRATCH/a1.log" || fail "agent not on CURVE"

scenario () {   # job name, path
    cat > "$SCRATCH/$1.ini" <<INI
[global]
connect_timeout = 3s
[agent a1]
endpoint = $ENDPOINT
[job $1]
agent = a1
path = $2
size = 1M
keep = yes
INI
}

# Trusted: runs, the file is there.
scenario trusted trusted-file
"$BIN/iofleet" run "$SCRATCH/trusted.ini" --keys "$K/console" -o "$SCRATCH/res1" -q \
    >"$SCRATCH/out" 2>"$SCRATCH/err" || { cat "$SCRATCH/err"; fail "trusted run failed"; }
[ "$(stat -c %s "$SCRATCH/a1/trusted-file")" = 1048576 ] || fail "trusted run wrote no file"
RESULTS=$SCRATCH/res1
[ "$(json 'r["agents"][0]["insecure"]')" = False ] || fail "results say insecure"

# The same through [global] keys = DIR.
scenario global global-file
sed -i "s|^\[global\]|[global]\nkeys = $K/console|" "$SCRATCH/global.ini"
"$BIN/iofleet" run "$SCRATCH/global.ini" -o "$SCRATCH/res2" -q >/dev/null 2>"$SCRATCH/err" ||
    { cat "$SCRATCH/err"; fail "run with [global] keys failed"; }
[ -f "$SCRATCH/a1/global-file" ] || fail "[global] keys run wrote no file"

# Untrusted: a clear error, quickly; the key in the agent's log; no file.
scenario untrusted untrusted-file
start=$(date +%s%N)
rc=0
"$BIN/iofleet" run "$SCRATCH/untrusted.ini" --keys "$K/stranger" -o "$SCRATCH/res3" -q \
    >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
cat "$SCRATCH/err"
[ "$rc" = 1 ] || fail "untrusted run exited $rc"
grep -q "agent a1 (tcp://127.0.0.1:[0-9]*): refused our key (CURVE authentication failed" \
    "$SCRATCH/err" || fail "the error does not name the agent and the reason"
[ "$elapsed_ms" -lt 3000 ] || fail "the refusal took $elapsed_ms ms, beyond the connect timeout"
stranger_key=$(sed -n 's/^ *public-key = "\(.*\)"/\1/p' "$K/stranger/console.key")
grep -qF "event=refused-key key=$stranger_key " "$SCRATCH/a1.log" ||
    fail "the agent log does not name the refused key $stranger_key"
[ ! -e "$SCRATCH/a1/untrusted-file" ] || fail "an untrusted coordinator got a file written"
grep -q "event=prepare.*untrusted" "$SCRATCH/a1.log" && fail "an untrusted job reached prepare"

# No keys at all against a CURVE agent: told what is missing.
rc=0
"$BIN/iofleet" run "$SCRATCH/untrusted.ini" -o "$SCRATCH/res4" -q >/dev/null 2>"$SCRATCH/err" || rc=$?
[ "$rc" = 1 ] && grep -q "agent a1 .*requires CURVE keys" "$SCRATCH/err" ||
    { echo "exit $rc"; cat "$SCRATCH/err"; fail "a coordinator without keys was not told"; }
[ ! -e "$SCRATCH/a1/untrusted-file" ] || fail "a coordinator without keys got a file written"

# ping with keys names the agent by NAME=ENDPOINT to find its key.
"$BIN/iofleet" ping --keys "$K/console" "a1=$ENDPOINT" >"$SCRATCH/out" ||
    { cat "$SCRATCH/out"; fail "ping with keys failed"; }

# A keys directory without the agent's public key is bad usage, like a
# bad key: said before anything starts (exit 2), and the agent hears
# nothing of it.
mkdir -p "$K/nopeer"
cp "$K/console/console.key" "$K/console/console.key_secret" "$K/nopeer/"
hellos=$(grep -c "event=session" "$SCRATCH/a1.log" || true)
rc=0
"$BIN/iofleet" run "$SCRATCH/trusted.ini" --keys "$K/nopeer" -o "$SCRATCH/res6" -q \
    >/dev/null 2>"$SCRATCH/err" || rc=$?
[ "$rc" = 2 ] && grep -q "no public key for a1 in $K/nopeer" "$SCRATCH/err" ||
    { cat "$SCRATCH/err"; fail "a missing agent key exited $rc, not 2"; }
[ "$(grep -c "event=session" "$SCRATCH/a1.log" || true)" = "$hellos" ] ||
    fail "with a missing agent key, the agent was still contacted"
[ ! -e "$SCRATCH/res6" ] || fail "with a missing agent key, a results directory was made"

# A secret key others can read is refused, on both sides.
chmod 640 "$K/console/console.key_secret"
rc=0
"$BIN/iofleet" run "$SCRATCH/trusted.ini" --keys "$K/console" -o "$SCRATCH/res5" -q \
    >/dev/null 2>"$SCRATCH/err" || rc=$?
[ "$rc" = 2 ] && grep -q "readable or writable by group or others .*chmod 600" "$SCRATCH/err" ||
    { cat "$SCRATCH/err"; fail "coordinator used a secret key readable by others"; }
chmod 644 "$K/agent/a1.key_secret"
rc=0
"$BIN/iofleet-agent" --bind 'tcp://127.0.0.1:*' --root "$SCRATCH/a1" --keys "$K/agent" \
    2>"$SCRATCH/err" || rc=$?
[ "$rc" = 1 ] && grep -q "a1.key_secret is readable" "$SCRATCH/err" ||
    { cat "$SCRATCH/err"; fail "agent used a secret key readable by others"; }

# Secure by default: no keys, no --insecure, a non-loopback bind: refused.
rc=0
"$BIN/iofleet-agent" --bind 'tcp://0.0.0.0:*' --root "$SCRATCH/a1" 2>"$SCRATCH/err" || rc=$?
[ "$rc" = 2 ] && grep -q "give --keys DIR, or add --insecure" "$SCRATCH/err" ||
    { cat "$SCRATCH/err"; fail "an unencrypted non-loopback agent started"; }
echo "keys: ok"
