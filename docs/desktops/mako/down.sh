#!/bin/bash
# Stop everything up.sh started. sway's `exec` children (sh -c mako, swaybg) are setsid'd and
# reparented to init, so a process-group kill of sway is NOT enough: we kill, by pid, every
# process of the dedicated user tocsinsway (used only by this setup) plus the bus daemon.
R=/tmp/research/mako/run
U=tocsinsway
t0=$(date +%s.%N)
upids() { ps -u $U -o pid= 2>/dev/null | tr -s ' \n' ' '; }
[ -f $R/env.sh ] && . $R/env.sh
# polite: ask sway to exit (mako/swaybg lose the display and exit too)
[ -n "${SWAYSOCK:-}" ] && [ -S "$SWAYSOCK" ] && runuser -u $U -- env SWAYSOCK=$SWAYSOCK swaymsg exit >/dev/null 2>&1
for i in $(seq 40); do [ -z "$(upids)" ] && break; sleep 0.05; done
p=$(upids); [ -n "$p" ] && { echo "TERM left-overs: $p"; kill -TERM $p 2>/dev/null; sleep 0.3; }
p=$(upids); [ -n "$p" ] && { echo "KILL left-overs: $p"; kill -KILL $p 2>/dev/null; }
# runuser (root) parent of sway exits by itself once sway exits; kill it by pid if still there
[ -f $R/sway.pid ] && kill $(cat $R/sway.pid) 2>/dev/null; rm -f $R/sway.pid
[ -f $R/bus.pid ] && kill -TERM $(cat $R/bus.pid) 2>/dev/null; rm -f $R/bus.pid $R/bus/socket
sleep 0.1
printf 'down in %.3fs; left: %s\n' "$(echo "$(date +%s.%N) - $t0" | bc)" \
  "$(ps -e -o pid=,user=,args= | grep -E "tocsinsway|/tmp/research/mako" | grep -v grep || echo none)"
