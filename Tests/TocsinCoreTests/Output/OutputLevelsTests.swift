import Testing
@testable import TocsinCore

// OutputLevels.swift and OutputRecord.swift: how far an output is raised for a ringing alarm,
// and what is put back afterwards.
@Suite("Output levels")
struct OutputLevelsTests {
    static func levels(_ percents: [Int], muted: Bool = false) -> OutputLevels {
        OutputLevels(channelVolumes: percents.map(OutputLevels.volume(percent:)), isMuted: muted)
    }

    @Test("A muted output is unmuted and keeps a volume already above the level")
    func mutedLoudEnough() throws {
        let raised = try #require(Self.levels([80, 80], muted: true).raised(toPercent: 70))
        #expect(raised == Self.levels([80, 80]))
    }

    @Test("A quiet output is raised to the level on its loudest channel, keeping the balance")
    func quietKeepsBalance() throws {
        let raised = try #require(Self.levels([3, 1], muted: true).raised(toPercent: 70))
        #expect(!raised.isMuted)
        #expect(raised.percent == 70)
        #expect(raised.channelVolumes[0] == OutputLevels.volume(percent: 70))
        // The balance kept: the right channel stands to the left as before (to a unit).
        let before = Self.levels([3, 1])
        let expectedRight = Double(before.channelVolumes[1]) * Double(raised.channelVolumes[0]) / Double(before.channelVolumes[0])
        #expect(abs(Double(raised.channelVolumes[1]) - expectedRight) <= 1)
    }

    @Test("An output at zero on every channel is set to the level on every channel")
    func silentEverywhere() throws {
        let raised = try #require(Self.levels([0, 0]).raised(toPercent: 60))
        #expect(raised == Self.levels([60, 60]))
    }

    @Test("An unmuted output at or above the level needs nothing")
    func loudEnough() {
        #expect(Self.levels([70, 70]).raised(toPercent: 70) == nil)
        #expect(Self.levels([100, 20]).raised(toPercent: 70) == nil, "the loudest channel is what is heard")
    }

    @Test("Percent and volume: pactl's rounding, both ways")
    func percent() {
        #expect(OutputLevels.volume(percent: 100) == OutputLevels.fullVolume)
        #expect(OutputLevels.percent(of: OutputLevels.volume(percent: 3)) == 3)
        #expect(OutputLevels.percent(of: 0x10000 * 7 / 10 + 10) == 70)
    }

    @Test("Put back: both as they were when nothing was touched meanwhile")
    func restoreUntouched() {
        let record = OutputRecord(sink: "speakers", before: Self.levels([3, 5], muted: true), set: Self.levels([42, 70]))
        #expect(record.restoration(from: record.set) == record.before)
    }

    @Test("Put back: a volume read back a unit or two off what was set is still what was set (PipeWire keeps floats)")
    func restoreRounded() {
        let record = OutputRecord(sink: "speakers", before: Self.levels([3, 3], muted: true), set: Self.levels([70, 70]))
        var readBack = record.set
        readBack.channelVolumes = readBack.channelVolumes.map { $0 + 2 }
        #expect(record.restoration(from: readBack) == record.before)
    }

    @Test("Put back: the user's own hand stands — turned down or muted during the ring is left so")
    func userWins() {
        let record = OutputRecord(sink: "speakers", before: Self.levels([3, 3], muted: true), set: Self.levels([70, 70]))
        // Turned down to 30 %: the volume stays; the mute, still as set, is put back.
        #expect(record.restoration(from: Self.levels([30, 30])) == Self.levels([30, 30], muted: true))
        // Muted by the user: the mute stays; the volume, still as set, goes back to 3 %.
        #expect(record.restoration(from: Self.levels([70, 70], muted: true)) == Self.levels([3, 3], muted: true))
        // Both changed: nothing to set.
        #expect(record.restoration(from: Self.levels([20, 20], muted: true)) == nil)
    }

    @Test("Put back: nothing to set when the output already is as it was")
    func nothingToRestore() {
        let record = OutputRecord(sink: "speakers", before: Self.levels([50, 50]), set: Self.levels([50, 50]))
        #expect(record.restoration(from: Self.levels([50, 50])) == nil)
    }
}
