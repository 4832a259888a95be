/// A panel item drawn as an icon and then a label, light on a dark bar (Tocsin's item in GNOME
/// Shell's top bar), read from a strip of the bar column by column as the eye goes over it: the
/// icon, a gap, then the label from its first letter to the wide gap before the next item. A box a
/// font draws for a character it lacks, put in the label before its first letter, is one more
/// run of light columns between the icon and that letter.
public struct PanelItemColumns: Equatable, Sendable {
    /// The runs of light columns left of the label's first letter, in the strip's columns: the
    /// icon alone when all is well; more when something else is drawn there, none when no icon is.
    public let beforeLabel: [Range<Int>]
    /// The label's columns, from its first letter (`labelStart`) to its last before a gap of more
    /// than `itemGap` columns; nil when nothing light is drawn from `labelStart` on.
    public let label: Range<Int>?

    /// The state icon: the one run before the label, when it is alone there.
    public var icon: Range<Int>? { beforeLabel.count == 1 ? beforeLabel[0] : nil }

    /// Reads `strip` (the bar's rows, from some columns left of the item on), whose label's first
    /// letter begins at column `labelStart` (where OCR found the first word). A column is light
    /// when a pixel of it is at least `threshold` bright; the strokes of one icon are at most
    /// `strokeGap` columns apart (a bell's ringing lines beside it), the words of one label at
    /// most `itemGap` (GNOME puts about 30 between items, 8 between words).
    public init(strip: ScreenPixels, labelStart: Int, threshold: Double = 96, strokeGap: Int = 3, itemGap: Int = 15) {
        let light = strip.brightColumns(threshold: threshold)
        let start = max(0, min(labelStart, light.count))
        // The letter's own edge may fall a column before where OCR put it.
        let before = Array(light[0..<max(0, start - 2)])
        beforeLabel = ScreenPixels.runs(of: before, joiningGapsUpTo: strokeGap)
        let after = Array(light[start...])
        label = ScreenPixels.runs(of: after, joiningGapsUpTo: itemGap).first.map { ($0.lowerBound + start)..<($0.upperBound + start) }
    }
}
