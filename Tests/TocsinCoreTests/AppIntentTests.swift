import Foundation
import Testing
@testable import TocsinCore

// AppIntentButtons, AppIntentRoute, ApplicationBusName and the planner's rule: which press has
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

    /// A ringing timer of the cooking app with `intents`, and the book holding it.
    static func ringing(_ intents: AppIntentButtons, snooze: TimeInterval? = 300) throws -> (AlarmBook, UUID) {
        var book = AlarmBook()
        let request = AlarmRequest(title: "Pasta", duration: 60, snoozeDuration: snooze, secondaryButtonLabel: snooze == nil ? "Next step" : nil,
                                   appIntents: intents)
        let id = try book.schedule(request, id: fixedID(1), now: t0, owner: cook).alarm.id
        _ = book.advance(to: at(60))
        return (book, id)
    }

    static func performed(_ effects: [AgentEffect]) -> [AgentEffect] {
        effects.filter { if case .performAppIntent = $0 { true } else { false } }
    }

    @Test("A press from a button or the command line has the app perform its intent, with its mode; the app's own call does not")
    func plannerRule() throws {
        let intents = AppIntentButtons(modes: [.stop: .foreground, .secondary: .background])
        for (intent, button, mode) in [(AlarmIntent.stop, AppIntentButtons.Button.stop, AppIntentButtons.Mode.foreground),
                                       (.countdown, .secondary, .background)] {
            for caller in [nil, AppAuthorizations.commandLineAppID] {
                var (book, id) = try Self.ringing(intents)
                var planner = AgentPlannerTests.planner()
                let event = try book.perform(intent, on: id, now: at(61))
                let effects = planner.react(to: [event], now: at(61), causedBy: caller)
                #expect(Self.performed(effects) == [.performAppIntent(alarm: event.alarm, button: button, mode: mode)], "\(intent) by \(caller ?? "a button")")
                // After the silence and the signal: the ring ends first, whatever the app does.
                let perform = try #require(effects.firstIndex { if case .performAppIntent = $0 { true } else { false } })
                let signal = try #require(AgentPlannerTests.index(in: effects, AgentPlannerTests.isSignal))
                #expect(signal < perform)
            }
            var (book, id) = try Self.ringing(intents)
            var planner = AgentPlannerTests.planner()
            let event = try book.perform(intent, on: id, now: at(61))
            #expect(Self.performed(planner.react(to: [event], now: at(61), causedBy: Self.cook)).isEmpty, "the app's own \(intent)")
        }
        // The custom button's press.
        var (book, id) = try Self.ringing(AppIntentButtons(modes: [.secondary: .background]), snooze: nil)
        var planner = AgentPlannerTests.planner()
        let secondary = try book.perform(.secondary, on: id, now: at(61))
        #expect(Self.performed(planner.react(to: [secondary], now: at(61))) == [.performAppIntent(alarm: secondary.alarm, button: .secondary, mode: .background)])
    }

    @Test("No press, no intent: cancelling, pausing, a ring that ends unanswered, a button without an app intent")
    func noPress() throws {
        var (book, id) = try Self.ringing(AppIntentButtons(modes: [.secondary: .background]))
        var planner = AgentPlannerTests.planner()
        let stopped = try book.perform(.stop, on: id, now: at(61))
        #expect(Self.performed(planner.react(to: [stopped], now: at(61))).isEmpty, "Stop carries no app intent here")

        var (unanswered, _) = try Self.ringing(AppIntentButtons(modes: [.stop: .background, .secondary: .background]))
        let ended = unanswered.advance(to: at(60 + AlarmRequest.defaultRingLimit + 1))
        #expect(Self.performed(planner.react(to: ended, now: at(60 + AlarmRequest.defaultRingLimit + 1))).isEmpty)

        var (counting, timer) = try AgentPlannerTests.book(AlarmRequest(title: "Tea", duration: 60, appIntents: AppIntentButtons(modes: [.stop: .background])))
        for intent in [AlarmIntent.pause, .resume, .cancel] {
            let event = try counting.perform(intent, on: timer[0], now: at(10))
            #expect(Self.performed(planner.react(to: [event], now: at(10))).isEmpty, "\(intent)")
        }
    }
}
