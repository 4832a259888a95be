/// An action of an application that the system performs for a person — App Intents'
/// `AppIntent`, as far as alarms need it.
///
/// On Apple's platforms the system learns an app's intents from metadata the compiler extracts;
/// on Linux TocsinKit stores an intent given to an alarm (`stopIntent`, `secondaryIntent`) as
/// its type's name and its `@Parameter` values, and performs it in the application's own process
/// when its button is pressed. So an intent needs what App Intents asks for anyway: `init()`
/// and its inputs as `@Parameter` properties (anything else is not stored).
///
/// ```swift
/// struct RepeatIntent: LiveActivityIntent {
///     static var title: LocalizedStringResource = "Repeat"
///     static var description = IntentDescription("Repeat a countdown")
///     @Parameter(title: "alarmID") var alarmID: String
///     init(alarmID: String) { self.alarmID = alarmID }
///     init() { self.alarmID = "" }
///     func perform() throws -> some IntentResult {
///         try AlarmManager.shared.countdown(id: UUID(uuidString: alarmID)!)
///         return .result()
///     }
/// }
/// ```
public protocol AppIntent: Sendable {
    /// What `perform()` returns.
    associatedtype PerformResult: IntentResult
    /// The intent's name, as a person reads it (in logs and `tocsin list` on Linux).
    static var title: LocalizedStringResource { get }
    /// What it does.
    static var description: IntentDescription? { get }
    /// Whether the application is brought to the front before it is performed
    /// (`org.freedesktop.Application.Activate` on Linux). Deprecated by Apple in 26.0 for
    /// `supportedModes`; both are read.
    static var openAppWhenRun: Bool { get }
    /// Where it runs: in the background, or with the application brought to the front.
    static var supportedModes: IntentModes { get }
    /// An intent with every parameter at its default; TocsinKit then sets the stored ones.
    init()
    /// Does what the intent is for. May be synchronous or asynchronous, and may throw: what it
    /// throws is logged and reported to the app (`AlarmManager.intentFailures`), never lost.
    func perform() async throws -> PerformResult
}

extension AppIntent {
    /// No description unless the intent gives one. (A `static var description =
    /// IntentDescription("…")` of the intent is its own, as on Apple's platforms.)
    public static var description: IntentDescription? { nil }
    /// Not brought to the front unless the intent says so.
    public static var openAppWhenRun: Bool { false }
    /// In the background, or in the foreground where `openAppWhenRun` says so.
    public static var supportedModes: IntentModes { openAppWhenRun ? .foreground : .background }
}

/// An intent the system performs on its own, without the app's interface — App Intents'
/// `SystemIntent`.
public protocol SystemIntent: AppIntent {}

/// An intent a Live Activity's buttons perform — App Intents' `LiveActivityIntent`: what
/// AlarmKit takes as an alarm's `stopIntent` and `secondaryIntent`.
public protocol LiveActivityIntent: SystemIntent {}

/// Where an intent runs — App Intents' `IntentModes` (26.0).
public struct IntentModes: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    /// Creates a set of modes from its raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Without bringing the application to the front.
    public static let background = IntentModes(rawValue: 1)
    /// With the application brought to the front (`org.freedesktop.Application.Activate`).
    public static let foreground = IntentModes(rawValue: 2)

    /// When the application is brought to the front. Linux raises it before `perform()` in
    /// every case; the value is accepted for the ports' sake.
    public enum ForegroundMode: Hashable, Sendable {
        case immediate, dynamic, deferred
    }

    /// In the foreground, brought there `mode`.
    public static func foreground(_ mode: ForegroundMode) -> IntentModes { .foreground }
}
