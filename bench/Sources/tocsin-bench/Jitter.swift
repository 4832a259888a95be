import Foundation
import HeadlessSession

/// Live-activity jitter: how far each per-second update of a countdown notification lands from the
/// whole second of remaining time it shows.
///
/// A countdown shows whole seconds rounded up, so the update that shows `d` seconds is due when
/// exactly `d` seconds remain: at fire time − d. The update's time is when the bus monitor saw the
/// Notify call on its way to the notification server (what the user sees, within a few ms).
enum Jitter {
    static let section = "Live activity"

    /// The jitter figure of the updates sent during `window`.
    static func figure(for window: IdleCost.CountdownWindow, notifications: [ObservedNotification]) -> Figure {
        var lateness: [Double] = []
        for notification in notifications
        where notification.replacesID != 0 && notification.receivedAt >= window.start && notification.receivedAt <= window.end {
            guard let due = window.fireTimes[notification.summary],
                  let shown = remainingSeconds(in: notification.body) else { continue }
            let intended = due.addingTimeInterval(-Double(shown))
            lateness.append(notification.receivedAt.timeIntervalSince(intended) * 1000)
        }
        let plural = window.countdowns == 1 ? "" : "s"
        return Figure.samples(
            lateness, section: section,
            label: "per-second update lateness vs the whole second shown, \(window.countdowns) countdown\(plural) on screen (Notify seen on the bus)",
            unit: "ms", target: Target(statistic: .p99, limit: 20, unit: "ms"),
            emptyReason: "no countdown update was seen during the window")
    }

    /// The seconds a countdown body shows ("59:58 remaining · ends 14:03" → 3598).
    static func remainingSeconds(in body: String) -> Int? {
        guard let match = body.firstMatch(of: /(\d+):(\d\d)(?::(\d\d))? remaining/) else { return nil }
        let fields = [match.1, match.2, match.3].compactMap { $0 }.compactMap { Int($0) }
        return fields.reduce(0) { $0 * 60 + $1 }
    }
}
