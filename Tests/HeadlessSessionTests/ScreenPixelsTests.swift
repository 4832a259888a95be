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
}
