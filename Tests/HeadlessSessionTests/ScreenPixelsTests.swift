import Testing
@testable import HeadlessSession

// ScreenPixels.swift: a plain PPM crop of the screen as colours to count.
@Suite struct ScreenPixelsTests {
    @Test func readsAPlainPPMAndCountsColours() {
        let pixels = ScreenPixels(plainPPM: "P3\n3 1\n255\n192 28 40  246 211 45\n54 54 58\n")
        #expect(pixels.colours == [.init(red: 192, green: 28, blue: 40), .init(red: 246, green: 211, blue: 45), .init(red: 54, green: 54, blue: 58)])
        #expect(pixels.count { $0.red > 150 && $0.green < 110 } == 1)
        #expect(pixels.count { _ in true } == 3)
    }

    @Test func scalesAnotherMaximumAndRejectsWhatIsNoPlainPPM() {
        #expect(ScreenPixels(plainPPM: "P3 1 1 15 15 0 7").colours == [.init(red: 255, green: 0, blue: 119)])
        #expect(ScreenPixels(plainPPM: "").colours.isEmpty)
        #expect(ScreenPixels(plainPPM: "P6 1 1 255 xyz").colours.isEmpty, "binary PPM is not read")
    }

    @Test func aPlainPPMKnowsItsRowsAndColumns() {
        let pixels = ScreenPixels(plainPPM: "P3\n2 2\n255\n1 1 1  2 2 2\n3 3 3  4 4 4\n")
        #expect(pixels.width == 2 && pixels.height == 2)
        #expect(pixels[1, 1] == .init(red: 4, green: 4, blue: 4) && pixels[0, 1] == .init(red: 3, green: 3, blue: 3))
        #expect(ScreenPixels(colours: [.init(red: 0, green: 0, blue: 0), .init(red: 255, green: 255, blue: 255)]).width == 2, "one row unless said")
    }
}
