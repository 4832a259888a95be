import CGLib
import GLibSupport
import TocsinCore

/// Tocsin's tray item: a StatusNotifierItem (`org.kde.StatusNotifierItem`) with its menu
/// (`com.canonical.dbusmenu`), put on the bus while something counts down, is paused or rings
/// (`TrayContent` decides what it shows). It carries out nothing itself: clicks go to
/// `onAction`.
///
/// Shown the way libappindicator shows items: the agent takes the name
/// `org.kde.StatusNotifierItem-PID-1` and registers it with the StatusNotifierWatcher (the
/// panel's tray: Plasma, xfce4-panel's, waybar's); it lets the name go to take the item away,
/// which every host follows. Without a watcher nothing is sent, and the item is registered as
/// soon as one appears. The objects answer anyone who reads them (a panel may run under another
/// user on a shared bus); only the user's own programs may click (`OwnUserGate`).
final class TrayItem {
    /// Called with what a click asks for: a menu entry, or a click on the item while something rings.
    var onAction: (TrayContent.Action) -> Void = { _ in }
    /// Called when a StatusNotifierWatcher appears or goes.
    var onHostChange: () -> Void = {}

    static let itemPath = "/StatusNotifierItem"
    static let menuPath = "/MenuBar"
    private static let watcherName = "org.kde.StatusNotifierWatcher"
    /// The name Tocsin's GNOME Shell extension owns while it shows the item in GNOME's top bar,
    /// where no StatusNotifierWatcher runs: it reads the item's objects on the agent's own name.
    static let panelHostName = "io.github.tocsin.Panel"
    private static let itemInterface = "org.kde.StatusNotifierItem"
    private static let menuInterface = "com.canonical.dbusmenu"

    private let log: AgentLog
    private let connection: () -> OpaquePointer?
    private let gate: OwnUserGate
    private let itemName = "org.kde.StatusNotifierItem-\(getpid())-1"
    private var content: TrayContent?
    private var ids = TrayMenuIDs()
    private var registrations: [guint] = []
    private var exportedOn: OpaquePointer?
    private var nameOwnership: guint = 0
    private var watcherWatch: guint = 0
    private var panelHostWatch: guint = 0
    private(set) var watcherPresent = false
    private var panelHostPresent = false

    /// An item logging to `log`, on the bus connection `connection` gives (the agent's), whose
    /// clicks count only from senders `gate` lets through.
    init(log: AgentLog, connection: @escaping () -> OpaquePointer?, gate: OwnUserGate) {
        self.log = log
        self.connection = connection
        self.gate = gate
    }

    deinit {
        if nameOwnership != 0 { g_bus_unown_name(nameOwnership) }
        if watcherWatch != 0 { g_bus_unwatch_name(watcherWatch) }
        if panelHostWatch != 0 { g_bus_unwatch_name(panelHostWatch) }
        // The connection the objects were exported on, kept for this: the agent that gave it may
        // be going away itself.
        if let exportedOn {
            for registration in registrations { g_dbus_connection_unregister_object(exportedOn, registration) }
            g_object_unref(UnsafeMutableRawPointer(exportedOn))
        }
    }

    /// Whether a panel shows the item now: a StatusNotifierWatcher, or Tocsin's GNOME Shell
    /// extension, is on the bus.
    var isHosted: Bool { watcherPresent || panelHostPresent }

    /// Who shows the item now, as `tocsin doctor` reports it.
    var host: PanelReadiness.Host { watcherPresent ? .tray : panelHostPresent ? .gnomeExtension : .none }

