#!/usr/bin/env bash
# The manual pages and the shell completion that `make` builds from the
# programs' tables: every page renders without a warning; every scenario
# key that `iofleet run --help` lists is in iofleet-scenario(5) and every
# key of the page is in --help; every flag of every command and of the
# agent is in its page; and bash completes commands, flags, files and the
# agents of a scenario.
. "$(dirname "$0")/lib.sh"

MAN=$BIN/man
for page in iofleet.1 iofleet-scenario.5 iofleet-agent.8 iofleet.7; do
    [ -s "$MAN/$page" ] || fail "make did not build $MAN/$page"
    warnings=$(MANWIDTH=80 man -l "$MAN/$page" 2>&1 >/dev/null)
    [ -z "$warnings" ] || { echo "$warnings"; fail "$page renders with warnings"; }
    MANWIDTH=80 man -l "$MAN/$page" > "$SCRATCH/$page.txt" 2>/dev/null
done

# iofleet(7) holds the semantics the README leaves out: how iofleet
# measures, its warnings, compare's statistics, faults and security.
for heading in 'The report' 'Numbers that can be trusted' 'When something breaks' \
               'Re-rendering and comparing' 'Why Mann-Whitney, and why 10%' 'Security'; do
    grep -qx "$heading" "$SCRATCH/iofleet.7.txt" ||
        grep -qx " *$heading" "$SCRATCH/iofleet.7.txt" || fail "iofleet(7) has no section $heading"
done
grep -q 'iofleet(7)' "$SCRATCH/iofleet.1.txt" || fail "iofleet(1) does not refer to iofleet(7)"

# Scenario keys: from --help (the option tables) and from the page. A
# key too long for its column stands alone on its line.
"$BIN/iofleet" run --help |
    sed -n '/^\[global\] run options:/,/^Workloads/p' |
    sed -n 's/^ [ *]\{0,1\}\([a-z_]\{1,\}\)\( .*\)\{0,1\}$/\1/p' |
    sort -u > "$SCRATCH/help-keys"
sed -n 's/^       \([a-z_]\{1,\}\) = .*/\1/p' "$SCRATCH/iofleet-scenario.5.txt" |
    sort -u > "$SCRATCH/page-keys"
[ "$(wc -l < "$SCRATCH/help-keys")" -gt 20 ] || fail "too few keys in run --help"
diff "$SCRATCH/help-keys" "$SCRATCH/page-keys" ||
    fail "run --help and iofleet-scenario(5) list different keys"
for key in bs size interval settle iterations lead endpoint on_lost; do
    grep -qx "$key" "$SCRATCH/page-keys" || fail "iofleet-scenario(5) lacks $key"
done
# Every workload is described in both, from its descriptor: the
# per-character tests of bonnie++ are said to be left out.
for workload in $("$BIN/iofleet" run --help | sed -n 's/.*\[\(null|.*\)\]$/\1/p' | tr '|' ' '); do
    "$BIN/iofleet" run --help | sed -n '/^Workloads/,$p' | grep -q "^  $workload " ||
        fail "run --help does not describe workload $workload"
    sed -n '/^WORKLOADS/,/^EXAMPLE/p' "$SCRATCH/iofleet-scenario.5.txt" | grep -q "^       $workload" ||
        fail "iofleet-scenario(5) does not describe workload $workload"
done
"$BIN/iofleet" run --help | sed -n '/^  bonnie /,/^  [a-z]/p' | tr -s ' \n' ' ' |
    grep -q "per-character tests are left out" || fail "bonnie's help does not say -f"

# A key's default and unit are in its entry: bs = 1M, a size from 512 to 64M.
grep -A4 '^       bs = size' "$SCRATCH/iofleet-scenario.5.txt" | tr -s ' \n' ' ' |
    grep -q 'Default: 1M\. From 512 to 64M\. Value: bytes' || fail "bs entry lacks default or unit"

# Every flag of every command of iofleet, and of the agent, in its page.
for command in $("$BIN/iofleet" --completion | sed -n "s/^_iofleet_commands='\(.*\)'/\1/p"); do
    grep -q "^       iofleet $command " "$SCRATCH/iofleet.1.txt" ||
        fail "iofleet(1) has no section for $command"
    for flag in $("$BIN/iofleet" "$command" --help | grep -o '^  \(-., \)\{0,1\}--[a-z-]*' |
                  sed 's/.*--/--/'); do
        grep -q -- "$flag" "$SCRATCH/iofleet.1.txt" || fail "iofleet(1) lacks $command $flag"
    done
done
for flag in $("$BIN/iofleet-agent" --help | grep -o '^  --[a-z-]*'); do
    grep -q -- "$flag" "$SCRATCH/iofleet-agent.8.txt" || fail "iofleet-agent(8) lacks $flag"
done
grep -q '^       bind = ENDPOINT' "$SCRATCH/iofleet-agent.8.txt" || fail "no config keys in iofleet-agent(8)"

# Bash completion, as bash-completion would load it.
cat > "$SCRATCH/s.ini" <<'INI'
[agent client1]
endpoint = tcp://127.0.0.1:1
[ agent  nfs1 ]
endpoint = tcp://127.0.0.1:2
INI
touch "$SCRATCH/other.json"
complete_words () {   # program words...: what the completion offers for the last word
    (cd "$SCRATCH" && bash -c '
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
        "$(complete -p "$1" | sed "s/.*-F \([^ ]*\) .*/\1/")"
        printf "%s\n" "${COMPREPLY[@]}"' _ "$BIN/completion/$1" "$@")
}
complete_words iofleet r | grep -qx run || fail "no completion of run"
complete_words iofleet co | grep -qx compare || fail "no completion of compare"
complete_words iofleet run --o | grep -qx -- --output || fail "no completion of --output"
complete_words iofleet run s | grep -qx s.ini || fail "no completion of a scenario file"
complete_words iofleet run s.ini --agent "" > "$SCRATCH/agents"
grep -qx 'client1=' "$SCRATCH/agents" && grep -qx 'nfs1=' "$SCRATCH/agents" ||
    { cat "$SCRATCH/agents"; fail "no completion of the scenario's agents"; }
complete_words iofleet report --format h | grep -qx html || fail "no completion of --format"
complete_words iofleet compare o | grep -qx other.json || fail "no completion of results"
complete_words iofleet-agent --allow | grep -qx -- --allow-nfs ||
    fail "no completion of iofleet-agent --allow-nfs"
echo "manual: ok"
