import Foundation

/// The whole screen at a glance: shrunk to a small grid of pixels (each the average of the block
/// of the screen it covers), enough to tell a dark screen from a lit one, and a locker's one
/// flat colour from anything drawn on it, without reading any text. The screenshot it was made
/// from is kept in the session's logs.
public struct ScreenOverview: Sendable {
    /// The screen shrunk, row by row.
    public let pixels: ScreenPixels
    /// The screenshot it was made from.
    public let screenshot: URL
    /// When the screenshot was asked for; it shows the screen as it was between then and about a
    /// second later (`import` and `grim` take that long on a busy machine).
    public let takenAt: Date
    /// The screen's size in pixels, which `pixels` shrinks.
    public let screenWidth: Int, screenHeight: Int

    /// How bright the screen is on average, 0 (black) to 255.
    public var meanBrightness: Double {
        pixels.colours.isEmpty ? 0 : pixels.colours.reduce(0) { $0 + ScreenPixels.brightness(of: $1) } / Double(pixels.colours.count)
    }

    /// How bright the part of the screen in columns `x` and rows `y` (the screen's pixels) is on
    /// average, 0 to 255, to the nearest block: whether a dialog is up there, whatever is drawn
    /// elsewhere (a notification in a corner).
    public func meanBrightness(x: ClosedRange<Int>, y: ClosedRange<Int>) -> Double {
        guard screenWidth > 0, screenHeight > 0, pixels.width > 0, pixels.height > 0 else { return 0 }
        func blocks(_ range: ClosedRange<Int>, _ screen: Int, _ grid: Int) -> ClosedRange<Int> {
            max(0, range.lowerBound * grid / screen)...min(grid - 1, range.upperBound * grid / screen)
        }
        let columns = blocks(x, screenWidth, pixels.width), rows = blocks(y, screenHeight, pixels.height)
        let values = rows.flatMap { row in columns.map { ScreenPixels.brightness(of: pixels[$0, row]) } }
        return values.reduce(0, +) / Double(values.count)
    }

    /// Whether nothing on the screen is lit: no block brighter than 3 of 255. A blanked screen
    /// (xscreensaver's `blank` mode, an X screen with nothing drawn) is all black.
    public var isDark: Bool {
        !pixels.colours.isEmpty && pixels.colours.allSatisfy { ScreenPixels.brightness(of: $0) <= 3 }
    }

    /// Whether the whole screen is one flat colour, every block within 2 of 255 in each channel
    /// of the first: a locker's plain window with nothing above it. A single line of text
    /// anywhere changes the average of the blocks it crosses.
    public var isOneColour: Bool {
        guard let first = pixels.colours.first else { return false }
        func near(_ a: UInt8, _ b: UInt8) -> Bool { abs(Int(a) - Int(b)) <= 2 }
        return pixels.colours.allSatisfy { near($0.red, first.red) && near($0.green, first.green) && near($0.blue, first.blue) }
    }
}

extension HeadlessSession {
    /// The screen now, at a glance (`ScreenOverview`): a screenshot shrunk to `columns`×`rows`.
    public func screenOverview(columns: Int = 128, rows: Int = 80) throws -> ScreenOverview {
        try ensureRunning()
        let shot = layout.logs.appendingPathComponent("overview-\(nextRecordingIndex()).png")
        let takenAt = Date()
        try screenshot(to: shot)
        // -scale averages each block, so nothing drawn falls between the sampled pixels.
        let ppm = try launcher.runChecked("convert", [shot.path, "-scale", "\(columns)x\(rows)!", "-depth", "8", "-compress", "none", "ppm:-"],
                                          environment: environment, timeout: .seconds(20))
        let size = Self.pngSize(shot)
        return ScreenOverview(pixels: ScreenPixels(plainPPM: ppm), screenshot: shot, takenAt: takenAt, screenWidth: size.width, screenHeight: size.height)
    }

    /// The width and height a PNG file's header gives (big-endian, at bytes 16 and 20); zeros
    /// when it is no PNG.
    static func pngSize(_ url: URL) -> (width: Int, height: Int) {
        guard let handle = try? FileHandle(forReadingFrom: url), let header = try? handle.read(upToCount: 24), header.count == 24 else { return (0, 0) }
        try? handle.close()
        func number(at offset: Int) -> Int { header[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (number(at: 16), number(at: 20))
    }

    /// Takes `screenOverview()` until `condition` holds for it, for at most `timeout`; returns
    /// the first that did, and throws (saying `what` was awaited, and the last mean brightness)
    /// when none did.
    @discardableResult
    public func waitForScreenOverview(timeout: Duration = .seconds(10), _ what: String,
                                      until condition: (ScreenOverview) -> Bool) throws -> ScreenOverview {
        let deadline = ContinuousClock.now + timeout
        var last = try screenOverview()
        while !condition(last) {
            guard ContinuousClock.now < deadline else {
                throw HeadlessSessionError.screenNeverShowed(
                    what: what, lastRead: "(a screen of mean brightness \(Int(last.meanBrightness))/255\(last.isOneColour ? ", one flat colour" : ""): \(last.screenshot.path))")
            }
            Thread.sleep(forTimeInterval: 0.1)
            last = try screenOverview()
        }
        return last
    }
}
