# Bash completion for iofleet and iofleet-agent.
#
# `make` writes build/completion/iofleet and build/completion/iofleet-agent:
# the words each program prints with --completion (its commands, flags and
# what their arguments are, from the same tables as --help), followed by
# this file. An argument named DIR completes directories, FILE files,
# NAME=ENDPOINT the [agent NAME] sections of the scenario on the line,
# and a|b|c its choices.

# _iofleet_value KIND CUR [SCENARIO]: fill COMPREPLY for a value of KIND.
_iofleet_value () {
    local kind=$1 cur=$2 scenario=${3:-}
    case $kind in
        DIR)
            mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
        FILE)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
        *.ini|*.json)
            # Files of that kind, and directories to walk into.
            mapfile -t COMPREPLY < <(compgen -f -X "!*.${kind##*.}" -- "$cur";
                                     compgen -d -S / -- "$cur")
            compopt -o nospace 2>/dev/null ;;
        NAME=ENDPOINT)
            [ -r "$scenario" ] || return 0
            mapfile -t COMPREPLY < <(compgen -W "$(sed -n \
                's/^[[:space:]]*\[[[:space:]]*agent[[:space:]]\{1,\}\([^] ]*\).*/\1=/p' \
                "$scenario")" -- "$cur")
            compopt -o nospace 2>/dev/null ;;
        *'|'*)
            mapfile -t COMPREPLY < <(compgen -W "${kind//|/ }" -- "$cur") ;;
    esac
    return 0
}

# _iofleet_arg TABLE FLAG: the argument kind of FLAG in TABLE ("-" for
# none, "" for a word that is no flag).
_iofleet_arg () {
    local flag arg
    while read -r flag arg; do
        [ "$flag" = "$2" ] && { echo "$arg"; return; }
    done <<< "$1"
}

_iofleet () {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local command table args kind word scenario=""
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        mapfile -t COMPREPLY < <(compgen -W "$_iofleet_commands --help --version" -- "$cur")
        return 0
    fi
    command=${COMP_WORDS[1]//-/_}
    table=_iofleet_flags_$command
    args=_iofleet_args_$command
    [ -n "${!table+x}" ] || return 0
    table=${!table}
    args=${!args}
    for word in "${COMP_WORDS[@]:2}"; do
        case $word in *.ini) scenario=$word ;; esac
    done
    kind=$(_iofleet_arg "$table" "$prev")
    if [ -n "$kind" ] && [ "$kind" != "-" ]; then
        _iofleet_value "$kind" "$cur" "$scenario"
    elif [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(cut -d' ' -f1 <<< "$table")" -- "$cur")
    else
        _iofleet_value "$args" "$cur" "$scenario"
    fi
    return 0
}

_iofleet_agent () {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} kind
    COMPREPLY=()
    kind=$(_iofleet_arg "$_iofleet_agent_flags" "$prev")
    if [ -n "$kind" ] && [ "$kind" != "-" ]; then
        _iofleet_value "$kind" "$cur"
    else
        mapfile -t COMPREPLY < <(compgen -W "$(cut -d' ' -f1 <<< "$_iofleet_agent_flags")" -- "$cur")
    fi
    return 0
}

[ -n "${_iofleet_commands:-}" ] && complete -F _iofleet iofleet
[ -n "${_iofleet_agent_flags:-}" ] && complete -F _iofleet_agent iofleet-agent
