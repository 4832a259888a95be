// Tocsin on GNOME Shell's lock screen: each alarm the agent lists — its title, its time and its
// buttons (Stop and Snooze while it rings, Pause or Resume and Cancel while it counts down) — drawn
// on the locked screen, so that a person woken by it stops or snoozes it without unlocking; and
// the screen woken when the agent asks.
//
// The agent decides everything, through io.github.tocsin.LockScreen1 on its bus name: what to
// list, in which order, with which title (the user may keep titles private: "Alarm" instead),
// which buttons, and when the screen should wake (WakeDisplay, sent as a ring starts and every
// 10 s while something rings: GNOME blanks a locked screen after 30 s whatever inhibits idling).
// This file only draws the list, ticks a countdown's time left from its end, and sends a press
// back as Press(id, key).
//
// GNOME Shell draws the lock screen in Main.screenShield._dialog, which it makes as the screen
// locks and destroys as it unlocks (a private field, as gnome-pomodoro uses it): the list is put
// into each new dialog when the shield says it locked or went active.
//
// Shared by both builds as indicator.js is: scripts/gnome-shell-extension puts it in place of the
// "// @include lockscreen.js" line, after the imports of Clutter, Gio, GLib, GObject, St and Main.

const LOCK_SCREEN_PATH = '/io/github/tocsin/LockScreen';
const LOCK_SCREEN_INTERFACE = 'io.github.tocsin.LockScreen1';
const LOCK_SCREEN_XML = `<node>
  <interface name="io.github.tocsin.LockScreen1">
    <property name="Alarms" type="aa{sv}" access="read"/>
    <method name="Press"><arg name="id" type="s" direction="in"/><arg name="key" type="s" direction="in"/></method>
    <signal name="WakeDisplay"/>
  </interface>
</node>`;
const LockScreenProxy = Gio.DBusProxy.makeProxyWrapper(LOCK_SCREEN_XML);

// Each state's icon, as the top bar's item draws it (installed in hicolor with Tocsin).
const STATE_ICONS = {
    ringing: 'io.github.tocsin.Agent-ringing-symbolic',
    counting: 'io.github.tocsin.Agent-countdown-symbolic',
    paused: 'io.github.tocsin.Agent-paused-symbolic',
};

