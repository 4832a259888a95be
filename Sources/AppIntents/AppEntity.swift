/// A thing of the application's that intents act on — App Intents' `AppEntity`, as far as an
/// alarm's `appEntityIdentifier` (AlarmKit, iOS 27) needs it: its `id`.
///
/// Linux has no Siri, Shortcuts or Spotlight to show or find entities, so the display and query
/// requirements App Intents adds (`displayRepresentation`, `typeDisplayRepresentation`,
/// `defaultQuery`) are not declared here.
public protocol AppEntity: Identifiable, Sendable where ID: EntityIdentifierConvertible & Sendable {}

/// An identifier an entity can be found again by, written as a string — App Intents'
/// `EntityIdentifierConvertible`.
public protocol EntityIdentifierConvertible {
    /// The identifier as a string.
    var entityIdentifierString: String { get }
    /// The identifier that `entityIdentifierString` wrote, or `nil`.
    static func entityIdentifier(for entityIdentifierString: String) -> Self?
}

extension String: EntityIdentifierConvertible {
    /// The string itself.
    public var entityIdentifierString: String { self }
    /// The string itself.
    public static func entityIdentifier(for entityIdentifierString: String) -> String? { entityIdentifierString }
}

extension Int: EntityIdentifierConvertible {
    /// The number in decimal.
    public var entityIdentifierString: String { String(self) }
    /// The number the decimal string writes, or `nil`.
    public static func entityIdentifier(for entityIdentifierString: String) -> Int? { Int(entityIdentifierString) }
}

extension UUID: EntityIdentifierConvertible {
    /// The UUID's usual text.
    public var entityIdentifierString: String { uuidString }
    /// The UUID the text writes, or `nil`.
    public static func entityIdentifier(for entityIdentifierString: String) -> UUID? { UUID(uuidString: entityIdentifierString) }
}

/// One entity of the application, by its type and id — App Intents' `EntityIdentifier`, what
/// AlarmKit's iOS 27 configurations take as `appEntityIdentifier`.
public struct EntityIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The entity's type.
    public let entityType: any AppEntity.Type
    /// The entity's id, as a string.
    public let identifier: String

    /// The entity of type `entityType` whose id is `identifier`.
    public init<Entity: AppEntity>(for entityType: Entity.Type, identifier: Entity.ID) {
        self.entityType = entityType
        self.identifier = identifier.entityIdentifierString
    }

    /// The identifier of `entity`.
    public init<Entity: AppEntity>(for entity: Entity) {
        self.init(for: Entity.self, identifier: entity.id)
    }

    /// Equal when they name the same type and id.
    public static func == (lhs: EntityIdentifier, rhs: EntityIdentifier) -> Bool {
        ObjectIdentifier(lhs.entityType) == ObjectIdentifier(rhs.entityType) && lhs.identifier == rhs.identifier
    }

    /// Hashes the type and id.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(entityType))
        hasher.combine(identifier)
    }

    /// `Type:id`.
    public var description: String { "\(entityType):\(identifier)" }
}
