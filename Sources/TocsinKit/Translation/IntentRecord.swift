import Foundation

/// An application's own intent as it is stored with its alarm: its type, found again by name
/// when its button is pressed, and the values of its `@Parameter`s.
///
/// On Apple's platforms the system finds an app's intents through metadata the compiler
/// extracts at build time; Linux has none. The Swift runtime finds a type by its mangled name
/// (`_mangledTypeName`, `_typeByName`: the standard library's, underscored but public), so an
/// intent type needs no registration — only to be declared at file scope of the app (a type
/// local to a function has no name the runtime can look up, and is refused when scheduling).
struct IntentRecord: Codable, Hashable, Sendable {
    /// The type's mangled name.
    var type: String
    /// The intent's title, for logs and reports.
    var title: String
    /// Each parameter's value as JSON, by the parameter's name (the property's, without `_`).
    var parameters: [String: String]
    /// The intent asks for the application to be brought to the front (`openAppWhenRun`,
    /// `supportedModes` with `.foreground`).
    var opensApp: Bool

    /// Why an intent could not be stored or made again.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The record of `intent`.
    init(_ intent: any AppIntent) throws(Failure) {
        let intentType = Swift.type(of: intent)
        guard let name = _mangledTypeName(intentType), _typeByName(name) != nil else {
            throw Failure(description: "The intent type \(intentType) cannot be found again by its name: declare it at file scope, not inside a function.")
        }
        type = name
        title = intentType.title.key
        opensApp = intentType.openAppWhenRun || intentType.supportedModes.contains(.foreground)
        var parameters: [String: String] = [:]
        for (label, parameter) in Self.parameters(of: intent) {
            do {
                guard let json = try parameter.encodedValue() else { continue }
                parameters[label] = String(decoding: json, as: UTF8.self)
            } catch {
                throw Failure(description: "The parameter “\(label)” of \(intentType) cannot be encoded as JSON: \(error).")
            }
        }
        self.parameters = parameters
    }

    /// The intent again, its parameters set as they were stored.
    func makeIntent() throws(Failure) -> any AppIntent {
        guard let found = _typeByName(type) else {
            throw Failure(description: "The intent “\(title)” is not in this program (its type \(type) is unknown here).")
        }
        guard let intentType = found as? any AppIntent.Type else {
            throw Failure(description: "The type stored for the intent “\(title)” is not an AppIntent.")
        }
        let intent = intentType.init()
        let slots = Dictionary(Self.parameters(of: intent), uniquingKeysWith: { first, _ in first })
        for (label, json) in parameters {
            guard let slot = slots[label] else {
                throw Failure(description: "The intent “\(title)” has no parameter “\(label)” any more.")
            }
            do {
                try slot.decodeValue(from: Data(json.utf8))
            } catch {
                throw Failure(description: "The parameter “\(label)” of the intent “\(title)” cannot be read back: \(error).")
            }
        }
        return intent
    }

    /// The `@Parameter`s of `intent`, by name: reflection shows each as its property's backing
    /// storage, `_name`, holding the parameter object.
    private static func parameters(of intent: any AppIntent) -> [(String, any StoredIntentParameter)] {
        Mirror(reflecting: intent).children.compactMap { child in
            guard let label = child.label, let parameter = child.value as? any StoredIntentParameter else { return nil }
            return (label.hasPrefix("_") ? String(label.dropFirst()) : label, parameter)
        }
    }
}
