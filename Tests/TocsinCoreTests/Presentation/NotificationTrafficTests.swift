import Foundation
import Testing
@testable import TocsinCore
import HeadlessSession

// NotificationTraffic.swift: what the presenter's worker sends next, without a bus.
@Suite("Notification traffic")
struct NotificationTrafficTests {
    typealias Traffic = NotificationTraffic<Int>

    static func content(_ text: String, urgency: NotificationContent.Urgency = .normal) -> NotificationContent {
        NotificationContent(role: .notice, summary: text, body: "", urgency: urgency, isPersistent: false)
    }

    /// Runs every job the traffic offers, each succeeding, and returns them in order.
    static func drain(_ traffic: inout Traffic, succeeding: Bool = true) -> [Traffic.Job] {
        var done: [Traffic.Job] = []
        while let job = traffic.next() {
            traffic.finished(job, succeeded: succeeding)
            done.append(job)
        }
        return done
    }

    @Test("Content waiting for a busy notification is replaced by newer content, never queued")
    func onlyTheNewestContentIsSent() {
        var traffic = Traffic()
        traffic.show(Self.content("0:10"), for: 1, priority: .tick)
        let first = traffic.next()
        #expect(first == .show(1, Self.content("0:10")))
        // The server is slow: while that call is out, nine more seconds go by.
        for second in (1...9).reversed() {
            traffic.show(Self.content("0:0\(second)"), for: 1, priority: .tick)
        }
        #expect(traffic.next() == nil, "a second call for the same notification while the first is out")
        traffic.finished(first!, succeeded: true)
        #expect(Self.drain(&traffic) == [.show(1, Self.content("0:01"))])
        #expect(traffic.isOnScreen(1))
    }

    @Test("An alert goes ahead of state changes, and those ahead of countdown ticks")
    func priorities() {
        var traffic = Traffic()
        traffic.show(Self.content("tick a"), for: 1, priority: .tick)
        traffic.show(Self.content("tick b"), for: 2, priority: .tick)
        traffic.show(Self.content("paused"), for: 3, priority: .change)
        traffic.show(Self.content("Time's up", urgency: .critical), for: 4, priority: .alert)
        #expect(Self.drain(&traffic).map(\.key) == [4, 3, 1, 2])
    }

    @Test("Within a priority, first come first served: a countdown updated often keeps its place")
    func firstComeFirstServed() {
        var traffic = Traffic()
        for key in 1...3 { traffic.show(Self.content("\(key)"), for: key, priority: .tick) }
        // Key 1 gets newer content while it waits: it stays first, not last.
        traffic.show(Self.content("1 again"), for: 1, priority: .tick)
        // A change to key 3 raises it above the ticks, keeping its content's newest version.
        traffic.show(Self.content("3 paused"), for: 3, priority: .change)
        traffic.show(Self.content("3 tick"), for: 3, priority: .tick)
        #expect(Self.drain(&traffic) == [.show(3, Self.content("3 tick")), .show(1, Self.content("1 again")), .show(2, Self.content("2"))])
    }

    @Test("A withdrawal closes what is on screen, drops what waited, and never overtakes its show")
    func withdrawals() {
        var traffic = Traffic()
        // Never shown: withdrawing forgets it without a call.
        traffic.show(Self.content("a"), for: 1, priority: .change)
        traffic.withdraw(1)
        #expect(traffic.next() == nil)
        #expect(traffic.trackedCount == 0)
        // On screen: closed.
        traffic.show(Self.content("b"), for: 2, priority: .change)
        _ = Self.drain(&traffic)
        traffic.show(Self.content("b2"), for: 2, priority: .tick)
        traffic.withdraw(2)
        #expect(Self.drain(&traffic) == [.close(2)])
        #expect(traffic.trackedCount == 0)
        // Withdrawn while its first show is out: closed once that returns, not before.
        traffic.show(Self.content("c"), for: 3, priority: .change)
        let show = traffic.next()!
        traffic.withdraw(3)
        #expect(traffic.next() == nil)
        traffic.finished(show, succeeded: true)
        #expect(Self.drain(&traffic) == [.close(3)])
        // Shown again before its close went out: updated in place, not closed.
        traffic.show(Self.content("d"), for: 4, priority: .change)
        _ = Self.drain(&traffic)
        traffic.withdraw(4)
        traffic.show(Self.content("d again"), for: 4, priority: .change)
        #expect(Self.drain(&traffic) == [.show(4, Self.content("d again"))])
        #expect(traffic.isOnScreen(4))
    }

