import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import HeadlessSession
import Testing
import TocsinCore

/// The agent's signals carry whole alarms — titles, metadata, hooks — so it sends them only to
/// the watchers that may see each alarm: an application hears of its own, the command line of
/// all, and a client that merely listens on the bus hears nothing.
@Suite(.serialized) struct SignalPrivacyTests {
    /// A connection of its own to the session's bus, speaking for one application, that records
    /// the agent's signals it receives as "Signal first-argument title".
    final class BusClient {
        let connection: OpaquePointer
        private(set) var heard: [String] = []
        private var subscriptions: [guint] = []

        init(address: String, appID: String?, watching: Bool) throws {
            connection = try PrivateBus.connect(to: address)
            for signal in AlarmsSignal.allCases {
                // Matched on the agent's interface alone: a broadcast from it would arrive here.
                subscriptions.append(g_dbus_connection_signal_subscribe(
                    connection, nil, AlarmsInterface.name, signal.rawValue, nil, nil, G_DBUS_SIGNAL_FLAGS_NONE,
                    { _, _, _, _, signalName, parameters, userData in
                        let client = Unmanaged<BusClient>.fromOpaque(userData!).takeUnretainedValue()
                        client.record(String(cString: signalName!), parameters!)
                    }, Unmanaged.passUnretained(self).toOpaque(), nil))
            }
            if let appID { try call("IdentifyApplication", Variant.tuple([g_variant_new_string(appID)])) }
            if watching { try call("Watch", nil) }
        }

        deinit {
            for subscription in subscriptions { g_dbus_connection_signal_unsubscribe(connection, subscription) }
            g_dbus_connection_close_sync(connection, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }

        /// Calls the agent's `method`; returns the first string of the reply, if any.
        @discardableResult
        func call(_ method: String, _ arguments: OpaquePointer?) throws -> String? {
            let reply = try #require(try GLibError.check {
                g_dbus_connection_call_sync(connection, AlarmsInterface.busName, AlarmsInterface.objectPath, AlarmsInterface.name,
                                            method, arguments, nil, G_DBUS_CALL_FLAGS_NONE, 10_000, nil, $0)
            })
            defer { g_variant_unref(reply) }
            guard g_variant_n_children(reply) > 0, g_variant_is_of_type(reply, Variant.type("(s)")) != 0 else { return nil }
            return Variant.string(in: reply, at: 0)
        }

        /// Schedules a ten-minute timer titled `title` for this connection's application.
        func scheduleTimer(_ title: String) throws -> String? {
            try call("Schedule", Variant.tuple([Variant.make(dictionary: ["duration": .double(600), "title": .string(title)])]))
        }

        private func record(_ signal: String, _ parameters: OpaquePointer) {
            if signal == AlarmsSignal.authorizationChanged.rawValue {
                heard.append("\(signal) \(Variant.string(in: parameters, at: 0)) \(Variant.string(in: parameters, at: 1))")
                return
            }
            let alarm = Variant.child(parameters, 1)
            defer { g_variant_unref(alarm) }
            guard case .string(let title) = Variant.dictionary(alarm)["title"] else { return }
            heard.append("\(signal) \(Variant.string(in: parameters, at: 0)) \(title)")
        }
    }

    @Test func eachApplicationHearsOnlyOfItsOwnAlarms() throws {
        let fixture = try AgentSession("signal-privacy")
        try withOwnMainContext { context in
            let address = fixture.session.busAddress
            let cook = try BusClient(address: address, appID: "org.example.Cook", watching: true)
            let other = try BusClient(address: address, appID: "org.example.Other", watching: true)
            let listener = try BusClient(address: address, appID: "org.example.Listener", watching: false)
            let commandLine = try fixture.startWatching("watch", "--json")
            for app in ["org.example.Cook", "org.example.Other"] {
                #expect(try fixture.tocsin("auth", "grant", app).status == 0)
            }

            let cooksID = try #require(try cook.scheduleTimer("Cook's secret"))
            _ = try #require(try other.scheduleTimer("Other's own"))
            let usersID = try fixture.startTimer("10m", "--title", "The user's")
            #expect(try fixture.tocsin("cancel", cooksID).status == 0)
            #expect(try fixture.tocsin("auth", "revoke", "org.example.Cook").status == 0)
            #expect(try fixture.tocsin("cancel", usersID).status == 0)
            runMainContext(context, for: 5) { cook.heard.count >= 4 && other.heard.count >= 2 }
            // Anything sent to the wrong place would have arrived by now, with the right ones.
            runMainContext(context, for: 0.5)

            #expect(cook.heard == [
                "AuthorizationChanged org.example.Cook authorized", "Changed scheduled Cook's secret",
                "Removed cancelled Cook's secret", "AuthorizationChanged org.example.Cook denied",
            ])
            #expect(other.heard == ["AuthorizationChanged org.example.Other authorized", "Changed scheduled Other's own"])
            #expect(listener.heard.isEmpty, "a client that did not call Watch heard: \(listener.heard)")
            let seenByCommandLine = commandLine.standardOutput()
            for title in ["Cook's secret", "Other's own", "The user's"] {
                #expect(seenByCommandLine.contains(title), "tocsin watch did not see “\(title)”: \(seenByCommandLine)")
            }
            commandLine.terminate()
        }
    }

    /// The agent acts on a notification's buttons only when the notification server says they
    /// were pressed. Another client can send the agent's notification connection an
    /// `ActionInvoked` of its own, or a `NameOwnerChanged` naming itself the server; the bus
    /// stamps both with their true sender, and the agent ignores them: the alarm keeps ringing.
    @Test func aForgedButtonPressFromAnotherClientStopsNothing() throws {
        let fixture = try AgentSession("forged-press")
        let id = try fixture.startTimer("1s", "--title", "Forged")
        let alert = try fixture.waitForNotification(titled: "Forged") { $0.urgency == 2 }
        let forger = try BusClient(address: fixture.session.busAddress, appID: nil, watching: false)
        let forgerName = String(cString: g_dbus_connection_get_unique_name(forger.connection))
        func send(_ member: String, _ interface: String, _ path: String, _ arguments: OpaquePointer) throws {
            _ = try GLibError.check {
                g_dbus_connection_emit_signal(forger.connection, alert.sender, path, interface, member, arguments, $0)
            }
        }
        try send("ActionInvoked", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                 Variant.tuple([g_variant_new_uint32(alert.id), g_variant_new_string("stop")]))
        try send("NameOwnerChanged", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                 Variant.tuple([g_variant_new_string("org.freedesktop.Notifications"), g_variant_new_string(""), g_variant_new_string(forgerName)]))
        try send("ActionInvoked", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                 Variant.tuple([g_variant_new_uint32(alert.id), g_variant_new_string("stop")]))
        g_dbus_connection_flush_sync(forger.connection, nil, nil)
        Thread.sleep(forTimeInterval: 0.5)

        #expect(try fixture.alarm(id)?.string("state") == "alerting", "a forged button press stopped the alarm")
        // The real button still works: the forgery did not take the server's place.
        try fixture.session.clickAction(label: "Stop", onNotification: alert.id)
        #expect(fixture.eventually(timeout: 5) { (try? fixture.alarm(id)) == nil }, "the real Stop button did nothing")
    }
}
