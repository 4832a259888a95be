import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// AlarmsCall.swift: D-Bus calls decoded into typed calls; the one intent ↔ method table.
@Suite("Alarms calls")
struct AlarmsCallTests {
    static let id = fixedID(7)
    static let idText = fixedID(7).uuidString.lowercased()

    @Test("Every intent has its method and back, and only the intents' methods have an intent")
    func intentTable() {
        for intent in AlarmIntent.allCases {
            #expect(AlarmsMethod(intent).intent == intent)
        }
        #expect(AlarmsMethod.allCases.filter { $0.intent != nil }.count == AlarmIntent.allCases.count)
        #expect(AlarmsMethod(.countdown) == .countdown)
        #expect(AlarmsMethod(.stop).rawValue == "Stop")
    }

    @Test("Each method decodes into its call")
    func decoding() throws {
        #expect(try AlarmsCall(.stop, arguments: [.string(Self.idText)]) == .intent(.stop, on: Self.id))
        #expect(try AlarmsCall(.countdown, arguments: [.string(Self.idText.uppercased())]) == .intent(.countdown, on: Self.id))
        #expect(try AlarmsCall(.get, arguments: [.string(Self.idText)]) == .get(Self.id))
        #expect(try AlarmsCall(.list, arguments: []) == .list)
        #expect(try AlarmsCall(.listPacked, arguments: []) == .list, "ListPacked asks what List asks; only the reply is encoded otherwise")
        #expect(try AlarmsCall(.watch, arguments: []) == .watch)
        #expect(try AlarmsCall(.identifyApplication, arguments: [.string("org.example.Cook")]) == .identifyApplication("org.example.Cook"))
        #expect(try AlarmsCall(.setAuthorization, arguments: [.string("gdbus"), .string("denied")]) == .setAuthorization(.denied, app: "gdbus"))
        let schedule = try AlarmsCall(.schedule, arguments: [.dictionary(["duration": .double(180), "title": .string("Pasta")])])
        #expect(schedule == .schedule(AlarmRequest(title: "Pasta", duration: 180)))
    }

    @Test("Arguments that are not what the method takes are refused with the reason")
    func refusals() {
        func message(_ method: AlarmsMethod, _ arguments: [WireValue]) -> String? {
            do {
                _ = try AlarmsCall(method, arguments: arguments)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(message(.cancel, [.string("3f2b")]) == "“3f2b” is not an alarm id (ids look like 3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5a).")
        #expect(message(.get, []) == "Get takes s arguments.")
        #expect(message(.setAuthorization, [.string("gdbus"), .string("maybe")]) == "“maybe” is not an authorization state (notDetermined, authorized, denied).")
        #expect(message(.identifyApplication, [.string("x;rm -rf /")])?.contains("is not an application id") == true)
        #expect(message(.schedule, [.dictionary(["duration": .string("soon")])]) != nil, "a value of the wrong type")
        #expect(message(.schedule, [.dictionary(["duration": .double(60), "colour": .string("red")])])?.contains("colour") == true, "an unknown key")
        #expect(message(.schedule, [.string("not a request")]) == "Schedule takes one a{sv} request.")
    }
}
