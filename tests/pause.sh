# Shared by the pause tests (t0885, t0886): the scenario of a pause
# mid-test, and a bounded wait for a run to end.

# pause_scenario FILE E1 E2: t1 has a1 write 8M and a2 24M at 2 MB/s (a1
# done 4 s in, a2 12 s in), t2 a2 alone 12M at 2 MB/s, t3 and t4 1M on
# both; agents a1 at E1 and a2 at E2, the default lease (5 s).
pause_scenario () {
    local t a
    {
        printf '[global]\nbs = 64K\nsettle = 0\n'
        printf '[agent a1]\nendpoint = %s\n[agent a2]\nendpoint = %s\n' "$2" "$3"
        printf '[job t1-a1]\ntest = t1\nagent = a1\npath = t1\nsize = 8M\nrate = 2M\n'
        printf '[job t1-a2]\ntest = t1\nagent = a2\npath = t1\nsize = 24M\nrate = 2M\n'
        printf '[job t2]\nagent = a2\npath = t2\nsize = 12M\nrate = 2M\n'
        for t in t3 t4; do
            for a in a1 a2; do
                printf '[job %s-%s]\ntest = %s\nagent = %s\npath = %s\nsize = 1M\n' \
                    "$t" "$a" "$t" "$a" "$t"
            done
        done
    } > "$1"
}

# pause_wait PID SECONDS: wait for the run PID to end, at most SECONDS;
# sets RC to its exit status.
pause_wait () {
    local i
    for i in $(seq $(($2 * 20))); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.05
    done
    kill -0 "$1" 2>/dev/null && fail "the run did not end within $2 s"
    RC=0
    wait "$1" || RC=$?
}
