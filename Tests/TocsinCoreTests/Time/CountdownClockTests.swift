import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

@Suite("CountdownClock")
struct CountdownClockTests {
    // MARK: displayed seconds

    @Test("displayedSeconds rounds to the nearest, halves up; at least 1 while time remains; float noise below half a millisecond is ignored", arguments: [
        (180.0, 180), (179.5, 180), (179.4, 179), (179.001, 179), (179.0, 179), (1.2, 1), (1.6, 2),
        (0.6, 1), (0.3, 1), (0.001, 1), (0, 0), (-5, 0),
        (179.499996, 180), // 4 µs short of the half: float noise, counts as the half
        (179.4994, 179),   // 0.6 ms short of the half is genuinely below it
        (0.0004, 0),       // under half a millisecond left: over
    ])
    func displayedSeconds(remaining: TimeInterval, shown: Int) {
        #expect(CountdownClock.displayedSeconds(remaining: remaining) == shown)
    }

    @Test("An absurd remaining time (the clock was set far back) shows a huge number instead of trapping")
    func absurdRemainingTime() {
        #expect(CountdownClock.displayedSeconds(remaining: 1e300) > 1 << 60)
        #expect(CountdownClock.displayedSeconds(remaining: .infinity) > 1 << 60)
        #expect(CountdownClock.displayedSeconds(remaining: .nan) == 0)
    }

    @Test("A 3-minute timer shows 3:00 at its start, 2:59 a second later, 0:01 in its last second, 0:00 at the end")
    func threeMinuteTimer() {
        let fireDate = at(180)
        func shown(_ now: Date) -> String {
            DurationFormat.clock(seconds: CountdownClock.displayedSeconds(remaining: fireDate.timeIntervalSince(now)))
        }
        #expect(shown(t0) == "3:00")
        #expect(shown(at(0.5)) == "3:00")
        #expect(shown(at(0.6)) == "2:59", "nearer 2:59 than 3:00")
        #expect(shown(at(1)) == "2:59")
        #expect(shown(at(1.000003)) == "2:59") // a wake-up microseconds after a whole second
        #expect(shown(at(0.999997)) == "2:59") // and microseconds before it (timer slack, float noise)
        #expect(shown(at(179.5)) == "0:01")
        #expect(shown(at(179.9)) == "0:01", "never 0:00 before it rings")
        #expect(shown(at(180)) == "0:00")
        #expect(shown(at(300)) == "0:00")
    }

    // MARK: ticks

