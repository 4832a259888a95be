/// The D-Bus errors the agent answers calls with, each under `AlarmsInterface.errorPrefix`.
///
/// The raw values are the names `dbus/io.github.tocsin.Alarms1.xml` and tocsind(1) document
/// (`NotFound` is `io.github.tocsin.Error.NotFound`); `InterfaceAgreementTests` holds the three
/// to the same names.
public enum AlarmsErrorName: String, CaseIterable, Sendable {
    /// No alarm has the id (or none the caller may see).
    case notFound = "NotFound"
    /// The method is not allowed in the alarm's current state, or the agent is starting or
    /// stopping.
    case invalidState = "InvalidState"
    /// The arguments are wrong: a malformed id, an unknown key, a bad duration…
    case invalidArgument = "InvalidArgument"
    /// The agent, or the application, holds as many alarms as it may.
    case limitReached = "LimitReached"
    /// The change could not be saved, so it was not made.
    case storageFailed = "StorageFailed"
    /// The caller may not do this.
    case notAuthorized = "NotAuthorized"

    /// The full D-Bus error name, e.g. `io.github.tocsin.Error.NotFound`.
    public var dbusName: String { AlarmsInterface.errorPrefix + rawValue }

    /// The error whose full D-Bus name is `dbusName`; `nil` for a name that is not the agent's.
    public init?(dbusName: String) {
        guard dbusName.hasPrefix(AlarmsInterface.errorPrefix) else { return nil }
        self.init(rawValue: String(dbusName.dropFirst(AlarmsInterface.errorPrefix.count)))
    }
}
