import Foundation
import HeadlessSession

/// Live-activity jitter: how far each per-second update of a countdown notification lands from the
/// whole second of the clock it belongs to.
///
/// The agent updates every countdown on screen together, on the clock's whole seconds, showing
/// the remaining time rounded to the nearest second. The update that shows `d` seconds is
/// therefore due at the first whole second at which less than `d` + ½ seconds remain: the whole
/// second after fire time − d − ½. An update a whole second late counts as a second late, not as on time. The update's
/// time is when the bus monitor saw the Notify call on its way to the notification server (what
/// the user sees, within a few ms).
enum Jitter {
    static let section = "Live activity"

    /// The jitter figure of the updates sent during `window`.
    static func figure(for window: IdleCost.CountdownWindow, notifications: [ObservedNotification]) -> Figure {
        var lateness: [Double] = []
        for notification in notifications
        where notification.replacesID != 0 && notification.receivedAt >= window.start && notification.receivedAt <= window.end {
            guard let due = window.fireTimes[notification.summary],
                  let shown = remainingSeconds(in: notification.body) else { continue }
            let intended = dueTick(showing: shown, fireTime: due)
            lateness.append(notification.receivedAt.timeIntervalSince(intended) * 1000)
        }
        let plural = window.countdowns == 1 ? "" : "s"
        return Figure.samples(
            lateness, section: section,
            label: "per-second update lateness vs the clock's whole second, \(window.countdowns) countdown\(plural) on screen (Notify seen on the bus)",
            unit: "ms", target: Target(statistic: .p99, limit: 20, unit: "ms"),
            emptyReason: "no countdown update was seen during the window")
    }

    /// The whole second of the clock at which a countdown ending at `fireTime` first shows `shown`
    /// seconds (remaining time rounded to the nearest, halves up), float noise under a
    /// millisecond ignored.
    static func dueTick(showing shown: Int, fireTime: Date) -> Date {
        let boundary = fireTime.timeIntervalSince1970 - Double(shown) - 0.5
        let cleaned = (boundary * 1000).rounded() / 1000
        // At exactly d + ½ left the display still rounds up to d + 1: the next whole second.
        return Date(timeIntervalSince1970: cleaned.rounded(.down) + 1)
    }

    /// The seconds a countdown body shows ("59:58 remaining, ends 14:03." → 3598).
    static func remainingSeconds(in body: String) -> Int? {
        guard let match = body.firstMatch(of: /(\d+):(\d\d)(?::(\d\d))? remaining/) else { return nil }
        let fields = [match.1, match.2, match.3].compactMap { $0 }.compactMap { Int($0) }
        return fields.reduce(0) { $0 * 60 + $1 }
    }
}
