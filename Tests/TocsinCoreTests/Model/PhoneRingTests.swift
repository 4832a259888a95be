import Foundation
import Testing
@testable import TocsinCore
import TocsinFiles
import TocsinTestSupport

// PhoneRingSettings.swift and the decider's phones (AgentState+Phones.swift): when a ringing alarm rings the paired phones.
@Suite("Phone rings")
struct PhoneRingTests {
    static func ringsPhones(_ effect: AgentEffect) -> Bool { if case .ringPhones = effect { true } else { false } }

    /// A run with phones on after `delay`, whose 60 s timer "Tea" (`fixedID(1)`) has just fired
    /// at t0 + 60: the run and the effects of the firing.
    static func ringing(delay: TimeInterval = 30) throws -> (run: DeciderRun, fired: [AgentEffect]) {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60, snoozeDuration: 300))
        _ = run.feed(.phoneSettingsChanged(PhoneRingSettings(isEnabled: true, delay: delay)), at: 0)
        let fired = run.feed(.timePassed, at: 60)
        return (run, fired)
    }

    @Test("Unanswered: the phones ring once the delay has passed, and the deadline wakes the agent for it")
    func unanswered() throws {
        // 25 s: between two of the display's wakes (every 10 s while ringing), so the deadline
        // armed for the phones is theirs alone.
        var (run, fired) = try Self.ringing(delay: 25)
        #expect(!fired.contains(where: Self.ringsPhones), "not at once")
        #expect(fired.last(where: AlarmDeciderTests.isArm) == .armDeadline(at(70)), "the display's next wake comes first")
        _ = run.feed(.timePassed, at: 70)
        let beforeDue = run.feed(.timePassed, at: 80)
        #expect(!beforeDue.contains(where: Self.ringsPhones))
        #expect(beforeDue.last(where: AlarmDeciderTests.isArm) == .armDeadline(at(85)), "woken for the phones, before the display's next wake and the ring limit")
        #expect(!run.feed(.timePassed, at: 84.9).contains(where: Self.ringsPhones))
        let due = run.feed(.timePassed, at: 85)
        #expect(due.filter(Self.ringsPhones) == [.ringPhones(run.book[run.id(1)]!)])
        let later = run.feed(.timePassed, at: 95)
        #expect(!later.contains(where: Self.ringsPhones), "rung once")
        #expect(later.first(where: AlarmDeciderTests.isArm) == .armDeadline(at(105)), "back to the display's wakes, nothing for the phones")
    }

    @Test("The log says how long this alarm rang: its own delay, not the settings'")
    func ownDelayLogged() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60, phone: .ring(after: 1)))
        _ = run.feed(.timePassed, at: 60)
        let due = run.feed(.timePassed, at: 61)
        #expect(due.contains(AgentEffect.log(.info, "“Tea” has rung 1 s unanswered; ringing the phones.")), "\(due)")
        #expect(due.filter(Self.ringsPhones) == [.ringPhones(run.book[run.id(1)]!)])
        var (bySettings, _) = try Self.ringing()
        let dueBySettings = bySettings.feed(.timePassed, at: 90)
        #expect(dueBySettings.contains(AgentEffect.log(.info, "“Tea” has rung 30 s unanswered; ringing the phones.")), "\(dueBySettings)")
    }

    @Test("Stopped or snoozed before the delay: no phone is rung, and the log says so")
    func answered() throws {
        for intent in [AlarmIntent.stop, .countdown] {
            var (run, _) = try Self.ringing()
            let effects = run.perform(intent, on: run.id(1), at: 70)
            #expect(effects.contains(AgentEffect.log(.info, "“Tea” was answered before the phones were rung; they are not.")), "\(intent)")
            #expect(run.state.phones.due.isEmpty)
            let later = run.feed(.timePassed, at: 95)
            #expect(!later.contains(where: Self.ringsPhones), "\(intent): \(later)")
        }
    }

    @Test("Phones off (the default): never rung; turned off while one waits: not rung")
    func off() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60))
        _ = run.feed(.timePassed, at: 60)
        #expect(run.state.phones.due.isEmpty)
        #expect(!run.feed(.timePassed, at: 200).contains(where: Self.ringsPhones))

        var (waiting, _) = try Self.ringing()
        _ = waiting.feed(.phoneSettingsChanged(.off), at: 70)
        #expect(!waiting.feed(.timePassed, at: 95).contains(where: Self.ringsPhones))
    }

    @Test("A delay of 0 rings the phones in the wake-up that fires the alarm")
    func immediately() throws {
        let (run, fired) = try Self.ringing(delay: 0)
        #expect(fired.filter(Self.ringsPhones) == [.ringPhones(run.book[run.id(1)]!)])
        let ring = try #require(fired.firstIndex(where: AlarmDeciderTests.isRing))
        #expect(ring < fired.firstIndex(where: Self.ringsPhones)!, "the desk rings first")
    }

    @Test("After a restart: rung if its time is still to come, not again if it has passed")
    func restart() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60))
        _ = run.feed(.timePassed, at: 60)
        for (restartAt, expected) in [(70.0, [run.id(1): at(90)]), (100, [:])] {
            var restarted = AgentState(book: run.book, localeIdentifier: "C")
            _ = AlarmDecider.decide(&restarted, .phoneSettingsChanged(PhoneRingSettings(isEnabled: true, delay: 30)), now: at(restartAt))
            _ = AlarmDecider.decide(&restarted, .started(in: .utc), now: at(restartAt))
            #expect(restarted.phones.due == expected, "restarted at \(restartAt)")
        }
    }

    @Test("Rung: the alarm's phone hook runs, unless its owner may run no command")
    func phoneHook() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60, hooks: AlarmHooks([.phone: "echo phoned"])), AlarmRequest(title: "Bread", duration: 60))
        _ = run.feed(.timePassed, at: 60)
        let tea = try #require(run.book[run.id(1)])
        #expect(run.feed(.phonesRung(tea), at: 61) == [.runHook(command: "echo phoned", event: .phone, alarm: tea, fireTime: tea.fireDate)])
        #expect(run.feed(.phonesRung(run.book[run.id(2)]!), at: 61).isEmpty)
    }

    @Test("An alarm's own choice wins: --no-phone never rings, --phone rings with phones off, after its own delay or the settings'")
    func ownChoice() throws {
        let on = PhoneRingSettings(isEnabled: true, delay: 30), off = PhoneRingSettings(isEnabled: false, delay: 20)
        #expect(on.phoneRingDate(for: .never, ringingSince: t0) == nil)
        #expect(off.phoneRingDate(for: .ring(after: nil), ringingSince: t0) == at(20))
        #expect(off.phoneRingDate(for: .ring(after: 5), ringingSince: t0) == at(5))
        #expect(on.phoneRingDate(for: nil, ringingSince: t0) == at(30) && off.phoneRingDate(for: nil, ringingSince: t0) == nil)

        // Turning phones off keeps the phones an alarm asked for itself.
        var run = try DeciderRun(AlarmRequest(title: "Own", duration: 60, phone: .ring(after: 10)), AlarmRequest(title: "Follows", duration: 60))
        _ = run.feed(.phoneSettingsChanged(on), at: 0)
        _ = run.feed(.timePassed, at: 60)
        #expect(run.state.phones.due == [run.id(1): at(70), run.id(2): at(90)])
        _ = run.feed(.phoneSettingsChanged(.off), at: 61)
        #expect(run.state.phones.due == [run.id(1): at(70)])
    }

    @Test("The wire: phone-after alone means yes; with phone false it is refused; a negative delay is refused")
    func wire() throws {
        #expect(try AlarmWireFormat.decodeRequest(["duration": .double(60), "phone-after": .double(5)]).phone == .ring(after: 5))
        #expect(throws: AlarmInputError.self) { try AlarmWireFormat.decodeRequest(["duration": .double(60), "phone": .bool(false), "phone-after": .double(5)]) }
        var book = AlarmBook()
        #expect(throws: AlarmError.self) { try book.schedule(AlarmRequest(duration: 60, phone: .ring(after: -1)), now: t0) }
    }

    @Test("The settings file: none is off; saved and read back; one that cannot be read is an error, not off")
    func store() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-phone-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = PhoneSettingsStore(directory: directory)
        #expect(try store.load() == .off)
        try store.save(PhoneRingSettings(isEnabled: true, delay: 45))
        #expect(try store.load() == PhoneRingSettings(isEnabled: true, delay: 45))
        #expect(try String(contentsOf: store.fileURL, encoding: .utf8).contains("\"delay-seconds\" : 45"))
        try Data("{\"enabled\": true".utf8).write(to: store.fileURL)
        #expect(throws: StoreError.self) { try store.load() }
        try Data("{\"enabled\": true, \"delay-seconds\": -5}".utf8).write(to: store.fileURL)
        #expect(throws: StoreError.self) { try store.load() }
    }

    @Test("What the doctor says: off (optional without a phone link); on with phones in reach; on with no service answering or no phone in reach; unreadable settings")
    func readiness() {
        let on = PhoneRingSettings(isEnabled: true, delay: 30)
        let pixel = PhoneReach.Phone(service: .kdeConnect, id: "a1", name: "Pixel", objectPath: "/modules/kdeconnect/devices/a1")
        let tablet = PhoneReach.Phone(service: .gsConnect, id: "b2", name: "Tablet", objectPath: "/org/gnome/Shell/Extensions/GSConnect/Device/b2")
        let noService = PhoneReach.outcome([.kdeConnect: .noAnswer("not running"), .gsConnect: .noAnswer("gone")])
        let noPhone = PhoneReach.outcome([.kdeConnect: .phones([]), .gsConnect: .noAnswer("gone")])
        #expect(PhoneReadiness.report(settings: .success(.off), reach: nil)
                == .init(.ok, "off (tocsin phone enable rings your paired phones when nobody answers)"))
        #expect(PhoneReadiness.report(settings: .success(.off), reach: .ring([pixel]))
                == .init(.ok, "off (tocsin phone enable rings your paired phones when nobody answers)"))
        let offAlone = PhoneReadiness.report(settings: .success(.off), reach: noService)
        #expect(offAlone.level == .optional && offAlone.message == "off, and neither KDE Connect nor GSConnect runs here")
        #expect(offAlone.fix?.hasPrefix("To have unanswered alarms ring your phone: install KDE Connect") == true)
        let offUnpaired = PhoneReadiness.report(settings: .success(.off), reach: noPhone)
        #expect(offUnpaired.level == .optional && offUnpaired.message == "off, and KDE Connect knows no paired phone within reach")
        #expect(PhoneReadiness.report(settings: .success(on), reach: .ring([pixel, tablet]))
                == .init(.ok, "on after 30 s unanswered: Pixel, Tablet will ring"))
        let silent = PhoneReadiness.report(settings: .success(on), reach: noService)
        #expect(silent.level == .warning && silent.message
                == "on after 30 s unanswered, but neither KDE Connect nor GSConnect answers (KDE Connect: not running; GSConnect: gone): no phone will ring")
        #expect(silent.fix == "Start KDE Connect (kdeconnectd), or GSConnect on GNOME, and pair your phone.")
        let none = PhoneReadiness.report(settings: .success(on), reach: noPhone)
        #expect(none.level == .warning && none.message == "on after 30 s unanswered, but KDE Connect knows no paired phone within reach: none will ring")
        #expect(none.fix == "Pair the phone in KDE Connect or GSConnect, or bring it onto the same network.")
        let unreadable = PhoneReadiness.report(settings: .failure(StoreError("phone.json could not be read (x)")), reach: nil)
        #expect(unreadable.level == .warning && unreadable.message == "phone.json could not be read (x): no phone will ring")
        #expect(PhoneReadiness.report(settings: .success(on), reach: nil).message.hasSuffix("no phone service was asked: none will ring"))
    }

    @Test("Every service's phones are rung, whichever else is silent; when none can be, the reason names who said what")
    func reach() {
        let pixel = PhoneReach.Phone(service: .kdeConnect, id: "a1", name: "Pixel", objectPath: "/a1")
        let tablet = PhoneReach.Phone(service: .gsConnect, id: "b2", name: "Tablet", objectPath: "/b2")
        #expect(PhoneReach.outcome([.gsConnect: .phones([tablet]), .kdeConnect: .phones([pixel])]) == .ring([pixel, tablet]), "KDE Connect's first")
        #expect(PhoneReach.outcome([.kdeConnect: .noAnswer("x"), .gsConnect: .phones([tablet])]) == .ring([tablet]))
        #expect(PhoneReach.outcome([.kdeConnect: .noAnswer("not running")]) == .none(.noService, reason: "KDE Connect does not answer (not running)"))
        #expect(PhoneReach.outcome([.kdeConnect: .phones([]), .gsConnect: .phones([])])
                == .none(.noPhone, reason: "neither KDE Connect nor GSConnect knows a paired phone within reach"))
        #expect(PhoneReach.outcome([.kdeConnect: .noAnswer("x"), .gsConnect: .phones([])])
                == .none(.noPhone, reason: "GSConnect knows no paired phone within reach"))
        #expect(PhoneReach.outcome([:]) == .none(.noService, reason: "no phone service was asked"))
    }

    @Test("The configuration directory follows XDG_CONFIG_HOME, else ~/.config")
    func directory() {
        #expect(PhoneSettingsStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "/x/conf", "HOME": "/h"]).path == "/x/conf/tocsin")
        #expect(PhoneSettingsStore.defaultDirectory(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).path == "/h/.config/tocsin")
    }
}
