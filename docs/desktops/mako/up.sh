#!/bin/bash
# Start, as root: private session bus (root-owned) + headless sway + mako as an unprivileged user.
# Prints the environment to use and writes it to $R/env.sh
set -eu
D=/tmp/research/mako
R=$D/run
U=tocsinsway
t0=$(date +%s.%N)
ts() { printf '[%6.3fs] %s\n' "$(echo "$(date +%s.%N) - $t0" | bc)" "$*" >&2; }

# 1. user
id -u $U >/dev/null 2>&1 || useradd -m -s /bin/bash $U
ts "user $U ok (uid $(id -u $U))"

# 2. directories: bus socket dir must be reachable (x) by $U; runtime dir 0700 owned by $U
mkdir -p $R/bus
chmod 755 /tmp/research $D $R $R/bus
rm -rf $R/xdg; mkdir -m 700 $R/xdg; chown $U:$U $R/xdg
chmod 644 $D/bus.conf $D/sway.conf $D/mako.conf
ts "dirs ok"

# 3. private session bus, started by root
rm -f $R/bus/socket
dbus-daemon --config-file=$D/bus.conf --fork --print-address=3 --print-pid=4 3>$R/bus.addr 4>$R/bus.pid
ADDR=$(head -n1 $R/bus.addr)
ts "dbus-daemon pid $(cat $R/bus.pid) at $ADDR ($(stat -c %A $R/bus/socket))"

# 4. sway (+ mako via exec) as $U, in its own session/process group so down.sh can kill all of it
setsid runuser -u $U -- env -i \
    HOME=$(getent passwd $U | cut -d: -f6) USER=$U LOGNAME=$U PATH=/usr/local/bin:/usr/bin:/bin \
    XDG_RUNTIME_DIR=$R/xdg DBUS_SESSION_BUS_ADDRESS="$ADDR" \
    WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
    sway -c $D/sway.conf >$R/sway.log 2>&1 </dev/null &
echo $! >$R/sway.pid
ts "sway launched (setsid pid $(cat $R/sway.pid))"

# 5. wait for the wayland socket
for i in $(seq 200); do
    W=$(cd $R/xdg && ls wayland-[0-9] 2>/dev/null | head -n1) || true
    [ -n "$W" ] && [ -S "$R/xdg/$W" ] && break
    sleep 0.05
done
[ -n "$W" ] || { echo "no wayland socket"; tail $R/sway.log; exit 1; }
ts "wayland socket $R/xdg/$W"

# 6. wait for org.freedesktop.Notifications to be owned
export DBUS_SESSION_BUS_ADDRESS="$ADDR"
for i in $(seq 200); do
    busctl --user status org.freedesktop.Notifications >/dev/null 2>&1 && break
    sleep 0.05
done
OWNER_PID=$(busctl --user status org.freedesktop.Notifications | sed -n 's/^PID=//p')
ts "org.freedesktop.Notifications owned by pid $OWNER_PID ($(cat /proc/$OWNER_PID/comm), uid $(stat -c %u /proc/$OWNER_PID))"
gdbus call --session -d org.freedesktop.Notifications -o /org/freedesktop/Notifications \
    -m org.freedesktop.Notifications.GetServerInformation >&2
ts "GetServerInformation done"

cat >$R/env.sh <<EOT
export DBUS_SESSION_BUS_ADDRESS='$ADDR'
export XDG_RUNTIME_DIR='$R/xdg'
export WAYLAND_DISPLAY='$W'
export SWAYSOCK='$(ls $R/xdg/sway-ipc.*.sock 2>/dev/null | head -n1)'
EOT
cat $R/env.sh
