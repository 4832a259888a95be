import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore

/// Wakes the display for a ringing alarm, and keeps it from going idle while it rings, through
/// whatever the desktop offers; never unlocks. Each way is tried, none waited for:
///
/// - `WakeDisplay` on Tocsin's lock-screen interface (`LockScreenService`): the GNOME Shell
///   extension wakes a locked GNOME screen, which nothing outside the shell can (gsd's
///   `org.freedesktop.ScreenSaver` answers `NotSupported` to SimulateUserActivity, and a locked
///   GNOME ignores idle inhibitors) — also in do-not-disturb, where GNOME's own wake for a new
///   notification is suppressed.
/// - `org.freedesktop.ScreenSaver.SimulateUserActivity`: Plasma's kscreenlocker and
///   xfce4-screensaver count it as the user's activity and light the screen.
/// - `org.kde.Solid.PowerManagement.wakeup`: Plasma's PowerDevil leaves idle and turns the
///   display on (what KClock calls on every ring).
/// - `xscreensaver-command -deactivate`: xscreensaver unblanks (and, locked, shows its password
///   dialog, which stays locked); kept lit while it rings (`XScreenSaverKeeper`), since its
///   dialog goes after its own timeout, between two of the 10 s wakes.
/// - `xset dpms force on` on X11: a display that DPMS turned off comes back on.
///
/// Held awake with an `org.freedesktop.ScreenSaver` idle inhibitor (GNOME's, Plasma's, Xfce's)
/// from the first ring to the last. The decider says when (`AgentEffect.wakeDisplay`, every
/// 10 s while ringing; `.holdDisplayAwake`); this only carries it out.
final class DisplayWaker {
    private let log: AgentLog
    private let connection: () -> OpaquePointer?
    private let lockScreen: LockScreenService
    /// `xscreensaver-command` and `xset`, where the session is X11 and they are installed.
    private let xscreensaverCommand: String?
    private let xset: String?
    /// The idle inhibitor's cookie while held; `holding` is what the decider last asked for.
    private var cookie: UInt32?
    private var holding = false
    private var inhibitAsked = false
    /// Ways that failed during this ring, said once each.
    private var failuresSaid: Set<String> = []
    /// xscreensaver kept lit while a ring holds the display.
    private let xscreensaverKeeper: XScreenSaverKeeper?

