import FoundationEssentials

/// What `tocsin doctor` says of the phones: whether an unanswered alarm will ring any, from the
/// settings and what KDE Connect answers. Pure, so each case is tested.
public enum PhoneReadiness {
    /// One line of the report: ok or a warning, what is so, and what to do.
    public struct Report: Equatable, Sendable {
        public var isWarning: Bool
        public var message: String
        public var fix: String?
    }

    /// The report for `settings` (or why they could not be read), and KDE Connect's paired,
    /// reachable devices by name (or why it did not answer; it is not asked while phones are off).
    public static func report(settings: Result<PhoneRingSettings, StoreError>, devices: Result<[String], StoreError>?) -> Report {
        let read: PhoneRingSettings
        switch settings {
        case .failure(let error):
            return Report(isWarning: true, message: "\(error.message): no phone will ring", fix: "Remove the file, or fix it; then run tocsin phone enable.")
        case .success(let settings): read = settings
        }
        guard read.isEnabled else {
            return Report(isWarning: false, message: "off (tocsin phone enable rings your paired phones when nobody answers)")
        }
        let after = "on after \(DurationFormat.spoken(read.delay)) unanswered"
        switch devices {
        case .failure(let error)?:
            return Report(isWarning: true, message: "\(after), but KDE Connect does not answer (\(error.message)): no phone will ring",
                          fix: "Start KDE Connect (kdeconnectd) and pair your phone.")
        case .success(let names)? where !names.isEmpty:
            return Report(isWarning: false, message: "\(after): \(names.joined(separator: ", ")) will ring")
        case .success?, nil:
            return Report(isWarning: true, message: "\(after), but no paired phone is within reach: none will ring",
                          fix: "Pair the phone in KDE Connect, or bring it onto the same network.")
        }
    }
}
