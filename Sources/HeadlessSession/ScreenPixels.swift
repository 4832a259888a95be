/// The colours of a rectangle of the screen, as a person's eye takes in an icon: which colours,
/// and how many pixels of each, not their places.
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

    /// Pixels of these colours.
    public init(colours: [Colour]) {
        self.colours = colours
    }

    /// Reads a plain PPM image ("P3", as `convert … -depth 8 -compress none ppm:-` writes it);
    /// empty when the text is none.
    public init(plainPPM text: String) {
        // "P3", width, height, maximum, then three values a pixel; comments are not written.
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.first == "P3", fields.count >= 4, let maximum = Int(fields[3]), maximum > 0 else {
            self.colours = []
            return
        }
        let values = fields.dropFirst(4).compactMap { Int($0) }.map { UInt8(min(255, $0 * 255 / maximum)) }
        self.colours = stride(from: 0, to: values.count - 2, by: 3).map { Colour(red: values[$0], green: values[$0 + 1], blue: values[$0 + 2]) }
    }

    /// How many pixels `condition` holds for.
    public func count(where condition: (Colour) -> Bool) -> Int {
        colours.reduce(0) { $0 + (condition($1) ? 1 : 0) }
    }
}
