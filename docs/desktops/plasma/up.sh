#!/bin/bash
# Bring up a headless KDE Plasma 5.27 notification server (plasmashell) from nothing.
# Usage: up.sh   -> prints env lines to use (also written to $R/env.sh)
# Everything lives under $R; down.sh ends it.
set -u
R=${R:-/tmp/research/plasma/run}
U=tocsinplasma
t0=$(date +%s.%N)
ts() { printf '[%6.2fs] %s\n' "$(echo "$(date +%s.%N) - $t0" | bc)" "$*"; }

id $U >/dev/null 2>&1 || useradd -m $U
mkdir -p $R && chmod 755 $R
H=$R/home
[ "${KEEP_HOME:-0}" = 1 ] || rm -rf $H $R/xdg-runtime   # fresh profile each time
mkdir -p $H/.config $H/.local/share $H/.cache $R/xdg-runtime $R/data/applications
chmod 700 $R/xdg-runtime
chown -R $U:$U $H $R/xdg-runtime
chmod 755 $R/data $R/data/applications
# desktop entry for the desktop-entry hint (must exist before kded5/plasmashell build ksycoca)
D=$(dirname "$(readlink -f "$0")")
[ -f $D/io.github.tocsin.Agent.desktop ] && install -m 644 $D/io.github.tocsin.Agent.desktop $R/data/applications/

# --- permissive bus configs (no <servicedir>: nothing gets auto-activated) ---
for kind in system session; do
cat > $R/$kind-bus.conf <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>$kind</type>
  <listen>unix:path=$R/$kind-bus.sock</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
    <allow user="*"/>
  </policy>
</busconfig>
EOF
done
rm -f $R/*.sock $R/*.pid

# whole session in its own process group (setsid) so down.sh can kill the group
setsid dbus-daemon --config-file=$R/system-bus.conf --nofork --print-pid=3 3>$R/sysbus.pid >$R/sysbus.log 2>&1 &
setsid dbus-daemon --config-file=$R/session-bus.conf --nofork --print-pid=3 3>$R/sesbus.pid >$R/sesbus.log 2>&1 &
for s in system session; do for i in $(seq 50); do [ -S $R/$s-bus.sock ] && break; sleep 0.1; done; chmod 777 $R/$s-bus.sock; done
ts "buses up"

# let Xvfb choose a free display itself (-displayfd): fixed numbers collide with other sessions
rm -f $R/xvfb.display
setsid Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -ac 3>$R/xvfb.display >$R/xvfb.log 2>&1 &
echo $! > $R/xvfb.pid
for i in $(seq 100); do [ -s $R/xvfb.display ] && break; sleep 0.1; done
N=$(head -1 $R/xvfb.display)
[ -n "$N" ] && kill -0 $(cat $R/xvfb.pid) || { echo "Xvfb failed"; cat $R/xvfb.log; exit 1; }
ts "Xvfb :$N up"

SESS=unix:path=$R/session-bus.sock
SYS=unix:path=$R/system-bus.sock
cat > $R/env.sh <<EOF
export DISPLAY=:$N
export DBUS_SESSION_BUS_ADDRESS=$SESS
EOF
PENV="HOME=$H XDG_CONFIG_HOME=$H/.config XDG_DATA_HOME=$H/.local/share XDG_CACHE_HOME=$H/.cache \
XDG_RUNTIME_DIR=$R/xdg-runtime XDG_DATA_DIRS=$R/data:/usr/local/share:/usr/share \
DISPLAY=:$N DBUS_SESSION_BUS_ADDRESS=$SESS DBUS_SYSTEM_BUS_ADDRESS=$SYS \
QT_QPA_PLATFORM=xcb XDG_CURRENT_DESKTOP=KDE KDE_FULL_SESSION=true KDE_SESSION_VERSION=5 \
XDG_SESSION_TYPE=x11 DESKTOP_SESSION=plasma"
echo "PENV=\"$PENV\"" > $R/penv.sh
run() { setsid runuser -u $U -- env -i PATH=/usr/bin:/bin $PENV "$@"; }
busname() { DBUS_SESSION_BUS_ADDRESS=$SESS gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus \
  -m org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true; }

run kglobalaccel5 >$R/kglobalaccel.log 2>&1 & echo $! > $R/kglobalaccel.pid
run kded5 >$R/kded.log 2>&1 & echo $! > $R/kded.pid
run /usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd >$R/kamd.log 2>&1 & echo $! > $R/kamd.pid
for i in $(seq 300); do busname org.kde.ActivityManager && break; sleep 0.1; done
ts "org.kde.ActivityManager owned"
busname org.kde.kglobalaccel && ts "kglobalaccel owned"
busname org.kde.kded5 && ts "kded5 owned"

run plasmashell --no-respawn >$R/plasmashell.log 2>&1 & echo $! > $R/plasmashell.pid
for i in $(seq 600); do busname org.freedesktop.Notifications && break; sleep 0.1; done
ts "org.freedesktop.Notifications owned"
# the notification applet (system tray) needs a little longer to be loaded
sleep 3
ts "done"
echo "# use:"
cat $R/env.sh
