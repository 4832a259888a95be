/// The line a status bar reads from `tocsin watch --format …`, one per change of what it shows.
public enum PanelFormat: String, Sendable, CaseIterable {
    /// waybar's custom module with `return-type: json`: `{"text", "tooltip", "class", "alt",
    /// "percentage"}`; `class` and `alt` are the status, for styling and icons.
    case waybar
    /// i3blocks with `interval=persist`: the block's text.
    case i3blocks
    /// polybar's `custom/script` with `tail = true`: the module's text.
    case polybar
}

extension PanelSummary {
    /// What the tooltip says when nothing is on screen.
    public static let idleTooltip = "No timers running"

    /// The summary as one line of `format` (without the line break).
    public func line(as format: PanelFormat) -> String {
        switch format {
        case .waybar:
            return JSONValue.object([
                "text": .string(text),
                "tooltip": .string(lines.isEmpty ? Self.idleTooltip : lines.joined(separator: "\n")),
                "class": .string(status.rawValue),
                "alt": .string(status.rawValue),
                "percentage": .integer(percentage),
            ]).jsonText
        case .i3blocks:
            return text
        case .polybar:
            // polybar reads "%{…}" in a script's output as formatting: a title must not restyle
            // or click-bind the bar.
            return text.replacing("%{", with: "% {")
        }
    }
}
