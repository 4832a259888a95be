import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// AgentState+Output.swift: the output raised while a sound plays, once, and put back after the
// last one stops; the record saved before the output is touched.
@Suite("Decider: the output while alarms ring")
struct AlarmDeciderOutputTests {
    static func levels(_ percent: Int, muted: Bool = false) -> OutputLevels {
        OutputLevels(channelVolumes: [OutputLevels.volume(percent: percent), OutputLevels.volume(percent: percent)], isMuted: muted)
    }

    static func report(_ sinks: [String: OutputLevels], default defaultSink: String = "speakers") -> SoundOutputReport {
        SoundOutputReport(server: "PulseAudio 16.1", defaultSink: defaultSink, sinks: sinks)
    }

    /// The output effects among `effects`, in order.
    static func outputEffects(_ effects: [AgentEffect]) -> [AgentEffect] {
        effects.filter {
            switch $0 {
            case .setOutput, .saveOutputRecord: true
            default: false
            }
        }
    }

    static func twoTimers() throws -> DeciderRun {
        try DeciderRun(AlarmRequest(title: "Tea", duration: 60), AlarmRequest(title: "Eggs", duration: 90))
    }

    @Test("A muted output: saved, then unmuted and raised right after the ring starts; put back after Stop")
    func mutedOutputRaisedAndPutBack() throws {
        var run = try Self.twoTimers()
        #expect(Self.outputEffects(run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)).isEmpty,
                "nothing rings: nothing raised")
        let fired = run.feed(.timePassed, at: 60)
        let record = OutputRecord(sink: "speakers", before: Self.levels(3, muted: true), set: Self.levels(70))
        #expect(Self.outputEffects(fired) == [.saveOutputRecord(record), .setOutput(sink: "speakers", levels: Self.levels(70))])
        let ring = try #require(fired.firstIndex { if case .ring = $0 { true } else { false } })
        let save = try #require(fired.firstIndex(of: .saveOutputRecord(record)))
        #expect(ring + 1 == save, "the output follows the sound at once: \(fired)")
        #expect(run.state.output.record == record)

