import BusTestSupport
import Foundation
import Testing
import TocsinCore
@testable import TocsinKit

extension TocsinKitTests {
    /// A session bus that went away leaves GLib's shared connection closed, and GLib hands that
    /// closed connection out again for as long as something holds it: a client made afterwards,
    /// for the bus that runs now, must reach that bus, not fail with "The connection is closed".
    @Suite(.serialized) struct ClosedBusTests {
        @Test func aClientMadeAfterItsBusWentAwayReachesTheBusThatRunsNow() throws {
            let gone = try PrivateBus()
            // Overwritten, never unset (see KitAgentSession).
            setenv("DBUS_SESSION_BUS_ADDRESS", gone.address, 1)
            let holder = try TocsinClient()
            gone.stop()
            // The connection notices the bus is gone when its socket closes.
            #expect(KitAgentSession.eventually(timeout: 5) {
                do { _ = try holder.alarms(); return false } catch { return "\(error)".contains("closed") || "\(error)".contains("not running") }
            })

            let running = try PrivateBus()
            defer { running.stop() }
            setenv("DBUS_SESSION_BUS_ADDRESS", running.address, 1)
            let client = try TocsinClient()
            #expect {
                try client.alarms()
            } throws: { error in
                // No agent on the new bus: the client says so, which it can only learn from that bus.
                guard let error = error as? TocsinError, error.kind == .agentUnavailable else { return false }
                return error.message.contains("not running")
            }
            withExtendedLifetime(holder) {}
        }
    }
}
