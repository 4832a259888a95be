/// A button of an alarm's notification — AlarmKit's `AlarmButton`.
///
/// The agent uses `text` for the secondary button; the stop button is always "Stop" today, and
/// neither colour nor icon is shown (see `Color`, `freedesktopIconName`). They are kept so a port
/// loses nothing and so the agent can show them once it can.
public struct AlarmButton: Codable, Hashable, Sendable {
    /// The button's label, e.g. "Snooze", "Repeat", "Next step" (at most 40 characters).
    public var text: LocalizedStringResource
    /// The label's colour.
    public var textColor: Color
    /// The SF Symbols name AlarmKit code gives (`"stop.fill"`); see `freedesktopIconName` for
    /// its Linux counterpart.
    public var systemImageName: String

    /// A button labelled `text`.
    public init(text: LocalizedStringResource, textColor: Color, systemImageName: String) {
        self.text = text
        self.textColor = textColor
        self.systemImageName = systemImageName
    }

    /// The stop button the system provides (AlarmKit 26.1): what the agent shows.
    static let systemStop = AlarmButton(text: "Stop", textColor: .white, systemImageName: "stop.fill")

    /// The icon of the freedesktop Icon Naming Specification that shows what `systemImageName`
    /// shows (`"pause.fill"` → `"media-playback-pause"`), when the specification has one; `nil`
    /// otherwise. Filled, circled and squared variants map like the plain symbol.
    public var freedesktopIconName: String? {
        let variants: Set<Substring> = ["fill", "circle", "square"]
        let plainSymbol = systemImageName.split(separator: ".").filter { !variants.contains($0) }.joined(separator: ".")
        return Self.freedesktopIcons[plainSymbol]
    }

    /// SF Symbols (plain form) and the standard freedesktop icon showing the same thing.
    static let freedesktopIcons: [String: String] = [
        "stop": "media-playback-stop",
        "pause": "media-playback-pause",
        "play": "media-playback-start",
        "playpause": "media-playback-start",
        "forward": "media-seek-forward",
        "backward": "media-seek-backward",
        "forward.end": "media-skip-forward",
        "backward.end": "media-skip-backward",
        "repeat": "media-playlist-repeat",
        "shuffle": "media-playlist-shuffle",
        "xmark": "window-close",
        "arrow.clockwise": "view-refresh",
        "arrow.right": "go-next",
        "chevron.right": "go-next",
        "arrow.left": "go-previous",
        "chevron.left": "go-previous",
        "house": "go-home",
        "plus": "list-add",
        "minus": "list-remove",
        "trash": "edit-delete",
        "magnifyingglass": "edit-find",
        "gearshape": "preferences-system",
        "gear": "preferences-system",
        "speaker.slash": "audio-volume-muted",
        "speaker.wave.1": "audio-volume-low",
        "speaker.wave.2": "audio-volume-medium",
        "speaker.wave.3": "audio-volume-high",
        "info": "dialog-information",
        "exclamationmark.triangle": "dialog-warning",
        "calendar": "x-office-calendar",
    ]
}
