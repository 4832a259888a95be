# fish completion for tocsin(1). Installed as $(datadir)/fish/vendor_completions.d/tocsin.fish.

set -l tocsin_commands timer alarm list show watch status doctor auth phone config pause resume cancel stop snooze help

# The agent's alarms as "id<TAB>title (state)"; with arguments, only those in one of these
# states. Read from `tocsin list --json`, whose objects have their keys sorted (id, then state,
# then title); string values escape their quotes, so the patterns cannot match inside a title or
# a hook. Nothing when the agent does not answer within 2 s.
function __tocsin_alarms
    set -l json (timeout 2 tocsin list --json 2>/dev/null)
    or return
    set -l id
    set -l state
    for token in (string match -r -a -- '"(?:id|state)":"[^"]*"|"title":"(?:[^"\\\\]|\\\\.)*"' "$json")
        switch $token
            case '"id":"*'
                set id (string replace -r '^"id":"(.*)"$' '$1' -- $token)
            case '"state":"*'
                set state (string replace -r '^"state":"(.*)"$' '$1' -- $token)
            case '"title":"*'
                test -n "$id"; or continue
                set -l title (string replace -r '^"title":"(.*)"$' '$1' -- $token | string replace -a '\\"' '"')
                if test (count $argv) -eq 0; or contains -- $state $argv
                    printf '%s\t%s (%s)\n' $id $title $state
                end
                set id
        end
    end
end

# Whether the command line has the subcommand $argv[1] and no argument after it yet.
function __tocsin_needs_id
    set -l tokens (commandline -opc)
    test (count $tokens) -ge 2; and test "$tokens[2]" = "$argv[1]"; or return 1
    for token in $tokens[3..-1]
        string match -q -- '-*' $token; or return 1
    end
end

function __tocsin_sound_names
    for file in /usr/share/sounds/*/stereo/*.{oga,ogg,wav}
        string replace -r '^.*/([^/]+)\.[^.]+$' '$1' -- $file
    end
end

complete -c tocsin -f
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -s h -l help -d 'Show the commands'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -l version -d 'Print the version'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a timer -d 'Start a timer that counts down and rings'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a alarm -d 'Set an alarm at a time of day, on a date, or repeating'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a list -d 'List alarms and timers'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a show -d 'Show one alarm or timer in full'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a watch -d 'Print every change of every alarm as it happens'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a status -d 'Show how the agent is set up'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a doctor -d 'Check that alarms will be seen and heard on this desktop'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a auth -d 'See and change which applications may set alarms'
complete -c tocsin -n "__fish_seen_subcommand_from auth; and not __fish_seen_subcommand_from list grant revoke reset" -a 'list grant revoke reset'
complete -c tocsin -n "__fish_seen_subcommand_from auth; and __fish_seen_subcommand_from grant revoke reset" -a "(tocsin auth list 2>/dev/null | string match -rv '^tocsin ' | string replace -r ' .*' '')"
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a phone -d 'Ring your paired phones too when nobody answers an alarm'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a config -d 'Show or change what every alarm gets by default (its Snooze, the output raised, its title when locked)'
complete -c tocsin -n "__fish_seen_subcommand_from config; and not __fish_seen_subcommand_from alarm-snooze raise-output ring-level lock-screen-titles" -a alarm-snooze -d 'The Snooze every alarm offers'
complete -c tocsin -n "__fish_seen_subcommand_from config; and not __fish_seen_subcommand_from alarm-snooze raise-output ring-level lock-screen-titles" -a raise-output -d 'Whether a ringing alarm raises a muted or quiet output'
complete -c tocsin -n "__fish_seen_subcommand_from config; and not __fish_seen_subcommand_from alarm-snooze raise-output ring-level lock-screen-titles" -a ring-level -d 'The level it raises the output to'
complete -c tocsin -n "__fish_seen_subcommand_from config; and not __fish_seen_subcommand_from alarm-snooze raise-output ring-level lock-screen-titles" -a lock-screen-titles -d 'Whether a locked screen shows alarm titles'
complete -c tocsin -n "__fish_seen_subcommand_from config; and __fish_seen_subcommand_from alarm-snooze" -a 'off default' -d 'Or a duration'
complete -c tocsin -n "__fish_seen_subcommand_from config; and __fish_seen_subcommand_from lock-screen-titles" -a 'show hide default'
complete -c tocsin -n "__fish_seen_subcommand_from config; and __fish_seen_subcommand_from raise-output" -a 'yes no default'
complete -c tocsin -n "__fish_seen_subcommand_from config; and __fish_seen_subcommand_from ring-level" -a '50 70 85 100 default' -d 'Percent'
complete -c tocsin -n "__fish_seen_subcommand_from phone; and not __fish_seen_subcommand_from enable disable status setup" -a 'enable disable status setup'
complete -c tocsin -n "__fish_seen_subcommand_from phone; and __fish_seen_subcommand_from setup" -l remove -d 'Take the run commands away again'
complete -c tocsin -n "__fish_seen_subcommand_from phone; and __fish_seen_subcommand_from enable" -l after -r -d 'How long an alarm rings at the desk first'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a pause -d 'Pause a counting-down timer'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a resume -d 'Resume a paused timer'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a cancel -d 'Remove an alarm or timer, whatever its state'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a stop -d 'Stop a ringing alarm (all ringing ones without ID)'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a snooze -d 'Snooze a ringing alarm (all ringing ones without ID)'
complete -c tocsin -n "not __fish_seen_subcommand_from $tocsin_commands" -a help -d 'Show the commands'

