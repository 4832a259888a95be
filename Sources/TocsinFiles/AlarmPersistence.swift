import FoundationEssentials
import TocsinCore

/// Everything the agent keeps on disk: a snapshot of all alarms (`alarms.json`, `AlarmStore`)
/// and the journal of changes since (`alarms.journal`, `AlarmJournal`).
///
/// A change is one appended, flushed journal line, so saving costs the same with ten alarms or
/// ten thousand; once the journal has grown as long as the book, it is folded into a new
/// snapshot. Loading reads the snapshot and replays the journal on top.
public final class AlarmPersistence: @unchecked Sendable {
    // @unchecked: used from the agent's main thread only.

    /// The snapshot.
    public let snapshot: AlarmStore
    /// The journal.
    public let journal: AlarmJournal

    /// The fewest journal lines worth folding into a snapshot.
    public static let minimumJournalLength = 512

    /// Persistence in `directory`.
    public init(directory: URL) {
        snapshot = AlarmStore(directory: directory)
        journal = AlarmJournal(directory: directory)
    }

    /// The snapshot file, which names where state lives in messages.
    public var fileURL: URL { snapshot.fileURL }
    /// False when a file on disk must not be overwritten (see `AlarmStore`).
    public var isWritable: Bool { snapshot.isWritable }

    /// What `load()` found.
    public struct Loaded: Sendable {
        /// The snapshot's outcome, with the journal's changes applied to its alarms.
        public var outcome: AlarmStore.LoadOutcome
        /// The zone the alarms' local times were resolved in, if known.
        public var timeZone: TimeZoneRules?
        /// Something about the journal worth a log line, if anything.
        public var journalNote: String?
    }

    /// Reads the snapshot and replays the journal; when the journal held anything, folds it into
    /// a new snapshot at once, so a start-up after a crash begins from one clean file. `now` dates
    /// a file that has to be set aside.
    public func load(now: Date) -> Loaded {
        let outcome = snapshot.load(now: now)
        var alarms: [Alarm]
        switch outcome {
        case .unusable:
            // The snapshot is kept as it is; the journal is left alone with it.
            return Loaded(outcome: outcome, timeZone: nil, journalNote: nil)
        case .setAside:
            // The journal's changes apply to the snapshot that was set aside: keep it beside it.
            let note = journal.setAside(reason: "its snapshot was set aside", now: now).map { "The journal of that snapshot was kept as \($0.path)." }
            return Loaded(outcome: outcome, timeZone: nil, journalNote: note)
        case .empty:
            alarms = []
        case .loaded(let saved), .migrated(let saved, _):
            alarms = saved
        }
        var zone = snapshot.savedTimeZone?.identifier
        var note: String?
        let changes: [AlarmJournal.Change]
        switch journal.read(now: now) {
        case .read(let read):
            changes = read
        case .readDroppingTornTail(let read):
            changes = read
            note = "The last change in \(journal.fileURL.path) was cut short (the agent stopped while writing it) and is dropped."
        case .setAside(let reason, let movedTo):
            changes = []
            note = "The journal \(journal.fileURL.path) could not be used: \(reason). It was kept as \(movedTo.path); the snapshot is used without it."
        }
        if !changes.isEmpty || note != nil {
            var byID = Dictionary(alarms.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            var order = alarms.map(\.id)
            for change in changes {
                switch change {
                case .put(let alarm):
                    if byID.updateValue(alarm, forKey: alarm.id) == nil { order.append(alarm.id) }
                case .remove(let id):
                    byID[id] = nil
                case .zone(let identifier):
                    zone = identifier
                }
            }
            alarms = order.compactMap { byID[$0] }
            // Fold it in now; if that fails the journal still holds the changes.
            if (try? snapshot.save(alarms, timeZone: zone.flatMap({ TimeZoneRules(restoring: $0) }))) != nil {
                journal.clear()
            }
        }
        let merged: AlarmStore.LoadOutcome = switch outcome {
        case .migrated(_, let version): .migrated(alarms, fromVersion: version)
        case .empty where alarms.isEmpty: .empty
        default: .loaded(alarms)
        }
        return Loaded(outcome: merged, timeZone: zone.flatMap({ TimeZoneRules(restoring: $0) }), journalNote: note)
    }

    /// Records `changes` durably before they take effect. The book after them holds `count`
    /// alarms; `current` gives them all, asked only when the journal is long enough to fold into
    /// a new snapshot.
    public func record(_ changes: [AlarmJournal.Change], count: Int, current: () -> [Alarm], timeZone: TimeZoneRules) throws(StoreError) {
        if let reason = snapshot.unwritableReason {
            throw StoreError("Not saving to \(fileURL.path): \(reason).")
        }
        try journal.append(changes)
        if journal.count >= max(Self.minimumJournalLength, count) {
            // A failed fold loses nothing: the journal keeps the changes until the next try.
            if (try? snapshot.save(current(), timeZone: timeZone)) != nil {
                journal.clear()
            }
        }
    }

    /// Writes every alarm as a new snapshot and empties the journal.
    public func saveAll(_ alarms: [Alarm], timeZone: TimeZoneRules) throws(StoreError) {
        try snapshot.save(alarms, timeZone: timeZone)
        journal.clear()
    }
}
