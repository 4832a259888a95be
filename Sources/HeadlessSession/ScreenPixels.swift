/// The colours of a rectangle of the screen: which colours and how many pixels of each, as a
/// person's eye takes in an icon's colours, and, row by row, where they are, for its shape
/// (ScreenPixels+Shapes.swift).
public struct ScreenPixels: Sendable, Equatable {
    /// One pixel's colour, 8 bits a channel.
    public struct Colour: Sendable, Equatable {
        public let red: UInt8, green: UInt8, blue: UInt8

        /// A colour from its channels.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// Every pixel, row by row.
    public let colours: [Colour]
    /// How many pixels a row holds.
    public let width: Int
    /// How many rows there are.
    public var height: Int { width > 0 ? colours.count / width : 0 }

    /// Pixels of these colours, `width` to a row (one row unless said).
    public init(colours: [Colour], width: Int? = nil) {
        self.colours = colours
        self.width = width ?? colours.count
    }

    /// Reads a plain PPM image ("P3", as `convert … -depth 8 -compress none ppm:-` writes it);
    /// empty when the text is none.
    public init(plainPPM text: String) {
        // "P3", width, height, maximum, then three values a pixel; comments are not written.
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.first == "P3", fields.count >= 4, let width = Int(fields[1]), width > 0, let maximum = Int(fields[3]), maximum > 0 else {
            self.colours = []
            self.width = 0
            return
        }
        let values = fields.dropFirst(4).compactMap { Int($0) }.map { UInt8(min(255, $0 * 255 / maximum)) }
        self.colours = stride(from: 0, to: values.count - 2, by: 3).map { Colour(red: values[$0], green: values[$0 + 1], blue: values[$0 + 2]) }
        self.width = width
    }

    /// The pixel in column `x` of row `y`.
    public subscript(x: Int, y: Int) -> Colour { colours[y * width + x] }

    /// How many pixels `condition` holds for.
    public func count(where condition: (Colour) -> Bool) -> Int {
        colours.reduce(0) { $0 + (condition($1) ? 1 : 0) }
    }
}
