import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore

/// Rings the user's paired phones through KDE Connect's daemon (`org.kde.kdeconnect` on the
/// session bus): every paired, reachable device is asked to ring (its find-my-phone plugin) and
/// is sent a ping with the alarm's title. GSConnect serves another API (an ObjectManager of
/// devices whose GActions include `ring` and `ping`) and is not asked yet.
///
/// Every call is asynchronous and never starts the daemon (NO_AUTO_START): the ring at the desk
/// has started before the phones are asked, and a missing daemon, no device or one gone out of
/// reach changes nothing there. Each kind of failure is logged once, until a ring reaches a phone.
final class KDEConnectPhones: PhoneRinging {
    private let log: AgentLog
    private let connection: () -> OpaquePointer?
    /// The failures already logged, by kind, so a flaky phone does not fill the log.
    private var loggedProblems: Set<String> = []
    var onRung: (Alarm) -> Void = { _ in }

    static let daemonName = "org.kde.kdeconnect"
    static let daemonPath = "/modules/kdeconnect"
    static let callTimeoutMilliseconds: Int32 = 5000

    /// Phones reached on the agent's bus `connection`.
    init(log: AgentLog, connection: @escaping () -> OpaquePointer?) {
        self.log = log
        self.connection = connection
    }

    func ring(for alarm: Alarm) {
        guard let connection = connection() else { return }
        // devices(onlyReachable, onlyPaired): the phones that can ring now.
        call(connection, Self.daemonPath, "org.kde.kdeconnect.daemon", "devices",
             Variant.tuple([g_variant_new_boolean(1), g_variant_new_boolean(1)])) { [weak self] reply, error in
            guard let self else { return }
            guard let reply else {
                problem("daemon", "No phone was rung for “\(alarm.title)”: KDE Connect does not answer (\(error ?? "no reply")).")
                return
            }
            let devices = Variant.strings(in: reply, at: 0)
            guard !devices.isEmpty else {
                problem("devices", "No phone was rung for “\(alarm.title)”: KDE Connect knows no paired phone within reach.")
                return
            }
            // One `onRung` for the alarm, however many phones answer.
            var told = false
            for device in devices {
                ring(device, for: alarm, on: connection) { [weak self] in
                    guard !told else { return }
                    told = true
                    self?.onRung(alarm)
                }
            }
        }
    }

    private func ring(_ device: String, for alarm: Alarm, on connection: OpaquePointer, whenRung: @escaping () -> Void) {
        let path = "\(Self.daemonPath)/devices/\(device)"
        call(connection, "\(path)/findmyphone", "org.kde.kdeconnect.device.findmyphone", "ring", nil) { [weak self] reply, error in
            guard let self else { return }
            if reply != nil {
                loggedProblems.removeAll()
                log.info("Rang the phone \(device) for “\(alarm.title)”.")
                whenRung()
            } else {
                problem("ring \(device)", "The phone \(device) was not rung for “\(alarm.title)”: \(error ?? "no reply") (is its find-my-phone plugin on?).")
            }
        }
        call(connection, "\(path)/ping", "org.kde.kdeconnect.device.ping", "sendPing",
             Variant.tuple([g_variant_new_string("⏰ \(alarm.title)")])) { [weak self] reply, error in
            if reply == nil { self?.problem("ping \(device)", "The phone \(device) was sent no message for “\(alarm.title)”: \(error ?? "no reply").") }
        }
    }

    private func problem(_ kind: String, _ message: String) {
        guard loggedProblems.insert(kind).inserted else { return }
        log.warning(message)
    }

    /// Calls `method` on KDE Connect's daemon without waiting; `completion` gets the reply (valid
    /// only during the call) or the error's message, on the main loop.
    private func call(_ connection: OpaquePointer, _ path: String, _ interface: String, _ method: String, _ arguments: OpaquePointer?,
                      completion: @escaping (OpaquePointer?, String?) -> Void) {
        AsyncBusCall.start(connection, destination: Self.daemonName, path: path, interface: interface, method: method, arguments: arguments,
                           flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: Self.callTimeoutMilliseconds) { reply, error in
            completion(reply, error?.message)
        }
    }
}
