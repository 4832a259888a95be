import CGLib
import Foundation
import GLibSupport
import TocsinCore

/// The application's `org.freedesktop.Application`, as TocsinKit exports it on the session bus
/// so that the agent can hand it the presses of its intents' buttons (`ActivateAction`) and
/// bring it to the front (`Activate`). Lives on the watcher's main-loop thread.
///
/// It is exported at the application's object path (`ApplicationBusName`), and the process
/// takes the application's id as its bus name when the id is one and nobody holds it — what a
/// `DBusActivatable=true` desktop entry needs, so that activation finds the application there.
/// Only the agent may call it: a call from anyone else is refused, so no other program can make
/// the application perform an intent.
///
/// A GTK or GIO application already has its `org.freedesktop.Application`: its `GApplication`
/// exports one at the same path on the same connection, which a second one would take from it.
/// When the process has a default `GApplication` of the same id, TocsinKit adds its action
/// (`tocsin-perform-intent`) to that application's actions instead, and `Activate` is the
/// application's own (its "activate" signal raises its window). Create the `GApplication`
/// before using `AlarmManager`.
final class ApplicationExport {
    /// What the agent asked for.
    struct Handlers {
        /// Perform the intent of this press.
        let press: (IntentPress) -> Void
        /// Bring the application to the front.
        let activate: () -> Void
    }

    private static let interfaceName = "org.freedesktop.Application"
    private static let introspectionXML = """
        <node>
          <interface name="org.freedesktop.Application">
            <method name="Activate"><arg name="platform_data" type="a{sv}" direction="in"/></method>
            <method name="Open">
              <arg name="uris" type="as" direction="in"/><arg name="platform_data" type="a{sv}" direction="in"/>
            </method>
            <method name="ActivateAction">
              <arg name="action_name" type="s" direction="in"/><arg name="parameter" type="av" direction="in"/>
              <arg name="platform_data" type="a{sv}" direction="in"/>
            </method>
          </interface>
        </node>
        """

    private let connection: OpaquePointer
    private let box: HandlersBox
    private var registration: guint = 0
    private var nameOwnership: guint = 0
    /// The GApplication whose actions took TocsinKit's, with the action.
    private var joined: (application: OpaquePointer, action: OpaquePointer)?

    /// Exports the interface for `appID` on the session bus, or joins the process's
    /// GApplication of that id; `nil`, after saying why on standard error, when neither can be
    /// done (no bus, or the path is taken by something else).
    init?(appID: String, handlers: Handlers) {
        guard let connection = SessionBus.sharedConnection() else { return nil }
        self.connection = connection
        box = HandlersBox(handlers)
        if let application = Self.defaultApplication(withID: appID) {
            joined = (application, Self.addAction(to: application, box: box))
            return
        }
        let path = ApplicationBusName.objectPath(of: appID)
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { connection, sender, _, _, method, parameters, invocation, userData in
            let box = Unmanaged<HandlersBox>.fromOpaque(userData!).takeUnretainedValue()
            ApplicationExport.handle(String(cString: method!), parameters: parameters!, sender: sender.map { String(cString: $0) },
                                     connection: connection!, invocation: invocation!, handlers: box.handlers)
        }
        do throws(GLibError) {
            guard let node = try GLibError.check({ g_dbus_node_info_new_for_xml(Self.introspectionXML, $0) }) else {
                throw GLibError(message: "GIO read no interface from its description")
            }
            defer { g_dbus_node_info_unref(node) }
            registration = try GLibError.check { error in
                g_dbus_connection_register_object(
                    connection, path, node.pointee.interfaces[0], &vtable, Unmanaged.passRetained(box).toOpaque(),
                    { userData in Unmanaged<HandlersBox>.fromOpaque(userData!).release() }, error)
            }
            guard registration != 0 else { throw GLibError(message: "unknown error") }
        } catch {
            FileHandle.standardError.write(Data("TocsinKit: cannot export \(Self.interfaceName) at \(path) (\(error.message)); the app's intents cannot be performed in this process.\n".utf8))
            g_object_unref(UnsafeMutableRawPointer(connection))
            return nil
        }
        if ApplicationBusName.isBusName(appID) {
            nameOwnership = g_bus_own_name_on_connection(connection, appID, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE, nil, nil, nil, nil)
        }
    }

