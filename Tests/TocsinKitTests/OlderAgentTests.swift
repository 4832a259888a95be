import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing
import TocsinCore
@testable import TocsinKit

extension TocsinKitTests {
    /// After an upgrade the agent that still runs may be the older one, without `ListPacked`
    /// (interface version 3): the client then lists with `List`.
    @Suite(.serialized) struct OlderAgentTests {
        /// The alarm the older agent holds.
        static let heldAlarm = Alarm(
            id: UUID(uuidString: "6f1c2e0a-8d1b-4c55-9f3e-2b7a1d0c9e44")!, title: "Left from before the upgrade", kind: .timer,
            countdownDuration: 300, snoozeDuration: nil, secondaryButton: nil, sound: .standard, ringLimit: 600, hooks: AlarmHooks(),
            state: .paused(PausedPhase(remaining: 200, duration: 300)), createdAt: Date(timeIntervalSince1970: 1_796_000_000))

        /// An agent of interface version 3 on `bus`: `List` is all it answers, with `heldAlarm`.
        /// Its thread alone uses its context and connection; `stopped` guards the rest.
        final class VersionThreeAgent: @unchecked Sendable {
            private let context = g_main_context_new()!
            private let stopped = NSCondition()
            private var stopping = false
            private var finished = false
            private var failure: (any Error)?

            init(on bus: PrivateBus) throws {
                let ready = DispatchSemaphore(value: 0)
                let address = bus.address
                let thread = Thread { [self] in
                    g_main_context_push_thread_default(context)
                    defer { g_main_context_pop_thread_default(context) }
                    do {
                        let connection = try PrivateBus.connect(to: address)
                        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
                        let node = try GLibError.check { g_dbus_node_info_new_for_xml(Self.introspection, $0) }!
                        defer { g_dbus_node_info_unref(node) }
                        var vtable = GDBusInterfaceVTable(
                            method_call: { _, _, _, _, method, _, invocation, _ in
                                guard String(cString: method!) == "List" else { return }
                                let list = Variant.make(dictionaries: [AlarmWireFormat.encode(OlderAgentTests.heldAlarm)])
                                g_dbus_method_invocation_return_value(invocation, Variant.tuple([list]))
                            },
                            get_property: nil, set_property: nil, padding: (nil, nil, nil, nil, nil, nil, nil, nil))
                        let registration = try GLibError.check {
                            g_dbus_connection_register_object(connection, AlarmsInterface.objectPath, node.pointee.interfaces[0], &vtable, nil, nil, $0)
                        }
                        defer { g_dbus_connection_unregister_object(connection, registration) }
                        try PrivateBus.requestName(AlarmsInterface.busName, on: connection)
                        ready.signal()
                        while !stopped.withLock({ stopping }) { g_main_context_iteration(context, 1) }
                    } catch {
                        failure = error
                        ready.signal()
                    }
                    stopped.withLock { finished = true; stopped.broadcast() }
                }
                thread.start()
                ready.wait()
                if let failure { throw failure }
            }

            func stop() {
                stopped.withLock { stopping = true }
                g_main_context_wakeup(context)
                stopped.withLock { while !finished { stopped.wait() } }
                g_main_context_unref(context)
            }

            static let introspection = """
                <node><interface name="\(AlarmsInterface.name)">
                  <method name="List"><arg name="alarms" type="aa{sv}" direction="out"/></method>
                </interface></node>
                """
        }

        @Test func alarmsComeFromListWhenTheAgentHasNoListPacked() throws {
            let bus = try PrivateBus()
            defer { bus.stop() }
            let agent = try VersionThreeAgent(on: bus)
            defer { agent.stop() }
            // Overwritten, never unset (see KitAgentSession).
            setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
            let client = try TocsinClient()
            #expect(try client.alarms() == [Self.heldAlarm])
        }
    }
}
