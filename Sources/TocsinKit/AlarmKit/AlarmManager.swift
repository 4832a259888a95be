import Foundation
import TocsinCore

/// Schedules and manages an application's alarms and timers — AlarmKit's `AlarmManager`, on a
/// Linux desktop, through the Tocsin agent (`tocsind`) on the session bus.
///
/// Code written for AlarmKit ports almost line by line:
///
/// ```swift
/// import TocsinKit
///
/// let manager = AlarmManager.shared
/// guard try await manager.requestAuthorization() == .authorized else { return }
/// let alert = AlarmPresentation.Alert(title: "Pasta is ready")
/// let attributes = AlarmAttributes<PastaData>(presentation: AlarmPresentation(alert: alert), metadata: PastaData(), tintColor: .orange)
/// let alarm = try await manager.schedule(id: UUID(), configuration: .timer(duration: 540, attributes: attributes))
/// for await alarms in manager.alarmUpdates { … }
/// ```
///
/// What differs from AlarmKit, and why:
/// - **The application id.** The agent files alarms and the user's consent under an application
///   id. `shared` works it out (see `shared`); `init(appID:)` names it explicitly.
/// - **Intents.** A stop or secondary intent is the app's own `LiveActivityIntent`, performed in
///   the app's process when its button is pressed (`IntentPerformer`) — the agent starts the app
///   for it when it is not running (D-Bus activation, or this program with `--tocsin-intents`;
///   the app must use `AlarmManager` as it starts) — or a shell command the agent runs
///   (`.command`); the running app also sees every press in `alarmEvents`.
/// - **Ids.** The id you pass to `schedule(id:configuration:)` is the alarm's id in every answer
///   and every method here. The agent keeps its own id too (the one `tocsin list` shows and hooks
///   get as `TOCSIN_ID`); TocsinKit stores your id with the alarm, so the mapping holds across
///   restarts and processes.
/// - **Presentation.** The agent shows one title (`alert.title`) and its own buttons (Stop,
///   Pause/Resume/Cancel while counting down); colours, icons, the stop button's text and the
///   countdown and paused titles are kept as data for when it can show them.
///
/// Every method that can fail throws an `AlarmError`, declared untyped (`throws`) as AlarmKit's
/// are: with `throws(AlarmError)`, AlarmKit code that catches one case
/// (`catch AlarmManager.AlarmError.maximumLimitReached`) after leaving a `for await` loop with
/// `break` crashed Swift 6.3.1's compiler in Swift 5 mode ("Found ownership error").
///
/// Every method talks to the agent synchronously over D-Bus, and may start it through D-Bus
/// activation. The `async` ones (`schedule`, `requestAuthorization`) can wait minutes for the user
/// to answer the consent question, so they run on a thread of their own, never blocking Swift
/// concurrency's threads. The update sequences are fed by the agent's signals, received on a GLib
/// main loop that TocsinKit runs on a background thread of its own, started the first time one of
/// them is asked for.
///
/// One application id per process: the agent records the id per bus connection, and TocsinKit
/// shares the process's session-bus connection, so managers for two ids in one process would take
/// turns being each other.
public final class AlarmManager: Sendable {
    /// The manager for this process's application: its id is `TOCSIN_APP_ID` when set (the agent
    /// sets it for hooks, so a hook that runs the app again speaks for the same app), else the
    /// Flatpak sandbox's `FLATPAK_ID`, else the executable's file name — the same name the agent
    /// would give an unidentified caller.
    public static let shared = AlarmManager(appID: ApplicationIdentity.current())

    /// The application id alarms and consent are filed under, e.g. `org.example.Cook`.
    public let appID: String

    let agent: AgentLink
    let watcher: AgentWatcher
    let performer = IntentPerformer()

    /// A manager speaking for the application `appID` (letters, digits, `.`, `-`, `_`, such as
    /// `org.example.Cook`). An id the agent cannot accept makes every call fail with
    /// `AlarmError.invalidArgument`; a Flatpak-sandboxed app can only be its sandbox's id.
    public init(appID: String) {
        self.appID = appID
        agent = AgentLink(appID: appID)
        watcher = AgentWatcher(appID: appID)
        // Started by the agent to perform one of the app's intents: take it at once.
        if Self.wasStartedForIntents { startListening() }
    }

    deinit {
        // Ends the background main loop and lets go of the bus connection before the manager goes.
        watcher.stop()
        performer.stop()
    }
}
