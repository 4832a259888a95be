import Foundation

/// What a GNOME session needs to lock its screen, and locking it.
///
/// GNOME Shell decides once, as it starts, whether the session can lock (`LoginManager.canLock`):
/// only when a display manager (GDM) answers on the system bus with a version of at least 3.5.91,
/// and, for 48, when `/run/systemd/seats` exists. Without it there is no `Main.screenShield`, no
/// lock screen, and Lock does nothing. No GDM runs here, so a small gjs program stands in for its
/// manager object on the shell's private system bus before the shell starts; `GnomeShell`'s
/// bubblewrap call gives 48 a `/run` with that directory. The shell's `org.gnome.ScreenSaver`
/// is a gjs program of its own that a real session's bus would start on demand; it is started
/// after the shell, as the notification service is.
enum GnomeLocking {
    /// The display manager's version the stand-in gives: Debian 12's GDM.
    static let displayManagerVersion = "43.0"

    /// GDM's manager object as GNOME Shell's `loginManager.js` reads it: the `Version` property,
    /// and `RegisterSession`/`RegisterDisplay`, which the shell calls as it starts, answered
    /// with nothing.
    static let displayManagerProgram = """
        const {Gio, GLib} = imports.gi;
        const xml = `<node><interface name="org.gnome.DisplayManager.Manager">
          <property name="Version" type="s" access="read"/>
          <method name="RegisterSession"><arg name="details" type="a{sv}" direction="in"/></method>
          <method name="RegisterDisplay"><arg name="details" type="a{ss}" direction="in"/></method>
        </interface></node>`;
        const manager = {
            get Version() { return ARGV[0]; },
            RegisterSession(details) {},
            RegisterDisplay(details) {},
        };
        const exported = Gio.DBusExportedObject.wrapJSObject(xml, manager);
        exported.export(Gio.DBus.system, '/org/gnome/DisplayManager/Manager');
        const loop = new GLib.MainLoop(null, false);
        Gio.bus_own_name_on_connection(Gio.DBus.system, 'org.gnome.DisplayManager', Gio.BusNameOwnerFlags.NONE,
            () => print('owned'), () => { printerr('lost org.gnome.DisplayManager'); loop.quit(); });
        loop.run();
        """

    /// Starts the display manager's stand-in on the system bus at `systemBusAddress` (the
    /// system's gjs, for either release: it only talks D-Bus) and waits until it owns its name.
    static func startDisplayManager(systemBusAddress: String, launcher: ChildLauncher, environment: [String: String]) throws {
        let script = launcher.layout.root.appendingPathComponent("gdm-manager.js")
        do {
            try displayManagerProgram.write(to: script, atomically: true, encoding: .utf8)
        } catch {
            throw HeadlessSessionError.componentFailed(component: "display manager stand-in", reason: "cannot write \(script.path): \(error)", stderrTail: "")
        }
        var own = environment
        own["DBUS_SYSTEM_BUS_ADDRESS"] = systemBusAddress
        let process = try launcher.launch(name: "gdm-manager", executable: try ExecutableLocator.find("gjs", environment: environment),
                                          arguments: [script.path, displayManagerVersion], environment: own)
        let owned = Polling.until(timeout: .seconds(10), interval: .milliseconds(20)) {
            !process.isRunning || process.standardOutput().contains("owned")
        }
        guard owned, process.isRunning else {
            throw HeadlessSessionError.componentFailed(component: "display manager stand-in (org.gnome.DisplayManager)",
                                                       reason: process.isRunning ? "did not own its name within 10 s" : "exited with status \(process.terminationStatus ?? -1)",
                                                       stderrTail: process.standardErrorTail())
        }
    }

    /// Starts the shell's `org.gnome.ScreenSaver` service (`program` runs it in the shell's
    /// release) and waits until it owns its name.
    static func startScreenSaverService(program: (URL, [String]), launcher: ChildLauncher, environment: [String: String],
                                        sessionEnvironment: [String: String]) throws {
        let service = try launcher.launch(name: "gnome-shell-screensaver", executable: program.0, arguments: program.1, environment: environment)
        try NotificationServer.waitForName("org.gnome.ScreenSaver", ownedBy: service, component: "gnome-shell's screen saver service",
                                           launcher: launcher, environment: sessionEnvironment)
    }

    /// The shell's screen saver service (an ES module from GNOME 45 on: `gjs -m`).
    static let screenSaverProgram = "/usr/share/gnome-shell/org.gnome.ScreenSaver"

    /// The address of the shell's private system bus (`BusDaemon.startSystemBus`), for GNOME's
    /// other programs started beside it.
    static func systemBusAddress(layout: SessionLayout) -> String {
        "unix:path=" + layout.systemBusSocket.path
    }

    /// `org.gnome.ScreenSaver` at `/org/gnome/ScreenSaver`, as busctl addresses it.
    static let screenSaver = ["org.gnome.ScreenSaver", "/org/gnome/ScreenSaver", "org.gnome.ScreenSaver"]

    /// Whether the shield is up: `GetActive`.
    static func isActive(launcher: ChildLauncher, environment: [String: String]) throws -> Bool {
        let answer = try launcher.runChecked("busctl", ["--user", "call"] + screenSaver + ["GetActive"], environment: environment)
        return answer.trimmingCharacters(in: .whitespacesAndNewlines) == "b true"
    }

    /// Locks as the user's Super+L does (`org.gnome.ScreenSaver.Lock`), and returns once the
    /// shield says it is up: `ActiveChanged(true)` seen on the bus, `GetActive` true. GNOME 48
    /// answers Lock about 0.3 s before the shield is active (after its slide-in animation).
    static func lock(monitor: BusMonitor, launcher: ChildLauncher, environment: [String: String], timeout: Duration) throws {
        let asked = Date()
        try launcher.runChecked("busctl", ["--user", "call", "--timeout=20"] + screenSaver + ["Lock"], environment: environment, timeout: .seconds(30))
        let active = try Polling.until(timeout: timeout, interval: .milliseconds(50)) {
            let signalled = BusSignals.read(from: monitor, member: "ActiveChanged").contains {
                $0.interface == "org.gnome.ScreenSaver" && $0.member == "ActiveChanged" && $0.at >= asked.addingTimeInterval(-0.5)
                    && $0.arguments.first == "true"
            }
            return try signalled && isActive(launcher: launcher, environment: environment)
        }
        guard active else {
            throw HeadlessSessionError.componentFailed(component: "gnome-shell's lock", reason: "Lock was answered, but the shield was not active within \(timeout) "
                                                       + "(GetActive \((try? isActive(launcher: launcher, environment: environment)) ?? false))", stderrTail: "")
        }
    }
}