# Every command has --help.
complete -c tocsin -n "__fish_seen_subcommand_from $tocsin_commands" -s h -l help -d 'Show help'

# timer and alarm: how it rings.
set -l ringing 'timer alarm'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l title -x -d 'What it is for, shown in the notification'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l snooze -x -d 'Offer a Snooze button that rings again after DURATION'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l button -x -d 'Label of the second button'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l on-button -x -a '(__fish_complete_command)' -d 'Run CMD when the custom button is pressed'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l sound -r -F -a '(__tocsin_sound_names)' -d 'A sound-theme event id or a 16-bit WAV/Ogg file'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l volume -x -a '25 50 75 100' -d 'How loud, 1 to 100 (default 100)'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l crescendo -x -d 'Start soft and rise to the volume over DURATION'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l ring-for -x -d 'Stop ringing by itself after DURATION (default 10m)'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l late-limit -x -d 'Still ring up to DURATION late after sleep (default 10m)'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l on-fire -x -a '(__fish_complete_command)' -d 'Run CMD when it starts ringing'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l on-stop -x -a '(__fish_complete_command)' -d 'Run CMD when it is stopped'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l on-snooze -x -a '(__fish_complete_command)' -d 'Run CMD when it is snoozed'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l on-cancel -x -a '(__fish_complete_command)' -d 'Run CMD when it is cancelled'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l on-missed -x -a '(__fish_complete_command)' -d 'Run CMD when it was missed'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l on-phone -x -a '(__fish_complete_command)' -d 'Run CMD when it rang your paired phones'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l phone -d 'Ring the paired phones if it rings unanswered'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l phone-after -r -d 'Ring the paired phones after this long unanswered'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l no-phone -d 'Never ring the phones for it'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l ring-level -x -a '50 70 85 100' -d 'Raise the output to at least PERCENT while it rings'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l no-raise -d 'Leave the output as it is while it rings, even muted'
complete -c tocsin -n "__fish_seen_subcommand_from $ringing" -l no-snooze -d 'Offer Stop alone'

# alarm: when it rings.
complete -c tocsin -n "__fish_seen_subcommand_from alarm" -l date -x -d 'Ring on that date (YYYY-MM-DD)'
complete -c tocsin -n "__fish_seen_subcommand_from alarm" -l in-days -x -d 'Ring N days from today'
complete -c tocsin -n "__fish_seen_subcommand_from alarm" -l tomorrow -d 'Ring tomorrow'
complete -c tocsin -n "__fish_seen_subcommand_from alarm" -l repeat -x -a 'daily weekdays weekends mon-fri mon,wed,fri' -d 'Ring every such day'
complete -c tocsin -n "__fish_seen_subcommand_from alarm" -l fixed -d 'Ring at that instant even if the time zone changes'
complete -c tocsin -n "__fish_seen_subcommand_from alarm" -l pre-alert -x -d 'Show a live countdown for DURATION before it rings'

complete -c tocsin -n "__fish_seen_subcommand_from list show watch status doctor" -l json -d 'Print JSON'
complete -c tocsin -n "__fish_seen_subcommand_from watch" -l format -x -a 'waybar i3blocks polybar' -d 'Print what a status bar shows'

# Ids, from the agent, where a command expects one.
complete -c tocsin -n "__tocsin_needs_id show; or __tocsin_needs_id cancel" -a '(__tocsin_alarms)'
complete -c tocsin -n "__tocsin_needs_id pause" -a '(__tocsin_alarms countdown)'
complete -c tocsin -n "__tocsin_needs_id resume" -a '(__tocsin_alarms paused)'
complete -c tocsin -n "__tocsin_needs_id stop; or __tocsin_needs_id snooze" -a '(__tocsin_alarms alerting)'
