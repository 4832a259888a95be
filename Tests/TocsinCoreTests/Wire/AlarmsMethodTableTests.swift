import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// AlarmsMethodTable.swift, AlarmsSignalTable.swift: what a client writes with the typed table is
// what the agent reads, and what the agent answers is what the client reads back.
@Suite("The typed method table")
struct AlarmsMethodTableTests {
    static let id = fixedID(42)
    static let request = AlarmRequest(title: "Pasta", duration: 180, snoozeDuration: 60)

    @Test("Each method's row is its own")
    func rowsNameTheirMethods() {
        for method in AlarmsMethod.allCases {
            #expect(method.entry.method == method)
        }
        for signal in AlarmsSignal.allCases {
            #expect(!signal.arguments.isEmpty)
        }
    }

    /// Encodes `arguments` as a client does, and decodes them as the agent does.
    static func agentReads<Arguments, Reply>(_ typed: AlarmsInterface.TypedMethod<Arguments, Reply>, _ arguments: Arguments) throws -> AlarmsCall {
        try AlarmsCall(typed.method, wireArguments: typed.arguments.encode(arguments))
    }

    @Test("What a client sends for each method, the agent reads as the call it meant", arguments: AlarmsMethod.allCases)
    func callsRoundTrip(_ method: AlarmsMethod) throws {
        // A switch, not a list: a new method does not compile until it has its case here.
        switch method {
        case .schedule: #expect(try Self.agentReads(AlarmsInterface.schedule, Self.request) == .schedule(Self.request))
        case .cancel, .pause, .resume, .stop, .countdown, .secondary:
            let intent = try #require(method.intent)
            #expect(try Self.agentReads(AlarmsInterface.intent(intent), Self.id) == .intent(intent, on: Self.id))
        case .list: #expect(try Self.agentReads(AlarmsInterface.list, ()) == .list)
        case .listPacked: #expect(try Self.agentReads(AlarmsInterface.listPacked, ()) == .list)
        case .get: #expect(try Self.agentReads(AlarmsInterface.get, Self.id) == .get(Self.id))
        case .getStatus: #expect(try Self.agentReads(AlarmsInterface.getStatus, ()) == .getStatus)
        case .watch: #expect(try Self.agentReads(AlarmsInterface.watch, ()) == .watch)
        case .receiveIntents: #expect(try Self.agentReads(AlarmsInterface.receiveIntents, ()) == .receiveIntents)
        case .identifyApplication:
            #expect(try Self.agentReads(AlarmsInterface.identifyApplication, "org.example.Cook") == .identifyApplication("org.example.Cook"))
        case .requestAuthorization: #expect(try Self.agentReads(AlarmsInterface.requestAuthorization, ()) == .requestAuthorization)
        case .getAuthorization: #expect(try Self.agentReads(AlarmsInterface.getAuthorization, ()) == .getAuthorization)
        case .listAuthorizations: #expect(try Self.agentReads(AlarmsInterface.listAuthorizations, ()) == .listAuthorizations)
        case .listApplications: #expect(try Self.agentReads(AlarmsInterface.listApplications, ()) == .listApplications)
        case .setAuthorization:
            #expect(try Self.agentReads(AlarmsInterface.setAuthorization, ("org.example.Cook", .denied)) == .setAuthorization(.denied, app: "org.example.Cook"))
        }
    }

    @Test("The encoded arguments have the types the table declares", arguments: AlarmsMethod.allCases)
    func encodedArgumentsHaveTheDeclaredTypes(_ method: AlarmsMethod) {
        let encoded: [WireArgument] = switch method {
        case .schedule: AlarmsInterface.schedule.arguments.encode(Self.request)
        case .cancel, .pause, .resume, .stop, .countdown, .secondary, .get: AlarmsInterface.get.arguments.encode(Self.id)
        case .identifyApplication: AlarmsInterface.identifyApplication.arguments.encode("org.example.Cook")
        case .setAuthorization: AlarmsInterface.setAuthorization.arguments.encode(("org.example.Cook", .authorized))
        case .list, .listPacked, .getStatus, .watch, .receiveIntents, .requestAuthorization, .getAuthorization,
             .listAuthorizations, .listApplications: []
        }
        #expect(encoded.map(\.signature) == method.inArguments.map(\.signature))
    }

    /// What the client reads of the agent's `reply` to `typed`.
    static func clientReads<Arguments, Reply>(_ reply: AlarmsReply, to typed: AlarmsInterface.TypedMethod<Arguments, Reply>) throws -> Reply? {
        let arguments = try #require(reply.arguments(answering: typed.method), "\(reply) is no reply to \(typed.method.rawValue)")
        #expect(arguments.map(\.signature) == typed.method.outArguments.map(\.signature))
        return try typed.reply.decode(arguments)
    }

