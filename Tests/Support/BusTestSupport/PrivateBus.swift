import CGLib
import Foundation
import Glibc
import GLibSupport
import HeadlessSession
import TocsinCore

/// A dbus-daemon of the test's own, standing in for the system bus.
public struct PrivateBus {
    /// The daemon process.
    public let daemon: SpawnedProcess
    /// Its address, for DBUS_SYSTEM_BUS_ADDRESS or g_dbus_connection_new_for_address.
    public let address: String

    /// Starts the daemon and waits for its address.
    public init() throws {
        let output = Pipe()
        // Its stderr: "Failed to set fd limit", harmless.
        daemon = try SpawnedProcess(URL(fileURLWithPath: "/usr/bin/dbus-daemon"), ["--session", "--nofork", "--nopidfile", "--print-address=1"],
                                    standardOutput: .pipe(output), standardError: .null)
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        address = String(decoding: line, as: UTF8.self)
        guard !address.isEmpty else { throw GLibError(message: "dbus-daemon printed no address") }
    }

    /// Ends the daemon.
    public func stop() {
        kill(daemon.pid, SIGKILL)
        daemon.waitUntilExit()
    }

    /// A new connection to the bus; the caller unrefs it.
    public func connect() throws -> OpaquePointer {
        try Self.connect(to: address)
    }

    /// A new connection to the message bus at `address` (a session's, say); the caller unrefs it.
    public static func connect(to address: String) throws -> OpaquePointer {
        let flags = GDBusConnectionFlags(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        let connection = try GLibError.check { g_dbus_connection_new_for_address_sync(address, flags, nil, nil, $0) }
        guard let connection else { throw GLibError(message: "no connection to \(address)") }
        return connection
    }

    /// Makes `connection` the owner of `name` (replacing any owner).
    public static func requestName(_ name: String, on connection: OpaquePointer) throws {
        let reply = try GLibError.check {
            g_dbus_connection_call_sync(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                                        Variant.tuple([g_variant_new_string(name), g_variant_new_uint32(4)]), nil,
                                        G_DBUS_CALL_FLAGS_NONE, 5000, nil, $0)
        }
        if let reply { g_variant_unref(reply) }
    }

    /// Emits timedated's PropertiesChanged for a new `Timezone`.
    public static func emitTimezoneChanged(on connection: OpaquePointer, zone: String) throws {
        try emitPropertiesChanged(on: connection, changed: ["Timezone": .string(zone)])
    }

    /// Emits timedated's PropertiesChanged with `changed`.
    public static func emitPropertiesChanged(on connection: OpaquePointer, changed: [String: WireValue]) throws {
        let noneInvalidated = g_variant_new_array(Variant.type("s"), nil, 0)!
        _ = try GLibError.check {
            g_dbus_connection_emit_signal(connection, nil, "/org/freedesktop/timedate1", "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                          Variant.tuple([g_variant_new_string("org.freedesktop.timedate1"), Variant.make(dictionary: changed), noneInvalidated]), $0)
        }
        g_dbus_connection_flush_sync(connection, nil, nil)
    }

    /// Emits logind's `PrepareForSleep(start)` from `connection` (which should own
    /// `org.freedesktop.login1`).
    public static func emitPrepareForSleep(on connection: OpaquePointer, start: Bool) throws {
        _ = try GLibError.check {
            g_dbus_connection_emit_signal(connection, nil, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep",
                                          Variant.tuple([g_variant_new_boolean(start ? 1 : 0)]), $0)
        }
        g_dbus_connection_flush_sync(connection, nil, nil)
    }
}