        // The server reports what was set: nothing more to do.
        #expect(Self.outputEffects(run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(70)])), at: 61)).isEmpty)
        let stopped = run.perform(.stop, on: run.id(1), at: 65)
        #expect(Self.outputEffects(stopped) == [.setOutput(sink: "speakers", levels: Self.levels(3, muted: true)), .saveOutputRecord(nil)])
        #expect(run.state.output.record == nil)
    }

    @Test("Two alarms ringing together raise once and put back once, after the last")
    func twoAlarmsOnce() throws {
        var run = try Self.twoTimers()
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).count == 2)
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(70)])), at: 61)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 90)).isEmpty, "the second alarm finds it raised")
        #expect(Self.outputEffects(run.perform(.stop, on: run.id(1), at: 95)).isEmpty, "one still rings")
        #expect(Self.outputEffects(run.perform(.stop, on: run.id(2), at: 96)).count == 2)
    }

    @Test("Turned down by the user during the ring: not fought, and not undone at Stop; the mute is put back")
    func userTurnsItDown() throws {
        var run = try Self.twoTimers()
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        _ = run.feed(.timePassed, at: 60)
        #expect(Self.outputEffects(run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(25)])), at: 62)).isEmpty)
        let stopped = run.perform(.stop, on: run.id(1), at: 65)
        #expect(Self.outputEffects(stopped) == [.setOutput(sink: "speakers", levels: Self.levels(25, muted: true)), .saveOutputRecord(nil)])
    }

    @Test("The default output changes mid-ring: the old one is put back, the new one raised, and put back at Stop")
    func followsTheDefaultOutput() throws {
        var run = try Self.twoTimers()
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true), "headphones": Self.levels(10)])), at: 1)
        _ = run.feed(.timePassed, at: 60)
        let switched = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(70), "headphones": Self.levels(10)],
                                                                default: "headphones")), at: 62)
        let headphones = OutputRecord(sink: "headphones", before: Self.levels(10), set: Self.levels(70))
        #expect(Self.outputEffects(switched) == [
            .setOutput(sink: "speakers", levels: Self.levels(3, muted: true)), .saveOutputRecord(nil),
            .saveOutputRecord(headphones), .setOutput(sink: "headphones", levels: Self.levels(70)),
        ])
        let stopped = run.perform(.stop, on: run.id(1), at: 65)
        #expect(Self.outputEffects(stopped) == [.setOutput(sink: "headphones", levels: Self.levels(10)), .saveOutputRecord(nil)])
    }

    @Test("Loud enough when it started ringing, then muted by the user during the ring: left muted")
    func loudEnoughThenMutedByTheUser() throws {
        var run = try Self.twoTimers()
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(80)])), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).isEmpty)
        #expect(Self.outputEffects(run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(80, muted: true)])), at: 62)).isEmpty,
                "the user's mute was fought")
        #expect(Self.outputEffects(run.perform(.stop, on: run.id(1), at: 65)).isEmpty)
        // The next ring looks again.
        #expect(Self.outputEffects(run.feed(.timePassed, at: 90)).contains(.setOutput(sink: "speakers", levels: Self.levels(80))))
    }

    @Test("Raising off and the output muted: the ringing alert says it may not be heard, and stops saying it once the user unmutes")
    func alertSaysAMutedOutputIsNotRaised() throws {
        var run = try Self.twoTimers()
        _ = run.feed(.outputRaiseSettingsChanged(OutputRaiseSettings(raises: false, levelPercent: 70)), at: 0)
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(50, muted: true)])), at: 1)
        func alertBodies(_ effects: [AgentEffect]) -> [String] {
            effects.compactMap { if case .show(_, let content, _) = $0, content.role == .alert { content.body } else { nil } }
        }
        let fired = run.feed(.timePassed, at: 60)
        #expect(Self.outputEffects(fired).isEmpty, "raising is off")
        let warned = try #require(alertBodies(fired).last, "no alert shown")
        #expect(warned.hasSuffix("\nThe sound output is muted and this alarm does not raise it: it may not be heard."), "\(warned)")
        #expect(fired.contains(.log(.warning, "The sound output is muted and this alarm does not raise it: it may not be heard.")))
        let unmuted = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(50)])), at: 62)
        #expect(alertBodies(unmuted).count == 1 && alertBodies(unmuted).allSatisfy { !$0.contains("may not be heard") }, "\(unmuted)")
        #expect(alertBodies(run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(4)])), at: 63)).last?.contains("is at 4 %") == true)
        // Raising on again: raised, and no more warning.
        let on = run.feed(.outputRaiseSettingsChanged(.standard), at: 64)
        #expect(Self.outputEffects(on).contains(.setOutput(sink: "speakers", levels: Self.levels(70))))
        #expect(alertBodies(on).count == 1 && alertBodies(on).allSatisfy { !$0.contains("may not be heard") })
    }

    @Test("Loud enough already: nothing touched, nothing saved")
    func loudEnough() throws {
        var run = try Self.twoTimers()
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(80)])), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).isEmpty)
        #expect(Self.outputEffects(run.perform(.stop, on: run.id(1), at: 65)).isEmpty)
    }

    @Test("Stopped before the server reported the raise: the output is still put back (it was set, whatever the last report said)")
    func stopBeforeTheServersReport() throws {
        var run = try Self.twoTimers()
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        _ = run.feed(.timePassed, at: 60)
        let stopped = run.perform(.stop, on: run.id(1), at: 60.05)
        #expect(Self.outputEffects(stopped) == [.setOutput(sink: "speakers", levels: Self.levels(3, muted: true)), .saveOutputRecord(nil)])
    }

    @Test("The alarm's stream started muted or quieter than asked by what the server remembered is set right; one the user mutes or turns down during the ring stays so, and so do the ring's later streams")
    func ownStreams() throws {
        var run = try Self.twoTimers()
        let loud = ["speakers": Self.levels(80)]
        _ = run.feed(.soundOutputChanged(Self.report(loud)), at: 1)
        _ = run.feed(.timePassed, at: 60)
        func stream(_ percent: Int, muted: Bool = false) -> OwnStream {
            OwnStream(levels: Self.levels(percent, muted: muted), requested: OutputLevels.fullVolume)
        }
        func streams(_ streams: [UInt32: OwnStream]) -> AgentInput {
            .soundOutputChanged(SoundOutputReport(server: "PulseAudio 16.1", defaultSink: "speakers", sinks: loud, ownStreams: streams))
        }
        let full = Self.levels(100)
        #expect(run.feed(streams([7: stream(100, muted: true)]), at: 60.1).contains(.setStream(7, levels: full)), "the remembered mute is undone")
        #expect(!run.feed(streams([7: stream(100, muted: true)]), at: 60.15).contains { if case .setStream = $0 { true } else { false } },
                "a report older than the set is not the user's")
        _ = run.feed(streams([7: stream(100)]), at: 60.2)
        #expect(!run.feed(streams([7: stream(100, muted: true)]), at: 61.5).contains { if case .setStream = $0 { true } else { false } },
                "the user muted it: left so")
        // The sound repeats as a new stream, which the server starts muted as the user left it.
        #expect(!run.feed(streams([8: stream(100, muted: true)]), at: 63).contains { if case .setStream = $0 { true } else { false } },
                "the user's mute holds for the rest of the ring")
        _ = run.perform(.stop, on: run.id(1), at: 65)
        // The next ring starts afresh: a remembered 5 % is set back to what was asked.
        _ = run.feed(.timePassed, at: 90)
        #expect(run.feed(streams([9: stream(5)]), at: 90.1).contains(.setStream(9, levels: full)))
        _ = run.feed(streams([9: stream(100)]), at: 90.2)
        #expect(!run.feed(streams([9: stream(20)]), at: 91.5).contains { if case .setStream = $0 { true } else { false } }, "turned down by the user")
        // A stream of the agent's while nothing rings (the last one ending) is left alone.
        _ = run.perform(.stop, on: run.id(2), at: 95)
        #expect(!run.feed(streams([10: stream(5, muted: true)]), at: 95.1).contains { if case .setStream = $0 { true } else { false } })
    }

    @Test("A new stream the server settles after the agent set it (PipeWire: 0 %, then WirePlumber's remembered 5 %) is set again; a change after it settled is the user's")
    func ownStreamSettling() throws {
        var run = try Self.twoTimers()
        let loud = ["speakers": Self.levels(80)]
        _ = run.feed(.soundOutputChanged(Self.report(loud)), at: 1)
        _ = run.feed(.timePassed, at: 60)
        func report(_ percent: Int) -> AgentInput {
            .soundOutputChanged(SoundOutputReport(server: "PulseAudio (on PipeWire 0.3.65) 15.0.0", defaultSink: "speakers", sinks: loud,
                                                  ownStreams: [7: OwnStream(levels: Self.levels(percent), requested: OutputLevels.fullVolume)]))
        }
        func sets(_ effects: [AgentEffect]) -> Int { effects.filter { if case .setStream = $0 { true } else { false } }.count }
        #expect(sets(run.feed(report(0), at: 60.05)) == 1)
        #expect(sets(run.feed(report(5), at: 60.1)) == 1, "the server's remembered volume came over the set: set again")
        #expect(sets(run.feed(report(100), at: 60.15)) == 0)
        #expect(sets(run.feed(report(20), at: 63)) == 0, "turned down by the user once it had settled")
    }

    @Test("A stream that plays as asked, or whose volume was not said, is left alone; a muted one is unmuted at its own volume")
    func ownStreamWanted() {
        #expect(OwnStream(levels: Self.levels(100), requested: OutputLevels.fullVolume).wanted == nil)
        #expect(OwnStream(levels: Self.levels(40), requested: OutputLevels.volume(percent: 40)).wanted == nil, "a crescendo's quiet start")
        #expect(OwnStream(levels: Self.levels(40), requested: nil).wanted == nil)
        #expect(OwnStream(levels: Self.levels(40, muted: true), requested: nil).wanted == Self.levels(40))
        #expect(OwnStream(levels: Self.levels(5), requested: OutputLevels.volume(percent: 40)).wanted == Self.levels(40))
    }

    @Test("No sound server: nothing raised; once one answers mid-ring, the output is raised then")
    func serverComesLate() throws {
        var run = try Self.twoTimers()
        _ = run.feed(.soundOutputChanged(nil), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).isEmpty)
        let answered = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(0, muted: true)])), at: 62)
        #expect(Self.outputEffects(answered).last == .setOutput(sink: "speakers", levels: Self.levels(70)))
    }

    @Test("Killed mid-ring: the record left behind puts the output back once the server answers, when nothing rings")
    func recordFromAnEarlierRun() throws {
        let record = OutputRecord(sink: "speakers", before: Self.levels(3, muted: true), set: Self.levels(70))
        var run = try Self.twoTimers()
        run.state = AgentState(book: run.book, localeIdentifier: "C", outputRecord: record)
        _ = run.feed(.started(in: .utc), at: 2)
        let answered = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(70)])), at: 3)
        #expect(Self.outputEffects(answered) == [.setOutput(sink: "speakers", levels: Self.levels(3, muted: true)), .saveOutputRecord(nil)])
    }

    @Test("Raising turned off mid-ring puts the output back; the settings' level is the level raised to")
    func settings() throws {
        var run = try Self.twoTimers()
        _ = run.feed(.outputRaiseSettingsChanged(OutputRaiseSettings(raises: true, levelPercent: 40)), at: 0)
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).last == .setOutput(sink: "speakers", levels: Self.levels(40)))
        let off = run.feed(.outputRaiseSettingsChanged(OutputRaiseSettings(raises: false, levelPercent: 40)), at: 61)
        #expect(Self.outputEffects(off) == [.setOutput(sink: "speakers", levels: Self.levels(3, muted: true)), .saveOutputRecord(nil)])
    }

    // MARK: each alarm's own choice (--ring-level, --no-raise)

    @Test("An alarm's own level raises the output even with raising off, to that level; put back at Stop")
    func ownLevelWithRaisingOff() throws {
        var run = try DeciderRun(AlarmRequest(title: "Wake", duration: 60, outputRaise: .raise(toPercent: 40)))
        _ = run.feed(.outputRaiseSettingsChanged(OutputRaiseSettings(raises: false, levelPercent: 70)), at: 0)
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        let record = OutputRecord(sink: "speakers", before: Self.levels(3, muted: true), set: Self.levels(40))
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)) == [.saveOutputRecord(record), .setOutput(sink: "speakers", levels: Self.levels(40))])
        #expect(Self.outputEffects(run.perform(.stop, on: run.id(1), at: 65))
                == [.setOutput(sink: "speakers", levels: Self.levels(3, muted: true)), .saveOutputRecord(nil)])
    }

    @Test("Yes without a level of its own (raise-output true): the settings' level, even with raising off")
    func yesWithTheSettingsLevel() throws {
        var run = try DeciderRun(AlarmRequest(title: "Wake", duration: 60, outputRaise: .raise(toPercent: nil)))
        _ = run.feed(.outputRaiseSettingsChanged(OutputRaiseSettings(raises: false, levelPercent: 55)), at: 0)
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).last == .setOutput(sink: "speakers", levels: Self.levels(55)))
    }

    @Test("Its own level is a floor, not a setting: an output already louder is left alone")
    func ownLevelIsAFloor() throws {
        var run = try DeciderRun(AlarmRequest(title: "Wake", duration: 60, outputRaise: .raise(toPercent: 40)))
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(50)])), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).isEmpty)
    }

    @Test("--no-raise: a muted output stays muted while it rings, with raising on")
    func neverRaised() throws {
        var run = try DeciderRun(AlarmRequest(title: "Quiet", duration: 60, outputRaise: .never))
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).isEmpty)
        #expect(run.state.output.record == nil)
        #expect(Self.outputEffects(run.perform(.stop, on: run.id(1), at: 65)).isEmpty)
    }

    @Test("Raising off and no choice of its own: nothing is touched")
    func raisingOffLeavesItAlone() throws {
        var run = try Self.twoTimers()
        let said = run.feed(.outputRaiseSettingsChanged(OutputRaiseSettings(raises: false, levelPercent: 70)), at: 0)
        #expect(said == [.log(.info, "Ringing alarms leave the output as it is, even muted, unless they say otherwise (--ring-level).")])
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).isEmpty)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 90)).isEmpty)
        #expect(run.feed(.outputRaiseSettingsChanged(OutputRaiseSettings(raises: false, levelPercent: 70)), at: 91).isEmpty, "the same settings again: nothing said")
    }

    @Test("A --no-raise alarm rings first: the output is raised when one that raises starts, and put back when that one stops, while the first still rings")
    func neverBesideOneThatRaises() throws {
        var run = try DeciderRun(AlarmRequest(title: "Quiet", duration: 60, outputRaise: .never), AlarmRequest(title: "Loud", duration: 90))
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).isEmpty)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 90)).last == .setOutput(sink: "speakers", levels: Self.levels(70)))
        #expect(Self.outputEffects(run.perform(.stop, on: run.id(2), at: 95))
                == [.setOutput(sink: "speakers", levels: Self.levels(3, muted: true)), .saveOutputRecord(nil)])
        #expect(Self.outputEffects(run.perform(.stop, on: run.id(1), at: 96)).isEmpty)
    }

    @Test("The alarm ringing longest sets the level; a later one with a higher level does not raise again; put back after the last")
    func oldestSetsTheLevel() throws {
        var run = try DeciderRun(AlarmRequest(title: "First", duration: 60, outputRaise: .raise(toPercent: 40)),
                                 AlarmRequest(title: "Second", duration: 90, outputRaise: .raise(toPercent: 90)))
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).last == .setOutput(sink: "speakers", levels: Self.levels(40)))
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(40)])), at: 61)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 90)).isEmpty, "raised once")
        #expect(Self.outputEffects(run.perform(.stop, on: run.id(1), at: 95)).isEmpty, "the second still rings and raises")
        #expect(Self.outputEffects(run.perform(.stop, on: run.id(2), at: 96))
                == [.setOutput(sink: "speakers", levels: Self.levels(3, muted: true)), .saveOutputRecord(nil)])
    }

    @Test("The level of the oldest alarm that raises, past one ringing longer that never does")
    func oldestThatRaises() throws {
        var run = try DeciderRun(AlarmRequest(title: "Quiet", duration: 30, outputRaise: .never),
                                 AlarmRequest(title: "Own", duration: 60, outputRaise: .raise(toPercent: 35)),
                                 AlarmRequest(title: "Settings", duration: 90))
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 30)).isEmpty)
        #expect(Self.outputEffects(run.feed(.timePassed, at: 60)).last == .setOutput(sink: "speakers", levels: Self.levels(35)))
        #expect(Self.outputEffects(run.feed(.timePassed, at: 90)).isEmpty)
    }

    @Test("After a restart, the level is still that of the alarm that rang first, whatever order the book rings them in again")
    func restartKeepsTheOldest() throws {
        // The later-ringing alarm is scheduled first, so the book holds it first.
        var run = try DeciderRun(AlarmRequest(title: "Later", duration: 90, outputRaise: .raise(toPercent: 90)),
                                 AlarmRequest(title: "Sooner", duration: 60, outputRaise: .raise(toPercent: 40)))
        _ = run.feed(.soundOutputChanged(nil), at: 1)
        _ = run.feed(.timePassed, at: 60)
        _ = run.feed(.timePassed, at: 90)
        // Killed before any sound server answered: no record; both ring again at the start.
        run.state = AgentState(book: run.book, localeIdentifier: "C")
        _ = run.feed(.started(in: .utc), at: 92)
        let answered = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 93)
        #expect(Self.outputEffects(answered).last == .setOutput(sink: "speakers", levels: Self.levels(40)))
    }

    @Test("Raising turned off mid-ring: an alarm with its own level keeps the output raised; one without puts it back")
    func settingsOffMidRing() throws {
        var run = try DeciderRun(AlarmRequest(title: "Own", duration: 60, outputRaise: .raise(toPercent: 70)))
        _ = run.feed(.soundOutputChanged(Self.report(["speakers": Self.levels(3, muted: true)])), at: 1)
        _ = run.feed(.timePassed, at: 60)
        #expect(Self.outputEffects(run.feed(.outputRaiseSettingsChanged(OutputRaiseSettings(raises: false, levelPercent: 70)), at: 61)).isEmpty)
        #expect(run.state.output.record != nil)
    }
}
