import Testing
@testable import HeadlessSession

// ScreenText.swift: tesseract's TSV as words, lines and places on the screen.
@Suite struct ScreenTextTests {
    /// Two lines of a bubble, read from a picture three times the screen's size (as
    /// `readScreen` makes it), with tesseract's non-word rows and an empty word among them.
    static let tsv = """
        level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
        1\t1\t0\t0\t0\t0\t0\t0\t3840\t2400\t-1\t
        4\t1\t1\t1\t1\t0\t2943\t96\t150\t45\t-1\t
        5\t1\t1\t1\t1\t1\t2943\t96\t150\t45\t96.5\tPasta
        5\t1\t1\t1\t2\t1\t2943\t150\t120\t40\t91\t2:15
        5\t1\t1\t1\t2\t2\t3075\t150\t270\t40\t92.25\tremaining
        5\t1\t1\t1\t2\t3\t3360\t150\t10\t40\t0\t 
        5\t1\t2\t1\t1\t1\t2960\t290\t150\t45\t88\tPause,
        """

    @Test func wordsLinesAndScreenCoordinates() throws {
        let screen = ScreenText(tesseractTSV: Self.tsv, scale: 3)
        #expect(screen.lines == ["Pasta", "2:15 remaining", "Pause,"])
        #expect(screen.contains("15 rem"))
        #expect(!screen.contains("Cancel"))
        let pause = try #require(screen.word("Pause"), "punctuation glued to a word is not part of it")
        #expect(pause.left == 986 && pause.top == 96 && pause.width == 50 && pause.height == 15)
        #expect(pause.center.x == 1011 && pause.center.y == 103)
        #expect(pause.confidence == 88)
        #expect(screen.word("Cancel") == nil)
        #expect(ScreenText(tesseractTSV: "", scale: 3).words.isEmpty)
    }

    @Test func aPartOfTheScreenGivesScreenCoordinates() throws {
        let screen = ScreenText(passes: [Self.tsv], scale: 3, origin: (x: 640, y: 560))
        let pause = try #require(screen.word("Pause"))
        #expect(pause.left == 640 + 986 && pause.top == 560 + 96 && pause.width == 50 && pause.height == 15)
    }

    @Test func twoPassesKeepTheirOwnLines() {
        let sparse = """
            level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
            5\t1\t1\t1\t1\t1\t2960\t290\t150\t45\t88\tCancel
            """
        let screen = ScreenText(passes: [Self.tsv, sparse], scale: 3)
        #expect(screen.lines == ["Pasta", "2:15 remaining", "Pause,", "Cancel"], "the second pass's line 1.1.1 is not the first's")
        #expect(screen.word("Cancel") != nil)
    }

    /// A rectangle of the screen read alone (`readLine`): its words at the screen's places.
    @Test func wordsOfARectangleAreAtTheScreensPlaces() throws {
        let screen = ScreenText(passes: [Self.tsv], scale: 3, origin: (x: 1000, y: 20))
        let pasta = try #require(screen.word("Pasta"))
        #expect(pasta.left == 1000 + 981 && pasta.top == 20 + 32 && pasta.width == 50)
    }
}
