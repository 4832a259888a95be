import FoundationEssentials

/// Which alarm an intent given without an id means: the one on screen that can take it.
///
/// What a panel click or a keyboard shortcut (`tocsin pause`) needs: with one timer counting
/// down, "pause" can only mean it. Only alarms with a live activity count — counting down,
/// paused or ringing — so a waiting wake-up alarm never makes "cancel" ambiguous, and is never
/// cancelled by it.
public enum IntentTarget: Equatable, Sendable {
    /// Exactly one alarm can take the intent.
    case one(Alarm)
    /// None can; the states that could, for the message ("counting down").
    case none(needs: String)
    /// Several can, oldest first: the caller must choose.
    case several([Alarm])

    /// The target of `intent` among `alarms` at `now`.
    public static func of(_ intent: AlarmIntent, among alarms: [Alarm], now: Date) -> IntentTarget {
        let candidates = alarms
            .filter { $0.state.name != .scheduled && (try? $0.applying(intent, at: now)) != nil }
            .sorted { $0.createdAt < $1.createdAt }
        switch candidates.count {
        case 0: return .none(needs: needs(intent))
        case 1: return .one(candidates[0])
        default: return .several(candidates)
        }
    }

    /// The states in which an alarm on screen takes `intent`, as a phrase.
    private static func needs(_ intent: AlarmIntent) -> String {
        switch intent {
        case .pause: AlarmStateName.countdown.phrase
        case .resume: AlarmStateName.paused.phrase
        case .cancel: "counting down, paused or ringing"
        case .stop, .countdown, .secondary: AlarmStateName.alerting.phrase
        }
    }
}
