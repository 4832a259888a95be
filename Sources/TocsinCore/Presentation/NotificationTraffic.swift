import FoundationEssentials

/// What the notification presenter sends next, and what it may forget: the traffic rules for one
/// notification per key (an alarm), kept apart from the library that sends it.
///
/// The presenter has one worker that makes one blocking call at a time (libnotify's show and
/// close wait for the server's answer). Between calls, content keeps coming — a countdown's every
/// second, a state change, an alert — and only the newest content of each key is worth sending:
/// older content is replaced while it waits, so a slow or frozen server gets fewer updates, never a
/// growing queue. What waits goes out by priority (an alert before a state change before a
/// countdown's tick), and in the order it first came within a priority, so one busy countdown
/// cannot starve the others.
///
/// A key's next call waits until its current one is done: a close never overtakes the show that
/// creates the notification, and an update never goes to a notification still being closed.
public struct NotificationTraffic<Key: Hashable>: Sendable where Key: Sendable {
    /// How urgent a piece of content is; higher goes first.
    public enum Priority: Int, Comparable, Sendable {
        /// A countdown's per-second update.
        case tick
        /// A change of state (paused, resumed, a new countdown), or a withdrawal.
        case change
        /// An alarm that rings, or a question the user must answer.
        case alert

        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One call for the worker to make.
    public enum Job: Equatable, Sendable {
        /// Show `content` for the key: create its notification, or replace it in place.
        case show(Key, NotificationContent)
        /// Close the key's notification.
        case close(Key)

        /// The key the job is for.
        public var key: Key {
            switch self {
            case .show(let key, _), .close(let key): key
            }
        }
    }

    private struct Slot {
        /// Content not sent yet.
        var pending: NotificationContent?
        /// The notification should go (once whatever is in progress is done).
        var closeWanted = false
        /// Its priority while something waits.
        var priority = Priority.tick
        /// When what waits first came, for first-come order within a priority; `nil` while
        /// nothing waits.
        var waitingSince: UInt64?
        /// The server shows it (as far as the presenter knows).
        var onScreen = false
        /// The worker is making a call for it.
        var busy = false

        var isWaiting: Bool { pending != nil || closeWanted }
    }

    private var slots: [Key: Slot] = [:]
    private var arrivals: UInt64 = 0

    /// No notifications, nothing waiting.
    public init() {}

    /// Keeps `content` as the key's next notification, replacing any content still waiting for it.
    public mutating func show(_ content: NotificationContent, for key: Key, priority: Priority) {
        var slot = slots[key] ?? Slot()
        slot.closeWanted = false
        slot.pending = content
        enqueue(&slot, priority: priority)
        slots[key] = slot
    }

    /// The key's notification should go: what waited for it is dropped, and it is closed if it is
    /// (or may be, once the call in progress returns) on screen.
    public mutating func withdraw(_ key: Key) {
        guard var slot = slots[key] else { return }
        slot.pending = nil
        if slot.onScreen || slot.busy {
            slot.closeWanted = true
            enqueue(&slot, priority: .change)
            slots[key] = slot
        } else {
            slots[key] = nil
        }
    }

    /// The next call to make, which marks its key busy; `nil` when nothing waits, or only keys
    /// whose call is still in progress.
    public mutating func next() -> Job? {
        var best: (key: Key, slot: Slot)?
        for (key, slot) in slots where slot.isWaiting && !slot.busy {
            if let current = best?.slot,
               slot.priority < current.priority || (slot.priority == current.priority && slot.waitingSince! > current.waitingSince!) {
                continue
            }
            best = (key, slot)
        }
        guard case (let key, var slot)? = best else { return nil }
        slot.busy = true
        let job: Job
        if slot.closeWanted {
            slot.closeWanted = false
            job = .close(key)
        } else {
            job = .show(key, slot.pending!)
            slot.pending = nil
        }
        slot.waitingSince = nil
        slots[key] = slot
        return job
    }

    /// The worker finished `job`; `succeeded` is false when the server could not be reached or
    /// refused it. A failed show is not retried: the next content for the key tries again.
    public mutating func finished(_ job: Job, succeeded: Bool) {
        guard var slot = slots[job.key] else { return }
        slot.busy = false
        switch job {
        case .show:
            slot.onScreen = succeeded
        case .close:
            // Closed, or the server is gone and took it along: either way not shown any more.
            slot.onScreen = false
        }
        if !slot.isWaiting && !slot.onScreen {
            slots[job.key] = nil
        } else {
            slots[job.key] = slot
        }
    }

    /// The server no longer shows the key's notification (the user or the server closed it, or
    /// another server took over): its next content makes a new one.
    public mutating func forget(_ key: Key) {
        guard var slot = slots[key] else { return }
        slot.onScreen = false
        // A withdrawal waiting for it has nothing left to close.
        if slot.closeWanted && !slot.busy {
            slot.closeWanted = false
            if slot.pending == nil { slot.waitingSince = nil }
        }
        slots[key] = slot.isWaiting || slot.busy ? slot : nil
    }

    /// Another server took over (or none is left): it shows none of the notifications.
    public mutating func forgetAll() {
        for key in Array(slots.keys) { forget(key) }
    }

    /// Whether anything waits to be sent (calls in progress aside).
    public var hasWork: Bool { slots.values.contains { $0.isWaiting && !$0.busy } }
    /// Whether the key's notification is on screen, as far as the presenter knows.
    public func isOnScreen(_ key: Key) -> Bool { slots[key]?.onScreen ?? false }
    /// How many keys the traffic tracks (on screen, waiting or busy): bounded by the alarms.
    public var trackedCount: Int { slots.count }

    /// Puts the slot in line, or — already in line — keeps its place and raises its priority.
    private mutating func enqueue(_ slot: inout Slot, priority: Priority) {
        if slot.waitingSince == nil {
            arrivals += 1
            slot.waitingSince = arrivals
            slot.priority = priority
        } else {
            slot.priority = max(slot.priority, priority)
        }
    }
}
