import Foundation

/// The text a person reads on the screen, as tesseract read it from a screenshot: every word
/// with where it is, and the lines they make. Coordinates are the screen's pixels.
public struct ScreenText: Sendable, CustomStringConvertible {
    /// One word and the box around it.
    public struct Word: Sendable, Equatable {
        public let text: String
        public let left: Int, top: Int, width: Int, height: Int
        /// tesseract's confidence, 0–100.
        public let confidence: Double
        /// Block, paragraph and line number: words with the same are on one line.
        let line: [Int]

        /// The middle of the box, where a person would click.
        public var center: (x: Int, y: Int) { (left + width / 2, top + height / 2) }
    }

    /// The words in reading order.
    public let words: [Word]
    /// The screenshot they were read from, when `HeadlessSession.readScreen` made it (it stays
    /// in the session's logs).
    public internal(set) var screenshot: URL?

    /// The lines, each its words joined by spaces.
    public var lines: [String] {
        var result: [String] = []
        var current: [Int]?
        for word in words {
            if word.line == current, !result.isEmpty {
                result[result.count - 1] += " " + word.text
            } else {
                result.append(word.text)
                current = word.line
            }
        }
        return result
    }

    /// Everything read, one line per line.
    public var description: String { lines.joined(separator: "\n") }

    /// Whether some line contains `text`.
    public func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }

    /// The first word that is `text` (ignoring punctuation tesseract glued to it), if read.
    public func word(_ text: String) -> Word? {
        words.first { $0.text == text || $0.text.trimmingCharacters(in: .punctuationCharacters) == text }
    }

    /// Reads tesseract's TSV output (`tesseract IMAGE - tsv`) of an image `scale` times the
    /// screen's size, giving the screen's coordinates.
    public init(tesseractTSV tsv: String, scale: Int = 1) {
        self.init(passes: [tsv], scale: scale)
    }

    /// Reads several passes of tesseract over the same image (different page-segmentation
    /// modes): a line one pass lost, another may have read. Each pass keeps its own lines.
    /// `origin` is where on the screen the image's top left corner is, when it shows a part of it.
    public init(passes: [String], scale: Int = 1, origin: (x: Int, y: Int) = (0, 0)) {
        var words: [Word] = []
        for (pass, tsv) in passes.enumerated() {
            words += Self.words(in: tsv, pass: pass, scale: scale, origin: origin)
        }
        self.words = words
    }

    private static func words(in tsv: String, pass: Int, scale: Int, origin: (x: Int, y: Int)) -> [Word] {
        var words: [Word] = []
        for row in tsv.split(separator: "\n").dropFirst() {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            // level page block paragraph line word left top width height confidence text
            guard fields.count >= 12, fields[0] == "5",
                  let numbers = Optional(fields[0..<10].compactMap { Int($0) }), numbers.count == 10,
                  let confidence = Double(fields[10]) else { continue }
            let text = fields[11...].joined(separator: "\t").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            words.append(Word(text: text, left: origin.x + numbers[6] / scale, top: origin.y + numbers[7] / scale, width: numbers[8] / scale,
                              height: numbers[9] / scale, confidence: confidence, line: [pass] + numbers[2...4]))
        }
        return words
    }
}
