import Foundation

/// Cuts a stream of raw signed 16-bit little-endian PCM into fixed windows and computes each
/// window's RMS, normalised so full scale is 1.0. Chunks may end anywhere, even inside a sample;
/// leftover bytes wait for the next chunk.
struct RMSWindowAccumulator: Sendable {
    let channels: Int
    let framesPerWindow: Int

    /// RMS of every completed window, in order.
    private(set) var windowRMS: [Double] = []
    /// Frames (one sample per channel) consumed so far, including the current partial window.
    private(set) var totalFrames = 0

    private var leftover: [UInt8] = []
    private var sumOfSquares = 0.0
    private var samplesInWindow = 0

    init(channels: Int, framesPerWindow: Int) {
        self.channels = channels
        self.framesPerWindow = framesPerWindow
    }

    mutating func append(_ chunk: Data) {
        var bytes = leftover
        bytes.append(contentsOf: chunk)
        let usable = bytes.count - bytes.count % 2
        let samplesPerWindow = framesPerWindow * channels
        var index = 0
        while index < usable {
            let sample = Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
            let normalised = Double(sample) / 32_768.0
            sumOfSquares += normalised * normalised
            samplesInWindow += 1
            if samplesInWindow == samplesPerWindow {
                windowRMS.append((sumOfSquares / Double(samplesPerWindow)).squareRoot())
                sumOfSquares = 0
                samplesInWindow = 0
            }
            index += 2
        }
        leftover = Array(bytes[usable...])
        totalFrames = (windowRMS.count * samplesPerWindow + samplesInWindow) / channels
    }
}
