import Foundation
import Testing
@testable import HeadlessSession

// ScreenOverview.swift: a shrunk screen, dark, one flat colour, or lit in one part.
@Suite struct ScreenOverviewTests {
    static let black = ScreenPixels.Colour(red: 0, green: 0, blue: 0)
    static let slate = ScreenPixels.Colour(red: 0x20, green: 0x3a, blue: 0x5c)
    static let grey = ScreenPixels.Colour(red: 230, green: 230, blue: 230)

    /// A 4×2 overview of a 1280×800 screen.
    static func overview(_ colours: [ScreenPixels.Colour]) -> ScreenOverview {
        ScreenOverview(pixels: ScreenPixels(colours: colours, width: 4), screenshot: URL(fileURLWithPath: "/dev/null"), takenAt: Date(),
                       screenWidth: 1280, screenHeight: 800)
    }

    @Test func aBlankedScreenIsDarkAndOneColourAndALockersIsOneColourOnly() {
        let blank = Self.overview(Array(repeating: Self.black, count: 8))
        #expect(blank.isDark && blank.isOneColour && blank.meanBrightness == 0)
        let locker = Self.overview(Array(repeating: Self.slate, count: 8))
        #expect(!locker.isDark && locker.isOneColour)
        // One block with a notification's text averaged into it.
        let notified = Self.overview(Array(repeating: Self.slate, count: 7) + [.init(red: 0x40, green: 0x50, blue: 0x66)])
        #expect(!notified.isOneColour)
        #expect(!Self.overview([]).isDark && !Self.overview([]).isOneColour, "no pixels say nothing")
    }

    @Test func aPartOfTheScreenIsMeasuredByTheBlocksItCovers() {
        // A dialog lit in the left half of the top row, a bubble in the bottom right corner.
        let screen = Self.overview([Self.grey, Self.grey, Self.black, Self.black,
                                    Self.black, Self.black, Self.black, Self.grey])
        func near(_ value: Double, _ expected: Double) -> Bool { abs(value - expected) < 0.001 }
        #expect(near(screen.meanBrightness(x: 0...639, y: 0...399), 230))
        #expect(near(screen.meanBrightness(x: 640...1279, y: 0...399), 0))
        #expect(near(screen.meanBrightness(x: 0...1279, y: 0...799), 230.0 * 3 / 8))
        #expect(near(screen.meanBrightness(x: 960...5000, y: 400...5000), 230), "clamped to the screen")
    }

    @Test func readsAPNGsSizeFromItsHeader() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("overview-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        var header = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        header += Data([0, 0, 0x05, 0x00, 0, 0, 0x03, 0x20])
        try header.write(to: file)
        #expect(HeadlessSession.pngSize(file) == (1280, 800))
        #expect(HeadlessSession.pngSize(URL(fileURLWithPath: "/nonexistent")) == (0, 0))
    }
}
