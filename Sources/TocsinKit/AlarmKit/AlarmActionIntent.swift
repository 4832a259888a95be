/// An intent the agent carries out itself, beside the App Intents an app writes: a shell
/// command, run whether or not the app is running — Tocsin's addition to AlarmKit's
/// `stopIntent` and `secondaryIntent`, written `.command("…")` or `.inApp` where those take a
/// `LiveActivityIntent`.
///
/// An app's own `LiveActivityIntent` is the AlarmKit way, and runs Swift code in the app; a
/// command suits a script, or work that must happen without the app.
public struct AlarmActionIntent: LiveActivityIntent, Codable, Hashable {
    /// What the agent does.
    enum Action: Codable, Hashable {
        case command(String)
        case inApp
    }

    let action: Action

    /// The command, for `.command`.
    public var command: String? {
        if case .command(let command) = action { command } else { nil }
    }

    /// The intent's name.
    public static let title: LocalizedStringResource = "Run a command"

    init(_ action: Action) {
        self.action = action
    }

    /// `.inApp`, the intent App Intents requires every intent to have.
    public init() {
        action = .inApp
    }

    /// Nothing to do in the app: the agent ran the command (or, for `.inApp`, the running app
    /// sees the `AlarmEvent`).
    public func perform() async throws -> some IntentResult {
        .result()
    }
}

extension LiveActivityIntent where Self == AlarmActionIntent {
    /// A shell command the agent runs with `/bin/sh -c` when it happens, whether or not the app
    /// is running. Its environment carries `TOCSIN_ID` (the alarm's id), `TOCSIN_TITLE`,
    /// `TOCSIN_EVENT` (`stop` or `secondary`), `TOCSIN_APP_ID` (so an app it starts speaks for
    /// the same application), `TOCSIN_FIRE_TIME` and `TOCSIN_METADATA` — the JSON
    /// `{"tocsinkit": 1, "id": "<Alarm.id>", "metadata": <your metadata>}`. Put anything else
    /// the command needs (your alarm id, a step number) in its text: you know them when scheduling.
    ///
    /// Not for an app in a Flatpak sandbox: the command would run outside the sandbox, so
    /// scheduling it fails with `AlarmError.notAuthorized`. A sandboxed app uses its own
    /// `LiveActivityIntent`.
    public static func command(_ command: String) -> AlarmActionIntent {
        AlarmActionIntent(.command(command))
    }

    /// Nothing runs: the running application handles it, seeing a `.stopped` or `.secondary`
    /// `AlarmManager.AlarmEvent` in `AlarmManager.alarmEvents`. The same as passing `nil`.
    public static var inApp: AlarmActionIntent {
        AlarmActionIntent(.inApp)
    }
}
