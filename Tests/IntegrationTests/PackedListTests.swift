import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import HeadlessSession
import Testing
import TocsinCore

/// `ListPacked` is `List` in one byte array: the real agent must answer both with the same
/// alarms — an application's own only — in bytes GLib itself reads as the same `aa{sv}`, and
/// `tocsin list` (which asks for the packed form) must show every alarm.
@Suite struct PackedListTests {
    @Test func listPackedHoldsWhatListHolds() throws {
        let fixture = try AgentSession("packed-list")
        let connection = try PrivateBus.connect(to: fixture.session.busAddress)
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        func call(_ method: AlarmsMethod, _ arguments: OpaquePointer? = nil) throws -> OpaquePointer {
            try #require(try GLibError.check {
                g_dbus_connection_call_sync(connection, AlarmsInterface.busName, AlarmsInterface.objectPath, AlarmsInterface.name,
                                            method.rawValue, arguments, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, $0)
            })
        }
        // The user's own timer, which the application must not see in either list.
        let usersTimer = try fixture.startTimer("10m", "--title", "The user's")
        g_variant_unref(try call(.identifyApplication, Variant.tuple([g_variant_new_string("org.example.Lister")])))
        #expect(try fixture.tocsin("auth", "grant", "org.example.Lister").status == 0)
        let requests: [[String: WireValue]] = [
            ["duration": .double(600), "title": .string("Pasta 🍝"), "snooze": .double(120), "button-label": .string("Again")],
            ["kind": .string("alarm"), "time": .string("07:30"), "weekdays": .string("mon,tue,wed,thu,fri"), "title": .string("Wake"),
             "volume": .double(0.5), "crescendo": .double(30)],
            ["kind": .string("alarm"), "time": .string("06:00"), "date": .string("2031-05-04"), "metadata": .string("{\"trip\": 1}")],
            ["duration": .double(3_600), "title": .string(String(repeating: "lång tïtle ", count: 18))],
        ]
        var ids: [String] = []
        for request in requests {
            let reply = try call(.schedule, Variant.tuple([Variant.make(dictionary: request)]))
            ids.append(Variant.string(in: reply, at: 0))
            g_variant_unref(reply)
        }
        g_variant_unref(try call(.pause, Variant.tuple([g_variant_new_string(ids[3])])))

        let listReply = try call(.list)
        defer { g_variant_unref(listReply) }
        let list = Variant.child(listReply, 0)
        defer { g_variant_unref(list) }
        let listed = Variant.dictionaries(list)
        #expect(listed.compactMap { if case .string(let id)? = $0["id"] { id } else { nil } } == ids, "the application's own, oldest first")

        let packedReply = try call(.listPacked)
        defer { g_variant_unref(packedReply) }
        let packed = Variant.child(packedReply, 0)
        defer { g_variant_unref(packed) }
        let bytes = Variant.bytes(ofByteArray: packed)
        #expect(try GVariantPacking.unpackDictionaries(bytes) == listed)
        let glibView = Variant.fromSerialised(bytes, as: "aa{sv}")
        defer { g_variant_unref(glibView) }
        #expect(g_variant_is_normal_form(glibView) != 0, "the agent's packed list is not GLib's normal form")
        #expect(Variant.dictionaries(glibView) == listed, "GLib reads other alarms from the packed bytes")

        // The command line sees them through ListPacked, paused timer and all.
        let table = try fixture.tocsin("list")
        #expect(table.status == 0, "\(table)")
        for id in ids + [usersTimer] { #expect(table.stdout.contains(String(id.prefix(8))), "\(id) missing from:\n\(table.stdout)") }
        #expect(table.stdout.contains("paused"), "\(table.stdout)")
        #expect(table.stdout.contains("Pasta 🍝"), "\(table.stdout)")
    }
}