// "4:59", or "1:04:59" from an hour on: as the agent writes a countdown's time left.
function formatTimeLeft(seconds) {
    const s = Math.max(0, seconds);
    const hours = Math.floor(s / 3600);
    const minutes = Math.floor((s % 3600) / 60);
    const rest = String(s % 60).padStart(2, '0');
    return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

// Whole seconds left until `endsAt` (µs since the epoch) as the agent counts them in the
// countdown's notification (CountdownClock.displayedSeconds): rounded to the nearest, at least 1
// while any time remains, 0 once none does. Read on the clock's whole seconds, as the agent
// updates the notification, the two show the same time left.
function secondsLeft(endsAt) {
    const remaining = (endsAt - GLib.get_real_time()) / 1000000;
    return remaining > 0 ? Math.max(1, Math.round(remaining)) : 0;
}

// One alarm's row: state icon, title over time, then its buttons.
const TocsinLockScreenRow = GObject.registerClass(
class TocsinLockScreenRow extends St.BoxLayout {
    _init(entry, press) {
        super._init({style_class: 'tocsin-lock-screen-alarm', x_expand: true});
        this._icon = new St.Icon({style_class: 'tocsin-lock-screen-icon', y_align: Clutter.ActorAlign.CENTER});
        const text = new St.BoxLayout({vertical: true, x_expand: true, y_align: Clutter.ActorAlign.CENTER});
        this._title = new St.Label({style_class: 'tocsin-lock-screen-title'});
        this._time = new St.Label({style_class: 'tocsin-lock-screen-time'});
        text.add_child(this._title);
        text.add_child(this._time);
        this._buttons = new St.BoxLayout({style_class: 'tocsin-lock-screen-buttons', y_align: Clutter.ActorAlign.CENTER});
        this.add_child(this._icon);
        this.add_child(text);
        this.add_child(this._buttons);
        this._press = press;
        this.update(entry);
    }

    update(entry) {
        this._entry = entry;
        this._icon.icon_name = STATE_ICONS[entry.state] ?? 'io.github.tocsin.Agent-symbolic';
        this._title.text = entry.title;
        this.tick();
        const buttons = entry.buttons.map(([key, label]) => `${key}\u0000${label}`).join('\u0001');
        if (buttons === this._drawnButtons)
            return;
        this._drawnButtons = buttons;
        this._buttons.destroy_all_children();
        for (const [key, label] of entry.buttons) {
            // Not focusable: the unlock dialog keeps the keyboard for the password, and a key
            // typed on the lock screen must go there, not press Stop.
            const button = new St.Button({
                label,
                style_class: 'button tocsin-lock-screen-button',
                can_focus: false,
                reactive: true,
            });
            button.connect('clicked', () => this._press(this._entry.id, key));
            this._buttons.add_child(button);
        }
    }

    // A countdown's time left from its end, this second; the agent's text otherwise (a ringing
    // alarm's time, a paused timer's time left).
    tick() {
        const {state, time, endsAt} = this._entry;
        this._time.text = state === 'counting' && endsAt !== undefined ? formatTimeLeft(secondsLeft(endsAt)) : time;
    }
});

// The list of alarms on the lock screen, below its clock.
const TocsinLockScreenList = GObject.registerClass(
class TocsinLockScreenList extends St.BoxLayout {
    _init(press) {
        super._init({
            style_class: 'tocsin-lock-screen',
            vertical: true,
            visible: false,
            reactive: true,
        });
        this._press = press;
        this._rows = new Map();
        this._tickId = 0;
        this.connect('destroy', () => this._stopTicking());
    }

    show_entries(entries) {
        const wanted = new Set(entries.map(entry => entry.id));
        for (const [id, row] of this._rows) {
            if (!wanted.has(id)) {
                row.destroy();
                this._rows.delete(id);
            }
        }
        entries.forEach((entry, index) => {
            let row = this._rows.get(entry.id);
            if (row) {
                row.update(entry);
            } else {
                row = new TocsinLockScreenRow(entry, this._press);
                this._rows.set(entry.id, row);
                this.add_child(row);
            }
            this.set_child_at_index(row, index);
        });
        this.visible = entries.length > 0;
        this._stopTicking();
        if (entries.some(entry => entry.state === 'counting' && entry.endsAt !== undefined))
            this._scheduleTick();
    }

    // Wakes just after the clock's next whole second, when the agent updates the countdowns'
    // notifications too, so the lock screen and the notification change together.
    _scheduleTick() {
        const untilNext = 1000000 - GLib.get_real_time() % 1000000;
        this._tickId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, Math.ceil(untilNext / 1000) + 5, () => {
            this._tickId = 0;
            for (const row of this._rows.values())
                row.tick();
            this._scheduleTick();
            return GLib.SOURCE_REMOVE;
        });
    }

    _stopTicking() {
        if (this._tickId) {
            GLib.source_remove(this._tickId);
            this._tickId = 0;
        }
    }
});

// Follows the agent's lock-screen interface and the shield, and keeps the list in the lock
// screen of the moment.
class TocsinLockScreen {
    constructor() {
        this._entries = [];
        this._list = null;
        this._proxy = null;
        this._cancellable = new Gio.Cancellable();
        new LockScreenProxy(Gio.DBus.session, AGENT, LOCK_SCREEN_PATH, (proxy, error) => {
            if (error) {
                if (!error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED))
                    logError(error, 'Tocsin: cannot follow the agent’s lock-screen list');
                return;
            }
            this._proxy = proxy;
            // The properties come again whenever the agent (re)appears on the bus.
            this._proxy.connectObject(
                'g-properties-changed', () => this._read(),
                'notify::g-name-owner', () => this._read(),
                this);
            this._wakeId = this._proxy.connectSignal('WakeDisplay', () => this._wake());
            this._read();
        }, this._cancellable, Gio.DBusProxyFlags.DO_NOT_AUTO_START);

