import Foundation
import Testing
@testable import TocsinCore

// PhoneRingSettings.swift and AgentPlanner's phones: when a ringing alarm rings the paired phones.
@Suite("Phone rings")
struct PhoneRingTests {
    static func ringsPhones(_ effect: AgentEffect) -> Bool { if case .ringPhones = effect { true } else { false } }

    /// A planner with phones on after `delay`, and a book whose 60 s timer has just fired at t0 + 60.
    static func ringing(delay: TimeInterval = 30) throws -> (planner: AgentPlanner, book: AlarmBook, id: UUID, fired: [AgentEffect]) {
        var (book, ids) = try AgentPlannerTests.book(AlarmRequest(title: "Tea", duration: 60, snoozeDuration: 300))
        var planner = AgentPlannerTests.planner()
        planner.adopt(phoneRings: PhoneRingSettings(isEnabled: true, delay: delay))
        let fired = planner.timePassed(book.advance(to: at(60)), book: book, now: at(60))
        return (planner, book, ids[0], fired)
    }

    @Test("Unanswered: the phones ring once the delay has passed, and the deadline wakes the agent for it")
    func unanswered() throws {
        var (planner, book, id, fired) = try Self.ringing()
        #expect(!fired.contains(where: Self.ringsPhones), "not at once")
        #expect(fired.last(where: AgentPlannerTests.isArm) == .armDeadline(at(90)), "woken for the phones, before the ring limit")
        #expect(!planner.timePassed([], book: book, now: at(89.9)).contains(where: Self.ringsPhones))
        let due = planner.timePassed(book.advance(to: at(90)), book: book, now: at(90))
        #expect(due.filter(Self.ringsPhones) == [.ringPhones(book[id]!)])
        #expect(!planner.timePassed([], book: book, now: at(95)).contains(where: Self.ringsPhones), "rung once")
        #expect(planner.arm(book, now: at(95)).first == .armDeadline(at(660)), "back to the ring limit")
    }

    @Test("The log says how long this alarm rang: its own delay, not the settings'")
    func ownDelayLogged() throws {
        var (book, ids) = try AgentPlannerTests.book(AlarmRequest(title: "Tea", duration: 60, phone: .ring(after: 1)))
        var planner = AgentPlannerTests.planner()
        _ = planner.timePassed(book.advance(to: at(60)), book: book, now: at(60))
        let due = planner.timePassed(book.advance(to: at(61)), book: book, now: at(61))
        #expect(due.contains(AgentEffect.log(.info, "“Tea” has rung 1 s unanswered; ringing the phones.")), "\(due)")
        #expect(due.filter(Self.ringsPhones) == [.ringPhones(book[ids[0]]!)])
        var (bySettings, settingsBook, _, _) = try Self.ringing()
        let dueBySettings = bySettings.timePassed(settingsBook.advance(to: at(90)), book: settingsBook, now: at(90))
        #expect(dueBySettings.contains(AgentEffect.log(.info, "“Tea” has rung 30 s unanswered; ringing the phones.")), "\(dueBySettings)")
    }

    @Test("Stopped or snoozed before the delay: no phone is rung, and the log says so")
    func answered() throws {
        for intent in [AlarmIntent.stop, .countdown] {
            var (planner, book, id, _) = try Self.ringing()
            let answer = try book.perform(intent, on: id, now: at(70))
            let effects = planner.react(to: [answer], now: at(70))
            #expect(effects.contains(AgentEffect.log(.info, "“Tea” was answered before the phones were rung; they are not.")), "\(intent)")
            #expect(planner.phoneRingsDue.isEmpty)
            let later = planner.timePassed(book.advance(to: at(95)), book: book, now: at(95))
            #expect(!later.contains(where: Self.ringsPhones), "\(intent): \(later)")
        }
    }

