import Foundation
import Testing
import TocsinCore

@Suite("CountdownClock")
struct CountdownClockTests {
    // MARK: displayed seconds

    @Test("displayedSeconds rounds up, never negative; float noise below half a millisecond is ignored", arguments: [
        (180.0, 180), (179.5, 180), (179.001, 180), (179.0, 179), (0.3, 1), (1, 1), (1.2, 2), (0, 0), (-5, 0),
        (179.000004, 179), // a wake-up 4 µs early at the 179 boundary already shows 179
        (178.999996, 179), // 4 µs late
        (179.0006, 180),   // 0.6 ms early is genuinely still 180
        (0.0004, 0),
    ])
    func displayedSeconds(remaining: TimeInterval, shown: Int) {
        #expect(CountdownClock.displayedSeconds(remaining: remaining) == shown)
    }

    @Test("A 3-minute timer shows 3:00 at its start, 2:59 a second later, 0:01 in its last second, 0:00 at the end")
    func threeMinuteTimer() {
        let fireDate = at(180)
        func shown(_ now: Date) -> String {
            DurationFormat.clock(seconds: CountdownClock.displayedSeconds(remaining: fireDate.timeIntervalSince(now)))
        }
        #expect(shown(t0) == "3:00")
        #expect(shown(at(0.5)) == "3:00")
        #expect(shown(at(1)) == "2:59")
        #expect(shown(at(1.000003)) == "2:59") // a wake-up microseconds after the boundary
        #expect(shown(at(0.999997)) == "2:59") // and microseconds before it (timer slack, float noise)
        #expect(shown(at(179.5)) == "0:01")
        #expect(shown(at(180)) == "0:00")
        #expect(shown(at(300)) == "0:00")
    }

    // MARK: next display change

    @Test("nextDisplayChange: at and between boundaries, and in the last second")
    func nextDisplayChange() {
        let fireDate = at(180)
        #expect(CountdownClock.nextDisplayChange(fireDate: fireDate, after: t0) == at(1))
        #expect(CountdownClock.nextDisplayChange(fireDate: fireDate, after: at(0.5)) == at(1))
        #expect(CountdownClock.nextDisplayChange(fireDate: fireDate, after: at(1)) == at(2), "at a boundary: the next one")
        #expect(CountdownClock.nextDisplayChange(fireDate: fireDate, after: at(1.000003)) == at(2))
        #expect(CountdownClock.nextDisplayChange(fireDate: fireDate, after: at(0.999997)) == at(2),
                "a wake-up microseconds early must not schedule the same instant again")
        #expect(CountdownClock.nextDisplayChange(fireDate: fireDate, after: at(178.2)) == at(179))
        #expect(CountdownClock.nextDisplayChange(fireDate: fireDate, after: at(179)) == fireDate)
        #expect(CountdownClock.nextDisplayChange(fireDate: fireDate, after: at(179.9)) == fireDate)
        // At and after the fire date it answers the fire date itself (not an instant after `now`).
        #expect(CountdownClock.nextDisplayChange(fireDate: fireDate, after: fireDate) == fireDate)
        #expect(CountdownClock.nextDisplayChange(fireDate: fireDate, after: at(200)) == fireDate)
    }

    @Test("Following nextDisplayChange from the start visits every second once, and the display changes each time")
    func walkEverySecond() {
        let fireDate = at(90.25) // boundaries not on whole seconds of t0
        var now = t0
        var shown = [CountdownClock.displayedSeconds(remaining: fireDate.timeIntervalSince(now))]
        var steps = 0
        while now < fireDate, steps < 1000 {
            let next = CountdownClock.nextDisplayChange(fireDate: fireDate, after: now)
            #expect(next > now)
            now = next
            shown.append(CountdownClock.displayedSeconds(remaining: fireDate.timeIntervalSince(now)))
            steps += 1
        }
        #expect(now == fireDate)
        #expect(shown == Array((0...91).reversed()))
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
