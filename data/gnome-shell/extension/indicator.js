// Tocsin in GNOME Shell's top bar: a label with the countdown that ends first ("Pasta 2:59"), a
// bell while an alarm rings, and a menu with each alarm's actions, New timer and Stop all ringing.
//
// GNOME has no tray. The extension owns io.github.tocsin.Panel, which tells the agent that a panel
// shows its tray item; it then reads that item — org.kde.StatusNotifierItem and its
// com.canonical.dbusmenu menu — on the agent's own bus name, and follows its signals. The agent
// decides everything (label, tooltip, menu, when it changes: at most once a second, only while
// something counts down); the extension only draws it and sends clicks back.
//
// This is the indicator both builds share. GNOME 43 and 44 load extensions as scripts, GNOME 45
// and later as ES modules, and no one file is both: scripts/gnome-shell-extension puts this file
// in place of the "// @include indicator.js" line of extension-43.js or extension-45.js, which
// bring Clutter, Gio, GLib, GObject, St, Main, PanelMenu and PopupMenu into scope their own way,
// and make the extension object that adds TocsinIndicator to the top bar.

const AGENT = 'io.github.tocsin.Agent';
const HOST_NAME = 'io.github.tocsin.Panel';
const ITEM_PATH = '/StatusNotifierItem';
const ITEM_INTERFACE = 'org.kde.StatusNotifierItem';
const MENU_PATH = '/MenuBar';
const MENU_INTERFACE = 'com.canonical.dbusmenu';