    @Test("Phones off (the default): never rung; turned off while one waits: not rung")
    func off() throws {
        var (book, _) = try AgentPlannerTests.book(AlarmRequest(title: "Tea", duration: 60))
        var planner = AgentPlannerTests.planner()
        _ = planner.timePassed(book.advance(to: at(60)), book: book, now: at(60))
        #expect(planner.phoneRingsDue.isEmpty)
        #expect(!planner.timePassed([], book: book, now: at(200)).contains(where: Self.ringsPhones))

        var (waiting, ringingBook, _, _) = try Self.ringing()
        waiting.adopt(phoneRings: .off)
        #expect(!waiting.timePassed([], book: ringingBook, now: at(95)).contains(where: Self.ringsPhones))
        _ = ringingBook
    }

    @Test("A delay of 0 rings the phones in the wake-up that fires the alarm")
    func immediately() throws {
        let (_, book, id, fired) = try Self.ringing(delay: 0)
        #expect(fired.filter(Self.ringsPhones) == [.ringPhones(book[id]!)])
        let ring = try #require(fired.firstIndex(where: AgentPlannerTests.isRing))
        #expect(ring < fired.firstIndex(where: Self.ringsPhones)!, "the desk rings first")
    }

    @Test("After a restart: rung if its time is still to come, not again if it has passed")
    func restart() throws {
        var (book, ids) = try AgentPlannerTests.book(AlarmRequest(title: "Tea", duration: 60))
        _ = book.advance(to: at(60))
        var early = AgentPlannerTests.planner()
        early.adopt(phoneRings: PhoneRingSettings(isEnabled: true, delay: 30))
        _ = early.resume(book.alarms, except: [], now: at(70))
        #expect(early.phoneRingsDue == [ids[0]: at(90)])
        var late = AgentPlannerTests.planner()
        late.adopt(phoneRings: PhoneRingSettings(isEnabled: true, delay: 30))
        _ = late.resume(book.alarms, except: [], now: at(100))
        #expect(late.phoneRingsDue.isEmpty)
    }

    @Test("Rung: the alarm's phone hook runs, unless its owner may run no command")
    func phoneHook() throws {
        var (book, ids) = try AgentPlannerTests.book(AlarmRequest(title: "Tea", duration: 60, hooks: AlarmHooks([.phone: "echo phoned"])))
        _ = book.advance(to: at(60))
        let tea = try #require(book[ids[0]])
        let planner = AgentPlannerTests.planner()
        #expect(planner.phonesRung(for: tea) == [.runHook(command: "echo phoned", event: .phone, alarm: tea, fireTime: tea.fireDate)])
        var (plain, plainIDs) = try AgentPlannerTests.book(AlarmRequest(title: "Bread", duration: 60))
        _ = plain.advance(to: at(60))
        #expect(planner.phonesRung(for: plain[plainIDs[0]]!).isEmpty)
    }

    @Test("An alarm's own choice wins: --no-phone never rings, --phone rings with phones off, after its own delay or the settings'")
    func ownChoice() throws {
        let on = PhoneRingSettings(isEnabled: true, delay: 30), off = PhoneRingSettings(isEnabled: false, delay: 20)
        #expect(on.phoneRingDate(for: .never, ringingSince: t0) == nil)
        #expect(off.phoneRingDate(for: .ring(after: nil), ringingSince: t0) == at(20))
        #expect(off.phoneRingDate(for: .ring(after: 5), ringingSince: t0) == at(5))
        #expect(on.phoneRingDate(for: nil, ringingSince: t0) == at(30) && off.phoneRingDate(for: nil, ringingSince: t0) == nil)

        // Turning phones off keeps the phones an alarm asked for itself.
        var (book, ids) = try AgentPlannerTests.book(AlarmRequest(title: "Own", duration: 60, phone: .ring(after: 10)),
                                                     AlarmRequest(title: "Follows", duration: 60))
        var planner = AgentPlannerTests.planner()
        planner.adopt(phoneRings: on)
        _ = planner.timePassed(book.advance(to: at(60)), book: book, now: at(60))
        #expect(planner.phoneRingsDue == [ids[0]: at(70), ids[1]: at(90)])
        planner.adopt(phoneRings: .off, book: book)
        #expect(planner.phoneRingsDue == [ids[0]: at(70)])
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
