import CGLib
import TocsinCore

/// Who hears the agent's signals: the bus connections that called `Watch`, each told only about
/// what its application may see — its own alarms and authorization, or everything for the
/// user's command line.
///
/// Signals go to each watcher alone (unicast), never broadcast: a broadcast reaches every client
/// that asks the bus for it, a sandboxed application included, and would hand it every other
/// application's titles, metadata and hooks, while `List` and `Get` show it only its own.
///
/// A watcher is identified when a signal is sent, not when it registered, so an application that
/// says who it is after calling `Watch` hears of its own alarms all the same.
final class SignalAudience {
    /// Whom a signal concerns: the application an alarm or an authorization belongs to
    /// (`Alarm.owner`: "tocsin" for the command line's own alarms, which only it hears of).
    typealias Concern = String

    /// Unique bus names of the watchers, in the order they registered.
    private var watchers: [String] = []
    private let identify: (String) -> Caller?
    private let send: (_ signal: AlarmsSignal, _ arguments: OpaquePointer, _ destination: String) -> Void
    /// Signals waiting for the audience to open, oldest first; `nil` once it is open.
    private var held: [(signal: AlarmsSignal, arguments: OpaquePointer, concern: Concern)]? = []

    /// An audience that tells who a watcher is with `identify` (`nil`: nobody the agent may tell
    /// anything) and sends a signal (its arguments
    /// are a tuple the callee refs if it keeps them) to one destination with `send`.
    ///
    /// It starts closed: signals wait until `open()`, so that watchers that were waiting for the
    /// agent to start hear what happened while it started (they register when it appears).
    init(identify: @escaping (String) -> Caller?,
         send: @escaping (_ signal: AlarmsSignal, _ arguments: OpaquePointer, _ destination: String) -> Void) {
        self.identify = identify
        self.send = send
    }

    deinit {
        for signal in held ?? [] { g_variant_unref(signal.arguments) }
    }

    /// How many connections are watching.
    var count: Int { watchers.count }

    /// Adds the connection `sender` (again registering is harmless).
    func add(_ sender: String) {
        if !watchers.contains(sender) { watchers.append(sender) }
    }

    /// Removes `sender`, once it left the bus.
    func remove(_ sender: String) {
        watchers.removeAll { $0 == sender }
    }

    /// Sends `signal` with `arguments` (a tuple, floating or owned: it is consumed) to every
    /// watcher that may see what it is about — or keeps it until `open()`.
    func announce(_ signal: AlarmsSignal, arguments: OpaquePointer, concerning concern: Concern) {
        let arguments = g_variant_ref_sink(arguments)!
        if held != nil {
            held!.append((signal, arguments, concern))
            return
        }
        deliver(signal, arguments, concern)
        g_variant_unref(arguments)
    }

    /// Sends what was held, in order, to the watchers registered by now, and sends every later
    /// signal at once.
    func open() {
        guard let waiting = held else { return }
        held = nil
        for signal in waiting {
            deliver(signal.signal, signal.arguments, signal.concern)
            g_variant_unref(signal.arguments)
        }
    }

    private func deliver(_ signal: AlarmsSignal, _ arguments: OpaquePointer, _ concern: Concern) {
        for watcher in watchers {
            guard let caller = identify(watcher) else { continue }
            if caller.isCommandLine || caller.appID == concern {
                send(signal, arguments, watcher)
            }
        }
    }
}
