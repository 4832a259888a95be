/// The buttons of an alarm that run an intent of its application's own — TocsinKit's
/// `stopIntent` and `secondaryIntent` given an App Intent — and how the agent starts the
/// application to perform one when it is not running.
///
/// The agent knows nothing of the intent itself (TocsinKit keeps its type and parameters in the
/// alarm's metadata); it tells the application which button was pressed, through
/// `org.freedesktop.Application.ActivateAction`, and the application performs it.
public struct AppIntentButtons: Sendable, Equatable, Codable {
    /// A button that can carry an intent.
    public enum Button: String, Sendable, Codable, CodingKeyRepresentable, CaseIterable {
        /// Stop (AlarmKit's `stopIntent`).
        case stop
        /// The secondary button: Snooze or a custom one (AlarmKit's `secondaryIntent`).
        case secondary
    }

    /// Where the intent runs.
    public enum Mode: String, Sendable, Codable, CaseIterable {
        /// In the application's process, which stays in the background.
        case background
        /// In the application's process, which is then brought to the front (`openAppWhenRun`):
        /// the agent also calls `org.freedesktop.Application.Activate`.
        case foreground
    }

    /// The buttons that carry an intent, and how each runs.
    public var modes: [Button: Mode]
    /// The program the agent starts, with `launchArgument`, to perform an intent while the
    /// application is not running and cannot be started by D-Bus activation: an absolute path.
    /// Never used for a sandboxed application, which is started only as its sandbox allows.
    public var executable: String?

    /// The argument the agent starts `executable` with; TocsinKit recognises it and takes the
    /// agent's intents as the application starts.
    public static let launchArgument = "--tocsin-intents"
    /// The name of the action the agent activates on the application; its parameter is
    /// `(alarm id, button, metadata)`.
    public static let actionName = "tocsin-perform-intent"
    /// The longest executable path accepted, in bytes.
    public static let maximumExecutableLength = 4096

    /// Buttons `modes`, started through `executable` if given.
    public init(modes: [Button: Mode], executable: String? = nil) {
        self.modes = modes
        self.executable = executable
    }

    /// The button whose press an event of `kind` is: Stop for `.stopped`, the secondary button
    /// for `.snoozed` and `.secondary`; `nil` for every other event.
    public static func button(pressedBy kind: AlarmEvent.Kind) -> Button? {
        switch kind {
        case .stopped: .stop
        case .snoozed, .secondary: .secondary
        default: nil
        }
    }

    /// Refuses what the agent could not act on: no button, a relative or oversized path.
    public func validate() throws(AlarmInputError) {
        guard !modes.isEmpty else {
            throw AlarmInputError("The app intents name no button; give “stop” or “secondary”.")
        }
        if let executable {
            guard executable.hasPrefix("/"), !executable.contains("\0") else {
                throw AlarmInputError("The app's executable must be an absolute path (got “\(AlarmInputError.quotable(executable.prefix(64)))”).")
            }
            guard executable.utf8.count <= Self.maximumExecutableLength else {
                throw AlarmInputError("The app's executable path is \(executable.utf8.count) bytes long; at most \(Self.maximumExecutableLength) are accepted.")
            }
        }
    }
}
