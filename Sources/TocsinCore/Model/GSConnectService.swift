import FoundationEssentials

/// GSConnect, GNOME's KDE Connect, as Tocsin uses it: its daemon exports one object per known
/// device under an ObjectManager, with the device's state as properties and what it can do as
/// GActions (`ring`, `ping` with a message, `pair`…); its run commands are GSettings of each
/// device (`command-list`, an `a{sv}` of id → `a{ss}` with `name` and `command`). The names and
/// the reading of those values are here, pure; the agent and `tocsin` do the D-Bus and GSettings I/O.
public enum GSConnectService {
    public static let busName = "org.gnome.Shell.Extensions.GSConnect"
    /// The ObjectManager; devices are at `…/Device/ID`.
    public static let objectPath = "/org/gnome/Shell/Extensions/GSConnect"
    public static let deviceInterface = "org.gnome.Shell.Extensions.GSConnect.Device"
    /// The GSettings schema of a device's run commands.
    public static let runCommandSchema = "org.gnome.Shell.Extensions.GSConnect.Plugin.RunCommand"
    /// The key that holds them.
    public static let runCommandKey = "command-list"

    /// One device GSConnect knows.
    public struct Device: Equatable, Sendable {
        public var path: String
        public var id: String
        public var name: String
        /// Connected now: within reach.
        public var isConnected: Bool
        public var isPaired: Bool

        public init(path: String, id: String, name: String, isConnected: Bool, isPaired: Bool) {
            self.path = path
            self.id = id
            self.name = name
            self.isConnected = isConnected
            self.isPaired = isPaired
        }
    }

    /// The devices in a `GetManagedObjects` reply (object path → interface → properties), by
    /// path. Objects without the device interface are not devices; a missing property reads as
    /// false, the id as the path's last part, the name as the id.
    public static func devices(inManagedObjects objects: [String: [String: [String: WireValue]]]) -> [Device] {
        objects.compactMap { path, interfaces -> Device? in
            guard let properties = interfaces[deviceInterface] else { return nil }
            func flag(_ name: String) -> Bool {
                if case .bool(let value)? = properties[name] { return value }
                return false
            }
            func text(_ name: String) -> String? {
                if case .string(let value)? = properties[name], !value.isEmpty { return value }
                return nil
            }
            let id = text("Id") ?? String(path.split(separator: "/").last ?? "")
            return Device(path: path, id: id, name: text("Name") ?? id, isConnected: flag("Connected"), isPaired: flag("Paired"))
        }
        .sorted { $0.path < $1.path }
    }

    /// Where the device `id`'s run commands are kept (its settings path, as GSConnect makes it).
    public static func runCommandSettingsPath(of id: String) -> String {
        "/org/gnome/shell/extensions/gsconnect/device/\(id)/plugin/runcommand/"
    }

    /// `entries` (a device's `command-list`) with Tocsin's commands `ours` added, or removed,
    /// every other entry left as it was. Throws, changing nothing, when an entry is not the
    /// `a{ss}` GSConnect writes: rewritten, it could not be given back exactly as it was.
    public static func updating(_ entries: [String: WireValue], with ours: [String: KDEConnectRunCommands.Command],
                                removing: Bool) throws(StoreError) -> [String: WireValue] {
        if let (id, _) = entries.first(where: { if case .stringMap = $0.value { return false } else { return true } }) {
            throw StoreError("GSConnect's run command “\(id)” is not a name and a command, as GSConnect writes them")
        }
        var updated = entries
        for (id, command) in ours {
            updated[id] = removing ? nil : .stringMap(["name": command.name, "command": command.command])
        }
        return updated
    }
}
