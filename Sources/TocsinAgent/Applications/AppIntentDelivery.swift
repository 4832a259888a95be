import CGLib
import GLibSupport
import TocsinCore

/// Has applications perform their own intents: tells exactly one process of the application
/// which button of which alarm was pressed, through `org.freedesktop.Application.ActivateAction`,
/// starting the application first when none of its processes takes intents
/// (`AppIntentRoute` decides how). Never waits: every call and start is asynchronous, and a
/// press that finds no taker is logged.
final class AppIntentDelivery {
    /// How long a started application has to call `ReceiveIntents` before its presses are given
    /// up (a cold start of a large app under load takes seconds).
    static let startTimeLimit: Double = 30
    /// How long the application may take to answer the call (it answers before performing).
    private static let callTimeoutMilliseconds: Int32 = 10_000

    /// A press waiting for its application.
    private struct Press {
        let alarm: Alarm
        let button: AppIntentButtons.Button
        let mode: AppIntentButtons.Mode
    }

    /// The applications started for presses, and what waits for them.
    private struct Start {
        var presses: [Press]
        let timeout: TimeoutHandle
    }

    private let log: AgentLog
    private let connection: () -> OpaquePointer?
    /// The connections that take intents, oldest first, with their application's id.
    private var receivers: [(sender: String, appID: String)] = []
    private var starting: [String: Start] = [:]

    /// Deliveries logged to `log`, over the bus connection `connection` gives (the agent's own).
    init(log: AgentLog, connection: @escaping () -> OpaquePointer?) {
        self.log = log
        self.connection = connection
    }

    /// Has `alarm`'s application perform the intent of `button`.
    func perform(_ button: AppIntentButtons.Button, of alarm: Alarm, mode: AppIntentButtons.Mode) {
        let press = Press(alarm: alarm, button: button, mode: mode)
        let appID = alarm.owner
        if starting[appID] != nil {
            starting[appID]!.presses.append(press)
            return
        }
        let route = AppIntentRoute.choose(
            appID: appID, receivers: receivers.filter { $0.appID == appID }.map(\.sender),
            dbusActivatable: Self.isDBusActivatable(appID), confinement: alarm.appConfinement,
            executable: alarm.appIntents?.executable)
        switch route {
        case .receiver(let sender):
            deliver(press, to: sender)
        case .busActivation(let name):
            log.info("Starting “\(appID)” by D-Bus activation for the \(button.rawValue) intent of “\(alarm.title)”.")
            deliver(press, to: name)
        case .launch(let arguments):
            launch(arguments, for: press)
        case .unreachable(let reason):
            log.warning("The \(button.rawValue) intent of “\(alarm.title)” was not performed: “\(appID)” cannot be reached (\(reason)).")
        }
    }

    /// The connection `sender` of `appID` takes intents from now on; presses that waited for
    /// the application go to it.
    func addReceiver(_ sender: String, appID: String) {
        if !receivers.contains(where: { $0.sender == sender }) { receivers.append((sender, appID)) }
        guard let start = starting.removeValue(forKey: appID) else { return }
        start.timeout.cancel()
        for press in start.presses { deliver(press, to: sender) }
    }

    /// Forgets `sender`, which left the bus.
    func forget(_ sender: String) {
        receivers.removeAll { $0.sender == sender }
    }

    // MARK: Starting

    private func launch(_ arguments: [String], for press: Press) {
        let appID = press.alarm.owner
        log.info("Starting “\(appID)” (\(arguments.joined(separator: " "))) for the \(press.button.rawValue) intent of “\(press.alarm.title)”.")
        do {
            try Self.spawn(arguments)
        } catch {
            log.warning("The \(press.button.rawValue) intent of “\(press.alarm.title)” was not performed: “\(appID)” could not be started: \(error.message).")
            return
        }
        let timeout = MainLoop.after(seconds: Self.startTimeLimit) { [unowned self] in
            guard let start = starting.removeValue(forKey: appID) else { return }
            for press in start.presses {
                log.warning("The \(press.button.rawValue) intent of “\(press.alarm.title)” was not performed: “\(appID)” was started but did not take intents within \(Int(Self.startTimeLimit)) seconds (it must use TocsinKit's AlarmManager as it starts).")
            }
        }
        starting[appID] = Start(presses: [press], timeout: timeout)
    }

    /// Starts `arguments` (the program looked up in PATH) in the agent's environment, detached
    /// (`DetachedProcess`): what it prints goes where the agent's output goes (the journal).
    private static func spawn(_ arguments: [String]) throws(GLibError) {
        try DetachedProcess.start(arguments)
    }

    /// Whether `appID`'s desktop entry, found the way desktops find it (GDesktopAppInfo
    /// searches the XDG data directories), says `DBusActivatable=true`.
    private static func isDBusActivatable(_ appID: String) -> Bool {
        guard ApplicationBusName.isBusName(appID), let info = g_desktop_app_info_new("\(appID).desktop") else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return g_desktop_app_info_get_boolean(info, "DBusActivatable") != 0
    }

    // MARK: Calling

    /// Calls `ActivateAction` on `destination` (a receiver's unique name, or the application's
    /// well-known name, which activation starts it for), then `Activate` for a foreground intent.
    private func deliver(_ press: Press, to destination: String) {
        guard let connection = connection() else { return }
        let appID = press.alarm.owner
        let path = ApplicationBusName.objectPath(of: appID)
        let parameter = Variant.tuple(of: AppIntentButtons.pressArguments.encode((press.alarm.id, press.button, press.alarm.metadata ?? "")))
        let boxed: [OpaquePointer?] = [g_variant_new_variant(parameter)]
        let parameters = boxed.withUnsafeBufferPointer { buffer in g_variant_new_array(Variant.type("v"), buffer.baseAddress, 1)! }
        let arguments = Variant.tuple([g_variant_new_string(AppIntentButtons.actionName), parameters, Self.emptyPlatformData()])
        let what = "the \(press.button.rawValue) intent of “\(press.alarm.title)”"
        call(connection, destination, path, "ActivateAction", arguments) { [log] error in
            if let error {
                log.warning("“\(appID)” did not take \(what): \(error).")
            } else {
                log.info("“\(appID)” took \(what).")
            }
        }
        if press.mode == .foreground {
            call(connection, destination, path, "Activate", Variant.tuple([Self.emptyPlatformData()])) { [log] error in
                if let error { log.warning("“\(appID)” could not be brought to the front for \(what): \(error).") }
            }
        }
    }

    private static func emptyPlatformData() -> OpaquePointer {
        g_variant_new_array(Variant.type("{sv}"), nil, 0)
    }

    /// Calls `method` of `org.freedesktop.Application` without waiting; `completion` gets the
    /// error's message, or `nil`. The call may start the application (D-Bus activation).
    private func call(_ connection: OpaquePointer, _ destination: String, _ path: String, _ method: String,
                      _ arguments: OpaquePointer, completion: @escaping (String?) -> Void) {
        BusCall.start(connection, destination: destination, path: path, interface: "org.freedesktop.Application", method: method,
                      arguments: arguments, replyType: "()", flags: G_DBUS_CALL_FLAGS_NONE,
                      timeoutMilliseconds: Self.callTimeoutMilliseconds) { result in
            if case .failure(let failure) = result { completion(failure.description) } else { completion(nil) }
        }
    }
}
