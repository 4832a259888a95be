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

    /// How a new menu differs from the last one adopted.
    public enum Change: Equatable, Sendable {
        /// Not at all.
        case none
        /// Only the labels of these entries (by id), as the entries' `label` now reads: sent as
        /// dbusmenu's ItemsPropertiesUpdated, which hosts apply as they stand. A countdown's
        /// line ticks this way each second without a new layout, which every host would fetch
        /// again whole (GetLayout): with waybar's tray that tripled the agent's wake-ups.
        case labels([Int32: String])
        /// Entries came, went or changed what they do: a new revision (LayoutUpdated).
        case layout
    }

    /// Takes `menu` as the current layout: every entry gets its id, the actions are remembered,
    /// and the revision grows if more than labels changed. Returns what changed.
    @discardableResult
    public mutating func adopt(_ menu: [TrayContent.MenuItem]) -> Change {
        guard menu != lastMenu else { return .none }
        defer { lastMenu = menu }
        if let lastMenu, Self.shape(of: lastMenu) == Self.shape(of: menu) {
            var labels: [Int32: String] = [:]
            func compare(_ old: [TrayContent.MenuItem], _ new: [TrayContent.MenuItem]) {
                for (before, after) in zip(old, new) {
                    if before.label != after.label, let id = ids[after.key] { labels[id] = after.label }
                    compare(before.children, after.children)
                }
            }
            compare(lastMenu, menu)
            return .labels(labels)
        }
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
        return .layout
    }

    /// `menu` without its labels: what a layout is made of besides them.
    private static func shape(of menu: [TrayContent.MenuItem]) -> [TrayContent.MenuItem] {
        menu.map { item in
            var bare = item
            bare.label = ""
            bare.children = shape(of: item.children)
            return bare
        }
    }

    /// What the entry `id` of the current layout does, if it is one that does something.
    public func action(of id: Int32) -> TrayContent.Action? {
        actions[id]
    }
}