    @Test("What the server forgot is shown anew; a failed show is on screen for nobody")
    func forgettingAndFailures() {
        var traffic = Traffic()
        traffic.show(Self.content("a"), for: 1, priority: .change)
        _ = Self.drain(&traffic)
        traffic.forget(1)
        #expect(!traffic.isOnScreen(1))
        // Closed by the user: a withdrawal has nothing to close.
        traffic.withdraw(1)
        #expect(traffic.next() == nil)
        // The server is gone: the show fails, and nothing is left to close.
        traffic.show(Self.content("b"), for: 2, priority: .change)
        _ = Self.drain(&traffic, succeeding: false)
        #expect(!traffic.isOnScreen(2))
        traffic.withdraw(2)
        #expect(traffic.next() == nil)
        #expect(traffic.trackedCount == 0)
        // A new server: everything on screen is forgotten, and what waits still goes.
        traffic.show(Self.content("c"), for: 3, priority: .change)
        traffic.show(Self.content("d"), for: 4, priority: .change)
        _ = traffic.next()
        traffic.forgetAll()
        #expect(traffic.hasWork)
        #expect(Self.drain(&traffic).count == 1)
    }

    @Test("Random traffic: one call per key at a time, only the newest content, nothing lost or left")
    func randomTraffic() {
        var generator = SplitMix(seed: 42)
        for _ in 0..<200 {
            var traffic = Traffic()
            var latest: [Int: NotificationContent?] = [:]  // nil: withdrawn
            var inProgress: [Traffic.Job] = []
            var lastShown: [Int: NotificationContent] = [:]
            for step in 0..<200 {
                let key = Int.random(in: 0..<5, using: &generator)
                switch Int.random(in: 0..<6, using: &generator) {
                case 0, 1:
                    let content = Self.content("\(key)-\(step)")
                    traffic.show(content, for: key, priority: [.tick, .change, .alert].randomElement(using: &generator)!)
                    latest[key] = content
                case 2:
                    traffic.withdraw(key)
                    latest[key] = .some(nil)
                case 3, 4:
                    if let job = traffic.next() {
                        #expect(!inProgress.contains { $0.key == job.key }, "two calls at once for \(job.key)")
                        inProgress.append(job)
                    }
                default:
                    if !inProgress.isEmpty {
                        let job = inProgress.remove(at: Int.random(in: 0..<inProgress.count, using: &generator))
                        if case .show(let key, let content) = job { lastShown[key] = content } else { lastShown[job.key] = nil }
                        traffic.finished(job, succeeded: true)
                    }
                }
            }
            for job in inProgress {
                if case .show(let key, let content) = job { lastShown[key] = content } else { lastShown[job.key] = nil }
                traffic.finished(job, succeeded: true)
            }
            while let job = traffic.next() {
                if case .show(let key, let content) = job { lastShown[key] = content } else { lastShown[job.key] = nil }
                traffic.finished(job, succeeded: true)
            }
            // What is on screen at the end is what was last asked for, per key.
            for (key, wanted) in latest {
                #expect(lastShown[key] == wanted, "key \(key): shows \(String(describing: lastShown[key])), asked for \(String(describing: wanted))")
                #expect(traffic.isOnScreen(key) == (wanted != nil))
            }
            #expect(traffic.trackedCount == latest.values.filter { $0 != nil }.count)
        }
    }
}
