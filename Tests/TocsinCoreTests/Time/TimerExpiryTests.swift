import Foundation
import Testing
@testable import TocsinCore

@Suite("TimerExpiry")
struct TimerExpiryTests {
    @Test("An ordinary instant splits into whole seconds and nanoseconds")
    func ordinaryInstant() {
        let parts = TimerExpiry.parts(of: Date(timeIntervalSince1970: 1_800_000_000.25))
        #expect(parts.seconds == 1_800_000_000)
        #expect(abs(parts.nanoseconds - 250_000_000) < 1_000)
    }

    @Test("A whole second still has a nanosecond, so the timer is never disarmed by all zeros")
    func neverAllZeros() {
        #expect(TimerExpiry.parts(of: Date(timeIntervalSince1970: 0)) == (0, 1))
        #expect(TimerExpiry.parts(of: Date(timeIntervalSince1970: 1_800_000_000)) == (1_800_000_000, 1))
    }

    // Dates read from a damaged or hostile state file: each must give a valid timespec, not a trap.
    @Test("Absurd dates are clamped instead of trapping", arguments: [
        (Double.nan, 0), (-1e300, 0), (-1, 0), (-Double.infinity, 0),
        (1e300, 100_000_000_000_000_000), (Double.infinity, 100_000_000_000_000_000),
        (Double.greatestFiniteMagnitude, 100_000_000_000_000_000),
    ])
    func absurdDates(interval: Double, expectedSeconds: Int) {
        let parts = TimerExpiry.parts(of: Date(timeIntervalSince1970: interval))
        #expect(parts.seconds == expectedSeconds)
        #expect((1...999_999_999).contains(parts.nanoseconds))
    }
}
