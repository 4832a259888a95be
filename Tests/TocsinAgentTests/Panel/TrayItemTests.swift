import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing
import TocsinCore
@testable import TocsinAgent

/// The tray item's menu, clicked over a private bus the way a host clicks it (dbusmenu's `Event`
/// and `EventGroup`), with the question "is this the user's own program?" held by the test: a
/// click is answered only once that question is, so a caller that leaves as soon as it has its
/// answer (`gdbus call`, a script) is still on the bus to be asked about. PanelTests click the
/// real item from waybar's tray; PlasmaDesktopTests from another user's plasmashell.
@Suite(.serialized) struct TrayItemTests {
    /// A menu of the item as it shows a 10-minute timer "Pasta", on a private bus, clicked by
    /// `body` through `call` from a host connection of its own; clicks pass `gate`.
    struct ShownMenu {
        let context: OpaquePointer
        let item: TrayItem
        let pasta: UUID
        let hostName: String
        let call: (_ method: String, _ arguments: OpaquePointer) -> PendingBusCall
    }

    static func withShownMenu(log: AgentLog, gate: OwnUserGate, _ body: (ShownMenu) throws -> Void) throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try withOwnMainContext { context in
            let agent = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(agent)) }
            let host = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(host)) }
            let item = TrayItem(log: log, connection: { agent }, gate: gate)
            item.start()
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let pasta = UUID()
            let timer = try AlarmRequest(title: "Pasta", duration: 600).makeAlarm(id: pasta, now: now)
            item.show(TrayContent(alarms: [timer], now: now.addingTimeInterval(1), timeOfDay: { _ in "15:05" }))
            let agentName = String(cString: g_dbus_connection_get_unique_name(agent))
            try body(ShownMenu(context: context, item: item, pasta: pasta, hostName: String(cString: g_dbus_connection_get_unique_name(host))) { method, arguments in
                PendingBusCall(on: host, to: agentName, path: TrayItem.menuPath, interface: "com.canonical.dbusmenu", method: method, arguments: arguments)
            })
            withExtendedLifetime(item) {}
        }
    }

    @Test func aClickIsAnsweredOnceTheBusSaysWhoClickedAndAStrangersIsRefused() throws {
        var questions: [(sender: String, answer: (Bool) -> Void)] = []
        let logged = LogLines()
        try Self.withShownMenu(log: logged.log, gate: OwnUserGate { sender, answer in questions.append((sender, answer)) }) { menu in
            let (context, pasta, hostName, call) = (menu.context, menu.pasta, menu.hostName, menu.call)
            var actions: [TrayContent.Action] = []
            menu.item.onAction = { actions.append($0) }
            let layout = call("GetLayout", Variant.tuple([g_variant_new_int32(0), g_variant_new_int32(-1), Variant.make(strings: [])]))
            #expect(runMainContext(context, for: 3) { layout.came }, "GetLayout went unanswered")
            let printed = try #require(layout.reply, "\(layout)")
            let pause = try #require(printed.firstMatch(of: /\((\d+), \{'enabled': <true>, 'label': <'    Pause'>\}/).flatMap { Int32($0.1) }, "\(printed)")
            func event(_ id: Int32) -> OpaquePointer {
                Variant.tuple([g_variant_new_int32(id), g_variant_new_string("clicked"), g_variant_new_variant(g_variant_new_int32(0)), g_variant_new_uint32(0)])
            }

            // The Pause: asked about, and neither answered nor made before the bus has said.
            let clicked = call("Event", event(pause))
            _ = runMainContext(context, for: 0.5) { clicked.came }
            #expect(questions.map(\.sender) == [hostName], "\(questions.map(\.sender))")
            #expect(!clicked.came && actions.isEmpty, "answered before the bus said who clicked: \(clicked.description)")
            questions.removeFirst().answer(true)
            #expect(runMainContext(context, for: 3) { clicked.came }, "the own user's click went unanswered")
            #expect(clicked.error == nil && actions == [.intent(.pause, pasta)], "\(clicked.error ?? "") \(actions)")

            // A group with the Pause and an entry the menu does not have: held the same way, and
            // the unknown entry named in the answer.
            let events: [OpaquePointer?] = [event(pause), event(999)]
            let group = call("EventGroup", Variant.tuple([g_variant_new_array(nil, events, 2)]))
            _ = runMainContext(context, for: 0.5) { group.came }
            #expect(questions.count == 1 && !group.came, "the group was answered before the bus said who clicked")
            questions.removeFirst().answer(true)
            #expect(runMainContext(context, for: 3) { group.came })
            #expect(group.reply == "([999],)" && actions.count == 2, "\(group.description) \(actions)")

            // Another user's program: refused, and nothing made.
            let stranger = call("Event", event(pause))
            #expect(runMainContext(context, for: 3) { !questions.isEmpty })
            questions.removeFirst().answer(false)
            #expect(runMainContext(context, for: 3) { stranger.came })
            #expect(stranger.error?.hasPrefix("org.freedesktop.DBus.Error.AccessDenied: ") == true, "\(stranger.description)")
            #expect(actions.count == 2, "a stranger's click was made: \(actions)")
            #expect(logged.all.contains { $0.contains("Ignoring a click on “Pause” in the tray from another user's program (\(hostName))") }, "\(logged.all)")

            // An event that is no click (a hover) asks nothing and is answered at once.
            let hovered = call("Event", Variant.tuple([g_variant_new_int32(pause), g_variant_new_string("hovered"),
                                                       g_variant_new_variant(g_variant_new_int32(0)), g_variant_new_uint32(0)]))
            #expect(runMainContext(context, for: 3) { hovered.came })
            #expect(questions.isEmpty && hovered.error == nil && actions.count == 2)
        }
    }

    /// What the neighbour fuzzer sent the menu: a recursion depth of Int32.min (counting it down
    /// overflowed and trapped), and a group of 10,000 clicks on one entry (it is clicked once).
    @Test func aDepthOfInt32MinIsEveryLevelAndTenThousandClicksOnOneEntryAreOne() throws {
        try Self.withShownMenu(log: LogLines().log, gate: OwnUserGate { _, answer in answer(true) }) { menu in
            let (context, pasta, call) = (menu.context, menu.pasta, menu.call)
            var actions: [TrayContent.Action] = []
            menu.item.onAction = { actions.append($0) }
            let everyLevel = call("GetLayout", Variant.tuple([g_variant_new_int32(0), g_variant_new_int32(-1), Variant.make(strings: [])]))
            let deepest = call("GetLayout", Variant.tuple([g_variant_new_int32(0), g_variant_new_int32(Int32.min), Variant.make(strings: [])]))
            #expect(runMainContext(context, for: 3) { everyLevel.came && deepest.came })
            #expect(deepest.reply != nil && deepest.reply == everyLevel.reply, "depth Int32.min: \(deepest)")
            let printed = try #require(everyLevel.reply)
            let pause = try #require(printed.firstMatch(of: /\((\d+), \{'enabled': <true>, 'label': <'    Pause'>\}/).flatMap { Int32($0.1) }, "\(printed)")
            let click = Variant.tuple([g_variant_new_int32(pause), g_variant_new_string("clicked"), g_variant_new_variant(g_variant_new_int32(0)), g_variant_new_uint32(0)])
            let clicks = g_variant_ref_sink(click)!
            defer { g_variant_unref(clicks) }
            let events: [OpaquePointer?] = Array(repeating: clicks, count: 10_000)
            let group = call("EventGroup", Variant.tuple([g_variant_new_array(nil, events, gsize(events.count))]))
            #expect(runMainContext(context, for: 5) { group.came })
            #expect(group.error == nil, "\(group)")
            #expect(actions == [.intent(.pause, pasta)], "10,000 clicks on Pause made \(actions.count) actions")
        }
    }
}
