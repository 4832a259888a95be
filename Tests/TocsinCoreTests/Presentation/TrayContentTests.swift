import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// TrayContent.swift and TrayMenuIDs.swift: the tray item's icon, label, tooltip and menu.
@Suite("Tray content")
struct TrayContentTests {
    let writer = NotificationContentWriter(timeZone: .utc, localeIdentifier: "C")

    @Test("No item while nothing is on screen; a waiting alarm is nothing on screen")
    func absent() throws {
        var book = AlarmBook()
        _ = try book.schedule(AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), duration: 0), now: t0)
        #expect(TrayContent(alarms: book.alarms, now: at(1), timeOfDay: writer.timeOfDay) == nil)
    }

    @Test("A countdown: its label, its tooltip, its Pause and Cancel, New timer; a click opens the menu")
    func countdown() throws {
        var book = AlarmBook()
        let pasta = try book.schedule(AlarmRequest(title: "Pasta", duration: 600), id: fixedID(1), now: t0).alarm.id
        let content = try #require(TrayContent(alarms: book.alarms, now: at(1), timeOfDay: writer.timeOfDay))
        #expect(content.status == .active && content.itemIsMenu && content.changesWithTime)
        #expect(content.iconName == "io.github.tocsin.Agent-countdown-symbolic")
        #expect(content.label == "Pasta 9:59" && content.tooltip == "Pasta: 9:59 left")
        #expect(content.title == "Tocsin: Pasta, counting down")
        #expect(content.menu.first?.label == "Pasta: 9:59 left, ends \(writer.timeOfDay(at(600)))")
        let id = pasta.uuidString.lowercased()
        #expect(content.menu.map(\.key) == ["alarm:\(id)", "alarm:\(id):pause", "alarm:\(id):cancel", "separator:\(id)", "new-timer", "stop-all"])
        #expect(content.menu[0].isEnabled && content.menu[0].action == .intent(.pause, pasta),
                "the time left is an entry drawn plainly, not greyed out; a click on it pauses, as on the notification")
        #expect(content.menu[1].action == .intent(.pause, pasta))
        #expect(content.menu[4].children.map(\.action) == [60, 180, 300, 600, 900, 1800].map { .newTimer(TimeInterval($0)) })
        #expect(content.menu.last?.isEnabled == false, "nothing rings: Stop all ringing is greyed")
    }

    @Test("Ringing: attention, the bell, Stop and the custom button, and a click that stops instead of a menu")
    func ringing() throws {
        var book = AlarmBook()
        let bread = try book.schedule(AlarmRequest(title: "Bread", duration: 1, secondaryButtonLabel: "Next step", hooks: AlarmHooks([.secondary: "true"])),
                                      id: fixedID(1), now: t0).alarm.id
        _ = book.advance(to: at(1))
        let content = try #require(TrayContent(alarms: book.alarms, now: at(2), timeOfDay: writer.timeOfDay))
        #expect(content.status == .needsAttention && !content.itemIsMenu && !content.changesWithTime)
        #expect(content.iconName == "io.github.tocsin.Agent-ringing-symbolic" && content.label == "Bread ringing")
        #expect(content.title == "Tocsin: Bread, ringing" && content.menu.first?.label == "Bread: ringing")
        #expect(content.menu.compactMap(\.action) == [.intent(.stop, bread), .intent(.stop, bread), .intent(.secondary, bread), .stopAllRinging],
                "the line stops it, as a click on the alert does")
        #expect(content.menu.first?.isEnabled == true)
        #expect(content.menu.last?.isEnabled == true)
    }

    @Test("Paused: said in the label, the title and the menu")
    func paused() throws {
        var book = AlarmBook()
        let tea = try book.schedule(AlarmRequest(title: "Tea", duration: 120), id: fixedID(1), now: t0).alarm.id
        _ = try book.perform(.pause, on: tea, now: at(60))
        let content = try #require(TrayContent(alarms: book.alarms, now: at(70), timeOfDay: writer.timeOfDay))
        #expect(content.label == "Tea 1:00 paused" && content.title == "Tocsin: Tea, paused")
        #expect(content.tooltip == "Tea: paused, 1:00 left" && content.menu.first?.label == "Tea: paused, 1:00 left")
        #expect(content.iconName == "io.github.tocsin.Agent-paused-symbolic" && !content.changesWithTime)
        #expect(content.menu.first?.isEnabled == true && content.menu.first?.action == .intent(.resume, tea), "a click on the line resumes it")
    }

    @Test("A click on an alarm's menu line does what a click on its notification does, in every state that shows one")
    func lineClickFollowsTheNotification() throws {
        var book = AlarmBook()
        let tea = try book.schedule(AlarmRequest(title: "Tea", duration: 120), id: fixedID(1), now: t0).alarm.id
        /// The line's action and the notification's click at `now`.
        func clicks(at now: Date) throws -> (line: TrayContent.Action?, notification: AlarmIntent?) {
            let line = try #require(TrayContent(alarms: book.alarms, now: now, timeOfDay: writer.timeOfDay)?.menu.first)
            return (line.action, try #require(writer.liveActivity(for: book.alarms[0], at: now)).defaultIntent)
        }
        #expect(try clicks(at: at(1)) == (.intent(.pause, tea), .pause))
        _ = try book.perform(.pause, on: tea, now: at(10))
        #expect(try clicks(at: at(11)) == (.intent(.resume, tea), .resume))
        _ = try book.perform(.resume, on: tea, now: at(20))
        _ = book.advance(to: at(200))
        #expect(try clicks(at: at(201)) == (.intent(.stop, tea), .stop))
        #expect(AlarmStateName.scheduled.clickIntent == nil)
    }

    @Test("Menu ids stay with their entries, are never reused; a tick changes labels only, a new state the layout")
    func ids() throws {
        var book = AlarmBook()
        let pasta = try book.schedule(AlarmRequest(title: "Pasta", duration: 600), id: fixedID(1), now: t0).alarm.id
        var ids = TrayMenuIDs()
        let first = try #require(TrayContent(alarms: book.alarms, now: at(1), timeOfDay: writer.timeOfDay))
        #expect(ids.adopt(first.menu) == .layout && ids.revision == 1)
        #expect(ids.adopt(first.menu) == .none && ids.revision == 1, "the same layout is no new revision")
        let aSecondLater = try #require(TrayContent(alarms: book.alarms, now: at(2), timeOfDay: writer.timeOfDay))
        #expect(aSecondLater.label != first.label, "the label ticks")
        let line = ids.id(of: "alarm:\(pasta.uuidString.lowercased())")
        #expect(ids.adopt(aSecondLater.menu) == .labels([line: "Pasta: 9:58 left, ends \(writer.timeOfDay(at(600)))"]) && ids.revision == 1,
                "a countdown's second changes its line's label, not the layout")
        let pause = ids.id(of: "alarm:\(pasta.uuidString.lowercased()):pause")
        #expect(ids.action(of: pause) == .intent(.pause, pasta))
        #expect(ids.action(of: line) == .intent(.pause, pasta))
        _ = try book.perform(.pause, on: pasta, now: at(2))
        let paused = try #require(TrayContent(alarms: book.alarms, now: at(3), timeOfDay: writer.timeOfDay))
        #expect(ids.adopt(paused.menu) == .layout && ids.revision == 2)
        #expect(ids.action(of: pause) == nil, "a click on the gone Pause does nothing")
        let resume = ids.id(of: "alarm:\(pasta.uuidString.lowercased()):resume")
        #expect(resume != pause && ids.action(of: resume) == .intent(.resume, pasta))
        #expect(ids.action(of: line) == .intent(.resume, pasta), "the line keeps its id and now resumes")
        #expect(ids.id(of: "new-timer") == 5, "kept from the first layout")
    }
}
