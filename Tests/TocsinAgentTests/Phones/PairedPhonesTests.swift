import Foundation
import Testing
@testable import TocsinCore
@testable import TocsinAgent
import TocsinEdge

/// PairedPhones over links that answer when the test says: it rings only once every service has
/// answered, rings each phone through the service that found it, tells of one ring per alarm,
/// and logs each kind of failure once.
@Suite struct PairedPhonesTests {
    final class FakeLink: PhoneLink {
        let service: PhoneReach.Service
        var pendingFind: ((PhoneReach.Answer) -> Void)?
        var rung: [String] = [], pinged: [String] = []
        var ringFailure: String?

        init(_ service: PhoneReach.Service) { self.service = service }

        func findPhones(on connection: OpaquePointer, completion: @escaping (PhoneReach.Answer) -> Void) { pendingFind = completion }
        func ring(_ phone: PhoneReach.Phone, on connection: OpaquePointer, completion: @escaping (String?) -> Void) {
            rung.append(phone.id)
            completion(ringFailure)
        }
        func ping(_ phone: PhoneReach.Phone, message: String, on connection: OpaquePointer, completion: @escaping (String?) -> Void) {
            pinged.append("\(phone.id): \(message)")
            completion(nil)
        }
        /// Answers the pending `findPhones`.
        func answer(_ answer: PhoneReach.Answer) {
            let completion = pendingFind
            pendingFind = nil
            completion?(answer)
        }
    }

    /// Not a real connection: the fake links never use it.
    nonisolated(unsafe) static let connection = OpaquePointer(bitPattern: 0x1)!

    static func alarm(_ title: String) throws -> Alarm {
        var book = AlarmBook(timeZone: .utc)
        return try book.schedule(AlarmRequest(title: title, duration: 5), now: Date(timeIntervalSince1970: 1_800_000_000)).alarm
    }

    static func phone(_ id: String, _ service: PhoneReach.Service) -> PhoneReach.Phone {
        PhoneReach.Phone(service: service, id: id, name: id, objectPath: "/\(id)")
    }

    @Test func everyPhoneFoundIsRungThroughItsOwnServiceOnceAllHaveAnswered() throws {
        let (kde, gs, lines) = (FakeLink(.kdeConnect), FakeLink(.gsConnect), LogLines())
        let phones = PairedPhones(links: [kde, gs], log: lines.log, connection: { Self.connection })
        var told: [String] = []
        phones.onRung = { told.append($0.title) }
        phones.ring(for: try Self.alarm("Tea"))
        kde.answer(.phones([Self.phone("pixel", .kdeConnect)]))
        #expect(kde.rung.isEmpty, "rang before GSConnect answered")
        gs.answer(.phones([Self.phone("tablet", .gsConnect), Self.phone("watch", .gsConnect)]))
        #expect(kde.rung == ["pixel"] && gs.rung == ["tablet", "watch"])
        #expect(gs.pinged == ["tablet: ⏰ Tea", "watch: ⏰ Tea"])
        #expect(told == ["Tea"], "one onRung for the alarm, however many phones rang")
        #expect(lines.all.contains { $0.contains("Rang the phone tablet (GSConnect) for “Tea”.") }, "\(lines.all)")
    }

    @Test func withNoServiceAnsweringNothingIsRungAndTheReasonIsLoggedOnce() throws {
        let (kde, gs, lines) = (FakeLink(.kdeConnect), FakeLink(.gsConnect), LogLines())
        let phones = PairedPhones(links: [kde, gs], log: lines.log, connection: { Self.connection })
        var told = 0
        phones.onRung = { _ in told += 1 }
        for title in ["Tea", "Bread"] {
            phones.ring(for: try Self.alarm(title))
            kde.answer(.noAnswer("not running"))
            gs.answer(.noAnswer("not running either"))
        }
        #expect(told == 0 && kde.rung.isEmpty && gs.rung.isEmpty)
        let warnings = lines.all.filter { $0.contains("No phone was rung") }
        #expect(warnings.count == 1, "\(lines.all)")
        #expect(warnings.first?.contains("No phone was rung for “Tea”: neither KDE Connect nor GSConnect answers (KDE Connect: not running; GSConnect: not running either).") == true)
    }

    @Test func aPhoneThatFailsToRingIsNotToldAsRung() throws {
        let (kde, lines) = (FakeLink(.kdeConnect), LogLines())
        kde.ringFailure = "UnknownMethod"
        let phones = PairedPhones(links: [kde], log: lines.log, connection: { Self.connection })
        var told = 0
        phones.onRung = { _ in told += 1 }
        phones.ring(for: try Self.alarm("Tea"))
        kde.answer(.phones([Self.phone("pixel", .kdeConnect)]))
        #expect(told == 0)
        #expect(lines.all.contains { $0.contains("The phone pixel was not rung for “Tea”: UnknownMethod.") }, "\(lines.all)")
    }
}
