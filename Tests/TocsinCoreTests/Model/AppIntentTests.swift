import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// AppIntentButtons, AppIntentRoute, ApplicationBusName and the decider's rule: which press has
// an application perform its own intent, and how the agent reaches the application.
@Suite("App intents: buttons, routes, bus names")
struct AppIntentTests {
    static let cook = "org.example.Cook"

    @Test("Bus names after the D-Bus rules: two elements or more, no leading digit, letters, digits, _ and -")
    func busNames() {
        for name in ["org.example.Cook", "io.github.tocsin.Agent", "org.example.Cook_2", "org.example.cooking-app", "a.b"] {
            #expect(ApplicationBusName.isBusName(name), "\(name)")
        }
        for name in ["", "cooking-app", "tocsin", "org..example", ".org.example", "org.example.", "org.3d.Cook", "org.example.Cook!",
                     "org.exämple.Cook", "a." + String(repeating: "b", count: 254)] {
            #expect(!ApplicationBusName.isBusName(name), "\(name)")
        }
    }

    @Test("The object path is the id with . made / and - made _; an id that is no bus name gets Tocsin's")
    func objectPaths() {
        #expect(ApplicationBusName.objectPath(of: "org.example.Cook") == "/org/example/Cook")
        #expect(ApplicationBusName.objectPath(of: "org.example.cooking-app") == "/org/example/cooking_app")
        #expect(ApplicationBusName.objectPath(of: "cooking-app") == "/io/github/tocsin/Application")
    }

