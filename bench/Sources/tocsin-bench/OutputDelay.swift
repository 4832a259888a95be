import Foundation
import HeadlessSession

/// Delay from a timer's due time to its sound at the output, with the output as the user left
/// it (unmuted at 100 %) and muted (at 40 %, which the agent unmutes and raises to 70 % when the
/// ring starts), on PulseAudio and on PipeWire (pipewire-pulse and WirePlumber): what the raise
/// costs a muted machine's first second of alarm. Each server runs in a session of its own, with
/// its own agent; the timers are `SoundDelay`'s, one at a time, and the output is muted again
/// before each (the agent puts it back after each Stop; muting it again also covers a put-back
/// that had not happened).
enum OutputDelay {
    static let section = "Ringing through a muted output"
    /// Timers per figure: the issue asks for the median and worst of 20.
    static let samples = 20

    static func figures(tools: BenchTools) throws -> [Figure] {
        var figures: [Figure] = []
        for server in SoundServerKind.allCases {
            let bench = try BenchmarkSession(tools: tools, soundServer: server, label: "bench-output-\(server)")
            defer { bench.session.stop() }
            let beep = try SoundDelay.makeBeep(in: bench.session)
            let name = server == .pulseAudio ? "PulseAudio" : "PipeWire (pipewire-pulse, WirePlumber)"
            for muted in [false, true] {
                let (delays, _, problems) = try SoundDelay.sample(samples, in: bench, sound: beep) {
                    try bench.session.setSinkVolume("tocsin_null", percents: muted ? [40, 40] : [100, 100])
                    try bench.session.setSinkMute("tocsin_null", muted)
                }
                let how = muted ? "output muted at 40 % (raised to 70 % at the ring)" : "output unmuted at 100 %"
                figures.append(Figure.samples(
                    delays, section: section,
                    label: "due → first audio at the output, \(name), \(how) (\(delays.count) timers one at a time, ±10 ms)",
                    unit: "ms", showsP99: true, note: problems.isEmpty ? nil : problems.joined(separator: "; "),
                    emptyReason: "no sound was recorded: \(problems.joined(separator: "; "))"))
            }
        }
        return figures
    }
}
