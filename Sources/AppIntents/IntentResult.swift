/// What an intent's `perform()` returns — App Intents' `IntentResult`. Alarm intents return
/// `.result()`; a result's dialog or value has nowhere to be shown on Linux and is not offered.
public protocol IntentResult: Sendable {}

/// The result with nothing in it: what `.result()` makes.
public struct IntentResultContainer: IntentResult {
    init() {}
}

extension IntentResult where Self == IntentResultContainer {
    /// The result of an intent that did its work and has nothing to say.
    public static func result() -> Self { IntentResultContainer() }
}