    @Test("nextTick: the next whole second of the clock, at and between whole seconds")
    func nextTick() {
        let second = Date(timeIntervalSince1970: 1_800_000_000)
        func after(_ offset: TimeInterval) -> Date { CountdownClock.nextTick(after: second.addingTimeInterval(offset)) }
        #expect(after(0) == second.addingTimeInterval(1), "at a whole second: the next one")
        #expect(after(0.25) == second.addingTimeInterval(1))
        #expect(after(0.999) == second.addingTimeInterval(1))
        #expect(after(0.000004) == second.addingTimeInterval(1))
        #expect(after(-0.000004) == second.addingTimeInterval(1),
                "a wake-up microseconds early must not schedule the same instant again")
        #expect(after(-0.3) == second)
    }

    @Test("Ticking every whole second, a countdown whose own seconds fall between ticks shows one less at each tick")
    func walkEveryTick() {
        let start = Date(timeIntervalSince1970: 1_800_000_000.4)
        let fireDate = start.addingTimeInterval(90)
        var now = start
        var shown = [CountdownClock.displayedSeconds(remaining: fireDate.timeIntervalSince(now))]
        while true {
            let tick = CountdownClock.nextTick(after: now)
            guard tick < fireDate else { break }
            #expect(tick > now)
            #expect(tick.timeIntervalSince1970 == tick.timeIntervalSince1970.rounded(), "a tick off the whole second")
            now = tick
            shown.append(CountdownClock.displayedSeconds(remaining: fireDate.timeIntervalSince(now)))
        }
        // 90 at the start (x.4), 89 at the first tick (89.4 left), then one less per tick down to
        // 1 at the last two ticks before it rings (1.4 and 0.4 left).
        #expect(shown == [90] + Array((1...89).reversed()) + [1])
    }

    // MARK: percent elapsed

    @Test("percentElapsed: 0 at the start, rounded down, 100 only at the end", arguments: [
        (60.0, 60.0, 0), (59.5, 60, 0), (30, 60, 50), (15, 60, 75), (0.1, 60, 99), (0, 60, 100),
        (-5, 60, 100), (70, 60, 0), (2, 3, 33), (1, 3, 66), (5, 0, 100), (5, -1, 100),
    ])
    func percentElapsed(remaining: TimeInterval, duration: TimeInterval, percent: Int) {
        #expect(CountdownClock.percentElapsed(remaining: remaining, duration: duration) == percent)
    }

    // Rounding down `(duration - remaining) / duration * 100` without cleaning the float noise lost a
    // whole percent: 29 s into a 100 s timer, (100 - 71) / 100 * 100 = 28.999999999999996 → 28.
    @Test("percentElapsed never traps: NaN and remaining far beyond the duration give 0", arguments: [
        (TimeInterval.nan, 60.0), (1.0, 1e-300), (1e300, 1.0), (-TimeInterval.infinity, 10.0),
    ])
    func percentElapsedExtremes(remaining: TimeInterval, duration: TimeInterval) {
        let percent = CountdownClock.percentElapsed(remaining: remaining, duration: duration)
        #expect((0...100).contains(percent))
        if remaining.isNaN || remaining > duration { #expect(percent == 0) }
    }

    @Test("percentElapsed is exact for whole percents", arguments: [
        (71.0, 100.0, 29), (43, 100, 57), (42, 100, 58), (9.3, 10, 7), (0.3, 1, 70), (0.7, 1, 30),
    ])
    func percentElapsedFloatNoise(remaining: TimeInterval, duration: TimeInterval, percent: Int) {
        #expect(CountdownClock.percentElapsed(remaining: remaining, duration: duration) == percent)
    }

    @Test("Cleaning the noise does not round genuine fractions up", arguments: [
        (71.00001, 100.0, 28), (42.0001, 100, 57), (1, 100, 99), (0.001, 100, 99), (9.31, 10, 6),
    ])
    func percentElapsedStillRoundsDown(remaining: TimeInterval, duration: TimeInterval, percent: Int) {
        #expect(CountdownClock.percentElapsed(remaining: remaining, duration: duration) == percent)
    }

    // MARK: alarms

    @Test("Remaining time and progress of an alarm at given instants", arguments: [
        (AlarmState.countdown(CountdownPhase(fireDate: at(60), duration: 60)), at(0), 60.0 as TimeInterval?, 0 as Int?),
        (.countdown(CountdownPhase(fireDate: at(60), duration: 60)), at(15), 45, 25),
        (.countdown(CountdownPhase(fireDate: at(60), duration: 60)), at(60), 0, 100),
        (.countdown(CountdownPhase(fireDate: at(60), duration: 60)), at(90), 0, 100),
        (.countdown(CountdownPhase(fireDate: at(370), duration: 300)), at(220), 150, 50), // a snooze
        (.paused(PausedPhase(remaining: 50, duration: 60)), at(0), 50, 16),
        (.paused(PausedPhase(remaining: 50, duration: 60)), at(100_000), 50, 16),
        (.alerting(since: at(60)), at(70), nil, nil),
        (.scheduled(fireDate: at(60)), at(10), nil, nil),
    ])
    func alarmProgress(state: AlarmState, now: Date, remaining: TimeInterval?, percent: Int?) {
        let alarm = Fixture.alarm(state: state)
        #expect(alarm.remaining(at: now) == remaining)
        #expect(alarm.percentElapsed(at: now) == percent)
    }

    @Test("CountdownPhase.remaining is never negative")
    func phaseRemaining() {
        let phase = CountdownPhase(fireDate: at(60), duration: 60)
        #expect(phase.remaining(at: at(59)) == 1)
        #expect(phase.remaining(at: at(61)) == 0)
        #expect(phase.remaining(at: at(-10)) == 70)
    }
}