    init(log: AgentLog, connection: @escaping () -> OpaquePointer?, lockScreen: LockScreenService,
         environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.log = log
        self.connection = connection
        self.lockScreen = lockScreen
        // X11 programs only for an X display; on Wayland DISPLAY may name Xwayland, whose DPMS is
        // not the screen's.
        let x11 = !(environment["DISPLAY"] ?? "").isEmpty && (environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        xscreensaverCommand = x11 ? Self.findProgram("xscreensaver-command") : nil
        xset = x11 ? Self.findProgram("xset") : nil
        xscreensaverKeeper = xscreensaverCommand.map { XScreenSaverKeeper(program: $0, log: log) }
    }

    /// Wakes the display now.
    func wake() {
        lockScreen.sendWakeDisplay()
        call(ScreenSaverCall.simulateUserActivity)
        call(ScreenSaverCall.powerDevilWakeup)
        guard xscreensaverCommand != nil || xset != nil else { return }
        // Started once the loop is idle: a fork costs tens of milliseconds on a loaded machine,
        // which the ring's signal and alert, carried out next, must not wait for (the frozen
        // players' test saw the next alarm's alert 0.28 s late with the fork before it).
        MainLoop.post { [weak self] in
            guard let self else { return }
            if let xscreensaverCommand { spawn([xscreensaverCommand, "-deactivate"]) }
            if let xset { spawn([xset, "dpms", "force", "on"]) }
        }
    }

    /// Holds the display awake (`true`) or lets it go.
    func hold(_ awake: Bool) {
        guard awake != holding else { return }
        holding = awake
        if awake {
            failuresSaid = []
            inhibit()
            xscreensaverKeeper?.start()
            return
        }
        xscreensaverKeeper?.stop()
        if let cookie {
            self.cookie = nil
            call(ScreenSaverCall.unInhibit(cookie))
        }
        // Let go while the inhibitor was still being asked for: its answer lets it go (`inhibit`).
    }

    private func inhibit() {
        guard !inhibitAsked, let connection = connection() else { return }
        inhibitAsked = true
        let request = ScreenSaverCall.inhibit
        BusCall.start(connection, destination: request.destination, path: request.path, interface: request.interface, method: request.method,
                      arguments: request.arguments(), replyType: request.replyType, flags: G_DBUS_CALL_FLAGS_NO_AUTO_START,
                      timeoutMilliseconds: 5000) { [weak self] result in
            guard let self else { return }
            inhibitAsked = false
            let reply: OpaquePointer
            switch result {
            case .success(let answer): reply = answer
            case .failure(let failure): return sayOnce(request, failure)
            }
            let child = Variant.child(reply, 0)
            let value = g_variant_get_uint32(child)
            g_variant_unref(child)
            if holding {
                cookie = value
            } else {
                call(ScreenSaverCall.unInhibit(value))
            }
        }
    }

    private func call(_ request: ScreenSaverCall) {
        guard let connection = connection() else { return }
        BusCall.start(connection, destination: request.destination, path: request.path, interface: request.interface, method: request.method,
                      arguments: request.arguments(), replyType: request.replyType, flags: G_DBUS_CALL_FLAGS_NO_AUTO_START,
                      timeoutMilliseconds: 5000) { [weak self] result in
            guard let self, case .failure(let failure) = result else { return }
            sayOnce(request, failure)
        }
    }

    /// A way that did not work, said once a ring: no desktop offers all of them, so it is news
    /// only for the log, and only at info level.
    private func sayOnce(_ request: ScreenSaverCall, _ failure: BusCallFailure) {
        guard failuresSaid.insert(request.method).inserted else { return }
        log.info("\(request.destination).\(request.method) did not answer as asked (\(failure)); the display is woken in the other ways.")
    }

    /// Starts `arguments`, detached, its output discarded.
    private func spawn(_ arguments: [String]) {
        do throws(GLibError) {
            try DetachedProcess.start(arguments, discardingOutput: true)
        } catch {
            if failuresSaid.insert(arguments[0]).inserted { log.info("\(arguments[0]) could not be started: \(error.message).") }
        }
    }

    private static func findProgram(_ name: String) -> String? {
        guard let found = g_find_program_in_path(name) else { return nil }
        defer { g_free(found) }
        return String(cString: found)
    }
}

/// The calls `DisplayWaker` makes, each to the desktop's own service.
private struct ScreenSaverCall: Sendable {
    let destination: String
    let path: String
    let interface: String
    let method: String
    /// The inhibitor's cookie, for UnInhibit.
    var cookie: UInt32?

    /// The type its reply must have: Inhibit's cookie, nothing for the others.
    var replyType: String { method == "Inhibit" ? "(u)" : "()" }

    /// The call's arguments (a floating tuple), or `nil` for none.
    func arguments() -> OpaquePointer? {
        switch method {
        case "Inhibit": Variant.tuple([g_variant_new_string("Tocsin"), g_variant_new_string("An alarm is ringing")])
        case "UnInhibit": Variant.tuple([g_variant_new_uint32(cookie ?? 0)])
        default: nil
        }
    }

    private static func screenSaver(_ method: String, cookie: UInt32? = nil) -> ScreenSaverCall {
        ScreenSaverCall(destination: "org.freedesktop.ScreenSaver", path: "/org/freedesktop/ScreenSaver",
                        interface: "org.freedesktop.ScreenSaver", method: method, cookie: cookie)
    }

    static let simulateUserActivity = screenSaver("SimulateUserActivity")
    static let inhibit = screenSaver("Inhibit")
    static func unInhibit(_ cookie: UInt32) -> ScreenSaverCall { screenSaver("UnInhibit", cookie: cookie) }
    static let powerDevilWakeup = ScreenSaverCall(destination: "org.kde.Solid.PowerManagement", path: "/org/kde/Solid/PowerManagement",
                                                  interface: "org.kde.Solid.PowerManagement", method: "wakeup")
}
