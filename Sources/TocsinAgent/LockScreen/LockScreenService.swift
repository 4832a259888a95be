import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore

/// What the agent offers a locked screen: the `io.github.tocsin.LockScreen1` interface at
/// `/io/github/tocsin/LockScreen` on the agent's bus name (dbus/io.github.tocsin.LockScreen1.xml).
/// Tocsin's GNOME Shell extension, which stays enabled in the shell's `unlock-dialog` mode, draws
/// it on the lock screen: each alarm's title, time and buttons, a countdown counting.
///
/// It decides nothing: `Alarms` is the `LockScreenContent` the decider gave it, and a `Press` is
/// handed to `onPress` as the intent of a button the content shows, as a notification's button
/// would be. `WakeDisplay` is sent when the decider says to wake the display (`DisplayWaker`),
/// for the extension, which wakes a locked GNOME screen where nothing else can. Nothing here
/// waits for another process; only the user's own programs may press (`OwnUserGate`), as for the
/// tray and the media player.
final class LockScreenService {
    /// Called with the intent a press performs and the alarm it performs it on.
    var onPress: (AlarmIntent, UUID) -> Void = { _, _ in }

    static let objectPath = "/io/github/tocsin/LockScreen"
    static let interfaceName = "io.github.tocsin.LockScreen1"

    private let log: AgentLog
    private let now: () -> Date
    private let gate: OwnUserGate
    private var content = LockScreenContent(alarms: [Alarm](), settings: .standard, timeOfDay: { _ in "" })
    private var registration: guint = 0
    private var exportedOn: OpaquePointer?

    /// A service logging to `log`, reading the time of a countdown's text from `now`, taking
    /// presses only from senders `gate` lets through.
    init(log: AgentLog, now: @escaping () -> Date, gate: OwnUserGate) {
        self.log = log
        self.now = now
        self.gate = gate
    }

    deinit {
        guard let exportedOn else { return }
        g_dbus_connection_unregister_object(exportedOn, registration)
        g_object_unref(UnsafeMutableRawPointer(exportedOn))
    }

