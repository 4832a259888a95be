import Foundation
import Testing
@testable import TocsinCore

@Suite("DurationFormat")
struct DurationFormatTests {
    @Test("clock: m:ss under an hour, h:mm:ss from an hour on, negatives as zero", arguments: [
        (0, "0:00"), (1, "0:01"), (9, "0:09"), (59, "0:59"), (60, "1:00"), (179, "2:59"), (180, "3:00"),
        (599, "9:59"), (600, "10:00"), (3599, "59:59"), (3600, "1:00:00"), (3723, "1:02:03"),
        (36_000, "10:00:00"), (86_400, "24:00:00"), (31_622_400, "8784:00:00"),
        (-1, "0:00"), (-3600, "0:00"), (Int.min, "0:00"),
    ])
    func clock(seconds: Int, text: String) {
        #expect(DurationFormat.clock(seconds: seconds) == text)
    }

    @Test("spoken: the two largest non-zero units, seconds rounded, fractions only below a second", arguments: [
        (0.0, "0 s"), (1, "1 s"), (45, "45 s"), (60, "1 min"), (90, "1 min 30 s"), (180, "3 min"),
        (3600, "1 h"), (3601, "1 h 1 s"), (3661, "1 h 1 min"), (5400, "1 h 30 min"),
        (86_400, "1 d"), (86_401, "1 d 1 s"), (90_000, "1 d 1 h"), (93_784, "1 d 2 h"), (31_622_400, "366 d"),
        (59.4, "59 s"), (59.6, "1 min"), (1.5, "2 s"),
        (0.5, "0.5 s"), (0.25, "0.25 s"), (0.1234, "0.123 s"), (-0.5, "-0.5 s"), (0.0001, "0 s"),
        (-90, "-1 min 30 s"), (-86_400, "-1 d"),
    ])
    func spoken(interval: TimeInterval, text: String) {
        #expect(DurationFormat.spoken(interval) == text)
    }

    @Test("spoken: non-finite values are written as they are")
    func spokenNonFinite() {
        #expect(DurationFormat.spoken(.infinity) == "inf s")
        #expect(DurationFormat.spoken(-.infinity) == "-inf s")
        #expect(DurationFormat.spoken(.nan) == "nan s")
    }

    // Beyond 3e13 s (about 950 000 years) the words are meaningless, and `Int(…)` of the value would
    // trap past Int.max: from the cut-off on, the value is written as a Double with “s”.
    @Test("spoken: words up to the 3e13 s cut-off, the raw number of seconds from it on", arguments: [
        (3e13 - 1, "347222222 d 5 h"),          // 29 999 999 999 999 s = 347 222 222 d 5 h 19 min 59 s
        (-(3e13 - 1), "-347222222 d 5 h"),
        (3e13.nextDown, "347222222 d 5 h"),     // rounds to 3e13 s = 347 222 222 d 5 h 20 min
        (3e13, "30000000000000.0 s"),
        (-3e13, "-30000000000000.0 s"),
        (1e18, "1e+18 s"),
        (-9e18, "-9e+18 s"),  // values beyond Int.max are left to the exit test below
    ])
    func spokenLarge(interval: TimeInterval, text: String) {
        #expect(DurationFormat.spoken(interval) == text)
    }

    // Before the fix `Int(abs(interval).rounded())` trapped for values beyond Int.max (≈ 9.22e18);
    // run in a child process so a regression fails this test instead of killing the run.
    @Test("spoken does not crash on huge finite values", arguments: [
        (1e19, "1e+19 s"), (-1e19, "-1e+19 s"), (.greatestFiniteMagnitude, "1.7976931348623157e+308 s"),
        (-.greatestFiniteMagnitude, "-1.7976931348623157e+308 s"),
    ])
    func spokenHuge(interval: Double, text: String) async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) { [interval] in
            print(DurationFormat.spoken(interval))
        }
        #expect(String(decoding: result.standardOutputContent, as: UTF8.self) == text + "\n")
    }
}
