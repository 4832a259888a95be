#!/bin/bash
# Bring up a private headless GNOME Shell 43 session (Xvfb + private system/session bus + shell + notifications service).
# Usage: /tmp/research/gnome/up.sh [DISPLAYNUM]   -> writes $R/env.sh; source it in clients.
set -u
R=/tmp/research/gnome
N=${1:-77}
RUN=$R/run; mkdir -p $RUN $R/home $R/conf $R/log $R/cache $R/services $R/data/applications
mkdir -p $R/xdg-runtime && chmod 0700 $R/xdg-runtime
t0=$(date +%s.%N); ts(){ printf '[%5.2fs] %s\n' "$(echo "$(date +%s.%N) - $t0" | bc)" "$*"; }
POL='<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/><allow user="*"/></policy>'
cat > $RUN/system.conf <<X
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:path=$RUN/system_bus</listen><auth>EXTERNAL</auth>$POL</busconfig>
X
# Session bus: ONLY our own servicedir, which holds just ca.desrt.dconf.service (so gsettings writes reach the shell
# and no other notification server (mako, plasma...) gets activated).
cat > $RUN/session.conf <<X
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=$RUN/session_bus</listen><auth>EXTERNAL</auth><servicedir>$R/services</servicedir>$POL</busconfig>
X
[ -f $R/services/ca.desrt.dconf.service ] || printf '[D-BUS Service]\nName=ca.desrt.dconf\nExec=/usr/libexec/dconf-service\n' > $R/services/ca.desrt.dconf.service
cat > $R/env.sh <<X
export DISPLAY=:$N
export DBUS_SESSION_BUS_ADDRESS=unix:path=$RUN/session_bus
export HOME=$R/home
export XDG_RUNTIME_DIR=$R/xdg-runtime
export XDG_CONFIG_HOME=$R/conf
export XDG_CACHE_HOME=$R/cache
export XDG_DATA_HOME=$R/home/.local/share
export XDG_DATA_DIRS=$R/data:/usr/local/share:/usr/share
export XDG_SESSION_TYPE=x11
export XDG_CURRENT_DESKTOP=GNOME
export NO_AT_BRIDGE=1
export GSETTINGS_BACKEND=dconf
X
. $R/env.sh   # BEFORE the session bus: bus-activated services (dconf-service) inherit the bus daemon env (HOME/XDG_CONFIG_HOME)
rm -f $RUN/system_bus $RUN/session_bus
dbus-daemon --config-file=$RUN/system.conf --fork --print-pid > $RUN/system.pid
dbus-daemon --config-file=$RUN/session.conf --fork --print-pid > $RUN/session.pid
ts "buses up"
Xvfb :$N -screen 0 1280x800x24 -nolisten tcp > $R/log/xvfb.log 2>&1 & echo $! > $RUN/xvfb.pid
for i in $(seq 50); do [ -S /tmp/.X11-unix/X$N ] && break; sleep 0.1; done
ts "Xvfb :$N up"
DBUS_SYSTEM_BUS_ADDRESS=unix:path=$RUN/system_bus gnome-shell --x11 --replace > $R/log/shell.log 2>&1 & echo $! > $RUN/shell.pid
for i in $(seq 100); do gdbus call --session -d org.gnome.Shell -o /org/gnome/Shell -m org.freedesktop.DBus.Properties.Get org.gnome.Shell ShellVersion >/dev/null 2>&1 && break; sleep 0.2; done
ts "gnome-shell owns org.gnome.Shell"
# The separate notifications service (GNOME 43); retry until it owns org.freedesktop.Notifications.
ok=0
for try in 1 2 3 4 5 6; do
  gjs /usr/share/gnome-shell/org.gnome.Shell.Notifications > $R/log/notifsvc.log 2>&1 & echo $! > $RUN/notifsvc.pid
  for i in $(seq 15); do
    if gdbus call --session -d org.freedesktop.Notifications -o /org/freedesktop/Notifications -m org.freedesktop.Notifications.GetServerInformation >/dev/null 2>&1; then ok=1; break; fi
    sleep 0.2
  done
  [ $ok = 1 ] && break
  kill $(cat $RUN/notifsvc.pid) 2>/dev/null; sleep 1
done
ts "notifications service ok=$ok (tries=$try): $(gdbus call --session -d org.freedesktop.Notifications -o /org/freedesktop/Notifications -m org.freedesktop.Notifications.GetServerInformation 2>&1)"
# leave the start-up overview; pointer activity lets the "Screen Lock disabled" start-up banner time out (~2 s)
sleep 0.5; xdotool mousemove 1000 600; sleep 0.2; xdotool mousemove 1001 600 key Escape
ts "overview closed"
echo "# source $R/env.sh"; cat $R/env.sh
