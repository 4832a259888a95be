import GLibSupport
import Testing
import TocsinCore
@testable import TocsinKit

/// How a failed call's `GError` becomes a `TocsinError`, and that one an `AlarmManager.AlarmError`:
/// no agent needed.
@Suite struct BusErrorTests {
    static func failure(_ remoteName: String?, _ message: String = "said the bus") -> TocsinError {
        TocsinError(failedCall: GLibError(message: message, remoteName: remoteName), timeoutMilliseconds: 25_000)
    }

    @Test(arguments: AlarmsErrorName.allCases)
    func theAgentsRefusalIsReadBack(_ name: AlarmsErrorName) {
        #expect(Self.failure(name.dbusName, "No.") == TocsinError(name, "No."))
    }

    @Test func aMissingAgentIsUnavailable() {
        for name in ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
                     "org.freedesktop.DBus.Error.Spawn.ChildExited", "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout"] {
            #expect(Self.failure(name).kind == .agentUnavailable, "\(name)")
        }
        #expect(Self.failure("org.freedesktop.DBus.Error.ServiceUnknown").message.hasPrefix("The Tocsin agent is not running."))
    }

    @Test func anythingElseIsAProtocolError() {
        #expect(Self.failure("org.freedesktop.DBus.Error.UnknownMethod", "no such method") == .protocolError("no such method"))
        #expect(Self.failure(nil, "GDBus said no") == .protocolError("GDBus said no"))
    }

    @Test func alarmKitsErrorKeepsItsOneCaseAndTocsinsReasons() {
        #expect(AlarmManager.AlarmError(TocsinError(.limitReached, "Full.")) == .maximumLimitReached)
        #expect(AlarmManager.AlarmError(TocsinError(.notFound, "Which?")) == .tocsin(.notFound("Which?")))
        #expect(AlarmManager.AlarmError(TocsinError(.invalidState, "Not now.")) == .tocsin(.invalidState("Not now.")))
        #expect(AlarmManager.AlarmError(TocsinError(.invalidArgument, "Bad.")) == .tocsin(.invalidArgument("Bad.")))
        #expect(AlarmManager.AlarmError(TocsinError(.storageFailed, "Disk.")) == .tocsin(.storageFailed("Disk.")))
        #expect(AlarmManager.AlarmError(TocsinError(.notAuthorized, "No.")) == .tocsin(.notAuthorized("No.")))
        #expect(AlarmManager.AlarmError(.agentUnavailable("Gone.")) == .tocsin(.agentUnavailable("Gone.")))
        #expect(AlarmManager.AlarmError(.protocolError("Huh.")) == .tocsin(.protocolError("Huh.")))
    }
}