    /// Exports the objects and starts following the watcher; call once the connection is up.
    func start() {
        guard let connection = connection(), registrations.isEmpty else { return }
        g_object_ref(UnsafeMutableRawPointer(connection))
        exportedOn = connection
        let box = Unmanaged.passUnretained(self).toOpaque()
        for (path, xml) in [(Self.itemPath, Self.itemXML), (Self.menuPath, Self.menuXML)] {
            let parsed: UnsafeMutablePointer<GDBusNodeInfo>?
            do { parsed = try GLibError.check { g_dbus_node_info_new_for_xml(xml, $0) } } catch {
                log.warning("The tray item cannot be described at \(path): \(error.message)")
                continue
            }
            guard let node = parsed else { continue }
            defer { g_dbus_node_info_unref(node) }
            var vtable = GDBusInterfaceVTable(
                method_call: { _, sender, path, _, method, parameters, invocation, userData in
                    Unmanaged<TrayItem>.fromOpaque(userData!).takeUnretainedValue().call(
                        String(cString: method!), on: String(cString: path!), parameters: parameters!,
                        sender: sender.map { String(cString: $0) } ?? "", invocation: invocation!)
                },
                get_property: { _, _, path, _, name, _, userData in
                    Unmanaged<TrayItem>.fromOpaque(userData!).takeUnretainedValue().property(String(cString: name!), on: String(cString: path!))
                },
                set_property: nil, padding: (nil, nil, nil, nil, nil, nil, nil, nil))
            do {
                registrations.append(try GLibError.check { g_dbus_connection_register_object(connection, path, node.pointee.interfaces[0], &vtable, box, nil, $0) })
            } catch {
                log.warning("The tray item cannot be exported at \(path): \(error.message)")
            }
        }
        watcherWatch = g_bus_watch_name_on_connection(
            connection, Self.watcherName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, userData in Unmanaged<TrayItem>.fromOpaque(userData!).takeUnretainedValue().watcherAppeared() },
            { _, _, userData in
                let item = Unmanaged<TrayItem>.fromOpaque(userData!).takeUnretainedValue()
                item.watcherPresent = false
                item.onHostChange()
            },
            box, nil)
        panelHostWatch = g_bus_watch_name_on_connection(
            connection, Self.panelHostName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, userData in
                let item = Unmanaged<TrayItem>.fromOpaque(userData!).takeUnretainedValue()
                item.panelHostPresent = true
                item.onHostChange()
            },
            { _, _, userData in
                let item = Unmanaged<TrayItem>.fromOpaque(userData!).takeUnretainedValue()
                item.panelHostPresent = false
                item.onHostChange()
            },
            box, nil)
    }

    /// Shows `content`, or takes the item away for `nil`; sends only what changed.
    func show(_ content: TrayContent?) {
        let old = self.content
        guard content != old else { return }
        self.content = content
        if let content {
            switch ids.adopt(content.menu) {
            case .none:
                break
            case .labels(let labels):
                let updated: [OpaquePointer?] = labels.sorted { $0.key < $1.key }.map { id, label in
                    Variant.tuple([g_variant_new_int32(id), Variant.make(dictionary: ["label": .string(label)])])
                }
                let updatedArray = updated.withUnsafeBufferPointer { g_variant_new_array(Variant.type("(ia{sv})"), $0.baseAddress, gsize($0.count))! }
                let removed = g_variant_new_array(Variant.type("(ias)"), nil, 0)!
                emit(Self.menuPath, Self.menuInterface, "ItemsPropertiesUpdated", Variant.tuple([updatedArray, removed]))
            case .layout:
                emit(Self.menuPath, Self.menuInterface, "LayoutUpdated", Variant.tuple([g_variant_new_uint32(ids.revision), g_variant_new_int32(0)]))
            }
        }
        switch (old, content) {
        case (nil, let new?):
            appear()
            // What Tocsin's extension, which follows no item name, learns the item is back by.
            emit(Self.itemPath, Self.itemInterface, "NewStatus", Variant.tuple([g_variant_new_string(new.status.rawValue)]))
        case (_?, nil):
            emit(Self.itemPath, Self.itemInterface, "NewStatus", Variant.tuple([g_variant_new_string("Passive")]))
            disappear()
        case (let old?, let new?):
            if old.iconName != new.iconName { emit(Self.itemPath, Self.itemInterface, "NewIcon", Variant.tuple([])) }
            if old.tooltip != new.tooltip { emit(Self.itemPath, Self.itemInterface, "NewToolTip", Variant.tuple([])) }
            if old.status != new.status { emit(Self.itemPath, Self.itemInterface, "NewStatus", Variant.tuple([g_variant_new_string(new.status.rawValue)])) }
            if old.title != new.title { emit(Self.itemPath, Self.itemInterface, "NewTitle", Variant.tuple([])) }
            if old.label != new.label {
                emit(Self.itemPath, Self.itemInterface, "XAyatanaNewLabel", Variant.tuple([g_variant_new_string(new.label), g_variant_new_string("")]))
            }
        case (nil, nil):
            break
        }
    }

    // MARK: Being shown

    private func watcherAppeared() {
        watcherPresent = true
        if content != nil { appear() }
        onHostChange()
    }

    /// Takes the item's name, once, and registers it with the watcher.
    private func appear() {
        guard watcherPresent, let connection = connection() else { return }
        if nameOwnership == 0 {
            nameOwnership = g_bus_own_name_on_connection(connection, itemName, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE, nil, nil, nil, nil)
        }
        // Sent after the name request on the same connection: the bus has given the name by the
        // time the watcher asks who owns it.
        BusCall.start(connection, destination: Self.watcherName, path: "/StatusNotifierWatcher", interface: Self.watcherName,
                      method: "RegisterStatusNotifierItem", arguments: Variant.tuple([g_variant_new_string(itemName)]), replyType: "()",
                      flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: 5000) { [log] result in
            if case .failure(let failure) = result { log.warning("The panel's tray did not take Tocsin's item: \(failure)") }
        }
    }

    /// Lets the name go: the watcher, and every host, drop the item.
    private func disappear() {
        if nameOwnership != 0 { g_bus_unown_name(nameOwnership) }
        nameOwnership = 0
    }

    /// Sends a change to the hosts: those that follow the item's name, and Tocsin's extension,
    /// which follows the agent's.
    private func emit(_ path: String, _ interface: String, _ signal: String, _ arguments: OpaquePointer) {
        guard nameOwnership != 0 || panelHostPresent, let connection = connection() else {
            g_variant_unref(g_variant_ref_sink(arguments))
            return
        }
        _ = try? GLibError.check { g_dbus_connection_emit_signal(connection, nil, path, interface, signal, arguments, $0) }
    }

    // MARK: Answering

    private func property(_ name: String, on path: String) -> OpaquePointer? {
        if path == Self.menuPath {
            switch name {
            case "Version": return g_variant_new_uint32(3)
            case "TextDirection": return g_variant_new_string("ltr")
            case "Status": return g_variant_new_string("normal")
            case "IconThemePath": return Variant.make(strings: [])
            default: return nil
            }
        }
        let content = content
        switch name {
        case "Category": return g_variant_new_string("ApplicationStatus")
        case "Id": return g_variant_new_string("io.github.tocsin.Agent")
        case "Title": return g_variant_new_string(content?.title ?? "Tocsin")
        case "Status": return g_variant_new_string(content?.status.rawValue ?? "Passive")
        case "WindowId": return g_variant_new_int32(0)
        case "IconName", "AttentionIconName": return g_variant_new_string(content?.iconName ?? "io.github.tocsin.Agent-symbolic")
        case "IconThemePath", "OverlayIconName", "AttentionMovieName", "XAyatanaLabelGuide": return g_variant_new_string("")
        case "ItemIsMenu": return g_variant_new_boolean(content?.itemIsMenu ?? true ? 1 : 0)
        case "Menu": return g_variant_new_object_path(Self.menuPath)
        case "XAyatanaLabel": return g_variant_new_string(content?.label ?? "")
        case "ToolTip":
            let noPixmaps = g_variant_new_array(Variant.type("(iiay)"), nil, 0)!
            return Variant.tuple([g_variant_new_string(content?.iconName ?? ""), noPixmaps,
                                  g_variant_new_string(content?.title ?? "Tocsin"), g_variant_new_string(content?.tooltip ?? "")])
        default: return nil
        }
    }

    private func call(_ method: String, on path: String, parameters: OpaquePointer, sender: String, invocation: OpaquePointer) {
        switch (path, method) {
        case (Self.menuPath, "GetLayout"):
            let parent = Variant.int32(in: parameters, at: 0)
            let depth = Variant.int32(in: parameters, at: 1)
            let layout = self.layout(of: parent, depth: depth)
            g_dbus_method_invocation_return_value(invocation, Variant.tuple([g_variant_new_uint32(ids.revision), layout]))
        case (Self.menuPath, "GetGroupProperties"):
            // Each entry once, however often it is asked for.
            let known = entriesByID()
            var answered: Set<Int32> = []
            let entries: [OpaquePointer?] = Variant.int32s(in: parameters, at: 0).compactMap { id in
                guard let item = known[id], answered.insert(id).inserted else { return nil }
                return Variant.tuple([g_variant_new_int32(id), properties(of: item)])
            }
            let array = entries.withUnsafeBufferPointer { g_variant_new_array(Variant.type("(ia{sv})"), $0.baseAddress, gsize($0.count))! }
            g_dbus_method_invocation_return_value(invocation, Variant.tuple([array]))
        case (Self.menuPath, "GetProperty"):
            let id = Variant.int32(in: parameters, at: 0)
            let name = Variant.string(in: parameters, at: 1)
            guard let item = item(withID: id), let value = Variant.dictionary(properties(of: item))[name] else {
                g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.InvalidArgs", "No property \(name) on entry \(id).")
                return
            }
            g_dbus_method_invocation_return_value(invocation, Variant.tuple([g_variant_new_variant(Variant.make(value))]))
        case (Self.menuPath, "Event"):
            let id = Variant.int32(in: parameters, at: 0)
            let clicks = Variant.string(in: parameters, at: 1) == "clicked" ? self.clicks(on: [id]) : []
            answerOnceKnown(sender, invocation, clicks: clicks, reply: nil)
        case (Self.menuPath, "EventGroup"):
            let events = Variant.child(parameters, 0)
            defer { g_variant_unref(events) }
            let known = entriesByID()
            var unknown: [Int32] = []
            var clicked: [Int32] = []
            var clickedOnce: Set<Int32> = []
            for index in 0..<g_variant_n_children(events) {
                let event = g_variant_get_child_value(events, index)!
                defer { g_variant_unref(event) }
                let id = Variant.int32(in: event, at: 0)
                if known[id] == nil {
                    unknown.append(id)
                } else if Variant.string(in: event, at: 1) == "clicked", clickedOnce.insert(id).inserted {
                    // One click per entry however many the group holds: a caller sending 10,000
                    // clicks on Stop stops once.
                    clicked.append(id)
                }
            }
            answerOnceKnown(sender, invocation, clicks: clicks(on: clicked), reply: Variant.tuple([Variant.make(int32s: unknown)]))
        case (Self.menuPath, "AboutToShow"):
            g_dbus_method_invocation_return_value(invocation, Variant.tuple([g_variant_new_boolean(0)]))
        case (Self.menuPath, "AboutToShowGroup"):
            g_dbus_method_invocation_return_value(invocation, Variant.tuple([Variant.make(int32s: []), Variant.make(int32s: [])]))
        case (Self.itemPath, "Activate"):
            // While something rings a click on the item stops it; otherwise it opens the menu.
            // Hosts that read ItemIsMenu open it themselves; Plasma 5.27 calls Activate anyway
            // and opens the menu only when the call fails (as for libappindicator's items, which
            // have no Activate), so the menu's item refuses it.
            guard content?.itemIsMenu == false else {
                g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.NotSupported",
                                                           "The item is its menu (ItemIsMenu): a click opens it.")
                return
            }
            answerOnceKnown(sender, invocation, clicks: [Click(label: "the item", action: .stopAllRinging)], reply: nil)
        default:
            // SecondaryActivate, ContextMenu, Scroll: nothing to do.
            g_dbus_method_invocation_return_value(invocation, nil)
        }
    }

    /// A click on an entry that does something: its label, for the log, and what it does.
    private struct Click {
        let label: String
        let action: TrayContent.Action
    }

    /// The clicks on `entries` that do something. What an entry does is read now, from the menu
    /// the host clicked in, not when the bus has said who clicked.
    private func clicks(on entries: [Int32]) -> [Click] {
        entries.compactMap { id in
            ids.action(of: id).map { Click(label: item(withID: id).map { String($0.label.drop { $0 == " " }) } ?? "?", action: $0) }
        }
    }

    /// Answers `invocation` with `reply` and makes `clicks`, once `gate` has let `sender` through;
    /// a click from another user's program is refused (AccessDenied) and made by no one. An
    /// invocation with no clicks (a hover, an entry that does nothing) is answered at once.
    private func answerOnceKnown(_ sender: String, _ invocation: OpaquePointer, clicks: [Click], reply: OpaquePointer?) {
        guard !clicks.isEmpty else {
            g_dbus_method_invocation_return_value(invocation, reply)
            return
        }
        gate.answer(invocation, from: sender, with: reply,
                    refusing: .accessDenied("Only the user's own programs may click Tocsin's tray item."),
                    refused: { [log] in
                        for click in clicks { log.warning("Ignoring a click on “\(click.label)” in the tray from another user's program (\(sender)).") }
                    },
                    then: { [weak self] in
                        for click in clicks { self?.onAction(click.action) }
                    })
    }

    // MARK: The menu on the bus

    private func item(withID id: Int32) -> TrayContent.MenuItem? {
        if id == 0 { return TrayContent.MenuItem(key: "root", label: "", children: content?.menu ?? []) }
        func find(_ items: [TrayContent.MenuItem]) -> TrayContent.MenuItem? {
            for item in items {
                if ids.id(ofExisting: item.key) == id { return item }
                if let found = find(item.children) { return found }
            }
            return nil
        }
        return find(content?.menu ?? [])
    }

    /// Every entry of the menu by its id, the root's (0) among them: what a call asking about
    /// many entries at once looks each up in, so that one naming 10,000 of them costs 10,000
    /// lookups, not 10,000 walks of the menu.
    private func entriesByID() -> [Int32: TrayContent.MenuItem] {
        var entries: [Int32: TrayContent.MenuItem] = [0: TrayContent.MenuItem(key: "root", label: "", children: content?.menu ?? [])]
        func add(_ items: [TrayContent.MenuItem]) {
            for item in items {
                if let id = ids.id(ofExisting: item.key) { entries[id] = item }
                add(item.children)
            }
        }
        add(content?.menu ?? [])
        return entries
    }

    /// `(ia{sv}av)`: the entry `parent` and its children to `depth` levels (-1: all).
    private func layout(of parent: Int32, depth: Int32) -> OpaquePointer {
        let root = item(withID: parent) ?? TrayContent.MenuItem(key: "root", label: "")
        return layout(root, id: parent, depth: depth)
    }

    /// The layout of `item` and its children `depth` levels down; a negative depth is every
    /// level (the dbusmenu specification says -1; any other negative number a caller sends, down
    /// to Int32.min, means the same and is never counted down).
    private func layout(_ item: TrayContent.MenuItem, id: Int32, depth: Int32) -> OpaquePointer {
        let children: [OpaquePointer?] = depth == 0 ? [] : item.children.map { child in
            g_variant_new_variant(layout(child, id: ids.id(ofExisting: child.key) ?? -1, depth: depth < 0 ? -1 : depth - 1))
        }
        let array = children.withUnsafeBufferPointer { g_variant_new_array(Variant.type("v"), $0.baseAddress, gsize($0.count))! }
        return Variant.tuple([g_variant_new_int32(id), properties(of: item), array])
    }

    /// The entry's dbusmenu properties, `a{sv}`.
    private func properties(of item: TrayContent.MenuItem) -> OpaquePointer {
        var properties: [String: WireValue] = [:]
        if item.isSeparator {
            properties["type"] = .string("separator")
        } else if item.key != "root" {
            properties["label"] = .string(item.label)
            properties["enabled"] = .bool(item.isEnabled)
        }
        if !item.children.isEmpty { properties["children-display"] = .string("submenu") }
        return Variant.make(dictionary: properties)
    }

    // MARK: Introspection

    private static let itemXML = """
        <node><interface name="org.kde.StatusNotifierItem">
          <property name="Category" type="s" access="read"/><property name="Id" type="s" access="read"/>
          <property name="Title" type="s" access="read"/><property name="Status" type="s" access="read"/>
          <property name="WindowId" type="i" access="read"/><property name="IconName" type="s" access="read"/>
          <property name="IconThemePath" type="s" access="read"/><property name="OverlayIconName" type="s" access="read"/>
          <property name="AttentionIconName" type="s" access="read"/><property name="AttentionMovieName" type="s" access="read"/>
          <property name="ToolTip" type="(sa(iiay)ss)" access="read"/><property name="ItemIsMenu" type="b" access="read"/>
          <property name="Menu" type="o" access="read"/>
          <property name="XAyatanaLabel" type="s" access="read"/><property name="XAyatanaLabelGuide" type="s" access="read"/>
          <method name="Activate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
          <method name="SecondaryActivate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
          <method name="ContextMenu"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
          <method name="Scroll"><arg name="delta" type="i" direction="in"/><arg name="orientation" type="s" direction="in"/></method>
          <signal name="NewTitle"/><signal name="NewIcon"/><signal name="NewAttentionIcon"/><signal name="NewOverlayIcon"/>
          <signal name="NewToolTip"/><signal name="NewStatus"><arg name="status" type="s"/></signal>
          <signal name="XAyatanaNewLabel"><arg name="label" type="s"/><arg name="guide" type="s"/></signal>
        </interface></node>
        """

    private static let menuXML = """
        <node><interface name="com.canonical.dbusmenu">
          <property name="Version" type="u" access="read"/><property name="TextDirection" type="s" access="read"/>
          <property name="Status" type="s" access="read"/><property name="IconThemePath" type="as" access="read"/>
          <method name="GetLayout">
            <arg name="parentId" type="i" direction="in"/><arg name="recursionDepth" type="i" direction="in"/>
            <arg name="propertyNames" type="as" direction="in"/>
            <arg name="revision" type="u" direction="out"/><arg name="layout" type="(ia{sv}av)" direction="out"/>
          </method>
          <method name="GetGroupProperties">
            <arg name="ids" type="ai" direction="in"/><arg name="propertyNames" type="as" direction="in"/>
            <arg name="properties" type="a(ia{sv})" direction="out"/>
          </method>
          <method name="GetProperty">
            <arg name="id" type="i" direction="in"/><arg name="name" type="s" direction="in"/><arg name="value" type="v" direction="out"/>
          </method>
          <method name="Event">
            <arg name="id" type="i" direction="in"/><arg name="eventId" type="s" direction="in"/>
            <arg name="data" type="v" direction="in"/><arg name="timestamp" type="u" direction="in"/>
          </method>
          <method name="EventGroup">
            <arg name="events" type="a(isvu)" direction="in"/><arg name="idErrors" type="ai" direction="out"/>
          </method>
          <method name="AboutToShow"><arg name="id" type="i" direction="in"/><arg name="needUpdate" type="b" direction="out"/></method>
          <method name="AboutToShowGroup">
            <arg name="ids" type="ai" direction="in"/><arg name="updatesNeeded" type="ai" direction="out"/>
            <arg name="idErrors" type="ai" direction="out"/>
          </method>
          <signal name="ItemsPropertiesUpdated">
            <arg name="updatedProps" type="a(ia{sv})"/><arg name="removedProps" type="a(ias)"/>
          </signal>
          <signal name="LayoutUpdated"><arg name="revision" type="u"/><arg name="parent" type="i"/></signal>
          <signal name="ItemActivationRequested"><arg name="id" type="i"/><arg name="timestamp" type="u"/></signal>
        </interface></node>
        """
}