        // No shield where the session cannot lock (no display manager): nothing to draw on.
        Main.screenShield?.connectObject(
            'locked-changed', () => this._attach(),
            'active-changed', () => this._attach(),
            this);
        this._attach();
    }

    // The entries as the agent wrote them, read whole each time: the list is short.
    _read() {
        const alarms = this._proxy?.g_name_owner ? this._proxy.Alarms ?? [] : [];
        this._entries = alarms.map(alarm => {
            const value = key => alarm[key]?.deepUnpack?.() ?? alarm[key];
            return {
                id: value('id') ?? '',
                title: value('title') ?? '',
                state: value('state') ?? '',
                time: value('time') ?? '',
                endsAt: value('ends-at'),
                buttons: value('buttons') ?? [],
            };
        });
        this._list?.show_entries(this._entries);
    }

    // Puts the list into the shield's dialog, once per dialog: it exists from the first lock
    // on, and a new one is made after each unlock.
    _attach() {
        const dialog = Main.screenShield?._dialog;
        if (!dialog || this._list?.get_parent() === dialog)
            return;
        this._list?.destroy();
        this._list = new TocsinLockScreenList((id, key) => this._pressed(id, key));
        // Centred on the screen's width, right below the clock (or the password prompt, which
        // takes its place after a click or a key): the dialog places its children by position
        // alone, and GNOME puts the clock's column a third of the way down, its own notification
        // rows at the bottom. Seen on both pages, so a click that brings up the prompt leaves
        // the buttons where they were. A shell without that column gets two thirds of the way down.
        this._list.add_constraint(new Clutter.AlignConstraint({source: dialog, align_axis: Clutter.AlignAxis.X_AXIS, factor: 0.5}));
        const column = dialog._stack;
        if (column instanceof Clutter.Actor) {
            const below = new Clutter.BindConstraint({source: column, coordinate: Clutter.BindCoordinate.Y});
            const place = () => (below.offset = column.height + 24);
            column.connectObject('notify::height', place, this._list);
            place();
            this._list.add_constraint(below);
        } else {
            this._list.add_constraint(new Clutter.AlignConstraint({source: dialog, align_axis: Clutter.AlignAxis.Y_AXIS, factor: 0.66}));
        }
        dialog.add_child(this._list);
        this._list.connect('destroy', list => {
            if (this._list === list)
                this._list = null;
        });
        this._list.show_entries(this._entries);
    }

    _pressed(id, key) {
        this._proxy?.PressRemote(id, key, (result, error) => {
            if (error)
                logError(error, `Tocsin: ${key} on ${id}`);
        });
    }

    // GNOME's own way to light a locked screen that has gone black (the lightbox lifted, and
    // org.gnome.ScreenSaver.WakeUpScreen sent, on which gnome-settings-daemon turns the display
    // on): what a new notification does, except in do-not-disturb, where a ringing alarm must
    // still be seen. Only while the shield is up: unlocked, the agent's notification is seen.
    _wake() {
        const shield = Main.screenShield;
        if (!shield?.active)
            return;
        if (typeof shield._wakeUpScreen === 'function')
            shield._wakeUpScreen();
        else
            shield._dialog?.emit('wake-up-screen');
    }

    destroy() {
        this._cancellable.cancel();
        Main.screenShield?.disconnectObject(this);
        if (this._proxy) {
            this._proxy.disconnectObject(this);
            this._proxy.disconnectSignal(this._wakeId);
        }
        this._proxy = null;
        this._list?.destroy();
        this._list = null;
    }
}