    @Test("The oldest running receiver takes the press; else D-Bus activation; else the sandbox's or the registered program")
    func routes() {
        #expect(AppIntentRoute.choose(appID: Self.cook, receivers: [":1.7", ":1.9"], dbusActivatable: true, confinement: .flatpak,
                                      executable: "/usr/bin/cook") == .receiver(":1.7"))
        #expect(AppIntentRoute.choose(appID: Self.cook, receivers: [], dbusActivatable: true, confinement: .unconfined,
                                      executable: "/usr/bin/cook") == .busActivation(name: Self.cook))
        #expect(AppIntentRoute.choose(appID: Self.cook, receivers: [], dbusActivatable: false, confinement: .unconfined,
                                      executable: "/usr/bin/cook") == .launch(["/usr/bin/cook", "--tocsin-intents"]))
        // A sandboxed app is started through its sandbox, never by a path it gave.
        #expect(AppIntentRoute.choose(appID: Self.cook, receivers: [], dbusActivatable: false, confinement: .flatpak,
                                      executable: "/tmp/evil") == .launch(["flatpak", "run", Self.cook, "--tocsin-intents"]))
        // An id that is no bus name cannot be D-Bus activated, whatever a desktop entry says.
        #expect(AppIntentRoute.choose(appID: "cooking-app", receivers: [], dbusActivatable: true, confinement: .unconfined,
                                      executable: "/usr/bin/cooking-app") == .launch(["/usr/bin/cooking-app", "--tocsin-intents"]))
        guard case .unreachable(let reason) = AppIntentRoute.choose(appID: Self.cook, receivers: [], dbusActivatable: false,
                                                                    confinement: .unconfined, executable: nil) else {
            Issue.record("an app without a program or activation is unreachable")
            return
        }
        #expect(reason.contains("registered no program"))
        guard case .unreachable = AppIntentRoute.choose(appID: Self.cook, receivers: [], dbusActivatable: false, confinement: nil,
                                                        executable: "/usr/bin/cook") else {
            Issue.record("an app of unknown origin is started by no path")
            return
        }
    }

    @Test("A request's app intents: a secondary intent without a snooze makes a custom button; paths must be absolute")
    func requests() throws {
        let custom = AlarmRequest(duration: 60, secondaryButtonLabel: "Next step", appIntents: AppIntentButtons(modes: [.secondary: .background]))
        let alarm = try custom.makeAlarm(id: fixedID(1), now: t0)
        #expect(alarm.secondaryButton == SecondaryButton(label: "Next step", behavior: .custom))
        #expect(alarm.appIntents == custom.appIntents)
        let snooze = AlarmRequest(duration: 60, snoozeDuration: 300, secondaryButtonLabel: "Repeat",
                                  appIntents: AppIntentButtons(modes: [.secondary: .background]))
        #expect(try snooze.makeAlarm(id: fixedID(2), now: t0).secondaryButton == SecondaryButton(label: "Repeat", behavior: .countdown))
        let unlabelled = #expect(throws: AlarmInputError.self) {
            try AlarmRequest(duration: 60, appIntents: AppIntentButtons(modes: [.secondary: .background])).makeAlarm(id: fixedID(3), now: t0)
        }
        #expect(unlabelled?.message == "A custom button command needs a button label.")
        let relative = #expect(throws: AlarmInputError.self) {
            try AlarmRequest(duration: 60, appIntents: AppIntentButtons(modes: [.stop: .background], executable: "bin/cook")).makeAlarm(id: fixedID(4), now: t0)
        }
        #expect(relative?.message == "The app's executable must be an absolute path (got “bin/cook”).")
        let empty = #expect(throws: AlarmInputError.self) {
            try AlarmRequest(duration: 60, appIntents: AppIntentButtons(modes: [:])).makeAlarm(id: fixedID(5), now: t0)
        }
        #expect(empty?.message == "The app intents name no button; give “stop” or “secondary”.")
    }

    /// A run whose timer of the cooking app, with `intents`, rings since t0 + 60 (`fixedID(1)`).
    static func ringing(_ intents: AppIntentButtons, snooze: TimeInterval? = 300) throws -> DeciderRun {
        var run = try DeciderRun()
        let request = AlarmRequest(title: "Pasta", duration: 60, snoozeDuration: snooze, secondaryButtonLabel: snooze == nil ? "Next step" : nil,
                                   appIntents: intents)
        _ = run.ask(.schedule(request, id: fixedID(1), owner: cook, confinement: .unconfined, ownerLimit: nil), by: .client(cook), at: 0)
        _ = run.feed(.timePassed, at: 60)
        return run
    }

    static func performed(_ effects: [AgentEffect]) -> [AgentEffect] {
        effects.filter { if case .performAppIntent = $0 { true } else { false } }
    }

    /// The event `effects` signal.
    static func event(_ effects: [AgentEffect]) throws -> AlarmEvent {
        let events = effects.compactMap { if case .signal(let event) = $0 { event } else { nil } }
        return try #require(events.first)
    }

    @Test("A press from a button or the command line has the app perform its intent, with its mode; the app's own call does not")
    func deciderRule() throws {
        let intents = AppIntentButtons(modes: [.stop: .foreground, .secondary: .background])
        for (intent, button, mode) in [(AlarmIntent.stop, AppIntentButtons.Button.stop, AppIntentButtons.Mode.foreground),
                                       (.countdown, .secondary, .background)] {
            for origin in [ChangeOrigin.press, .client(AppAuthorizations.commandLineAppID)] {
                var run = try Self.ringing(intents)
                let effects = run.perform(intent, on: fixedID(1), by: origin, at: 61)
                let event = try Self.event(effects)
                #expect(Self.performed(effects) == [.performAppIntent(alarm: event.alarm, button: button, mode: mode)], "\(intent) by \(origin)")
                // After the silence and the signal: the ring ends first, whatever the app does.
                let perform = try #require(effects.firstIndex { if case .performAppIntent = $0 { true } else { false } })
                let signal = try #require(AlarmDeciderTests.index(in: effects, AlarmDeciderTests.isSignal))
                #expect(signal < perform)
            }
            var run = try Self.ringing(intents)
            #expect(Self.performed(run.perform(intent, on: fixedID(1), by: .client(Self.cook), at: 61)).isEmpty, "the app's own \(intent)")
        }
        // The custom button's press.
        var run = try Self.ringing(AppIntentButtons(modes: [.secondary: .background]), snooze: nil)
        let effects = run.perform(.secondary, on: fixedID(1), at: 61)
        #expect(Self.performed(effects) == [.performAppIntent(alarm: try Self.event(effects).alarm, button: .secondary, mode: .background)])
    }

    @Test("No press, no intent: cancelling, pausing, a ring that ends unanswered, a button without an app intent")
    func noPress() throws {
        var run = try Self.ringing(AppIntentButtons(modes: [.secondary: .background]))
        #expect(Self.performed(run.perform(.stop, on: fixedID(1), at: 61)).isEmpty, "Stop carries no app intent here")

        var unanswered = try Self.ringing(AppIntentButtons(modes: [.stop: .background, .secondary: .background]))
        let ended = unanswered.feed(.timePassed, at: 60 + AlarmRequest.defaultRingLimit + 1)
        #expect(ended.contains { if case .signal(let event) = $0 { event.kind == .unacknowledged } else { false } })
        #expect(Self.performed(ended).isEmpty)

        var counting = try DeciderRun(AlarmRequest(title: "Tea", duration: 60, appIntents: AppIntentButtons(modes: [.stop: .background])))
        for (intent, seconds) in [(AlarmIntent.pause, 10.0), (.resume, 11), (.cancel, 12)] {
            let effects = counting.perform(intent, on: counting.id(1), at: seconds)
            #expect(effects.contains(where: AlarmDeciderTests.isSignal), "\(intent) happened")
            #expect(Self.performed(effects).isEmpty, "\(intent)")
        }
    }
}
