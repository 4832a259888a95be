import Foundation
import Testing
@testable import TocsinCore

// TocsinError.swift, AlarmsErrorName.swift: the one error of a failed call, on both sides of the bus.
@Suite struct TocsinErrorTests {
    @Test(arguments: AlarmsErrorName.allCases)
    func aRefusalReadsBackAsItWasSent(_ name: AlarmsErrorName) throws {
        let sent = TocsinError(name, "No.")
        #expect(sent.dbusErrorName == "io.github.tocsin.Error." + name.rawValue)
        let received = try #require(TocsinError(dbusErrorName: sent.dbusErrorName, message: sent.message))
        #expect(received == sent)
        #expect(received.name == name)
    }

    @Test func namesThatAreNotTheAgentsAreNotRead() {
        #expect(TocsinError(dbusErrorName: "org.freedesktop.DBus.Error.ServiceUnknown", message: "gone") == nil)
        #expect(TocsinError(dbusErrorName: "io.github.tocsin.Error.Exploded", message: "boom") == nil)
        #expect(TocsinError(dbusErrorName: "NotFound", message: "no prefix") == nil)
    }

    @Test func theClientsOwnFailuresHaveNoNameOfTheAgents() {
        #expect(TocsinError.agentUnavailable("Gone.").name == nil)
        #expect(TocsinError.protocolError("Huh.").kind == .protocolError)
        #expect(TocsinError.agentUnavailable("Gone.").dbusErrorName == "org.freedesktop.DBus.Error.Failed")
    }

    @Test func theAlarmBooksRefusalsGoUnderTheirNames() {
        let cases: [(AlarmError, AlarmsErrorName)] = [
            (.notFound(id: UUID()), .notFound),
            (.invalidState(intent: .pause, title: "Tea", state: .alerting, requirement: "only a countdown can be paused"), .invalidState),
            (.invalidArgument(AlarmInputError("Bad.")), .invalidArgument),
            (.limitReached(limit: 3), .limitReached),
            (.appLimitReached(app: "org.example.Cook", limit: 100), .limitReached),
            (.notAuthorized(app: "org.example.Cook", state: .denied), .notAuthorized),
            (.hooksFromSandbox(app: "org.example.Cook", confinement: .flatpak), .notAuthorized),
        ]
        for (refusal, name) in cases {
            #expect(TocsinError(refusal) == TocsinError(name, refusal.description))
        }
    }
}
