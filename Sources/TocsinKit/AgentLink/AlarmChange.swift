import Foundation
import TocsinCore

/// One change the agent announced: an alarm scheduled, paused, fired, stopped… with its state.
public struct AlarmChange: Sendable, Equatable {
    /// What happened (`scheduled`, `fired`, `stopped`, …).
    public let event: AlarmEvent.Kind
    /// The alarm after the change; for a removal, as it was when removed.
    public let alarm: Alarm
    /// True when the alarm no longer exists (`event` is then the reason).
    public let isRemoval: Bool
    /// When this client received the announcement.
    public let receivedAt: Date
}
