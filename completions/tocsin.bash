# bash completion for tocsin(1)                                  -*- shell-script -*-
# Installed as $(datadir)/bash-completion/completions/tocsin; works without bash-completion's
# helpers too (`source completions/tocsin.bash`).

# The ids of the agent's alarms, one per line; with arguments, only those in one of these states
# (scheduled, countdown, paused, alerting). Read from `tocsin list --json`, whose objects have
# their keys sorted, so each "id" comes before its "state"; string values escape their quotes,
# so the patterns cannot match inside a title or a hook. Prints nothing when the agent does not
# answer within 2 s.
_tocsin_ids()
{
    local program=$1 json token id="" wanted
    shift
    json=$(timeout 2 "$program" list --json 2>/dev/null) || return 0
    while IFS= read -r token; do
        case $token in
            '"id":"'*) id=${token#'"id":"'}; id=${id%'"'} ;;
            '"state":"'*)
                [[ -n $id ]] || continue
                if (($# == 0)); then
                    printf '%s\n' "$id"
                else
                    for wanted; do
                        [[ $token == "\"state\":\"$wanted\"" ]] && printf '%s\n' "$id"
                    done
                fi
                id=""
                ;;
        esac
    done < <(grep -oE '"(id|state)":"[^"]*"' <<<"$json")
}

# Event ids of the installed sound themes (bell, alarm-clock-elapsed…), for --sound.
_tocsin_sound_names()
{
    local file name
    for file in /usr/share/sounds/*/stereo/*.oga /usr/share/sounds/*/stereo/*.ogg /usr/share/sounds/*/stereo/*.wav; do
        [[ -e $file ]] || continue
        name=${file##*/}
        printf '%s\n' "${name%.*}"
    done
}

_tocsin()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=""
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    local program=${COMP_WORDS[0]}
    type -P -- "$program" >/dev/null 2>&1 || program=tocsin

    local commands="timer alarm list show watch status doctor auth phone config pause resume cancel stop snooze help"
    local ring_options="--title --snooze --button --on-button --sound --volume --crescendo
        --ring-for --late-limit --on-fire --on-stop --on-snooze --on-cancel --on-missed --on-phone --phone --phone-after --no-phone --ring-level --no-raise --no-snooze"
    local alarm_options="--date --in-days --tomorrow --repeat --fixed --pre-alert"
    # Options that take a value: the word after one is its value, not an argument.
    local valued=" --title --snooze --button --on-button --sound --volume --crescendo --ring-for
        --late-limit --on-fire --on-stop --on-snooze --on-cancel --on-missed --on-phone --phone-after --ring-level --date --in-days
        --repeat --pre-alert "
    valued=${valued//$'\n'/ }

    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        mapfile -t COMPREPLY < <(compgen -W "$commands --help --version" -- "$cur")
        return 0
    fi

    local command=${COMP_WORDS[1]}
    # The value of the option before the cursor.
    case $prev in
        --sound)
            mapfile -t COMPREPLY < <(compgen -W "$(_tocsin_sound_names)" -- "$cur")
            local file
            while IFS= read -r file; do COMPREPLY+=("$file"); done < <(compgen -f -- "$cur")
            return 0
            ;;
        --repeat)
            mapfile -t COMPREPLY < <(compgen -W "daily weekdays weekends mon tue wed thu fri sat sun mon-fri" -- "$cur")
            return 0
            ;;
        --on-fire | --on-stop | --on-snooze | --on-cancel | --on-missed | --on-phone | --on-button)
            mapfile -t COMPREPLY < <(compgen -c -- "$cur")
            return 0
            ;;
    esac
    [[ $valued == *" $prev "* ]] && return 0

    # How many arguments (not options or their values) come before the cursor.
    local i word arguments=0
    for ((i = 2; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ $valued == *" $word "* ]]; then
            ((i++))
        elif [[ $word != -* ]]; then
            ((arguments++))
        fi
    done

    local options="--help" states="" takes_id=0
    case $command in
        timer) options="$ring_options --help" ;;
        alarm) options="$alarm_options $ring_options --help" ;;
        list | status | doctor) options="--json --help" ;;
        watch)
            if [[ $prev == --format ]]; then
                mapfile -t COMPREPLY < <(compgen -W "waybar i3blocks polybar" -- "$cur")
                return 0
            fi
            options="--json --format --help"
            ;;
        show) options="--json --help" takes_id=1 ;;
        cancel) takes_id=1 ;;
        pause) takes_id=1 states="countdown" ;;
        resume) takes_id=1 states="paused" ;;
        stop | snooze) takes_id=1 states="alerting" ;;
        auth)
            # tocsin auth list | grant APP | revoke APP | reset APP; APP from the answers so far.
            if ((arguments == 0)); then
                mapfile -t COMPREPLY < <(compgen -W "list grant revoke reset --help" -- "$cur")
            elif ((arguments == 1)) && [[ $prev != list ]]; then
                mapfile -t COMPREPLY < <(compgen -W "$("$program" auth list 2>/dev/null | awk '$1 != "tocsin" {print $1}')" -- "$cur")
            fi
            return 0
            ;;
        phone)
            # tocsin phone enable [--after DURATION] | disable | status | setup [--remove]
            if ((arguments == 0)); then
                mapfile -t COMPREPLY < <(compgen -W "enable disable status setup --help" -- "$cur")
            elif [[ ${COMP_WORDS[*]} == *" enable"* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "--after" -- "$cur")
            elif [[ ${COMP_WORDS[*]} == *" setup"* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "--remove" -- "$cur")
            fi
            return 0
            ;;
        config)
            # tocsin config [KEY [VALUE]]
            if ((arguments == 0)); then
                mapfile -t COMPREPLY < <(compgen -W "alarm-snooze raise-output ring-level lock-screen-titles --help" -- "$cur")
            elif ((arguments == 1)); then
                local values="off default"
                case $prev in
                    raise-output) values="yes no default" ;;
                    ring-level) values="50 70 85 100 default" ;;
                    lock-screen-titles) values="show hide default" ;;
                esac
                mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
            fi
            return 0
            ;;
        *) return 0 ;;
    esac

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
    elif ((takes_id && arguments == 0)); then
        # shellcheck disable=SC2086 # the states are meant to split into words
        mapfile -t COMPREPLY < <(compgen -W "$(_tocsin_ids "$program" $states)" -- "$cur")
    fi
    return 0
}

complete -F _tocsin tocsin