    deinit {
        if let joined {
            g_action_map_remove_action(joined.application, AppIntentButtons.actionName)
            g_object_unref(UnsafeMutableRawPointer(joined.action))
            g_object_unref(UnsafeMutableRawPointer(joined.application))
        }
        if nameOwnership != 0 { g_bus_unown_name(nameOwnership) }
        if registration != 0 { g_dbus_connection_unregister_object(connection, registration) }
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Whether the agent can reach the application now: a joined GApplication only once it is
    /// registered on the bus (`g_application_run` registers it), as its object is exported then.
    var isReachable: Bool {
        guard let joined else { return true }
        return g_application_get_is_registered(UnsafeMutablePointer(joined.application)) != 0
    }

    /// Calls `body` once, on the GApplication's main context, when a joined GApplication that
    /// was not registered yet registers; never otherwise.
    func whenRegistered(_ body: @escaping () -> Void) {
        guard let joined, !isReachable else { return }
        let callback = RegistrationBox(body)
        g_signal_connect_data(UnsafeMutableRawPointer(joined.application), "notify::is-registered",
                              unsafeBitCast(Self.registrationChanged, to: GCallback.self), Unmanaged.passRetained(callback).toOpaque(),
                              { box, _ in Unmanaged<RegistrationBox>.fromOpaque(box!).release() }, GConnectFlags(rawValue: 0))
    }

    private final class RegistrationBox {
        var body: (() -> Void)?
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private static let registrationChanged: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { application, _, userData in
        let box = Unmanaged<RegistrationBox>.fromOpaque(userData!).takeUnretainedValue()
        guard g_application_get_is_registered(application?.assumingMemoryBound(to: GApplication.self)) != 0, let body = box.body else { return }
        box.body = nil
        body()
    }

    /// The process's default GApplication, referenced, if its id is `appID`.
    private static func defaultApplication(withID appID: String) -> OpaquePointer? {
        guard let application = g_application_get_default(), let id = g_application_get_application_id(application),
              String(cString: id) == appID else { return nil }
        g_object_ref(UnsafeMutableRawPointer(application))
        return OpaquePointer(application)
    }

    /// Adds the `tocsin-perform-intent` action, taking `(alarm id, button, metadata)`, to
    /// `application`'s actions; returns it.
    private static func addAction(to application: OpaquePointer, box: HandlersBox) -> OpaquePointer {
        let action = g_simple_action_new(AppIntentButtons.actionName, Variant.type("(sss)"))!
        g_signal_connect_data(UnsafeMutableRawPointer(action), "activate", unsafeBitCast(actionActivated, to: GCallback.self),
                              Unmanaged.passRetained(box).toOpaque(),
                              { box, _ in Unmanaged<HandlersBox>.fromOpaque(box!).release() }, GConnectFlags(rawValue: 0))
        g_action_map_add_action(application, action)
        return action
    }

    private static let actionActivated: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, parameter, userData in
        let box = Unmanaged<HandlersBox>.fromOpaque(userData!).takeUnretainedValue()
        guard let parameter, let press = IntentPress(press: parameter) else { return }
        box.handlers.press(press)
    }

    private final class HandlersBox {
        let handlers: Handlers
        init(_ handlers: Handlers) { self.handlers = handlers }
    }

    /// Answers a call at once; what it asks for happens afterwards, in the handlers.
    private static func handle(_ method: String, parameters: OpaquePointer, sender: String?, connection: OpaquePointer,
                               invocation: OpaquePointer, handlers: Handlers) {
        guard let sender, isAgent(sender, on: connection) else {
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.AccessDenied", "Only the Tocsin agent may call this application's alarm intents.")
            return
        }
        switch method {
        case "Activate":
            g_dbus_method_invocation_return_value(invocation, nil)
            handlers.activate()
        case "ActivateAction":
            let actionName = Variant.string(in: parameters, at: 0)
            guard actionName == AppIntentButtons.actionName, let press = IntentPress(parameters) else {
                g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.InvalidArgs", "Unknown action “\(actionName)”.")
                return
            }
            g_dbus_method_invocation_return_value(invocation, nil)
            handlers.press(press)
        default:
            // Open: the application opens no files through TocsinKit.
            g_dbus_method_invocation_return_value(invocation, nil)
        }
    }

    /// Whether `sender` is the agent: the owner of its well-known name.
    private static func isAgent(_ sender: String, on connection: OpaquePointer) -> Bool {
        let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
            Variant.tuple([g_variant_new_string(AlarmsInterface.busName)]), Variant.type("(s)"), G_DBUS_CALL_FLAGS_NONE, 5000, nil, nil)
        guard let reply else { return false }
        defer { g_variant_unref(reply) }
        return Variant.string(in: reply, at: 0) == sender
    }
}

/// A press of one of the application's intent buttons, as the agent hands it over.
struct IntentPress: Sendable, Equatable {
    /// The agent's id of the alarm.
    let alarmID: UUID
    /// Which button.
    let button: AppIntentButtons.Button
    /// The alarm's metadata (TocsinKit's envelope, with the intents' records).
    let metadata: String

    /// The press in `ActivateAction`'s arguments `(s, av, a{sv})`: the first `av` element is
    /// `(alarm id, button, metadata)`.
    init?(_ arguments: OpaquePointer) {
        let list = Variant.child(arguments, 1)
        defer { g_variant_unref(list) }
        guard g_variant_n_children(list) >= 1 else { return nil }
        let boxed = g_variant_get_child_value(list, 0)!
        defer { g_variant_unref(boxed) }
        let inner = g_variant_get_variant(boxed)!
        defer { g_variant_unref(inner) }
        self.init(press: inner)
    }

    /// The press in `(alarm id, button, metadata)`, read with the arguments the agent writes it
    /// with (`AppIntentButtons.pressArguments`).
    init?(press: OpaquePointer) {
        guard g_variant_is_of_type(press, Variant.tupleType(of: AppIntentButtons.pressArguments.fields)) != 0,
              let decoded = try? AppIntentButtons.pressArguments.decode(Variant.arguments(ofTuple: press)) else { return nil }
        (alarmID, button, metadata) = decoded
    }
}
