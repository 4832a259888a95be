import Foundation

/// The screen of GNOME Shell 50 (`GnomeShellRelease.forky`), which draws on a headless Wayland
/// display of its own: no X server shows it, so it is photographed and clicked through the shell
/// itself, as a screenshot tool and a remote desktop do.
///
/// - Screenshots: `org.gnome.Shell.Screenshot.Screenshot`, which the shell answers only for the
///   callers it trusts (GNOME's media keys and its portal backend, by bus name); the program
///   that asks owns the portal backend's name, `org.freedesktop.impl.portal.desktop.gnome`,
///   for as long as it runs.
/// - The pointer: one session of `org.gnome.Mutter.RemoteDesktop` (mutter's own input
///   injection, a virtual pointer as real as a mouse to the shell) for the whole session, as a
///   mouse stays plugged in, held by a small program the session starts with the shell and
///   asks over the bus (`io.github.tocsin.TestPointer`). A session made for each click and
///   ended after it, tried first, lost the lock screen's clicks in six runs of eight: the pointer
///   a lock screen hides until it moves never showed again, nothing was hovered or clicked,
///   while keys still reached it. Absolute motion would need a screen cast stream; relative
///   motion, unaccelerated, is counted from the bottom right corner, where no hot corner is.
///
/// Both are gjs programs of the system's gjs (they only talk D-Bus), written into the session's
/// directory.
struct GnomeShellScreen {
    /// The Wayland display the shell serves, in the session's runtime directory.
    static let waylandDisplay = "wayland-0"
    /// What programs of the session see of it, in place of `DISPLAY`.
    static let waylandEnvironment = ["WAYLAND_DISPLAY": waylandDisplay, "XDG_SESSION_TYPE": "wayland"]
    /// Its one virtual monitor: Xvfb's screen, so places on it are the same as on the X sessions.
    static let monitorSize = "1280x800"
    static let monitorWidth = 1280, monitorHeight = 800

    private let launcher: ChildLauncher
    private let screenshotScript: URL
    /// The pointer's program, `io.github.tocsin.TestPointer` on the session bus.
    private let pointer: SessionProcess

    /// Writes the programs and starts the pointer's (the shell must own its names by then);
    /// returns once the pointer's program owns its name.
    init(launcher: ChildLauncher, environment: [String: String]) throws {
        self.launcher = launcher
        screenshotScript = launcher.layout.root.appendingPathComponent("gnome-shell-screenshot.js")
        let pointerScript = launcher.layout.root.appendingPathComponent("gnome-shell-pointer.js")
        do {
            try Self.screenshotProgram.write(to: screenshotScript, atomically: true, encoding: .utf8)
            try Self.pointerProgram.write(to: pointerScript, atomically: true, encoding: .utf8)
        } catch {
            throw HeadlessSessionError.componentFailed(component: "gnome-shell's screen", reason: "cannot write its programs: \(error)", stderrTail: "")
        }
        // Mutter owns its remote desktop's name a moment after the shell its own.
        let remoteDesktop = Polling.until(timeout: .seconds(10), interval: .milliseconds(50)) {
            (try? BusDaemon.nameHasOwner("org.gnome.Mutter.RemoteDesktop", launcher: launcher, environment: environment)) == true
        }
        guard remoteDesktop else {
            throw HeadlessSessionError.componentFailed(component: "gnome-shell's remote desktop", reason: "org.gnome.Mutter.RemoteDesktop had no owner within 10 s", stderrTail: "")
        }
        pointer = try launcher.launch(name: "gnome-shell-pointer", executable: try ExecutableLocator.find("gjs", environment: environment),
                                      arguments: [pointerScript.path], environment: environment)
        try NotificationServer.waitForName(Self.pointerName, ownedBy: pointer, component: "the remote-desktop pointer",
                                           launcher: launcher, environment: environment)
    }

    /// Saves a PNG of the whole screen, as the shell composes it (the lock screen included), to `url`.
    func screenshot(to url: URL, environment: [String: String]) throws {
        try launcher.runChecked("gjs", [screenshotScript.path, url.path], environment: environment, timeout: .seconds(20))
    }

    /// Moves the pointer to (`x`, `y`).
    func movePointer(x: Int, y: Int, environment: [String: String]) throws {
        try askPointer("Move", x: x, y: y, environment: environment)
    }

