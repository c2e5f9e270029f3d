#!/usr/bin/env bash
# The agent's config file: a good one starts the agent (flags override
# it, and the service manager hears READY=1 once it listens); a bad key, a
# bad bind, a missing root or a secret key others can read each keep it
# from starting, exit non-zero and name file:line: key, and the reason
# reaches the service manager's status line.
. "$(dirname "$0")/lib.sh"

mkdir -p "$SCRATCH/root"
"$BIN/iofleet" keygen "$SCRATCH/keys" agent >/dev/null
"$BIN/iofleet" keygen "$SCRATCH/console" console >/dev/null
cp "$SCRATCH/console/console.key" "$SCRATCH/keys/"

# A notification socket as systemd's: every datagram is one line of the
# file $SCRATCH/notify, "|" between its lines.
python3 - "$SCRATCH/notify.sock" "$SCRATCH/notify" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(60)
with open(sys.argv[2], "a", buffering=1) as out:
    while True:
        try:
            data = s.recv(4096)
        except socket.timeout:
            break
        out.write(data.decode().replace("\n", "|") + "\n")
PY
PIDS+=($!)
for i in $(seq 100); do [ -S "$SCRATCH/notify.sock" ] && break; sleep 0.05; done
export NOTIFY_SOCKET=$SCRATCH/notify.sock

# config LINES...: write $SCRATCH/agent.conf.
config () {
    printf '%s\n' "# a comment" "$@" > "$SCRATCH/agent.conf"
}

# refused STATUS PATTERN [FLAGS...]: the agent exits STATUS at once and says PATTERN.
refused () {
    local want=$1 pattern=$2 rc=0
    shift 2
    : > "$SCRATCH/notify"
    timeout 10 "$BIN/iofleet-agent" --config "$SCRATCH/agent.conf" "$@" 2>"$SCRATCH/err" || rc=$?
    cat "$SCRATCH/err"
    [ "$rc" = "$want" ] || fail "exit $rc, expected $want: $pattern"
    grep -qE -e "$pattern" "$SCRATCH/err" || fail "stderr lacks /$pattern/"
    for i in $(seq 50); do [ -s "$SCRATCH/notify" ] && break; sleep 0.02; done
    grep -qE -e "^STATUS=not started: .*$pattern" "$SCRATCH/notify" ||
        { cat "$SCRATCH/notify"; fail "the status line lacks /$pattern/"; }
}

config "bind = tcp://127.0.0.1:*" "root = $SCRATCH/root" "nmae = a1"
refused 2 "agent.conf:4: nmae: unknown key"
config "bind = 127.0.0.1:7654" "root = $SCRATCH/root"
refused 2 "agent.conf:2: bind: '127.0.0.1:7654' is not an endpoint"
config "bind = tcp://127.0.0.1:70000" "root = $SCRATCH/root"
refused 2 "agent.conf:2: bind: .*port must be a number"
config "bind = tcp://0.0.0.0:7654" "root = $SCRATCH/root"
refused 2 "agent.conf:2: bind: .*not a loopback address.*give keys = DIR"
config "bind = tcp://127.0.0.1:*" "root = $SCRATCH/root" "root = $SCRATCH/none"
refused 1 "agent.conf:4: root: root $SCRATCH/none: No such file or directory"
config "bind = tcp://127.0.0.1:*" "root = $SCRATCH/root" "bind = tcp://127.0.0.1:1"
refused 2 "agent.conf:4: bind: given twice \(first at line 2\)"
config "bind = tcp://127.0.0.1:*" "[agent]" "root = $SCRATCH/root"
refused 2 "agent.conf:3: \[agent\]: the agent's config has no sections"
config "bind = tcp://127.0.0.1:*" "root = $SCRATCH/root" "insecure = maybe"
refused 2 "agent.conf:4: insecure: 'maybe' is not yes or no"
config "bind = tcp://127.0.0.1:*" "keys = $SCRATCH/keys" "insecure = yes" "root = $SCRATCH/root"
refused 2 "agent.conf:4: insecure: keys and insecure exclude each other"
config "bind = tcp://127.0.0.1:*"
refused 2 "agent.conf: root: at least one root is needed"
config "bind = tcp://127.0.0.1:*" "root = $SCRATCH/root" "keys = $SCRATCH/keys"
chmod 644 "$SCRATCH/keys/agent.key_secret"
refused 1 "agent.conf:4: keys: secret key .*agent.key_secret is readable or writable by group or others"
chmod 600 "$SCRATCH/keys/agent.key_secret"
# A missing --config is an error; a flag's own mistake names the flag.
refused 2 "missing.conf: cannot open" --config "$SCRATCH/missing.conf"
refused 2 "--name: 'a b': use 1 to 63" --name "a b"

# A good file: flags override it (the name, and --root replaces the
# file's roots), and the agent tells the service manager it is ready.
mkdir -p "$SCRATCH/flagroot"
config "bind = tcp://127.0.0.1:*" "name = fromfile" "root = $SCRATCH/root" \
       "keys = $SCRATCH/keys" "verbose = no"
: > "$SCRATCH/notify"
"$BIN/iofleet-agent" --config "$SCRATCH/agent.conf" --name fromflag \
    --root "$SCRATCH/flagroot" 2>"$SCRATCH/a.log" &
PIDS+=($!)
wait_bound a
grep -q "^agent=fromflag event=bound" "$SCRATCH/a.log" || fail "--name did not override name ="
grep -q "event=root dir=$SCRATCH/flagroot" "$SCRATCH/a.log" || fail "--root not taken"
grep -q "event=root dir=$SCRATCH/root\$" "$SCRATCH/a.log" && fail "--root did not replace root ="
grep -q "security=curve" "$SCRATCH/a.log" || fail "keys = from the file not used"
for i in $(seq 50); do [ -s "$SCRATCH/notify" ] && break; sleep 0.02; done
grep -q "^READY=1|STATUS=serving tcp://127.0.0.1:[0-9]* as fromflag" "$SCRATCH/notify" ||
    { cat "$SCRATCH/notify"; fail "no READY=1 for the service manager"; }
! grep -q "event=warning root=" "$SCRATCH/a.log" || fail "a root of its own was warned of"

# root = / is allowed, but said: confinement then confines nothing.
config "bind = tcp://127.0.0.1:*" "name = everywhere" "root = /"
"$BIN/iofleet-agent" --config "$SCRATCH/agent.conf" 2>"$SCRATCH/slash.log" &
PIDS+=($!)
wait_bound slash
grep -q "^agent=everywhere event=warning root=/ text=\"the root is the whole file system" \
    "$SCRATCH/slash.log" || { cat "$SCRATCH/slash.log"; fail "root = / started without a warning"; }
echo "agent config: ok"
