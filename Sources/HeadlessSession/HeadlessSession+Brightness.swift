import Foundation

/// How bright the whole screen is at one moment, and the screenshot it was read from.
public struct ScreenBrightness: Sendable {
    /// The mean of every pixel's grey level, 0 (black) to 1 (white).
    public let mean: Double
    /// The screenshot, kept in the session's logs.
    public let screenshot: URL
    /// When the screenshot was taken (the moment before it was asked for).
    public let takenAt: Date
}

extension HeadlessSession {
    /// How bright the screen is now: a screenshot's mean grey level. A locked GNOME screen that
    /// has faded out is black (0); lit, its blurred background, clock and rows are not.
    public func screenBrightness() throws -> ScreenBrightness {
        try ensureRunning()
        let shot = layout.logs.appendingPathComponent("brightness-\(nextRecordingIndex()).png")
        let takenAt = Date()
        try screenshot(to: shot)
        return ScreenBrightness(mean: try meanGrey(of: shot), screenshot: shot, takenAt: takenAt)
    }

    /// The mean grey level of `shot`, a screenshot taken earlier, 0 (black) to 1 (white).
    public func meanGrey(of shot: URL) throws -> Double {
        try ensureRunning()
        let mean = try launcher.runChecked("convert", [shot.path, "-colorspace", "gray", "-format", "%[fx:mean]", "info:"],
                                           environment: environment, timeout: .seconds(20))
        guard let value = Double(mean.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HeadlessSessionError.commandFailed(command: "convert … %[fx:mean]", status: 0, stderrTail: "not a number: \(mean)")
        }
        return value
    }
}
