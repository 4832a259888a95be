import Foundation
import Testing
import TocsinCore
@testable import TocsinAgent

// Recording stand-ins for the parts a RunningAgent works with (AgentParts.swift), for running
// the agent in-process: each keeps what it was asked to do, in order.

/// A clock moved by hand.
final class ManualClock: AgentClock {
    var now: Date
    init(_ now: Date) { self.now = now }
}

/// Notifications as the agent asked for them; `onScreen` is what a server would show now.
final class RecordingNotifications: AlarmNotifications {
    var onAction: (UUID, String) -> Void = { _, _ in }
    var onDismissed: (UUID) -> Void = { _ in }
    var onClosedAfterButton: (UUID) -> Void = { _ in }
    var onPressLostToUpdate: (UUID) -> Void = { _ in }
    var onBannerGone: (UUID) -> Void = { _ in }
    var serverProfile = NotificationServerProfile.unknown
    private(set) var shown: [(id: UUID, content: NotificationContent, isTick: Bool)] = []
    private(set) var withdrawn: [UUID] = []
    private(set) var notices: [NotificationContent] = []
    private(set) var onScreen: [UUID: NotificationContent] = [:]

    func show(_ content: NotificationContent, for id: UUID) { record(id, content, isTick: false) }
    func showCountdown(_ content: NotificationContent, for id: UUID) { record(id, content, isTick: true) }
    func withdraw(_ id: UUID) {
        withdrawn.append(id)
        onScreen[id] = nil
    }
    func announce(_ content: NotificationContent) { notices.append(content) }

    private func record(_ id: UUID, _ content: NotificationContent, isTick: Bool) {
        shown.append((id, content, isTick))
        onScreen[id] = content
    }

    /// A person pressing the button labelled `label` on alarm `id`'s notification.
    func press(_ label: String, on id: UUID) throws {
        let content = try #require(onScreen[id], "no notification on screen for \(id)")
        let action = try #require(content.actions.first { $0.label == label }, "no “\(label)” among \(content.actions.map(\.label))")
        onAction(id, action.key)
    }
}

/// What rang and what was silenced.
final class RecordingSounds: AlarmSounds {
    private(set) var ringingAlarms: [UUID] = []
    private(set) var rings: [(id: UUID, ring: AlarmRing)] = []
    private(set) var silenced: [UUID] = []
    var soundProblem: String?
    var onSoundProblemChange: () -> Void = {}

    func ring(_ id: UUID, _ ring: AlarmRing) {
        guard !ringingAlarms.contains(id) else { return }
        ringingAlarms.append(id)
        rings.append((id, ring))
    }

    func silence(_ id: UUID) {
        silenced.append(id)
        ringingAlarms.removeAll { $0 == id }
    }
}

/// Hooks the agent would have run.
final class RecordingHooks: AlarmHooksRunning {
    private(set) var runs: [(command: String, event: HookEvent, alarm: UUID, fireTime: Date?)] = []
    func run(_ command: String, event: HookEvent, alarm: Alarm, fireTime: Date?) {
        runs.append((command, event, alarm.id, fireTime))
    }
}

/// The app intents the agent had performed, and the receivers it was told of.
final class RecordingAppIntents: AppIntentsDelivering {
    private(set) var performed: [(button: AppIntentButtons.Button, alarm: UUID, mode: AppIntentButtons.Mode)] = []
    private(set) var receivers: [(sender: String, appID: String)] = []
    func perform(_ button: AppIntentButtons.Button, of alarm: Alarm, mode: AppIntentButtons.Mode) {
        performed.append((button, alarm.id, mode))
    }
    func addReceiver(_ sender: String, appID: String) { receivers.append((sender, appID)) }
    func forget(_ sender: String) { receivers.removeAll { $0.sender == sender } }
}

/// A tray in a panel: what it was asked to show, and a way to click it.
final class RecordingTray: TrayShowing {
    var isHosted: Bool
    init(hosted: Bool) { isHosted = hosted }
    var host: PanelReadiness.Host { isHosted ? .tray : .none }
    var onHostChange: () -> Void = {}
    var onAction: (TrayContent.Action) -> Void = { _ in }
    private(set) var shown: [TrayContent?] = []
    /// What it shows now.
    var current: TrayContent? { shown.last ?? nil }
    func show(_ content: TrayContent?) {
        if shown.isEmpty || shown.last! != content { shown.append(content) }
    }
}

