import Foundation
import Synchronization

/// An input of an intent — App Intents' `IntentParameter`, written `@Parameter`. Its value is
/// what TocsinKit stores with an alarm and sets again before the intent is performed, so it
/// must be `Codable` (a `String` alarm id, as AlarmKit's intents have, a number, a `Bool`…).
///
/// A class, as on Apple's platforms: the intent's copies share it, and TocsinKit sets it
/// through the intent's reflection.
@propertyWrapper
public final class IntentParameter<Value: Codable & Sendable>: @unchecked Sendable {
    /// The parameter's name for a person.
    public let title: LocalizedStringResource
    /// What it is.
    public let parameterDescription: LocalizedStringResource?
    // `@unchecked`: the only mutable state is behind this mutex.
    private let value: Mutex<Value?>

    /// A parameter titled `title`, set by the intent's initializer (or `defaultValue`).
    public init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value? = nil) {
        self.title = title
        parameterDescription = description
        value = Mutex(defaultValue)
    }

    /// A parameter without a title (App Intents 18): its property's name stands for it.
    public convenience init(description: LocalizedStringResource? = nil, default defaultValue: Value? = nil) {
        self.init(title: "", description: description, default: defaultValue)
    }

    /// A parameter with a value from the start (`@Parameter(title: "Step") var step = 1`).
    public convenience init(wrappedValue: Value, title: LocalizedStringResource, description: LocalizedStringResource? = nil) {
        self.init(title: title, description: description, default: wrappedValue)
    }

    /// The value. Reading one that was never set is a programming error, as on Apple's
    /// platforms, except for an optional parameter, which reads `nil`.
    public var wrappedValue: Value {
        get {
            if let current = value.withLock({ $0 }) { return current }
            if let none = (Value.self as? any OptionalParameterValue.Type)?.none as? Value { return none }
            preconditionFailure("The intent parameter “\(title)” was read before it was set: set it in the intent's init().")
        }
        set {
            value.withLock { $0 = newValue }
        }
    }
}

/// `@Parameter var alarmID: String`, as App Intents spells it.
public typealias Parameter = IntentParameter

/// How TocsinKit stores and restores a parameter without knowing its type.
package protocol StoredIntentParameter: AnyObject {
    /// The value as JSON, `nil` when it was never set.
    func encodedValue() throws -> Data?
    /// Sets the value from its JSON.
    func decodeValue(from json: Data) throws
}

extension IntentParameter: StoredIntentParameter {
    package func encodedValue() throws -> Data? {
        guard let current = value.withLock({ $0 }) else { return nil }
        return try JSONEncoder().encode(current)
    }

    package func decodeValue(from json: Data) throws {
        let decoded = try JSONDecoder().decode(Value.self, from: json)
        value.withLock { $0 = decoded }
    }
}

/// An optional's `nil`, for a parameter of optional type that was never set.
private protocol OptionalParameterValue {
    static var none: Self { get }
}

extension Optional: OptionalParameterValue {}