    /// Moves the pointer to (`x`, `y`), waits as a hand does, clicks the left button there, and
    /// moves it off to the bottom of the screen, as the X sessions' clicks end.
    func click(x: Int, y: Int, environment: [String: String]) throws {
        try askPointer("Click", x: x, y: y, environment: environment)
    }

    private func askPointer(_ method: String, x: Int, y: Int, environment: [String: String]) throws {
        try launcher.runChecked("busctl", ["--user", "call", "--timeout=10", Self.pointerName, "/io/github/tocsin/TestPointer", Self.pointerName,
                                           method, "ii", String(x), String(y)], environment: environment, timeout: .seconds(20))
    }

    static let pointerName = "io.github.tocsin.TestPointer"

    static let screenshotProgram = """
        const {Gio, GLib} = imports.gi;
        const [path] = ARGV;
        const loop = new GLib.MainLoop(null, false);
        let status = 1;
        // The shell takes screenshots only for the names it trusts: this program owns one first.
        Gio.bus_own_name(Gio.BusType.SESSION, 'org.freedesktop.impl.portal.desktop.gnome', Gio.BusNameOwnerFlags.NONE, null, () => {
            Gio.DBus.session.call('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot', 'org.gnome.Shell.Screenshot', 'Screenshot',
                new GLib.Variant('(bbs)', [false, false, path]), null, Gio.DBusCallFlags.NONE, 15000, null, (connection, result) => {
                    try {
                        const [success] = connection.call_finish(result).deepUnpack();
                        status = success ? 0 : 1;
                        if (!success) printerr('the shell did not take the screenshot');
                    } catch (e) {
                        printerr(e.message);
                    }
                    loop.quit();
                });
        }, () => { printerr('cannot own org.freedesktop.impl.portal.desktop.gnome'); loop.quit(); });
        loop.run();
        imports.system.exit(status);
        """

    /// Holds one remote-desktop session for as long as it runs, and moves and clicks its pointer
    /// when asked (`Move`, `Click`: x, y), answering once it has.
    static let pointerProgram = """
        const {Gio, GLib} = imports.gi;
        const bus = Gio.DBus.session;
        const call = (path, iface, method, args = null, type = null) =>
            bus.call_sync('org.gnome.Mutter.RemoteDesktop', path, iface, method, args ? new GLib.Variant(type, args) : null,
                null, Gio.DBusCallFlags.NONE, 5000, null);
        const [session] = call('/org/gnome/Mutter/RemoteDesktop', 'org.gnome.Mutter.RemoteDesktop', 'CreateSession').deepUnpack();
        const inSession = (method, args = null, type = null) => call(session, 'org.gnome.Mutter.RemoteDesktop.Session', method, args, type);
        inSession('Start');
        const button = pressed => inSession('NotifyPointerButton', [0x110 /* BTN_LEFT */, pressed], '(ib)');
        const moveTo = (x, y) => {
            // Into the bottom right corner (motion stops at the edge), then from there.
            inSession('NotifyPointerMotionRelative', [100000, 100000], '(dd)');
            GLib.usleep(30000);
            inSession('NotifyPointerMotionRelative', [x - \(monitorWidth - 1), y - \(monitorHeight - 1)], '(dd)');
        };
        const xml = `<node><interface name="\(pointerName)">
          <method name="Move"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
          <method name="Click"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
        </interface></node>`;
        const pointer = {
            Move(x, y) {
                moveTo(x, y);
                GLib.usleep(50000);
            },
            Click(x, y) {
                moveTo(x, y);
                // A moment between arriving and pressing, as a hand takes.
                GLib.usleep(150000);
                button(true);
                GLib.usleep(60000);
                button(false);
                GLib.usleep(100000);
                moveTo(640, 760);
                GLib.usleep(50000);
            },
        };
        // Kept in a constant: a wrapper the garbage collector takes is unexported with it.
        const exported = Gio.DBusExportedObject.wrapJSObject(xml, pointer);
        exported.export(bus, '/io/github/tocsin/TestPointer');
        const loop = new GLib.MainLoop(null, false);
        Gio.bus_own_name_on_connection(bus, '\(pointerName)', Gio.BusNameOwnerFlags.NONE, null, () => loop.quit());
        // Gone with the shell's remote desktop: nothing left to hold.
        Gio.bus_watch_name_on_connection(bus, 'org.gnome.Mutter.RemoteDesktop', Gio.BusNameWatcherFlags.NONE, null, () => loop.quit());
        loop.run();
        """
}