    /// Exports the object on `connection` (the agent's, once it owns its name).
    func export(on connection: OpaquePointer) {
        guard exportedOn == nil else { return }
        let parsed: UnsafeMutablePointer<GDBusNodeInfo>?
        do { parsed = try GLibError.check { g_dbus_node_info_new_for_xml(Self.introspectionXML, $0) } } catch {
            log.warning("The lock screen's interface cannot be described: \(error.message)")
            return
        }
        guard let node = parsed else { return }
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable(
            method_call: { _, sender, _, _, method, parameters, invocation, userData in
                Unmanaged<LockScreenService>.fromOpaque(userData!).takeUnretainedValue().call(
                    String(cString: method!), parameters: parameters!, sender: sender.map { String(cString: $0) } ?? "", invocation: invocation!)
            },
            get_property: { _, _, _, _, name, _, userData in
                let service = Unmanaged<LockScreenService>.fromOpaque(userData!).takeUnretainedValue()
                return String(cString: name!) == "Alarms" ? service.alarmsVariant() : nil
            },
            set_property: nil, padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        do {
            registration = try GLibError.check {
                g_dbus_connection_register_object(connection, Self.objectPath, node.pointee.interfaces[0], &vtable,
                                                  Unmanaged.passUnretained(self).toOpaque(), nil, $0)
            }
            g_object_ref(UnsafeMutableRawPointer(connection))
            exportedOn = connection
        } catch {
            log.warning("The lock screen's interface cannot be exported: \(error.message)")
        }
    }

    /// Shows `content`: `Alarms` changes, and those who follow it are told.
    func show(_ content: LockScreenContent) {
        guard content != self.content else { return }
        self.content = content
        let changed = Variant.make(variants: ["Alarms": alarmsVariant()])
        emit("org.freedesktop.DBus.Properties", "PropertiesChanged",
             Variant.tuple([g_variant_new_string(Self.interfaceName), changed, Variant.make(strings: [])]))
    }

    /// Sends `WakeDisplay`: a lock screen that follows it wakes its display.
    func sendWakeDisplay() {
        emit(Self.interfaceName, "WakeDisplay", Variant.tuple([]))
    }

    private func emit(_ interface: String, _ signal: String, _ arguments: OpaquePointer) {
        guard let connection = exportedOn else {
            g_variant_unref(g_variant_ref_sink(arguments))
            return
        }
        do throws(GLibError) {
            _ = try GLibError.check { g_dbus_connection_emit_signal(connection, nil, Self.objectPath, interface, signal, arguments, $0) }
        } catch {
            log.warning("The lock screen's \(signal) could not be sent: \(error.message)")
        }
    }

    // MARK: Answering

    /// `Alarms` (`aa{sv}`), the countdowns' time left written as of now.
    private func alarmsVariant() -> OpaquePointer {
        let now = now()
        let builder = g_variant_builder_new(Variant.type("aa{sv}"))
        for entry in content.entries {
            var values: [String: OpaquePointer] = [
                "id": g_variant_new_string(entry.id.uuidString.lowercased()),
                "title": g_variant_new_string(entry.title),
                "state": g_variant_new_string(entry.phase.name),
                "time": g_variant_new_string(LockScreenContent.timeText(of: entry, at: now)),
            ]
            if case .counting(let end) = entry.phase {
                // GLib's real time, which the shell compares with: microseconds since 1970.
                values["ends-at"] = g_variant_new_int64(Int((end.timeIntervalSince1970 * 1_000_000).rounded()))
            }
            let buttons = g_variant_builder_new(Variant.type("a(ss)"))
            for button in entry.buttons {
                g_variant_builder_add_value(buttons, Variant.tuple([g_variant_new_string(button.intent.rawValue), g_variant_new_string(button.label)]))
            }
            values["buttons"] = g_variant_builder_end(buttons)
            g_variant_builder_unref(buttons)
            g_variant_builder_add_value(builder, Variant.make(variants: values))
        }
        defer { g_variant_builder_unref(builder) }
        return g_variant_builder_end(builder)
    }

    private func call(_ method: String, parameters: OpaquePointer, sender: String, invocation: OpaquePointer) {
        // GDBus routes only Press, with its (ss) checked.
        let idText = Variant.string(in: parameters, at: 0)
        let key = Variant.string(in: parameters, at: 1)
        guard let id = UUID(uuidString: idText) else {
            refuse(invocation, TocsinError(.invalidArgument, "“\(AlarmInputError.quotable(idText.prefix(40)))” is not an alarm's id."))
            return
        }
        // What the press does is read from what the lock screen was given, so a button drawn
        // before the alarm moved on (Stop on a ring the phone already stopped) does nothing.
        guard let intent = content.intent(pressing: key, on: id) else {
            let shown = content.entries.contains { $0.id == id }
            refuse(invocation, shown ? TocsinError(.invalidState, "The lock screen shows no “\(AlarmInputError.quotable(key.prefix(20)))” button for alarm \(idText).")
                                     : TocsinError(.notFound, "The lock screen shows no alarm \(idText)."))
            return
        }
        gate.answer(invocation, from: sender,
                    refusing: .init(TocsinError(.notAuthorized, "Only the user's own programs may press the lock screen's buttons.")),
                    refused: { [log] in log.warning("Ignoring the lock screen's \(key) from another user's program (\(sender)).") },
                    then: { [weak self] in
                        guard let self else { return }
                        log.info("The lock screen's \(key) (from \(sender)): \(intent.verb) \(idText).")
                        onPress(intent, id)
                    })
    }

    private func refuse(_ invocation: OpaquePointer, _ error: TocsinError) {
        g_dbus_method_invocation_return_dbus_error(invocation, error.dbusErrorName, error.message)
    }

    // MARK: Introspection

    /// The interface, as dbus/io.github.tocsin.LockScreen1.xml has it (LockScreenInterfaceTests
    /// checks that they agree).
    static let introspectionXML = """
        <node>
          <interface name="io.github.tocsin.LockScreen1">
            <method name="Press">
              <arg name="id" type="s" direction="in"/>
              <arg name="button" type="s" direction="in"/>
            </method>
            <signal name="WakeDisplay"/>
            <property name="Alarms" type="aa{sv}" access="read"/>
          </interface>
        </node>
        """
}
