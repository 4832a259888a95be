#!/bin/bash
R=/tmp/research/gnome; RUN=$R/run
for p in notifsvc shell xvfb session system; do
  [ -f $RUN/$p.pid ] && kill $(cat $RUN/$p.pid) 2>/dev/null && echo "killed $p $(cat $RUN/$p.pid)"; rm -f $RUN/$p.pid
done
# dconf-service was bus-activated by our private session bus; it exits when the bus goes away.
sleep 1; for p in $(pgrep -f "^/usr/libexec/dconf-service" ); do
  grep -qz "DBUS_SESSION_BUS_ADDRESS=unix:path=$RUN/session_bus" /proc/$p/environ 2>/dev/null && kill $p && echo "killed dconf-service $p"; done
true
