/// The ids of the tray menu's entries on the bus (com.canonical.dbusmenu names entries by
/// integer): each entry's key keeps its id for as long as the menu lives, and an id is never
/// given to another entry, so a click the host sends for a menu it drew a moment ago cannot
/// land on a different entry. The root is 0. The layout's revision grows with each change.
public struct TrayMenuIDs: Sendable {
    private var ids: [String: Int32] = [:]
    private var actions: [Int32: TrayContent.Action] = [:]
    private var next: Int32 = 1
    /// The revision of the layout last given ids.
    public private(set) var revision: UInt32 = 0
    private var lastMenu: [TrayContent.MenuItem]?

    /// Ids for the entries of nothing yet.
    public init() {}

    /// The id of the entry `key`, given now if it has none.
    public mutating func id(of key: String) -> Int32 {
        if let id = ids[key] { return id }
        let id = next
        next += 1
        ids[key] = id
        return id
    }

    /// The id the entry `key` has, if it was given one.
    public func id(ofExisting key: String) -> Int32? {
        ids[key]
    }

    /// Takes `menu` as the current layout: every entry gets its id, the actions are remembered,
    /// and the revision grows if the layout differs from the last. Returns whether it did.
    @discardableResult
    public mutating func adopt(_ menu: [TrayContent.MenuItem]) -> Bool {
        guard menu != lastMenu else { return false }
        lastMenu = menu
        actions = [:]
        func walk(_ items: [TrayContent.MenuItem]) {
            for item in items {
                let id = id(of: item.key)
                if let action = item.action { actions[id] = action }
                walk(item.children)
            }
        }
        walk(menu)
        revision += 1
        return true
    }

    /// What the entry `id` of the current layout does, if it is one that does something.
    public func action(of id: Int32) -> TrayContent.Action? {
        actions[id]
    }
}
