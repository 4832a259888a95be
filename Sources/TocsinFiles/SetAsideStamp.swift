import FoundationEssentials

/// The time in the name of a state file set aside because it could not be read,
/// "20261201T230512" (UTC): sorts by date, and says when it happened without opening it.
func setAsideStamp(_ now: Date) -> String {
    now.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeSeparator(.omitted).dateSeparator(.omitted))
}
