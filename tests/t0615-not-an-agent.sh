#!/usr/bin/env bash
# What listens at an endpoint but does not speak ZeroMQ (a web server
# that closes on a bad request, an SSH daemon) is named so, with what it
# sent, and at once: not "security mismatch: the agent requires CURVE
# keys", which is what an agent that requires keys gets (t0610).
. "$(dirname "$0")/lib.sh"

# fake PORT_FILE MODE: a TCP server on a free loopback port that, on each
# connection, says its banner (ssh) or nothing (http), reads, and closes.
fake () {
    python3 - "$1" "$2" <<'PY' &
import socket, sys, threading
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
def serve(c):
    try:
        if sys.argv[2] == "ssh":
            c.sendall(b"SSH-2.0-OpenSSH_9.2p1\r\n")
        c.recv(100)
        if sys.argv[2] == "http":
            c.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
    except OSError:
        pass
    c.close()
s.settimeout(60)
while True:
    try:
        c, _ = s.accept()
    except OSError:
        break
    threading.Thread(target=serve, args=(c,), daemon=True).start()
PY
    PIDS+=($!)
    for i in $(seq 100); do [ -s "$1" ] && return 0; sleep 0.05; done
    fail "the fake server did not start"
}

for mode in http ssh; do
    fake "$SCRATCH/$mode.port" "$mode"
    endpoint=tcp://127.0.0.1:$(cat "$SCRATCH/$mode.port")
    rc=0
    timeout 20 "$BIN/iofleet" ping --timeout 3s "$endpoint" > "$SCRATCH/$mode.out" 2>&1 || rc=$?
    [ "$rc" = 1 ] || { cat "$SCRATCH/$mode.out"; fail "$mode: ping exited $rc"; }
    grep -q "not an iofleet agent: what listens there does not speak ZeroMQ" "$SCRATCH/$mode.out" ||
        { cat "$SCRATCH/$mode.out"; fail "$mode: not said to be no agent"; }
    ! grep -q "CURVE" "$SCRATCH/$mode.out" || fail "$mode: blamed on CURVE keys"
    printf '[global]\nconnect_timeout = 10s\n[agent a1]\nendpoint = %s\n[job w]\nagent = a1\npath = w\nsize = 1M\n' \
        "$endpoint" > "$SCRATCH/$mode.ini"
    rc=0
    start=$(date +%s%N)
    timeout 30 "$BIN/iofleet" run -q --no-db "$SCRATCH/$mode.ini" -o "$SCRATCH/$mode" \
        > /dev/null 2> "$SCRATCH/$mode.err" || rc=$?
    took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
    [ "$rc" = 1 ] && grep -q "not an iofleet agent" "$SCRATCH/$mode.err" ||
        { cat "$SCRATCH/$mode.err"; fail "$mode: the run exited $rc without naming the peer"; }
    # Refused at once, not after the connect timeout of 10 s.
    [ "$took_ms" -lt 5000 ] || fail "$mode: the run took $took_ms ms to give up"
done
grep -q "it sent 'SSH-2.0-Op'" "$SCRATCH/ssh.out" || fail "the SSH banner is not quoted"
grep -q "it sent nothing" "$SCRATCH/http.out" || fail "the web server's silence is not said"
echo "not an agent: ok"
