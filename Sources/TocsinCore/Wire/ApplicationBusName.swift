/// An application's names on the session bus, after the freedesktop conventions
/// (Desktop Entry Specification, "D-Bus Activation"): the application id as a well-known bus
/// name, and the object path of its `org.freedesktop.Application`.
///
/// TocsinKit exports the interface at that path and the agent calls it there, so both take the
/// rule from here.
public enum ApplicationBusName {
    /// Where an application whose id is no bus name (one named after its executable, such as
    /// "cooking-app") exports `org.freedesktop.Application`: only its own connection is called.
    public static let fallbackObjectPath = "/io/github/tocsin/Application"

    /// Whether `appID` can be a well-known bus name, as a D-Bus-activatable application's id
    /// must: two or more elements separated by dots, each of ASCII letters, digits, `_` and `-`,
    /// none starting with a digit, at most 255 bytes in all.
    public static func isBusName(_ appID: String) -> Bool {
        let bytes = Array(appID.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
            return element.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
                default: false
                }
            }
        }
    }

    /// The object path of `appID`'s `org.freedesktop.Application`: the id with each `.` made
    /// `/` and each `-` made `_`, after a `/` ("org.example.Cooking" → "/org/example/Cooking");
    /// `fallbackObjectPath` for an id that is no bus name.
    public static func objectPath(of appID: String) -> String {
        guard isBusName(appID) else { return fallbackObjectPath }
        return "/" + String(appID.map { character in
            switch character {
            case ".": "/"
            case "-": "_"
            default: character
            }
        })
    }
}
