/// Why a call to the agent failed: the one error for failures that cross the wire, on both
/// sides of it.
///
/// The agent answers a call it refuses with one (`refused`), which goes on the bus as the D-Bus
/// error `dbusErrorName` with `message`; TocsinKit reads that back into the same value
/// (`init(dbusErrorName:message:)`). Two kinds only a client meets: the agent could not be
/// reached, or it answered what the client cannot read.
public struct TocsinError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Sendable, Hashable {
        /// The agent refused the call with this error.
        case refused(AlarmsErrorName)
        /// The agent cannot be reached: no session bus, not running and not activatable, or not
        /// answering.
        case agentUnavailable
        /// The agent answered something this client does not understand (a version mismatch).
        case protocolError
    }

    /// What failed.
    public let kind: Kind
    /// One sentence for a person.
    public let message: String

    /// The agent's refusal `name`, saying `message`.
    public init(_ name: AlarmsErrorName, _ message: String) {
        kind = .refused(name)
        self.message = message
    }

    private init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The agent cannot be reached; `message` says why and what to do.
    public static func agentUnavailable(_ message: String) -> Self {
        Self(kind: .agentUnavailable, message: message)
    }

    /// The agent answered what this client cannot read; `message` says what.
    public static func protocolError(_ message: String) -> Self {
        Self(kind: .protocolError, message: message)
    }

    /// The agent's error name, when the agent refused.
    public var name: AlarmsErrorName? {
        if case .refused(let name) = kind { name } else { nil }
    }

    public var description: String { message }

    /// The alarm book's refusal `error`, under the error name that stands for it.
    public init(_ error: AlarmError) {
        let name: AlarmsErrorName = switch error {
        case .notFound: .notFound
        case .invalidState: .invalidState
        case .invalidArgument: .invalidArgument
        case .limitReached, .appLimitReached: .limitReached
        case .notAuthorized, .hooksFromSandbox: .notAuthorized
        }
        self.init(name, error.description)
    }

    // MARK: On the wire

    /// The D-Bus error name the agent sends this error under. Only refusals are sent; the
    /// client's own kinds, which no agent makes, would go as D-Bus's generic `Failed`.
    public var dbusErrorName: String {
        name?.dbusName ?? Self.genericFailure
    }

    /// The error an agent's D-Bus error `dbusErrorName` with `message` stands for; `nil` when
    /// the name is not one of the agent's (the bus's own errors, which the client reads itself).
    public init?(dbusErrorName: String, message: String) {
        guard let name = AlarmsErrorName(dbusName: dbusErrorName) else { return nil }
        self.init(name, message)
    }

    /// D-Bus's name for a failure with no name of its own.
    static let genericFailure = "org.freedesktop.DBus.Error.Failed"
}
