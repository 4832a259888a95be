import Foundation
import Testing
@testable import TocsinCore
import HeadlessSession
import TocsinTestSupport

/// DeadlineIndex against a plain dictionary: after every change, the earliest entry, the count
/// and every alarm's instant must be what the dictionary says. Its position table is a hash table
/// of its own (linear probing, removal by shifting back), so small populations, where probes
/// wrap around the end of the table and clusters form, get as many steps as large ones.
@Suite("DeadlineIndex")
struct DeadlineIndexTests {
    struct Model {
        var entries: [UUID: DeadlineIndex.Entry] = [:]

        var first: DeadlineIndex.Entry? {
            entries.values.min { $0.precedes($1) }
        }
    }

    static func expectAgree(_ index: DeadlineIndex, _ model: Model, _ context: @autoclosure () -> String) {
        #expect(index.count == model.entries.count, "\(context()): count")
        #expect(index.first == model.first, "\(context()): first")
        for (id, entry) in model.entries where index.date(of: id) != entry.date {
            Issue.record("\(context()): \(id) has \(String(describing: index.date(of: id))) instead of \(entry.date)")
        }
    }

    @Test("Random sets, moves and removals, with 0 to 12, 200 and 3,000 alarms", arguments: [12, 200, 3000])
    func randomChanges(population: Int) {
        var random = SplitMix(seed: UInt64(population))
        var index = DeadlineIndex()
        var model = Model()
        let ids = (0..<population).map { _ in UUID() }
        let steps = population >= 3000 ? 20_000 : 6000
        for step in 0..<steps {
            let id = ids[Int(random.next() % UInt64(ids.count))]
            let roll = random.next() % 10
            if roll < 3 {
                index.remove(id)
                model.entries[id] = nil
            } else {
                // Few distinct instants, so ties (broken by creation, then id) are common.
                let date = t0.addingTimeInterval(Double(random.next() % 50))
                let createdAt = model.entries[id]?.createdAt ?? t0.addingTimeInterval(Double(random.next() % 3))
                index.set(id, to: roll == 9 ? nil : date, createdAt: createdAt)
                model.entries[id] = roll == 9 ? nil : DeadlineIndex.Entry(date: date, createdAt: createdAt, id: id)
            }
            if population < 3000 || step % 500 == 0 {
                Self.expectAgree(index, model, "step \(step)")
            }
        }
        Self.expectAgree(index, model, "the end")
        // Draining it gives every entry, earliest first.
        var drained: [DeadlineIndex.Entry] = []
        while let first = index.first {
            drained.append(first)
            index.remove(first.id)
        }
        #expect(drained == model.entries.values.sorted { $0.precedes($1) })
        #expect(index.count == 0 && index.date(of: ids[0]) == nil)
    }

    @Test("A reserved index holds 10,000 alarms and gives each one back")
    func reserved() {
        var index = DeadlineIndex()
        index.reserveCapacity(10_000)
        var model = Model()
        for second in 0..<10_000 {
            let id = UUID()
            let entry = DeadlineIndex.Entry(date: t0.addingTimeInterval(Double((second * 7919) % 10_000)), createdAt: t0, id: id)
            index.set(id, to: entry.date, createdAt: t0)
            model.entries[id] = entry
        }
        Self.expectAgree(index, model, "10,000 set")
        for id in model.entries.keys.prefix(5000) {
            index.remove(id)
            model.entries[id] = nil
        }
        Self.expectAgree(index, model, "5,000 removed")
    }
}