/// The media player a ringing alarm shows as: what it was asked to show, and a way to press its
/// controls, as `RingingPlayer` turns a press into the intent its content gives it.
final class RecordingPlayer: RingingPlayerShowing {
    var onPress: (AlarmIntent, UUID) -> Void = { _, _ in }
    private(set) var shown: [RingingPlayerContent?] = []
    /// What it shows now.
    var current: RingingPlayerContent? { shown.last ?? nil }
    func show(_ content: RingingPlayerContent?) { shown.append(content) }
    /// Presses `control`, as a lock screen or `playerctl` does.
    func press(_ control: RingingPlayerContent.Control) {
        guard let current, let intent = current.intent(for: control) else { return }
        onPress(intent, current.alarmID)
    }
}

/// What a locked screen was given, and presses of its buttons.
final class RecordingLockScreen: LockScreenShowing {
    var onPress: (AlarmIntent, UUID) -> Void = { _, _ in }
    private(set) var shown: [LockScreenContent] = []
    /// What it shows now.
    var current: LockScreenContent? { shown.last }
    func show(_ content: LockScreenContent) { shown.append(content) }
    /// Presses the button labelled `label` of the entry titled `title`, as a person does on the
    /// lock screen; false when no such button is shown.
    @discardableResult
    func press(_ label: String, on title: String) -> Bool {
        guard let entry = current?.entries.first(where: { $0.title == title }),
              let button = entry.buttons.first(where: { $0.label == label }) else { return false }
        onPress(button.intent, entry.id)
        return true
    }
}

/// The display's wakes and holds, in order: "wake", "hold", "release".
final class RecordingDisplay: DisplayWaking {
    private(set) var calls: [String] = []
    func wake() { calls.append("wake") }
    func hold(_ awake: Bool) { calls.append(awake ? "hold" : "release") }
}

/// Signals the agent sent.
final class RecordingSignals: AgentSignals {
    private(set) var events: [AlarmEvent] = []
    private(set) var authorizations: [(app: String, state: AuthorizationState)] = []
    func announce(_ event: AlarmEvent) { events.append(event) }
    func announceAuthorization(_ state: AuthorizationState, of app: String) { authorizations.append((app, state)) }
    private var watchers: Set<String> = []
    func watch(from sender: String) { watchers.insert(sender) }
    func forget(_ sender: String) { watchers.remove(sender) }
    func open() {}
    var watcherCount: Int { watchers.count }

    /// The kinds of the events about alarm `id`, in order.
    func kinds(of id: UUID) -> [AlarmEvent.Kind] { events.filter { $0.alarm.id == id }.map(\.kind) }
}

/// A timer that remembers what it was armed for.
final class RecordingTimer: InstantTimer {
    private(set) var armed: [Date?] = []
    /// What it is armed for now.
    var next: Date? { armed.last ?? nil }
    func arm(at date: Date?) { armed.append(date) }
}

/// A notification server that answers at once.
final class QuietServer: NotificationServerWatch {
    var server: NotificationServerMonitor.Server? = .init(.init(name: "test", vendor: "Tocsin", version: "1", capabilities: ["actions", "body-markup"]))
    var doNotDisturb: NotificationServerMonitor.DoNotDisturb = .off
    var onChange: () -> Void = {}
    func refresh(then completion: @escaping () -> Void) { completion() }
}

/// Log lines, kept, from whatever thread writes them.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
    var log: AgentLog {
        AgentLog { [self] line in
            lock.lock()
            lines.append(line)
            lock.unlock()
        }
    }
}

/// The phones the agent asked to ring, by alarm.
final class RecordingPhones: PhoneRinging {
    private(set) var rungFor: [UUID] = []
    var onRung: (Alarm) -> Void = { _ in }
    /// Each ring reaches a phone.
    func ring(for alarm: Alarm) {
        rungFor.append(alarm.id)
        onRung(alarm)
    }
}
