/// What is drawn light on a dark panel, as shapes: which columns hold something, and how alike a
/// drawing is to the shape it should have. Pure: the pixels come from `HeadlessSession.pixels`.
extension ScreenPixels {
    /// How bright `colour` looks, 0–255, with the weights ImageMagick's grey uses (Rec. 601).
    public static func brightness(of colour: Colour) -> Double {
        0.299 * Double(colour.red) + 0.587 * Double(colour.green) + 0.114 * Double(colour.blue)
    }

    /// For each column, whether one of its pixels is at least `threshold` bright: where something
    /// light is drawn on a dark bar.
    public func brightColumns(threshold: Double) -> [Bool] {
        (0..<width).map { x in (0..<height).contains { y in Self.brightness(of: self[x, y]) >= threshold } }
    }

    /// The pixels of `columns` only, every row.
    public func cropped(columns: Range<Int>) -> ScreenPixels {
        let kept = columns.clamped(to: 0..<width)
        return ScreenPixels(colours: (0..<height).flatMap { y in kept.map { self[$0, y] } }, width: kept.count)
    }

    /// How alike the drawing here is to `shape` (a smaller picture, drawn light on dark like a
    /// symbolic icon on the bar): the highest normalised cross-correlation of their brightness
    /// over every place `shape` fits, 1 for the same drawing whatever its colour, about 0 for an
    /// unrelated one. -1 when `shape` does not fit or either is one flat colour.
    public func likeness(to shape: ScreenPixels) -> Double {
        guard shape.width > 0, shape.height > 0, shape.width <= width, shape.height <= height else { return -1 }
        let reference = shape.colours.map(Self.brightness(of:))
        let referenceMean = reference.reduce(0, +) / Double(reference.count)
        let centred = reference.map { $0 - referenceMean }
        let referenceNorm = centred.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard referenceNorm > 0 else { return -1 }
        let here = colours.map(Self.brightness(of:))
        var best = -1.0
        for top in 0...(height - shape.height) {
            for left in 0...(width - shape.width) {
                var window: [Double] = []
                window.reserveCapacity(reference.count)
                for y in 0..<shape.height {
                    window += here[((top + y) * width + left)..<((top + y) * width + left + shape.width)]
                }
                let mean = window.reduce(0, +) / Double(window.count)
                var product = 0.0, norm = 0.0
                for (value, referenceValue) in zip(window, centred) {
                    product += (value - mean) * referenceValue
                    norm += (value - mean) * (value - mean)
                }
                guard norm > 0 else { continue }
                best = max(best, product / (norm.squareRoot() * referenceNorm))
            }
        }
        return best
    }

    /// The runs of `true` in `columns`, from left to right, two runs at most `gap` columns apart
    /// taken as one: the strokes of one icon or the letters of one word.
    public static func runs(of columns: [Bool], joiningGapsUpTo gap: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        for (column, drawn) in columns.enumerated() where drawn {
            if let last = runs.last, column - last.upperBound <= gap {
                runs[runs.count - 1] = last.lowerBound..<(column + 1)
            } else {
                runs.append(column..<(column + 1))
            }
        }
        return runs
    }
}