    @Test("What the agent answers each method with, a client reads back", arguments: AlarmsMethod.allCases)
    func repliesRoundTrip(_ method: AlarmsMethod) throws {
        let alarms = Fixture.varied
        let applications = [
            ApplicationRecord(appID: "org.example.Cook", authorization: .authorized, confinement: .flatpak, alarmCount: 2),
            ApplicationRecord(appID: "spam", authorization: .denied, confinement: nil, alarmCount: 0),
        ]
        switch method {
        case .schedule: #expect(try Self.clientReads(.id(Self.id), to: AlarmsInterface.schedule) == Self.id)
        case .cancel, .pause, .resume, .stop, .countdown, .secondary:
            let intent = try #require(method.intent)
            #expect(try Self.clientReads(.nothing, to: AlarmsInterface.intent(intent)) != nil)
        case .list: #expect(try Self.clientReads(.alarms(alarms), to: AlarmsInterface.list) == alarms)
        case .listPacked: #expect(try Self.clientReads(.alarms(alarms), to: AlarmsInterface.listPacked) == alarms)
        case .get: #expect(try Self.clientReads(.alarm(alarms[2]), to: AlarmsInterface.get) == alarms[2])
        case .getStatus:
            let status: [String: WireValue] = ["version": .string("0.1.0"), "alarm-count": .integer(3), "can-wake-system": .bool(false)]
            #expect(try Self.clientReads(.status(status), to: AlarmsInterface.getStatus) == status)
        case .watch: #expect(try Self.clientReads(.nothing, to: AlarmsInterface.watch) != nil)
        case .receiveIntents: #expect(try Self.clientReads(.nothing, to: AlarmsInterface.receiveIntents) != nil)
        case .identifyApplication: #expect(try Self.clientReads(.nothing, to: AlarmsInterface.identifyApplication) != nil)
        case .requestAuthorization: #expect(try Self.clientReads(.authorization(.denied), to: AlarmsInterface.requestAuthorization) == .denied)
        case .getAuthorization: #expect(try Self.clientReads(.authorization(.authorized), to: AlarmsInterface.getAuthorization) == .authorized)
        case .listAuthorizations:
            let states: [String: AuthorizationState] = ["org.example.Cook": .authorized, "spam": .denied]
            #expect(try Self.clientReads(.authorizations(states), to: AlarmsInterface.listAuthorizations) == states)
        case .listApplications: #expect(try Self.clientReads(.applications(applications), to: AlarmsInterface.listApplications) == applications)
        case .setAuthorization: #expect(try Self.clientReads(.nothing, to: AlarmsInterface.setAuthorization) != nil)
        }
    }

    @Test("A reply that is not the method's is not written")
    func mismatchedRepliesAreRefused() {
        #expect(AlarmsReply.nothing.arguments(answering: .get) == nil)
        #expect(AlarmsReply.id(Self.id).arguments(answering: .list) == nil)
        #expect(AlarmsReply.alarms([]).arguments(answering: .watch) == nil)
        #expect(AlarmsReply.authorization(.denied).arguments(answering: .listAuthorizations) == nil)
    }

    @Test("A reply of other types or another count reads as none")
    func repliesOfTheWrongShapeReadAsNone() throws {
        #expect(try AlarmsInterface.schedule.reply.decode([]) == nil)
        #expect(try AlarmsInterface.schedule.reply.decode([.value(.integer(1))]) == nil)
        #expect(try AlarmsInterface.get.reply.decode([.value(.string("x"))]) == nil)
        #expect(try AlarmsInterface.list.reply.decode([.bytes([])]) == nil)
        #expect(try AlarmsInterface.watch.reply.decode([.value(.string("x"))]) == nil)
    }

    @Test("An id or a packed list that is not one is refused, saying why")
    func malformedValuesAreRefused() {
        #expect(throws: AlarmInputError("“3f2b” is not an alarm id (ids look like 3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5a).")) {
            try AlarmsInterface.schedule.reply.decode([.value(.string("3f2b"))])
        }
        #expect(throws: AlarmInputError.self) { try AlarmsInterface.listPacked.reply.decode([.bytes([0, 0, 0, 9])]) }
    }

    @Test("Each signal's arguments read back as they were written")
    func signalsRoundTrip() throws {
        let alarm = Fixture.varied[3]
        for typed in [AlarmsInterface.changed, AlarmsInterface.removed] {
            let encoded = typed.arguments.encode((.fired, alarm))
            #expect(encoded.map(\.signature) == typed.signal.arguments.map(\.signature))
            let decoded = try #require(try typed.arguments.decode(encoded))
            #expect(decoded.0 == .fired && decoded.1 == alarm)
        }
        let encoded = AlarmsInterface.authorizationChanged.arguments.encode(("org.example.Cook", .denied))
        let decoded = try #require(try AlarmsInterface.authorizationChanged.arguments.decode(encoded))
        #expect(decoded.0 == "org.example.Cook" && decoded.1 == .denied)
        #expect(throws: AlarmInputError.self) { try AlarmsInterface.changed.arguments.decode([.value(.string("exploded")), .value(.dictionary([:]))]) }
    }
}