const TocsinIndicator = GObject.registerClass(
class TocsinIndicator extends PanelMenu.Button {
    _init() {
        super._init(0.5, 'Tocsin');
        const box = new St.BoxLayout({style_class: 'panel-status-menu-box'});
        this._icon = new St.Icon({icon_name: 'io.github.tocsin.Agent-symbolic', style_class: 'system-status-icon'});
        this._label = new St.Label({text: '', y_align: Clutter.ActorAlign.CENTER});
        box.add_child(this._icon);
        box.add_child(this._label);
        this.add_child(box);
        this.visible = false;
        this._bus = Gio.DBus.session;
        this._subscriptions = ['NewStatus', 'NewIcon', 'NewToolTip', 'XAyatanaNewLabel'].map(signal =>
            this._bus.signal_subscribe(AGENT, ITEM_INTERFACE, signal, ITEM_PATH, null, Gio.DBusSignalFlags.NONE, () => this._refresh()));
        // Kept current whether open or not: GNOME opens no menu that is empty.
        this._subscriptions.push(this._bus.signal_subscribe(AGENT, MENU_INTERFACE, 'LayoutUpdated', MENU_PATH, null,
            Gio.DBusSignalFlags.NONE, () => this._loadMenu()));
        // A countdown's line ticks as a new label of its entry alone, not as a new layout.
        this._subscriptions.push(this._bus.signal_subscribe(AGENT, MENU_INTERFACE, 'ItemsPropertiesUpdated', MENU_PATH, null,
            Gio.DBusSignalFlags.NONE, (bus, sender, path, iface, signal, parameters) => this._updateLabels(parameters)));
        // The menu's entries by their dbusmenu id, for those updates.
        this._items = new Map();
        this._agentWatch = Gio.bus_watch_name_on_connection(this._bus, AGENT, Gio.BusNameWatcherFlags.NONE,
            () => this._refresh(), () => this._show(null));
        this._hostName = Gio.bus_own_name_on_connection(this._bus, HOST_NAME, Gio.BusNameOwnerFlags.NONE, null, null);
        // Hidden on the lock screen, where the shell keeps extensions' top-bar items: its menu
        // acts as the user (New timer, Stop all ringing, each alarm's actions), and the lock
        // screen is not the user's session but what anyone at the machine sees; its label
        // carries titles the user may keep private there. The lock screen's own list
        // (lockscreen.js) shows what may be shown and offers only the ringing alarm's and the
        // countdown's buttons.
        this._sessionModeId = Main.sessionMode.connect('updated', () => this._syncVisible());
    }

    _syncVisible() {
        const wasVisible = this.visible;
        this.visible = (this._status ?? 'Passive') !== 'Passive' && !Main.sessionMode.isLocked;
        if (this.visible && !wasVisible) this._loadMenu();
        if (!this.visible && this.menu.isOpen) this.menu.close();
    }

    // While something rings, a click on the label stops it, as a click on the tray item does.
    vfunc_event(event) {
        const press = event.type() === Clutter.EventType.BUTTON_PRESS || event.type() === Clutter.EventType.TOUCH_BEGIN;
        if (press && this._status === 'NeedsAttention' && event.get_button?.() !== 3) {
            this._call(ITEM_PATH, ITEM_INTERFACE, 'Activate', new GLib.Variant('(ii)', [0, 0]));
            return Clutter.EVENT_STOP;
        }
        return super.vfunc_event(event);
    }

    // An answer that does not come (the agent gone, or refusing) is drawn as nothing; an error
    // in `done` itself is not caught here, so the shell's log shows it.
    _call(path, iface, method, parameters, done) {
        this._bus.call(AGENT, path, iface, method, parameters, null, Gio.DBusCallFlags.NO_AUTO_START, 5000, null, (bus, result) => {
            let reply = null;
            try {
                reply = bus.call_finish(result);
            } catch (e) {
                reply = null;
            }
            done?.(reply);
        });
    }

    _refresh() {
        this._call(ITEM_PATH, 'org.freedesktop.DBus.Properties', 'GetAll', new GLib.Variant('(s)', [ITEM_INTERFACE]),
            reply => this._show(reply ? reply.deep_unpack()[0] : null));
    }

    _show(properties) {
        const value = name => properties?.[name]?.deep_unpack();
        this._status = value('Status') ?? 'Passive';
        this._label.text = value('XAyatanaLabel') ?? '';
        this._icon.icon_name = value('IconName') || 'io.github.tocsin.Agent-symbolic';
        this._syncVisible();
    }

    _loadMenu() {
        this._call(MENU_PATH, MENU_INTERFACE, 'GetLayout', new GLib.Variant('(iias)', [0, -1, []]), reply => {
            this.menu.removeAll();
            this._items.clear();
            if (!reply) return;
            const [, [, , children]] = reply.deep_unpack();
            for (const child of children) this._addItem(this.menu, child.deep_unpack());
        });
    }

    _addItem(menu, [id, properties, children]) {
        const value = name => properties[name]?.deep_unpack();
        if (value('type') === 'separator') {
            menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());
            return;
        }
        const label = (value('label') ?? '').trim();
        if (children.length > 0) {
            const submenu = new PopupMenu.PopupSubMenuMenuItem(label);
            for (const child of children) this._addItem(submenu.menu, child.deep_unpack());
            menu.addMenuItem(submenu);
            this._items.set(id, submenu);
            return;
        }
        const item = new PopupMenu.PopupMenuItem(label, {reactive: value('enabled') !== false});
        this._items.set(id, item);
        item.connect('activate', () => this._call(MENU_PATH, MENU_INTERFACE, 'Event',
            new GLib.Variant('(isvu)', [id, 'clicked', new GLib.Variant('i', 0), 0])));
        menu.addMenuItem(item);
    }

    // ItemsPropertiesUpdated's (a(ia{sv})a(ias)): new labels for entries already drawn.
    _updateLabels(parameters) {
        const [updated] = parameters.deep_unpack();
        for (const [id, properties] of updated) {
            const label = properties['label']?.deep_unpack();
            const item = this._items.get(id);
            if (item && label !== undefined) item.label.text = label.trim();
        }
    }

    destroy() {
        Main.sessionMode.disconnect(this._sessionModeId);
        for (const id of this._subscriptions) this._bus.signal_unsubscribe(id);
        Gio.bus_unwatch_name(this._agentWatch);
        Gio.bus_unown_name(this._hostName);
        super.destroy();
    }
});
