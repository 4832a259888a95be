import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing
@testable import TocsinAgent
import TocsinEdge

/// The agent follows Plasma's locker (`org.kde.screensaver`) on the session bus — here a private
/// bus, with a connection owning the locker's name and answering `GetActive` as kscreenlocker
/// does; LockedScreenTests follow the real one.
@Suite(.serialized) struct PlasmaLockWatcherTests {
    /// What the stand-in locker answers to `GetActive`.
    nonisolated(unsafe) static var lockerIsActive = false
    /// Whether the stand-in locker keeps `GetActive` calls unanswered (in `heldCalls`) for the
    /// test to answer later, as a busy locker does.
    nonisolated(unsafe) static var holdsGetActive = false
    nonisolated(unsafe) static var heldCalls: [OpaquePointer] = []

    @Test func aScreenLockedBeforeTheAgentStartsIsSeenThenEachChangeAndTheLockersDeparture() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try withOwnMainContext { context in
            var told: [Bool] = []
            let locker = try bus.connect()
            let registration = try Self.exportScreenSaver(on: locker)
            Self.lockerIsActive = true
            try PrivateBus.requestName(PlasmaLockWatcher.lockerName, on: locker)
            let agent = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(agent)) }
            let watcher = PlasmaLockWatcher(log: AgentLog { _ in }, faults: NeighbourFaults { _ in }, connection: agent) { told.append($0) }
            #expect(runMainContext(context, for: 3) { told == [true] }, "locked before the agent came: \(told)")

            try Self.emitActiveChanged(on: locker, false)
            #expect(runMainContext(context, for: 3) { told == [true, false] }, "unlocked: \(told)")
            try Self.emitActiveChanged(on: locker, false)
            try Self.emitActiveChanged(on: locker, true)
            #expect(runMainContext(context, for: 3) { told == [true, false, true] }, "a repeated false is told once: \(told)")

            // The locker leaves the bus (ksmserver quits) with the screen locked: no lock screen of its is up.
            g_dbus_connection_unregister_object(locker, registration)
            g_dbus_connection_close_sync(locker, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(locker))
            #expect(runMainContext(context, for: 3) { told == [true, false, true, false] }, "the locker left: \(told)")
            withExtendedLifetime(watcher) {}
        }
    }

    @Test func aboutToLockBringsThePlayerAtOnceAndTheLockThatFollowsChangesNothing() throws {
        try Self.withStandInLocker { context, locker, agent in
            var told: [Bool] = []
            let watcher = PlasmaLockWatcher(log: AgentLog { _ in }, faults: NeighbourFaults { _ in }, connection: agent, lockDeadline: 0.5) { told.append($0) }
            _ = runMainContext(context, for: 0.5)
            #expect(told.isEmpty, "told before anything was said: \(told)")

            // kscreenlocker says AboutToLock, starts its greeter, and says ActiveChanged once it is up.
            try Self.emitAboutToLock(on: locker)
            #expect(runMainContext(context, for: 3) { told == [true] }, "about to lock: \(told)")
            Self.lockerIsActive = true
            try Self.emitActiveChanged(on: locker, true)
            // Past the deadline: the lock came, nothing is taken back.
            _ = runMainContext(context, for: 1.2) { told != [true] }
            #expect(told == [true], "the lock that followed: \(told)")
            Self.lockerIsActive = false
            try Self.emitActiveChanged(on: locker, false)
            #expect(runMainContext(context, for: 3) { told == [true, false] }, "unlocked: \(told)")
            withExtendedLifetime(watcher) {}
        }
    }

    @Test func aLockAnnouncedThatNeverComesLetsGoAtItsDeadline() throws {
        try Self.withStandInLocker { context, locker, agent in
            var told: [Bool] = []
            let logged = LogLines()
            let watcher = PlasmaLockWatcher(log: logged.log, faults: NeighbourFaults { _ in }, connection: agent, lockDeadline: 0.5) { told.append($0) }
            _ = runMainContext(context, for: 0.5)
            // The greeter could not take the keyboard: no ActiveChanged, GetActive stays false.
            try Self.emitAboutToLock(on: locker)
            #expect(runMainContext(context, for: 3) { told == [true, false] }, "a lock that never came: \(told)")
            #expect(logged.all.contains { $0.contains("has not (GetActive says false)") }, "\(logged.all)")
            withExtendedLifetime(watcher) {}
        }
    }

    @Test("The locker's answer to GetActive, asked as the agent started, is dropped when the locker said something newer before it came (ActiveChanged, or AboutToLock)",
          arguments: ["ActiveChanged", "AboutToLock"])
    func anAnswerOlderThanTheLockersNewsChangesNothing(news: String) throws {
        try Self.withStandInLocker { context, locker, agent in
            var told: [Bool] = []
            Self.holdsGetActive = true
            let watcher = PlasmaLockWatcher(log: AgentLog { _ in }, faults: NeighbourFaults { _ in }, connection: agent, lockDeadline: 60) { told.append($0) }
            #expect(runMainContext(context, for: 3) { Self.heldCalls.count == 1 }, "GetActive was not asked as the agent started")
            // The screen locks while the locker has yet to answer the question asked before.
            if news == "ActiveChanged" { try Self.emitActiveChanged(on: locker, true) } else { try Self.emitAboutToLock(on: locker) }
            #expect(runMainContext(context, for: 3) { told == [true] }, "the lock: \(told)")
            // Its answer, as things were when it was asked: not locked.
            for call in Self.heldCalls {
                g_dbus_method_invocation_return_value(call, Variant.tuple([g_variant_new_boolean(0)]))
            }
            Self.heldCalls = []
            g_dbus_connection_flush_sync(locker, nil, nil)
            _ = runMainContext(context, for: 1) { told != [true] }
            #expect(told == [true], "the older answer took the lock back: \(told)")
            withExtendedLifetime(watcher) {}
        }
    }

    @Test func anotherProgramsActiveChangedIsIgnored() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try withOwnMainContext { context in
            var told: [Bool] = []
            let impostor = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(impostor)) }
            let agent = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(agent)) }
            let watcher = PlasmaLockWatcher(log: AgentLog { _ in }, faults: NeighbourFaults { _ in }, connection: agent) { told.append($0) }
            _ = runMainContext(context, for: 0.3)
            // GNOME's screensaver proxy says ActiveChanged on the same interface; it is not Plasma's locker.
            try Self.emitActiveChanged(on: impostor, true)
            try Self.emitAboutToLock(on: impostor)
            _ = runMainContext(context, for: 0.7) { !told.isEmpty }
            #expect(told.isEmpty)
            withExtendedLifetime(watcher) {}
        }
    }

    /// Runs `body` on a main context of the test's own, with a stand-in kscreenlocker on a
    /// private bus (owning its name, its `GetActive` answering `lockerIsActive`, now `false`) and
    /// the agent's connection to that bus.
    static func withStandInLocker(_ body: (_ context: OpaquePointer, _ locker: OpaquePointer, _ agent: OpaquePointer) throws -> Void) throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try withOwnMainContext { context in
            let locker = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(locker)) }
            let registration = try exportScreenSaver(on: locker)
            defer { g_dbus_connection_unregister_object(locker, registration) }
            lockerIsActive = false
            holdsGetActive = false
            heldCalls = []
            try PrivateBus.requestName(PlasmaLockWatcher.lockerName, on: locker)
            let agent = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(agent)) }
            try body(context, locker, agent)
        }
    }

    /// `org.freedesktop.ScreenSaver` at `/ScreenSaver` on `connection`, whose `GetActive` answers
    /// `lockerIsActive`.
    static func exportScreenSaver(on connection: OpaquePointer) throws -> guint {
        let xml = """
            <node><interface name="org.freedesktop.ScreenSaver">
              <method name="GetActive"><arg type="b" direction="out"/></method>
              <signal name="ActiveChanged"><arg type="b"/></signal>
            </interface></node>
            """
        let node = try #require(try GLibError.check { g_dbus_node_info_new_for_xml(xml, $0) })
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable(
            method_call: { _, _, _, _, _, _, invocation, _ in
                guard !PlasmaLockWatcherTests.holdsGetActive else {
                    PlasmaLockWatcherTests.heldCalls.append(invocation!)
                    return
                }
                g_dbus_method_invocation_return_value(invocation, Variant.tuple([g_variant_new_boolean(PlasmaLockWatcherTests.lockerIsActive ? 1 : 0)]))
            },
            get_property: nil, set_property: nil, padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        return try GLibError.check {
            g_dbus_connection_register_object(connection, "/ScreenSaver", node.pointee.interfaces[0], &vtable, nil, nil, $0)
        }
    }

    /// kscreenlocker's `AboutToLock` (on its own interface) from `connection`.
    static func emitAboutToLock(on connection: OpaquePointer) throws {
        _ = try GLibError.check {
            g_dbus_connection_emit_signal(connection, nil, "/ScreenSaver", "org.kde.screensaver", "AboutToLock", nil, $0)
        }
        g_dbus_connection_flush_sync(connection, nil, nil)
    }

    /// kscreenlocker's `ActiveChanged(active)` from `connection`.
    static func emitActiveChanged(on connection: OpaquePointer, _ active: Bool) throws {
        _ = try GLibError.check {
            g_dbus_connection_emit_signal(connection, nil, "/ScreenSaver", "org.freedesktop.ScreenSaver", "ActiveChanged",
                                          Variant.tuple([g_variant_new_boolean(active ? 1 : 0)]), $0)
        }
        g_dbus_connection_flush_sync(connection, nil, nil)
    }
}
