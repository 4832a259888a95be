/// What an alarm shows and carries — AlarmKit's `AlarmAttributes`.
public struct AlarmAttributes<Metadata: AlarmMetadata>: Codable, Hashable, Sendable {
    /// The live activity's changing content — AlarmKit's `AlarmAttributes.ContentState`, read here
    /// as `Alarm.presentationState`.
    public typealias ContentState = AlarmPresentationState

    /// What it shows in each state.
    public var presentation: AlarmPresentation
    /// Your data, kept with the alarm by the agent and handed back (`Alarm.metadata(as:)`) and to
    /// hooks (`TOCSIN_METADATA`).
    public var metadata: Metadata?
    /// The alarm's accent colour (kept as data; see `Color`).
    public var tintColor: Color

    /// Attributes with `presentation`, optional `metadata` and a tint.
    public init(presentation: AlarmPresentation, metadata: Metadata? = nil, tintColor: Color) {
        self.presentation = presentation
        self.metadata = metadata
        self.tintColor = tintColor
    }
}

/// Data an application keeps with its alarms — AlarmKit's `AlarmMetadata`: a small `Codable`
/// value, stored as JSON by the agent (with the alarm's id, at most 4096 bytes in all; more is
/// refused with `AlarmManager.AlarmError.metadataTooLarge`).
///
/// ```swift
/// struct CookingData: AlarmMetadata {
///     var recipe: String
///     var step: Int
/// }
/// ```
public protocol AlarmMetadata: Codable, Hashable, Sendable {}
