import Foundation
import Testing
@testable import HeadlessSession

@Suite("Sound analysis")
struct SoundAnalysisTests {
    /// Raw s16le stereo PCM of `frames` frames, every sample `value`.
    private func pcm(frames: Int, value: Int16) -> Data {
        var data = Data()
        for _ in 0..<(frames * 2) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    @Test("RMS per window is normalised to full scale, whatever the chunk boundaries")
    func rmsAcrossOddChunks() {
        var stream = pcm(frames: 441, value: 16_384)  // half scale: RMS 0.5
        stream.append(pcm(frames: 441, value: 0))
        stream.append(pcm(frames: 441, value: -32_768))  // full scale: RMS 1.0
        var accumulator = RMSWindowAccumulator(channels: 2, framesPerWindow: 441)
        var offset = 0
        for size in [1, 3, 1000, 7, 5] + Array(repeating: 999, count: 10) where offset < stream.count {
            let end = min(stream.count, offset + size)
            accumulator.append(stream.subdata(in: offset..<end))
            offset = end
        }
        accumulator.append(stream.subdata(in: offset..<stream.count))
        #expect(accumulator.windowRMS.count == 3)
        #expect(abs(accumulator.windowRMS[0] - 0.5) < 1e-9)
        #expect(accumulator.windowRMS[1] == 0)
        #expect(abs(accumulator.windowRMS[2] - 1.0) < 1e-9)
        #expect(accumulator.totalFrames == 3 * 441)
    }

    @Test("trace queries: first loud window, silence, RMS over a range, coverage")
    func traceQueries() {
        let start = Date(timeIntervalSince1970: 1_000)
        let levels: [Double] = [0, 0, 0, 0.2, 0.4, 0.2, 0, 0, 0, 0]
        let trace = SoundTrace(windows: levels.enumerated().map {
            SoundWindow(time: start.addingTimeInterval(Double($0.offset) * 0.01), rms: $0.element)
        })
        #expect(trace.firstLoudWindow(after: start) == start.addingTimeInterval(0.03))
        #expect(trace.firstLoudWindow(after: start.addingTimeInterval(0.06)) == nil)
        #expect(trace.lastLoudWindowEnd() == start.addingTimeInterval(0.06))
        #expect(trace.isSilent(from: start, to: start.addingTimeInterval(0.03)))
        #expect(!trace.isSilent(from: start, to: start.addingTimeInterval(0.04)))
        #expect(!trace.isSilent(from: start.addingTimeInterval(5), to: start.addingTimeInterval(6)), "no data is not silence")
        #expect(abs(trace.rms(from: start.addingTimeInterval(0.03), to: start.addingTimeInterval(0.06)) - 0.2828) < 1e-3)
        #expect(trace.rms(from: start.addingTimeInterval(5), to: start.addingTimeInterval(6)).isNaN)
        #expect(trace.covers(from: start, to: start.addingTimeInterval(0.1)))
        #expect(!trace.covers(from: start, to: start.addingTimeInterval(0.5)))
        #expect(trace.peakRMS == 0.4)
    }

    @Test("the loudest stretch: the RMS of the loudest run of whole windows, NaN when the trace is shorter")
    func loudestStretch() {
        let start = Date(timeIntervalSince1970: 1_000)
        let levels: [Double] = [0.1, 0, 0, 0.2, 0.4, 0.2, 0, 0, 0, 0.3]
        let trace = SoundTrace(windows: levels.enumerated().map {
            SoundWindow(time: start.addingTimeInterval(Double($0.offset) * 0.01), rms: $0.element)
        })
        #expect(abs(trace.loudestRMS(over: 0.01) - 0.4) < 1e-12)
        // Windows 3–5: sqrt((0.04 + 0.16 + 0.04) / 3).
        #expect(abs(trace.loudestRMS(over: 0.03) - (0.24 / 3).squareRoot()) < 1e-12)
        #expect(abs(trace.loudestRMS(over: 0.1) - (0.34 / 10).squareRoot()) < 1e-12)
        #expect(trace.loudestRMS(over: 0.11).isNaN)
        #expect(SoundTrace(windows: []).loudestRMS(over: 0.3).isNaN)
    }
}
