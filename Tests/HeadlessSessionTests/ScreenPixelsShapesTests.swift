import Testing
@testable import HeadlessSession

// ScreenPixels+Shapes.swift: light columns, their runs, and how alike a drawing is to a shape.
@Suite struct ScreenPixelsShapesTests {
    static let black = ScreenPixels.Colour(red: 0, green: 0, blue: 0)
    static let white = ScreenPixels.Colour(red: 255, green: 255, blue: 255)

    /// Pixels from rows of characters: "#" white, "+" mid grey, anything else black.
    static func picture(_ rows: String...) -> ScreenPixels {
        let colours = rows.flatMap { row in
            row.map { $0 == "#" ? white : $0 == "+" ? ScreenPixels.Colour(red: 128, green: 128, blue: 128) : black }
        }
        return ScreenPixels(colours: colours, width: rows.first?.count ?? 0)
    }

    @Test func lightColumnsAndTheirRuns() {
        let strip = Self.picture("#.#.....++..",
                                 "..#.........")
        #expect(strip.brightColumns(threshold: 96) == [true, false, true, false, false, false, false, false, true, true, false, false])
        #expect(strip.brightColumns(threshold: 200) == [true, false, true, false, false, false, false, false, false, false, false, false])
        let light = strip.brightColumns(threshold: 96)
        #expect(ScreenPixels.runs(of: light, joiningGapsUpTo: 1) == [0..<3, 8..<10])
        #expect(ScreenPixels.runs(of: light, joiningGapsUpTo: 0) == [0..<1, 2..<3, 8..<10])
        #expect(ScreenPixels.runs(of: light, joiningGapsUpTo: 5) == [0..<10])
        #expect(ScreenPixels.runs(of: [], joiningGapsUpTo: 3).isEmpty)
        #expect(strip.cropped(columns: 7..<20) == Self.picture(".++..", "....."), "cut to the picture's own columns")
    }

    @Test func aDrawingIsLikeItsShapeWhereverItIsAndWhateverItsColour() {
        let ring = Self.picture(".##.",
                                "#..#",
                                "#..#",
                                ".##.")
        let grey = Self.picture("......",
                                "..++..",
                                ".+..+.",
                                ".+..+.",
                                "..++..")
        #expect(abs(grey.likeness(to: ring) - 1) < 1e-9, "the same ring, dimmer and one pixel down and right")
        let box = Self.picture("......",
                               ".####.",
                               ".#..#.",
                               ".#..#.",
                               ".####.")
        #expect(box.likeness(to: ring) < 0.8, "a box is not the ring: \(box.likeness(to: ring))")
        let bars = Self.picture("......",
                                "..#.#.",
                                "..#.#.",
                                "..#.#.",
                                "..#.#.")
        #expect(bars.likeness(to: ring) < 0.5, "\(bars.likeness(to: ring))")
        #expect(Self.picture("....", "....", "....", "....").likeness(to: ring) == -1, "nothing drawn is like nothing")
        #expect(Self.picture("##", "##").likeness(to: ring) == -1, "a shape larger than the picture does not fit")
    }
}
