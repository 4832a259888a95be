import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// PanelSummary.swift and PanelLine.swift: what a panel shows, and the bars' lines of it.
@Suite("Panel summary")
struct PanelSummaryTests {
    /// Pasta (10 min, from t0), Tea (3 min, from t0 + 1 s, paused at t0 + 5 s), a waiting alarm.
    static func book() throws -> (AlarmBook, pasta: UUID, tea: UUID) {
        var book = AlarmBook()
        _ = try book.schedule(AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), title: "Wake up", duration: 0), id: fixedID(1), now: t0)
        let pasta = try book.schedule(AlarmRequest(title: "Pasta", duration: 600), id: fixedID(2), now: t0).alarm.id
        let tea = try book.schedule(AlarmRequest(title: "Tea", duration: 180), id: fixedID(3), now: at(1)).alarm.id
        _ = try book.perform(.pause, on: tea, now: at(5))
        return (book, pasta, tea)
    }

    @Test("Nothing on screen is idle, and a waiting alarm is nothing on screen")
    func idle() throws {
        var book = AlarmBook()
        _ = try book.schedule(AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), duration: 0), now: t0)
        let summary = PanelSummary(alarms: book.alarms, now: at(1))
        #expect(summary == PanelSummary(status: .idle, text: "", lines: [], percentage: 0, featured: nil, changesWithTime: false))
        #expect(summary.line(as: .waybar) == #"{"alt":"idle","class":"idle","percentage":0,"text":"","tooltip":"No timers running"}"#)
        #expect(summary.line(as: .i3blocks) == "")
    }

    @Test("The countdown that ends first leads, with the notification's seconds; the paused one is listed")
    func countdownFirst() throws {
        let (book, pasta, _) = try Self.book()
        // 0.4 s past a whole second: 540.4 s left shows 9:00, as the notification rounds it.
        let summary = PanelSummary(alarms: book.alarms, now: at(59.6))
        #expect(summary.status == .countdown)
        #expect(summary.text == "Pasta 9:00 +1")
        #expect(summary.lines == ["Pasta: 9:00 left", "Tea: paused, 2:56 left"])
        #expect(summary.percentage == 9)
        #expect(summary.featured == pasta)
        #expect(summary.changesWithTime)
        #expect(summary.line(as: .waybar) == #"{"alt":"countdown","class":"countdown","percentage":9,"text":"Pasta 9:00 +1","tooltip":"Pasta: 9:00 left\nTea: paused, 2:56 left"}"#)
        #expect(summary.line(as: .polybar) == "Pasta 9:00 +1")
    }

    @Test("Paused alone: shown with its time left, and nothing changes with time")
    func pausedAlone() throws {
        var (book, pasta, tea) = try Self.book()
        _ = try book.perform(.cancel, on: pasta, now: at(10))
        let summary = PanelSummary(alarms: book.alarms, now: at(100))
        #expect(summary.status == .paused && summary.text == "Tea 2:56 paused" && summary.featured == tea)
        #expect(!summary.changesWithTime, "a paused timer needs no per-second update")
    }

    @Test("What rings leads, over every countdown, and shows full progress")
    func ringingFirst() throws {
        var (book, _, _) = try Self.book()
        let bell = try book.schedule(AlarmRequest(title: "Bell", duration: 2), id: fixedID(4), now: at(10)).alarm.id
        _ = book.advance(to: at(12))
        let summary = PanelSummary(alarms: book.alarms, now: at(12))
        #expect(summary.status == .ringing && summary.text == "Bell ringing +2" && summary.featured == bell && summary.percentage == 100)
        #expect(summary.lines.first == "Bell: ringing")
        #expect(summary.changesWithTime, "Pasta still counts down beside it")
    }

    @Test("A title cannot restyle polybar; JSON escapes what it must")
    func escaping() throws {
        var book = AlarmBook()
        _ = try book.schedule(AlarmRequest(title: #"%{F#f00}"Hot" \ pan"#, duration: 60), now: t0)
        let summary = PanelSummary(alarms: book.alarms, now: t0)
        #expect(summary.line(as: .polybar) == #"% {F#f00}"Hot" \ pan 1:00"#)
        #expect(summary.line(as: .waybar).contains(#""text":"%{F#f00}\"Hot\" \\ pan 1:00""#))
    }
}
