#!/bin/bash
# End everything up.sh started (each was started with setsid => own process group).
R=${R:-/tmp/research/plasma/run}
for f in plasmashell kamd kded kglobalaccel xvfb; do
  [ -f $R/$f.pid ] || continue
  p=$(cat $R/$f.pid)
  kill -TERM -- -$p 2>/dev/null
done
sleep 1
# leftovers: any process owned by the dedicated user (kconf_update, ksycoca, kioslaves...)
for i in 1 2 3 4 5; do
  ps=$(pgrep -u tocsinplasma) || break
  for p in $ps; do kill -KILL $p 2>/dev/null; done; sleep 0.3
done
for f in plasmashell kamd kded kglobalaccel xvfb; do
  [ -f $R/$f.pid ] && kill -KILL -- -$(cat $R/$f.pid) 2>/dev/null
done
for f in sysbus sesbus; do [ -f $R/$f.pid ] && kill $(cat $R/$f.pid) 2>/dev/null; done
rm -f $R/*.pid
sleep 0.5
pgrep -u tocsinplasma -l && echo "WARNING: user processes left" || echo "all down"
